"""What each seat is told: the engine's events turned into the messages one seat may see.

The table and the checker both use ``Relay``: a seat's messages are built only when the seat is about
to be asked for a move (or the game ends), so the events of several moves travel in the same write as
the request that follows them, and a bot is woken once per turn of its own rather than once per move.
The order of the lines a bot reads is the same as if each event were sent as it happened.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .bots.messages import event_message, start_message
from .bots.wire import encode

if TYPE_CHECKING:
    from .game import Game

#: The referee's final word on placements, merged into ``game_end`` (forfeits move seats last).
EndPatch = dict[str, Any]


class PublicWire:
    """The encoded public copy of each event, made once per game and shared by every seat."""

    __slots__ = ("_lines",)

    def __init__(self) -> None:
        self._lines: dict[int, bytes] = {}

    def line(self, index: int, event: dict[str, Any]) -> bytes:
        data = self._lines.get(index)
        if data is None:
            data = self._lines[index] = encode({"type": "event", **event})
        return data


class Relay:
    """One seat's place in the event log: ``catch_up`` returns what it has not been told yet."""

    __slots__ = ("seat", "game_id", "names", "told", "_scores")

    def __init__(self, seat: int, game_id: str, names: list[str], *, told: int = 0,
                 scores: list[int] | None = None) -> None:
        self.seat = seat
        self.game_id = game_id
        self.names = names
        self.told = told
        # The scores the next round starts with: the game's start (given) or the last round_end's.
        self._scores = scores

    def catch_up(self, game: Game, wire: PublicWire | None = None, end: EndPatch | None = None) -> list[Any]:
        """The messages (dicts or encoded lines) for every event since the last call, in order."""
        events = game.events
        start, self.told = self.told, len(events)
        out: list[Any] = []
        seat = self.seat
        for index in range(start, len(events)):
            ev = events[index]
            kind = ev["kind"]
            if kind == "deal":
                # The start message carries the scores the round began with, which the round_end before it
                # states; a seat told late (after its own turnless round) must not see later scores.
                msg = start_message(game, ev, seat, self.game_id, self.names)
                if self._scores is not None:
                    msg["scores"] = list(self._scores)
                out.append(msg)
            elif kind == "game_end":
                out.append({**event_message(ev, seat), **(end or {})})
            elif kind == "round_end":
                self._scores = ev["scores"]
                out.append(event_message(ev, seat))
            elif "secret" in ev:
                out.append(event_message(ev, seat))
            elif wire is not None:
                out.append(wire.line(index, ev))
            else:
                out.append(encode({"type": "event", **ev}))
        return out

    def lines(self, game: Game, wire: PublicWire, end: EndPatch | None = None) -> bytes:
        """``catch_up`` encoded as the lines to write, in one piece (``b""`` when nothing is new)."""
        if self.told == len(game.events) and end is None:
            return b""
        return b"".join(m if m.__class__ is bytes else encode(m) for m in self.catch_up(game, wire, end))
