"""Moving lines to and from a bot: a real subprocess with pipes, or a scripted fake for tests.

Every read and write has a deadline; a line longer than the limit is refused without reading it all
into memory; the child runs in its own process group so that it, and anything it started, can be
killed at once.
"""

from __future__ import annotations

import errno
import os
import select
import signal
import subprocess
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable, Protocol, Sequence

from .reaper import reaper
from .sandbox import SandboxSettings, launch

#: How much of a bot's stderr is kept; the rest is counted and dropped.
STDERR_LIMIT = 1 << 20


class ReadTimeout(Exception):
    """No complete line before the deadline."""


class LineTooLong(Exception):
    """A line exceeded the limit; ``head`` is its beginning."""

    def __init__(self, head: bytes) -> None:
        super().__init__(f"line longer than the limit ({len(head)}+ bytes)")
        self.head = head


class Closed(Exception):
    """The bot closed its output or its input (it exited or is exiting)."""


class Transport(Protocol):
    """A line channel to one bot."""

    def write(self, data: bytes, deadline: float | None) -> None: ...
    def read_line(self, deadline: float) -> bytes: ...
    def exit_description(self, wait: float = 0.5) -> str: ...
    def close(self, grace: float = 2.0) -> int | None: ...
    @property
    def alive(self) -> bool: ...


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


@dataclass
class StderrSink:
    """Keeps the first ``STDERR_LIMIT`` bytes of a bot's stderr in a file, counting the rest."""

    path: str | None
    kept: int = 0
    dropped: int = 0

    def pump(self, fd: int) -> None:
        out = open(self.path, "ab") if self.path else None
        try:
            while True:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                room = STDERR_LIMIT - self.kept
                if out is not None and room > 0:
                    out.write(chunk[:room])
                    out.flush()
                self.kept += min(room, len(chunk)) if room > 0 else 0
                self.dropped += max(0, len(chunk) - max(room, 0))
            if out is not None and self.dropped:
                out.write(f"\n[lastcard: {self.dropped} more bytes of stderr dropped]\n".encode())
        except (OSError, ValueError):
            pass
        finally:
            if out is not None:
                out.close()


