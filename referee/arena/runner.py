"""Running an arena end to end: builds, schedule, executor, store, standings and reports.

The flow is one way: validated ``Arena`` -> builds (bots left out) -> ``Planner`` rounds -> jobs ->
``LocalExecutor`` -> each result appended to games.jsonl -> standings and ratings -> report files.
Progress goes to a ``Progress`` object the caller gives (the command line draws it).
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, Sequence, TypeAlias

from ..standings import compute_standings, with_rank_ranges
from .builds import LeftOut, check_requires, run_builds
from .config import Arena, ArenaFileError, BotEntry, pool_problems
from .executor import LocalExecutor, default_jobs
from .ratings import fit_ratings, rank_order, warm_up
from .report import (RESULTS_FORMAT, RESULTS_VERSION, head_to_head, order_info, rating_info, results_rows, timing,
                     write_reports)
from .schedule import Planner, Round, job_for
from .store import GameStore, game_line


#: The progress display's leader: a bot's name, or a function that finds it (a rating fit: only when shown).
Leader: TypeAlias = "str | Callable[[], str | None] | None"


class Progress(Protocol):
    """What a run tells the person watching it."""

    def note(self, text: str) -> None: ...
    def start(self, total: int, done: int) -> None: ...
    def update(self, done: int, total: int, leader: Leader) -> None:
        """``leader`` is a name, or a function that finds it: called only when the display is drawn."""
    def stop(self) -> None: ...


class _Quiet:
    """No progress display (the default of ``run_arena``)."""

    def note(self, text: str) -> None:
        pass

    def start(self, total: int, done: int) -> None:
        pass

    def update(self, done: int, total: int, leader: Leader) -> None:
        pass

    def stop(self) -> None:
        pass


@dataclass
class ArenaRun:
    """What a run produced: the results document, the standings (with times), and how it ended."""

    doc: dict[str, Any]
    standings: list[dict[str, Any]]
    complete: bool
    out_dir: str
    played_now: int
    wall_s: float
    left_out: list[LeftOut] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    games: list[Mapping[str, Any]] = field(default_factory=list)
    """Every game's line of games.jsonl, in game-id order."""


def prepare_bots(arena: Arena, log_dir: str | None, jobs: int, progress: Progress) -> tuple[Arena, list[LeftOut]]:
    """Check required programs and run build steps; the arena without the bots left out.

    Raises ``ArenaFileError`` when too few bots are left for the tables.
    """
    kept, left = check_requires(arena.bots)
    for item in left:
        progress.note(f"left out {item.bot}: {item.reason}")
    if any(e.build for e in kept):
        progress.note(f"building {sum(1 for e in kept if e.build)} bot(s)...")

        def done(entry: BotEntry, failure: LeftOut | None, seconds: float) -> None:
            if failure is None:
                progress.note(f"built {entry.spec.name} ({seconds:.1f} s)")
            else:
                where = f"; log: {failure.log}" if failure.log else ""
                tail = "".join(f"\n    {line}" for line in failure.detail.splitlines())
                progress.note(f"left out {entry.spec.name}: {failure.reason}{where}{tail}")

        kept, failed = run_builds(kept, log_dir, jobs, done)
        left += failed
    if left:
        names = [e.spec.name for e in kept]
        problems = pool_problems(arena, names, [x.bot for x in left])
        if problems:
            raise ArenaFileError(arena.source, problems)
    return arena.with_bots(kept), left


def local_executor(arena: Arena, *, jobs: int, stderr_dir: str | None, records_dir: str | None,
                   pin: bool | None) -> LocalExecutor:
    """The default executor factory: ``jobs`` worker processes on this machine."""
    return LocalExecutor(jobs, stderr_dir=stderr_dir, records_dir=records_dir, pin=pin)


