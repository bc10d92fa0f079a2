"""results.json as ``TypedDict``s: the whole document (``ResultsJson``) and the blocks of one kind of run (a
ladder's, a comparison's, a candidates family's, a tune's); the ranking sections are in ``standings.shapes``.

Plain dicts at run time: ``ResultsDoc.to_json`` builds them key by key in the order the file has always had.
A document read back (``json.load``) is taken to be one the package wrote; the readers keep their defaults
for the keys an earlier version did not write.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, TypedDict

from referee.store.ranking_shapes import (
    BotTimesJson,
    HeadToHeadJson,
    LeftOutJson,
    OrderJson,
    RatingJson,
    StageJson,
    StandingRowJson,
)


class TableJson(TypedDict):
    """A ladder's, a comparison's or a tune's one table: its ruleset, options and seats."""

    ruleset: str
    options: Mapping[str, object]
    seats: int


class EloJson(TypedDict):
    """An Elo estimate with its error and 95% interval."""

    value: float
    error: float
    low: float
    high: float


class EstimatesJson(TypedDict):
    """NEW's strength against BASE: the score, Elo and normalized Elo with their intervals, LOS."""

    score: float
    elo: EloJson
    nelo: EloJson
    los: float


class PairTallyJson(EstimatesJson):
    """The pairs counted: the pentanomial, NEW's wins, draws and losses, and the estimates (last in the file)."""

    ptnml: list[int]
    pairs: int
    games: int
    wins: int
    draws: int
    losses: int


class SprtSettingsJson(TypedDict):
    """A test's hypotheses, error rates, model and LLR bounds."""

    elo0: float
    elo1: float
    alpha: float
    beta: float
    model: str
    lower: float
    upper: float


class SprtJson(SprtSettingsJson, PairTallyJson):
    """A running test: its settings, the LLR and verdict, the tally, the LLR after every pair."""

    llr: float
    result: str | None
    llr_trace: list[float]


class SprtBlockJson(PairTallyJson):
    """A comparison's ``sprt`` block: who, the test's settings (nulls without a test), counts, estimates, LLR trace."""

    new: str
    base: str
    field: list[str]
    fillers: list[str]
    stopped: str
    elo0: float | None
    elo1: float | None
    alpha: float | None
    beta: float | None
    model: str | None
    lower: float | None
    upper: float | None
    llr: float | None
    result: str | None
    llr_trace: list[float]


class CandidateTestJson(SprtJson):
    """One candidate's test in a ``candidates`` block: as a ``sprt`` block, with its status and whom it stopped
    behind."""

    new: str
    base: str
    field: list[str]
    fillers: list[str]
    stopped: str
    status: str
    behind: str | None


class CandidatesBlockJson(TypedDict):
    """A candidates family's ``candidates`` block."""

    base: str
    correction: str
    alpha: float
    beta: float
    games: int
    winner: str | None
    """``None`` with none accepted, or when the best accepted played alike with another (``equals``)."""
    accepted: list[str]
    tests: list[CandidateTestJson]
    equals: NotRequired[list[str]]
    """The best accepted candidate and those accepted that played alike with it, when there are two or more."""
    alike: NotRequired[list[CandidateLikenessJson]]


class CandidateLikenessJson(TypedDict):
    """Two candidates that played alike: the deals both played, those with the same games, whether all were."""

    candidates: list[str]
    deals: int
    same: int
    identical: bool


class BenchmarkTestJson(TypedDict):
    """One student's test against one benchmark, in a ``benchmarks`` block."""

    benchmark: str
    bot: str
    points: float
    verdict: str | None
    games: int
    faults: int
    llr: float
    lower: float
    upper: float
    elo: float
    elo_low: float
    elo_high: float
    llr_trace: list[float]


class BenchmarkStudentJson(TypedDict):
    """One student's tests, in a ``benchmarks`` block."""

    student: str
    passed: int
    decided: bool
    done: bool
    games: int
    faults: int
    tests: list[BenchmarkTestJson]


class BenchmarksBlockJson(TypedDict):
    """A benchmark run's ``benchmarks`` block: the bands, the test, the budget, and each student's tests."""

    bands: list[dict[str, object]]
    below: float
    seats: int
    budget: int
    elo0: float
    elo1: float
    alpha: float
    beta: float
    model: str
    lower: float
    upper: float
    students: list[BenchmarkStudentJson]


class TuneParamJson(TypedDict):
    """A tuned parameter in a ``tune`` block."""

    name: str
    kind: str
    start: float
    min: float
    max: float
    c_end: float
    r_end: float


class TrajectoryJson(TypedDict):
    """A tune's thinned trajectory: the iterations kept, and each parameter's value at them."""

    iteration: list[int]
    values: dict[str, list[float]]


class TuneBlockJson(TypedDict):
    """A tune's ``tune`` block."""

    bot: str
    command: str
    tuned_command: str
    params: list[TuneParamJson]
    spsa: dict[str, float | int]
    iterations_done: int
    games: int
    independent: bool
    tuned: dict[str, float]
    """Theta at the end, unrounded."""
    given: NotRequired[dict[str, str]]
    """The tuned values as the bot is given them (``Param.shown``): the text of the command, tuned.txt, the terminal."""
    convergence: NotRequired[list[dict[str, float | int | bool | str]]]
    """Each parameter's trend over the last iterations (``tune.convergence.Trend.to_json``)."""
    trajectory: TrajectoryJson


class LadderBlockJson(TypedDict):
    """A ladder run's ``ladder`` block."""

    run: int
    status: str
    stop_reason: str
    played_this_run: int
    retired_this_run: int
    kept_games: int
    changes: dict[str, list[str]]


class ResultBlocks(TypedDict, total=False):
    """The block of one kind of run, after the sections every run has."""

    ladder: LadderBlockJson
    sprt: SprtBlockJson
    candidates: CandidatesBlockJson
    tune: TuneBlockJson
    benchmarks: BenchmarksBlockJson


class ResultsJson(ResultBlocks):
    """results.json (docs/arena.md), key by key."""

    format: str
    version: int
    kind: str
    name: str
    complete: bool
    seed: int
    games: int
    games_planned: NotRequired[int]
    policy: str
    rank_by: str
    ruleset: NotRequired[str]
    options: NotRequired[Mapping[str, object]]
    seats: NotRequired[int]
    stages: NotRequired[list[StageJson]]
    bots: list[Mapping[str, object]]
    """Each bot's ``BotSpec.to_json``."""
    sandbox_levels: NotRequired[dict[str, list[str]]]
    clock_levels: NotRequired[dict[str, list[str]]]
    build_levels: NotRequired[dict[str, str]]
    left_out: list[LeftOutJson]
    order: OrderJson
    rating: RatingJson
    standings: list[StandingRowJson]
    head_to_head: HeadToHeadJson


class TimingJson(TypedDict):
    """timing.json: the durations, which vary from run to run (so they are not in results.json)."""

    wall_s: float
    games_this_run: int
    jobs: int
    games_per_s: float | None
    bot_decisions: int
    bot_time_s: float
    bots: dict[str, BotTimesJson]
    phases: NotRequired[dict[str, float]]
    """Where an arena's time went (``ratings_s``...)."""


class GradeJson(TypedDict):
    """One student's grade in ``grades.json``: the id and points of grades.csv, the bot, and why (sentences)."""

    student: str
    bot: str
    points: str
    why: list[str]


class GradesJson(TypedDict):
    """``grades.json``: grades.csv's points with the explanation of each (a student's page shows it)."""

    format: str
    version: int
    points_column: str
    grades: list[GradeJson]
