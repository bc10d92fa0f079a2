"""How a round or a game ended: the end reasons and a finished game's ``Outcome``."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TypedDict


class EndReason(enum.StrEnum):
    """Why a round or a game ended; the value is the wire string (``round_end``/``game_end`` ``reason``)."""

    OUT = "out"
    """A seat played its last card."""
    BLOCKED = "blocked"
    """Every seat passed in turn: nothing played and nothing was left to draw."""
    MOVE_LIMIT = "move_limit"
    """The round (a tender game: the game) reached the ruleset's ``move_limit``."""
    NOTHING_TO_DRAW = "nothing_to_draw"
    """Tender: a seat had to draw and neither the draw pile nor the discard had a card for it."""
    TARGET = "target"
    """A match: a seat's total reached the target (a game's reason only)."""
    TENDER = "tender"
    """A tender game ended other than by a seat going out (a game's reason only)."""


class OutcomeJson(TypedDict):
    """``Outcome.to_json``: the ``game_end`` event's fields after its ``kind``."""

    reason: str
    winner: int | None
    placements: list[int]
    scores: list[int]
    points: list[int]
    rounds: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game: its reason, winner (``None``: a tie for first), places and totals by seat."""

    reason: EndReason
    winner: int | None
    placements: tuple[int, ...]
    scores: tuple[int, ...]
    points: tuple[int, ...]
    rounds: int
    moves: int
    """Moves in the last round (tender: in the game); not part of ``to_json``, the table reports it."""

    def to_json(self) -> OutcomeJson:
        """The ``game_end`` fields as plain data: reason, winner, placements, scores, points, rounds."""
        return {"reason": self.reason.value, "winner": self.winner, "placements": list(self.placements),
                "scores": list(self.scores), "points": list(self.points), "rounds": self.rounds}