def run_arena(arena: Arena, *, out: str | None = None, jobs: int | None = None, resume: bool = False,
              fresh: bool = False, progress: Progress | None = None, stop_after: int | None = None,
              pin: bool | None = None, kind: str = "arena",
              executor_factory: Callable[..., Any] = local_executor) -> ArenaRun:
    """Play ``arena`` (or finish it, with ``resume``) and write its reports.

    Ctrl-C (``KeyboardInterrupt``) stops the workers and their bots, writes the standings so far and
    returns with ``complete`` false; ``stop_after`` does the same after that many new games (tests).
    ``pin`` pins each worker and its bots to a CPU (default: when there are more CPUs than workers).
    ``executor_factory(arena, jobs=, stderr_dir=, records_dir=, pin=)`` makes the executor (a cluster's, say).
    """
    progress = progress or _Quiet()
    started = time.monotonic()
    out_dir = os.path.abspath(out or arena.out)
    workers = jobs or arena.jobs or default_jobs()
    store = GameStore(out_dir)
    store.prepare(resume=resume, fresh=fresh)
    log_dir = os.path.join(out_dir, "logs")
    os.makedirs(log_dir, exist_ok=True)  # bots' stderr logs, build logs
    records_dir = os.path.join(out_dir, "records") if arena.records else None
    if records_dir:
        os.makedirs(records_dir, exist_ok=True)
    arena, left = prepare_bots(arena, log_dir, workers, progress)
    names = [e.spec.name for e in arena.bots]
    specs = {e.spec.name: e.spec for e in arena.bots}
    finished = store.start(arena.to_json())
    # A match numbers its games g0001, g0002, ... as it always has (bots may seed from the id).
    planner = Planner(arena, names, _order(arena.rank_by), id_digits=4 if kind == "match" else 6)
    if finished:
        progress.note(f"resuming: {len(finished)} of {planner.total} games already played")
    executor: Any = None
    t0 = time.monotonic()
    phases = {"builds_s": t0 - started}
    played_now = 0
    complete = False
    tally = _Tally(planner, finished)
    restore: Callable[[], None] | None = None
    progress.start(planner.total, len(finished))
    try:
        current: Round | None = planner.first()
        planned_ids: set[str] = set()
        while current is not None:
            planned_ids.update(p.game_id for p in current.games)
            todo = [p for p in current.games if p.game_id not in finished]
            if todo:
                if executor is None:
                    executor = executor_factory(arena, jobs=workers, stderr_dir=log_dir, pin=pin,
                                                records_dir=records_dir)
                    executor.start()
                    warm_up()  # after the workers are forked: no thread may hold an import lock at a fork
                planned = {p.game_id: p for p in todo}
                jobs_ = [job_for(arena, p, specs, current.stage) for p in todo]
                for game_id, result in executor.run(jobs_):
                    p = planned[game_id]
                    line = game_line(result, {"stage": p.stage, "round": p.round, "table": p.table, "deal": p.deal})
                    store.append(line)
                    finished[game_id] = line
                    played_now += 1
                    progress.update(len(finished), planner.total, tally.leader)
                    if stop_after is not None and played_now >= stop_after:
                        raise KeyboardInterrupt
            # Only the games planned so far: when resuming, later rounds' games are already in the file,
            # and the next round must be planned exactly as it was without them.
            current = planner.next(current, _sorted({k: v for k, v in finished.items() if k in planned_ids}))
        complete = True
        phases["games_s"] = time.monotonic() - t0
        # The last round's places are known only now: show the leader the final order will have.
        progress.update(len(finished), planner.total, tally.leader(force=True))
    except KeyboardInterrupt:
        restore = _ignore_interrupts()  # a second Ctrl-C must not cut the clean-up short
        progress.stop()
        progress.note(f"interrupted: stopping the workers and their bots ({len(finished)} of {planner.total} games "
                      "played; --resume finishes the arena)")
        if executor is not None:
            executor.close(kill=True)
    finally:
        store.close()
        if executor is not None:
            # Shutting down (a cluster's client, workers quitting their bots) must not be cut short by a
            # Ctrl-C that comes as the last game ends; everything played is already stored.
            shield = _ignore_interrupts() if restore is None else None
            try:
                executor.close(kill=not complete)
            finally:
                if shield is not None:
                    shield()
        progress.stop()
    wall = time.monotonic() - t0
    phases["shutdown_s"] = wall - phases.get("games_s", wall)  # the workers quitting their bots
    try:
        games = _sorted(finished)
        order = planner.final_order(games) if complete else None
        t1 = time.monotonic()
        standings = _standings(arena, games, names, order)
        phases["ratings_s"] = time.monotonic() - t1
        if complete and not planner.all_reached_end():
            for row in standings:
                row["reached"] = planner.reached_label.get(row["bot"], "")
        # The rounds reached come before the rating in the order, so only bots level on them can tie.
        with_rank_ranges(standings, planner.reached if complete else None)
        doc = results_doc(arena, games, standings, planner, left, complete, kind)
        times = timing(standings, games, wall_s=wall, played_now=played_now, jobs=workers)
        # Where the time went, for finding what does not scale with --jobs (the games phase does).
        times["phases"] = {k: round(v, 3) for k, v in phases.items()}
        paths = write_reports(out_dir, doc, standings, times,
                              title=f"Arena {arena.name}" if kind == "arena" else f"Match: {arena.stages[0].ruleset}")
    finally:
        if restore is not None:  # after an interrupt, Ctrl-C waits until the standings so far are written
            restore()
    return ArenaRun(doc, standings, complete, out_dir, played_now, wall, left, paths, list(games))


