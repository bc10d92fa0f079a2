"""Running game jobs: a local pool of worker processes, each keeping its bot processes alive between games.

Jobs travel as plain data (``GameJob.to_json()``), so any other executor (a cluster queue, say) can
run the same schedule. Results come back as each game finishes. Stopping (Ctrl-C) terminates the
workers; a terminated worker kills its bot processes before it exits.

Games between built-in players only (nothing in them can fault, hang or kill a process) travel in
batches, one message each way for up to ``BATCH`` games: a game takes about 400 us, and a message
with its pickling about a fifth of that. With one worker they are played in this process instead,
with no message at all. A game with a bot process in it travels alone until its kind have been seen to
be quick and faultless: then as many as take about ``PROCESS_BATCH_MS`` travel together (a few
milliseconds a game with a C bot, where the message, its pickling and waking the referee cost a game
about 0.3 ms; a slow bot's games, or any after a fault, still travel alone).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
from contextlib import contextmanager
from multiprocessing.connection import Connection, wait
from typing import Any, Iterable, Iterator, Protocol, Sequence

from referee.bots.entry import BotEntry
from referee.bots.pipes.transport import describe_exit
from referee.bots.pool import BotPool
from referee.errors import RUN_FAILED, LastcardError
from referee.protocol.faults import Fault, FaultKind
from referee.run.jobs import GameJob, run_job
from referee.run.lead import Lead
from referee.run.orphans import term_when_orphaned
from referee.run.workers import usable_cpus
from referee.store.record_file import append_record, append_records, encode_record
from referee.store.results import GameResult, SeatTimes

#: Jobs handed to a worker ahead of the one it plays, so it never waits for the next.
DEPTH = 2
#: Bot processes a worker keeps alive between games; the least recently used beyond this are quit.
IDLE_BOTS = 48
#: Built-in-only games per message to a worker (about 15 ms of play: small against a run, large
#: against the message's own cost).
BATCH = 32
#: Games with a bot process per message, once they are seen to be quick: about this many milliseconds of play.
PROCESS_BATCH_MS = 15.0
#: How soon jobs are read again when none was ready (they wait for a build) and no game is in play.
STALLED_S = 0.05
#: The end of the caller's jobs (a None among them says only "none ready yet").
_END: Any = object()


class ExecutorError(LastcardError):
    """The referee itself failed on a game (a bug, not a bot fault) or a worker died."""

    exit_code = RUN_FAILED

    def cli_message(self) -> str:
        return f"{self}\nthe games finished so far are saved; --resume continues"


class RunContest(Protocol):
    """What an executor may need of the contest it plays (an arena, a comparison): its bots, whose folders a
    cluster ships to its workers, and the folder their paths are relative to."""

    @property
    def bots(self) -> tuple[BotEntry, ...]: ...

    @property
    def base_dir(self) -> str: ...


def unpinned_cpus(executor: Executor) -> list[int]:
    """The CPUs none of ``executor``'s workers is pinned to (none: its workers are not pinned, or not here)."""
    pinned = {cpu for cpu in executor.cpus if cpu is not None} if isinstance(executor, LocalExecutor) else set()
    return [cpu for cpu in usable_cpus() if cpu not in pinned] if pinned else []


def local_executor(arena: RunContest, *, jobs: int, stderr_dir: str | None, records_dir: str | None,
                   pin: bool | None) -> LocalExecutor:
    """The default executor factory: ``jobs`` worker processes on this machine."""
    return LocalExecutor(jobs, stderr_dir=stderr_dir, records_dir=records_dir, pin=pin)


class Executor(Protocol):
    """Plays game jobs somewhere (worker processes here, a Dask cluster) and hands back their results."""

    def start(self) -> None:
        """Get ready to play (``run`` does it when needed)."""

    def run(self, jobs: Iterable[GameJob | None], *, lead: int | None = None) -> Iterator[tuple[str, GameResult]]:
        """Play ``jobs`` (read lazily); yield each game's id and result as it finishes, each game once.

        With ``lead``, no job is read while ``lead`` jobs have been read since the earliest game not yet
        finished (``Lead``): a caller that counts games in planned order holds at most that many. A None among
        the jobs says none is ready yet (the rest wait for a build): they are read again soon, and as games end.
        Only ``LocalExecutor`` is given those (an arena building its bots beside its games)."""

    def close(self, kill: bool = False) -> None:
        """Stop: politely (quit the bots), or with ``kill`` at once."""


