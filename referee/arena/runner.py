"""Running an arena end to end, in three steps: prepare (store, builds, plan), play (rounds of jobs on the
one ``RunLoop``), summarize (standings, results document, report files).

The flow is one way: validated ``Arena`` -> builds (bots left out) -> ``Planner`` rounds -> jobs ->
executor -> each result appended to games.jsonl -> ``Standings`` -> report files. Progress goes to a
``Progress`` object the caller gives (the command line draws it).
"""

from __future__ import annotations

import itertools
import os
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Protocol, Sequence, TypeAlias, cast

from referee.arena.model import Arena, Stage
from referee.arena.pool_check import pool_problems
from referee.arena.schedule import PlannedGame, Planner, Round, games_at_once, job_for
from referee.bots.entry import BotEntry
from referee.bots.logs import stderr_log
from referee.bots.spec import BotSpec
from referee.bots.walls_hint import hidden_by_walls
from referee.inputs.problems import ArenaFileError
from referee.run.executor import Executor, ExecutorFactory, local_executor
from referee.run.jobs import GameJob
from referee.run.loop import RunLoop, following
from referee.run.startups import CannotStart, ProbeBeside, StartupWatch, last_stderr, probe
from referee.run.workers import Workers, default_jobs, resolve_workers
from referee.standings.collect import Collected
from referee.standings.first_faults import FirstFaults
from referee.standings.model import LeftOutEntry, Standings
from referee.standings.placements import PlacedRow
from referee.standings.ranking import ordered, standings_for
from referee.standings.ratings import start_warm_up, warm_up
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