def results_doc(arena: Arena, games: Sequence[Mapping[str, Any]], standings: list[dict[str, Any]],
                planner: Planner, left: Sequence[LeftOut], complete: bool, kind: str = "arena") -> dict[str, Any]:
    """results.json for an arena (documented in docs/arena.md; nothing in it varies between runs)."""
    names = [r["bot"] for r in standings]
    stages = []
    for i, stage in enumerate(arena.stages):
        item = stage.to_json()
        item["rounds"] = planner.stage_rounds.get(i, [])
        stages.append(item)
    return {
        "format": RESULTS_FORMAT, "version": RESULTS_VERSION, "kind": kind, "name": arena.name,
        "complete": complete, "seed": arena.seed, "games": len(games), "games_planned": planner.total,
        "policy": arena.policy, "rank_by": arena.rank_by, "stages": stages,
        "bots": [e.spec.to_json() for e in arena.bots],
        "sandbox_levels": sandbox_levels(games),
        "left_out": [{"bot": x.bot, "reason": x.reason} for x in left],
        "order": order_info(standings, stages, arena.rank_by, complete=complete),
        "rating": rating_info(arena.bootstrap, arena.seed),
        "standings": results_rows(standings),
        "head_to_head": head_to_head(games, names),
    }


def _standings(arena: Arena, games: Sequence[Mapping[str, Any]], names: list[str],
               order: Sequence[str] | None) -> list[dict[str, Any]]:
    ratings = fit_ratings(games, names, bootstrap=arena.bootstrap, seed=arena.seed)
    if order is None:
        order = rank_order(compute_standings(games, names, ratings=ratings), arena.rank_by)
    return compute_standings(games, names, ratings=ratings, order=order)


def _order(rank_by: str) -> Callable[[Sequence[Mapping[str, Any]], Sequence[str]], list[str]]:
    def order(games: Sequence[Mapping[str, Any]], names: Sequence[str]) -> list[str]:
        ratings = fit_ratings(games, names) if rank_by == "rating" else None
        return rank_order(compute_standings(games, list(names), ratings=ratings), rank_by)
    return order


def _ignore_interrupts() -> Callable[[], None] | None:
    """Ignore Ctrl-C; a function that puts the previous handler back (None off the main thread)."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread
        return None

    def restore() -> None:
        signal.signal(signal.SIGINT, previous)
    return restore


def _sorted(finished: Mapping[str, Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [finished[k] for k in sorted(finished)]


class _Tally:
    """The progress line's leader, by the rule of the final order (``Planner.final_order``: the rounds
    reached, then the rating or average place), refitted at most every few seconds as games end."""

    #: A refit may take at most this share of the time between refits (the fit grows with the games).
    DUTY = 0.1
    MIN_EVERY_S = 1.0

    def __init__(self, planner: Planner, finished: Mapping[str, Mapping[str, Any]]) -> None:
        self.planner = planner
        self.finished = finished
        self.every = self.MIN_EVERY_S
        self.next_at = 0.0
        self.current: str | None = None

    def leader(self, force: bool = False) -> str | None:
        """The bot first by the final order's rule on the games so far (refitted when due, or ``force``)."""
        now = time.monotonic()
        if self.finished and (force or now >= self.next_at):
            order = self.planner.final_order(_sorted(self.finished))
            spent = time.monotonic() - now
            self.every = max(self.MIN_EVERY_S, spent / self.DUTY)
            self.next_at = now + self.every
            self.current = order[0] if order else None
        return self.current


def sandbox_levels(games: Sequence[Mapping[str, Any]]) -> dict[str, list[str]]:
    """Each process bot's sandbox levels as its games actually ran (one, unless the machine changed)."""
    seen: dict[str, set[str]] = {}
    for g in games:
        for name, level in zip(g["seating"], g.get("sandbox") or ()):
            if level is not None:
                seen.setdefault(name, set()).add(level)
    return {name: sorted(levels) for name, levels in sorted(seen.items())}
