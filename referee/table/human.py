"""A person in a seat: the table's events as sentences, the legal actions numbered, the choice read back.

The seat is told what a bot would be told (the referee's ``Relay``), so a person sees exactly what a
bot in that seat sees. It reads and writes through the streams it is given, so it tests without a
terminal.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, TextIO

from referee.engine.actions import DRAW, PASS, PLAY, Action
from referee.engine.cardfaces import colour_label, label
from referee.engine.cards import Card
from referee.engine.describe import action_text, cards_text, describe_event
from referee.protocol.faults import Fault
from referee.protocol.relay import EndPatch, Relay

if TYPE_CHECKING:
    from referee.engine.game import Game
    from referee.table.table import Table


class LeftTheGame(Exception):
    """The person left (end of input, or ``q``): the game stops without a result."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One numbered line of the menu: the play without its colour and call, and the legal forms it stands for."""

    text: str
    forms: tuple[Action, ...]


def menu(legal: list[Action], styled: bool) -> list[Choice]:
    """The legal actions for a person: a Wild once (its colour asked after), calls asked after too."""
    grouped: dict[tuple[str, tuple[Card, ...]], list[Action]] = {}
    for action in legal:
        grouped.setdefault((action.kind, action.cards), []).append(action)
    out = []
    for (kind, cards), forms in grouped.items():
        first = forms[0]
        if kind == PLAY:
            text = "play " + ", ".join(label(c, styled) for c in cards)
        else:
            text = action_text(first, styled)
            text = {"draws": "draw", "passes": "pass"}.get(text, text.replace("names the colour", "name the colour"))
        out.append(Choice(text, tuple(forms)))
    return out


def forced_reason(game: Game, only: Action, styled: bool = False) -> str:
    """Why ``only`` is the one legal move (a draw or a pass), in a sentence (the terminal's and the browser's)."""
    if only.kind is PASS:
        return "Nothing in your hand plays and there is nothing to draw: you must pass."
    if game.pending:
        return (f"You cannot answer the {label(game.top, styled)}: you must draw the {game.pending} cards "
                "of the penalty.")
    named = f" (colour {colour_label(game.colour, styled)})" if game.top.is_wild else ""
    return f"Nothing in your hand plays on {label(game.top, styled)}{named}: you must draw."


