"""Running the ladder: bring the bots up to date, then plan and play batches of games until a stop rule.

The flow: arena file -> builds (``prepare_bots``) -> submission hashes -> the ladder file's bots (games of
changed or removed bots retired) -> batches: games planned (written first), played by the arena's
``LocalExecutor``, each result committed as it ends -> ratings refitted over every kept game -> the
next batch, or a stop (budget, target separation, shares reached) -> the run's standings stored and
the reports written.
"""

from __future__ import annotations

import math
import os
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence, cast

from referee.arena.bot_reports import write_bot_reports
from referee.arena.model import Arena
from referee.arena.runner import NeverStarted, Progress, Quiet, never_started, prepare_bots
from referee.benchmarks.classroom import ClassGrades, grade_class
from referee.benchmarks.plan import BenchmarkPlan, benchmark_key
from referee.bots.spec import BotSpec
from referee.builds.steps import LeftOut
from referee.grading.class_list import ClassList
from referee.grading.grade import Grade
from referee.grading.grades import write_grades
from referee.grading.rule import Grading
from referee.inputs.problems import ArenaFileError, Problem
from referee.ladder.benchmark_ledger import LadderLedger
from referee.ladder.fingerprint import submission_hashes
from referee.ladder.history import write_history
from referee.ladder.scheduler import coverage_tables, separated, uncertain_tables
from referee.ladder.shapes import LadderRunRow, LadderSettingsJson
from referee.ladder.store import LadderStore, disk_errors, open_ladder
from referee.live.state import LiveState
from referee.run.executor import Executor, ExecutorFactory, local_executor
from referee.run.jobs import GameJob
from referee.run.loop import RunLoop, following
from referee.run.seeds import game_seed
from referee.run.workers import Workers, resolve_workers
from referee.standings.collect import Collected
from referee.standings.first_faults import FirstFaults
from referee.standings.model import LeftOutEntry, Standings
from referee.standings.ranking import standings_for
from referee.standings.ratings import warm_up
from referee.standings.report_files import timing, write_reports
from referee.standings.results_doc import ResultsDoc, order_rule, rating_info
from referee.store.notes_file import append_notes
from referee.store.results import GameLine, GameResult, Slot
from referee.store.results_dir import ResultsDir
from referee.store.results_shapes import TableJson

#: Games planned together from one set of standings (fixed, not the number of workers: the same plan
#: whatever the concurrency).
DEFAULT_BATCH = 16
DEFAULT_SHARE = 24
#: Without --budget, a run that chases a target separation stops after this many shares' worth of games.
TARGET_CAP_SHARES = 4


@dataclass(frozen=True)
class LadderOptions:
    """How long a run goes on and how it plans (see ``lastcard ladder run --help``)."""

    budget: int | None = None
    target: int | None = None
    share: int = DEFAULT_SHARE
    batch: int = DEFAULT_BATCH


@dataclass
class LadderRun:
    """What a ladder run did."""

    run: int
    status: str
    stop_reason: str
    played_now: int
    retired: int
    kept: int
    wall_s: float
    doc: ResultsDoc
    changes: dict[str, list[str]]
    left_out: list[LeftOut] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    never_started: list[NeverStarted] = field(default_factory=list)
    """Bots that could not start in any of their kept games, with their own words (as an arena's)."""
    faults: FirstFaults = field(default_factory=FirstFaults)
    """Each bot's first fault of each kind, over the kept games."""
    workers: Workers = Workers(1)
    """The worker processes that played (decided once)."""
    benchmarks: ClassGrades | None = None
    """``grading: by: benchmarks``: the students' tests (their games kept in the ladder file) and their grades."""
    grade_notes: tuple[str, ...] = ()
    """What grades.csv's writer said about the class (grades by rank that do not separate it)."""

    @property
    def standings(self) -> Standings:
        return self.doc.standings


def game_settings(arena: Arena) -> LadderSettingsJson:
    """What decides a ladder's games: one ruleset (the arena's first stage), its seats, the seed, the policy."""
    stage = arena.stages[0]
    return {"ruleset": stage.ruleset, "options": dict(stage.options), "seats": stage.seats, "seed": arena.seed,
            "policy": arena.policy.to_json()}


