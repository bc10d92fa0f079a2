"""A game's result as a typed record, and its plain-data form for games.jsonl and reports."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Protocol

from .bots.faults import Fault
from .replay import encode_actions

if TYPE_CHECKING:
    from .actions import Action


class _Clock(Protocol):
    decisions: int
    total_ms: float
    max_ms: float


@dataclass(frozen=True, slots=True)
class SeatTimes:
    """Each seat's answers in a game: how many were timed, their total and their longest (ms)."""

    decisions: tuple[int, ...]
    total: tuple[float, ...]
    max: tuple[float, ...]

    @classmethod
    def of(cls, clocks: Iterable[_Clock]) -> SeatTimes:
        clocks = list(clocks)
        return cls(tuple(c.decisions for c in clocks), tuple(round(c.total_ms, 3) for c in clocks),
                   tuple(round(c.max_ms, 3) for c in clocks))

    def to_json(self) -> dict[str, list[Any]]:
        return {"decisions": list(self.decisions), "total": list(self.total), "max": list(self.max)}


@dataclass(frozen=True, slots=True)
class GameResult:
    """How one game went: who sat where, the places (after forfeits) and the engine's own, faults, times."""

    game: str
    seed: int
    ruleset: str
    options: dict[str, Any]
    seating: tuple[str, ...]
    placements: tuple[int, ...]
    """Places after forfeits: every forfeited seat shares the last place."""
    game_placements: tuple[int, ...]
    """Places as the game itself ended."""
    reason: str
    winner: int | None
    scores: tuple[int, ...]
    points: tuple[int, ...]
    rounds: int
    decisions: int
    moves: int
    faults: tuple[Fault, ...]
    forfeited: tuple[int, ...]
    times: SeatTimes
    wall_ms: float
    actions: tuple[Action, ...] = ()
    """Every action played, in order: with the seed, seating and options, enough to replay the game."""
    sandbox: tuple[str | None, ...] = ()
    """Each seat's sandbox level (``full``, ``walls``, ``limits``, ``none``; ``None`` for a built-in player)."""
    stand_ins: tuple[int, ...] = ()
    """Indexes of ``actions`` that stood in for a seat after a fault (a replacement or the fallback)."""

    def to_json(self) -> dict[str, Any]:
        """The plain-data form (the keys of games.jsonl and of ``play_game``'s result)."""
        return {
            "game": self.game, "seed": self.seed, "ruleset": self.ruleset, "options": self.options,
            "seating": list(self.seating), "placements": list(self.placements),
            "game_placements": list(self.game_placements), "reason": self.reason, "winner": self.winner,
            "scores": list(self.scores), "points": list(self.points), "rounds": self.rounds,
            "decisions": self.decisions, "moves": self.moves, "faults": [f.to_json() for f in self.faults],
            "forfeited": list(self.forfeited), "time_ms": self.times.to_json(), "wall_ms": self.wall_ms,
            "sandbox": list(self.sandbox), "actions": encode_actions(self.actions, self.stand_ins),
        }
