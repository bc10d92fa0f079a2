"""Moving lines to and from a bot: a real subprocess with pipes, or a scripted fake for tests.

Every read and write has a deadline; a line longer than the limit is refused without reading it all
into memory; the child runs in its own process group so that it, and anything it started, can be
killed at once. Every failure is a ``TransportError``: ``ReadTimeout``, ``WriteTimeout``,
``LineTooLong`` or ``Closed``, which the client turns into a fault.
"""

from __future__ import annotations

import errno
import fcntl
import os
import select
import signal
import subprocess
import sys
import termios
import threading
import time
from collections import deque
from typing import Any, BinaryIO, Callable, Final, Mapping, Protocol, Sequence

import orjson

from referee.bots.cpuclock import CpuMeter, process_meter
from referee.bots.reaper import reaper
from referee.bots.sandbox import Launch, SandboxSettings, prepare

#: How much of a bot's stderr is kept; the rest is counted and dropped.
STDERR_LIMIT = 1 << 20


class TransportError(Exception):
    """Base of every way moving a line to or from a bot can fail; the client turns each into a fault."""


class TransportTimeout(TransportError):
    """A deadline passed (reading or writing)."""


class ReadTimeout(TransportTimeout):
    """No complete line before the deadline."""


class WriteTimeout(TransportTimeout):
    """The bot did not take its input before the deadline (the pipe stayed full); ``written`` bytes went."""

    def __init__(self, written: int) -> None:
        super().__init__(f"the bot is not reading its input ({written} bytes written before the deadline)")
        self.written = written


class LineTooLong(TransportError):
    """A line exceeded the limit; ``head`` is its beginning."""

    def __init__(self, head: bytes) -> None:
        super().__init__(f"line longer than the limit ({len(head)}+ bytes)")
        self.head = head


class Closed(TransportError):
    """The bot closed its output or its input, or exited (it is gone or going)."""


class NoNewline(TransportError):
    """The bot wrote a whole JSON message without its newline and then wrote nothing more: it is waiting
    for an answer to a line the referee cannot see ended. ``head`` is what it wrote."""

    def __init__(self, head: bytes) -> None:
        super().__init__("a message without its newline")
        self.head = head


class Transport(Protocol):
    """A line channel to one bot: everything the client (and the conformance probe) may call."""

    @property
    def alive(self) -> bool:
        """Whether the bot is still running and not closed by the referee."""
    @property
    def pid(self) -> int | None:
        """The bot's process id (``None`` without a process)."""
    def write(self, data: bytes, deadline: float) -> None:
        """Write all of ``data`` before ``deadline``; ``WriteTimeout``/``Closed`` otherwise."""
    def write_some(self, data: bytes) -> int:
        """Write what the channel takes now without waiting; the number of bytes written."""
    def read_line(self, deadline: float) -> bytes:
        """The next line, without its newline; ``ReadTimeout``/``LineTooLong``/``Closed``/``NoNewline`` otherwise."""
    def partial(self) -> bytes:
        """What the bot has written after its last newline (read, not yet a line)."""
    def pending(self) -> bool:
        """Whether the bot has written anything not yet returned as a line (its output may also have ended)."""
    def exit_description(self, wait: float = 0.5) -> str:
        """How the process ended (``exit code 3``), waiting up to ``wait`` seconds for it to end."""
    def close(self, grace: float = 2.0) -> int | None:
        """Close its input, wait up to ``grace`` seconds, then kill it and all it started; its exit code."""


def describe_exit(code: int | None) -> str:
    """``exit code 3`` / ``killed by signal SIGSEGV`` / ``still running``."""
    if code is None:
        return "still running"
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


#: How a game's part of a stderr log starts: ``--- game g000012 (seat 2) ---`` before the bot's first turn, then
#: ``--- game g000012 (seat 2) turn 37 ---`` before what it wrote from its request at turn 37 on (reports split logs
#: on it; the turn is the game's action index, as the replay viewer and ``lastcard replay`` number turns).
STDERR_MARK = "--- game "
#: What a bot wrote on stderr since the referee last took it for the bot's notes: past this it is counted, not kept.
FRESH_LIMIT: Final = 1 << 16