class ExecutorFactory(Protocol):
    """Makes the executor of a run (``local_executor``, or a cluster's ``cluster_factory``)."""

    def __call__(self, arena: RunContest, *, jobs: int, stderr_dir: str | None, records_dir: str | None,
                 pin: bool | None) -> Executor: ...


class LocalExecutor:
    """``jobs`` worker processes; ``run`` yields ``(game_id, result)`` as games finish."""

    def __init__(self, jobs: int, *, stderr_dir: str | None = None, records_dir: str | None = None,
                 idle_bots: int = IDLE_BOTS, pin: bool | None = None) -> None:
        self.jobs = max(1, jobs)  # decided by the caller (run.workers.Workers)
        cpus = usable_cpus()
        # Pinning a worker (its bots inherit it) to one CPU makes each move's hand-over between referee
        # and bot a same-CPU switch instead of a wake-up of an idle CPU, which costs more than the move
        # itself on many virtual machines (measured: C bots 2.3x faster with one job). It pays with as
        # many workers as CPUs too, each worker and its bots on a CPU of their own (the sample arena on 2
        # cores: 1.25x the games/s of unpinned workers, see bench/README.md); not with more workers than CPUs.
        if pin is None:
            pin = self.jobs <= len(cpus) and hasattr(os, "sched_setaffinity")
        self.cpus: list[int | None] = [cpus[w % len(cpus)] if pin else None for w in range(self.jobs)]
        self.stderr_dir = stderr_dir
        self.records_dir = records_dir
        self.idle_bots = idle_bots
        methods = multiprocessing.get_all_start_methods()
        self._ctx: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self._workers: list[tuple[Any, Connection]] = []
        self._pool: BotPool | None = None  # for the built-in games played here (no process in it)
        self._closed = False
        self._told = False  # the workers were told to quit (``stop_soon``)

    def start(self) -> None:
        """Fork the workers now (``run`` does it when needed)."""
        if self._workers or self._closed:
            return
        for wid in range(self.jobs):
            with stop_signals_blocked():  # a Ctrl-C now comes once the worker is listed, to be stopped with the rest
                self._workers.append(self._spawn(wid))

    def _spawn(self, wid: int) -> tuple[Any, Connection]:
        mine, theirs = self._ctx.Pipe()
        proc = self._ctx.Process(target=_worker_main, name=f"lastcard-worker-{wid + 1}", daemon=True,
                                 args=(theirs, self.stderr_dir, self.records_dir, os.getpid(), self.idle_bots,
                                       self.cpus[wid]))
        with stop_signals_blocked():  # the worker starts with them blocked, until its own handlers are set
            proc.start()
        theirs.close()  # only the worker holds its end: its death reads as end-of-file here
        return proc, mine

    def run(self, jobs: Iterable[GameJob | None], *, lead: int | None = None) -> Iterator[tuple[str, GameResult]]:
        """Play ``jobs`` on the workers; yield each game's id and result as it finishes (a None in ``jobs``: none is
        ready yet, see ``Executor.run``).

        ``jobs`` is read lazily, a few ahead of the workers (and with ``lead``, never more than that ahead of
        the earliest unfinished game): a plan of any length is never held whole. A
        worker that dies (a bot that killed it, the kernel's OOM killer) is replaced; its games in flight
        are played again once on the new worker, and a game that kills its worker twice is recorded as
        lost to that cause (``lost_game``). A batch whose worker died is played again game by game, so
        that a second death is traced to one game.
        """
        if self._closed or self._told:
            raise RuntimeError("the executor is closed")
        self.start()
        yield from _Dispatch(self, jobs, lead).play()

    def _play_here(self, jobs: list[GameJob]) -> Iterator[tuple[str, GameResult]]:
        """Play built-in-only games in this process, as a worker would: the batch's records are written in
        one go, before any of its results is handed on (a result stored is a record kept, for --resume)."""
        if self._pool is None:
            self._pool = BotPool()
        done, failed = _play_batch(jobs, self._pool, self.records_dir)
        yield from done
        if failed is not None:
            raise _failure(*failed)

    def stop_soon(self) -> None:
        """Tell the workers to quit their bots and exit, without waiting for them (``close`` waits): the
        caller can do its own work meanwhile. Nothing more can be played."""
        if self._closed or self._told:
            return
        self._told = True
        for _, conn in self._workers:
            try:
                conn.send(None)
            except (OSError, ValueError):
                pass

    def close(self, kill: bool = False) -> None:
        """Stop the workers: politely (finish nothing new, quit the bots) or, with ``kill``, at once."""
        if self._closed:
            return
        if not kill:
            self.stop_soon()
        self._closed = True
        if self._pool is not None:  # built-in players only: nothing to quit, but keep the pool's promise
            self._pool.close()
        for proc, _conn in self._workers:
            if kill and proc.is_alive():
                proc.terminate()  # SIGTERM: the worker kills its bots, then exits
        deadline = time.monotonic() + (5.0 if kill else 30.0)
        for proc, conn in self._workers:
            proc.join(max(0.0, deadline - time.monotonic()))
            if proc.is_alive():
                proc.kill()
                proc.join(5.0)
            conn.close()
        self._workers.clear()

    def __enter__(self) -> LocalExecutor:
        return self

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self.close(kill=exc_type is not None)