def run_ladder(arena: Arena, db: str, *, out: str | None = None, jobs: int | None = None,
               options: LadderOptions = LadderOptions(), progress: Progress | None = None,
               stop_after: int | None = None, pin: bool | None = None,
               executor_factory: ExecutorFactory = local_executor, live: LiveState | None = None) -> LadderRun:
    """Bring the ladder in ``db`` up to date with ``arena``'s bots and play until a stop rule.

    Raises ``LadderBusy`` when another run holds the file, ``LadderError`` for a file that cannot be
    used, ``ArenaFileError`` when too few bots are left after builds. Ctrl-C (``KeyboardInterrupt``)
    stops the workers, stores the standings so far and returns with status ``interrupted``;
    ``stop_after`` does the same after that many new games (tests). ``live``: the live page's state, given
    every game as it ends and the standings of the kept games when someone watches.
    """
    progress = progress or Quiet()
    _check_file(arena, options)
    out_dir = os.path.abspath(out or default_out(db))
    workers = resolve_workers(jobs or arena.jobs)
    stage = arena.stages[0]
    seats = stage.seats
    with open_ladder(db) as store, disk_errors(db):
        store.check_settings(game_settings(arena))
        log_dir = ResultsDir(out_dir).logs
        os.makedirs(log_dir, exist_ok=True)
        if len(arena.stages) > 1:
            progress.note(f"a ladder plays one ruleset: stage {stage.name!r} ({stage.ruleset}, {seats} seats); "
                          "the other stages are not used")
        entries = arena.bots  # every entrant gets a report, the bots left out included
        given = arena
        arena, left = prepare_bots(arena, log_dir, workers.count, progress, pool_check=given.contest)
        if len(arena.bots) < seats and given.contest:
            raise ArenaFileError(arena.source, [Problem("bots", f"{len(arena.bots)} bots can play but a table seats "
                                                                f"{seats}: add bots or lower seats")])
        hashes = submission_hashes(arena.bots, arena.base_dir)
        specs = {e.spec.name: e.spec for e in arena.bots}
        names = [e.spec.name for e in arena.bots]
        run = store.start_run(hashes)
        changes = store.update_bots(run, {n: (hashes[n], specs[n].to_json()) for n in names})
        _announce(progress, changes, store.retired_in(run))

        def make() -> Executor:
            return executor_factory(arena, jobs=workers.count, stderr_dir=log_dir, records_dir=None, pin=pin)

        t0 = time.monotonic()
        follow = following(live.now.pick) if live is not None else None  # the live page's now-playing view
        with RunLoop(make, on_start=warm_up, follow=follow) as loop:
            player = _Player(store, arena, specs, loop, progress, live, notes_dir=out_dir)
            player.standings = lambda: ladder_standings(_kept(store, names), names, arena, left, complete=False)
            status, reason = "finished", ""
            try:
                reason = (_play(store, arena, names, hashes, options, player, run, stop_after) if given.contest else
                          "the file asks for no contest: benchmark tests only")
            except _Interrupted:
                status, reason = "interrupted", "interrupted"
                progress.note(f"interrupted after {player.played} new games: every finished game is kept")
            finally:
                progress.stop()
            loop.close()
            graded = _benchmark_tests(given, store, hashes, out_dir, jobs, progress, executor_factory, pin) \
                if status == "finished" else None
            wall = time.monotonic() - t0
            games = _kept(store, names)
            standings = ladder_standings(games, names, arena, left, complete=status == "finished")
            retired = store.retired_in(run)
            doc = results_doc(arena, games, standings, run, status, reason, player.played, retired, changes)
            store.finish_run(run, status=status, stop_reason=reason, played=player.played, retired=retired,
                             kept=len(games), left_out=[x.to_json() for x in standings.left_out],
                             standings=[{**r.to_json(timing=True), "rank_best": r.rank_best,
                                         "rank_worst": r.rank_worst} for r in standings.rows])
            paths, grade_notes = publish(out_dir, doc, games, _KeptLines(store, set(names)), store.runs(), entries,
                                         left, wall=wall, played=player.played, jobs=workers.count,
                                         notes=[f"run {run}: {reason}; {player.played} games played, {retired} "
                                                f"retired, {len(games)} kept"], grading=arena.grading,
                                         benchmark_grades=graded.written.grades if graded and graded.written else None,
                                         class_list=arena.class_list)
    return LadderRun(run, status, reason, player.played, retired, len(games), wall, doc, changes, left, paths,
                     never_started(games, arena.specs, log_dir), games.faults, workers, graded, grade_notes)