def prepare_bots(arena: Arena, log_dir: str | None, jobs: int, progress: Progress,
                 probe_starts: bool = False, pool_check: bool = True) -> tuple[Arena, list[LeftOut]]:
    """Check required programs and run build steps (and, with ``probe_starts``, start each process bot once:
    see ``startups.probe``); the arena without the bots left out.

    Raises ``ArenaFileError`` when too few bots are left for the tables (unless ``pool_check`` is false: the
    benchmark tests seat each student alone with benchmarks).
    """
    kept, left = list(arena.bots), cast("list[LeftOut]", [])
    if not (probe_starts or any(e.unusable or e.requires or e.build for e in kept)):
        return arena, left  # nothing to check, build or start: the build machinery is not even imported
    from referee.builds.steps import check_requires, run_builds  # here: see the comment above

    kept, left = check_requires(kept)
    for item in left:
        progress.note(f"left out {item.bot}: {item.reason}")
    if any(e.build for e in kept):
        progress.note(f"building {sum(1 for e in kept if e.build)} bot(s)...")

        def done(entry: BotEntry, failure: LeftOut | None, seconds: float) -> None:
            if failure is None:
                how = "" if entry.built is None else (", from the cache" if entry.built.cached else "") + \
                    f", sandbox {entry.built.level}"
                progress.note(f"built {entry.spec.name} ({seconds:.1f} s{how})")
            else:
                where = f"; log: {failure.log}" if failure.log else ""
                level = f" (build sandbox {failure.build_level})" if failure.build_level else ""
                tail = "".join(f"\n    {line}" for line in failure.detail.splitlines())
                progress.note(f"left out {entry.spec.name}: {failure.reason}{level}{where}{tail}")

        kept, failed = run_builds(kept, log_dir, jobs, done)
        left += failed
    if probe_starts:
        broken = probe([e.spec for e in kept], log_dir, jobs)
        left += [cannot_start_left_out(stuck, progress) for stuck in broken.values()]
        kept = [e for e in kept if e.spec.name not in broken]
    if left and pool_check:
        _check_pool(arena, kept, left)
    return arena.with_bots(kept), left


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
              live: LiveState | None = None, beside: Callable[[Arena], None] | None = None) -> ArenaRun:
    """Play ``arena`` (or finish it, with ``resume``) and write its reports.

    ``keep_games`` false: no games.jsonl (``out`` is a scratch directory nothing reads back; the reports are
    made from the collector's sums, not from the games file).

    Ctrl-C (``KeyboardInterrupt``) stops the workers and their bots, writes the standings so far and
    returns with ``complete`` false; ``stop_after`` does the same after that many new games (tests).
    ``pin`` pins each worker and its bots to a CPU (default: when there are more CPUs than workers).
    ``live``: the live page's state, given each game as it ends (``--live``). ``beside``: called once, with the
    arena as played, as the games begin (its workers forked): work that does not wait for the games starts then
    and runs beside them (the checks behind the bot reports).
    """
    progress = progress or Quiet()
    # With a worker on every core, the rating library's import (0.6 s of CPU) would take a core from the
    # games: do it while the bots build instead, when there are builds to wait for.
    early = None
    if any(e.build for e in arena.bots) and resolve_workers(jobs or arena.jobs).count >= default_jobs():
        early = start_warm_up()
    run = prepare_run(arena, out=out, jobs=jobs, resume=resume, fresh=fresh, progress=progress, kind=kind,
                      keep_games=keep_games, local=executor_factory is local_executor)
    # An arena starts each bot program once, where they will run (here, unless on a cluster), and leaves out those
    # that cannot start: beside its first games, which are played again without them if there are any.
    probing = ProbeBeside([e.spec for e in run.arena.bots], ResultsDir(run.out_dir).startup_logs, run.workers.count) \
        if kind == "arena" and executor_factory is local_executor else None
    if early is not None:
        early.join()  # no thread may hold an import lock when the workers are forked

    def make() -> Executor:
        return executor_factory(run.arena, jobs=run.workers.count, stderr_dir=run.log_dir, pin=pin,
                                records_dir=run.records_dir)

    # Otherwise warm_up after the workers are forked: no thread may hold an import lock at a fork.
    # A match (or compare) stops for a bot that cannot start; an arena probes its bots beside the first games.
    watch = StartupWatch(run.specs) if kind != "arena" else None
    follow = following(live.now.pick) if live is not None else None  # the live page's now-playing view
    begin = _games_begin(early is None, beside, run.arena, probing)
    with RunLoop(make, on_start=begin, watch=watch, follow=follow) as loop:
        t0 = time.monotonic()
        try:
            while True:
                try:
                    complete, played_now = play_rounds(run, loop, progress, stop_after, live, probing)
                    break
                except PoolChanged as changed:
                    loop.close(kill=True)  # its workers' games are of the pool before
                    run, probing = _without(run, changed.broken, progress), None
        finally:
            run.store.close()
            progress.stop()
        # The workers quit their bots (a JVM takes a while to exit) while the standings are fitted and written.
        loop.wind_down()
        wall = time.monotonic() - t0
        ran = summarize(run, complete=complete, played_now=played_now, wall=wall)
        loop.close()
        return ran


def prepare_run(arena: Arena, *, out: str | None, jobs: int | None, resume: bool, fresh: bool, progress: Progress,
                kind: str, probe_starts: bool = False, keep_games: bool = True, local: bool = True) -> _Prepared:
    """Open the store (fresh or resuming), run the builds, plan the first round; announce the planned games and,
    ``local``ly, the workers that will play them."""
    started = time.monotonic()
    out_dir = os.path.abspath(out or arena.out)
    asked = jobs or arena.jobs
    store = GameStore(out_dir, keep_games=keep_games)
    store.prepare(resume=resume, fresh=fresh)
    log_dir = ResultsDir(out_dir).logs
    os.makedirs(log_dir, exist_ok=True)  # bots' stderr logs, build logs
    records_dir = out_dir  # ResultsDir.RECORDS: every game with records, else only games with a fault
    entrants = arena.bots
    arena, left = prepare_bots(arena, log_dir, resolve_workers(asked).count, progress, probe_starts=probe_starts)
    prepared = _planned(arena, entrants, kind, out_dir, log_dir, records_dir, store, left, started, progress, asked,
                        local)
    prepared.phases["builds_s"] = time.monotonic() - started
    return prepared


def _planned(arena: Arena, entrants: tuple[BotEntry, ...], kind: str, out_dir: str, log_dir: str,
             records_dir: str | None, store: GameStore, left: list[LeftOut], started: float, progress: Progress,
             asked: int | None, local: bool, workers: Workers | None = None) -> _Prepared:
    """The store started on ``arena``'s pool (the games already played read back when resuming) and the plan
    made; said, with the ``workers`` (decided here unless given)."""
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
    return _Prepared(arena, entrants, kind, out_dir, log_dir, records_dir, workers, store, left, planner, finished,
                     started)


