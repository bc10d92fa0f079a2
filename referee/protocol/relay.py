"""What each seat is told: the engine's events turned into the messages one seat may see.

The table and the checker both use ``Relay``: a seat's messages are built only when the seat is about
to be asked for a move (or the game ends), so the events of several moves travel in the same write as
the request that follows them, and a bot is woken once per turn of its own rather than once per move.
The order of the lines a bot reads is the same as if each event were sent as it happened.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Mapping, TypedDict

import orjson

from referee.engine.game import event_for
from referee.protocol.messages import event_message, start_message

if TYPE_CHECKING:
    from referee.engine.events import DealEvent, Event
    from referee.engine.game import Game
    from referee.protocol.messages import StartMessage



class EndPatch(TypedDict, total=False):
    """The referee's final word on placements, merged into ``game_end`` (forfeits move seats last)."""

    placements: list[int]
    forfeited: list[int]
    game_placements: list[int]

#: orjson's ``dumps`` (``wire.dumps``), read directly: compiled, an imported name is a look-up in the module's
#: dict at each use, and ``wire.encode`` an interpreted call; a game's own events are encoded here.
_dumps: Final = orjson.dumps


def _line(msg: object) -> bytes:
    """``wire.encode``, compiled: one protocol line, newline included."""
    return _dumps(msg) + b"\n"


class PublicWire:
    """The encoded public copy of each event, made once per game and shared by every seat.

    ``sync`` encodes the events added since the last call; ``seat_bound`` lists (in order) the events
    a seat's catch-up must look at (a deal, a draw's secret cards, a round's end, whose scores the next
    deal states, and the game's end, with the referee's placements), so a seat's catch-up is a few
    slices of shared lines joined, not a message built per event per seat. Only a deal and a drawer's
    own draw are encoded per seat: a round's end is the same line for every seat, and so is the game's
    end for the same placements (``end_line``).
    """

    __slots__ = ("chunks", "seat_bound", "secrets", "_end_key", "_end_line", "_deal_at", "_deal_for", "_deal_head",
                 "_deal_mid")

    def __init__(self) -> None:
        #: The public line of each event (``b""`` for one that is never sent as is).
        self.chunks: list[bytes] = []
        #: The indices of the events whose message depends on the seat, ascending.
        self.seat_bound: list[int] = []
        #: Beside each of ``seat_bound``: the event's ``secret`` when the public line serves every seat it does not
        #: name (a draw), ``None`` for a deal, a round's end and the game's end.
        self.secrets: list[Mapping[int, object] | None] = []
        # The last game_end line made, and the event and placements (encoded) it was made for.
        self._end_key: tuple[int, bytes] | None = None
        self._end_line = b""
        # The parts of a deal's ``start`` message every seat reads alike (event ``_deal_at``): the fields before
        # ``you``, and ``top`` to ``direction``.
        self._deal_at = -1
        self._deal_for: tuple[str, list[str]] | None = None  # the game id and names it was made with
        self._deal_head = b""
        self._deal_mid = b""

    def sync(self, events: list[Event]) -> list[bytes]:
        """Encode the events not seen yet; the lines of every event so far."""
        chunks = self.chunks
        for index in range(len(chunks), len(events)):
            told = _told(events[index])
            if told.bound:
                self.seat_bound.append(index)
                self.secrets.append(told.secret)
            chunks.append(told.line)
        return chunks

    def end_line(self, index: int, ev: Event, end: EndPatch | None) -> bytes:
        """The ``game_end`` line (event ``index``) with the referee's ``end`` merged in: the same for every
        seat told with the same ``end``, so made once (``end`` is compared by its encoding, not its identity)."""
        key = (index, _dumps(end) if end else b"")
        if key != self._end_key:
            self._end_line = _line({**event_message(ev, None), **(end or {})})
            self._end_key = key
        return self._end_line


    def start_line(self, index: int, game: Game, ev: DealEvent, seat: int, game_id: str, names: list[str],
                   scores: list[int]) -> bytes:
        """``messages.start_message`` for seat ``seat`` (with ``scores``) encoded: the fields every seat reads alike
        encoded once per deal, the seat's own (``you``, ``hand``, ``scores``) joined between them."""
        made = self._deal_for
        if index != self._deal_at or made is None or made[1] is not names or made[0] != game_id:
            whole = _dumps(start_message(game, ev, seat, game_id, names))
            # Found in order: no key or string before them can hold these (a string's quotes are escaped).
            you = whole.index(b',"you":')
            top = whole.index(b',"top":', you)
            self._deal_head = whole[:you]
            self._deal_mid = whole[top:whole.index(b',"scores":', top)]
            self._deal_at = index
            self._deal_for = (game_id, names)
        return b"".join([self._deal_head, b',"you":', str(seat).encode(), b',"dealer":', str(ev["dealer"]).encode(),
                         b',"hand":', _dumps(ev["secret"][seat]["hand"]), self._deal_mid, b',"scores":',
                         _dumps(scores), b"}\n"])