def _check_file(arena: Arena, options: LadderOptions) -> None:
    """Refuse a ladder file that cannot make a ladder (no stage), or a stop rule it cannot meet."""
    if not arena.stages:
        raise ArenaFileError(arena.source, [Problem("stages", "a ladder needs a ruleset and seats: give `ruleset` "
                                                              "and `seats` (or one stage)")])
    if options.target is not None and arena.bootstrap <= 0:
        raise ArenaFileError(arena.source, [Problem("bootstrap", "--target-separation compares 95% rating intervals, "
                                                                 "and bootstrap: 0 gives none: set bootstrap (200, "
                                                                 "say) or drop --target-separation")])


def publish(out_dir: str, doc: ResultsDoc, games: Collected, lines: Iterable[GameLine],
            runs: Sequence[LadderRunRow], entries: Sequence[Any], left: Sequence[LeftOut], *, wall: float,
            played: int, jobs: int, notes: Sequence[str], grading: Grading | None = None,
            benchmark_grades: Mapping[str, Grade] | None = None, class_list: ClassList | None = None
            ) -> tuple[list[str], tuple[str, ...]]:
    """Everything a teacher hands out after a run: results.json, the standings files, history, games.jsonl,
    grades.csv (with ``grading``: the standings so far, at every run), a report per student (bots/NAME.md) and
    report.html (``games``: the kept games' sums; ``lines``: the same games read again from the ladder file, a
    line at a time); the paths written, and what the grades' writer says about the class."""
    from referee.html_report import write_report

    paths = write_reports(out_dir, doc, timing(doc.standings, games, wall_s=wall, played_now=played, jobs=jobs),
                          notes=notes)
    paths += write_history(out_dir, runs)
    paths.append(_write_games(out_dir, lines))
    grades: dict[str, Grade] = dict(benchmark_grades or {})
    grade_notes: tuple[str, ...] = ()
    if grading is not None and grading.by != "benchmarks":
        written = write_grades(out_dir, doc.standings, entries, grading, class_list)
        grades, grade_notes = written.grades, written.notes
        paths += [p for p in (written.path, *written.files) if p is not None]
    paths += write_bot_reports(out_dir, doc, lines, entries, left, grades=grades, notes=grade_notes)
    paths.append(write_report(out_dir))
    return paths, grade_notes


def _benchmark_tests(arena: Arena, store: LadderStore, hashes: Mapping[str, str], out_dir: str, jobs: int | None,
                     progress: Progress, executor_factory: ExecutorFactory, pin: bool | None) -> ClassGrades | None:
    """``grading: by: benchmarks``: each student's tests, the games of unchanged submissions kept in the ladder
    file; their games and page in the report's benchmarks/ folder (None for another rule)."""
    if arena.grading is None or arena.grading.by != "benchmarks":
        return None
    from referee.html_report import write_report  # here: a ladder without benchmark tests need not import it

    ledger = LadderLedger(store, hashes, benchmark_key(BenchmarkPlan.of(arena)))
    graded = grade_class(arena, out=out_dir, jobs=jobs, progress=progress, executor_factory=executor_factory,
                         pin=pin, ledger=ledger, folder=ResultsDir(out_dir).file(ResultsDir.BENCHMARKS))
    write_report(graded.folder, jobs=resolve_workers(jobs or arena.jobs).count)
    return graded


def default_out(db: str) -> str:
    """Reports go beside the ladder file: ``ladder.sqlite`` -> ``ladder-report/``."""
    stem = os.path.splitext(os.path.abspath(db))[0]
    return stem + "-report"


