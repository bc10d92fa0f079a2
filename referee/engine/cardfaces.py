"""How cards look to people: a colour, a shape per colour (for colour-blind players) and a name.

``family`` prints a shape on every colour (red disc, yellow triangle, green square, blue diamond);
the compact deck's colours get shapes of their own here so every card can be told apart without colour.
The terminal and the HTML report use the same marks.
"""

from __future__ import annotations

import os
from typing import IO, Final

from referee.engine.cards import SHAPES, Card

#: Colour -> (shape name, glyph). The standard colours' shapes are the family document's.
MARKS: Final = {
    **{colour: (shape, {"disc": "●", "triangle": "▲", "square": "■", "diamond": "◆"}[shape])
       for colour, shape in SHAPES.items()},
    "teal": ("club", "♣"), "coral": ("heart", "♥"), "amber": ("star", "★"), "violet": ("spade", "♠"),
}
#: The glyph of a Wild (it has every colour and none).
WILD_MARK: Final = "✦"
#: Colour -> the CSS colour the report draws it in.
CSS: Final = {"red": "#d32f2f", "yellow": "#f2b705", "green": "#2e7d32", "blue": "#1565c0",
              "teal": "#00897b", "coral": "#ff6f61", "amber": "#ff8f00", "violet": "#7b1fa2"}
#: Colour -> ANSI foreground (256-colour codes where the 8 basic ones have no match).
_ANSI: Final = {"red": "31", "yellow": "33", "green": "32", "blue": "34",
                "teal": "36", "coral": "38;5;209", "amber": "38;5;214", "violet": "35"}
_SHORT_RANKS: Final = {"skip": "Skip", "reverse": "Reverse", "draw2": "+2", "wild": "Wild", "wild4": "Wild +4"}


def use_colour(stream: IO[str]) -> bool:
    """Whether to colour output to ``stream``: a terminal, and ``NO_COLOR`` not set (no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def mark(colour: str | None) -> str:
    """The glyph of ``colour`` (a Wild's when ``None``)."""
    return MARKS[colour][1] if colour in MARKS else WILD_MARK


def paint(text: str, colour: str | None, styled: bool) -> str:
    """``text`` in ``colour`` when ``styled`` (bold for wilds); unchanged otherwise."""
    if not styled:
        return text
    code = _ANSI.get(colour or "", "1")
    return f"\x1b[{code}m{text}\x1b[0m"


def label(card: Card | str, styled: bool = False, named: str | None = None) -> str:
    """A card for people: ``● red 7``, ``▲ yellow Skip``, ``✦ Wild``; ``named`` is a Wild's chosen colour."""
    if isinstance(card, str):
        card = Card.from_code(card)
    rank = _SHORT_RANKS.get(card.rank, card.rank)
    if card.colour is None:
        text = paint(f"{WILD_MARK} {rank}", None, styled)
        return text + " → " + colour_label(named, styled) if named else text
    return paint(f"{mark(card.colour)} {card.colour} {rank}", card.colour, styled)


def colour_label(colour: str | None, styled: bool = False) -> str:
    """A colour with its mark: ``● red``."""
    if colour is None:
        return "none"
    return paint(f"{mark(colour)} {colour}", colour, styled)