class _Told:
    """What a seat's catch-up needs of an event, made once: its public line, and whether the seat changes it."""

    __slots__ = ("event", "line", "bound", "secret")

    def __init__(self, event: Event, line: bytes, bound: bool, secret: Mapping[int, object] | None) -> None:
        self.event = event  # kept, so that its id stays its own while cached
        #: The public line (``b""`` for a deal and the game's end, never sent as is).
        self.line = line
        #: Whether the message depends on the seat (``PublicWire.seat_bound``).
        self.bound = bound
        #: A draw's secret cards by seat (``None``: no secret, or a deal's, a round's or the game's end).
        self.secret = secret


#: What each recurring event seen says, by ``id(event)``, and the drawer's own line of a one-card draw by
#: ``id(event) * 8 + seat``, the event kept beside. The engine shares its recurring events between games
#: (``game._SeatEvents``), so most lines are made once per process, not once per game; events are read-only.
#: An event of one game (a deal, a penalty, a round's end) is encoded once by its game's ``PublicWire`` and not
#: kept here: it would never be looked up again, and keeping it kept it from the collector's young objects.
_TOLD: Final[dict[int, _Told]] = {}
_OWN_LINES: Final[dict[int, tuple[Event, bytes]]] = {}
#: A bound on each (events made per game, a deal's or a penalty's, come and go).
_LINES_MAX: Final = 4096


def _told(ev: Event) -> _Told:
    key = id(ev)
    hit = _TOLD.get(key)
    if hit is not None:
        return hit
    kind = ev["kind"]
    secret = ev.get("secret")
    if kind in _SEAT_KINDS:
        # A round's end has no secret: one line for every seat (the relay reads its scores).
        told = _Told(ev, _line(event_message(ev, None)) if kind == "round_end" else b"", True, None)
    elif isinstance(secret, dict):  # the public copy serves every seat but those the secret names
        told = _Told(ev, _EVENT_HEAD + _dumps(event_for(ev, None))[1:] + b"\n", True, secret)
    else:  # {"type":"event", **ev}, without copying the event
        told = _Told(ev, _EVENT_HEAD + _dumps(ev)[1:] + b"\n", False, None)
    if _recurs(ev):
        if len(_TOLD) >= _LINES_MAX:
            _TOLD.clear()
        _TOLD[key] = told
    return told


def _recurs(ev: Event) -> bool:
    """Whether ``ev`` is of the kinds the engine shares between games (``game._SeatEvents``, one Reverse): worth
    keeping its line. A wrong answer costs time, never a byte: an event not kept is encoded again if seen again."""
    if ev["kind"] == "draw":
        return ev["count"] == 1 and ev["reason"] == "turn"
    if ev["kind"] == "play":
        return len(ev["cards"]) == 1
    if ev["kind"] == "reverse":
        return ev["count"] == 1
    return ev["kind"] in _SHARED_KINDS


def public_line(ev: Event) -> bytes:
    """The line a seat that the event holds no secret for reads (an event no seat's own message replaces)."""
    return _told(ev).line


def own_line(ev: Event, seat: int) -> bytes:
    """The line of an event (a draw) for the seat its secret is for: the event with the seat's secret merged."""
    key = (id(ev) << 3) | seat  # seats are 0 to 5; a shift, not `* 8`: see BuiltinSeat.begin in table.py
    hit = _OWN_LINES.get(key)
    if hit is not None:
        return hit[1]
    line = _EVENT_HEAD + _dumps(event_for(ev, seat))[1:] + b"\n"
    if _recurs(ev):
        if len(_OWN_LINES) >= _LINES_MAX:
            _OWN_LINES.clear()
        _OWN_LINES[key] = (ev, line)
    return line


_EVENT_HEAD: Final = b'{"type":"event",'
#: Events whose message is built for each seat (and, for a round's end, updates its scores).
_SEAT_KINDS: Final = frozenset({"deal", "round_end", "game_end"})
#: Events the engine always shares between games (the rest: ``_recurs``).
_SHARED_KINDS: Final = frozenset({"skip", "pass", "colour", "call"})