def ladder_standings(games: Collected | Sequence[GameLine], names: Sequence[str], arena: Arena,
                     left: Sequence[LeftOut] = (), complete: bool = True) -> Standings:
    """Standings over the kept games, ranked by the arena's ``rank_by``, with rank ranges."""
    return standings_for(cast(Any, games), names, bootstrap=arena.bootstrap, seed=arena.seed, rank_by=arena.rank_by,
                         rule=order_rule([], arena.rank_by), left_out=[LeftOutEntry(x.bot, x.reason) for x in left],
                         complete=complete, rulesets=[arena.stages[0].rules])


def results_doc(arena: Arena, games: Collected, standings: Standings, run: int, status: str,
                reason: str, played: int, retired: int, changes: Mapping[str, list[str]]) -> ResultsDoc:
    """results.json for a ladder run: the arena's format (kind ``arena``) with a ``ladder`` block."""
    settings = game_settings(arena)
    return ResultsDoc(
        kind="ladder", name=arena.name, complete=status == "finished", seed=arena.seed, games=len(games),
        policy=arena.policy.to_json(), rank_by=arena.rank_by, standings=standings,
        head_to_head=games.head_to_head(standings.bots), rating=rating_info(arena.bootstrap, arena.seed),
        bots=tuple(e.spec.to_json() for e in arena.bots),
        table=TableJson(ruleset=settings["ruleset"], options=settings["options"], seats=settings["seats"]),
        blocks={"ladder": {"run": run, "status": status, "stop_reason": reason, "played_this_run": played,
                           "retired_this_run": retired, "kept_games": len(games),
                           "changes": {k: sorted(v) for k, v in changes.items()}}})


# ---------------------------------------------------------------------------------------------- the loop

def _play(store: LadderStore, arena: Arena, names: list[str], hashes: Mapping[str, str], options: LadderOptions,
          player: _Player, run: int, stop_after: int | None) -> str:
    """Batches until a stop rule; the rule that stopped it, in words."""
    seats = arena.stages[0].seats
    pool = set(names)
    budget = options.budget
    if budget is None and options.target is not None:
        budget = TARGET_CAP_SHARES * math.ceil(options.share * len(names) / seats)
        player.progress.note(f"no --budget: at most {budget} games ({TARGET_CAP_SHARES} shares) to separate the "
                             f"top {options.target}")
    while True:
        # Games planned but not played (a run stopped mid-batch): the same games, before anything new.
        pending = [g for g in store.games(played=False)
                   if all(s in pool and hashes[s] == h for s, h in zip(g.seating, g.hashes))]
        if budget is not None:
            pending = pending[:max(0, budget - player.played)]
        if pending:
            player.expected = max(player.expected, player.played + len(pending))
            player.play(pending, stop_after)
            continue
        if budget is not None and player.played >= budget:
            return f"the budget of {budget} games is spent"
        batch = store.next_batch()
        rng = random.Random(game_seed(arena.seed, batch, "ladder-plan"))
        tables = _next_tables(store, arena, names, options, player, budget, rng)
        if isinstance(tables, str):
            return tables
        player.expected = max(player.expected, player.played + len(tables))
        seq = store.next_seq()
        store.plan(run, batch, [(seq + k, f"L{seq + k:06d}", game_seed(arena.seed, seq + k, "ladder"), seating,
                                 [hashes[s] for s in seating]) for k, seating in enumerate(tables)])
        # played as pending at the top of the loop


