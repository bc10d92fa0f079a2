"""The protocol conversation with one bot process: handshake, requests with deadlines, faults as values."""

from __future__ import annotations

import time
from typing import Any, Callable, Final, Protocol, TypeAlias

from referee import PROTOCOL_VERSIONS
from referee.bots.cpuclock import Clock, CpuMeter, ProcessMeter, Source, wall_limit_ms
from referee.bots.pipes.lines import LineProblem, Mistake, gather, judge, no_newline, while_waiting
from referee.bots.pipes.notes import BEFORE, LOG, NOTES_BUDGET, STDERR, NoteTaker
from referee.bots.pipes.transport import (
    Closed,
    LineTooLong,
    NoNewline,
    PipeTransport,
    ReadTimeout,
    StderrSink,
    Transport,
    TransportError,
    WriteTimeout,
)
from referee.bots.spec import BotSpec
from referee.protocol.faults import BotFault, Fault, FaultKind, snippet
from referee.protocol.messages import hello_message
from referee.protocol.turns import LegalLines
from referee.protocol.wire import answer_problem, encode, loads

SUPPORTED_VERSIONS: tuple[int, ...] = PROTOCOL_VERSIONS
#: The longest ``log`` message kept whole in the notes (the rest of it is counted as dropped).
LOG_TEXT_LIMIT: Final = 4096
#: How long a request waits for the stderr a bot wrote before it to be read in (by the pump's thread, which needs
#: the interpreter): normally microseconds. A bot that never stops writing waits it once a game, then no more.
SETTLE_S: Final = 0.05
#: Lines read between games before a bot still writing is restarted rather than drained further.
DRAIN_LINES: Final = 1000

Recorder = Callable[[str, Any, "float | None"], None]
#: The fix for an answer to information (said when one arrives before the next request).
UNASKED_FIX = ("only turn requests are answered (start, event, round_end, game_end and error are information: "
               "read them and answer nothing)")
#: ``time.monotonic``, read directly (compiled, ``time.monotonic`` is a look-up in the module each time).
_monotonic: Final = time.monotonic
UNASKED = "an answer to a message that is not a request; " + UNASKED_FIX


class Known(Protocol):
    """Answers known to be valid by their exact line (``turns.LegalLines``, or a dict of lines)."""

    def get(self, line: bytes, /) -> Any:
        """What the answer ``line`` stands for; ``None`` for a line not known."""


#: A request as the client holds it: the message, or its encoded line (decoded only when a fault needs it whole).
Request: TypeAlias = "dict[str, Any] | bytes"


