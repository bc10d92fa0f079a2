"""What one seat's bot was sent in a stored game, line for line: from its record, or rebuilt by the referee.

``seat_script`` is the one place that answers "which bytes did seat N read in game G". Where the game
was recorded (``records/G.jsonl``) they are the recorded lines. Where it was not, the game is played
again through the referee's own ``Table`` with seats that make the stored moves and the stored faults,
and the seat's lines are built as ``BotSeat`` builds them (``scripted``: ``Relay`` for the events,
``turn_line`` for the requests, the same ``error`` lines after a fault), so they are the same bytes but
for two things a results line does not keep: request ids count from ``first_id`` (a fresh process's 1;
a process that played earlier games had higher ones) and the clock fields show the seat's full time bank.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Mapping, Sequence, cast

from referee.bots.spec import TimeLimits
from referee.engine.actions import Action, InvalidActionError
from referee.engine.notation import InvalidReplayError, walk
from referee.protocol.messages import TurnMessage, seat_label
from referee.protocol.wire import loads
from referee.replay.record import read_record
from referee.replay.scripted import hidden_names, play_again
from referee.store.game_source import SourceGame
from referee.store.record_file import RecordEntry, game_in_file
from referee.store.results_dir import ResultsDir
from referee.table.policy import FaultPolicy


@dataclass(frozen=True, slots=True)
class SeatRequest:
    """One request the seat got: the lines before it, the request line itself and what was played."""

    number: int
    """1 for the seat's first request of the game."""
    turn: int
    """The game's action index (how ``replay --seat`` numbers turns)."""
    request_id: int
    before: bytes
    """The information lines (start, events, errors) delivered in the same write, ahead of the request."""
    line: bytes
    action: Action
    """The stored action taken at this turn (a stand-in after a fault, when ``stand_in``)."""
    stand_in: bool
    legal: tuple[Action, ...]

    @property
    def request(self) -> TurnMessage:
        """The request as the bot read it."""
        return cast(TurnMessage, loads(self.line))

    def judge(self, answer: Mapping[str, object]) -> Action | None:
        """The action an answer names if it is legal here, else ``None``."""
        try:
            action = Action.from_wire(answer)
        except (InvalidActionError, KeyError, TypeError, ValueError):
            return None
        key = action.key
        return next((a for a in self.legal if a.key == key), None)


@dataclass(frozen=True, slots=True)
class SeatScript:
    """Every line a seat was sent in one game (the hello aside, which starting a bot sends), in order."""

    game: str
    seat: int
    name: str
    requests: tuple[SeatRequest, ...]
    tail: bytes
    """What came after the last request (the game's end), for a bot still listening."""
    recorded: bool
    """``True``: the bytes are the record's; ``False``: rebuilt (ids from 1, full clocks)."""
    hello: bytes | None = None
    """The recorded ``hello`` where the game was the process's first (records only)."""
    hidden: bool = False
    """The seats were told by neutral labels, not names (``seat_names: hidden``): a bot asked again is too."""

    @property
    def hello_name(self) -> str | None:
        """What a bot started to be asked this script is called in its ``hello`` (``None``: its own name)."""
        return seat_label(self.seat) if self.hidden else None

    def lines(self, upto: int | None = None) -> bytes:
        """The bytes the seat read up to and including request number ``upto`` (all of them: ``None``)."""
        parts: list[bytes] = []
        for req in self.requests:
            if upto is not None and req.number > upto:
                return b"".join(parts)
            parts += [req.before, req.line]
        return b"".join(parts + [self.tail])

    def at_turn(self, turn: int) -> SeatRequest:
        """The request at ``turn``; ``InvalidReplayError`` naming the seat's turns when it has none there."""
        for req in self.requests:
            if req.turn == turn:
                return req
        if not self.requests:
            raise InvalidReplayError(f"seat {self.seat} ({self.name}) was never asked for a move in game {self.game}")
        turns = [r.turn for r in self.requests]
        if turn > turns[-1]:
            raise InvalidReplayError(f"turn {turn} is past seat {self.seat}'s last request in game {self.game}: "
                                     f"its requests are at turns {_span(turns)} (last {turns[-1]})")
        near = min(turns, key=lambda t: abs(t - turn))
        raise InvalidReplayError(f"seat {self.seat} ({self.name}) was not asked at turn {turn} of game {self.game}: "
                                 f"its requests are at turns {_span(turns)} (the nearest is {near}); "
                                 f"`lastcard replay ... --seat {self.seat}` lists them")


def _span(turns: Sequence[int]) -> str:
    return ", ".join(map(str, turns)) if len(turns) <= 8 else f"{', '.join(map(str, turns[:6]))}, ..., {turns[-1]}"


def check_seat(source: SourceGame, seat: int) -> None:
    """``InvalidReplayError`` for a seat that is not at the stored game's table."""
    names = source.stored.seating
    if not 0 <= seat < len(names):
        raise InvalidReplayError(f"seat {seat} is not at the table of game {source.stored.game}: its seats are 0 to "
                                 f"{len(names) - 1} ({', '.join(names)})")