def _next_tables(store: LadderStore, arena: Arena, names: list[str], options: LadderOptions, player: _Player,
                 budget: int | None, rng: random.Random) -> list[tuple[str, ...]] | str:
    """The next batch's tables: bots short of their share first, then the most uncertain places; or why the run
    stops."""
    seats = arena.stages[0].seats
    games = _kept(store, names)
    counts = {n: 0 for n in names}
    for row in games.tally.rows():
        counts[row.bot] = row.games
    deficit = sum(max(0, options.share - c) for c in counts.values())
    player.expected = budget if budget is not None else player.played + math.ceil(deficit / seats)
    room = options.batch if budget is None else min(options.batch, budget - player.played)
    tables = coverage_tables(counts, options.share, seats, room, rng)
    if tables:
        return tables
    if options.target is None and options.budget is None:
        return f"every bot has its share of {options.share} games"
    rows = list(ladder_standings(games, names, arena).rows)
    if options.target is not None and separated(rows, options.target):
        return f"the top {options.target} places are separated (no overlapping 95% intervals)"
    return uncertain_tables(rows, seats, room, options.target or len(rows), rng) or \
        "no neighbours in the order have overlapping intervals"


def _write_games(out_dir: str, games: Iterable[GameLine]) -> str:
    """games.jsonl of the games that count, as an arena writes it (so ``lastcard replay REPORT GAME`` works)."""
    return ResultsDir(out_dir).games_log.write(games)


def _kept(store: LadderStore, names: Sequence[str]) -> Collected:
    """The games that count (played, not retired, every bot in this run's pool), as a run's collector keeps
    them: sums and placements, read from the ladder file a row at a time."""
    return Collected(names).extend(_KeptLines(store, set(names)))


class _KeptLines:
    """The lines of the games that count, read from the ladder file each time this is iterated."""

    def __init__(self, store: LadderStore, pool: set[str]) -> None:
        self.store = store
        self.pool = pool

    def __iter__(self) -> Iterator[GameLine]:
        for g in self.store.iter_games(played=True):
            if g.line and all(s in self.pool for s in g.seating):
                yield g.line


class _Interrupted(Exception):
    """Ctrl-C stopped the run loop: every finished game is committed."""


class _Player:
    """Plays planned games on the run loop, committing each result as it ends."""

    def __init__(self, store: LadderStore, arena: Arena, specs: Mapping[str, BotSpec], loop: RunLoop,
                 progress: Progress, live: LiveState | None = None, notes_dir: str | None = None) -> None:
        self.store = store
        self.live = live
        self.notes_dir = notes_dir
        """Where the games' debug notes go (the report's folder: ``lastcard replay REPORT GAME`` shows them)."""
        self.standings: Callable[[], Standings] | None = None
        self.arena = arena
        self.specs = specs
        self.loop = loop
        self.progress = progress
        self.played = 0
        #: Games this run expects to play (for the progress bar): the budget, or what the shares need.
        self.expected = 0
        self.started = False

    def play(self, games: Sequence[Any], stop_after: int | None) -> None:
        """Play ``games`` (planned, in the file), committing each result as it ends."""
        if not self.started:
            self.progress.start(self.expected, 0)
            self.started = True
        stage = self.arena.stages[0]
        by_id = {g.game: g for g in games}

        def commit(job: GameJob, result: GameResult) -> bool:
            g = by_id[job.game_id]
            line = GameLine(result, Slot("ladder", g.batch, None, g.seq))
            self.store.record(job.game_id, line)
            if result.notes is not None and self.notes_dir is not None:
                append_notes(self.notes_dir, [result.notes])
            self.played += 1
            self.progress.update(self.played, max(self.expected, self.played), None)
            if self.live is not None:
                self.live.game(line)
                if self.standings is not None:
                    self.live.refresh(self.standings, self.played)
            if stop_after is not None and self.played >= stop_after:
                raise KeyboardInterrupt
            return False

        jobs = (GameJob(g.game, g.seed, stage.rules, tuple(self.specs[s] for s in g.seating), self.arena.policy,
                        hide_names=self.arena.hide_names)
                for g in games)
        if not self.loop.play_jobs(jobs, commit):
            raise _Interrupted()


def _announce(progress: Progress, changes: Mapping[str, list[str]], retired: int) -> None:
    words = {"new": "new", "changed": "changed (their games retired)", "removed": "gone (their games retired)",
             "returned": "back"}
    for key, word in words.items():
        if changes.get(key):
            progress.note(f"{word}: {', '.join(sorted(changes[key]))}")
    if retired:
        progress.note(f"{retired} games retired")
