"""The JSON shapes of results.json's ranking sections, as ``TypedDict``s: what ``to_json`` writes and the report,
the live page and the ladder read back.

A ``TypedDict`` is a plain dict at run time, so a document built from these shapes dumps to the same bytes as
before; the types only say which keys each section has. What another package writes (a ruleset's options, a
bot's spec) is passed through as ``Mapping[str, object]``: its own shape is that package's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, TypedDict


class StandingRowJson(TypedDict):
    """One row of results.json's ``standings`` (``StandingRow.to_json``)."""

    rank: int
    bot: str
    games: int
    wins: int
    draws: int
    avg_place: float | None
    points: int
    rating: float | None
    rating_low: float | None
    rating_high: float | None
    win_rate: float | None
    win_low: float | None
    win_high: float | None
    faults: dict[str, int]
    avg_ms: NotRequired[float | None]
    max_ms: NotRequired[float | None]
    cpu_avg_ms: NotRequired[float | None]
    cpu_max_ms: NotRequired[float | None]
    reached: NotRequired[str]
    rank_best: NotRequired[int]
    """In results.json of an earlier version (the ranges are in ``order`` now)."""
    rank_worst: NotRequired[int]


class BotTimesJson(TypedDict, total=False):
    """A bot's answer times in timing.json's ``bots`` (ms)."""

    avg_ms: float | None
    max_ms: float | None
    cpu_avg_ms: float | None
    cpu_max_ms: float | None


class LeftOutJson(TypedDict):
    """An entrant that played no game (results.json's ``left_out``)."""

    bot: str
    reason: str


class StageRecordJson(TypedDict):
    """A bot's record in one stage (a stage's ``records``)."""

    bot: str
    games: int
    wins: int
    draws: int
    avg_place: float | None


class RoundJson(TypedDict):
    """A round a stage played (a stage's ``rounds``): who went through, in a knockout."""

    round: int
    label: str
    tables: int
    games: int
    advanced: NotRequired[list[str]]


class FormatSettingsJson(TypedDict, total=False):
    """The settings only one format has (``Format.settings``)."""

    challengers: list[str]
    advance: int
    final_games: int


class StageJson(FormatSettingsJson):
    """A stage of results.json and arena.json (``Stage.to_json``), with its rounds and records once played."""

    name: str
    format: str
    ruleset: str
    options: Mapping[str, object]
    """``Ruleset.options``."""
    seats: int
    games: int
    duplicate: bool
    entrants: NotRequired[int]
    rounds: NotRequired[list[RoundJson]]
    played: NotRequired[int]
    records: NotRequired[list[StageRecordJson]]


class OrderJson(TypedDict):
    """results.json's ``order``: the rule in words, and the rank range of each bot."""

    rule: str
    tied: str
    rank_ranges: dict[str, list[int]]


class RatingJson(TypedDict, total=False):
    """results.json's ``rating``: how the rating columns were computed (every key, as written; a page may be
    drawn from a document without it)."""

    model: str
    fit: str
    alpha: float
    scale: str
    interval: float | None
    bootstrap: int
    resample: str
    bootstrap_seed: int


class HeadToHeadJson(TypedDict):
    """results.json's ``head_to_head``: for each pair, games together and how often each was ahead."""

    bots: list[str]
    ahead: list[list[int]]
    meetings: list[list[int]]
