"""A validated arena as plain, frozen data: the bots, the stages, and the run's settings."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Iterable, Mapping, NotRequired, TypedDict

from referee.arena.collusion_option import CollusionOption
from referee.arena.formats import Format
from referee.arena.similarity_option import SimilarityOption
from referee.bots.entry import BotEntry
from referee.bots.sandbox import SandboxSettings
from referee.bots.spec import BotSpec, TimeLimits
from referee.cluster.options import ClusterOptions
from referee.engine.rules import Ruleset
from referee.store.ranking_shapes import StageJson
from referee.table.policy import FaultPolicy

if TYPE_CHECKING:  # fields' types only: a match, which has none of them, does not import them (issue 51)
    from referee.builds.arrivals import Intake
    from referee.grading.class_list import ClassList
    from referee.grading.rule import Grading

DEFAULT_BOOTSTRAP = 200


@dataclass(frozen=True)
class Stage:
    """One stage of an arena: a format (configured with its own settings) played under one ruleset by the top
    ``entrants`` so far."""

    name: str
    rules: Ruleset
    seats: int
    format: Format
    games: int
    duplicate: bool = False
    entrants: int | None = None
    path: str = ""
    line: int | None = None
    #: Where each key the pool checks look at was given: key -> (key path, line).
    where: tuple[tuple[str, str, int | None], ...] = field(default=(), compare=False)

    def locate(self, key: str) -> tuple[str, int | None]:
        """The key path and line to blame for ``key`` of this stage."""
        for k, path, line in self.where:
            if k == key:
                return path, line
        return (f"{self.path}.{key}" if self.path else key), self.line

    @property
    def ruleset(self) -> str:
        """The ruleset's name (its house)."""
        return self.rules.house

    @property
    def options(self) -> tuple[tuple[str, Any], ...]:
        return tuple(self.rules.options.items())

    def to_json(self) -> StageJson:
        """The stage as results.json and arena.json show it."""
        out: StageJson = {"name": self.name, "format": self.format.name, "ruleset": self.ruleset,
                               "options": self.rules.options, "seats": self.seats, "games": self.games,
                               "duplicate": self.duplicate}
        if self.entrants is not None:
            out["entrants"] = self.entrants
        settings = self.format.settings(self)
        # Key by key, in the order each format gives them: a TypedDict takes no update from another shape.
        if "challengers" in settings:
            out["challengers"] = settings["challengers"]
        if "advance" in settings:
            out["advance"] = settings["advance"]
        if "final_games" in settings:
            out["final_games"] = settings["final_games"]
        return out


class ArenaJson(TypedDict):
    """``Arena.to_json``: what decides an arena's games, in arena.json (the resume fingerprint's input)."""

    name: str
    seed: int
    policy: str
    rank_by: str
    bootstrap: int
    records: bool
    stages: list[StageJson]
    bots: list[Mapping[str, object]]
    """Each bot's ``BotSpec.to_json``."""
    seat_names: NotRequired[str]
    """``hidden`` when the bots are told neutral seat labels (absent: the names, as before the key existed)."""


@dataclass(frozen=True)
class Arena:
    """A validated arena: plain data, everything resolved (paths absolute, rulesets checked)."""

    name: str
    source: str
    base_dir: str
    out: str
    seed: int
    stages: tuple[Stage, ...]
    bots: tuple[BotEntry, ...]
    policy: FaultPolicy = FaultPolicy()
    jobs: int | None = None
    records: bool = False
    bootstrap: int = DEFAULT_BOOTSTRAP
    rank_by: str = "rating"
    description: str = ""
    #: The ``executor:`` section: a Dask cluster to play on (None: the local pool). Not in ``to_json``: where
    #: games run never changes them.
    cluster: ClusterOptions | None = None
    #: The ``grading:`` block: points for the gradebook (None: no grades.csv). Not in ``to_json``: grades never
    #: change the games, so a contest graded afterwards still resumes.
    grading: Grading | None = None
    #: The ``similarity:`` key: the bots compared by what they do after the games (None: not). Not in ``to_json``:
    #: it never changes the games.
    similarity: SimilarityOption | None = None
    #: The ``collusion:`` key: after the games, which bot gains when which other sits at its table (None: not).
    #: Not in ``to_json``: it never changes the games.
    collusion: CollusionOption | None = None
    #: ``seat_names: hidden``: the bots are told neutral seat labels, never names. In ``to_json`` (only when
    #: hidden): what a bot is told can change its play.
    hide_names: bool = False
    #: ``grading: by: benchmarks``: each band's benchmark, resolved as a bot of the file is (its folder, limits,
    #: sandbox). Not in ``to_json``: the benchmark tests are a run of their own (``referee.benchmarks``).
    benchmarks: tuple[BotSpec, ...] = ()
    #: Whether the file asks for a contest (its stages). False for a file that grades by benchmarks and gives no
    #: ``stages``/``format``: then only the benchmark tests are played.
    contest: bool = True
    #: What each ``submissions`` pattern matched, made into one arrival per student (by the pattern's key path), with
    #: everything not used listed. Not in ``to_json``: the bots' specs say what plays.
    intakes: tuple[tuple[str, Intake], ...] = ()
    #: ``roster:`` (or ``--roster``): every student of the roster with their submission or none. Not in ``to_json``:
    #: a roster names who gets a gradebook row, never who plays, so a contest given one afterwards still resumes.
    class_list: ClassList | None = None
    #: What the file gives a bot by default (its top-level ``limits:`` and ``sandbox:``, ``practice:`` applied): how
    #: the contest would run a bot it does not list (``--arena`` on the author's tools). Not in ``to_json``: each
    #: listed bot's own are there.
    limits: TimeLimits = TimeLimits()
    sandbox: SandboxSettings = SandboxSettings()

    @property
    def specs(self) -> list[BotSpec]:
        """How to run each bot."""
        return [b.spec for b in self.bots]

    def with_bots(self, bots: Iterable[BotEntry]) -> Arena:
        """The same arena with another pool (after builds have left some bots out)."""
        return replace(self, bots=tuple(bots))

    def to_json(self) -> ArenaJson:
        """What decides the games (not where output goes or how many workers): the resume fingerprint's input."""
        out: ArenaJson = {"name": self.name, "seed": self.seed, "policy": self.policy.to_json(),
                          "rank_by": self.rank_by, "bootstrap": self.bootstrap, "records": self.records,
                          "stages": [s.to_json() for s in self.stages], "bots": [b.spec.to_json() for b in self.bots]}
        if self.hide_names:  # only then: an arena that tells the names keeps its fingerprint
            out["seat_names"] = "hidden"
        return out
