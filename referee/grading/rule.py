"""The ``grading:`` block of an arena file: how a student's standing becomes points for the gradebook.

``Grading`` is the checked block as plain data, with the rule that turns a rank, a rating or the benchmark
bands a student reached into points; ``grading_from`` resolves it from the arena file's data (the schema has
checked each value, this checks what spans keys: a rule's own keys, pairs and bands in rising order, benchmarks
that parse). ``grades`` applies it to a run's standings, ``bands`` to a student's benchmark tests; what needs
the test's arithmetic (a band no bot can reach in the budget) is checked by ``referee.benchmarks.plan`` with
the lines kept here (``Grading.locate``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Mapping

from referee.bots.spec import parse_bot
from referee.inputs.problems import Path, Problems, format_path
from referee.players import BUILTINS

#: The keys each rule needs, and the keys only that rule reads.
RULE_KEYS: dict[str, tuple[str, ...]] = {"rank": ("best", "worst"), "rating": ("rating",), "table": ("table", "rest"),
                                         "benchmarks": ("bands",)}
#: Keys only ``by: benchmarks`` reads (optional there).
BENCHMARK_KEYS = ("below", "test", "games", "seats")
#: The budget of a student's benchmark tests, in games, when the block gives none.
DEFAULT_BUDGET = 2000
#: The built-in players, weakest first: a band's built-in benchmark must be stronger than the band's below.
BUILTIN_ORDER = tuple(BUILTINS)
#: How a rank range counts under ``by: rank`` and ``by: table``.
SHARED_RANK = ("best", "mean", "worst", "rank")
SHARED_WORDS = {"best": "its best rank", "mean": "the mean of its ranks' points", "worst": "its worst rank",
                "rank": "the rank of the order"}
#: What a rule looks like, for the error that a key is missing.
EXAMPLES = {"best": "best: 100", "worst": "worst: 60", "rating": "rating: [[1300, 60], [1700, 100]]",
            "table": "table: [[1, 100], [3, 90], [10, 80]]", "rest": "rest: 70",
            "bands": "bands: [{bot: builtin:easy, points: 60}, {bot: builtin:medium, points: 80}]"}


@dataclass(frozen=True)
class Band:
    """A band of ``by: benchmarks``: a student shown stronger than ``bot`` (and every band's before) gets ``points``."""

    bot: str
    """The benchmark as the file gives it: ``builtin:NAME``, a command line, or ``NAME=COMMAND``."""
    points: float


@dataclass(frozen=True)
class TestBounds:
    """The sequential test of "stronger than": H0 the student is ``elo0`` stronger than the benchmark, H1 ``elo1``;
    ``alpha`` the chance of the band under H0, ``beta`` the chance of missing it under H1."""

    __test__ = False  # a pytest collecting a module that imports this must not take it for a test class

    elo0: float = 0.0
    elo1: float = 30.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"


@dataclass(frozen=True)
class FaultRule:
    """What faults cost: ``each`` points per fault, at most ``most`` (None: no cap)."""

    each: float
    most: float | None = None

    def cost(self, faults: int) -> float:
        raw = self.each * faults
        return raw if self.most is None else min(raw, self.most)

    def describe(self) -> str:
        cap = f", at most {points_text(self.most)}" if self.most is not None else ""
        return f"each fault costs {points_text(self.each)} point{'s' if self.each != 1 else ''}{cap}"


@dataclass(frozen=True)
class SuiteItem:
    """A position suite ``lastcard grade`` asks, and the points it is worth (in proportion to the positions passed)."""

    path: str
    points: float = 0.0


@dataclass(frozen=True)
class Grading:
    """A checked ``grading:`` block: the rule (``by``) with its numbers, and what every student's row holds."""

    by: str
    best: float = 0.0
    worst: float = 0.0
    rating: tuple[tuple[float, float], ...] = ()
    table: tuple[tuple[int, float], ...] = ()
    rest: float = 0.0
    shared_rank: str = "best"
    left_out: float = 0.0
    missing: float = 0.0
    """The points of a roster student with no submission at all (``roster:``)."""
    round: float = 1.0
    id_column: str = "student"
    points_column: str = "points"
    details: bool = True
    bands: tuple[Band, ...] = ()
    below: float = 0.0
    test: TestBounds = TestBounds()
    games: int = DEFAULT_BUDGET
    seats: int = 2
    faults: FaultRule | None = None
    require_separation: bool = False
    check: float = 0.0
    suites: tuple[SuiteItem, ...] = ()
    #: Where each key was given (key path text, line), for the checks made later (``locate``).
    where: tuple[tuple[str, int | None], ...] = field(default=(), compare=False)

    def locate(self, *path: str | int) -> tuple[str, int | None]:
        """The key path ``grading.PATH`` and its line (the block's line when the key was not given)."""
        text = format_path(("grading", *path))
        lines = dict(self.where)
        for cut in range(len(path), -1, -1):
            found = lines.get(format_path(("grading", *path[:cut])))
            if found is not None:
                return text, found
        return text, None

    @property
    def top(self) -> float:
        """The most points the rule gives (the last band's, the best rank's, the highest rating's...)."""
        if self.by == "benchmarks":
            return self.bands[-1].points if self.bands else self.below
        if self.by == "rating":
            return max(p for _, p in self.rating)
        if self.by == "table":
            return max([p for _, p in self.table] + [self.rest])
        return max(self.best, self.worst)

    def band_points(self, passed: int) -> float:
        """The points of a student shown stronger than the first ``passed`` benchmarks."""
        return self.below if passed <= 0 else self.bands[passed - 1].points

    def rank_points(self, rank: int, field: int) -> float:
        """The points of ``rank`` out of ``field`` ranked bots (``by: rank`` or ``by: table``)."""
        if self.by == "table":
            return next((points for upto, points in self.table if rank <= upto), self.rest)
        if field <= 1:
            return self.best
        return self.best + (self.worst - self.best) * (rank - 1) / (field - 1)

    def rating_points(self, rating: float) -> float:
        """The points of ``rating`` (``by: rating``): a straight line between the pairs, flat beyond them."""
        pairs = self.rating
        if rating <= pairs[0][0]:
            return pairs[0][1]
        for (r0, p0), (r1, p1) in zip(pairs, pairs[1:]):
            if rating <= r1:
                return p0 + (p1 - p0) * (rating - r0) / (r1 - r0)
        return pairs[-1][1]

    def rounded(self, points: float) -> str:
        """``points`` rounded half up to a multiple of ``round``, written with the step's decimals."""
        step = Decimal(str(self.round))
        value = (Decimal(repr(points)) / step).quantize(Decimal(1), rounding=ROUND_HALF_UP) * step
        places = max(0, -int(step.normalize().as_tuple().exponent))
        return f"{value:.{places}f}"

    def summary(self) -> str:
        """The block in one line, for ``lastcard validate``."""
        if self.by == "benchmarks":
            return (f"{self.describe(0)}; left out: {points_text(self.left_out)}"
                    + (f"; {self.faults.describe()}" if self.faults else ""))
        rule = self.describe(0).replace(" over the 0 ranked", "").replace("rank 0 (the last)", "the last rank")
        shared = f", a rank range counts as {SHARED_WORDS[self.shared_rank]}" if self.by != "rating" else ""
        return (f"{rule}{shared}; left out: {points_text(self.left_out)}; rounded to a multiple of "
                f"{points_text(self.round)}" + (f"; {self.faults.describe()}" if self.faults else "")
                + ("; grades need a separation" if self.require_separation else ""))

    def describe(self, field: int) -> str:
        """The rule in words, for a student's report."""
        if self.by == "benchmarks":
            bands = "; ".join(f"stronger than {b.bot}: {points_text(b.points)}" for b in self.bands)
            t = self.test
            return (f"against benchmarks ({bands}; stronger than none: {points_text(self.below)}), each \"stronger "
                    f"than\" a sequential test on twin games at {self.seats} seats ({t.model} Elo, H0 {t.elo0:g}, "
                    f"H1 {t.elo1:g}, alpha {t.alpha:g}, beta {t.beta:g}) within {self.games} games a student")
        if self.by == "rank":
            return (f"by rank over the {field} ranked: rank 1 gets {points_text(self.best)}, rank {field} (the last) "
                    f"gets {points_text(self.worst)}, in a straight line between")
        if self.by == "rating":
            pairs = "; ".join(f"{points_text(r)}: {points_text(p)}" for r, p in self.rating)
            return (f"by rating, in a straight line through these ratings and points ({pairs}); flat below the first "
                    "and above the last")
        rows = "; ".join(f"up to rank {upto}: {points_text(p)}" for upto, p in self.table)
        return f"by a table of ranks ({rows}; below: {points_text(self.rest)})"


def grading_from(section: Mapping[str, Any] | None, problems: Problems) -> Grading | None:
    """The ``grading:`` block (already checked value by value by the schema), or None without one."""
    if not section:
        return None
    by = str(section["by"])
    ok = _rule_keys(section, by, problems)
    rating = tuple((float(r), float(p)) for r, p in section.get("rating") or ())
    table = tuple((int(r), float(p)) for r, p in section.get("table") or ())
    ok &= _rising(("grading", "rating"), [r for r, _ in rating], "ratings", problems)
    ok &= _rising(("grading", "table"), [float(r) for r, _ in table], "ranks", problems)
    bands = tuple(Band(str(b["bot"]), float(b["points"])) for b in section.get("bands") or ())
    below = float(section.get("below", 0))
    ok &= _bands(bands, below, problems)
    test = TestBounds(**{k: v for k, v in (section.get("test") or {}).items()})
    if test.elo0 >= test.elo1:
        problems.add(("grading", "test", "elo1"), f"elo1 {test.elo1:g} is not above elo0 {test.elo0:g}: H1 (the band) "
                                                  "is the larger difference, e.g. {elo0: 0, elo1: 30}")
        ok = False
    faults = section.get("faults")
    if not ok:
        return None
    return Grading(by=by, best=float(section.get("best", 0)), worst=float(section.get("worst", 0)), rating=rating,
                   table=table, rest=float(section.get("rest", 0)), shared_rank=str(section.get("shared_rank", "best")),
                   left_out=float(section.get("left_out", 0)), missing=float(section.get("missing", 0)),
                   round=float(section.get("round", 1)),
                   id_column=str(section.get("id_column", "student")),
                   points_column=str(section.get("points_column", "points")),
                   details=bool(section.get("details", True)), bands=bands, below=below, test=test,
                   games=int(section.get("games", DEFAULT_BUDGET)), seats=int(section.get("seats", 2)),
                   faults=None if faults is None else FaultRule(float(faults["each"]), _maybe(faults.get("most"))),
                   require_separation=bool(section.get("require_separation", False)),
                   check=float(section.get("check", 0)),
                   suites=tuple(SuiteItem(str(x["path"]), float(x.get("points", 0)))
                                for x in section.get("suites") or ()),
                   where=_where(section, problems))


def _rule_keys(section: Mapping[str, Any], by: str, problems: Problems) -> bool:
    """Each rule's keys with its rule only, and the keys it needs given."""
    ok = True
    for rule, keys in RULE_KEYS.items():
        for key in keys:
            if rule != by and key in section and key not in RULE_KEYS[by]:
                problems.add(("grading", key), f"only means something with by: {rule}; this block grades by {by} "
                                               f"(give {_needs(by)}, or by: {rule})")
                ok = False
            if rule == by and key not in section:
                problems.add(("grading", key), f"missing: by: {by} needs {_needs(by)}")
                ok = False
    if by != "benchmarks":
        for key in BENCHMARK_KEYS:
            if key in section:
                problems.add(("grading", key), f"only means something with by: benchmarks; this block grades by {by}")
                ok = False
    if "shared_rank" in section and by in ("rating", "benchmarks"):
        problems.add(("grading", "shared_rank"), f"only means something by rank or by table: "
                                                 f"{'a rating' if by == 'rating' else 'a band'} is not a range")
        ok = False
    if section.get("require_separation") and by not in ("rank", "table"):
        problems.add(("grading", "require_separation"), f"only means something by rank or by table: by {by}, a "
                                                        "student's points are not decided by a shared rank")
        ok = False
    return ok


def _bands(bands: tuple[Band, ...], below: float, problems: Problems) -> bool:
    """Bands whose benchmarks parse, each once, built-ins in their order of strength, points rising from ``below``."""
    ok = True
    seen: dict[str, int] = {}
    strength: list[tuple[int, int, str]] = []  # (band, rank among the built-ins, name)
    for i, band in enumerate(bands):
        try:
            spec = parse_bot(band.bot)
        except ValueError as exc:
            problems.add(("grading", "bands", i, "bot"), f"{exc}; a benchmark is builtin:NAME (built-ins: "
                                                        f"{', '.join(BUILTIN_ORDER)}), a command line or NAME=COMMAND")
            ok = False
            continue
        if spec.command in seen:
            problems.add(("grading", "bands", i, "bot"), f"{band.bot!r} is also the benchmark of "
                                                        f"bands[{seen[spec.command]}]: one band a benchmark (drop "
                                                        "one, or give another bot)")
            ok = False
        seen[spec.command] = i
        if spec.builtin is not None:
            strength.append((i, BUILTIN_ORDER.index(spec.builtin), spec.builtin))
    for (i, a, name_a), (j, b, name_b) in zip(strength, strength[1:]):
        if b < a:
            problems.add(("grading", "bands", j, "bot"), f"builtin:{name_b} comes after builtin:{name_a} (bands[{i}]), "
                                                        f"but it is the weaker player ({' < '.join(BUILTIN_ORDER)}): "
                                                        "list the bands weakest benchmark first")
            ok = False
    points = [below] + [band.points for band in bands]
    for i, (low, high) in enumerate(zip(points, points[1:])):
        if high <= low:
            before = "below" if i == 0 else f"bands[{i - 1}]"
            problems.add(("grading", "bands", i, "points"), f"{points_text(high)} is not above {points_text(low)} "
                                                           f"({before}):"
                                                           " the points must rise from band to band, a stronger "
                                                           "benchmark giving more")
            ok = False
    return ok


def _where(section: Mapping[str, Any], problems: Problems) -> tuple[tuple[str, int | None], ...]:
    """The line of every key the later checks may blame (the block, its budget, its test, each band)."""
    paths: list[Path] = [("grading",), ("grading", "games"), ("grading", "seats"), ("grading", "test"),
                         ("grading", "bands")]
    paths += [("grading", "test", k) for k in ("elo0", "elo1", "alpha", "beta", "model")]
    for i, _ in enumerate(section.get("bands") or ()):
        paths += [("grading", "bands", i), ("grading", "bands", i, "bot"), ("grading", "bands", i, "points")]
    for i, _ in enumerate(section.get("suites") or ()):
        paths += [("grading", "suites", i), ("grading", "suites", i, "path")]
    return tuple((format_path(p), problems.line_of(p)) for p in paths if problems.line_of(p) is not None)


def _maybe(value: Any) -> float | None:
    return None if value is None else float(value)


def _rising(path: Path, values: list[float], what: str, problems: Problems) -> bool:
    for i, (a, b) in enumerate(zip(values, values[1:]), 1):
        if b <= a:
            problems.add(path + (i,), f"{points_text(b)} comes after {points_text(a)}; the {what} must rise from pair "
                                      "to pair: list the pairs in rising order, each once")
            return False
    return True


def _needs(by: str) -> str:
    return " and ".join(EXAMPLES[k] for k in RULE_KEYS[by])


def points_text(value: float) -> str:
    """``90`` for 90.0, ``92.5`` for 92.5."""
    return f"{value:g}" if abs(value) < 1e15 else str(value)