class Relay:
    """One seat's place in the event log: ``catch_up`` returns what it has not been told yet."""

    __slots__ = ("seat", "game_id", "names", "told", "_scores", "_bound_at")

    def __init__(self, seat: int, game_id: str, names: list[str], *, told: int = 0,
                 scores: list[int] | None = None) -> None:
        self.seat = seat
        self.game_id = game_id
        self.names = names
        self.told = told
        # The scores the next round starts with: the game's start (given) or the last round_end's.
        self._scores = scores
        # Where ``lines`` looks in ``PublicWire.seat_bound`` next: every seat-bound event before it is told.
        self._bound_at = 0

    def catch_up(self, game: Game, wire: PublicWire | None = None,
                 end: EndPatch | None = None) -> list[Mapping[str, object] | bytes]:
        """The messages (dicts or encoded lines) for every event since the last call, in order."""
        events = game.events
        start, self.told = self.told, len(events)
        chunks = wire.sync(events) if wire is not None else None
        out: list[Mapping[str, object] | bytes] = []
        for index in range(start, len(events)):
            ev = events[index]
            msg = self._own(game, ev, end)
            if msg is not None:
                out.append(msg)
            elif chunks is not None:
                out.append(chunks[index])
            else:
                out.append(public_line(ev))
        return out

    def lines(self, game: Game, wire: PublicWire, end: EndPatch | None = None) -> bytes:
        """``catch_up`` encoded as the lines to write, in one piece (``b""`` when nothing is new)."""
        out: list[bytes] = []
        self.gather(out, game, wire, end)
        return out[0] if len(out) == 1 else b"".join(out)

    def gather(self, out: list[bytes], game: Game, wire: PublicWire, end: EndPatch | None = None) -> None:
        """``lines``, appended to ``out`` in pieces (a caller that writes more after them joins everything once)."""
        events = game.events
        stop = len(events)
        start = self.told
        if start == stop:
            return
        chunks = wire.sync(events)
        bound = wire.seat_bound
        self.told = stop
        # The first seat-bound event from ``start`` on: kept from the last call (``told`` only grows), not searched.
        at = self._bound_at
        count = len(bound)
        while at < count and bound[at] < start:
            at += 1
        if at == count or bound[at] >= stop:  # the usual case: public events only
            self._bound_at = at
            out.extend(chunks[start:stop])
            return
        secrets = wire.secrets
        seat = self.seat
        pos = start
        while at < count:
            index = bound[at]
            if index >= stop:
                break
            secret = secrets[at]
            at += 1
            if secret is not None and not secret.get(seat):  # another seat's draw: the public line, in the run
                continue
            out.extend(chunks[pos:index])
            out.append(self._own_line(game, wire, index, end))
            pos = index + 1
        self._bound_at = at
        out.extend(chunks[pos:stop])

    def _own_line(self, game: Game, wire: PublicWire, index: int, end: EndPatch | None) -> bytes:
        """The line this seat reads for seat-bound event ``index``: shared where the seat adds nothing."""
        ev = game.events[index]
        if ev["kind"] == "round_end":
            self._scores = ev["scores"]
            return wire.chunks[index]
        if ev["kind"] == "game_end":
            return wire.end_line(index, ev, end)
        if ev["kind"] == "deal":
            # The start message carries the scores the round began with (``_deal``).
            scores = self._scores if self._scores is not None else game.scores
            return wire.start_line(index, game, ev, self.seat, self.game_id, self.names, scores)
        secret = ev.get("secret")
        if isinstance(secret, dict) and secret.get(self.seat):  # the drawer: the draw with its cards
            return own_line(ev, self.seat)
        return wire.chunks[index]

    def _deal(self, game: Game, ev: DealEvent) -> StartMessage:
        """This seat's ``start`` message for a deal."""
        # The start message carries the scores the round began with, which the round_end before it
        # states; a seat told late (after its own turnless round) must not see later scores.
        msg = start_message(game, ev, self.seat, self.game_id, self.names)
        if self._scores is not None:
            msg["scores"] = list(self._scores)
        return msg

    def _own(self, game: Game, ev: Event, end: EndPatch | None) -> Mapping[str, object] | None:
        """The message this seat gets for ``ev`` when it is not the public one; ``None`` when it is."""
        # ``ev["kind"]`` each time, not a local: it is what tells the type checker which event this is.
        if ev["kind"] == "deal":
            return self._deal(game, ev)
        if ev["kind"] == "game_end":
            return {**event_message(ev, self.seat), **(end or {})}
        if ev["kind"] == "round_end":
            self._scores = ev["scores"]
            return event_message(ev, self.seat)
        secret = ev.get("secret")
        if isinstance(secret, dict) and secret.get(self.seat):  # a draw's cards (a deal's hands are above)
            return event_message(ev, self.seat)
        return None
