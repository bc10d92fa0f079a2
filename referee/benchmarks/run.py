"""Playing the benchmark tests on the one run loop: every student's pairs, counted in planned order, per student.

The flow: ``BenchmarkPlan`` -> each student's ``StudentTests`` -> the jobs of the pairs still needed (students in
turn, each read ahead only in the band it is being tested on, within its budget) -> ``RunLoop.play_jobs`` -> each
result stored as it ends (games.jsonl, and the ladder's file when given a ``Ledger``) -> pairs counted per
student strictly in order -> a student done when its tests say so. A student's count depends on its own games
only, so whatever ``--jobs``, a cluster or ``--resume`` did, each test stops at the same pair; games read ahead
past a verdict are not counted and, once the run is complete, not kept: the folder is what a serial run leaves.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Mapping, Protocol, Sequence, cast

from referee.arena.model import Arena
from referee.arena.runner import NeverStarted, Progress, Quiet, never_started
from referee.benchmarks.plan import BenchmarkPlan, game_id, parse_id
from referee.benchmarks.sequential import StudentTests
from referee.bots.entry import BotEntry
from referee.bots.spec import BotSpec
from referee.grading.bands import BenchmarkOutcome
from referee.inputs.problems import ArenaFileError, Problem
from referee.run.executor import Executor, ExecutorFactory, local_executor
from referee.run.jobs import GameJob
from referee.run.loop import RunLoop
from referee.run.startups import probe
from referee.run.workers import resolve_workers
from referee.standings.collect import Collected
from referee.standings.ranking import standings_for
from referee.standings.ratings import warm_up
from referee.standings.report_files import timing, write_reports
from referee.standings.results_doc import ResultsDoc, order_rule, rating_info
from referee.store.record_file import keep_only
from referee.store.results import GameLine, GameResult, Slot
from referee.store.results_dir import ResultsDir
from referee.store.results_shapes import BenchmarksBlockJson, BenchmarkStudentJson
from referee.store.run_store import GameStore

#: The slot's stage name in games.jsonl.
STAGE = "benchmarks"
#: Bootstrap samples for the standings' rating interval (as ``compare``).
BOOTSTRAP = 200
#: Jobs read ahead of the earliest unfinished game, per worker (at least ``MIN_LEAD``): a bound on the games that
#: wait in memory for their pair, and on the games read ahead of a verdict.
LEAD_PER_JOB = 8
MIN_LEAD = 16


class Ledger(Protocol):
    """Where a ladder keeps the benchmark games across runs: each student's, for its submission as it is now."""

    def stored(self, student: str) -> Iterable[GameLine]:
        """The student's games kept from earlier runs (for this submission and these tests)."""

    def keep(self, student: str, line: GameLine) -> None:
        """Keep a game that has just ended."""


@dataclass
class BenchmarkRun:
    """What a benchmark run did: every student's tests, whether it ran to its end, the games counted."""

    plan: BenchmarkPlan
    tests: dict[str, StudentTests]
    complete: bool
    played_now: int
    wall_s: float
    collected: Collected
    out_dir: str
    doc: ResultsDoc | None = None
    never_started: list[NeverStarted] = field(default_factory=list)
    reused: int = 0
    """Games a ledger held from earlier runs, counted again."""

    def outcomes(self) -> dict[str, BenchmarkOutcome]:
        """Each student's tests as grading reads them."""
        return {name: t.outcome(self.complete) for name, t in self.tests.items()}