class _Dispatch:
    """One ``LocalExecutor.run``: the queues between the caller's jobs and the workers, and the steps that move
    games along them (read, batch, send, receive, replace a dead worker)."""

    def __init__(self, executor: LocalExecutor, jobs: Iterable[GameJob | None], lead: int | None) -> None:
        self.executor = executor
        self.upcoming = iter(jobs)
        self.stalled = False  # the caller had no job ready when last read (a None): read again soon
        self.again: list[GameJob] = []  # games of a dead worker, to play first (last in, first out)
        self.held: list[GameJob] = []  # a job read ahead that did not fit the batch being made
        self.alone: set[str] = set()  # games of a batch whose worker died: from now on each travels alone
        self.in_flight: dict[str, GameJob] = {}
        self.outstanding: dict[int, list[list[str]]] = {w: [] for w in range(len(executor._workers))}
        self.died_in: dict[str, str] = {}  # game -> how its first worker died
        self.here: list[GameJob] = []  # built-in games this process plays itself (one worker)
        self.quick_ms: float | None = None  # a bot process's game's wall time lately; None: not yet, or a fault
        self.ahead = Lead(lead) if lead is not None else None
        # One worker: built-in games are played here, process bots' games go to the worker.
        self.inline = len(executor._workers) == 1

    @property
    def workers(self) -> list[tuple[Any, Connection]]:
        return self.executor._workers

    def play(self) -> Iterator[tuple[str, GameResult]]:
        """Every game's id and result, as each finishes."""
        self.feed_all()
        if self.inline:
            self.feed_here()
        while self.here or any(self.outstanding.values()) or self.stalled:
            if self.here:
                yield from self.handed(self.executor._play_here(self.here))
                self.here.clear()
                self.feed_all()
                self.feed_here()
            if not self.here and not any(self.outstanding.values()) and not self.stalled:
                break  # all played: waiting on the idle workers would cost a second at the end of every run
            conns: dict[Any, int] = {conn: w for w, (_, conn) in enumerate(self.workers)}
            ready: list[Any] = wait(list(conns), timeout=0 if self.here else STALLED_S if self.stalled else 1.0)
            for conn in ready:
                yield from self.receive(conns[conn], conn)
            if self.stalled:  # ask again: a build may have ended
                self.feed_all()
                if self.inline:
                    self.feed_here()

    def receive(self, w: int, conn: Any) -> Iterator[tuple[str, GameResult]]:
        """Worker ``w``'s next message: a batch's results, a referee failure, or its death (end of file)."""
        try:
            message = conn.recv()
        except (EOFError, OSError):
            yield from self.handed(self.replace(w))
            self.feed(w)
            return
        if message[0] == "error":
            raise _failure(message[1], message[2])
        self.outstanding[w].pop(0)
        done: list[tuple[str, GameResult]] = message[1]
        for game_id, result in done:
            job = self.in_flight.pop(game_id, None)
            if job is not None and not self.batchable(job):
                self.timed(result)
        if self.ahead is None:  # fed first, so the worker never waits on the caller
            self.feed(w)
        yield from self.handed(done)
        if self.ahead is not None:  # fed once these count as finished: a lead they held up frees every
            self.feed_all()  # worker, idle ones included
        if self.inline:
            self.feed_here()

    def replace(self, w: int) -> list[tuple[str, GameResult]]:
        """Worker ``w`` died: start a fresh one; its games go back in the queue once, then count as lost (the
        results of those given up are returned).

        A batch in play goes back game by game (``alone``): which of its games killed the worker is
        not known, so none is charged for this death.
        """
        proc, conn = self.workers[w]
        proc.join(1.0)
        conn.close()
        cause = f"the worker playing this game died ({describe_exit(proc.exitcode)})"
        with stop_signals_blocked():
            self.workers[w] = self.executor._spawn(w)
        lost, self.outstanding[w] = self.outstanding[w], []
        given_up = []
        # Only the first batch was in play (a worker plays its games in order); the rest were queued.
        for k, batch in reversed(list(enumerate(lost))):  # put back so the first is played first
            if k == 0 and len(batch) > 1:
                self.alone.update(batch)
            for game_id in reversed(batch):
                job = self.in_flight.pop(game_id)
                if k == 0 and len(batch) == 1 and game_id in self.died_in:
                    given_up.append((game_id, lost_game(job, f"{self.died_in[game_id]}, twice")))
                    continue
                if k == 0 and len(batch) == 1:
                    self.died_in[game_id] = cause
                self.again.append(job)
        return given_up

    def next_job(self) -> GameJob | None:
        """The next job to play: a dead worker's first, then one held back, then the caller's (within the lead)."""
        if self.again:
            return self.again.pop()
        if self.held:
            return self.held.pop()
        if self.ahead is not None and not self.ahead.may_read():
            return None  # read again once the earliest game in play has finished
        job = next(self.upcoming, _END)
        self.stalled = job is None
        if job is None or job is _END:
            return None
        if self.ahead is not None:
            self.ahead.read(job.game_id)
        return job

    def handed(self, results: Iterable[tuple[str, GameResult]]) -> Iterator[tuple[str, GameResult]]:
        """``results``, each counted as finished for the lead once the caller has taken it (and, say, counted it)."""
        for played in results:
            yield played
            if self.ahead is not None:
                self.ahead.finished(played[0])

    def batchable(self, job: GameJob) -> bool:
        return job.game_id not in self.alone and all(s.builtin is not None for s in job.seats)

    def timed(self, result: GameResult) -> None:
        """A bot process's game came back: how long such games take lately (a fault: not known until the next)."""
        if result.faults:
            self.quick_ms = None
        elif self.quick_ms is None:
            self.quick_ms = result.wall_ms
        else:
            self.quick_ms += (result.wall_ms - self.quick_ms) / 4

    def process_batch(self) -> int:
        """How many games with a bot process travel together: 1 until they are seen to be quick and faultless."""
        if self.quick_ms is None:
            return 1
        return max(1, min(BATCH, int(PROCESS_BATCH_MS / max(self.quick_ms, 0.01))))

    def next_batch(self) -> list[GameJob]:
        """Up to ``BATCH`` built-in games, or games with a bot process in them (``process_batch`` of them); [] when
        there is none to read."""
        first = self.next_job()
        if first is None:
            return []
        batch = [first]
        if self.batchable(first):
            while len(batch) < BATCH:
                job = self.next_job()
                if job is None:
                    break
                if not self.batchable(job):
                    self.held.append(job)
                    break
                batch.append(job)
        elif first.game_id not in self.alone:
            size = self.process_batch()
            while len(batch) < size:
                job = self.next_job()
                if job is None:
                    break
                if self.batchable(job) or job.game_id in self.alone:
                    self.held.append(job)
                    break
                batch.append(job)
        return batch

    def feed_here(self) -> None:
        """One worker: the next built-in games to play in this process (process bots' games wait, held)."""
        while not self.here and not self.held:
            batch = self.next_batch()
            if not batch:
                return
            if self.batchable(batch[0]):
                self.here.extend(batch)
            else:
                self.held.extend(reversed(batch))

    def feed_all(self) -> None:
        for w in range(len(self.workers)):
            self.feed(w)

    def feed(self, w: int) -> None:
        """Send worker ``w`` batches until it has ``DEPTH`` of them queued."""
        conn = self.workers[w][1]
        while len(self.outstanding[w]) < DEPTH:
            batch = self.next_batch()
            if not batch:
                return
            if self.inline and self.batchable(batch[0]):
                self.here.extend(batch)
                return
            try:
                conn.send([job.to_json() for job in batch])
            except OSError:
                self.again.extend(reversed(batch))
                return  # the worker is dead: its end-of-file comes next and replaces it
            for job in batch:
                self.in_flight[job.game_id] = job
            self.outstanding[w].append([job.game_id for job in batch])


