"""One game between seats: the referee's per-move loop.

A seat is anything that decides moves: a built-in player, a bot process, or a forfeited seat that
plays the fixed fallback (a person at the terminal is one more). A bot's fault never escapes this
module: it becomes a recorded ``Fault``, and the fault policy says what it costs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Final, Protocol, cast

from mypy_extensions import mypyc_attr

from referee.bots.pipes.client import BotClient
from referee.bots.pipes.notes import NoteTaker
from referee.bots.pool import BotPool
from referee.bots.spec import BotSpec
from referee.engine.actions import Action, IllegalActionError, InvalidActionError
from referee.engine.events import Event
from referee.engine.game import Game, placements, seeded
from referee.engine.notation import ACTION_CODES, STAND_IN, code_of, encode_actions
from referee.engine.rules import Ruleset
from referee.players import BUILTINS, SeatView, make_player
from referee.players.base import Player
from referee.protocol.faults import KILL_KINDS, BotFault, Fault, FaultKind, snippet
from referee.protocol.messages import ruleset_options, seat_labels
from referee.protocol.relay import EndPatch, PublicWire, Relay
from referee.protocol.turns import turn_line
from referee.protocol.wire import encode, loads
from referee.store.notes import GameNotes
from referee.store.results import GameResult, GameResultJson, SeatTimes
from referee.table.policy import FaultPolicy, fallback_action, replacement_action


class Seat(Protocol):
    """Whatever sits at a place of the table and decides its moves."""

    name: str
    #: How its actions are recorded: ``builtin``, ``bot``, ``fallback`` (a forfeited seat), ``human``.
    by: str
    #: The sandbox level its process runs under (``None``: no process of its own).
    sandbox: str | None
    #: The clock its moves are timed on (``cpu``, ``cpu-process``, ``wall``; ``None``: no process of its own).
    clock: str | None

    def begin(self, table: Table, index: int) -> None:
        """The game starts; raises ``BotFault`` if the seat cannot take part."""

    def decide(self, table: Table, index: int, legal: list[Action]) -> tuple[Action, float | None]:
        """A legal action and the milliseconds the answer took (``None`` when untimed); may raise ``BotFault``."""

    def warn(self, fault: Fault, note: str) -> None:
        """A fault the policy forgave (a strike): tell the seat; the game goes on."""

    def forfeit(self, fault: Fault) -> None:
        """A fault that loses the game: tell the seat, and end a process that is out of step."""

    def finish(self, table: Table, index: int) -> None:
        """The game is over: deliver what the seat has not been told yet."""


class BuiltinSeat:
    """A built-in player in a seat."""

    by = "builtin"
    sandbox: str | None = None
    clock: str | None = None
    cpu_ms: float | None = None

    #: Made at the first ``begin``, reseeded for each game and seat after that (seeding a generator costs
    #: about as much as 20 moves; making a player costs two seeds and more: a seat reused game after game,
    #: as ``run_job`` does, saves that).
    player: Player | None

    def __init__(self, spec: BotSpec) -> None:
        assert spec.builtin is not None
        if spec.builtin not in BUILTINS:
            make_player(spec.builtin)  # raises, naming the built-ins there are
        self.spec = spec
        self.name = spec.name
        self._builtin = spec.builtin
        self._view: SeatView | None = None
        self.player = None

    def begin(self, table: Table, index: int) -> None:
        # seed * 7 + index, without `*`. Compiled, a product with a factor of 2**30 or more is CPython's long
        # multiplication, which runs pending signal handlers; a Ctrl-C raised there is taken by mypyc for a
        # failed allocation ("fatal: out of memory") and aborts the process. So no `*` on large ints in the
        # compiled modules (tests/project/test_compiled_interrupts.py).
        seed = (table.seed << 3) - table.seed + index
        player = self.player
        if player is None:
            self.player = make_player(self._builtin, seed)
        else:  # the same generator state as a new player's: ``Random.seed`` is what ``Random(seed)`` does
            player.reseed(seed)
        self._view = None

    def decide(self, table: Table, index: int, legal: list[Action]) -> tuple[Action, float | None]:
        view = self._view
        if view is None:  # a view is live: one per game serves every turn
            view = self._view = SeatView(table.game, index)
        player = self.player
        assert player is not None, "begin the game first"
        return player.choose(view, legal), None

    def warn(self, fault: Fault, note: str) -> None:  # pragma: no cover - built-in players make no faults
        pass

    def forfeit(self, fault: Fault) -> None:  # pragma: no cover
        pass

    def finish(self, table: Table, index: int) -> None:
        pass


class BotSeat:
    """A bot process in a seat. The process outlives the game (see ``BotPool``)."""

    by = "bot"

    def __init__(self, client: BotClient) -> None:
        self.client = client
        self.spec = client.spec
        self.name = client.spec.name
        self.relay: Relay | None = None
        self.sandbox: str | None = None
        self.clock: str | None = None
        self.cpu_ms: float | None = None  # the CPU time of the last answer (``None``: not measured)
        self._move_ms = client.spec.limits.move_ms  # read at every turn: kept here (a spec is frozen)
        self.noted: NoteTaker | None = None  # what its bot wrote in the game, by turn (``finish`` takes it)

    def begin(self, table: Table, index: int) -> None:
        self.prepare(table, index)
        if not self.client.alive:
            # A failed start raises: the seat then ran under no walls at all.
            self.client.start(index, table.hello_name(index))
        self.started()

    def prepare(self, table: Table, index: int) -> None:
        """``begin`` up to starting the process (``Table.start`` starts several side by side)."""
        client = self.client
        client.new_game(table.game_id, index)
        self.relay = Relay(index, table.game_id, table.told_names, scores=[0] * len(table.names))
        if table.recorder is not None:
            client.record_to(table.recorder.messages_of(index))
        self.sandbox = self.clock = None

    def started(self) -> None:
        """``begin`` once the process runs: what walls and clock it got."""
        self.sandbox = self.client.sandbox_level
        self.clock = self.client.clock_source

    def decide(self, table: Table, index: int, legal: list[Action]) -> tuple[Action, float | None]:
        client = self.client
        game = table.game
        # The events since its last turn go out in the same write as the request, joined with it once.
        parts: list[bytes] = []
        if self.relay is not None and client.listening:
            self.relay.gather(parts, game, table.wire)
        bank = client.bank_ms
        client.turn = len(table.actions)  # the turn its notes (stderr, log messages) from now on belong to
        request_id = client.new_request_id()
        line, known = turn_line(game, index, legal, request_id, int(self._move_ms + bank), int(bank))
        if parts:
            parts.append(line)
            written = b"".join(parts)
        else:
            written = line
        try:
            answer, ms = client.request_line(request_id, line, known, written)
        finally:
            self.cpu_ms = client.last_cpu_ms
        if type(answer) is Action:  # an element of legal, echoed as sent
            return answer, ms
        try:  # any other valid answer: the same action written another way, or an illegal one
            action = Action.from_wire(answer)
            game.check(action, legal)
        except (InvalidActionError, IllegalActionError) as exc:
            request = loads(line)
            raise BotFault(Fault(FaultKind.ILLEGAL, str(exc), snippet(encode(answer).rstrip(b"\n")), request,
                                 ms)) from None
        return action, ms

    def warn(self, fault: Fault, note: str) -> None:
        request_id = _request_id(fault)
        self.client.send_error(fault.kind.value, f"{fault.message} ({note})", request_id)
        if request_id is not None:
            self.client.expect_late(request_id)

    def forfeit(self, fault: Fault) -> None:
        self.client.send_error(fault.kind.value, fault.message, _request_id(fault))
        if fault.kind in KILL_KINDS:
            self.client.kill()

    def finish(self, table: Table, index: int) -> None:
        client = self.client
        news = self._news(table, table.end_patch)
        if news:
            try:
                client.send(news)
            except Exception:  # noqa: BLE001 - a dead pipe shows up when the bot is next asked
                pass
        client.record_to(None)
        if client.alive:
            try:
                client.flush(time.monotonic() + 1.0)  # deliver game_end before the next game
            except Exception:  # noqa: BLE001 - a bot that does not read is killed, restarted next game
                client.kill()
        if self.spec.restart_each_game:
            client.quit()
        self.noted = client.take_notes()

    def _news(self, table: Table, end: EndPatch | None = None) -> bytes:
        """The lines the seat has not been told yet (none for a killed bot: it hears nothing more)."""
        if self.relay is None or not self.client.listening:
            return b""
        return self.relay.lines(table.game, table.wire, end)


class ForfeitedSeat:
    """A seat that lost the game by a fault: the fixed fallback plays it; the bot, if it still listens,
    is told the rest of the game."""

    by = "fallback"

    def __init__(self, lost: Seat) -> None:
        self.lost = lost
        self.name = lost.name
        self.sandbox = lost.sandbox
        self.clock = lost.clock
        self.cpu_ms = None

    def begin(self, table: Table, index: int) -> None:  # pragma: no cover - forfeited during the game
        pass

    def decide(self, table: Table, index: int, legal: list[Action]) -> tuple[Action, float | None]:
        return fallback_action(legal), None

    def warn(self, fault: Fault, note: str) -> None:  # pragma: no cover - the fallback makes no faults
        pass

    def forfeit(self, fault: Fault) -> None:  # pragma: no cover
        pass

    def finish(self, table: Table, index: int) -> None:
        self.lost.finish(table, index)


# Compiled (setup.py), a class refuses Python subclasses unless it says so: ``lastcard play`` follows a game by one.
@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass
class Recorder:
    """Collects a game record: every message both ways (with times), every action, the events and result."""

    lines: list[dict[str, Any]] = field(default_factory=list)

    def add(self, entry: dict[str, Any]) -> None:
        self.lines.append(entry)

    def messages_of(self, seat: int) -> Any:
        """A sink for the lines a seat's bot reads and writes (see ``BotClient.record_to``)."""
        t0 = time.monotonic()

        def rec(direction: str, data: bytes, _ms: float | None) -> None:
            for entry in message_entries(seat, direction, t0, time.monotonic(), data):
                self.add(entry)
        return rec

    def action(self, seat: int, action: Action, by: str, ms: float | None, cpu_ms: float | None) -> None:
        """An action played (``by`` the bot or what stood in for it), with its answer's times."""
        self.add(action_entry(seat, action, by, ms, cpu_ms))

    def ended(self, events: list[Event], result: GameResult) -> None:
        """The game's events and result, the record's last lines."""
        self.add({"t": "events", "events": events})
        self.add(result_entry(result))

    def written(self) -> list[dict[str, Any]]:
        """The record's lines (``HeldRecorder`` makes them only when asked)."""
        return self.lines


