"""One submission graded as a course platform runs it (``lastcard grade``): check, position suites, benchmark tests.

The teacher's arena file (``--arena``) gives the bands, the test, the budget, the check's and the suites' points,
the rules, limits, sandbox and languages; without one, ``DEFAULT_ARENA`` (the bands of ``arenas/graded.yaml``).
The submission is a folder (recognised as a ``submissions:`` entry recognises it) or a command line. The result,
``SubmissionGrade``, is a list of tests with scores, written by ``platforms`` as Gradescope's, PrairieLearn's,
JUnit's or lastcard's own JSON. Bad input (the file, a suite that cannot be read) is an ``ArenaFileError`` before
any game; anything the bot does is a failed test, never an error.
"""

from __future__ import annotations

import glob
import os
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from referee.arena.config import parse_arena
from referee.arena.model import Arena
from referee.arena.runner import Progress, Quiet, prepare_bots
from referee.benchmarks.plan import BenchmarkPlan
from referee.benchmarks.run import BenchmarkRun, run_benchmarks
from referee.bots.spec import BotSpec
from referee.check.contest import contest_config
from referee.check.output import format_text
from referee.check.report import Report
from referee.check.runner import run_check_spec
from referee.grading.bands import BenchmarkOutcome, benchmark_grade, trace_text
from referee.grading.rule import Grading, points_text
from referee.inputs.problems import ArenaFileError, InputFileError, Problem
from referee.inputs.reader import LineMap, load_yaml, read_text
from referee.replay.suite import SHIPPED, PositionSuite, SuiteError, SuiteRun, load_suite, miss_summary, run_suite
from referee.run.executor import ExecutorFactory, local_executor
from referee.run.workers import resolve_workers

#: The teacher's configuration when ``lastcard grade`` is given no ``--arena``: arenas/graded.yaml's bands and test.
DEFAULT_ARENA = """\
name: grade
seed: 2025
ruleset: compact
policy: strikes:3
limits: {move_ms: 500, startup_ms: 10000}
grading:
  by: benchmarks
  bands:
    - {bot: "builtin:easy", points: 60}
    - {bot: "builtin:medium", points: 80}
    - {bot: "builtin:hard", points: 100}
  below: 40
  test: {elo0: 0, elo1: 30, alpha: 0.05, beta: 0.05}
  games: 2000
  faults: {each: 2, most: 20}
bots: []
"""


@dataclass(frozen=True)
class TestItem:
    """One test of the grade: a name, its score out of ``max_score``, passed or failed, and what to show."""

    __test__ = False  # not a pytest test class

    name: str
    score: float
    max_score: float
    passed: bool
    output: str
    description: str = ""


@dataclass
class SubmissionGrade:
    """The grade of one submission: the tests, the total, the rating for a leaderboard, and whether it was gradable."""

    student: str
    tests: list[TestItem]
    score: float
    max_score: float
    gradable: bool = True
    """False when the submission cannot be run at all (no bot, a failed build, a bot that cannot start)."""
    problems: list[str] = field(default_factory=list)
    """Why it is not gradable."""
    rating: float | None = None
    """The Plackett-Luce rating of its benchmark games, the first band's benchmark at 1500."""
    outcome: BenchmarkOutcome | None = None
    flag: str = ""
    seconds: float = 0.0
    work: str | None = None
    """The results folder of its benchmark games (``--work``), for ``lastcard replay``."""

    @property
    def ok(self) -> bool:
        """Gradable, and every check and suite passed (the exit status a CI job reads)."""
        return self.gradable and all(t.passed for t in self.tests if not t.name.startswith("stronger than"))

    def summary(self) -> str:
        """One paragraph for the top of a platform's page."""
        if not self.gradable:
            return "Not gradable: " + "; ".join(self.problems)
        text = f"{points_text(self.score)} of {points_text(self.max_score)} points."
        if self.outcome is not None:
            text += f" Benchmark tests: {len(self.outcome.tests)} played, {self.outcome.games} games."
        if self.flag:
            text += f" Not certain: {self.flag}"
        return text


