"""The engine's events as typed records: one ``TypedDict`` per ``kind``.

Events are wire data (``protocol/schemas/event.json``), so at run time they stay plain dicts; these
types say which keys each kind has. What only one seat may see sits under ``secret``: ``{seat: {...}}``.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict, Union


class HandSecret(TypedDict):
    """A seat's own dealt hand."""

    hand: list[str]


class CardsSecret(TypedDict):
    """The cards a seat drew."""

    cards: list[str]


class DealEvent(TypedDict):
    """A round begins: dealer, top card, colour in play, first seat; each hand is secret to its seat."""

    kind: Literal["deal"]
    round: int
    dealer: int
    top: str
    colour: str | None
    first: int
    secret: dict[int, HandSecret]


class BuryEvent(TypedDict):
    """A wild turned up at the deal went back into the draw pile."""

    kind: Literal["bury"]
    card: str


class PlayEvent(TypedDict):
    """A seat played cards; ``drawn`` (only when true) says it played the card it had just drawn."""

    kind: Literal["play"]
    seat: int
    cards: list[str]
    colour: str
    call: bool
    drawn: NotRequired[bool]


class ColourEvent(TypedDict):
    """A seat named the colour in play (after a wild, or for an opening Wild)."""

    kind: Literal["colour"]
    seat: int
    colour: str


class CallEvent(TypedDict):
    """A seat down to one card made the last-card call (``by`` the player or the referee)."""

    kind: Literal["call"]
    seat: int
    by: Literal["player", "referee"]


class ForfeitEvent(TypedDict):
    """A seat missed the last-card call and draws ``count`` cards."""

    kind: Literal["forfeit"]
    seat: int
    count: int
    reason: str


#: Why a seat took cards: its turn's draw, a penalty, or a forfeit's.
DrawReason = Literal["turn", "penalty", "forfeit"]


class DrawEvent(TypedDict):
    """A seat took cards; which cards is secret to that seat."""

    kind: Literal["draw"]
    seat: int
    count: int
    reason: DrawReason
    secret: dict[int, CardsSecret]


class PassEvent(TypedDict):
    """A seat passed: kept the card it drew, or was blocked."""

    kind: Literal["pass"]
    seat: int
    kept: bool


class SkipEvent(TypedDict):
    """A seat loses its turn."""

    kind: Literal["skip"]
    seat: int


class ReverseEvent(TypedDict):
    """The direction of play changed (``count`` Reverses played together)."""

    kind: Literal["reverse"]
    direction: int
    count: int


class PenaltyEvent(TypedDict):
    """A Draw Two or Wild Draw Four hits ``seat``; ``pending`` while it may still be stacked on."""

    kind: Literal["penalty"]
    seat: int
    count: int
    card: str
    pending: bool


class ReshuffleEvent(TypedDict):
    """The discard but its top card became the new draw pile."""

    kind: Literal["reshuffle"]
    count: int


class RoundEndEvent(TypedDict):
    """A round ended: every hand shown, points left, points gained and totals."""

    kind: Literal["round_end"]
    round: int
    winner: int | None
    reason: str
    hands: list[list[str]]
    points: list[int]
    gained: list[int]
    scores: list[int]


class GameEndEvent(TypedDict):
    """The game ended: ``Outcome.to_json()`` with its ``kind``."""

    kind: Literal["game_end"]
    reason: str
    winner: int | None
    placements: list[int]
    scores: list[int]
    points: list[int]
    rounds: int


Event = Union[DealEvent, BuryEvent, PlayEvent, ColourEvent, CallEvent, ForfeitEvent, DrawEvent, PassEvent,  # noqa: UP007
              SkipEvent, ReverseEvent, PenaltyEvent, ReshuffleEvent, RoundEndEvent, GameEndEvent]  # kept: compiled
