"""A stored game played again through the referee's own ``Table``: the one rebuilder of what seats were sent.

Each seat is a ``ScriptedSeat`` that makes the stored moves and commits the stored faults, and writes
what a bot in it would have read, as ``table.BotSeat`` writes it: the news before each request in the
same write, the ``error`` line after a fault, nothing more once the referee stopped the bot. One seat's
lines (``seat_lines.rebuilt``) and a whole game's record (``record.rebuilt_record``) both come from here.
"""

from __future__ import annotations

from typing import Collection, Sequence

from referee.bots.spec import TimeLimits
from referee.engine.actions import Action
from referee.engine.game import Game
from referee.engine.notation import InvalidReplayError, decode_actions, ruleset_of
from referee.protocol.faults import KILL_KINDS, BotFault, Fault, FaultKind
from referee.protocol.relay import Relay
from referee.protocol.turns import turn_line
from referee.protocol.wire import encode, loads
from referee.replay.locate import turn_of_faults
from referee.store.game_source import SourceGame
from referee.table.policy import FaultPolicy
from referee.table.table import Recorder, Seat, Table


class ScriptedSeat:
    """A seat that makes the stored moves and faults, writing what a bot in it would have been sent.

    It mirrors ``table.BotSeat`` line for line; the byte-for-byte tests against records keep the two in
    step. A seat that does not ``speak`` (a built-in player's, in a record) only plays its moves.
    """

    sandbox: str | None = None
    clock: str | None = None

    def __init__(self, name: str, actions: Sequence[Action], faults: dict[int, Fault], startup: Fault | None,
                 limits: TimeLimits, first_id: int, *, speaks: bool = True, record: Recorder | None = None) -> None:
        self.name = name
        self.by = "bot" if speaks else "builtin"
        self.actions = actions
        self.faults = faults
        self.startup = startup
        self.limits = limits
        self.next_id = first_id
        self.speaks = speaks
        self.record = record
        """Where the seat's lines go as ``out`` entries too, in the table's order (a whole game's record)."""
        self.index = 0
        self.relay: Relay | None = None
        self.listening = True
        self.out: list[bytes] = []
        # turn, id, index into out, line, legal
        self.requests: list[tuple[int, int, int, bytes, tuple[Action, ...]]] = []

    def begin(self, table: Table, index: int) -> None:
        self.index = index
        if self.speaks:
            self.relay = Relay(index, table.game_id, table.told_names, scores=[0] * len(table.names))
        if self.startup is not None:
            raise BotFault(self.startup)

    def decide(self, table: Table, index: int, legal: list[Action]) -> tuple[Action, float | None]:
        turn = len(table.actions)
        if self.relay is None:  # a silent seat still commits its faults: the stand-ins must come out the same
            if turn in self.faults:
                raise BotFault(self.faults[turn])
            return self.actions[turn], None
        news = self.relay.lines(table.game, table.wire)
        request_id, self.next_id = self.next_id, self.next_id + 1
        bank = self.limits.bank_ms
        line, _ = turn_line(table.game, index, legal, request_id, int(self.limits.move_ms + bank), int(bank))
        fault = self.faults.get(turn)
        # An answer waiting before the request went out: the client refused it unsent, news and all.
        if fault is None or not _unsent(fault):
            self._send(news)
            self.requests.append((turn, request_id, len(self.out), line, tuple(legal)))
            self._send(line)
        if fault is not None:
            raise BotFault(Fault(fault.kind, fault.message, fault.line, loads(line), fault.elapsed_ms))
        return self.actions[turn], None

    def warn(self, fault: Fault, note: str) -> None:
        self._error(fault, f"{fault.message} ({note})")

    def forfeit(self, fault: Fault) -> None:
        if fault.kind not in (FaultKind.CRASH, FaultKind.STARTUP):  # a dead process is told nothing
            self._error(fault, fault.message)
        if fault.kind in KILL_KINDS:  # the referee stopped the bot: it is told nothing more
            self.listening = False

    def finish(self, table: Table, index: int) -> None:
        if self.listening and self.relay is not None:
            self._send(self.relay.lines(table.game, table.wire, table.end_patch))

    def _error(self, fault: Fault, message: str) -> None:
        if not self.speaks:
            return
        msg: dict[str, object] = {"type": "error", "fault": fault.kind.value, "message": message}
        request_id = (fault.request or {}).get("id")
        if request_id is not None:
            msg["request_id"] = request_id
        self._send(encode(msg))

    def _send(self, data: bytes) -> None:
        self.out.append(data)
        if self.record is not None and data:
            for text in data.decode("utf-8", "replace").rstrip("\n").split("\n"):
                self.record.add({"t": "out", "seat": self.index, "line": text})