def message_entries(seat: int, direction: str, t0: float, at: float, data: bytes) -> list[dict[str, Any]]:
    """The record's lines for the bytes ``data`` a seat's bot read or wrote at ``at`` (``time.monotonic``), its
    record started at ``t0``: a write may carry several lines."""
    at_ms = round((at - t0) * 1000, 3)
    return [{"t": direction, "seat": seat, "at_ms": at_ms, "line": line}
            for line in data.decode("utf-8", "replace").rstrip("\n").split("\n")]


def action_entry(seat: int, action: Action, by: str, ms: float | None, cpu_ms: float | None) -> dict[str, Any]:
    """The record's line for an action played."""
    entry = {"t": "action", "seat": seat, "action": action.to_wire(), "by": by,
             "ms": None if ms is None else round(ms, 3)}
    if cpu_ms is not None:
        entry["cpu_ms"] = round(cpu_ms, 3)
    return entry


def result_entry(result: GameResult) -> dict[str, Any]:
    """The record's line for the game's result (without its wall time, which no replay reproduces)."""
    return {"t": "result", **{k: v for k, v in result.to_json().items() if k != "wall_ms"}}


class _SeatClock:
    """One seat's answer times in a game."""

    __slots__ = ("decisions", "total_ms", "max_ms", "strikes", "cpu_decisions", "cpu_total_ms", "cpu_max_ms")

    def __init__(self) -> None:
        self.decisions = 0
        self.total_ms = 0.0
        self.max_ms = 0.0
        self.strikes = 0
        self.cpu_decisions = 0
        self.cpu_total_ms = 0.0
        self.cpu_max_ms = 0.0

    def add(self, ms: float, cpu_ms: float | None = None) -> None:
        self.decisions += 1
        self.total_ms += ms
        if ms > self.max_ms:
            self.max_ms = ms
        if cpu_ms is not None:
            self.cpu_decisions += 1
            self.cpu_total_ms += cpu_ms
            if cpu_ms > self.cpu_max_ms:
                self.cpu_max_ms = cpu_ms