class HumanSeat:
    """A person at the table, through ``read`` (one line, without its newline) and ``out``."""

    by = "human"
    sandbox: str | None = None  # a person is not a process
    clock: str | None = None

    def __init__(self, name: str, read: Callable[[str], str], out: TextIO, *, styled: bool = False,
                 pace: float = 0.0) -> None:
        self.name = name
        self._read = read
        self._out = out
        self.styled = styled
        self.pace = pace  # seconds between events shown, so a table of fast bots can be followed
        self.relay: Relay | None = None
        self._table: Table | None = None

    # ------------------------------------------------------------------ the Seat protocol
    def begin(self, table: Table, index: int) -> None:
        self.relay = Relay(index, table.game_id, table.names, scores=[0] * len(table.names))
        self._table = table
        self._say(f"You are seat {index} ({self.name}) at a table of {len(table.names)}: "
                  + ", ".join(f"{i} {n}" for i, n in enumerate(table.names)))

    def decide(self, table: Table, index: int, legal: list[Action]) -> tuple[Action, float | None]:
        self._catch_up(table)
        game = table.game
        hands = ", ".join(f"{table.names[i]} {len(h)}" for i, h in enumerate(game.hands) if i != index)
        pending = f" · pending penalty {game.pending}" if game.pending else ""
        self._say("")
        self._say(f"Your turn. Top {label(game.top, self.styled)} · colour {colour_label(game.colour, self.styled)}"
                  f" · draw pile {len(game.draw_pile)}{pending} · cards: {hands}")
        self._say(f"Your hand: {cards_text([c.code for c in game.hands[index]], self.styled)}")
        choices = menu(legal, self.styled)
        if len(choices) == 1 and choices[0].forms[0].kind in (DRAW, PASS):  # no choice: say what happens
            choice = choices[0]
            self._say(self._forced(table, choice.forms[0]))
            self._ask_enter(f"Press Enter to {choice.text}")
            return choice.forms[0], None
        for number, choice in enumerate(choices, 1):
            self._say(f"  {number:>2}) {choice.text}")
        choice = choices[self._ask_number("Your move", len(choices)) - 1]
        action = choice.forms[0]
        if len(choice.forms) > 1:  # a Wild: one legal form per colour
            colours = [form.colour for form in choice.forms]
            self._say("Name a colour: " + "  ".join(f"{n}) {colour_label(c, self.styled)}"
                                                    for n, c in enumerate(colours, 1)))
            action = choice.forms[self._ask_number("Colour", len(colours)) - 1]
        # arcade: this play leaves one card, and calling is up to the player
        if action.call and not self._ask_yes("Call last card? (forgetting costs a card)"):
            action = Action(action.kind, action.cards, action.colour, False)
        return action, None

    def _forced(self, table: Table, only: Action) -> str:
        """Why the one legal move is the only one, in a sentence."""
        return forced_reason(table.game, only, self.styled)

    def warn(self, fault: Fault, note: str) -> None:  # pragma: no cover - a person's answer is always legal
        pass

    def forfeit(self, fault: Fault) -> None:  # pragma: no cover
        pass

    def finish(self, table: Table, index: int) -> None:
        self._catch_up(table, table.end_patch)

    def follow(self, entry: dict[str, Any]) -> None:
        """A line of the game record as it is written: at each action, show what has happened so far.

        The table records an action before applying it, so while a bot thinks the person has already
        seen everything up to that bot's turn.
        """
        table = self._table
        if entry.get("t") == "action" and table is not None and getattr(table, "game", None) is not None:
            self._catch_up(table)

    # ------------------------------------------------------------------ talking
    def _catch_up(self, table: Table, end: EndPatch | None = None) -> None:
        assert self.relay is not None
        for told in self.relay.catch_up(table.game, None, end):
            # A public event comes encoded once for every seat: read back like any message a bot reads.
            msg: dict[str, Any] = json.loads(told) if isinstance(told, bytes) else dict(told)
            kind = msg.get("type")
            if kind == "start":
                rules = table.game.ruleset
                scores = "" if rules.single_round else "; scores " + ", ".join(
                    f"{n} {s}" for n, s in zip(table.names, msg["scores"])) + f" (the match is to {rules.target})"
                self._say(f"— Round {msg['round']}: your hand {cards_text(msg['hand'], self.styled)}; "
                          f"top {label(msg['top'], self.styled)}{scores}")
            else:
                event = {"kind": kind, **msg} if kind in ("round_end", "game_end") else msg
                self._say("  · " + describe_event(event, table.names, self.styled))
            if self.pace:
                time.sleep(self.pace)

    def _say(self, text: str) -> None:
        self._out.write(text + "\n")
        self._out.flush()

    def _line(self, prompt: str) -> str:
        try:
            text = self._read(prompt)
        except EOFError:
            raise LeftTheGame("end of input") from None
        if text.strip().lower() in ("q", "quit", "exit"):
            raise LeftTheGame("asked to leave")
        return text.strip()

    def _ask_number(self, prompt: str, count: int) -> int:
        while True:
            text = self._line(f"{prompt} [1-{count}, q to leave]: ")
            if not text.isdigit():
                self._say(f"{text!r} is not a number: type the number of your choice, 1 to {count}")
                continue
            if not 1 <= int(text) <= count:
                self._say(f"{text} is not one of the choices: type a number from 1 to {count}")
                continue
            return int(text)

    def _ask_enter(self, prompt: str) -> None:
        while True:
            text = self._line(f"{prompt} (q to leave): ")
            if text in ("", "1"):  # "1": the habit of the numbered menus
                return
            self._say(f"{text!r}: there is nothing to choose here; press Enter, or type q to leave")

    def _ask_yes(self, prompt: str) -> bool:
        while True:
            text = self._line(f"{prompt} [y/n]: ").lower()
            if text in ("y", "yes", ""):
                return True
            if text in ("n", "no"):
                return False
            self._say(f"{text!r} is neither yes nor no: type y or n")