def _unsent(fault: Fault) -> bool:
    """Whether the client found the fault before writing the request (``BotClient._unasked``): the bot
    had written an answer, or a stray line, before it was asked, so the request was never sent."""
    return fault.kind is FaultKind.EARLY or (fault.kind in (FaultKind.STALE_ID, FaultKind.MISSING_ID)
                                             and "before" in fault.message and "was sent" in fault.message)


def play_again(source: SourceGame, limits: Sequence[TimeLimits], policy: FaultPolicy, first_id: int = 1, *,
               speaking: Collection[int] | None = None, record: Recorder | None = None, seat: int | None = None,
               stop: int | None = None) -> list[ScriptedSeat]:
    """The stored game played again through a ``Table``, each seat scripted; its seats, with what they wrote.

    ``limits``: each seat's (the clock fields of its requests); ``speaking``: the seats whose lines are built
    (all: ``None``); ``record``: the table's record of it, the seats' ``out`` lines included; ``seat``: the one
    seat asked about, for the message; ``stop``: play only that many actions and leave the game unfinished (a
    position of a suite, whose stored actions end at its turn). Raises ``InvalidReplayError`` when the stored
    faults do not give back the stored game.
    """
    stored = source.stored
    actions = decode_actions(stored.actions)
    by_seat, startup = _faults_by_seat(source)
    seats = [ScriptedSeat(name, actions, by_seat[i], startup[i], limits[i], first_id,
                          speaks=speaking is None or i in speaking, record=record)
             for i, name in enumerate(stored.seating)]
    table = Table(ruleset_of(stored), list[Seat](seats), stored.seed, stored.game, policy, record,
                  hide_names=hidden_names(source))
    game: Game = table.start()
    while not game.over and (stop is None or len(table.actions) < stop):
        if len(table.actions) >= len(actions):
            raise InvalidReplayError(f"game {stored.game}: the stored actions end before the game does")
        table.step()
    if stop is None:
        table.finish()
    if table.actions != actions[:len(table.actions)] or (stop is None and len(table.actions) != len(actions)):
        at = next((i for i, (a, b) in enumerate(zip(table.actions, actions)) if a != b), len(table.actions))
        whose = "the seats'" if seat is None else f"seat {seat}'s"
        raise InvalidReplayError(f"game {stored.game}: rebuilding {whose} messages gave another game from "
                                 f"action {at} on (the stored faults do not line up with the stand-in moves)")
    return seats


def hidden_names(source: SourceGame) -> bool:
    """Whether the stored game's bots were told neutral seat labels instead of names (``seat_names: hidden``)."""
    return source.line.get("seat_names") == "hidden"


def _faults_by_seat(source: SourceGame) -> tuple[list[dict[int, Fault]], list[Fault | None]]:
    """The stored faults as each seat commits them again: by turn, and the failed start apart."""
    seating = source.stored.seating
    by_seat: list[dict[int, Fault]] = [{} for _ in seating]
    startup: list[Fault | None] = [None] * len(seating)
    for fault, turn in zip(source.faults, turn_of_faults(source)):
        value = Fault(fault.kind, fault.message, fault.line, None, fault.elapsed_ms)
        who = fault.seat
        if not isinstance(who, int) or not 0 <= who < len(seating):
            continue
        if fault.kind is FaultKind.STARTUP:
            startup[who] = value
        elif turn is not None:
            by_seat[who][turn] = value
    return by_seat, startup