class StderrSink:
    """Keeps the first ``STDERR_LIMIT`` bytes of a bot's stderr in a file, counting the rest, and what it wrote
    since the referee last ``collect``-ed it (for the notes kept at each turn).

    With a ``label`` (the game and seat, set as each game starts) and a ``turn`` (set as each request goes out),
    what the bot writes is preceded by a ``--- game ID (seat N) turn T ---`` line whenever the game or the turn
    changed or another process (the same bot in another worker shares the log) wrote to the file since: every
    part of the log says its game and turn.
    """

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.kept = 0
        self.dropped = 0
        self.label: str | None = None
        self.turn: int | None = None
        self._marked: tuple[str, int | None] | None = None
        self._end = -1
        self._fd = -1
        self._cond = threading.Condition()
        self._busy = False  # the pump has taken bytes out of the pipe and not yet into ``_fresh``
        self._ended = True  # no pump running (set false as it starts)
        self._fresh = bytearray()
        self._fresh_dropped = 0
        self.stalled = False
        """The last ``collect`` gave up waiting: the bot was still writing (a flood never ends)."""

    def pump(self, fd: int) -> None:
        """Read the bot's stderr until its end (the pump's own thread)."""
        out = open(self.path, "ab") if self.path else None
        waiter = select.poll()
        waiter.register(fd, select.POLLIN)
        self.watch(fd)
        try:
            while True:
                waiter.poll()  # until bytes are there (or the end): ``collect`` sees them still in the pipe
                with self._cond:
                    self._busy = True  # before the read: from here ``collect`` waits for them
                    label, turn = self.label, self.turn
                chunk = os.read(fd, 65536)
                if chunk and out is not None:
                    self._write(out, chunk, label, turn)
                with self._cond:
                    self._keep(chunk)
                    self._busy = False
                    self._cond.notify_all()
                if not chunk:
                    break
            if out is not None and self.dropped:
                out.write(f"\n[lastcard: {self.dropped} more bytes of stderr dropped]\n".encode())
        except (OSError, ValueError):
            pass
        finally:
            with self._cond:
                self._ended, self._busy = True, False
                self._cond.notify_all()
            if out is not None:
                out.close()

    def watch(self, fd: int) -> None:
        """Read from ``fd`` from now on (``collect`` looks into the pipe even before the pump's thread runs)."""
        with self._cond:
            self._fd, self._ended = fd, False

    def _write(self, out: BinaryIO, chunk: bytes, label: str | None, turn: int | None) -> None:
        room = STDERR_LIMIT - self.kept
        if room > 0:
            self._mark(out, label, turn)
            out.write(chunk[:room])
            out.flush()
            self._end = out.tell()
        self.kept += min(room, len(chunk)) if room > 0 else 0
        self.dropped += max(0, len(chunk) - max(room, 0))

    def _keep(self, chunk: bytes) -> None:
        """``chunk`` into what ``collect`` hands out next (under the lock); an empty one is the end."""
        if not chunk:
            self._ended = True
            return
        room = FRESH_LIMIT - len(self._fresh)
        if room >= len(chunk):
            self._fresh += chunk
            return
        if room > 0:
            self._fresh += chunk[:room]
        self._fresh_dropped += len(chunk) - max(room, 0)

    def collect(self, wait: float, unread: bool = True) -> tuple[bytes, int] | None:
        """What the bot wrote on stderr since the last call, and the bytes of it counted but not kept; ``None`` when
        it wrote nothing. Everything it wrote up to now is included: waits (up to ``wait`` s) while some is still in
        the pipe or being read by the pump, which needs the interpreter (a busy referee can hold it a while)."""
        # Nothing written (the usual case): the pipe is empty, no chunk is on its way in, nothing is kept. Read in
        # that order without the lock, it cannot miss a chunk: the pump marks itself busy before it reads one, and
        # keeps it before it is done. ``unread`` False: the caller's poll found the pipe empty just now.
        if not (unread and _unread(self._fd)) and not self._busy and not self._fresh and not self._fresh_dropped:
            self.stalled = False
            return None
        cond = self._cond
        with cond:
            self.stalled = False
            if not self._ended and (self._busy or _unread(self._fd)):
                end = time.monotonic() + wait
                while not self._ended and (self._busy or _unread(self._fd)):
                    left = end - time.monotonic()
                    if left <= 0:
                        self.stalled = True
                        break
                    cond.wait(left)
            if not self._fresh and not self._fresh_dropped:
                return None
            taken = (bytes(self._fresh), self._fresh_dropped)
            self._fresh.clear()
            self._fresh_dropped = 0
            return taken

    def _mark(self, out: BinaryIO, label: str | None, turn: int | None) -> None:
        if label is None:
            return
        if (label, turn) != self._marked or os.fstat(out.fileno()).st_size != self._end:
            where = label if turn is None else f"{label} turn {turn}"
            out.write(f"{STDERR_MARK}{where} ---\n".encode())
            self._marked = (label, turn)


