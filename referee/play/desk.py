"""The desk between a person's seat and their browser: what the page shows, the question of a turn, the answer.

The table's thread writes (``show``, ``ask``) and the server's threads read (``snapshot``) and answer (``answer``,
``leave``). Everything the page is sent is plain data made in the table's thread, so the server never reads a game
while it moves. An answer names one of the moves the referee listed, by its number: the page cannot make a move of
its own, and a stale or repeated click is refused by the turn it names.
"""

from __future__ import annotations

import json
import secrets
import threading
from dataclasses import dataclass
from typing import Any, Mapping

from referee.engine.actions import PLAY, Action
from referee.errors import BAD_INPUT, LastcardError
from referee.table.human import LeftTheGame

#: The table's thread looks up this often while it waits for the person (so Ctrl-C is taken at once).
WAIT_STEP_S = 0.25


class MoveError(LastcardError):
    """A move the page sent that is not one the referee offered (said to the page, never played)."""

    exit_code = BAD_INPUT

    def __init__(self, message: str, stale: bool = False) -> None:
        super().__init__(message)
        self.stale = stale
        """The move was for another turn (a second click, a page left open): the page reloads its state."""


@dataclass(frozen=True, slots=True)
class Option:
    """One move as the page lists it: a play (its Wild's colours asked after), a draw, a pass or a colour."""

    text: str
    kind: str
    cards: tuple[str, ...]
    forms: tuple[Action, ...]
    """The legal actions it stands for: one, or one per colour a Wild can name."""

    @property
    def colours(self) -> list[str]:
        """The colours to choose from (a Wild's), else none."""
        return [f.colour for f in self.forms if f.colour] if len(self.forms) > 1 else []

    @property
    def calls(self) -> bool:
        """The play leaves one card where the call is the player's to make (arcade): the page asks for it."""
        return self.kind == PLAY and self.forms[0].call

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "kind": self.kind, "cards": list(self.cards), "colours": self.colours,
                "call": self.calls}


@dataclass(frozen=True, slots=True)
class Question:
    """The person's turn: its number (the actions played before it) and the moves to choose from."""

    turn: int
    options: tuple[Option, ...]


def pick(question: Question, turn: object, choice: object, colour: object, call: object) -> Action:
    """The action a page's answer names, or ``MoveError`` saying what is wrong with it and what would do."""
    if not isinstance(turn, int) or isinstance(turn, bool) or turn != question.turn:
        raise MoveError(f"this move was for turn {turn!r}, and the game is at turn {question.turn}: choose again",
                        stale=True)
    count = len(question.options)
    if not isinstance(choice, int) or isinstance(choice, bool) or not 0 <= choice < count:
        raise MoveError(f"move {choice!r} is not one of the {count} moves offered: give a number from 0 to "
                        f"{count - 1}")
    option = question.options[choice]
    form = option.forms[0]
    if len(option.forms) > 1:
        named = [f for f in option.forms if f.colour == colour]
        if not named:
            raise MoveError(f"{option.text}: {colour!r} is not a colour it can name; name one of "
                            f"{', '.join(option.colours)}")
        form = named[0]
    if not isinstance(call, bool):
        raise MoveError(f"call must be true or false, not {call!r}")
    if form.call and not call:  # arcade: forgetting the call is allowed, and costs a card
        return Action(form.kind, form.cards, form.colour, False)
    return form


class Desk:
    """The page's state (a version and its JSON) and the question waiting for the person, shared by two threads."""

    def __init__(self, token: str | None = None) -> None:
        """``token``: what the page must send with a move (it reads it from the state, which only it can read; a
        random one by default)."""
        self.token = token or secrets.token_urlsafe(18)
        self._cond = threading.Condition()
        self._version = 0
        self._state: dict[str, Any] = {}
        self._body = b"{}"
        self._question: Question | None = None
        self._answer: Action | None = None
        self._left = False

    # ------------------------------------------------------------------ the table's thread
    def show(self, state: Mapping[str, Any]) -> None:
        """Replace what the page shows (the question, if any, stays as it is)."""
        with self._cond:
            self._state = dict(state)
            self._publish()

    def update(self, **changes: Any) -> None:
        """Change some keys of what the page shows."""
        with self._cond:
            self._state.update(changes)
            self._publish()

    def ask(self, question: Question, state: Mapping[str, Any]) -> Action:
        """Show ``state`` with ``question`` and wait for the person's answer (``LeftTheGame`` if they leave from the
        page). Waits in short steps, so a Ctrl-C in the terminal is taken at once."""
        with self._cond:
            self._state = dict(state)
            self._question = question
            self._answer = None
            self._publish()
            try:
                while self._answer is None and not self._left:
                    self._cond.wait(WAIT_STEP_S)
                if self._answer is None:
                    raise LeftTheGame("left from the page")
                return self._answer
            finally:
                self._question = None
                if not self._left:  # the move is being played: the others' turns come next
                    self._state["phase"] = "waiting"
                self._publish()

    # ------------------------------------------------------------------ the server's threads
    def snapshot(self, since: int = -1, wait_s: float = 0.0) -> tuple[int, bytes]:
        """The state's version and JSON; with ``wait_s``, waits up to that long for a version after ``since``."""
        with self._cond:
            if wait_s > 0 and self._version <= since:
                self._cond.wait_for(lambda: self._version > since, wait_s)
            return self._version, self._body

    def answer(self, turn: object, choice: object, colour: object = None, call: object = True) -> Action:
        """The person's move from the page: checked against the question, then handed to the waiting seat."""
        with self._cond:
            if self._question is None:
                raise MoveError("it is not your turn: wait for the other players", stale=True)
            action = pick(self._question, turn, choice, colour, call)
            self._answer = action
            self._question = None
            self._state["phase"] = "waiting"
            self._publish()
            return action

    def leave(self) -> None:
        """The person leaves: the seat's wait ends, and the game stops."""
        with self._cond:
            self._left = True
            self._state["phase"] = "left"
            self._publish()

    @property
    def left(self) -> bool:
        return self._left

    # ------------------------------------------------------------------ helpers
    def _publish(self) -> None:
        """A new version of the state (with the question's moves while there is one); wakes the long polls."""
        self._version += 1
        question = self._question
        body = {**self._state, "version": self._version, "token": self.token,
                "question": None if question is None else {"turn": question.turn,
                                                           "options": [o.to_json() for o in question.options]}}
        self._body = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
        self._cond.notify_all()
