"""The ladder file's JSON, as ``TypedDict``s: the game settings it was started with, and a run's row."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from referee.store.ranking_shapes import LeftOutJson, StandingRowJson


class LadderSettingsJson(TypedDict):
    """What decides a ladder's games (stored once; a later run with others is refused)."""

    ruleset: str
    options: Mapping[str, object]
    seats: int
    seed: int
    policy: str


class LadderRunRow(TypedDict):
    """A run as the ladder file keeps it: when, how it ended, the bots' hashes, the standings at its end."""

    id: int
    started: str
    finished: str | None
    status: str
    stop_reason: str | None
    played: int | None
    retired: int | None
    kept: int | None
    bots: dict[str, str] | None
    left_out: list[LeftOutJson] | None
    standings: list[StandingRowJson] | None
