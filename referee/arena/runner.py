"""Running an arena end to end, in three steps: prepare (store, builds, plan), play (rounds of jobs on the
one ``RunLoop``), summarize (standings, results document, report files).

The flow is one way: validated ``Arena`` -> builds (bots left out) -> ``Planner`` rounds -> jobs ->
executor -> each result appended to games.jsonl -> ``Standings`` -> report files. Progress goes to a
``Progress`` object the caller gives (the command line draws it).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import threading
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Protocol, Sequence, TypeAlias, cast

from referee.arena.builds_beside import BuildsBeside, build_note, gated
from referee.arena.model import Arena, Stage
from referee.arena.pool_check import pool_problems
from referee.arena.schedule import PlannedGame, Planner, Round, games_at_once, job_for
from referee.bots.entry import BotEntry
from referee.bots.logs import stderr_log
from referee.bots.spec import BotSpec
from referee.bots.walls_hint import hidden_by_walls
from referee.inputs.problems import ArenaFileError
from referee.run.executor import Executor, ExecutorFactory, local_executor, unpinned_cpus
from referee.run.jobs import GameJob
from referee.run.loop import RunLoop, following
from referee.run.startups import CannotStart, ProbeBeside, StartupWatch, last_stderr, probe
from referee.run.workers import Workers, default_jobs, resolve_workers, usable_cpus
from referee.standings.collect import Collected
from referee.standings.first_faults import FirstFaults
from referee.standings.model import LeftOutEntry, Standings
from referee.standings.placements import PlacedRow
from referee.standings.ranking import ordered, standings_for
from referee.standings.ratings import start_warm_up
from referee.standings.report_files import timing, write_reports
from referee.standings.results_doc import ResultsDoc, order_rule, rating_info
from referee.store.games_log import GamesLog
from referee.store.ranking_shapes import StageJson
from referee.store.results import GameLine, GameResult
from referee.store.results_dir import ResultsDir
from referee.store.run_store import GameStore

if TYPE_CHECKING:  # a match of plain bots uses neither: 25 ms of its start-up (issue 51)
    from referee.builds.steps import LeftOut
    from referee.live.state import LiveState

#: The progress display's leader: a bot's name, or a function that finds it (a rating fit: only when shown).
Leader: TypeAlias = "str | Callable[[], str | None] | None"


class TapeMaker(Protocol):
    """What makes the report's tapes beside the games (``html_report.tapes_beside.TapesBeside``): told each game as
    stored, and when the games start over or end."""

    def start(self, cpus: Sequence[int] = ()) -> bool: ...
    def add(self, encoded: bytes, faulted: bool) -> None: ...
    def restart(self) -> None: ...
    def close(self) -> None: ...


class Progress(Protocol):
    """What a run tells the person watching it."""

    def note(self, text: str) -> None: ...
    def start(self, total: int, done: int) -> None: ...
    def update(self, done: int, total: int, leader: Leader) -> None:
        """``leader`` is a name, or a function that finds it: called only when the display is drawn."""
    def stop(self) -> None: ...


class Quiet:
    """No progress display (the default of ``run_arena``)."""

    def note(self, text: str) -> None:
        pass

    def start(self, total: int, done: int) -> None:
        pass

    def update(self, done: int, total: int, leader: Leader) -> None:
        pass

    def stop(self) -> None:
        pass


@dataclass(frozen=True)
class NeverStarted:
    """A process bot that failed to start in every game it sat in, with the first startup fault's message."""

    bot: str
    games: int
    message: str
    stderr: tuple[str, ...] = ()
    """The bot's own words: the last lines it wrote to stderr in its last game (its log's last part)."""
    log: str | None = None
    """Its stderr log, which holds every game's part."""
    walls: tuple[str, ...] = ()
    """What the sandbox's walls may have hidden from it, read from its stderr, and the fix (``walls_hint``)."""


@dataclass
class ArenaRun:
    """What a run produced: the results document, how it ended, and every game."""

    doc: ResultsDoc
    complete: bool
    out_dir: str
    played_now: int
    wall_s: float
    left_out: list[LeftOut] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    never_started: list[NeverStarted] = field(default_factory=list)
    cannot_start: CannotStart | None = None
    """A match's bot that failed to start the same way game after game: the run stopped early for it."""
    faults: FirstFaults = field(default_factory=FirstFaults)
    """Each bot's first fault of each kind, over every game stored."""
    workers: Workers = Workers(1)
    """The worker processes that played (decided once, in ``prepare_run``)."""
    played: Arena | None = None
    """The arena as played: its bots as built (command and folder those of the build), those left out gone."""

    @property
    def standings(self) -> Standings:
        return self.doc.standings

    @property
    def games(self) -> GamesLog:
        """Every game's line of games.jsonl, read from the file each time it is iterated (never all in memory)."""
        return ResultsDir(self.out_dir).games_log


