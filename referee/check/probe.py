"""The checker's end of a conversation with one bot process.

Lines are read and judged by the referee's own rules (``referee.bots.pipes.lines``, as ``BotClient`` reads
them in ``match`` and ``arena``), so a line means the same to both and a mistake gets the same name
and fix. On top, the probe observes more: where the arena stops at the first fault, it reads on past
a debug print (noted, with the message it followed) so the answer after it is still judged, tells an
answer to information from a wrong answer to the request, and reads a late answer as late, not
missing. A line that leaves the message unreadable (split over lines, a byte order mark, several
messages on one line...) ends the conversation at once with its name, as it would a game.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Mapping

from referee.bots.pipes.lines import LineProblem, Mistake, gather, judge, no_newline, read_line, while_waiting
from referee.bots.pipes.transport import (
    Closed,
    LineTooLong,
    NoNewline,
    PipeTransport,
    ReadTimeout,
    Transport,
    WriteTimeout,
)
from referee.bots.spec import BotSpec
from referee.bots.walls_hint import hidden_by_walls
from referee.check.report import clip
from referee.protocol.messages import hello_message
from referee.protocol.wire import JSONDecodeError, encode, loads

#: After a line with a wrong or missing id, how long to wait for a line with the right one before
#: taking the wrong line as the answer (a bot answering an event writes it just before its answer).
GRACE_S = 0.15
#: How long past the move limit an answer is still waited for (and reported late, not missing).
LATE_MS = 1000
#: What a line answering information is called (the referee's words for it: ``bots.client.UNASKED``).
UNASKED_WORDS = "an answer to a message that is not a request"
#: How much of a bot's standard error a report quotes after a crash.
STDERR_TAIL = 12


@dataclass(frozen=True)
class Stray:
    """A line the bot should not have written: ``after`` is the message it followed."""

    line: bytes
    after: str | None  # the message written just before it (clipped)
    reason: str


@dataclass
class Reply:
    """What came back for one request: the answer (if any), the line, the time and what went wrong on the wire."""

    request: Mapping[str, object]
    """The message sent (``hello`` or ``turn``)."""
    answer: dict[str, object] | None = None
    """The bot's answer as read (a JSON object with a string ``type``; judged afterwards)."""
    line: bytes | None = None
    elapsed_ms: float = 0.0
    problems: list[tuple[str, str]] = field(default_factory=list)  # (fault kind, what was wrong)
    fatal: str | None = None
    fix: str | None = None  # with ``fatal``, how to put it right (in the bot's language)

    def fail(self, problem: LineProblem) -> None:
        """End the exchange on a line that cannot be read: what is wrong, the line, the fix."""
        self.fatal, self.fix, self.line = problem.what, problem.fix, problem.line


class Unreadable(Exception):
    """A line that leaves the message unreadable (``LineProblem``): the conversation cannot go on."""

    def __init__(self, problem: LineProblem) -> None:
        super().__init__(problem.message)
        self.problem = problem


