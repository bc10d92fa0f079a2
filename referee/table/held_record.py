"""A game record held as given and written out only when kept: the record of a bot's game that no one asked for.

A game with a bot process in it is recorded in case it faults (its exact bytes are then kept, see
``GameJob.faults_only``); most games do not, and their record is thrown away. Made line by line, it took
a quarter (pure) to two fifths (compiled) of the referee's time a decision (a dict per message, the bytes
decoded and split, each action's wire form; bench/README.md, issue 51). Here each message, action and the
game's end is held as the objects the table already has, and the lines are made from them by the same
functions, only when asked.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Final

from referee.engine.actions import Action
from referee.engine.events import Event
from referee.store.results import GameResult
from referee.table.table import Recorder, action_entry, message_entries, result_entry

#: What a held item is (its first field).
_LINE: Final = 0
_MESSAGE: Final = 1
_ACTION: Final = 2
_END: Final = 3


@dataclass
class HeldRecorder(Recorder):
    """A ``Recorder`` whose ``written()`` lines equal a ``Recorder``'s, made when asked, not as the game is played.

    Its ``lines`` stay empty until ``written()``; nothing may follow the record as it is written (``lastcard
    play`` does, with a plain ``Recorder``).
    """

    held: list[tuple[int, Any, Any, Any, Any, Any]] = field(default_factory=list)
    """What the record is made of, in order: a line, a message, an action or the game's end, with their objects."""

    def add(self, entry: dict[str, Any]) -> None:
        self.held.append((_LINE, entry, None, None, None, None))

    def messages_of(self, seat: int) -> Any:
        held = self.held
        t0 = time.monotonic()

        def rec(direction: str, data: bytes, _ms: float | None) -> None:
            held.append((_MESSAGE, seat, direction, t0, time.monotonic(), data))
        return rec

    def action(self, seat: int, action: Action, by: str, ms: float | None, cpu_ms: float | None) -> None:
        self.held.append((_ACTION, seat, action, by, ms, cpu_ms))

    def ended(self, events: list[Event], result: GameResult) -> None:
        self.held.append((_END, events, result, None, None, None))

    def written(self) -> list[dict[str, Any]]:
        """The record's lines, made from what was held (once: the held items are then let go)."""
        lines = self.lines
        for kind, a, b, c, d, e in self.held:
            if kind == _MESSAGE:
                lines.extend(message_entries(a, b, c, d, e))
            elif kind == _ACTION:
                lines.append(action_entry(a, b, c, d, e))
            elif kind == _END:
                lines.append({"t": "events", "events": a})
                lines.append(result_entry(b))
            else:
                lines.append(a)
        self.held = []
        return lines