def prepare_bots(arena: Arena, log_dir: str | None, jobs: int, progress: Progress, probe_starts: bool = False,
                 pool_check: bool = True, build: bool = True) -> tuple[Arena, list[LeftOut]]:
    """Check required programs and run build steps (and, with ``probe_starts``, start each process bot once:
    see ``startups.probe``); the arena without the bots left out.

    Raises ``ArenaFileError`` when too few bots are left for the tables (unless ``pool_check`` is false: the
    benchmark tests seat each student alone with benchmarks). ``build`` false: the builds are left to the caller
    (``BuildsBeside``), the bots to build kept as they are.
    """
    kept, left = list(arena.bots), cast("list[LeftOut]", [])
    if not (probe_starts or any(e.unusable or e.requires or e.build for e in kept)):
        return arena, left  # nothing to check, build or start: the build machinery is not even imported
    from referee.builds.steps import check_requires  # here: see the comment above

    kept, left = check_requires(kept)
    for item in left:
        progress.note(f"left out {item.bot}: {item.reason}")
    kept, failed = _builds_first(kept, log_dir, jobs, progress, build)
    left += failed
    if probe_starts:
        broken = probe([e.spec for e in kept], log_dir, jobs)
        left += [cannot_start_left_out(stuck, progress) for stuck in broken.values()]
        kept = [e for e in kept if e.spec.name not in broken]
    if left and pool_check:
        _check_pool(arena, kept, left)
    return arena.with_bots(kept), left


def _builds_first(kept: list[BotEntry], log_dir: str | None, jobs: int, progress: Progress,
                  build: bool) -> tuple[list[BotEntry], list[LeftOut]]:
    """The build steps run now (``build``), or only checked (a strict sandbox's walls can be built: said before
    any game) for ``BuildsBeside``; the bots kept and those left out."""
    from referee.builds.steps import check_build_walls, run_builds

    if not build:
        check_build_walls(kept)
        return kept, []
    if not any(e.build for e in kept):
        return kept, []
    progress.note(f"building {sum(1 for e in kept if e.build)} bot(s)...")
    return run_builds(kept, log_dir, jobs, lambda *ended: progress.note(build_note(*ended)))


def cannot_start_left_out(stuck: CannotStart, progress: Progress) -> LeftOut:
    """A bot that could not start, twice the same way, as left out (and said, with its own words)."""
    from referee.builds.steps import LeftOut  # here: a match never leaves a bot out

    reason = f"could not start (twice, the same way): {stuck.message.splitlines()[0] if stuck.message else ''}"
    progress.note("\n".join([f"left out {stuck.bot}: {reason}", *stuck.words()]))
    return LeftOut(stuck.bot, reason, "\n".join([stuck.message, *stuck.words()]), stuck.log, stuck.stderr,
                   walls=stuck.walls)


def _check_pool(arena: Arena, kept: Sequence[BotEntry], left: Sequence[LeftOut]) -> None:
    """Raise ``ArenaFileError`` when the bots kept cannot make the arena's tables."""
    problems = pool_problems(arena, [e.spec.name for e in kept], [x.bot for x in left])
    if problems:
        raise ArenaFileError(arena.source, problems)


@dataclass
class _Prepared:
    """A run ready to play: its store, the pool after builds, the plan, and the games already stored."""

    arena: Arena
    entrants: tuple[BotEntry, ...]
    kind: str
    out_dir: str
    log_dir: str
    records_dir: str | None
    workers: Workers
    store: GameStore
    left: list[LeftOut]
    planner: Planner
    finished: Collected
    started: float
    phases: dict[str, float] = field(default_factory=dict)
    cannot_start: CannotStart | None = None

    @property
    def names(self) -> list[str]:
        return [e.spec.name for e in self.arena.bots]

    @property
    def specs(self) -> dict[str, BotSpec]:
        return {e.spec.name: e.spec for e in self.arena.bots}


