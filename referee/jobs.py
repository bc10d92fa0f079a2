"""A game as a job: plain data (seed, seating, ruleset, bot specs) that any executor can run later."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from .bots.spec import BotSpec
from .rules import get_ruleset
from .bots.pool import BotPool
from .policy import FaultPolicy
from .table import Recorder, play_game


def game_seed(base_seed: int, index: int, salt: str = "") -> int:
    """The seed of the ``index``-th game of a run: independent of order and concurrency."""
    digest = hashlib.sha256(f"lastcard:{base_seed}:{salt}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class GameJob:
    """Everything needed to play one game, and nothing else."""

    game_id: str
    seed: int
    ruleset: str
    options: tuple[tuple[str, Any], ...]
    seats: tuple[BotSpec, ...]
    policy: str = "forfeit"
    record: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game_id, "seed": self.seed, "ruleset": self.ruleset, "options": dict(self.options),
                "seats": [s.to_json() for s in self.seats], "policy": self.policy, "record": self.record}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameJob:
        return cls(data["game"], data["seed"], data["ruleset"], tuple(sorted(data["options"].items())),
                   tuple(BotSpec.from_json(s) for s in data["seats"]), data.get("policy", "forfeit"),
                   data.get("record", False))


def run_job(job: GameJob, pool: BotPool) -> tuple[dict[str, Any], list[dict[str, Any]] | None]:
    """Play ``job`` with bot processes from ``pool``; the result and, if asked, the game record."""
    ruleset = get_ruleset(job.ruleset, dict(job.options))
    recorder = Recorder() if job.record else None
    seats = [pool.seat(spec) for spec in job.seats]
    result = play_game(ruleset, seats, job.seed, job.game_id, FaultPolicy.parse(job.policy), recorder)
    return result, recorder.lines if recorder else None
