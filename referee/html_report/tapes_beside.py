"""The page's tapes made beside the games: a process replays each game as it is stored, so that writing
report.html after the games has little left to do.

Replaying the games for the viewer is most of a page's time (the sample arena: 0.35 of 0.40 s, all of it after
the last game). An arena that leaves a core free (one worker on two cores) makes them on that core while it plays:
the run hands each game's line, as stored, to ``TapesBeside``; a forked process replays it (``rows.game_tape``)
and appends the tape to ``OUT/.tapes.jsonl``, keyed by the line's digest. ``made_tapes`` reads them back for the
page, which uses a tape only where its line is byte for byte the one replayed (a game played again after a
restart, or a file edited since, is replayed afresh) and replays the games no tape was made for. The page is the
same either way.

The process takes only CPU time nothing else wants (``SCHED_IDLE``): it never slows the games, or the run handing
them out. The parent never waits on it while the games run (lines it cannot take yet wait in a buffer here), and
does not wait for it to catch up at their end: it is stopped, and the page replays what it did not make, as many at
once as there were workers.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import time
from typing import Sequence

import orjson

from referee.html_report.rows import TAPED_FAULTED, TAPED_GAMES, Tape, game_tape, tape_fields, tape_of
from referee.run.orphans import fork_call, term_when_orphaned
from referee.store.jsonl import line_digest
from referee.store.results_dir import ResultsDir
from referee.store.tape_file import TapeWriter, read_tapes, remove_tapes

#: Seconds ``close`` waits for the process to finish the game it is replaying (a few milliseconds), before it is
#: ended (the page replays the rest itself).
CLOSE_WAIT_S = 5.0
#: The lines that are not a game's (a game's is a JSON object): the games start over (a restart without a bot,
#: forget the tapes so far); the games are over. An end is said, not left to the pipe's end of file: workers
#: forked after the process (on a restart) hold the pipe's other end too.
_RESTART = b"\n"
_END = b"end\n"


class TapesBeside:
    """The tape maker of one run: ``start``, ``add`` each stored game, ``restart``, ``close`` (which waits)."""

    def __init__(self, out_dir: str, first: int = TAPED_GAMES, faulted: int = TAPED_FAULTED) -> None:
        self.out_dir = out_dir
        self.first = first
        self.faulted = faulted
        self._sent = self._sent_faulted = 0
        self._pid: int | None = None
        self._fd: int | None = None
        self._waiting = bytearray()  # lines the pipe could not take yet (it is never waited on during the games)

    def start(self, cpus: Sequence[int] = ()) -> bool:
        """Fork the process (once; where there is no fork, none: the page replays every game), on ``cpus`` if any
        (those no worker is pinned to: even idle time on a worker's CPU would cost its games a cache). Whether it
        runs."""
        if self._pid is not None:
            return True
        if not hasattr(os, "fork"):
            return False
        read, write = os.pipe()
        pid = fork_call(lambda: _make_tapes(read, self.out_dir, cpus))
        os.close(read)
        os.set_blocking(write, False)
        self._pid, self._fd = pid, write
        return True

    def add(self, encoded: bytes, faulted: bool) -> None:
        """A game as stored (its games.jsonl line): replayed if among the first ``first`` or, past them, the first
        ``faulted`` with faults (the games a page replays, where they finish in id order)."""
        if self._fd is None:
            return
        if self._sent < self.first:
            self._sent += 1
        elif faulted and self._sent_faulted < self.faulted:
            self._sent_faulted += 1
        else:
            return
        self._waiting += encoded
        self._send()

    def restart(self) -> None:
        """The games start over (the same folder, another pool): the tapes so far are forgotten."""
        if self._fd is None:
            return
        self._sent = self._sent_faulted = 0
        self._waiting += _RESTART
        self._send()

    def close(self, wait: float = CLOSE_WAIT_S) -> None:
        """The games are over: the process stops after the game it is replaying (the page replays those it did not
        get to), and is waited for (ended after ``wait`` seconds)."""
        fd, pid = self._fd, self._pid
        if fd is None or pid is None:
            return
        self._waiting = bytearray(_END)  # what it was not sent is the page's to replay
        self._send()
        self._fd = None
        os.close(fd)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGUSR1)  # past the lines the pipe still holds: the end
        if not _ended_within(pid, wait):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        self._pid = None

    def _send(self) -> None:
        assert self._fd is not None
        try:
            sent = os.write(self._fd, self._waiting)
        except BlockingIOError:
            return
        except OSError:  # the process is gone: nothing more is sent
            self._waiting.clear()
            return
        del self._waiting[:sent]


def _ended_within(pid: int, wait: float) -> bool:
    """Whether child ``pid`` ended within ``wait`` seconds (reaped if so): woken by its end where Linux can say
    (a pidfd), else looked at every few milliseconds."""
    deadline = time.monotonic() + wait
    if hasattr(os, "pidfd_open"):
        with contextlib.suppress(OSError):
            fd = os.pidfd_open(pid)
            try:
                select.select([fd], [], [], wait)
            finally:
                os.close(fd)
    while os.waitpid(pid, os.WNOHANG) == (0, 0):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.002)
    return True


class _Stopped:
    """Set by SIGUSR1: the games are over, the lines still in the pipe are left to the page."""

    now = False

    @classmethod
    def stop(cls, signum: int, frame: object) -> None:
        cls.now = True


def _make_tapes(read: int, out_dir: str, cpus: Sequence[int] = ()) -> None:
    """The process: each line read is replayed and its tape appended to ``OUT/.tapes.jsonl``, until told the games
    are over (or the run is gone)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the run's to handle: it says the end
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGUSR1, _Stopped.stop)
    term_when_orphaned()
    _idle_only(cpus)
    os.closerange(3, read)  # nothing of the run's but its end of the pipe: no worker's pipe, no socket, no file
    os.closerange(read + 1, os.sysconf("SC_OPEN_MAX"))
    with os.fdopen(read, "rb") as lines, TapeWriter(ResultsDir(out_dir).tapes) as out:
        for raw in lines:
            if raw == _END or _Stopped.now:
                return
            if raw == _RESTART:
                out.clear()
                continue
            try:
                line = orjson.loads(raw)
            except orjson.JSONDecodeError:
                continue
            out.write([line.get("game"), line_digest(line), *tape_fields(game_tape(out_dir, line))])


def _idle_only(cpus: Sequence[int]) -> None:
    """Run only on CPU time nothing else wants (Linux's ``SCHED_IDLE``; elsewhere the lowest niceness), on ``cpus``
    (none: any)."""
    if cpus and hasattr(os, "sched_setaffinity"):
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, set(cpus))
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        with contextlib.suppress(OSError):
            os.nice(19)


def made_tapes(out_dir: str) -> dict[str, tuple[str, Tape]]:
    """The tapes made beside the games: game id -> (its line's digest, its tape). None made: empty."""
    made: dict[str, tuple[str, Tape]] = {}
    for items in read_tapes(ResultsDir(out_dir).tapes):
        with contextlib.suppress(ValueError, TypeError):  # not a tape's line
            game, key, *fields = items
            made[str(game)] = (str(key), tape_of(fields))
    return made


def forget_tapes(out_dir: str) -> None:
    """Remove the tapes made beside the games (the page that used them is written)."""
    remove_tapes(ResultsDir(out_dir).tapes)