class Table:
    """One game: the engine, its seats, the fault policy, and what has been recorded."""

    def __init__(self, ruleset: Ruleset, seats: list[Seat], seed: int, game_id: str = "g1",
                 policy: FaultPolicy = FaultPolicy(), recorder: Recorder | None = None,
                 log_events: bool = True, actions: bool = True, hide_names: bool = False) -> None:
        """``log_events`` false: the game keeps no events (``Game(log_events=False)``), for a caller that reads
        none: built-in seats only and no ``recorder`` (a bot's relay and a record read them). ``actions`` false:
        the result's ``actions`` is left empty (for a caller that reads none: ``GameJob.actions``).
        ``hide_names``: the bots are told each seat by a neutral label (``seat1``...), never a name; the result
        and the record keep the names."""
        self.ruleset = ruleset
        self.seats: list[Seat] = list(seats)
        self.seed = seed
        self.game_id = game_id
        self.policy = policy
        self.recorder = recorder
        self.log_events = log_events
        self.keep_actions = actions
        self.names = [s.name for s in seats]
        self.hide_names = hide_names
        #: What the bots are told the seats are called: the names, or neutral labels when they are hidden.
        self.told_names = seat_labels(len(seats)) if hide_names else self.names
        self.rng = seeded(None, seed)  # random.Random(seed)
        self.wire = PublicWire()
        self.faults: list[Fault] = []
        self.forfeited: set[int] = set()
        self.clocks = [_SeatClock() for _ in seats]
        self.actions: list[Action] = []
        self.stand_ins: list[int] = []  # actions played for a seat after its fault
        self.end_patch: EndPatch = {}
        self.game: Game  # dealt once every seat has begun
        self._t0 = 0.0  # when the game started (its wall time is measured from here)
        #: Given each action's compact code as it is played (the live page following this game), or None.
        self.follow: Callable[[str], None] | None = None

    def hello_name(self, index: int) -> str | None:
        """What ``hello`` calls the bot of seat ``index``: its seat's label when names are hidden, else its name."""
        return self.told_names[index] if self.hide_names else None

    # ------------------------------------------------------------------ the game's story
    def play(self) -> GameResult:
        """Play the game to its end and return its result."""
        game = self.start()
        while not game.over:
            self.step()
        return self.finish()

    def start(self) -> Game:
        """Seat everybody and deal (``play`` does it; an environment stepping a game by hand too)."""
        self._t0 = time.monotonic()
        self._record_start()
        launched = self._start_together()
        for index, seat in enumerate(self.seats):
            if isinstance(seat, BuiltinSeat):  # called natively (see ``_turn``): a built-in player always begins
                seat.begin(self, index)
                continue
            try:
                if index not in launched:
                    seat.begin(self, index)
                elif (failed := launched[index]) is not None:
                    raise failed  # as if its own begin had raised it
                elif isinstance(seat, BotSeat):
                    seat.started()
            except BotFault as bf:
                self._lose(index, bf.fault)
        self.game = game = Game(self.ruleset, len(self.seats), self.rng, log_events=self.log_events)
        return game

    def _start_together(self) -> dict[int, BotFault | None]:
        """Start the processes of the bot seats that have none, side by side when there are several (a
        worker's first game, a bot restarted every game): a start mostly waits on the bot's runtime, so
        they take the slowest one's time, not the sum. Each seat's failure, to be charged in seat order."""
        waiting = [(index, seat) for index, seat in enumerate(self.seats)
                   if isinstance(seat, BotSeat) and not seat.client.alive]
        if len(waiting) < 2 or len({id(seat.client) for _, seat in waiting}) < len(waiting):
            return {}  # one to start, or a process shared by two seats: started in its seat's turn
        for index, seat in waiting:
            seat.prepare(self, index)
        outcome: dict[int, BotFault | None] = {}
        for index, seat in waiting:  # every process launched first, in this thread (see ``BotClient.launch``)
            try:
                seat.client.launch(index, self.hello_name(index))
                outcome[index] = None
            except BotFault as bf:
                outcome[index] = bf
        for index, seat in waiting:  # then each ready read: the others start meanwhile
            if outcome[index] is None:
                try:
                    seat.client.handshake()
                except BotFault as bf:
                    outcome[index] = bf
        return outcome

    def step(self, forced: Action | None = None) -> None:
        """One decision: the seat to act chooses (or a fault stands in for it), and the game moves on.

        With ``forced`` (a stored game played on from a later turn) the seat is still asked, so a bot
        keeps the history it had, but ``forced`` is what is played.
        """
        game = self.game
        index = game.current
        legal = game.legal_actions()
        action, by, ms, cpu_ms = self._turn(index, legal)
        if forced is not None:
            action = forced
        self._record_action(index, action, by, ms, cpu_ms)
        game.apply(action, self.rng)

    def finish(self) -> GameResult:
        """After the last move: tell the seats the end and return the result (``play`` does it)."""
        return self._finish(self._t0)

    def _turn(self, index: int, legal: list[Action]) -> tuple[Action, str, float | None, float | None]:
        """The seat's action, or what stands in for it after a fault; how it came; the answer's wall and CPU
        times (ms)."""
        seat = self.seats[index]
        if isinstance(seat, BuiltinSeat):
            # The usual seat, called natively (through the protocol, compiled code makes a Python method call
            # each turn); a built-in player is untimed and raises no BotFault.
            return seat.decide(self, index, legal)[0], seat.by, None, None
        if isinstance(seat, BotSeat):  # natively too, and its CPU time read without a look-up by name
            try:
                action, ms = seat.decide(self, index, legal)
            except BotFault as bf:
                return self._fault(index, bf.fault, legal, seat.cpu_ms)
            cpu_ms = seat.cpu_ms if ms is not None else None
            if ms is not None:
                self.clocks[index].add(ms, cpu_ms)
            return action, seat.by, ms, cpu_ms
        try:
            action, ms = seat.decide(self, index, legal)
        except BotFault as bf:
            return self._fault(index, bf.fault, legal, getattr(seat, "cpu_ms", None))
        cpu_ms = None
        if ms is not None:
            cpu_ms = getattr(seat, "cpu_ms", None)  # a person at the terminal has none
            self.clocks[index].add(ms, cpu_ms)
        return action, seat.by, ms, cpu_ms

    def _fault(self, index: int, fault: Fault, legal: list[Action], cpu_ms: float | None
               ) -> tuple[Action, str, float | None, float | None]:
        """Record a fault; the policy forgives it (a replacement move) or the seat forfeits."""
        clock = self.clocks[index]
        if fault.kind in (FaultKind.TIMEOUT, FaultKind.ILLEGAL):  # an answer (or the wait) that took time
            clock.add(fault.elapsed_ms or 0.0, cpu_ms)
        clock.strikes += 1
        if self.policy.forgives(fault.kind, clock.strikes):
            self._record_fault(index, fault)
            self.seats[index].warn(fault, f"strike {clock.strikes} of {self.policy.strikes}; replaced by a draw")
            return replacement_action(legal), "replacement", None, None
        self._lose(index, fault)
        return fallback_action(legal), "fallback", None, None

    def _lose(self, index: int, fault: Fault) -> None:
        """The seat forfeits the game: it is placed last and the fallback plays it from now on."""
        self._record_fault(index, fault)
        seat = self.seats[index]
        seat.forfeit(fault)
        self.forfeited.add(index)
        self.seats[index] = ForfeitedSeat(seat)

    def _finish(self, t0: float) -> GameResult:
        game = self.game
        outcome = game.outcome
        assert outcome is not None
        engine_places = list(outcome.placements)
        final = _final_placements(engine_places, self.forfeited)
        self.end_patch.update({"placements": final, "forfeited": sorted(self.forfeited),
                               "game_placements": engine_places})
        for index, seat in enumerate(self.seats):
            if isinstance(seat, BotSeat):  # noqa: SIM114 - the same call, made natively
                seat.finish(self, index)
            elif not isinstance(seat, BuiltinSeat):  # a built-in seat has nothing left to tell
                seat.finish(self, index)
        sandbox: list[str | None] = []
        clock: list[str | None] = []
        for seat in self.seats:
            if isinstance(seat, BuiltinSeat):  # natively (see ``_turn``)
                sandbox.append(seat.sandbox)
                clock.append(seat.clock)
                continue
            sandbox.append(seat.sandbox)
            clock.append(getattr(seat, "clock", None))
        notes = self._notes()
        result = GameResult(
            game=self.game_id, seed=self.seed, ruleset=self.ruleset.house, options=ruleset_options(self.ruleset),
            seating=tuple(self.names), placements=tuple(final), game_placements=outcome.placements,
            reason=outcome.reason.value, winner=outcome.winner, scores=outcome.scores, hand_points=outcome.points,
            rounds=outcome.rounds, decisions=len(self.actions), moves=game.move, faults=tuple(self.faults),
            forfeited=tuple(sorted(self.forfeited)), times=_seat_times(self.clocks),
            wall_ms=round((time.monotonic() - t0) * 1000, 3),
            actions=_encode(self.actions, self.stand_ins) if self.keep_actions else "",
            sandbox=tuple(sandbox), clock=tuple(clock), hidden_names=self.hide_names, notes=notes)
        if self.recorder is not None:
            self.recorder.ended(game.events, result)
        return result

    def _notes(self) -> GameNotes | None:
        """What the bots wrote in the game (stderr, log messages) by turn; ``None`` when none wrote anything."""
        taken: list[tuple[int, NoteTaker]] = []
        for index, seat in enumerate(self.seats):
            if isinstance(seat, ForfeitedSeat):
                seat = seat.lost
            if isinstance(seat, BotSeat) and seat.noted is not None and (seat.noted.entries or seat.noted.dropped):
                taken.append((index, seat.noted))
        return GameNotes.of(self.game_id, taken) if taken else None

    # ------------------------------------------------------------------ the record
    def _record_start(self) -> None:
        if self.recorder is not None:
            head = {"t": "game", "game": self.game_id, "seed": self.seed, "seating": self.names,
                    "ruleset": self.ruleset.house, "options": ruleset_options(self.ruleset),
                    "policy": self.policy.to_json()}
            if self.hide_names:
                head["seat_names"] = "hidden"
            self.recorder.add(head)

    def _record_fault(self, index: int, fault: Fault) -> None:
        fault = fault.with_context(seat=index, bot=self.names[index])
        self.faults.append(fault)
        if self.recorder is not None:
            self.recorder.add({"t": "fault", **fault.to_json()})

    def _record_action(self, index: int, action: Action, by: str, ms: float | None, cpu_ms: float | None) -> None:
        stand_in = by in ("replacement", "fallback")
        if stand_in:
            self.stand_ins.append(len(self.actions))
        self.actions.append(action)
        if self.follow is not None:
            self.follow(code_of(action) + STAND_IN if stand_in else code_of(action))
        if self.recorder is not None:
            self.recorder.action(index, action, by, ms, cpu_ms)