class Probe:
    """One bot process under test: write messages, read answers with deadlines, remember every stray line."""

    def __init__(self, spec: BotSpec, stderr_path: str | None = None, transport: Transport | None = None) -> None:
        self.spec = spec
        self.stderr_path = stderr_path
        self.transport: Transport | None = transport
        self.stray: list[Stray] = []          # non-protocol lines: debug prints
        self.unsolicited: list[Stray] = []    # protocol messages nobody asked for
        self.logs: list[str] = []
        self.last_sent: str | None = None     # the type of the last message written
        self.last_line: bytes | None = None   # the last message written, whole
        self.info_line: bytes | None = None   # the last message written that is not a request
        self.dead: str | None = None          # why the conversation cannot go on
        self.language = spec.lang              # for the fixes, in the bot's language

    # ------------------------------------------------------------------ lifecycle
    def launch(self) -> None:
        """Start the process; raises ``OSError``/``ValueError`` when it cannot start."""
        if self.transport is None:
            spec = self.spec
            self.transport = PipeTransport(spec.argv, cwd=spec.cwd, env=dict(spec.env), shell=spec.shell,
                                           line_limit=spec.line_limit, stderr_path=self.stderr_path,
                                           sandbox=spec.sandbox)

    def close(self) -> None:
        """End the process group at once (idempotent)."""
        if self.transport is not None:
            self.transport.close(0)

    def stderr_tail(self, lines: int = STDERR_TAIL) -> list[str]:
        """The last lines the bot wrote on stderr (after a crash: usually the traceback)."""
        if not self.stderr_path or not os.path.exists(self.stderr_path):
            return []
        time.sleep(0.05)  # the stderr pump thread may be a moment behind the exit
        with open(self.stderr_path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - 8192))
            text = fh.read().decode("utf-8", "replace")
        return [line for line in text.splitlines() if line.strip()][-lines:]

    def stderr_details(self) -> list[str]:
        """A failed check's details: the bot's last stderr lines, then what the walls hid, if they point at it."""
        tail = self.stderr_tail()
        return [f"stderr: {line}" for line in tail] + [f"walls: {line}" for line in hidden_by_walls(tail, self.spec)]

    def exit_text(self) -> str:
        assert self.transport is not None
        return self.transport.exit_description()

    # ------------------------------------------------------------------ writing
    def tell(self, msg: Mapping[str, object] | bytes) -> str | None:
        """Send information (no answer expected); the problem if the bot is gone or not reading."""
        data = msg if isinstance(msg, bytes) else encode(dict(msg))
        return self._write(data, time.monotonic() + 2.0)

    def _write(self, data: bytes, deadline: float) -> str | None:
        assert self.transport is not None
        try:
            self.transport.write(data, deadline)
        except Closed:
            self.dead = f"the bot exited ({self.exit_text()})"
            return self.dead
        except WriteTimeout:
            self.dead = "the bot stopped reading its input"
            return self.dead
        self.last_line = data
        if not data.startswith(b'{"type":"turn"'):
            self.info_line = data
        try:
            self.last_sent = loads(data).get("type")
        except (JSONDecodeError, AttributeError):  # pragma: no cover - we only write our own JSON
            self.last_sent = None
        return None

    # ------------------------------------------------------------------ reading
    def _take(self, line: bytes, deadline: float, before_ready: bool = False) -> dict[str, object] | None:
        """The message on ``line``, judged by the referee's rules; ``None`` for a line only noted (a log, a
        debug print, a broken log). Raises ``Unreadable`` for a line that leaves the message unreadable."""
        got = judge(line, self.language, before_ready=before_ready)
        if not isinstance(got, LineProblem):
            if got["type"] == "log":
                self.logs.append(got["text"])
                return None
            return got
        problem = got
        if problem.mistake is Mistake.FRAGMENT:  # the rest of a pretty-printed message follows?
            problem = gather(line, self._read, deadline, self.language, before_ready=before_ready)
        if problem.mistake in (Mistake.DEBUG, Mistake.FRAGMENT):
            self.stray.append(Stray(line, self._after(), problem.what))
            return None
        if problem.mistake is Mistake.BAD_LOG:
            self.unsolicited.append(Stray(line, self._after(), problem.what))
            return None
        raise Unreadable(problem)

    def _waited(self, strays_before: int, logs_before: int) -> tuple[str, str | None]:
        """What the bot wrote while a limit was waited out, and the likely fix."""
        partial = getattr(self.transport, "partial", lambda: b"")()  # a transport that keeps none: b""
        lines = [s.line for s in self.stray[strays_before:]]
        return while_waiting(partial, lines, len(self.logs) - logs_before, self.language)

    def handshake(self, seat: int) -> Reply:
        """Send ``hello``, wait for ``ready`` within the startup limit; stray lines are noted, not fatal."""
        hello = hello_message(self.spec, seat)
        reply = Reply(hello)
        t0 = time.monotonic()
        deadline = t0 + self.spec.limits.startup_ms / 1000
        problem = self._write(encode(hello), deadline)
        if problem:
            reply.fatal = problem
            return reply
        strays, logs = len(self.stray), len(self.logs)
        while True:
            try:
                line = self._read(deadline)
                value = self._take(line, deadline, before_ready=True)
            except ReadTimeout:
                what, reply.fix = self._waited(strays, logs)
                reply.fatal = f"no ready within the startup limit of {self.spec.limits.startup_ms} ms; {what}"
                break
            except Closed:
                reply.fatal = f"the bot exited during startup ({self.exit_text()})"
                break
            except LineTooLong as exc:
                reply.fatal = f"a line longer than {self.spec.line_limit} bytes during startup"
                reply.line = exc.head
                break
            except NoNewline as exc:
                reply.fail(no_newline(exc.head, self.language, before_ready=True))
                break
            except Unreadable as exc:
                reply.fail(exc.problem)
                break
            if value is None:
                continue
            reply.answer, reply.line = value, line
            if value.get("type") != "ready":
                reply.problems.append(("startup", "expected a ready message in answer to hello, "
                                                  f"got type {value['type']!r}"))
            break
        reply.elapsed_ms = (time.monotonic() - t0) * 1000
        if reply.fatal:
            self.dead = reply.fatal
        return reply

    def request(self, msg: Mapping[str, object], limit_ms: float, late_ms: float | None = None) -> Reply:
        """Send a request and wait for its answer: ``limit_ms`` is the move limit, and an answer up to
        ``late_ms`` more is still read (and reported late) so a slow bot is told apart from a hung one."""
        reply = Reply(msg)
        req_id = msg["id"]
        late_ms = max(limit_ms, LATE_MS) if late_ms is None else late_ms
        t0 = time.monotonic()
        last = t0 + (limit_ms + late_ms) / 1000
        problem = self._write(encode(dict(msg)), last)
        if problem:
            reply.fatal = problem
            self.dead = problem
            return reply
        before = clip(self.info_line)
        suspects: list[tuple[bytes, dict[str, object], float]] = []
        strays, logs = len(self.stray), len(self.logs)
        while True:
            deadline = min(last, suspects[-1][2] + GRACE_S) if suspects else last
            try:
                line = self._read(deadline)
                value = self._take(line, last)
            except ReadTimeout:
                if suspects:
                    break  # no answer with the right id followed: the wrong line was the answer
                what, reply.fix = self._waited(strays, logs)
                reply.fatal = f"no answer within {limit_ms + late_ms:.0f} ms (the limit is {limit_ms:.0f} ms); {what}"
                break
            except NoNewline as exc:
                reply.fail(no_newline(exc.head, self.language))
                break
            except Unreadable as exc:
                reply.fail(exc.problem)
                break
            except Closed:
                reply.fatal = f"the bot process died ({self.exit_text()})"
                break
            except LineTooLong as exc:
                reply.fatal = f"a line longer than the limit of {self.spec.line_limit} bytes"
                reply.line = exc.head
                break
            now = time.monotonic()
            if value is None:
                continue
            if value.get("id") == req_id and not isinstance(value.get("id"), bool):
                for s_line, _, _ in suspects:  # lines before the real answer were answers to information
                    self.unsolicited.append(Stray(s_line, before, UNASKED_WORDS))
                suspects.clear()
                reply.answer, reply.line = value, line
                reply.elapsed_ms = (now - t0) * 1000
                break
            suspects.append((line, value, now))
        self._settle(reply, suspects, before, req_id, t0)
        if reply.fatal:
            reply.elapsed_ms = (time.monotonic() - t0) * 1000
            self.dead = reply.fatal
        elif reply.elapsed_ms > limit_ms:
            reply.problems.append(("timeout", f"answered in {reply.elapsed_ms:.0f} ms, over the move limit of "
                                              f"{limit_ms:.0f} ms"))
        return reply

    def _settle(self, reply: Reply, suspects: list[tuple[bytes, dict[str, object], float]], before: str | None,
                req_id: object, t0: float) -> None:
        """The lines with a wrong id that came before the real answer (or none came): without an answer and a
        fatal problem, the last of them is taken for the answer and its id reported; the rest were answers to
        information (``unsolicited``)."""
        if suspects and reply.answer is None and not reply.fatal:
            for s_line, _, _ in suspects[:-1]:
                self.unsolicited.append(Stray(s_line, before, UNASKED_WORDS))
            line, value, at = suspects[-1]
            reply.answer, reply.line = value, line
            reply.elapsed_ms = (at - t0) * 1000
            if "id" not in value:
                reply.problems.append(("missing_id", f"the answer has no 'id': it must echo the request's id {req_id}"))
            else:
                reply.problems.append(("stale_id", f"the answer's id {value['id']!r} is not the request's id {req_id}"))
        elif suspects and reply.fatal:
            for s_line, _, _ in suspects:
                self.unsolicited.append(Stray(s_line, before, UNASKED_WORDS))

    def _after(self) -> str | None:
        return clip(self.last_line)

    def listen(self, seconds: float) -> list[Stray]:
        """Read for ``seconds`` when no answer is expected; the protocol messages that came anyway."""
        came: list[Stray] = []
        deadline = time.monotonic() + seconds
        while True:
            try:
                line = self._read(deadline)
                value = self._take(line, deadline)
            except ReadTimeout:
                break
            except Closed:
                self.dead = f"the bot process died after {self.last_sent or 'a message'} ({self.exit_text()})"
                break
            except LineTooLong as exc:
                self.dead = f"a line longer than the limit of {self.spec.line_limit} bytes"
                came.append(Stray(exc.head, self._after(), self.dead))
                break
            except NoNewline as exc:
                self.dead = UNASKED_WORDS + ", and " + no_newline(exc.head, self.language).message
                came.append(Stray(exc.head, self._after(), self.dead))
                break
            except Unreadable as exc:
                came.append(Stray(exc.problem.line, self._after(), UNASKED_WORDS + ", and "
                                  + exc.problem.message))
                continue
            if value is not None:
                came.append(Stray(line, self._after(), UNASKED_WORDS))
        return came

    def quit(self, seconds: float) -> tuple[int | None, float, list[Stray]]:
        """Send ``quit`` and wait for the process to exit on its own (input still open, so it is the
        ``quit`` it obeys, not the end of input). Returns the exit code (``None``: still running), the
        time taken and any protocol lines written after ``quit``."""
        t0 = time.monotonic()
        deadline = t0 + seconds
        came: list[Stray] = []
        problem = self._write(encode({"type": "quit"}), deadline)
        proc = getattr(self.transport, "proc", None)
        code: int | None = None
        if problem is None:
            eof = False
            while time.monotonic() < deadline:
                if proc is not None and proc.poll() is not None:
                    break
                if eof:
                    time.sleep(0.01)
                    continue
                try:
                    line = self._read(min(deadline, time.monotonic() + 0.05))
                    value = self._take(line, deadline)
                except ReadTimeout:
                    continue
                except (Closed, NoNewline):  # NoNewline: nothing more will be read, only the exit waited for
                    eof = True
                    if proc is None:
                        break
                    continue
                except LineTooLong:
                    continue
                except Unreadable as exc:
                    came.append(Stray(exc.problem.line, '{"type":"quit"}', UNASKED_WORDS + ", and "
                                      + exc.problem.message))
                    continue
                if value is not None:
                    came.append(Stray(line, '{"type":"quit"}', UNASKED_WORDS))
        if proc is not None:
            code = proc.poll()
        elif problem is None and self.transport is not None and not self.transport.alive:
            code = self.transport.close(0)  # a transport without a process (tests): its own exit status
        elapsed = (time.monotonic() - t0) * 1000
        return code, elapsed, came

    def _read(self, deadline: float) -> bytes:
        assert self.transport is not None
        return read_line(self.transport, deadline)