def run_arena(arena: Arena, *, out: str | None = None, jobs: int | None = None, resume: bool = False,
              fresh: bool = False, progress: Progress | None = None, stop_after: int | None = None,
              pin: bool | None = None, kind: str = "arena",
              executor_factory: ExecutorFactory = local_executor, keep_games: bool = True,
              live: LiveState | None = None, beside: Callable[[Arena], None] | None = None,
              builds_beside: bool | None = None, page_tapes: Callable[[str], TapeMaker] | None = None,
              tapes_beside: bool | None = None) -> ArenaRun:
    """Play ``arena`` (or finish it, with ``resume``) and write its reports.

    ``keep_games`` false: no games.jsonl (``out`` is a scratch directory nothing reads back; the reports are
    made from the collector's sums, not from the games file).

    Ctrl-C (``KeyboardInterrupt``) stops the workers and their bots, writes the standings so far and
    returns with ``complete`` false; ``stop_after`` does the same after that many new games (tests).
    ``pin`` pins each worker and its bots to a CPU (default: when there are more CPUs than workers).
    ``live``: the live page's state, given each game as it ends (``--live``). ``beside``: called once, with the
    arena as played, as the games begin (its workers forked and its bots built): work that does not wait for the
    games starts then and runs beside them (the checks behind the bot reports). An arena played here builds its
    bots beside its first games when that leaves a core to them (``builds_beside`` None: ``build_beside_pays``; true:
    always; false: before them, as a match or a cluster does). ``page_tapes``: a page of the games will be written,
    and this makes its tapes (given the output folder): beside the games where that leaves a core to it
    (``tapes_beside`` None: ``tapes_beside_pays``; true: always; false: never, the page makes them all).
    """
    progress = progress or Quiet()
    local_arena = kind == "arena" and executor_factory is local_executor
    asked = resolve_workers(jobs or arena.jobs).count
    if builds_beside is None:
        builds_beside = builds_beside_pays(sum(1 for e in arena.bots if e.build), asked, len(usable_cpus()))
    builds_beside = builds_beside and local_arena
    # With a worker on every core, the rating library's import (0.6 s of CPU) would take a core from the games:
    # do it while the bots build instead, when there are builds to wait for before the games.
    early = None
    if not builds_beside and any(e.build for e in arena.bots) and asked >= default_jobs():
        early = start_warm_up()
    run = prepare_run(arena, out=out, jobs=jobs, resume=resume, fresh=fresh, progress=progress, kind=kind,
                      keep_games=keep_games, local=executor_factory is local_executor, build=not builds_beside)
    if early is not None:
        early.join()  # no thread may hold an import lock when the workers are forked
    tapes = _tape_maker(run, page_tapes, tapes_beside, executor_factory is local_executor)
    # An arena starts once each bot program no game has started yet, where they will run (here, unless on a cluster),
    # and leaves out those that cannot start: beside its first games, played again without them if there are any.
    aside = _BesideGames(run, progress, beside, warm=early is None, probe=local_arena,
                         builds=BuildsBeside(run.arena.bots, run.log_dir, run.workers.count) if builds_beside else None,
                         tapes=tapes)

    def make() -> Executor:
        executor = executor_factory(run.arena, jobs=run.workers.count, stderr_dir=run.log_dir, pin=pin,
                                    records_dir=run.records_dir)
        aside.free_cpus = unpinned_cpus(executor)
        return executor

    # A match (or compare) stops for a bot that cannot start; an arena probes its bots beside the first games.
    watch = StartupWatch(run.specs) if kind != "arena" else None
    follow = following(live.now.pick) if live is not None else None  # the live page's now-playing view
    with RunLoop(make, on_start=aside.begin, watch=watch, follow=follow) as loop:
        t0 = time.monotonic()
        try:
            while True:
                try:
                    complete, played_now = play_rounds(run, loop, progress, stop_after, live, aside)
                    break
                except PoolChanged as changed:
                    loop.close(kill=True)  # its workers' games are of the pool before
                    run = aside.run = _without(run, changed, progress)
                    aside.before_fork()
        finally:
            aside.stop()
            run.store.close()
            progress.stop()
        # The workers quit their bots (a JVM takes a while to exit) while the standings are fitted and written.
        loop.wind_down()
        wall = time.monotonic() - t0
        ran = summarize(run, complete=complete, played_now=played_now, wall=wall)
        loop.close()
        return ran