#: The signals that stop a run: blocked while a worker is forked and while a result is recorded
#: (``stop_signals_blocked``).
STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM})


@contextmanager
def stop_signals_blocked() -> Iterator[None]:
    """SIGINT and SIGTERM held back (not lost) while the block runs.

    A forked worker inherits the referee's Python handlers, which turn both into ``KeyboardInterrupt``:
    a signal between the fork and the worker's own handlers would print a traceback from inside
    ``multiprocessing``. Forked with them blocked, the worker sets its handlers and then takes them;
    the referee takes any that came meanwhile when the block ends. The run loop records each result
    under it too, so an interrupt never leaves a game half-counted.

    The mask holds back a signal sent to this thread only: a Ctrl-C the kernel hands to another thread (the
    live page's server, a library's) still runs the main thread's Python handler. So in the main thread the
    handlers are also swapped for ones that note the signal, and it is raised again when the block ends.
    """
    try:
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not POSIX
        yield
        return
    held: list[int] = []
    handlers = _hold_signals(held)
    try:
        yield
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        for sig in held[:1]:  # one is enough: the first stops the run
            signal.raise_signal(sig)


def _hold_signals(held: list[int]) -> dict[int, Any]:
    """In the main thread, handlers that note SIGINT and SIGTERM in ``held``; the ones they replace."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    handlers: dict[int, Any] = {}
    for sig in STOP_SIGNALS:
        current = signal.getsignal(sig)
        if callable(current):  # SIG_IGN stays ignored, SIG_DFL stays the default
            handlers[sig] = signal.signal(sig, lambda number, frame: held.append(number))
    return handlers


class _Terminated(BaseException):
    """SIGTERM in a worker between games (``_play``'s wait for a job): stop now."""


#: The worker's bots, for its SIGTERM handler (None outside a worker, or before its pool exists).
_WORKER_POOL: BotPool | None = None
#: Whether the worker is waiting for a job (in interpreted code, where the handler may raise).
_WAITING = True
#: A SIGTERM came. Raising ``_Terminated`` from the handler is not enough: a handler that runs inside a finalizer
#: (a ``__del__``, a weakref callback, run by the garbage collector in the wait) has its exception printed and
#: dropped, and with SIGTERM then ignored the worker waited for jobs for ever (one stop in some hundreds, in CI).
#: ``_play``'s wait looks at this too, at least once a second.
_STOPPING = False


def _on_term(signum: int, frame: object) -> None:
    """SIGTERM in a worker: kill its bots and exit at once, wherever it is.

    Not by raising into a game: the table and the bot client are compiled with mypyc, and an exception a
    signal handler raised inside an operation mypyc takes for infallible (CPython's long multiplication
    runs handlers) was taken for a failed allocation ("fatal: out of memory", then SIGABRT) instead of
    unwinding. Those operations are gone from a game's path (tests/project/test_compiled_interrupts.py); a stop
    does not rely on it (tests/run/test_worker_stop.py). Between games the worker is in ``_play``'s interpreted
    wait, where ``_Terminated`` unwinds as any exception does.
    """
    # One stop is enough: a second SIGTERM (a terminal's to the group, then the referee's own) must not find
    # this handler again, in the clean-up or once ``_worker_main`` has returned (a traceback from
    # multiprocessing's bootstrap, seen in CI).
    global _STOPPING
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _STOPPING = True
    if _WAITING:
        raise _Terminated()
    try:
        if _WORKER_POOL is not None:
            _WORKER_POOL.kill_all()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError, AttributeError):
                pass
        os._exit(0)  # as a stopped worker always ended: nothing half-written, nobody waits for its results


