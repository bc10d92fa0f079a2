"""The live page's ``/state.json`` (and each ``/events`` message) as ``TypedDict``s: what ``LiveState.snapshot``
writes and page.js reads."""

from __future__ import annotations

from typing import TypedDict


class ProgressJson(TypedDict):
    """Games done of those planned, the time so far, the rate and what is left (null before it is known)."""

    done: int
    total: int
    elapsed_s: float
    rate: float | None
    eta_s: float | None


class GameSeenJson(TypedDict):
    """A game as it ended."""

    game: str
    stage: str | None
    round: int | None
    table: int | None
    seating: list[str]
    placements: list[int]
    faults: int


class FaultSeenJson(TypedDict):
    """A fault as it happened (the message is the bot's words: the page shows it as text)."""

    game: str
    bot: str
    kind: str
    message: str


class TableSeenJson(TypedDict):
    """A knockout table as it fills: each player's average place so far."""

    players: list[str]
    planned: int
    played: int
    avg_place: dict[str, float]


class RoundSeenJson(TypedDict):
    """A knockout round: its tables, and who went through once it is decided."""

    stage: str
    round: int
    label: str
    advanced: list[str] | None
    tables: list[TableSeenJson]


class ComparisonJson(TypedDict):
    """A compare's test: the terminal's lines, the LLR after every pair and its bounds."""

    lines: list[str]
    trace: list[float]
    lower: float | None
    upper: float | None


class ColumnJson(TypedDict):
    """A column of the standings: its header, and whether it reads left to right."""

    header: str
    left: bool


class CellsJson(TypedDict):
    """A bot's row of the standings as the columns show it."""

    bot: str
    cells: list[str]


class LeftOutSeenJson(TypedDict):
    """A bot that played no game, and why."""

    bot: str
    reason: str


class LiveStandingsJson(TypedDict):
    """The standings as the page draws them (the cells every surface shows)."""

    columns: list[ColumnJson]
    rows: list[CellsJson]
    left_out: list[LeftOutSeenJson]
    rule: str
    complete: bool
    notes: list[str]


class LiveStateJson(TypedDict):
    """``/state.json``."""

    version: int
    changed_at: float
    title: str
    kind: str
    phase: str
    message: str
    resume: str
    notes: list[str]
    progress: ProgressJson
    games: list[GameSeenJson]
    faults: list[FaultSeenJson]
    fault_count: int
    rounds: list[RoundSeenJson]
    comparison: ComparisonJson | None
    replay: bool
    staying: bool
    """The run has ended and the page stays up until Ctrl-C in the terminal."""
    following: bool
    """Whether the now-playing view (``/now.html``) can follow a game as it is played."""
    refresh_s: float
    standings_games: int
    standings: LiveStandingsJson | None