def teacher_arena(arena_file: str | None, bot: str, base: str | None = None) -> Arena:
    """The teacher's arena (or the default one) with ``bot`` as its only entrant: a folder as a submission (with the
    file's first ``submissions:`` entry's settings), else a command line."""
    if arena_file is None:
        text, source, folder = DEFAULT_ARENA, "<lastcard grade>", base or os.getcwd()
    else:
        read, problems = read_text(arena_file)
        if read is None:
            raise ArenaFileError(arena_file, problems)
        text, source, folder = read, arena_file, os.path.dirname(os.path.abspath(arena_file))
    data, early = load_yaml(text, LineMap())
    if data is None or not isinstance(data, dict):
        raise ArenaFileError(source, early or [Problem("", "the file is not a mapping of keys")])
    grading = data.get("grading")
    if not isinstance(grading, dict) or grading.get("by") != "benchmarks":
        raise ArenaFileError(source, [Problem("grading.by", "lastcard grade needs a file that grades by "
                                                            "benchmarks (grading: {by: benchmarks, bands: [...]}, "
                                                            "docs/grading.md)")])
    try:  # every mistake of the file itself, with its line (its bots are replaced by the submission: not theirs)
        parse_arena(text, source=source, base_dir=folder)
    except ArenaFileError as exc:
        own = [p for p in exc.problems if not p.path.startswith("bots")]
        if own:
            raise ArenaFileError(source, own) from None
    data = dict(data)
    data["bots"] = [_entrant(data.get("bots") or [], bot)]
    data.pop("stages", None)  # no contest: one submission against the benchmarks
    data.pop("format", None)
    arena = parse_arena(data, source=source, base_dir=folder)
    BenchmarkPlan.of(arena)
    return arena


def _entrant(bots: list[Any], bot: str) -> Any:
    if not os.path.isdir(bot):
        return bot
    given: dict[str, Any] = next((b["submissions"] for b in bots if isinstance(b, dict) and "submissions" in b), {})
    return {"submissions": {**{k: v for k, v in given.items() if k != "exclude"},
                            "path": glob.escape(os.path.abspath(bot))}}


def load_suites(arena: Arena) -> list[tuple[PositionSuite, float]]:
    """The grading block's position suites (a shipped one by its ruleset's name), each with its points; a suite that
    cannot be read is the file's mistake, at its key and line."""
    grading = arena.grading
    assert grading is not None
    out, problems = [], []
    for i, item in enumerate(grading.suites):
        path = os.path.join(SHIPPED, f"{item.path}.yaml") if item.path in ("compact", "family", "arcade") else \
            os.path.join(arena.base_dir, os.path.expanduser(item.path))
        try:
            suite = load_suite(path)
            suite.check_rules(arena.stages[0].ruleset, dict(arena.stages[0].options))
            out.append((suite, item.points))
        except (SuiteError, InputFileError) as exc:  # not a suite, or not a file it can read
            where, line = grading.locate("suites", i, "path")
            problems.append(Problem(where, f"{exc} (a position suite, docs/positions.md, or compact, family or "
                                           "arcade for a shipped one)", line))
    if problems:
        raise ArenaFileError(arena.source, problems)
    return out


def grade_submission(arena: Arena, *, work: str | None = None, jobs: int | None = None, resume: bool = False,
                     check_games: int = 20, progress: Progress | None = None,
                     executor_factory: ExecutorFactory = local_executor, note: Callable[[str], None] | None = None
                     ) -> SubmissionGrade:
    """Check, ask the suites and test against the benchmarks the one entrant of ``arena`` (``teacher_arena``)."""
    progress = progress or Quiet()
    grading = arena.grading
    assert grading is not None
    suites = load_suites(arena)
    t0 = time.monotonic()
    scratch = tempfile.TemporaryDirectory(prefix="lastcard-grade-") if work is None else None
    folder = os.path.abspath(work) if work is not None else _name(scratch)
    try:
        entry = arena.bots[0]
        logs = os.path.join(folder, "logs")
        os.makedirs(logs, exist_ok=True)
        workers = resolve_workers(jobs or arena.jobs)
        built, left = prepare_bots(arena, logs, workers.count, progress,
                                   probe_starts=executor_factory is local_executor, pool_check=False)
        student = entry.spec.name
        if left or not built.bots:
            reason = left[0].reason if left else "nothing to run"
            return SubmissionGrade(student, [TestItem("builds and starts", 0, 0, False, reason)], 0.0,
                                   _max_points(grading), gradable=False, problems=[reason],
                                   seconds=time.monotonic() - t0)
        spec = built.bots[0].spec
        tests = [TestItem("builds and starts", 0, 0, True, f"{spec.command} started")]
        tests.append(_check(built, check_games, grading.check, note))
        tests += [_suite(suite, points, spec, note) for suite, points in suites]
        if note:
            note(f"benchmark tests: at most {grading.games} games...")
        run = run_benchmarks(built, [spec], out=folder, jobs=jobs, resume=resume and work is not None,
                             fresh=not resume, progress=progress, executor_factory=executor_factory)
        if not run.complete:  # Ctrl-C: no grade is given for tests cut short (the games are kept in --work)
            raise KeyboardInterrupt
        outcome = run.outcomes()[spec.name]
        graded = benchmark_grade(outcome, grading)
        tests += _band_tests(outcome, grading, graded.points)
        extra = sum(t.score for t in tests if not t.name.startswith(("stronger than", "plays the benchmarks")))
        score = graded.points + extra
        return SubmissionGrade(student, tests, score, _max_points(grading), rating=_rating(run, spec.name),
                               outcome=outcome, flag=graded.flag, seconds=time.monotonic() - t0, work=work)
    finally:
        if scratch is not None:
            scratch.cleanup()