def _tape_maker(run: _Prepared, page_tapes: Callable[[str], TapeMaker] | None, beside: bool | None, local: bool
                ) -> TapeMaker | None:
    """The page's tape maker, if its tapes are made beside the games (``beside`` None: where that pays)."""
    if beside is None:
        beside = tapes_beside_pays(run.workers.count, len(usable_cpus()), local)
    return page_tapes(run.out_dir) if page_tapes is not None and beside else None


def tapes_beside_pays(workers: int, cores: int, local: bool) -> bool:
    """Whether to make the page's tapes beside the games: where a core is left to them (fewer workers than cores
    here, or the workers elsewhere). With every core playing, the tapes' CPU time would come out of the games': the
    page makes them after, as many at once as there were workers.

    The sample arena's report.html (bench/tapes_beside.py, medians of 9 and 7): with one worker on two cores, the page
    takes 0.07 s after the games instead of 0.35 s, and the run 7.75 s instead of 8.00 s (faster in every pair); with
    two workers, the games took 5% longer and the run gained nothing (4.70 s against 4.68 s).
    """
    return workers < cores or not local


def builds_beside_pays(builds: int, workers: int, cores: int) -> bool:
    """Whether to build beside the first games: when there are builds, and they leave cores to the games (they run
    ``workers`` at a time), or are few (no more than the cores: once the quick ones end, their cores are free).

    The games played beside the builds belong to the pool as planned, and are played again if a build fails: with
    every core building, they slow the builds and may be lost. From an empty build cache (bench/builds_beside.py,
    medians): the sample arena's two builds, 7.05 s built first and 6.31 s beside with one worker, 4.63 s and 4.24 s
    with two; a class of 30 submissions (one fails to build) on two workers, 9.88 s first and 11.04 s beside.
    """
    return builds > 0 and (builds <= cores or workers < cores)


def prepare_run(arena: Arena, *, out: str | None, jobs: int | None, resume: bool, fresh: bool, progress: Progress,
                kind: str, probe_starts: bool = False, keep_games: bool = True, local: bool = True,
                build: bool = True) -> _Prepared:
    """Open the store (fresh or resuming), run the builds (unless ``build`` is false: they run beside the games),
    plan the first round; announce the planned games and, ``local``ly, the workers that will play them."""
    started = time.monotonic()
    out_dir = os.path.abspath(out or arena.out)
    asked = jobs or arena.jobs
    store = GameStore(out_dir, keep_games=keep_games)
    store.prepare(resume=resume, fresh=fresh)
    log_dir = ResultsDir(out_dir).logs
    os.makedirs(log_dir, exist_ok=True)  # bots' stderr logs, build logs
    records_dir = out_dir  # ResultsDir.RECORDS: every game with records, else only games with a fault
    entrants = arena.bots
    arena, left = prepare_bots(arena, log_dir, resolve_workers(asked).count, progress, probe_starts=probe_starts,
                               build=build)
    planner, finished, workers = _planned(arena, kind, store, progress, asked, local)
    prepared = _Prepared(arena, entrants, kind, out_dir, log_dir, records_dir, workers, store, left, planner, finished,
                         started)
    prepared.phases["builds_s"] = time.monotonic() - started
    return prepared


def _planned(arena: Arena, kind: str, store: GameStore, progress: Progress, asked: int | None, local: bool,
             workers: Workers | None = None) -> tuple[Planner, Collected, Workers]:
    """The store started on ``arena``'s pool (the games already played read back when resuming) and the plan
    made; said, with the ``workers`` (decided here unless given). The plan, the games stored, the workers."""
    names = [e.spec.name for e in arena.bots]
    finished = Collected(names)
    store.start(arena.to_json(), finished.add)
    # A match numbers its games g0001, g0002, ... as it always has (bots may seed from the id).
    planner = Planner(arena, names, lambda games, pool: ordered(games, pool, arena.rank_by),
                      id_digits=4 if kind == "match" else 6)
    # No more workers than games that can be in play (a worker per job of --jobs 100000 never played).
    left_to_play = planner.total - len(finished)
    if workers is None:
        workers = resolve_workers(asked, max(1, min(left_to_play, games_at_once(arena, len(names)))))
    # "arena NAME: 5 bots, 2 stages, 120 games planned, 2 workers"; a match is one stage named by its rules.
    stages = "" if kind == "match" else f"{len(arena.stages)} stage{'s' if len(arena.stages) != 1 else ''}, "
    progress.note(f"{kind if arena.name == kind else f'{kind} {arena.name}'}: {len(names)} bots, {stages}"
                  f"{planner.total} games planned" + (f", {workers}" if local and left_to_play else ""))
    if len(finished):
        progress.note(f"resuming: {len(finished)} of {planner.total} games already played")
    if workers.note and left_to_play:
        progress.note(workers.note)
    return planner, finished, workers