def _worker_main(conn: Connection, stderr_dir: str | None, records_dir: str | None, parent: int,
                 idle_bots: int, cpu: int | None = None) -> None:
    """A worker: play jobs from ``conn`` with one ``BotPool`` until told to stop or orphaned.

    Stopped at any moment (SIGTERM, the referee gone), it kills its bots and exits without a traceback.
    """
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
        signal.signal(signal.SIGTERM, _on_term)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)  # forked with them blocked: take any now
        term_when_orphaned()
        if os.getppid() != parent:  # the referee died before the line above took effect
            return
        _play(conn, stderr_dir, records_dir, parent, idle_bots, cpu)
    except (_Terminated, KeyboardInterrupt, EOFError, OSError):
        pass  # stopped before or between games: _play killed any bots it had started


def _play(conn: Connection, stderr_dir: str | None, records_dir: str | None, parent: int, idle_bots: int,
          cpu: int | None) -> None:
    """The worker's loop: a job in, its result out, until ``None``, end of file or the referee is gone."""
    global _WORKER_POOL, _WAITING
    try:
        # Its own session, as each bot has: where the kernel shares CPU time out per session
        # (Linux autogroup), N workers then get N shares on a busy machine, not one between them.
        os.setsid()
    except OSError:
        pass
    if cpu is not None:
        try:
            os.sched_setaffinity(0, {cpu})  # the bots this worker starts inherit it
        except OSError:
            pass
    pool = _WORKER_POOL = BotPool(stderr_dir=stderr_dir)
    graceful = True
    try:
        while True:
            _WAITING = True
            if _STOPPING:  # a SIGTERM whose exception was dropped (see ``_STOPPING``)
                raise _Terminated()
            if not conn.poll(1.0):
                if os.getppid() != parent:
                    return  # the referee is gone: nobody wants the results
                continue
            message = conn.recv()
            _WAITING = False  # from here to the next wait a SIGTERM kills the bots and exits (``_on_term``)
            if message is None or os.getppid() != parent:
                return
            read: dict[int, Any] = {}  # the seats read from this message (its jobs share them)
            done, failed = _play_batch([GameJob.from_json(data, read) for data in message], pool, records_dir)
            conn.send(("done", done) if failed is None else ("error", *failed))
            pool.evict_idle(idle_bots)
    except _Terminated:
        graceful = False
    except (EOFError, OSError, KeyboardInterrupt):
        graceful = False
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # do not die half-way through the clean-up
        if graceful:
            pool.close()
        else:
            pool.kill_all()