def _unread(fd: int) -> int:
    """The bytes waiting in the pipe ``fd`` (0 for a descriptor that is gone)."""
    try:
        return int.from_bytes(fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"), sys.byteorder)
    except (OSError, ValueError, OverflowError):
        return 0


#: Called with the process id of every bot process as it starts (``PipeTransport``), after its watchdog has it:
#: the way to follow every bot a piece of code starts (tests check that none outlives them). Append a hook and
#: remove it after; a compiled constructor cannot be wrapped from Python.
START_HOOKS: list[Callable[[int], None]] = []

#: How often a wait wakes to see whether the bot has exited, where the kernel offers no pidfd.
_EXIT_POLL_S: Final = 0.05
#: How long the end of a bot's output is awaited once the bot has exited, before its pipe counts as held open.
_EXIT_GRACE_S: Final = 0.2
#: How long a read waits on stdout alone before it also watches for the bot's exit. Most answers come
#: sooner, and a poll() on one descriptor costs less on the per-move path than on two.
_FIRST_WAIT_S: Final = 0.02
#: A whole JSON message left this long without its newline, the bot asleep, is the bot waiting on it
#: (``NoNewline``): named at once rather than after the move limit.
NO_NEWLINE_S: Final = 0.3
#: How often a bot that is running (or preempted: waiting for a CPU) with a whole message unended is looked at
#: again: it may be between writing the message and its newline on a busy machine.
_RUNNING_RECHECK_S: Final = 0.05
#: The processes of a bot looked at for one that runs: its own and those under it (a sandbox, a shell).
_TREE_MOST: Final = 64
# The calls of a decision's round trip, bound once: compiled, ``os.read`` is a look-up in the module ``os`` each
# time (a few hundred instructions, several times a decision); a ``Final`` name is read directly.
_monotonic: Final = time.monotonic
_read: Final = os.read
_write: Final = os.write


def tree_runs(pid: int) -> bool:
    """Whether a thread of process ``pid``, or of a process under it, is running or waiting for a CPU (``R`` in
    /proc): a bot preempted between writing a message and writing its newline, not one asleep in a read. False where
    /proc cannot say (the rule falls back to the time alone)."""
    todo = [pid]
    looked = 0
    while todo and looked < _TREE_MOST:
        proc = f"/proc/{todo.pop()}/task/"
        looked += 1
        try:
            threads = os.listdir(proc)
        except OSError:  # gone, or no /proc
            continue
        for tid in threads:
            try:
                with open(f"{proc}{tid}/stat", "rb") as fh:
                    stat = fh.read()
                state = stat.rindex(b")") + 2  # the name in parentheses may hold anything
                if stat[state:state + 1] == b"R":
                    return True
                with open(f"{proc}{tid}/children", "rb") as fh:
                    todo.extend(int(child) for child in fh.read().split())
            except (OSError, ValueError):
                continue
    return False


def _whole_message(data: bytes | bytearray) -> bool:
    """Whether ``data`` (bytes with no newline) is one whole JSON object."""
    try:
        return orjson.loads(data.rstrip(b"\r")).__class__ is dict
    except orjson.JSONDecodeError:
        return False


class PipeTransport:
    """A bot subprocess in its own process group, spoken to over pipes with deadlines.

    The bot's end is watched as well as its output (a pidfd beside stdout, once an answer takes more
    than ``_FIRST_WAIT_S``), so a bot that exits while processes it started keep its stdout open is
    seen to have ended, not taken for a slow one.
    """

    def __init__(self, argv: Sequence[str] | str, *, cwd: str | None = None, env: dict[str, str] | None = None,
                 shell: bool = False, line_limit: int = 65536, stderr_path: str | None = None,
                 sandbox: SandboxSettings | None = None) -> None:
        self.line_limit = line_limit
        self.walls = prepare(sandbox)  # walls and limits (referee/bots/sandbox.py); None: run as is
        #: The sandbox level this process actually got ("full", "walls", "limits" or "none").
        self.sandbox_level = self.walls.level.value if self.walls else "none"
        # The watchdog starts before the bot, so no moment exists where a killed referee leaves it unwatched.
        self._reaper = reaper()
        try:
            self.proc = self.launch(argv, cwd=cwd, env=env, shell=shell, walls=self.walls)
        except BaseException:
            if self.walls is not None:  # no process: remove its cgroup and folder copies now
                self.walls.cleanup()
            raise
        self.pgid = self.proc.pid  # start_new_session: the child leads its own group
        if self._reaper is not None:  # kills the group even if this process is killed outright
            self._reaper.watch(self.pgid)
        for hook in START_HOOKS:
            hook(self.proc.pid)
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self._buf = bytearray()
        self._buf_at = 0.0  # when the bytes after the last newline last grew
        # Complete lines not yet returned, and in their place a ``LineTooLong`` for an over-long one.
        self._lines: deque[bytes | LineTooLong] = deque()
        self._eof = False
        self._skipping = False
        self._orphaned = False  # the bot exited while something it started still held its stdout
        try:
            self._pidfd: int | None = os.pidfd_open(self.proc.pid)
        except (AttributeError, OSError):  # before Linux 5.3: waits wake now and then to check instead
            self._pidfd = None
        # poll() objects rather than selectors: this is the per-move path, and they cost less per call.
        self._rpoll = select.poll()
        self._rpoll.register(self._out, select.POLLIN)
        #: ``self._rpoll.poll``, bound once: called twice a decision (the early-answer check, the first wait).
        self._poll_out: Callable[[int], list[tuple[int, int]]] = self._rpoll.poll
        self._wpoll = select.poll()
        self._wpoll.register(self._in, select.POLLOUT)
        self._xpoll: select.poll | None = None  # stdout and the bot's end, for longer waits
        if self._pidfd is not None:
            self._xpoll = select.poll()
            self._xpoll.register(self._out, select.POLLIN)
            self._xpoll.register(self._pidfd, select.POLLIN)
            self._wpoll.register(self._pidfd, select.POLLIN)
        #: Reads the CPU time of the bot's processes: its cgroup's counter, else their own clocks, else none.
        group = self.walls.group if self.walls is not None else None
        meter: CpuMeter | None = group.cpu_meter() if group is not None else None
        self.cpu_meter: CpuMeter | None = meter if meter is not None else process_meter(self.proc.pid)
        self.stderr = StderrSink(stderr_path)
        self.stderr.watch(self.proc.stderr.fileno())
        # stdout and stderr in one poll: before each request, whether anything came on stdout (an early answer, a
        # log) and whether stderr holds bytes not read in yet (the notes of the turn before), in one system call.
        self._opoll = select.poll()
        self._opoll.register(self._out, select.POLLIN)
        self._opoll.register(self.proc.stderr.fileno(), select.POLLIN)
        self._poll_both: Callable[[int], list[tuple[int, int]]] = self._opoll.poll
        self._stderr_thread = threading.Thread(target=self.stderr.pump, args=(self.proc.stderr.fileno(),), daemon=True)
        try:
            self._stderr_thread.start()
        except RuntimeError as exc:
            # Ctrl-C inside ``Thread.start``'s wait can leave CPython's condition lock released twice: the
            # RuntimeError ("release unlocked lock") then hides the KeyboardInterrupt, which every caller handles.
            if isinstance(exc.__context__, KeyboardInterrupt):
                raise exc.__context__ from None
            raise
        self._closed = False

    @staticmethod
    def launch(argv: Sequence[str] | str, *, cwd: str | None, env: dict[str, str] | None,
               shell: bool, walls: Launch | None = None) -> subprocess.Popen[bytes]:
        """Start the bot: the one place a bot process is created (``walls`` wraps it in the sandbox)."""
        if walls is not None:
            argv, full_env = walls.wrap(argv, cwd=cwd, env=env, shell=shell)  # a clean environment
            shell = False
        else:
            full_env = dict(os.environ)
            if env:
                full_env.update(env)
            full_env.setdefault("PYTHONUNBUFFERED", "1")
        return subprocess.Popen(
            argv, shell=shell, cwd=cwd, env=full_env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, start_new_session=True, bufsize=0)

    @property
    def alive(self) -> bool:
        return not self._closed and self.proc.poll() is None

    @property
    def pid(self) -> int | None:
        return self.proc.pid

    def write(self, data: bytes, deadline: float) -> None:
        """Write all of ``data`` before ``deadline``."""
        total = len(data)
        try:  # the usual case: the pipe takes it all at once
            sent = _write(self._in, data)
            if sent == total:
                return
        except OSError:  # a full pipe, or a closed one: the loop below tells them apart
            sent = 0
        view = memoryview(data)[sent:]
        while view:
            try:
                sent = os.write(self._in, view)
                view = view[sent:]
                continue
            except BlockingIOError:
                pass
            except OSError as exc:
                if isinstance(exc, BrokenPipeError) or exc.errno in (errno.EPIPE, errno.EBADF):
                    raise Closed("the bot closed its input") from None
                raise
            left = deadline - time.monotonic()
            if left <= 0:
                raise WriteTimeout(total - len(view))
            if self._pidfd is None:
                self._wpoll.poll(max(1, int(min(left, _EXIT_POLL_S) * 1000)))
                exited = self.proc.poll() is not None
            else:
                events = self._wpoll.poll(max(1, int(left * 1000)))
                exited = bool(events) and all(fd == self._pidfd for fd, _ in events)
            if exited:  # something it started holds its input open: no one will read it
                self._orphaned = True
                raise Closed("the bot exited")

    def write_some(self, data: bytes) -> int:
        """Write what the pipe takes now without blocking; the number of bytes written."""
        try:
            return os.write(self._in, data)
        except BlockingIOError:
            return 0
        except OSError as exc:
            raise Closed("the bot closed its input") from exc

    def pending(self) -> bool:
        """Whether output is waiting to be read (or has ended): one ``poll`` of stdout when nothing is buffered.

        A bot that exited while something it started holds its stdout is not seen here, but by the
        next ``read_line``.
        """
        return bool(self._lines or self._buf) or bool(self._poll_out(0))

    def before_request(self) -> int:
        """Before a request, in one ``poll``: ``1`` when output is waiting (as ``pending``), plus ``2`` when stderr
        holds bytes the pump has not read yet (or has ended)."""
        seen = 1 if self._lines or self._buf else 0
        out = self._out
        for fd, _ in self._poll_both(0):
            seen |= 1 if fd == out else 2
        return seen

    def read_line(self, deadline: float) -> bytes:
        """The next line (without its terminator) before ``deadline``; with the deadline past, only what is there."""
        lines = self._lines
        fd = self._out
        watch_exit = False
        while True:
            if lines:
                item = lines.popleft()
                if isinstance(item, LineTooLong):
                    raise item
                return item
            if self._eof:
                raise Closed("the bot closed its output")
            until = deadline
            if self._buf and not self._skipping:  # part of a line: a message waiting for its newline?
                until = self._until_newline(deadline)
            left = until - _monotonic()
            if not watch_exit:
                ms = int(min(left, _FIRST_WAIT_S) * 1000 + 0.999) if left > 0 else 0
                if not self._poll_out(ms):
                    if time.monotonic() >= deadline:
                        raise ReadTimeout("no answer in time")
                    watch_exit = True
                    continue
            elif not self._wait_watching_exit(left, deadline):
                continue
            try:
                chunk = _read(fd, 1 << 16)
            except BlockingIOError:  # nothing on stdout: the bot itself has ended (its pidfd)
                if self.proc.poll() is not None:
                    self._bot_exited()
                continue
            # The common case, one whole line in one read, skips the buffering below.
            if chunk and chunk[-1] == 10 and not self._buf and not self._skipping:
                line = chunk[:-1]
                if 10 not in line:  # an int: a byte looked for without a buffer request
                    if len(chunk) > self.line_limit + 1:
                        raise LineTooLong(chunk[:300])
                    return line
            self._take(chunk)

    def _until_newline(self, deadline: float) -> float:
        """With part of a line buffered: how long to wait for its newline; ``NoNewline`` when the part is a whole
        message that has waited ``NO_NEWLINE_S`` already and the bot is asleep (it waits for an answer to a line never
        ended). A bot still running is looked at again: on a busy machine it may have been preempted between two
        writes (a message, then its newline) for longer than that."""
        now = time.monotonic()
        due = self._buf_at + NO_NEWLINE_S
        if now < due:
            return min(deadline, due)
        if _whole_message(self._buf):
            if tree_runs(self.proc.pid):
                return min(deadline, now + _RUNNING_RECHECK_S)
            raise NoNewline(bytes(self._buf[:300]))
        return deadline

    def _wait_watching_exit(self, left: float, deadline: float) -> bool:
        """A wait past the first short one, watching for the bot's exit too: whether stdout is readable.

        Raises ``ReadTimeout`` at the deadline; a bot that exited while its stdout stays open is ended here.
        """
        if self._xpoll is not None:  # stdout and the pidfd in one poll
            if self._xpoll.poll(int(left * 1000 + 0.999) if left > 0 else 0):
                return True
        elif self._rpoll.poll(int(min(left, _EXIT_POLL_S) * 1000 + 0.999) if left > 0 else 0):
            return True
        elif self.proc.poll() is not None:  # no pidfd: look now and then
            self._bot_exited()
            return False
        if time.monotonic() >= deadline:
            raise ReadTimeout("no answer in time")
        return False

    def _take(self, chunk: bytes) -> None:
        """Split ``chunk`` into lines after what is buffered; an empty chunk is the end of the output."""
        lines = self._lines
        if chunk:
            self._buf_at = time.monotonic()
        else:
            self._eof = True
            if self._buf and not self._skipping:  # a last line without its newline still counts
                lines.append(bytes(self._buf))
            self._buf.clear()
            return
        if self._skipping:  # the rest of an over-long line: drop it up to its newline
            end = chunk.find(b"\n")
            if end < 0:
                return
            chunk = chunk[end + 1:]
            self._skipping = False
        limit = self.line_limit
        buf = self._buf
        buf += chunk
        if b"\n" in chunk:
            parts = buf.split(b"\n")
            self._buf = buf = bytearray(parts.pop())
            for part in parts:
                lines.append(bytes(part) if len(part) <= limit else LineTooLong(bytes(part[:300])))
        if len(buf) > limit:  # refuse it now rather than hold it all in memory
            lines.append(LineTooLong(bytes(buf[:300])))
            buf.clear()
            self._skipping = True

    def partial(self) -> bytes:
        """What the bot wrote after its last newline (read already, not yet a line): said when a limit runs out."""
        return b"" if self._skipping else bytes(self._buf[:300])

    def _bot_exited(self) -> None:
        """The bot has ended but its stdout is still open: take what is there, then treat it as the end.

        The end of its output is awaited a moment first: under the sandbox, bubblewrap's own process inside
        holds the pipe a little after the bot's exit is seen, which is no process the bot left behind.
        """
        grace_end = time.monotonic() + _EXIT_GRACE_S
        while True:
            try:
                chunk = os.read(self._out, 1 << 16)
            except BlockingIOError:
                left = grace_end - time.monotonic()
                if left <= 0 or not self._rpoll.poll(max(1, int(left * 1000))):
                    break
                continue
            self._take(chunk)
            if not chunk:
                return
        self._orphaned = True
        self._take(b"")

    def exit_description(self, wait: float = 0.5) -> str:
        """How the process ended, waiting a little for it to finish dying."""
        try:
            code = self.proc.wait(wait)
        except subprocess.TimeoutExpired:
            code = None
        text = describe_exit(code)
        return text + ", leaving processes it started that held its pipes" if self._orphaned else text

    def close(self, grace: float = 2.0) -> int | None:
        """Close stdin, wait up to ``grace`` seconds, then kill the whole process group."""
        if self._closed:
            return self.proc.returncode
        self._closed = True
        stdin = self.proc.stdin
        try:
            if stdin is not None:
                stdin.close()
        except OSError:
            pass
        code: int | None
        try:
            code = self.proc.wait(grace) if grace > 0 else self.proc.poll()
        except subprocess.TimeoutExpired:
            code = None
        self.kill_group()
        if code is None:
            try:
                code = self.proc.wait(5)
            except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL does not fail
                code = None
        if self._reaper is not None:
            self._reaper.forget(self.pgid)
        if self.cpu_meter is not None:
            self.cpu_meter.close()
        if self.walls is not None:
            self.walls.cleanup()
        self._stderr_thread.join(timeout=1)
        for closer in (self.proc.stdout, self.proc.stderr):
            try:
                if closer is not None:
                    closer.close()
            except OSError:
                pass
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None
        return code

    def kill_group(self) -> None:
        """Kill the bot and everything it started (its process group)."""
        try:
            os.killpg(self.pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self.walls is not None:  # what left the group (setsid) is still in the bot's cgroup
            self.walls.kill()


Script = Callable[[dict[str, Any]], "Sequence[bytes | float | None]"]


class FakeTransport:
    """A scripted bot for deterministic protocol tests.

    ``respond`` gets each message the referee writes (decoded) and returns what the "bot" does:
    ``bytes`` lines to emit, a ``float`` to stall that many seconds of virtual time (a timeout if
    longer than the deadline), or ``None`` to close (crash). Without ``respond``, the test states the
    conversation instead, as python-chess's ``MockTransport``: ``expect(line, answers)`` for each line
    the referee must write, in order, then ``assert_done()``.
    """

    def __init__(self, respond: Script | None = None, *, line_limit: int = 65536, exit_code: int = 1) -> None:
        from referee.protocol.wire import loads

        self._loads = loads
        self.respond = respond
        self.line_limit = line_limit
        self.exit_code = exit_code
        self.sent: list[dict[str, Any]] = []
        self._queue: deque[bytes | float | None] = deque()
        self._closed = False
        self._dead = False
        self._expected: deque[tuple[str | Mapping[str, Any], tuple[bytes | float | None, ...]]] = deque()
        self.mismatch: str | None = None

    def expect(self, line: str | Mapping[str, Any], answers: Sequence[bytes | str | float | None] = ()
               ) -> FakeTransport:
        """State the next line the referee writes (its exact text, or keys its message must carry with these
        values) and what the bot does on reading it (lines, stalls, ``None`` to die)."""
        self._expected.append((line, tuple(a.encode() if isinstance(a, str) else a for a in answers)))
        return self

    def assert_done(self) -> None:
        """Raise ``AssertionError`` unless the referee wrote every expected line, in order, and nothing else."""
        if self.mismatch is not None:
            raise AssertionError(self.mismatch)
        if self._expected:
            raise AssertionError(f"the referee never wrote {self._expected[0][0]!r} "
                                 f"({len(self._expected)} expected line(s) left)")

    def _script(self, line: bytes, msg: dict[str, Any]) -> Sequence[bytes | float | None]:
        """What the bot does on ``line``: the caller's ``respond``, or the next expectation if it matches."""
        if self.respond is not None:
            return self.respond(msg)
        if self.mismatch is not None:
            return ()
        if not self._expected:
            self.mismatch = f"the referee wrote {line.decode()!r} after the last expected line"
            return (None,)  # the conversation is off script: the bot dies
        want, answers = self._expected.popleft()
        if isinstance(want, str) and line.decode() != want:
            self.mismatch = f"expected {want!r}, the referee wrote {line.decode()!r}"
            return (None,)
        if not isinstance(want, str) and any(k not in msg or msg[k] != v for k, v in want.items()):
            self.mismatch = f"expected a message with {dict(want)!r}, the referee wrote {line.decode()!r}"
            return (None,)
        return answers

    @property
    def alive(self) -> bool:
        return not self._dead and not self._closed

    @property
    def pid(self) -> int | None:
        return None

    def write(self, data: bytes, deadline: float) -> None:
        if self._dead:
            raise Closed("the bot closed its input")
        for line in data.splitlines():
            msg = self._loads(line)
            self.sent.append(msg)
            self._queue.extend(self._script(line, msg))

    def write_some(self, data: bytes) -> int:
        self.write(data, 0.0)
        return len(data)

    def pending(self) -> bool:
        # A stall at the head is the bot still thinking: nothing to read yet.
        return bool(self._queue) and not isinstance(self._queue[0], float)

    def read_line(self, deadline: float) -> bytes:
        while True:
            if not self._queue:
                if self._dead:
                    raise Closed("the bot closed its output")
                raise ReadTimeout("no answer in time")
            item = self._queue.popleft()
            if item is None:
                self._dead = True
                raise Closed("the bot closed its output")
            if isinstance(item, float):
                if item > deadline - time.monotonic():
                    raise ReadTimeout("no answer in time")
                continue
            if len(item) > self.line_limit:
                raise LineTooLong(item[:300])
            return item

    def partial(self) -> bytes:
        return b""

    def exit_description(self, wait: float = 0.5) -> str:
        return describe_exit(self.exit_code if self._dead else None)

    def close(self, grace: float = 2.0) -> int | None:
        self._closed = True
        return 0 if not self._dead else self.exit_code