class PoolChanged(Exception):
    """Raised out of the games when bots were found beside them unable to play (their build failed, or they cannot
    start): the games played belong to another pool, and are played again without those bots."""

    def __init__(self, gone: Sequence[LeftOut], found_by: str) -> None:
        super().__init__(", ".join(x.bot for x in gone))
        self.gone = list(gone)
        self.found_by = found_by
        """What found them ("the builds", "the start-up check"), as the note of the games played again says it."""


def _without(run: _Prepared, changed: PoolChanged, progress: Progress) -> _Prepared:
    """``run`` started over without the bots ``changed`` leaves out (as the builds and the probe before the games
    would have left them: ``prepare_bots``), the games so far and their bots' stderr logs gone, the plan made
    again."""
    names = [x.bot for x in changed.gone]
    kept = [e for e in run.arena.bots if e.spec.name not in names]
    left = run.left + changed.gone
    run.store.restart([stderr_log(run.log_dir, name) for name in run.names])  # first: nothing of that pool stays
    _check_pool(run.arena, kept, left)
    progress.note(f"the games are played again without {', '.join(names)} ({len(run.finished)} were played beside "
                  f"{changed.found_by})")
    arena = run.arena.with_bots(kept)
    planner, finished, workers = _planned(arena, run.kind, run.store, progress, None, True, run.workers)
    return replace(run, arena=arena, left=left, planner=planner, finished=finished, workers=workers,
                   phases=dict(run.phases), cannot_start=None)


def play_rounds(run: _Prepared, loop: RunLoop, progress: Progress, stop_after: int | None,
                live: LiveState | None = None, aside: _BesideGames | None = None) -> tuple[bool, int]:
    """Play the plan round by round on ``loop``; (complete, games played now); ``live`` sees every game.

    ``aside``: the builds and the bots' start-up probe, running beside the games: a game seating a bot still
    building waits for its build; once a build fails or the probe finds a bot that cannot start, ``PoolChanged``
    is raised (no game of the wrong pool is stored after the verdict is known)."""
    planner, finished, arena = run.planner, run.finished, run.arena
    specs = aside.specs if aside is not None else run.specs  # the bots as built, as their builds end
    tally = _LeaderBoard(planner, finished)
    keep_actions = run.store.keep_games  # nothing else reads a result's actions (the collector keeps sums)
    played_now = 0
    t0 = time.monotonic()
    progress.start(planner.total, len(finished))
    current: Round | None = planner.first()
    while current is not None:
        stage = current.stage
        if live is not None and current.knockout:
            _show_round(live, planner, current)
        # The round is read lazily and only the games in play are held: a round of millions starts at once.
        in_play: dict[str, PlannedGame] = {}

        def todo(games: Iterable[PlannedGame] = current.games, stage: Stage = stage,
                 in_play: dict[str, PlannedGame] = in_play) -> Iterator[GameJob | None]:
            unplayed = (p for p in games if p.game_id not in finished)
            for p in unplayed if aside is None else aside.gated(unplayed):
                if p is None:  # the games left wait for a build: the executor asks again
                    yield None
                    continue
                in_play[p.game_id] = p
                yield job_for(arena, p, specs, stage, keep_actions)

        def store(job: GameJob, result: GameResult, in_play: dict[str, PlannedGame] = in_play) -> bool:
            nonlocal played_now
            if aside is not None:
                aside.poll(result)
            line = GameLine(result, in_play.pop(job.game_id).slot)
            encoded = run.store.append(line)
            if aside is not None and encoded is not None:
                aside.stored(encoded, result)
            finished.add(line)
            played_now += 1
            progress.update(len(finished), planner.total, tally.leader)
            if live is not None:
                live.game(line)
                live.refresh(lambda: run_standings(run, complete=False), len(finished))
            if stop_after is not None and played_now >= stop_after:
                raise KeyboardInterrupt
            return False

        jobs = _unless_empty(todo())
        if jobs is not None and not loop.play_jobs(jobs, store):
            progress.note(f"interrupted: stopping the workers and their bots ({len(finished)} of {planner.total} "
                          "games played; --resume finishes the arena)")
            return False, played_now
        run.cannot_start = loop.cannot_start.with_words(run.log_dir) if loop.cannot_start else None
        if run.cannot_start is not None:
            progress.note(f"stopping: {run.cannot_start.bot} cannot start ({len(finished)} of {planner.total} games "
                          "played)")
            return False, played_now
        # Only the games planned so far: when resuming, later rounds' games are already in the file,
        # and the next round must be planned exactly as it was without them.
        current = planner.next(current, cast(Any, _Planned(finished, planner.last_index)))
    if aside is not None:
        aside.finish()  # every build and the probe's verdict (alone, if no game started them: a finished arena resumed)
    run.phases["games_s"] = time.monotonic() - t0
    # The last round's places are known only now: show the leader the final order will have.
    progress.update(len(finished), planner.total, lambda: tally.leader(force=True))
    return True, played_now