def _play_batch(jobs: list[GameJob], pool: BotPool, records_dir: str | None
                ) -> tuple[list[tuple[str, GameResult]], tuple[str, str] | None]:
    """Play ``jobs`` in order and write their records kept in one go (``write_records``) at the end.

    The games played and, when the referee failed on one (a bug, not a bot fault), that game's id and
    traceback: the games after it are not played, those before keep their records. A worker that dies
    before the end writes none of the batch's records; the executor plays the whole batch again.
    """
    done: list[tuple[str, GameResult]] = []
    records: list[tuple[str, bytes]] = []
    rebuilt: list[tuple[str, str]] = []  # built-in games: (id, policy), their records rebuilt when read
    failed = None
    for job in jobs:
        try:
            result, lines = run_job(job, pool)
            if records_dir and job.keeps(result):
                if job.rebuilds_record:
                    rebuilt.append((job.game_id, job.policy.to_json()))
                elif lines is not None:
                    records.append((job.game_id, encode_record(lines)))
        except Exception:  # noqa: BLE001 - a referee bug: report it with the game, keep nothing half-done
            failed = job.game_id, traceback.format_exc()
            break
        done.append((job.game_id, result))
    if (records or rebuilt) and records_dir:
        try:
            write_records(records_dir, records, rebuilt)
        except OSError as exc:  # a full disk, say: the run cannot keep what it promised; said as that
            return [], ((records or rebuilt)[0][0], OS_ERROR + json.dumps([exc.errno, exc.strerror, exc.filename]))
        except Exception:  # noqa: BLE001 - a referee bug
            return [], ((records or rebuilt)[0][0], traceback.format_exc())
    return done, failed