class _Counting:
    """The games finished in any order, counted per student in planned order."""

    def __init__(self, plan: BenchmarkPlan, students: Sequence[BotSpec], names: Sequence[str]) -> None:
        self.plan = plan
        self.tests = {s.name: StudentTests(plan, s) for s in students}
        self.waiting: dict[str, GameLine] = {}
        self.collected = Collected(names)
        self.lines: dict[str, list[GameLine]] = {s.name: [] for s in students}
        self.finished = 0
        self.bot_ms = 0.0
        self.decisions = 0

    @property
    def done(self) -> bool:
        return all(t.done for t in self.tests.values())

    def offer(self, line: GameLine) -> None:
        """A game finished; counted once its pair's turn comes."""
        found = parse_id(line.game)
        self.finished += 1
        self.bot_ms += sum(line.result.times.total)
        self.decisions += sum(line.result.times.decisions)
        if found is None or found[0] not in self.tests:
            return
        student, band, k, _ = found
        if self.tests[student].plays(band, k):
            self.waiting[line.game] = line
            self.advance(student)

    def advance(self, student: str) -> None:
        """Count the student's pairs whose twins have both finished, in order."""
        tests = self.tests[student]
        while (nxt := tests.next_pair()) is not None:
            band, k = nxt
            id_a, id_b = game_id(student, band, k, "a"), game_id(student, band, k, "b")
            if id_a not in self.waiting or id_b not in self.waiting:
                return
            a, b = self.waiting.pop(id_a), self.waiting.pop(id_b)
            tests.add(band, k, a, b)
            self.collected.add(a)
            self.collected.add(b)
            self.lines[student] += [a, b]
        for game in [g for g in self.waiting if _student(g) == student]:  # read ahead of a verdict: not counted
            _, band, k, _ = cast("tuple[str, int, int, str]", parse_id(game))
            if not tests.plays(band, k):
                del self.waiting[game]

    def __contains__(self, game: str) -> bool:
        return game in self.waiting

    def counted_ids(self) -> set[str]:
        return {line.game for lines in self.lines.values() for line in lines}


def _student(game: str) -> str | None:
    found = parse_id(game)
    return None if found is None else found[0]


class _Issuer:
    """The jobs still needed, students in turn: each student's next pairs in the band it is being tested on."""

    def __init__(self, counting: _Counting) -> None:
        self.counting = counting
        self.issued: dict[str, tuple[int, int]] = {}  # student -> (band, next pair to issue)

    def jobs(self) -> Iterator[GameJob]:
        """One pass's jobs: stops when no student has a pair left to issue now (its games are in play)."""
        while True:
            given = False
            for name, tests in self.counting.tests.items():
                job_pair = self._next(name, tests)
                if job_pair is None:
                    continue
                band, k = job_pair
                for job in self.counting.plan.pair(tests.student, band, k).jobs:
                    if job.game_id not in self.counting:
                        given = True
                        yield job
            if not given:
                return

    def _next(self, name: str, tests: StudentTests) -> tuple[int, int] | None:
        nxt = tests.next_pair()
        if nxt is None:
            return None
        band, counted = nxt
        issued_band, k = self.issued.get(name, (band, counted))
        k = max(k, counted) if issued_band == band else counted
        if k >= counted + tests.room():
            return None
        self.issued[name] = (band, k + 1)
        return band, k