class _Planned:
    """The finished games among those planned so far (planner ids up to ``upto``), as the planner reads them."""

    def __init__(self, finished: Collected, upto: int) -> None:
        self.finished = finished
        self.upto = upto
        self._rows: list[PlacedRow] | None = None

    def _all(self) -> list[PlacedRow]:
        if self._rows is None:
            self._rows = self.finished.log.upto(self.upto)
        return self._rows

    def whole(self) -> Collected | None:
        """The collector itself when it holds no game beyond the plan (always, unless resuming)."""
        if len(self.finished) == len(self.finished.log.order(self.upto)):
            return self.finished
        return None

    def rows(self, ids: Iterable[str]) -> list[PlacedRow]:
        return self.finished.log.rows(ids)

    def __iter__(self) -> Iterator[PlacedRow]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self.finished) if self.whole() is not None else len(self._all())


def _show_round(live: LiveState, planner: Planner, current: Round) -> None:
    """A knockout round begins: its tables on the live page, and who went through the rounds before."""
    planned = [0] * len(current.tables)
    for game in current.games:
        planned[game.table] += 1
    live.knockout_round(current.stage.name, current.number, current.label, current.tables, planned,
                        planner.stage_rounds.get(current.stage_index, []))


def _stages(run: _Prepared) -> list[StageJson]:
    """results.json's stages: each stage's settings and the rounds planned so far."""
    stages = []
    for i, stage in enumerate(run.arena.stages):
        item = stage.to_json()
        item["rounds"] = run.planner.stage_rounds.get(i, [])
        stages.append(item)
    return stages


def run_standings(run: _Prepared, *, complete: bool, stages: list[StageJson] | None = None) -> Standings:
    """The standings of the games stored: the final ones when ``complete``, else those so far (what an
    interrupted run writes, and what the live page shows as the games end)."""
    arena, planner, games = run.arena, run.planner, run.finished
    stages = _stages(run) if stages is None else stages
    knockout = complete and not planner.all_reached_end()
    return standings_for(
        cast(Any, games), run.names, bootstrap=arena.bootstrap, seed=arena.seed, rank_by=arena.rank_by,
        rule=order_rule(stages, arena.rank_by, complete=complete),
        order=planner.final_order(cast(Any, games)) if complete else None,
        # The rounds reached come before the rating in the order, so only bots level on them can tie.
        groups=planner.reached if complete else None, reached=planner.reached_label if knockout else None,
        left_out=[LeftOutEntry(x.bot, x.reason) for x in run.left], complete=complete, stages=stages,
        rulesets=[s.rules for s in arena.stages])


def summarize(run: _Prepared, *, complete: bool, played_now: int, wall: float) -> ArenaRun:
    """The standings, results.json and every report file of the games stored (from the collector's sums and
    placements: nothing here reads every game into memory)."""
    arena, planner = run.arena, run.planner
    games = run.finished
    t1 = time.monotonic()
    stages = _stages(run)
    standings = run_standings(run, complete=complete, stages=stages)
    for item, summary in zip(stages, standings.stages):
        item["played"] = summary.games
        item["records"] = [r.to_json() for r in summary.records]
    run.phases["ratings_s"] = time.monotonic() - t1
    doc = ResultsDoc(kind=run.kind, name=arena.name, complete=complete, seed=arena.seed, games=len(games),
                     games_planned=planner.total, policy=arena.policy.to_json(), rank_by=arena.rank_by,
                     standings=standings, head_to_head=games.head_to_head(standings.bots),
                     rating=rating_info(arena.bootstrap, arena.seed), bots=tuple(e.spec.to_json() for e in arena.bots),
                     stages=tuple(stages), sandbox_levels=games.sandbox_levels(),
                     clock_levels=games.clock_levels(), build_levels=build_levels(arena.bots, run.left))
    times = timing(standings, games, wall_s=wall, played_now=played_now, jobs=run.workers.count)
    # Where the time went, for finding what does not scale with --jobs (the games phase does).
    times["phases"] = {k: round(v, 3) for k, v in run.phases.items()}
    paths = write_reports(run.out_dir, doc, times)
    return ArenaRun(doc, complete, run.out_dir, played_now, wall, run.left, paths,
                    never_started(games, arena.specs, run.log_dir), run.cannot_start, games.faults, run.workers,
                    arena)