class PoolChanged(Exception):
    """Raised out of the games when bots were found unable to start beside them: the games played belong to
    another pool, and are played again without those bots."""

    def __init__(self, broken: Mapping[str, CannotStart]) -> None:
        super().__init__(", ".join(broken))
        self.broken = broken


def _without(run: _Prepared, broken: Mapping[str, CannotStart], progress: Progress) -> _Prepared:
    """``run`` started over without the bots in ``broken``: left out as the probe before the games would have
    left them (``prepare_bots``), the games so far and their bots' stderr logs gone, the plan made again."""
    gone = [cannot_start_left_out(stuck, progress) for stuck in broken.values()]
    kept = [e for e in run.arena.bots if e.spec.name not in broken]
    left = run.left + gone
    run.store.restart([stderr_log(run.log_dir, name) for name in run.names])  # first: nothing of that pool stays
    _check_pool(run.arena, kept, left)
    progress.note(f"the games are played again without {', '.join(broken)} ({len(run.finished)} were played beside "
                  "the start-up check)")
    again = _planned(run.arena.with_bots(kept), run.entrants, run.kind, run.out_dir, run.log_dir, run.records_dir,
                     run.store, left, run.started, progress, None, True, run.workers)
    again.phases.update(run.phases)
    return again


def play_rounds(run: _Prepared, loop: RunLoop, progress: Progress, stop_after: int | None,
                live: LiveState | None = None, probing: ProbeBeside | None = None) -> tuple[bool, int]:
    """Play the plan round by round on ``loop``; (complete, games played now); ``live`` sees every game.

    ``probing``: the bots' start-up probe, running beside the games: once it finds a bot that cannot start, or at
    the end, ``PoolChanged`` is raised (no game of the wrong pool is stored after the verdict is known)."""
    planner, finished, arena = run.planner, run.finished, run.arena
    specs = run.specs
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
                 in_play: dict[str, PlannedGame] = in_play) -> Iterator[GameJob]:
            for p in games:
                if p.game_id not in finished:
                    in_play[p.game_id] = p
                    yield job_for(arena, p, specs, stage, keep_actions)

        def store(job: GameJob, result: GameResult, in_play: dict[str, PlannedGame] = in_play) -> bool:
            nonlocal played_now
            if probing is not None and (broken := probing.failed()):
                raise PoolChanged(broken)
            line = GameLine(result, in_play.pop(job.game_id).slot)
            run.store.append(line)
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
    if probing is not None:
        probing.start()  # no game to play (a finished arena resumed): the probe alone, as before the games
        if broken := probing.wait():
            raise PoolChanged(broken)
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


def _games_begin(warm: bool, beside: Callable[[Arena], None] | None, arena: Arena,
                 probing: ProbeBeside | None) -> Callable[[], None]:
    """What the run loop does once its workers are forked (each time it forks them, so once only): start the
    probe of the bots, import the rating's numerics (``warm``) and start the work ``beside`` the games. Threads
    start only then: no thread may hold an import lock, or a bot's pipe, when the workers are forked."""
    begun = False

    def begin() -> None:
        nonlocal begun
        if begun:
            return
        begun = True
        if probing is not None:
            probing.start()
        if warm:
            warm_up()
        if beside is not None:
            beside(arena)
    return begin


def build_levels(built: Iterable[BotEntry], left: Iterable[LeftOut]) -> dict[str, str]:
    """The sandbox level of each bot's build step: those built, and those whose build failed."""
    levels = {e.spec.name: e.built.level for e in built if e.built is not None}
    levels.update({x.bot: x.build_level for x in left if x.build_level})
    return levels


def _unless_empty(items: Iterator[GameJob]) -> Iterator[GameJob] | None:
    """``items`` as they were, or None when there are none (a round played already starts no workers)."""
    first = next(items, None)
    return None if first is None else itertools.chain((first,), items)


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
