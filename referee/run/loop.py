"""The one run loop of ``arena``, ``match``, the ladder and ``compare``: jobs in, results out, Ctrl-C a clean stop.

They differ only in what they schedule and when they stop (a planner's rounds, a ladder's budget, an
SPRT's verdict); the executor's start and shutdown, what an interrupt does, and stopping for a bot that
cannot start (a ``StartupWatch``, given by ``match`` and ``compare``) live here once.
"""

from __future__ import annotations

import signal
from dataclasses import replace
from typing import Callable, Iterable, Mapping, Sequence

from referee.run.executor import Executor, stop_signals_blocked
from referee.run.jobs import GameJob
from referee.run.startups import CannotStart, StartupWatch
from referee.store.results import GameResult

#: ``on_result(job, result)``: True to stop (the games still in play are abandoned).
OnResult = Callable[[GameJob, GameResult], "bool | None"]
#: Asked of each game as it is handed to the executor (game, seed, ruleset, options, seating): a file to follow it
#: in, as it is played, or None (``live.LiveState.follow_next``: the live page's "now playing").
Pick = Callable[[str, int, str, Mapping[str, object], Sequence[str]], "str | None"]


def following(pick: Pick) -> Callable[[GameJob], GameJob]:
    """The ``RunLoop`` hook that marks the game ``pick`` chooses to follow (``GameJob.follow``)."""
    def follow(job: GameJob) -> GameJob:
        path = pick(job.game_id, job.seed, job.rules.house, job.rules.options, [s.name for s in job.seats])
        return job if path is None else replace(job, follow=path)
    return follow


class RunLoop:
    """Plays jobs on one executor, made and started at the first job and closed once.

    Ctrl-C (``KeyboardInterrupt``) while playing kills the executor and its bots at once; from then on
    further Ctrl-Cs are ignored until ``release`` (after the caller has written what was played), so
    the standings so far are never cut short. Use it as a context manager: leaving it closes the
    executor (politely unless interrupted or failing) and releases Ctrl-C.
    """

    def __init__(self, make: Callable[[], Executor], on_start: Callable[[], None] | None = None,
                 watch: StartupWatch | None = None, follow: Callable[[GameJob], GameJob] | None = None) -> None:
        self._make = make
        self._on_start = on_start
        self.watch = watch
        self.follow = follow
        """Given each job as it goes to the executor; it may mark it to be followed as it is played (``following``)."""
        self.cannot_start: CannotStart | None = None
        """Set when ``watch`` found a bot that cannot start: ``play_jobs`` stopped (and plays nothing more)."""
        self.executor: Executor | None = None
        self.interrupted = False
        self.played = 0
        self._restore: Callable[[], None] | None = None

    def play_jobs(self, jobs: Iterable[GameJob | None], on_result: OnResult, *, lead: int | None = None) -> bool:
        """Play ``jobs`` (read lazily), calling ``on_result`` as each game ends; False if Ctrl-C stopped it
        (nothing more is played then), True when every job was played or ``on_result`` asked to stop.
        ``lead``: read no job that many ahead of the earliest unfinished game; a None among ``jobs``: none is
        ready yet (``Executor.run``)."""
        if self.interrupted:
            return False
        if self.cannot_start is not None:
            return True
        given: dict[str, GameJob] = {}

        def tracked() -> Iterable[GameJob | None]:
            follow = self.follow
            for job in jobs:
                if job is not None:
                    if follow is not None:
                        job = follow(job)
                    given[job.game_id] = job
                yield job

        try:
            executor = self._started()
            for game_id, result in executor.run(tracked(), lead=lead):
                self.played += 1
                # A Ctrl-C waits until this game is wholly recorded: stored, counted and in the placement log
                # (cut half-way, the standings written next would read a game with an id and no places).
                with stop_signals_blocked():
                    stop = on_result(given.pop(game_id), result)
                    if self.watch is not None:
                        self.cannot_start = self.watch.see(result)
                if stop or self.cannot_start is not None:
                    self._abandon()
                    return True
        except KeyboardInterrupt:
            self._restore = _ignore_interrupts()  # a second Ctrl-C must not cut the clean-up short
            self.interrupted = True
            if self.executor is not None:
                self.executor.close(kill=True)
            return False
        return True

    def _started(self) -> Executor:
        if self.executor is None:
            self.executor = self._make()
            self.executor.start()
            if self._on_start is not None:
                self._on_start()
        return self.executor

    def _abandon(self) -> None:
        """Stop the games still in play (their results are not wanted); a later ``play_jobs`` starts afresh."""
        if self.executor is not None:
            self.executor.close(kill=True)
            self.executor = None

    def wind_down(self) -> None:
        """Let the executor's workers quit their bots now, without waiting for them (``close`` waits): the
        final fit and reports are made meanwhile. Nothing more can be played. Only for an executor that
        can (``stop_soon``); the others stop at ``close``."""
        stop = getattr(self.executor, "stop_soon", None)
        if stop is not None and not self.interrupted:
            stop()

    def close(self, kill: bool = False) -> None:
        """Stop the executor: its workers quit their bots (or, interrupted or ``kill``, are killed).

        Shutting down (a cluster's client, workers quitting their bots) is shielded from a Ctrl-C that
        comes as the last game ends: everything played is already stored.
        """
        if self.executor is None:
            return
        executor, self.executor = self.executor, None
        shield = _ignore_interrupts() if self._restore is None else None
        try:
            executor.close(kill=kill or self.interrupted)
        finally:
            if shield is not None:
                shield()

    def release(self) -> None:
        """After an interrupt, Ctrl-C works again (call it once the results so far are written)."""
        if self._restore is not None:
            restore, self._restore = self._restore, None
            restore()

    def __enter__(self) -> RunLoop:
        return self

    def __exit__(self, exc_type: object, *rest: object) -> None:
        try:
            self.close(kill=exc_type is not None)
        finally:
            self.release()


def _ignore_interrupts() -> Callable[[], None] | None:
    """Ignore Ctrl-C and SIGTERM (which the command line turns into Ctrl-C); a function that puts the previous
    handlers back (None off the main thread)."""
    try:
        previous = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGTERM)}
    except ValueError:  # not the main thread
        return None

    def restore() -> None:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return restore