def _name(scratch: tempfile.TemporaryDirectory[str] | None) -> str:
    assert scratch is not None
    return scratch.name


def _max_points(grading: Grading) -> float:
    return grading.top + grading.check + sum(s.points for s in grading.suites)


def _check(arena: Arena, games: int, points: float, note: Callable[[str], None] | None) -> TestItem:
    """``lastcard check`` as the contest runs the bot: all its checks passed, or not."""
    entry = arena.bots[0]
    if note:
        note(f"lastcard check ({games} fuzz games)...")
    report: Report = run_check_spec(entry.spec, contest_config(arena, entry, games=games, seed=arena.seed))
    text = format_text(report, unicode=False)
    return TestItem("lastcard check", points if report.ok else 0.0, points, report.ok, text,
                    "the protocol checks and fuzz games of lastcard check (docs/check.md)")


def _suite(suite: PositionSuite, points: float, spec: BotSpec, note: Callable[[str], None] | None) -> TestItem:
    """A position suite: the share of positions passed, times its points."""
    name = suite.name or os.path.basename(suite.path)
    if note:
        note(f"position suite {name} ({len(suite.positions)} positions)...")
    run: SuiteRun = run_suite(suite, spec, spec.name)
    passed = len(run.verdicts) - len(run.misses)
    total = len(run.verdicts)
    lines = [f"{passed}/{total} positions passed"]
    lines += [f"MISS {v.position.id}: {miss_summary(v)}" for v in run.misses]
    return TestItem(f"positions: {name}", points * passed / total if total else 0.0, points, not run.misses,
                    "\n".join(lines), f"the positions of {suite.path}, each asked of the bot afresh "
                                       "(docs/positions.md)")


def _band_tests(outcome: BenchmarkOutcome, grading: Grading, points: float) -> list[TestItem]:
    """A test per band (its points the step from the band below), and the points of playing at all."""
    out = [TestItem("plays the benchmarks", grading.below, grading.below, True,
                    f"{outcome.games} games against the benchmarks", "the points of a bot that plays")]
    done = {i: t for i, t in enumerate(outcome.tests)}
    for i, band in enumerate(grading.bands):
        step = band.points - grading.band_points(i)
        t = done.get(i)
        if t is None:
            out.append(TestItem(f"stronger than {band.bot}", 0.0, step, False, "not tested: a band below it was not "
                                                                               "reached"))
            continue
        verdict = {"H1": "yes", "H0": "no"}.get(t.verdict or "", "undecided (the band below it is kept)")
        text = (f"stronger than {t.benchmark}: {verdict} after {t.games} games; LLR {t.llr:.2f} (bounds {t.lower:.2f}, "
                f"{t.upper:.2f}); Elo {t.elo:+.0f} ({t.elo_low:+.0f} to {t.elo_high:+.0f}) against it\n"
                f"LLR after each pair: {trace_text(t.llr_trace)}")
        out.append(TestItem(f"stronger than {band.bot}", step if t.verdict == "H1" else 0.0, step, t.verdict == "H1",
                            text, f"a sequential test on twin games: {grading.describe(0)}"))
    if grading.faults and outcome.faults:
        cost = grading.faults.cost(outcome.faults)
        out.append(TestItem("faults", -cost, 0, False, f"{outcome.faults} faults; {grading.faults.describe()}"))
    return out


def _rating(run: BenchmarkRun, name: str) -> float | None:
    """The student's rating over its benchmark games, the first band's benchmark at 1500 (one scale for a class)."""
    if run.doc is None or not run.plan.bands:
        return None
    rows = {r.bot: r.rating for r in run.doc.standings.rows}
    me, anchor = rows.get(name), rows.get(run.plan.bands[0].name)
    if me is None or anchor is None:
        return None
    return round(1500 + me - anchor, 1)