def seat_script(source: SourceGame, seat: int, *, limits: TimeLimits | None = None, policy: str | None = None,
                first_id: int = 1) -> SeatScript:
    """What ``seat`` was sent in the stored game: the recorded lines, else the referee's rebuild.

    ``limits`` (the seat's bot's, for the clock fields) and ``policy`` (for the error lines after a
    forgiven fault) matter only to a rebuild; ``first_id`` is the rebuilt first request's id.
    """
    check_seat(source, seat)
    record = recorded_lines(source)
    if record is not None and not _played_by_referee(record, seat):
        return from_record(source, record, seat)
    return rebuilt(source, seat, limits or TimeLimits(), FaultPolicy.parse(policy or stored_policy(source)),
                   first_id)


# ---------------------------------------------------------------------------------------- records
def record_entries(source: SourceGame) -> list[RecordEntry] | None:
    """The stored game's record entries (the record file named, or the run's kept record), or ``None``."""
    if source.events is not None and os.path.isfile(source.where):  # the source is a record file
        lines = game_in_file(source.where, source.stored.game)
        return lines if isinstance(lines, list) else None
    if source.out_dir is not None:
        return read_record(source.out_dir, source.stored.game)
    return None


def recorded_lines(source: SourceGame) -> list[RecordEntry] | None:
    """The stored game's record entries, or ``None`` where it was not recorded (or not with messages)."""
    lines = record_entries(source)
    if lines is None:
        return None
    if not any(entry.get("t") == "out" for entry in lines) and any(entry.get("by") == "bot" for entry in lines):
        return None  # a record without the messages: rebuild them
    return lines


def _played_by_referee(record: list[RecordEntry], seat: int) -> bool:
    """Whether a built-in (or a person) played the seat: nothing was sent to it, so its lines are rebuilt."""
    return any(entry.get("t") == "action" and entry.get("seat") == seat and entry.get("by") in ("builtin", "human")
               for entry in record)


def from_record(source: SourceGame, record: list[RecordEntry], seat: int) -> SeatScript:
    """The seat's lines as recorded, each request paired with the seat's next action in the record.

    A seat action with no request since the previous one was not asked (a forfeited seat, or a fault
    found before the request went out).
    """
    turns = {t[0]: t for t in _turns_of(source, seat)}
    requests: list[SeatRequest] = []
    pending: list[bytes] = []
    asked: tuple[int, bytes, bytes] | None = None  # request id, the lines before it, its line
    hello = None
    turn = 0
    for entry in record:
        kind = entry.get("t")
        if kind == "action":
            if entry.get("seat") == seat and asked is not None:
                request_id, before, data = asked
                _, action, stand_in, legal = turns[turn]
                requests.append(SeatRequest(len(requests) + 1, turn, request_id, before, data, action, stand_in, legal))
                asked = None
            turn += 1
            continue
        if kind != "out" or entry.get("seat") != seat:
            continue
        data = entry["line"].encode() + b"\n"
        msg = loads(data)
        if msg.get("type") == "hello":
            hello = data
        elif msg.get("type") == "turn":
            asked = (int(msg["id"]), b"".join(pending), data)
            pending = []
        else:
            pending.append(data)
    return SeatScript(source.stored.game, seat, source.stored.seating[seat], tuple(requests), b"".join(pending),
                      True, hello, hidden_names(source))


def _turns_of(source: SourceGame, seat: int) -> list[tuple[int, Action, bool, tuple[Action, ...]]]:
    """The seat's turns in order: (action index, stored action, stand-in?, the legal actions)."""
    return [(i, action, stand_in, tuple(game.legal_actions()))
            for i, game, action, stand_in in walk(source.stored) if action is not None and game.current == seat]


# ---------------------------------------------------------------------------------------- rebuilding
def stored_policy(source: SourceGame) -> str:
    """The fault policy the game was played under: its record's, its results', else ``forfeit``."""
    if "policy" in source.line:  # a line that carries its own (a rebuilt record's)
        return str(source.line["policy"])
    record = record_entries(source)
    if record is not None:
        head = next((entry for entry in record if entry.get("t") == "game"), None)
        if head is not None and head.get("policy"):
            return str(head["policy"])
    if source.out_dir is not None:
        results = ResultsDir(source.out_dir).read_results()
        policy = results.get("policy") if results else None
        if policy:
            return str(policy)
    return "forfeit"


def rebuilt(source: SourceGame, seat: int, limits: TimeLimits, policy: FaultPolicy, first_id: int = 1,
            stop: int | None = None) -> SeatScript:
    """The seat's lines built by the referee: the stored game played again through a ``Table``.

    ``stop``: play that many actions only (a suite's position: its last stored action is a stand-in for the answer).
    """
    stored = source.stored
    me = play_again(source, [limits] * len(stored.seating), policy, first_id, seat=seat, stop=stop)[seat]
    marked = set(i for i, token in enumerate(stored.actions.split()) if token.endswith("!"))
    requests = []
    start = 0
    for number, (turn, request_id, at, line, legal) in enumerate(me.requests, 1):
        requests.append(SeatRequest(number, turn, request_id, b"".join(me.out[start:at]), line, me.actions[turn],
                                    turn in marked, legal))
        start = at + 1
    return SeatScript(stored.game, seat, stored.seating[seat], tuple(requests), b"".join(me.out[start:]), False,
                      hidden=hidden_names(source))