#: How a worker's failure to write records (an ``OSError``) starts, to be raised again as one by the executor.
OS_ERROR = "OSError "


def _failure(game_id: str, text: str) -> Exception:
    """The exception for a batch that failed: the ``OSError`` a worker could not write its records for (a full
    disk, a folder made read-only: the command says the path and the cause), else ``ExecutorError``."""
    if text.startswith(OS_ERROR):
        code, cause, path = json.loads(text[len(OS_ERROR):])
        return OSError(code, cause, path) if path is not None else OSError(code, cause)
    return ExecutorError(f"the referee failed on game {game_id}:\n{text}")


def write_record(records_dir: str, game_id: str, lines: list[dict[str, Any]] | None, job: GameJob | None = None
                 ) -> None:
    """Append a game's record to the run's one record file in ``records_dir`` (the output directory): its
    lines, or for ``job`` rebuilding its record (``GameJob.rebuilds_record``) an index entry."""
    if job is not None and job.rebuilds_record:
        append_records(records_dir, [], [(game_id, job.policy.to_json())])
    elif lines is not None:
        append_record(records_dir, game_id, lines)


def write_records(records_dir: str, records: Sequence[tuple[str, bytes]],
                  rebuilt: Sequence[tuple[str, str]] = ()) -> None:
    """Append a batch of encoded records (``encode_record``) to the run's record file, in one member, and the
    index entries of the records rebuilt when read (id, policy)."""
    append_records(records_dir, records, rebuilt)


def lost_game(job: GameJob, cause: str) -> GameResult:
    """The result of a game that could not be played because its worker died, twice.

    Nobody can tell which seat did it, so every process bot is charged a crash and placed last; built-in
    players (which cannot kill anything) keep the places ahead of them.
    """
    names = tuple(s.name for s in job.seats)
    bots = tuple(i for i, s in enumerate(job.seats) if s.builtin is None)
    places = tuple(len(names) - len(bots) + 1 if i in bots else 1 for i in range(len(names)))
    zeros = (0,) * len(names)
    # The same record every played game makes, so the two can never disagree on their keys.
    return GameResult(
        game=job.game_id, seed=job.seed, ruleset=job.rules.house, options=job.rules.options, seating=names,
        placements=places, game_placements=places, reason="lost", winner=None, scores=zeros, hand_points=zeros,
        rounds=0, decisions=0, moves=0, faults=tuple(Fault(FaultKind.CRASH, cause, seat=i, bot=names[i]) for i in bots),
        forfeited=bots, times=SeatTimes.zero(len(names)), wall_ms=0.0, sandbox=(None,) * len(names),
        clock=(None,) * len(names), hidden_names=job.hide_names)