def run_benchmarks(arena: Arena, students: Sequence[BotSpec], *, out: str, jobs: int | None = None,
                   resume: bool = False, fresh: bool = False, progress: Progress | None = None,
                   executor_factory: ExecutorFactory = local_executor, pin: bool | None = None,
                   stop_after: int | None = None, ledger: Ledger | None = None) -> BenchmarkRun:
    """Play ``students``' benchmark tests (``arena``'s ``grading: by: benchmarks``) into the results folder ``out``.

    Before any game: the plan's checks and each benchmark program started once (``ArenaFileError`` naming the
    band's key and line). With a ``ledger`` (the ladder), the games it holds are counted first and only what a
    new or changed submission needs is played; without one, ``resume`` finishes an interrupted run from
    ``out``'s games.jsonl. Ctrl-C returns with ``complete`` false, every finished game stored.
    """
    progress = progress or Quiet()
    plan = BenchmarkPlan.of(arena)
    workers = resolve_workers(jobs or arena.jobs)
    out_dir = os.path.abspath(out)
    folder = ResultsDir(out_dir)
    store = GameStore(out_dir)
    store.prepare(resume=resume and ledger is None, fresh=fresh or ledger is not None)
    os.makedirs(folder.logs, exist_ok=True)
    _check_benchmarks(arena, plan, folder.logs, workers.count)
    seated = _seated(plan, students)
    names = list(seated)
    counting = _Counting(plan, students, names)
    reused = 0
    store.start(plan.to_json(list(students)), keep=counting.offer)
    if ledger is not None:
        for spec in students:
            for line in ledger.stored(spec.name):
                store.append(line)
                counting.offer(line)
                reused += 1
    if counting.finished:
        progress.note(f"benchmark tests: {counting.finished} games already played"
                      + (" (kept by the ladder)" if ledger is not None else ""))
    played_now = 0
    t0 = time.monotonic()
    issuer = _Issuer(counting)
    total = _planned(counting)
    progress.start(total, counting.finished)

    def on_result(job: GameJob, result: GameResult) -> bool:
        nonlocal played_now
        found = parse_id(job.game_id)
        line = GameLine(result, Slot(STAGE, found[1] if found else None, None, found[2] if found else None))
        store.append(line)
        if ledger is not None and found is not None:
            ledger.keep(found[0], line)
        counting.offer(line)
        played_now += 1
        progress.update(counting.finished, max(_planned(counting), counting.finished), None)
        if stop_after is not None and played_now >= stop_after:
            raise KeyboardInterrupt
        return counting.done

    # A cluster ships the bots its games need: the students' and the benchmark programs.
    shipped = arena.with_bots([*arena.bots, *(BotEntry(b, "grading.bands") for b in plan.bands if b.builtin is None)])

    def make() -> Executor:
        return executor_factory(shipped, jobs=workers.count, stderr_dir=folder.logs, records_dir=out_dir, pin=pin)

    complete = True
    try:
        with RunLoop(make, on_start=warm_up) as loop:
            lead = max(MIN_LEAD, LEAD_PER_JOB * workers.count)
            while complete and not counting.done:
                before = counting.finished
                complete = loop.play_jobs(issuer.jobs(), on_result, lead=lead)
                issuer.issued.clear()  # a new pass issues from what is counted
                if complete and counting.finished == before and not counting.done:
                    raise RuntimeError("benchmark tests: a pass played no game and no student is done")
            loop.close()
    finally:
        store.close()
        progress.stop()
    complete = complete and counting.done
    run = BenchmarkRun(plan, counting.tests, complete, played_now, time.monotonic() - t0, counting.collected,
                       out_dir, never_started=never_started(counting.collected, list(students), folder.logs),
                       reused=reused)
    if complete:
        _keep_only(out_dir, counting)
    run.doc = results_doc(arena, run, seated)
    write_reports(out_dir, run.doc, timing(run.doc.standings, counting, wall_s=run.wall_s, played_now=played_now,
                                           jobs=workers.count))
    return run


def _planned(counting: _Counting) -> int:
    """The games the run plays at most from here: what is counted, and each unfinished student's budget left."""
    return sum(2 * (t.pairs + t.room()) for t in counting.tests.values())


def _seated(plan: BenchmarkPlan, students: Sequence[BotSpec]) -> dict[str, BotSpec]:
    """Every bot that sits at a table, by name: the students, then each band's benchmark and its copies."""
    seated = {s.name: s for s in students}
    for s in students:
        for band in range(len(plan.bands)):
            settings = plan.settings(s, band)
            for spec in (settings.new, settings.base, *settings.field):
                seated.setdefault(spec.name, spec)
    return seated