def seat_for(spec: BotSpec, pool: BotPool) -> Seat:
    """A table seat for ``spec``: a built-in player, or the pool's process for the bot."""
    if spec.builtin is not None:
        return BuiltinSeat(spec)
    return BotSeat(pool.client(spec))


def play_game(ruleset: Ruleset, seats: list[Seat], seed: int, game_id: str = "g1",
              policy: FaultPolicy = FaultPolicy(), recorder: Recorder | None = None) -> GameResultJson:
    """Play one game to its end; its result as plain data (``GameResult.to_json``)."""
    return Table(ruleset, seats, seed, game_id, policy, recorder).play().to_json()


#: ``SeatTimes.zero(n)`` by the number of seats: a game of built-in players times no answer.
_UNTIMED: Final[dict[int, SeatTimes]] = {}


def _seat_times(clocks: list[_SeatClock]) -> SeatTimes:
    """``SeatTimes.of(clocks)``, its tuples made here (compiled: ``of`` is interpreted, a thousand instructions a
    decision in short games); when no answer was timed (built-in players), the shared all-zero one."""
    for clock in clocks:
        if clock.decisions:  # a CPU time is only ever read with a wall time (``_SeatClock.add``)
            return _timed(clocks)
    n = len(clocks)
    zero = _UNTIMED.get(n)
    if zero is None:
        zero = _UNTIMED[n] = SeatTimes.zero(n)
    return zero