class _BesideGames:
    """What an arena runs beside its games, started once its workers are forked (threads start only then: no thread
    may hold an import lock, or a bot's pipe, when the workers are forked): its ``builds``, the rating's numerics
    imported (``warm``), and, once its bots are built, their start-up ``probe`` and the caller's ``beside`` work.

    ``poll`` is asked between games (the main thread): it takes the builds' news and the probe's verdict, and
    raises ``PoolChanged`` when a bot must be left out. It outlives a restart: ``run`` is the pool played now.
    """

    def __init__(self, run: _Prepared, progress: Progress, beside: Callable[[Arena], None] | None, *, warm: bool,
                 probe: bool, builds: BuildsBeside | None, tapes: TapeMaker | None = None) -> None:
        self.run = run
        self.progress = progress
        self.beside = beside
        self.warm = warm
        self.builds = builds if builds is not None and builds.entries else None
        self.specs = run.specs
        """The bots' specs, each as built once its build is taken (the games' jobs are made from them)."""
        self.probing = ProbeBeside(ResultsDir(run.out_dir).startup_logs, run.workers.count) if probe else None
        """The start-up probe, until its verdict is taken: told each game, started once due (``poll``)."""
        self.began = False
        self.warming: threading.Thread | None = None
        self.tapes = tapes
        """The report's tapes, made beside the games (forked before any thread of ours starts), on ``free_cpus``."""
        self.free_cpus: list[int] = []
        """The CPUs none of the workers is pinned to (none: anywhere), as the executor pinned them
        (``unpinned_cpus``)."""

    def begin(self, games: bool = True) -> None:
        """The run loop's ``on_start``, each time it forks workers: start what is not yet running (``games``
        false: no game is to be played, a finished arena resumed)."""
        if not self.began:
            self.began = True
            if self.tapes is not None and not self.tapes.start(self.free_cpus):
                self.tapes = None
            if self.builds is not None:
                self.progress.note(f"building {len(self.builds.entries)} bot(s)"
                                   f"{' beside the games' if games else ''}...")
                self.builds.start()
            if self.warm:
                self.warming = start_warm_up()
            if self.probing is not None:
                self.probing.arm()
        self._go_on()

    def before_fork(self) -> None:
        """Before workers are forked again (a restart): no thread of ours may hold an import lock then. The tapes
        made of the games before are forgotten."""
        if self.warming is not None:
            self.warming.join()
        if self.tapes is not None:
            self.tapes.restart()

    def stored(self, encoded: bytes, result: GameResult) -> None:
        """A game is stored (``encoded``: its line as written): its tape is made beside the games."""
        if self.tapes is not None:
            self.tapes.add(encoded, bool(result.faults))

    def gated(self, games: Iterable[PlannedGame]) -> Iterable[PlannedGame | None]:
        """``games``, those seating a bot still building held back until it is built (a None: none is ready yet)."""
        if self.builds is None or self.builds.done:
            return games
        return gated(games, lambda p: p.seating, self.builds, self.poll)

    def poll(self, result: GameResult | None = None) -> None:
        """Take the builds' news and the probe's verdict (told the game that ended, if one did: ``result``);
        ``PoolChanged`` once a bot must be left out."""
        builds = self.builds
        if builds is not None:
            if builds.take(self.progress.note):
                self._built()
            else:
                self.specs.update((name, e.spec) for name, e in builds.built.items())
        probing = self.probing
        if probing is not None:
            if result is not None:
                probing.see(result)
            if self.builds is None and not probing.started:
                specs = [e.spec for e in self.run.arena.bots]
                if probing.due(specs):
                    probing.start(specs)  # the bots no game has started (mostly none: nothing is started)
            if probing.done:
                self._verdict(probing.wait())

    def finish(self) -> None:
        """At the games' end: every build taken and the probe's verdict (started now if no game started them)."""
        self.begin(games=False)
        if self.builds is not None:
            self.builds.finish(self.progress.note)
            self._built()
        self._go_on()
        if self.probing is not None:
            self.probing.start([e.spec for e in self.run.arena.bots])  # the bots no game has started
            self._verdict(self.probing.wait())

    def _verdict(self, broken: Mapping[str, CannotStart]) -> None:
        """The probe is over: once, its bots that cannot start are left out (the games played again without them)."""
        self.probing = None
        if broken:
            raise PoolChanged([cannot_start_left_out(stuck, self.progress) for stuck in broken.values()],
                              "the start-up check")

    def stop(self) -> None:
        """The games are over (or interrupted): builds still running are ended; those built are played as built; the
        tapes are all made (the page is written next)."""
        if self.tapes is not None:
            tapes, self.tapes = self.tapes, None
            tapes.close()
        builds = self.builds
        if builds is not None:
            builds.stop()
            if builds.started:
                from referee.run.side_by_side import Cancelled  # here: a match builds nothing beside its games

                with contextlib.suppress(Cancelled):  # stopped just now
                    builds.take(self.progress.note)
            self._as_built(builds)

    def _as_built(self, builds: BuildsBeside) -> None:
        """The bots whose builds are taken, as built: in the pool played and in the games' specs."""
        self.run.arena = self.run.arena.with_bots([builds.built.get(e.spec.name, e) for e in self.run.arena.bots])
        self.specs.update((name, e.spec) for name, e in builds.built.items())

    def _built(self) -> None:
        """Every build is taken: the bots as built join the pool played, or those that failed are left out."""
        builds = self.builds
        assert builds is not None
        self.builds = None  # taken: the pool played from now on has its bots built
        self._as_built(builds)
        if builds.failed:
            raise PoolChanged([builds.failed[e.spec.name] for e in self.run.arena.bots if e.spec.name in builds.failed],
                              "the builds")
        self._go_on()

    def _go_on(self) -> None:
        """Once the bots are built (and the workers forked): the ``beside`` work, once."""
        if self.builds is not None or not self.began:
            return
        if self.beside is not None:
            beside, self.beside = self.beside, None
            beside(self.run.arena)


