"""Actions a seat can take, their wire form, and the two errors for bad ones."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final, NotRequired, TypedDict

from referee.engine.cards import ALL_COLOURS, Card, InvalidCardError


class ActionKind(enum.StrEnum):
    """What a seat does with its turn; the value is the answer's wire ``type``."""

    PLAY = "play"
    """Lay one card, or with ``multi_play`` several of one rank."""
    DRAW = "draw"
    """Take a card (or take the pending penalty)."""
    PASS = "pass"
    """Keep the card just drawn, or (blocked) do nothing."""
    COLOUR = "colour"
    """Name the colour in play (``family``: after an opening Wild)."""


PLAY: Final = ActionKind.PLAY
DRAW: Final = ActionKind.DRAW
PASS: Final = ActionKind.PASS
COLOUR: Final = ActionKind.COLOUR
KINDS: Final = tuple(ActionKind)


class WireAction(TypedDict):
    """An answer as JSON (``protocol/schemas/answer.json``): its ``type``, the turn's ``id`` echoed, and for a play
    its ``cards``, the ``colour`` named and the last-card ``call``; for a colour answer the ``colour``."""

    type: str
    id: NotRequired[int]
    cards: NotRequired[list[str]]
    colour: NotRequired[str | None]
    call: NotRequired[bool]


class InvalidActionError(ValueError):
    """An answer that is not a well-formed action (bad shape, unknown card code)."""


class IllegalActionError(ValueError):
    """A well-formed action that the rules do not allow in this position."""


@dataclass(frozen=True, slots=True)
class Action:
    """One decision: play cards (in order, naming a colour after a wild, maybe calling), draw, pass or name a colour."""

    kind: ActionKind
    cards: tuple[Card, ...] = ()
    colour: str | None = None
    call: bool = False

    def __init__(self, kind: ActionKind | str, cards: tuple[Card, ...] = (), colour: str | None = None,
                 call: bool = False) -> None:
        # A plain "play" becomes the member (the engine compares kinds by identity). Written out rather than a
        # __post_init__ so that a compiled build, whose fields are typed, takes the string too.
        object.__setattr__(self, "kind", kind if type(kind) is ActionKind else ActionKind(kind))
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "colour", colour)
        object.__setattr__(self, "call", call)

    def to_wire(self, request_id: int | None = None) -> WireAction:
        """The JSON object a bot sends for this action."""
        msg: WireAction = {"type": self.kind}
        if request_id is not None:
            msg["id"] = request_id
        if self.kind == PLAY:
            msg["cards"] = [c.code for c in self.cards]
            if self.colour is not None:
                msg["colour"] = self.colour
            if self.call:
                msg["call"] = True
        elif self.kind == COLOUR:
            msg["colour"] = self.colour
        return msg

    @classmethod
    def from_wire(cls, msg: object) -> Action:
        """Parse a bot's answer (a JSON object); raises ``InvalidActionError``."""
        if not isinstance(msg, dict):  # checked here, not by the annotation: the same error in a compiled build
            raise InvalidActionError(f"an action is a JSON object, got {msg!r}")
        kind = msg.get("type")
        if kind == PLAY:
            codes = msg.get("cards")
            if not isinstance(codes, list) or not codes:
                raise InvalidActionError(f"a play needs a non-empty list 'cards', got {codes!r}")
            try:
                cards = tuple(Card.from_code(c) for c in codes)
            except InvalidCardError as exc:
                raise InvalidActionError(str(exc)) from None
            colour = msg.get("colour")
            if colour is not None and colour not in ALL_COLOURS:
                raise InvalidActionError(f"unknown colour {colour!r}; colours are {', '.join(ALL_COLOURS)}")
            call = msg.get("call", False)
            if not isinstance(call, bool):
                raise InvalidActionError(f"'call' must be true or false, got {call!r}")
            # A colour repeated on a coloured card says nothing new; keep one canonical form.
            if colour is not None and not cards[-1].is_wild and colour == cards[-1].colour:
                colour = None
            return cls(PLAY, cards, colour, call)
        if kind == DRAW:
            return DRAW_ACTION
        if kind == PASS:
            return PASS_ACTION
        if kind == COLOUR:
            colour = msg.get("colour")
            if colour not in ALL_COLOURS:
                raise InvalidActionError(f"unknown colour {colour!r}; colours are {', '.join(ALL_COLOURS)}")
            return cls(COLOUR, colour=colour)
        raise InvalidActionError(f"unknown action type {kind!r}; expected one of {', '.join(KINDS)}")

    @property
    def key(self) -> tuple[ActionKind, tuple[Card, ...], str | None]:
        """What legality depends on: the call is free and the order of a multi-play's middle cards is not."""
        cards = self.cards
        if len(cards) > 3:
            cards = (cards[0], *sorted(cards[1:-1], key=_code), cards[-1])
        return (self.kind, cards, self.colour)

    def __str__(self) -> str:
        if self.kind == PLAY:
            text = " ".join(c.code for c in self.cards)
            if self.colour:
                text += f" ({self.colour})"
            return f"play {text}" + (" + call" if self.call else "")
        if self.kind == COLOUR:
            return f"colour {self.colour}"
        return str(self.kind)


def _code(card: Card) -> str:
    return card.code


DRAW_ACTION: Final = Action(DRAW)
PASS_ACTION: Final = Action(PASS)