class PipeTransport:
    """A bot subprocess in its own process group, spoken to over pipes with deadlines."""

    def __init__(self, argv: Sequence[str] | str, *, cwd: str | None = None, env: dict[str, str] | None = None,
                 shell: bool = False, line_limit: int = 65536, stderr_path: str | None = None,
                 sandbox: SandboxSettings | None = None) -> None:
        full_env = dict(os.environ)
        if env:
            full_env.update(env)
        full_env.setdefault("PYTHONUNBUFFERED", "1")
        self.line_limit = line_limit
        self.launch = launch(sandbox)  # walls and limits (referee/bots/sandbox.py); None: run as is
        #: The sandbox level this process actually got ("full", "walls", "limits" or "none").
        self.sandbox_level = self.launch.level.value if self.launch else "none"
        try:
            if self.launch is not None:
                argv, full_env = self.launch.wrap(argv, cwd=cwd, env=env, shell=shell)
                shell = False
            self.proc = subprocess.Popen(
                argv, shell=shell, cwd=cwd, env=full_env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True, bufsize=0)
        except BaseException:
            if self.launch is not None:  # no process: remove its cgroup and folder copies now
                self.launch.cleanup()
            raise
        self.pgid = self.proc.pid  # start_new_session: the child leads its own group
        self._reaper = reaper()
        if self._reaper is not None:  # kills the group even if this process is killed outright
            self._reaper.watch(self.pgid)
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self._buf = bytearray()
        self._lines: deque[bytes] = deque()
        self._eof = False
        self._skipping = False
        # poll() objects rather than selectors: this is the per-move path, and they cost less per call.
        self._rpoll = select.poll()
        self._rpoll.register(self._out, select.POLLIN)
        self._wpoll = select.poll()
        self._wpoll.register(self._in, select.POLLOUT)
        self.stderr = StderrSink(stderr_path)
        self._stderr_thread = threading.Thread(target=self.stderr.pump, args=(self.proc.stderr.fileno(),), daemon=True)
        self._stderr_thread.start()
        self._closed = False

    @property
    def alive(self) -> bool:
        return not self._closed and self.proc.poll() is None

    def write(self, data: bytes, deadline: float | None) -> None:
        """Write all of ``data`` before ``deadline`` (``None``: one non-blocking attempt, rest buffered by the caller)."""
        view = memoryview(data)
        while view:
            try:
                sent = os.write(self._in, view)
                view = view[sent:]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, OSError) as exc:
                if isinstance(exc, BrokenPipeError) or exc.errno in (errno.EPIPE, errno.EBADF):
                    raise Closed("the bot closed its input") from None
                raise
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise ReadTimeout("the bot is not reading its input")
            self._wpoll.poll(None if left is None else max(1, int(left * 1000)))

    def write_some(self, data: bytes) -> int:
        """Write what the pipe takes now without blocking; the number of bytes written."""
        try:
            return os.write(self._in, data)
        except BlockingIOError:
            return 0
        except (BrokenPipeError, OSError) as exc:
            raise Closed("the bot closed its input") from exc

    def read_line(self, deadline: float) -> bytes:
        """The next line (without its terminator) before ``deadline``."""
        if self._lines:
            return self._lines.popleft()
        limit = self.line_limit
        fd = self._out
        while True:
            if self._eof:
                raise Closed("the bot closed its output")
            left = deadline - time.monotonic()
            if left <= 0:
                raise ReadTimeout("no answer in time")
            if not self._rpoll.poll(max(1, int(left * 1000 + 0.999))):
                continue
            try:
                chunk = os.read(fd, 1 << 16)
            except BlockingIOError:
                continue
            # The common case, one whole line in one read, skips the buffering below.
            if not self._buf and not self._skipping and chunk.endswith(b"\n") and chunk.count(b"\n") == 1:
                if len(chunk) > limit + 1:
                    raise LineTooLong(chunk[:300])
                return chunk[:-1]
            if self._skipping:  # the rest of an over-long line: drop it up to its newline
                end = chunk.find(b"\n")
                if end < 0:
                    continue
                chunk = chunk[end + 1:]
                self._skipping = False
                if not chunk:
                    continue
            if not chunk:
                self._eof = True
                if self._buf:  # a last line without its newline still counts
                    line = bytes(self._buf)
                    self._buf.clear()
                    return line
                continue
            buf = self._buf
            buf += chunk
            if b"\n" in chunk:
                parts = buf.split(b"\n")
                self._buf = bytearray(parts.pop())
                for i, part in enumerate(parts):
                    if len(part) > limit:
                        self._lines.extend(bytes(p) for p in parts[i + 1:])
                        raise LineTooLong(bytes(part[:300]))
                self._lines.extend(bytes(p) for p in parts)
                buf = self._buf
                if len(buf) > limit:
                    head = bytes(buf[:300])
                    buf.clear()
                    self._skipping = True
                    raise LineTooLong(head)
                return self._lines.popleft()
            if len(buf) > limit:
                head = bytes(buf[:300])
                buf.clear()
                self._skipping = True
                raise LineTooLong(head)

    def exit_description(self, wait: float = 0.5) -> str:
        """How the process ended, waiting a little for it to finish dying."""
        try:
            code = self.proc.wait(wait)
        except subprocess.TimeoutExpired:
            code = None
        return describe_exit(code)

    def close(self, grace: float = 2.0) -> int | None:
        """Close stdin, wait up to ``grace`` seconds, then kill the whole process group."""
        if self._closed:
            return self.proc.returncode
        self._closed = True
        try:
            self.proc.stdin.close()  # type: ignore[union-attr]
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
        if self.launch is not None:
            self.launch.cleanup()
        self._stderr_thread.join(timeout=1)
        for closer in (self.proc.stdout, self.proc.stderr):
            try:
                closer.close()  # type: ignore[union-attr]
            except OSError:
                pass
        return code

    def kill_group(self) -> None:
        """Kill the bot and everything it started (its process group)."""
        try:
            os.killpg(self.pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self.launch is not None:  # what left the group (setsid) is still in the bot's cgroup
            self.launch.kill()


Script = Callable[[dict], "Sequence[bytes | float | None]"]


class FakeTransport:
    """A scripted bot for deterministic protocol tests.

    ``respond`` gets each message the referee writes (decoded) and returns what the "bot" does:
    ``bytes`` lines to emit, a ``float`` to stall that many seconds of virtual time (a timeout if
    longer than the deadline), or ``None`` to close (crash).
    """

    def __init__(self, respond: Script, *, line_limit: int = 65536, exit_code: int = 1) -> None:
        from .wire import loads

        self._loads = loads
        self.respond = respond
        self.line_limit = line_limit
        self.exit_code = exit_code
        self.sent: list[dict] = []
        self._queue: deque[bytes | float | None] = deque()
        self._closed = False
        self._dead = False

    @property
    def alive(self) -> bool:
        return not self._dead and not self._closed

    def write(self, data: bytes, deadline: float | None) -> None:
        if self._dead:
            raise Closed("the bot closed its input")
        for line in data.splitlines():
            msg = self._loads(line)
            self.sent.append(msg)
            self._queue.extend(self.respond(msg))

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

    def exit_description(self, wait: float = 0.5) -> str:
        return describe_exit(self.exit_code if self._dead else None)

    def close(self, grace: float = 2.0) -> int | None:
        self._closed = True
        return 0 if not self._dead else self.exit_code