def build_levels(built: Iterable[BotEntry], left: Iterable[LeftOut]) -> dict[str, str]:
    """The sandbox level of each bot's build step: those built, and those whose build failed."""
    levels = {e.spec.name: e.built.level for e in built if e.built is not None}
    levels.update({x.bot: x.build_level for x in left if x.build_level})
    return levels


def _unless_empty(items: Iterator[GameJob | None]) -> Iterator[GameJob | None] | None:
    """``items`` as they were, or None when there are none (a round played already starts no workers)."""
    first = next(items, _END)
    return None if first is _END else itertools.chain((first,), items)


_END: Any = object()


class _LeaderBoard:
    """The progress line's leader, by the rule of the final order (``Planner.final_order``: the rounds
    reached, then the rating or average place), refitted at most every few seconds as games end."""

    #: A refit may take at most this share of the time between refits (the fit grows with the games).
    DUTY = 0.1
    MIN_EVERY_S = 1.0

    def __init__(self, planner: Planner, finished: Collected) -> None:
        self.planner = planner
        self.finished = finished
        self.every = self.MIN_EVERY_S
        self.next_at = 0.0
        self.current: str | None = None

    def leader(self, force: bool = False) -> str | None:
        """The bot first by the final order's rule on the games so far (refitted when due, or ``force``)."""
        now = time.monotonic()
        if self.finished and (force or now >= self.next_at):
            order = self.planner.final_order(cast(Any, self.finished))  # sums and placements pass for the games
            spent = time.monotonic() - now
            self.every = max(self.MIN_EVERY_S, spent / self.DUTY)
            self.next_at = now + self.every
            self.current = order[0] if order else None
        return self.current


def never_started(games: Collected, specs: Sequence[BotSpec], log_dir: str | None = None) -> list[NeverStarted]:
    """Process bots that failed to start in every game they sat in, each with the tail of its stderr log."""
    out = []
    for spec in specs:
        if spec.builtin is not None:
            continue
        played = games.sat.get(spec.name, 0)
        startups, message = games.startups.get(spec.name, (0, ""))
        if played and startups == played:
            log = stderr_log(log_dir, spec.name) if log_dir else None
            words = last_stderr(log) if log else ()
            out.append(NeverStarted(spec.name, played, message, words, log if words else None,
                                    hidden_by_walls(words, spec)))
    return out
