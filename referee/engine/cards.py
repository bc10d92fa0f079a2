"""Cards, colours and decks, with text codes any language can parse (``teal:7``, ``wild4``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Final


class InvalidCardError(ValueError):
    """A card code that does not parse."""


NUMBER_RANKS: Final = tuple(str(n) for n in range(0, 11))
ACTION_RANKS: Final = ("skip", "reverse", "draw2")
WILD_RANKS: Final = ("wild", "wild4")

#: The two four-colour palettes: ``compact``'s own deck and the standard deck.
COMPACT_COLOURS: Final = ("teal", "coral", "amber", "violet")
STANDARD_COLOURS: Final = ("red", "yellow", "green", "blue")
ALL_COLOURS: Final = COMPACT_COLOURS + STANDARD_COLOURS

#: ``family`` prints a shape on every colour so colour-blind players can match by shape.
SHAPES: Final = {"red": "disc", "yellow": "triangle", "green": "square", "blue": "diamond"}

_RANK_NAMES: Final = {"skip": "Skip", "reverse": "Reverse", "draw2": "Draw Two",
                      "wild": "Wild", "wild4": "Wild Draw Four"}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card: a colour (``None`` for wilds) and a rank. A Wild's chosen colour belongs to the play."""

    colour: str | None
    rank: str
    # Derived once so the hot path reads attributes instead of recomputing.
    code: str = field(init=False, compare=False, repr=False)
    points: int = field(init=False, compare=False, repr=False)
    is_wild: bool = field(init=False, compare=False, repr=False)
    #: A number card or a plain Wild: playing it only passes the turn on (the engine's fast path).
    is_plain: bool = field(init=False, compare=False, repr=False)
    #: The card's place in ``_BY_CODE`` (0 to ``CARD_KINDS - 1``), so the engine's tables are lists indexed by it
    #: rather than dicts; -1 for a card made outside ``_BY_CODE`` (the engine never sees one).
    index: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        wild = self.rank in WILD_RANKS
        if wild != (self.colour is None):
            raise InvalidCardError(f"card {self.colour!r}/{self.rank!r}: wilds and only wilds have no colour")
        object.__setattr__(self, "code", self.rank if wild else f"{self.colour}:{self.rank}")
        object.__setattr__(self, "is_wild", wild)
        object.__setattr__(self, "is_plain", self.rank == "wild" or self.rank in NUMBER_RANKS)
        object.__setattr__(self, "points", 50 if wild else 20 if self.rank in ACTION_RANKS else int(self.rank))
        object.__setattr__(self, "index", -1)

    @classmethod
    def from_code(cls, code: object) -> Card:
        """Parse ``"teal:7"``, ``"red:skip"``, ``"wild"`` or ``"wild4"``; anything else (any type) is an
        ``InvalidCardError``."""
        # ``object``, checked here: a compiled build would refuse a non-string with a bare TypeError at the call.
        card = _BY_CODE.get(code) if isinstance(code, str) else None
        if card is None:
            raise InvalidCardError(
                f"invalid card code {code!r}: expected 'colour:rank' (colours {', '.join(ALL_COLOURS)}; "
                f"ranks 0-10, skip, reverse, draw2) or 'wild' / 'wild4'")
        return card

    def __str__(self) -> str:
        return self.code

    # Cards are canonical singletons: identity is equality (C-level hash/eq); keep it across copy/pickle.
    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __reduce__(self) -> tuple[Callable[[object], Card], tuple[str]]:
        return (Card.from_code, (self.code,))

    def __repr__(self) -> str:
        return f"Card.from_code({self.code!r})"

    @property
    def shape(self) -> str | None:
        """The ``family`` shape of this card's colour, if it has one."""
        return SHAPES.get(self.colour or "")

    def describe(self) -> str:
        """A human name: ``teal 7``, ``red Draw Two``, ``Wild Draw Four``."""
        name = _RANK_NAMES.get(self.rank, self.rank)
        return name if self.colour is None else f"{self.colour} {name}"


def _all_cards() -> dict[str, Card]:
    cards = [Card(c, r) for c in ALL_COLOURS for r in NUMBER_RANKS + ACTION_RANKS]
    cards += [Card(None, r) for r in WILD_RANKS]
    for index, card in enumerate(cards):
        object.__setattr__(card, "index", index)
    return {c.code: c for c in cards}


# Every card exists once: decks hold references to these, so identity and equality agree.
_BY_CODE: Final = _all_cards()
WILD: Final = _BY_CODE["wild"]
WILD4: Final = _BY_CODE["wild4"]
#: How many distinct cards there are (every ``Card.index`` is below it).
CARD_KINDS: Final = len(_BY_CODE)


def _compact_deck() -> tuple[Card, ...]:
    one = [_BY_CODE[f"{c}:{r}"] for c in COMPACT_COLOURS for r in NUMBER_RANKS[2:] + ACTION_RANKS]
    return tuple(one + [WILD] * 4 + [WILD4] * 2)


def _standard_deck() -> tuple[Card, ...]:
    deck = []
    for c in STANDARD_COLOURS:
        deck.append(_BY_CODE[f"{c}:0"])
        for r in NUMBER_RANKS[1:10] + ACTION_RANKS:
            deck += [_BY_CODE[f"{c}:{r}"]] * 2
    return tuple(deck + [WILD] * 4 + [WILD4] * 4)


# Made once: every deal copies them (building a deck by its codes was 7% of a short game's time).
_COMPACT_DECK: Final = _compact_deck()
_STANDARD_DECK: Final = _standard_deck()


def compact_deck(players: int = 4) -> list[Card]:
    """``compact``'s 54-card deck (2-10, Skip, Reverse, Draw Two per colour; 4 Wild, 2 Wild Draw Four), doubled for
    5-6 players."""
    return list(_COMPACT_DECK * 2 if players >= 5 else _COMPACT_DECK)


def standard_deck(players: int = 4) -> list[Card]:
    """The standard 108-card deck: per colour one 0, two of 1-9 and of each action; 4 Wild, 4 Wild Draw Four."""
    return list(_STANDARD_DECK)


DECKS: Final = {"compact": compact_deck, "standard": standard_deck}
DECK_COLOURS: Final = {"compact": COMPACT_COLOURS, "standard": STANDARD_COLOURS}


def hand_points(hand: list[Card]) -> int:
    """What a hand scores for the winner: face value, 20 per action card, 50 per wild."""
    return sum(c.points for c in hand)