def _timed(clocks: list[_SeatClock]) -> SeatTimes:
    """``SeatTimes.of(clocks)`` (tests/run/test_job_reuse.py compares them)."""
    walls = (tuple([c.decisions for c in clocks]), tuple([round(c.total_ms, 3) for c in clocks]),
             tuple([round(c.max_ms, 3) for c in clocks]))
    for clock in clocks:
        if clock.cpu_decisions:
            return SeatTimes(*walls, tuple([c.cpu_decisions for c in clocks]),
                             tuple([round(c.cpu_total_ms, 3) for c in clocks]),
                             tuple([round(c.cpu_max_ms, 3) for c in clocks]))
    return SeatTimes(*walls)


def _encode(actions: list[Action], stand_ins: list[int]) -> str:
    """``encode_actions``: each code looked up in the replay's cache by the action's identity (see
    ``replay.ACTION_CODES``); compiled, this loop costs little next to the interpreted one."""
    if stand_ins:
        return encode_actions(actions, stand_ins)
    codes = ACTION_CODES
    out: list[str] = []
    for action in actions:
        known = codes.get(id(action))
        out.append(known[1] if known is not None and known[0] is action else code_of(action))
    return " ".join(out)


def _final_placements(places: list[int], forfeited: set[int]) -> list[int]:
    """Forfeited seats are placed after every other seat; the rest keep their order from the game."""
    if not forfeited:
        return places
    # Game places run 1..6, so 100 sorts every forfeited seat after them (sharing the last place).
    return placements([100 if s in forfeited else p for s, p in enumerate(places)], lower_is_better=True)


def _request_id(fault: Fault) -> int | None:
    return cast("int | None", (fault.request or {}).get("id"))  # the referee's own request: its id is an int