class BotClient:
    """One running bot: ``start`` it, ``send`` it information, ``request`` answers, ``quit`` it."""

    def __init__(self, spec: BotSpec, *, stderr_path: str | None = None,
                 transport_factory: Callable[[BotSpec], Transport] | None = None) -> None:
        self.spec = spec
        self.stderr_path = stderr_path
        #: The game and seat the bot is playing, for its stderr log's ``--- game ...`` lines.
        self.stderr_label: str | None = None
        self._factory = transport_factory
        self.transport: Transport | None = None
        self.ready: dict[str, Any] | None = None
        self.next_id = 1
        self._late_ids: set[int] = set()
        self._out = bytearray()
        #: The game's notes so far: its log messages and stderr by turn (``take_notes`` hands them over).
        self.notes = NoteTaker(NOTES_BUDGET)
        #: The game's turn of the request about to be sent (the seat sets it); notes go to ``_noted``, the turn of
        #: the request before (``BEFORE`` until the first), as the stderr log marks them.
        self.turn = BEFORE
        self._noted = BEFORE
        self._logs_read = 0  # log messages read in the process's life (a wait says how many came meanwhile)
        self._sink: StderrSink | None = None
        self._settle_s = SETTLE_S
        self.late_answers = 0
        self.recorder: Recorder | None = None
        self.bank_ms = float(spec.limits.bank_ms)
        # Read on every request: kept here, one attribute away (a spec is frozen).
        self._move_ms = float(spec.limits.move_ms)
        self._on_cpu = spec.limits.clock is Clock.CPU
        self._wall_ms = spec.limits.wall_ms
        self.last_pid: int | None = None
        #: The bot's language, for the fixes its faults name (``hints.language_of``).
        self.language = spec.lang
        #: The CPU milliseconds the last request cost the bot (``None``: no way to read them here).
        self.last_cpu_ms: float | None = None
        self._meter: CpuMeter | None = None
        self._fresh = False  # the meter has not looked for the bot's processes since it started
        self._hello: tuple[dict[str, Any], float, float] | None = None  # launched: hello, its time, the deadline

    # ------------------------------------------------------------------ lifecycle
    @property
    def alive(self) -> bool:
        return self.transport is not None and self.transport.alive

    @property
    def sandbox_level(self) -> str | None:
        """The walls the running process got (``full``, ``walls``, ``limits``, ``none``); ``None`` if not running."""
        if self.transport is None:
            return None
        return getattr(self.transport, "sandbox_level", "none")  # a scripted test transport has no walls

    @property
    def clock_source(self) -> str | None:
        """The clock the running process's moves are timed on (``cpu``, ``cpu-process``, ``wall``); ``None``
        if not running."""
        if self.transport is None:
            return None
        if self.spec.limits.clock is Clock.WALL or self._meter is None:
            return Source.WALL.value
        return self._meter.source.value

    def start(self, seat: int = 0, name: str | None = None) -> dict[str, Any]:
        """Launch the bot and do the handshake (``name``: what ``hello`` calls it instead of its own name, a seat's
        label at a table whose names are hidden); raises ``BotFault`` (kind ``startup``)."""
        self.launch(seat, name)
        return self.handshake()

    def launch(self, seat: int = 0, name: str | None = None) -> None:
        """Start the process and send it ``hello``; ``handshake`` reads the answer. Several bots launched before
        their handshakes start side by side, in this thread (a sandbox kills a bot when the thread that
        started it ends: bubblewrap's ``--die-with-parent``). Raises ``BotFault`` (kind ``startup``)."""
        spec = self.spec
        t0 = time.monotonic()
        try:
            if self._factory is not None:
                self.transport = self._factory(spec)
            else:
                self.transport = PipeTransport(spec.argv, cwd=spec.cwd, env=dict(spec.env), shell=spec.shell,
                                               line_limit=spec.line_limit, stderr_path=self.stderr_path,
                                               sandbox=spec.sandbox)
            self._sink = getattr(self.transport, "stderr", None)  # a scripted test transport has none
            self._label_stderr()
        except (OSError, ValueError) as exc:
            raise self._startup(f"cannot start {spec.command!r}: {exc}"
                                + (f" (working directory {spec.cwd!r})" if spec.cwd else ""), t0) from None
        self.last_pid = self.transport.pid
        self._meter = getattr(self.transport, "cpu_meter", None)  # a scripted test transport has none
        self._fresh = True
        hello = hello_message(spec, seat, name)
        deadline = t0 + spec.limits.startup_ms / 1000
        self._hello = (hello, t0, deadline)
        try:
            self._write(encode(hello), deadline)
        except (ReadTimeout, WriteTimeout, NoNewline, Closed, LineTooLong) as failure:
            raise self._start_failed(failure, t0) from None

    def handshake(self) -> dict[str, Any]:
        """Read the launched bot's ``ready`` (its start-up limit counted from its launch); raises ``BotFault``."""
        assert self._hello is not None, "launch the bot first"
        hello, t0, deadline = self._hello
        self._hello = None
        try:
            while True:
                line = self._read(deadline)
                msg = self._parse(line, hello, t0, startup=True, deadline=deadline)
                if msg.get("type") == "log":
                    continue
                if msg.get("type") != "ready" or not isinstance(msg.get("name"), str):
                    raise self._startup("expected {\"type\":\"ready\",\"name\":...} in answer to hello", t0, line)
                version = msg.get("protocol", SUPPORTED_VERSIONS[-1])
                if version not in SUPPORTED_VERSIONS or isinstance(version, bool):
                    text = (f"protocol version {version!r} is not supported; this referee speaks "
                            f"{', '.join(map(str, SUPPORTED_VERSIONS))}")
                    self.send_error("startup", text)
                    raise self._startup(text, t0, line)
                self.ready = msg
                return msg
        except (ReadTimeout, WriteTimeout, NoNewline, Closed, LineTooLong) as failure:
            raise self._start_failed(failure, t0) from None

    def _start_failed(self, failure: Exception, t0: float) -> BotFault:
        """The start-up fault for a transport's exception during the handshake."""
        if isinstance(failure, (ReadTimeout, WriteTimeout)):
            return self._startup(f"no ready within the startup limit of {self.spec.limits.startup_ms} ms; "
                                 + self._waited(self._logs_read), t0)
        if isinstance(failure, NoNewline):
            return self._startup(no_newline(failure.head, self.language, before_ready=True).message, t0, failure.head)
        if isinstance(failure, LineTooLong):
            return self._startup(f"line longer than {self.spec.line_limit} bytes during startup", t0, failure.head)
        assert self.transport is not None
        return self._startup(f"the bot exited during startup ({self.transport.exit_description()})", t0)

    def _startup(self, message: str, t0: float, line: bytes | None = None) -> BotFault:
        return BotFault(Fault(FaultKind.STARTUP, message, snippet(line), {"type": "hello"},
                              (time.monotonic() - t0) * 1000, bot=self.spec.name))

    def quit(self) -> int | None:
        """Say ``quit`` and make sure the process, and anything it started, is gone."""
        if self.transport is None:
            return None
        transport, self.transport = self.transport, None
        if transport.alive:
            try:
                self._out.clear()
                transport.write(encode({"type": "quit"}), time.monotonic() + 0.5)
            except (TransportError, OSError):
                pass
        return transport.close(self.spec.limits.quit_ms / 1000)

    def kill(self) -> None:
        """End the bot at once (after a fault that leaves the conversation out of step)."""
        if self.transport is not None:
            transport, self.transport = self.transport, None
            transport.close(0)

    @property
    def listening(self) -> bool:
        """Whether the bot still has a channel to hear about the game (a killed bot has none)."""
        return self.transport is not None

    def new_request_id(self) -> int:
        """The id for the next request to this bot (ids grow for the life of the process)."""
        request_id = self.next_id
        self.next_id += 1
        return request_id

    def record_to(self, recorder: Recorder | None) -> None:
        """Send a copy of every line both ways to ``recorder`` (``None`` stops recording)."""
        self.recorder = recorder

    # ------------------------------------------------------------------ messages
    def send(self, msg: dict[str, Any] | bytes) -> None:
        """Queue information for the bot; it is written without blocking, the rest before the next request."""
        data = msg if isinstance(msg, bytes) else encode(msg)
        if self.recorder is not None:
            self.recorder("out", data, None)
        self._out += data
        if len(self._out) > 1 << 16:
            self._flush(None)

    def send_error(self, kind: str, message: str, request_id: int | None = None) -> None:
        """Tell the bot about its fault, if it can still listen."""
        if not self.alive:
            return
        msg: dict[str, Any] = {"type": "error", "fault": kind, "message": message}
        if request_id is not None:
            msg["request_id"] = request_id
        try:
            self.send(msg)
            self._flush(time.monotonic() + 0.2)
        except (TransportError, OSError):
            pass

    def request(self, msg: dict[str, Any], move_ms: float | None = None, *, encoded: bytes | None = None,
                known: Known | None = None, before: bytes = b"") -> tuple[Any, float]:
        """Send a request (its ``id`` already set) and return the answer and the milliseconds it took.

        ``encoded`` is the request's line when the caller has built it (``msg`` then only names it in
        faults, which carry the whole request decoded from the line). An answer line found in ``known``
        returns its value at once: the caller knows it to be a valid answer. ``before`` is information
        (events) to deliver first, in the same write. Raises ``BotFault`` for every way an answer can be
        wrong on the wire; legality is the table's job.
        """
        limit = (self._move_ms if move_ms is None else move_ms) + self.bank_ms
        if encoded is None:
            return self._ask(msg["id"], encode(msg), msg, limit, known, before)
        return self._ask(msg["id"], encoded, encoded, limit, known, before)

    def request_line(self, request_id: int, line: bytes, known: LegalLines, written: bytes | None = None
                     ) -> tuple[Any, float]:
        """``request`` of a ``turn`` line made by ``turns.turn_line`` (``known``: its legal answers), with the move
        limit and the bank: the table's per-decision call, with no message built. ``written``: what to write when
        it is more than the line (information before it, already joined with it)."""
        return self._ask(request_id, line if written is None else written, line, self._move_ms + self.bank_ms,
                         known, b"")

    def _ask(self, req_id: int, data: bytes, request: Request, limit: float, known: Known | None,
             before: bytes) -> tuple[Any, float]:
        """``request``'s round trip: ``data`` (the request's line) written after ``before``, the answer read."""
        transport = self.transport
        if transport is None:
            raise self._fault(FaultKind.CRASH, "the bot process was ended earlier", None, request, _monotonic())
        # Anything already written now came before the request: one poll() per decision sees it on stdout (an early
        # answer, a log) and stderr (not read in yet).
        seen = _before_request(transport)
        sink = self._sink
        if sink is not None:  # its stderr since the last request goes to that request's turn, before the clock runs
            self._stderr_until_now(sink, seen > 1)
            sink.turn = self.turn if self.turn >= 0 else None
        t0 = _monotonic()
        logs = self._logs_read
        on_cpu, deadline, wall_end, c0 = self._start_clock(limit, t0)
        looked = False  # whether this request has looked for processes the bot started (a long move)
        try:
            if seen & 1:
                self._unasked(req_id, request, t0)
            self._noted = self.turn  # log messages from here on belong to this request's turn
            if before:
                data = before + data
            if self.recorder is not None:
                self.recorder("out", data, None)
            self._write_now(data, wall_end)  # a full pipe: a bot not reading uses no CPU, the backstop ends it
            while True:
                try:
                    line = self._read(deadline)
                except ReadTimeout:
                    if not on_cpu:
                        raise
                    deadline = self._next_wait(c0, limit, wall_end, looked)  # ReadTimeout when out of time
                    looked = True
                    continue
                if isinstance(known, LegalLines) or known is not None:  # called natively (``Known`` is a protocol)
                    hit = known.get(line)
                else:
                    hit = None
                if hit is not None:
                    return hit, self._answered(t0, c0, limit, request)
                answer = self._parse(line, request, t0, deadline=deadline)
                kind = answer.get("type")
                if kind == "log":
                    continue
                if "id" not in answer:
                    raise self._fault(FaultKind.MISSING_ID, f"the answer has no 'id'; it must echo the request's id "
                                      f"{req_id} (or, written after information, {UNASKED})", line, request, t0)
                got = answer["id"]
                if got != req_id:
                    if self._late(got):
                        continue
                    raise self._fault(FaultKind.STALE_ID, f"the answer's id {got!r} is not the id {req_id} of the "
                                      "request being answered", line, request, t0)
                problem = answer_problem(answer)
                if problem is not None:
                    raise self._fault(FaultKind.SCHEMA, problem, line, request, t0)
                return answer, self._answered(t0, c0, limit, request)
        except (ReadTimeout, NoNewline, WriteTimeout, Closed, LineTooLong) as failed:
            raise self._transport_fault(failed, req_id, request, t0, limit, on_cpu, c0, wall_end, logs) from None

    def _transport_fault(self, failed: TransportError, req_id: Any, request: Request, t0: float, limit: float,
                         on_cpu: bool, c0: int, wall_end: float, logs: int) -> BotFault:
        """The fault of a request the transport failed (no answer in time, a crash, a line too long, ...)."""
        if isinstance(failed, ReadTimeout):
            self._late_ids.add(req_id)
            self.bank_ms = 0.0
            text = self._timeout_text(limit, on_cpu, c0, wall_end - t0)
            return self._fault(FaultKind.TIMEOUT, text + "; " + self._waited(logs), None, request, t0)
        if isinstance(failed, NoNewline):
            return self._fault(FaultKind.NON_JSON, no_newline(failed.head, self.language).message, failed.head,
                               request, t0)
        if isinstance(failed, WriteTimeout):
            self._late_ids.add(req_id)
            self.bank_ms = 0.0
            waited = (wall_end - t0) * 1000
            return self._fault(FaultKind.TIMEOUT, f"the bot did not read its input within {waited:.0f} ms (the pipe "
                               "to it stayed full): read every line as it comes, even while thinking", None, request,
                               t0)
        if isinstance(failed, Closed):
            desc = self.transport.exit_description() if self.transport else "gone"
            return self._fault(FaultKind.CRASH, f"the bot process died unexpectedly ({desc})", None, request, t0)
        assert isinstance(failed, LineTooLong)
        return self._fault(FaultKind.LINE_TOO_LONG, f"a line longer than the limit of {self.spec.line_limit} bytes",
                           failed.head, request, t0)

    def _answered(self, t0: float, c0: int, limit: float, request: Request) -> float:
        """The wall milliseconds an answer took (its CPU ones in ``last_cpu_ms``); the time charged (CPU time
        under ``clock: cpu``) over the move limit comes out of the bank, and past the bank is a timeout."""
        elapsed = (_monotonic() - t0) * 1000
        meter = self._meter
        if meter is None:
            charged = elapsed
        else:
            self.last_cpu_ms = cpu = (_read_ns(meter) - c0) / 1e6
            on_cpu = self._on_cpu
            charged = cpu if on_cpu else elapsed
            if on_cpu and charged > limit:  # CPU time read at the answer: more than one thread can outrun the wall
                self.bank_ms = 0.0
                raise self._fault(FaultKind.TIMEOUT, f"the answer came after {cpu:.0f} ms of CPU time, over the "
                                  f"limit of {limit:.0f} ms", None, request, t0)
        over = charged - self._move_ms
        if over > 0:
            self.bank_ms = max(0.0, self.bank_ms - over)
        return elapsed

    def _start_clock(self, limit: float, t0: float) -> tuple[bool, float, float, int]:
        """A request's clock as it starts: whether it runs on CPU time, the end of the first wait, the wall
        backstop's end and the CPU counter's reading (0 without a meter)."""
        meter = self._meter
        self.last_cpu_ms = None
        if meter is None:
            end = t0 + limit / 1000
            return False, end, end, 0
        if self._fresh:
            self._fresh = False
            meter.refresh()
        c0 = _read_ns(meter)
        if not self._on_cpu:
            end = t0 + limit / 1000
            return False, end, end, c0
        # The limit is CPU time, which never runs faster than the wall for a bot on one core: the
        # first wait is the CPU limit; later ones what is left of it, up to the wall backstop.
        wall_end = t0 + wall_limit_ms(limit, self._wall_ms) / 1000
        return True, min(t0 + limit / 1000, wall_end), wall_end, c0

    def _timeout_text(self, limit: float, on_cpu: bool, c0: int, waited_s: float) -> str:
        """What ran out when no answer came: the move limit, the CPU time or the wall-clock backstop."""
        cpu_ms = self._cpu_since(c0)
        if not on_cpu:
            return f"no answer within {limit:.0f} ms"
        if cpu_ms is not None and cpu_ms >= limit:
            return f"no answer within {limit:.0f} ms of CPU time (it used {cpu_ms:.0f} ms)"
        return (f"no answer within the wall-clock backstop of {waited_s * 1000:.0f} ms (it used "
                f"{cpu_ms or 0:.0f} ms of the {limit:.0f} ms of CPU time it had): a bot that sleeps or "
                "waits uses no CPU, so the wall clock stops it")

    def _cpu_since(self, c0: int) -> float | None:
        """The CPU milliseconds since the reading ``c0`` (kept in ``last_cpu_ms``); ``None`` without a meter."""
        meter = self._meter
        if meter is None:
            self.last_cpu_ms = None
            return None
        try:
            self.last_cpu_ms = (meter.read_ns() - c0) / 1e6
        except OSError:  # the group is gone with the bot
            self.last_cpu_ms = None
        return self.last_cpu_ms

    def _next_wait(self, c0: int, limit: float, wall_end: float, looked: bool) -> float:
        """Under ``clock: cpu``, after a wait ended with no answer: the end of the next one, or ``ReadTimeout``
        when the bot has used its CPU time or reached the wall backstop."""
        now = time.monotonic()
        meter = self._meter
        assert meter is not None
        if not looked:  # a long move: look once for processes the bot started since (per-process meter)
            meter.refresh()
        cpu = self._cpu_since(c0)
        if now >= wall_end or cpu is None or cpu >= limit:
            raise ReadTimeout("out of time")
        # At least 2 ms: the CPU counter may lag a running process by a scheduler tick.
        return min(wall_end, now + max(limit - cpu, 2.0) / 1000)

    def flush(self, deadline: float) -> None:
        """Write everything queued for the bot before ``deadline``."""
        self._flush(deadline)

    def _late(self, got: Any, *, consume: bool = True) -> bool:
        """The late-answer rule: an answer whose id is a request that timed out (or was struck) is skipped, once.

        ``consume`` takes the id off the list and counts the answer; between games (``_drain``) it only looks.
        """
        if got.__class__ is not int or got not in self._late_ids:  # ids are ints: True or 1.0 never match
            return False
        if consume:
            self._late_ids.discard(got)
            self.late_answers += 1
        return True

    def expect_late(self, request_id: int) -> None:
        """After a strike, an answer to ``request_id`` may still come: recognise it and skip it."""
        self._late_ids.add(request_id)

    def _label_stderr(self) -> None:
        """Tell the transport's stderr log which game (and seat) what the bot writes now belongs to."""
        sink = getattr(self.transport, "stderr", None)
        if sink is not None and self.stderr_label is not None:
            sink.label = self.stderr_label

    def _stderr_until_now(self, sink: StderrSink, unread: bool = True) -> None:
        """What the bot wrote on stderr up to now, into the notes at the turn it belongs to (``_noted``); ``unread``
        False: a poll found its pipe empty just now."""
        got = sink.collect(self._settle_s, unread)
        if sink.stalled:  # it never stops writing: later requests take what is there without waiting
            self._settle_s = 0.0
        if got is not None:
            data, dropped = got
            self.notes.add(self._noted, STDERR, data.decode("utf-8", "replace"), len(data), dropped)

    def take_notes(self) -> NoteTaker:
        """The game's notes (with the stderr written up to now), handed over; the next game's start afresh."""
        if self._sink is not None:
            self._stderr_until_now(self._sink)
        notes, self.notes = self.notes, NoteTaker(NOTES_BUDGET)
        return notes

    @property
    def logs(self) -> list[str]:
        """The game's log messages so far (as kept in its notes)."""
        return [text for _, source, text in self.notes.entries if source == LOG]

    def new_game(self, game: str | None = None, seat: int | None = None) -> None:
        """Reset per-game state (logs, the time bank); end a process that wrote lines nobody asked for.

        Lines a bot wrote after its last request (a flood of copies of an answer, say) would otherwise
        be read as answers in this game. Logs and late answers are drained; anything else means the
        process is out of step, so it is killed and ``alive`` is false: the caller starts a fresh one.
        With ``game``, a ``--- game ID (seat N) ---`` line goes into the stderr log, so what the bot
        wrote there can be told apart by game (a bot's report shows the tail of its faulty game's part).
        """
        if self.transport is not None and self.transport.pending() and not self._drain():
            self.kill()
        if game is not None:
            self.stderr_label = game + (f" (seat {seat})" if seat is not None else "")
            self._label_stderr()
        # After the drain: what the bot wrote after the last game belongs to none.
        self.notes = NoteTaker(NOTES_BUDGET)
        self.turn = self._noted = BEFORE
        self._settle_s = SETTLE_S
        if self._sink is not None:
            self._sink.collect(0.0)
            self._sink.turn = None
        self.bank_ms = float(self.spec.limits.bank_ms)

    def _drain(self) -> bool:
        """Read what the bot has written between games; whether it was only logs and late answers."""
        transport = self.transport
        assert transport is not None
        request = {"type": "turn"}
        for _ in range(DRAIN_LINES):
            if not transport.pending():
                return True
            try:
                line = transport.read_line(time.monotonic())
                answer = self._parse(line, request, time.monotonic())
            except ReadTimeout:  # part of a line (a long log being written): the game's reads finish it
                return True
            except (TransportError, BotFault):
                return False
            if answer["type"] == "log":
                continue
            if not self._late(answer.get("id"), consume=False):
                return False
        return False

    def _unasked(self, req_id: int, request: Request, t0: float) -> None:
        """Read what the bot wrote before request ``req_id`` was sent; a fault unless logs or late answers."""
        transport = self.transport
        assert transport is not None
        while transport.pending():
            try:
                line = self._read(time.monotonic())
            except (ReadTimeout, NoNewline):  # only part of a line so far: it is read as the answer, if it is one
                return
            answer = self._parse(line, request, t0)
            if answer["type"] == "log":
                continue
            got = answer.get("id")
            if self._late(got):
                continue
            if got.__class__ is int and got >= req_id:
                raise self._fault(FaultKind.EARLY, f"the answer with id {got} arrived before request {req_id} was "
                                  "sent: read each request, then answer it (ids are for echoing, not predicting)",
                                  line, request, t0)
            if "id" not in answer:
                raise self._fault(FaultKind.MISSING_ID, f"a line without an 'id' arrived before request {req_id} "
                                  f"was sent: {UNASKED}", line, request, t0)
            raise self._fault(FaultKind.STALE_ID, f"the answer's id {got!r} is not the id {req_id} of the request "
                              f"being answered (it arrived before that request was sent): {UNASKED}",
                              line, request, t0)

    # ------------------------------------------------------------------ internals
    def _fault(self, kind: FaultKind, message: str, line: bytes | None, request: Request, t0: float) -> BotFault:
        whole: dict[str, Any] = loads(request) if isinstance(request, bytes) else request
        return BotFault(Fault(kind, message, snippet(line), whole, (time.monotonic() - t0) * 1000,
                              bot=self.spec.name))

    def _write(self, data: bytes, deadline: float) -> None:
        if self.recorder is not None:
            self.recorder("out", data, None)
        self._write_now(data, deadline)

    def _flush(self, deadline: float | None) -> None:
        if not self._out or self.transport is None:
            return
        if deadline is None:
            # Opportunistic: write what the pipe takes now, keep the rest for the next request.
            try:
                sent = self.transport.write_some(bytes(self._out))
                del self._out[:sent]
            except (Closed, OSError):
                pass
            return
        self._write_now(b"", deadline)

    def _write_now(self, data: bytes, deadline: float) -> None:
        """Write what is held back, then ``data``, before ``deadline``; on a timeout the rest is held back."""
        assert self.transport is not None
        if self._out:
            data = bytes(self._out) + data
            self._out.clear()
        transport = self.transport
        try:
            if isinstance(transport, PipeTransport):  # called natively (``Transport`` is a protocol)
                transport.write(data, deadline)
            else:
                transport.write(data, deadline)
        except WriteTimeout as exc:
            self._out[:] = data[exc.written:]  # the rest goes first next time, keeping the lines whole
            raise

    def _read(self, deadline: float) -> bytes:
        """The next line (as ``lines.read_line``), a ``PipeTransport``'s read called natively (a protocol is not)."""
        transport = self.transport
        assert transport is not None
        if isinstance(transport, PipeTransport):
            line = transport.read_line(deadline)
        else:
            line = transport.read_line(deadline)
        if line.endswith(b"\r"):  # a Windows line end is harmless
            line = line[:-1]
        if self.recorder is not None:
            self.recorder("in", line, None)
        return line

    def _parse(self, line: bytes, request: Request, t0: float, startup: bool = False,
               deadline: float | None = None) -> dict[str, Any]:
        msg = judge(line, self.language, before_ready=startup)
        if isinstance(msg, LineProblem):
            raise self._bad_line(msg, request, t0, startup, deadline)
        if msg["type"] == "log":
            self._logs_read += 1
            text = msg["text"]
            if len(text) > LOG_TEXT_LIMIT:  # one message may not take the game's whole budget
                text = f"{text[:LOG_TEXT_LIMIT]} [lastcard: cut here, the message had {len(text):,} characters]"
            self.notes.add(self._noted, LOG, text)
        return msg

    def _bad_line(self, problem: LineProblem, request: Request, t0: float, startup: bool,
                  deadline: float | None) -> BotFault:
        """The fault for a line that is not one message, naming the mistake behind it (``lines.judge``)."""
        if problem.mistake is Mistake.FRAGMENT and self.transport is not None:  # the rest of a pretty-printed message?
            problem = gather(problem.line, self._read, deadline or time.monotonic() + 0.5, self.language,
                             before_ready=startup)
        if startup:
            return self._startup(problem.message, t0, problem.line)
        return self._fault(problem.kind, problem.message, problem.line, request, t0)

    def _waited(self, logs_before: int) -> str:
        """What the bot wrote while a limit was waited out."""
        partial = getattr(self.transport, "partial", lambda: b"")()  # a transport that keeps none: b""
        what, fix = while_waiting(partial, logs=self._logs_read - logs_before, language=self.language)
        return what + (f": {fix}" if fix else "")


def _read_ns(meter: CpuMeter) -> int:
    """``meter.read_ns()``, a ``ProcessMeter``'s called natively (``CpuMeter`` is a protocol): twice a decision."""
    if isinstance(meter, ProcessMeter):
        return meter.read_ns()
    return meter.read_ns()


def _before_request(transport: Transport) -> int:
    """``PipeTransport.before_request`` (1: output waiting, 2: stderr unread), natively; a transport of another kind
    has no stderr of its own: ``pending`` only."""
    if isinstance(transport, PipeTransport):
        return transport.before_request()
    return 1 if transport.pending() else 0