def _check_benchmarks(arena: Arena, plan: BenchmarkPlan, log_dir: str, jobs: int) -> None:
    """Start every benchmark program once: one that cannot start is the arena file's mistake, found before any
    game (its band's key and line, and the benchmark's own words)."""
    broken = probe([b for b in plan.bands if b.builtin is None], log_dir, jobs)
    problems = []
    for i, spec in enumerate(plan.bands):
        stuck = broken.get(spec.name)
        if stuck is None:
            continue
        path, line = plan.grading.locate("bands", i, "bot")
        words = "; ".join(stuck.words()[-3:])
        problems.append(Problem(path, f"the benchmark {spec.command!r} cannot start (tried twice): "
                                      f"{(stuck.message or '').splitlines()[0] if stuck.message else 'no answer'}"
                                      + (f"; it wrote: {words}" if words else "")
                                      + "; fix the command (it runs in the arena file's folder) or give another bot",
                                line))
    if problems:
        raise ArenaFileError(arena.source, problems)


def _keep_only(out_dir: str, counting: _Counting) -> None:
    """games.jsonl (and records) of the counted games only, in planned order (students in order, then band, pair
    and twin): games read ahead of a verdict are dropped, so the folder is what a serial run leaves."""
    counted = counting.counted_ids()
    rank = {name: i for i, name in enumerate(counting.tests)}
    log = ResultsDir(out_dir).games_log
    offsets: dict[tuple[int, int, int, str], int] = {}
    for game, at in log.ids():
        found = parse_id(game)
        if game in counted and found is not None:
            student, band, k, twin = found
            offsets.setdefault((rank[student], band, k, twin), at)
    log.keep_only(offsets[key] for key in sorted(offsets))
    keep_only(out_dir, counted)


def block(run: BenchmarkRun) -> BenchmarksBlockJson:
    """results.json's ``benchmarks`` block."""
    plan = run.plan
    grading = plan.grading
    students: list[BenchmarkStudentJson] = []
    for name, outcome in run.outcomes().items():
        students.append({"student": name, "passed": outcome.passed, "decided": outcome.decided(len(plan.bands)),
                         "done": run.tests[name].done, "games": outcome.games, "faults": outcome.faults,
                         "tests": [{"benchmark": t.benchmark, "bot": t.bot, "points": t.points, "verdict": t.verdict,
                                    "games": t.games, "faults": t.faults, "llr": t.llr, "lower": t.lower,
                                    "upper": t.upper, "elo": t.elo, "elo_low": t.elo_low, "elo_high": t.elo_high,
                                    "llr_trace": list(t.llr_trace)} for t in outcome.tests]})
    return {"bands": [{"bot": b.bot, "name": s.name, "points": b.points} for b, s in zip(grading.bands, plan.bands)],
            "below": grading.below, "seats": plan.seats, "budget": plan.budget, "elo0": float(plan.sprt.elo0),
            "elo1": float(plan.sprt.elo1), "alpha": float(plan.sprt.alpha), "beta": float(plan.sprt.beta),
            "model": plan.sprt.model, "lower": plan.sprt.lower, "upper": plan.sprt.upper, "students": students}


def results_doc(arena: Arena, run: BenchmarkRun, seated: Mapping[str, BotSpec]) -> ResultsDoc:
    """results.json of a benchmark run: the standings over the counted games (every student and benchmark rated
    together: for reading, not for grades) and the ``benchmarks`` block (what the grades come from)."""
    games = run.collected
    names = list(seated)
    standings = standings_for(cast(Any, games), names, bootstrap=BOOTSTRAP, seed=arena.seed, rank_by="rating",
                              rule=order_rule([], "rating", complete=run.complete), complete=run.complete,
                              rulesets=[run.plan.rules])
    return ResultsDoc(kind="benchmarks", name=arena.name, complete=run.complete, seed=arena.seed, games=len(games),
                      policy=arena.policy.to_json(), rank_by="rating", standings=standings,
                      head_to_head=games.head_to_head(standings.bots), rating=rating_info(BOOTSTRAP, arena.seed),
                      bots=tuple(spec.to_json() for spec in seated.values()),
                      sandbox_levels=games.sandbox_levels(), clock_levels=games.clock_levels(),
                      table={"ruleset": run.plan.rules.house, "options": dict(run.plan.rules.options),
                             "seats": run.plan.seats},
                      blocks={"benchmarks": block(run)})
