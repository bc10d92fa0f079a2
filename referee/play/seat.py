"""A person at the table through their browser: a seat of the same ``Table`` as every game, as ``table/human.py``
is in the terminal.

The seat is told what a bot in its place is told (the referee's ``Relay``), said in sentences for the page's log;
what the page shows of the table is made here, in the table's thread, from the person's own hand and what every
seat sees (counts, the top card, the colour). At its turn it hands the desk the legal moves the referee listed,
grouped as the terminal's menu groups them (a Wild once, its colour asked after), and plays the one chosen.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any, Mapping

from referee.engine.actions import COLOUR, DRAW, PASS, Action
from referee.engine.cardfaces import label
from referee.engine.describe import cards_text, describe_event
from referee.play.desk import Desk, Option, Question
from referee.protocol.faults import Fault
from referee.protocol.relay import EndPatch, Relay
from referee.table.human import forced_reason, menu

if TYPE_CHECKING:
    from referee.engine.game import Game
    from referee.table.table import Table

#: The page's log keeps this many sentences (the game's whole story is in the replay viewer afterwards).
LOG_KEEP = 400


def options(legal: list[Action]) -> tuple[Option, ...]:
    """The legal actions as the page lists them (``table.human.menu``'s grouping, without terminal colours; the
    colours of a Wild, or of an opening Wild's colour answer, are asked after)."""
    out = []
    for choice in menu(legal, styled=False):
        first = choice.forms[0]
        text = "name the colour" if first.kind is COLOUR and len(choice.forms) > 1 else choice.text
        out.append(Option(text, first.kind.value, tuple(c.code for c in first.cards), choice.forms))
    return tuple(out)


def situation(game: Game) -> str | None:
    """What the person must know about their turn beyond the moves listed, in a sentence (or None)."""
    if game.phase == "drawn" and game.drawn is not None:
        return f"You drew {label(game.drawn)}: play it now, or keep it and pass."
    if game.phase == "colour":
        return f"The round opened on {label(game.top)}: you name its colour, then take your turn."
    if game.pending:
        return f"A penalty of {game.pending} cards is waiting for you: answer it, or draw them."
    return None


class BrowserSeat:
    """A person at the table, through ``desk`` (the server's side of it is ``play.server``)."""

    by = "human"
    sandbox: str | None = None  # a person is not a process
    clock: str | None = None

    def __init__(self, name: str, desk: Desk, header: Mapping[str, Any], *, pace: float = 0.0) -> None:
        """``header``: what the page shows all game (the rules, the seed, the cards' colours and marks); ``pace``:
        seconds the page is given to show each other seat's move before the next is played."""
        self.name = name
        self.desk = desk
        self.header = dict(header)
        self.pace = pace
        self.relay: Relay | None = None
        self._table: Table | None = None
        self._index = 0
        self._log: list[str] = []

    # ------------------------------------------------------------------ the Seat protocol
    def begin(self, table: Table, index: int) -> None:
        self.relay = Relay(index, table.game_id, table.names, scores=[0] * len(table.names))
        self._table = table
        self._index = index
        self._log.append(f"You are seat {index} ({self.name}) at a table of {len(table.names)}: "
                         + ", ".join(f"{i} {n}" for i, n in enumerate(table.names)))
        self.desk.show({**self.header, "phase": "waiting", "you": index, "log": self._log[-LOG_KEEP:]})

    def decide(self, table: Table, index: int, legal: list[Action]) -> tuple[Action, float | None]:
        self._catch_up(table)
        offered = options(legal)
        only = offered[0].forms[0] if len(offered) == 1 and offered[0].kind in (DRAW.value, PASS.value) else None
        reason = forced_reason(table.game, only) if only is not None else situation(table.game)
        state = self._state(table, "your_turn", reason)
        return self.desk.ask(Question(len(table.actions), offered), state), None

    def warn(self, fault: Fault, note: str) -> None:  # pragma: no cover - a person's answer is always legal
        pass

    def forfeit(self, fault: Fault) -> None:  # pragma: no cover
        pass

    def finish(self, table: Table, index: int) -> None:
        self._catch_up(table, table.end_patch)
        self.desk.show(self._state(table, "ended"))

    def follow(self, entry: Mapping[str, Any]) -> None:
        """A line of the game record as it is written: at each action (recorded before it is applied), the page
        is shown the table so far; another seat's move then waits ``pace`` seconds, so the person sees it."""
        table = self._table
        if entry.get("t") != "action" or table is None or getattr(table, "game", None) is None:
            return
        self._catch_up(table)
        self.desk.show(self._state(table, "waiting"))
        if self.pace and entry.get("seat") != self._index:
            time.sleep(self.pace)

    # ------------------------------------------------------------------ what the page is shown
    def _state(self, table: Table, phase: str, reason: str | None = None) -> dict[str, Any]:
        game = table.game
        index = self._index
        return {**self.header, "phase": phase, "you": index, "turn": len(table.actions),
                "to_act": None if game.over else game.current,
                "seats": [{"seat": s, "name": name, "cards": len(game.hands[s]), "score": game.scores[s]}
                          for s, name in enumerate(table.names)],
                "top": game.top.code, "colour": game.colour, "direction": game.direction,
                "draw_pile": len(game.draw_pile), "pending": game.pending, "round": game.round,
                "hand": [c.code for c in game.hands[index]], "drawn": game.drawn.code if game.drawn else None,
                "reason": reason, "log": self._log[-LOG_KEEP:]}

    def _catch_up(self, table: Table, end: EndPatch | None = None) -> None:
        """The seat's news since it last looked, as sentences in the log (what a bot there would read)."""
        assert self.relay is not None
        for told in self.relay.catch_up(table.game, None, end):
            # A public event comes encoded once for every seat: read back like any message a bot reads.
            msg: dict[str, Any] = json.loads(told) if isinstance(told, bytes) else dict(told)
            kind = msg.get("type")
            if kind == "start":
                self._log.append(f"Round {msg['round']}: your hand {cards_text(msg['hand'], False)}; top "
                                 f"{label(msg['top'])}")
            else:
                event = {"kind": kind, **msg} if kind in ("round_end", "game_end") else msg
                self._log.append(describe_event(event, table.names, False))
        if len(self._log) > 2 * LOG_KEEP:
            del self._log[:-LOG_KEEP]
