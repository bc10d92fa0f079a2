"""The player interface and the one view of the game a seat is allowed."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from referee.engine.game import seeded

if TYPE_CHECKING:
    from referee.engine.actions import Action
    from referee.engine.cards import Card
    from referee.engine.game import Game
    from referee.engine.rules import Ruleset


class SeatView:
    """What one seat may see of a game: its own hand and the public table, nothing else."""

    __slots__ = ("_game", "seat")

    def __init__(self, game: Game, seat: int) -> None:
        self._game = game
        self.seat = seat

    @property
    def hand(self) -> list[Card]:
        """This seat's cards (a copy)."""
        return list(self._game.hands[self.seat])

    @property
    def top(self) -> Card:
        return self._game.top

    @property
    def colour(self) -> str | None:
        return self._game.colour

    @property
    def direction(self) -> int:
        return self._game.direction

    @property
    def players(self) -> int:
        return self._game.n

    @property
    def hand_sizes(self) -> list[int]:
        """Every seat's number of cards, by seat."""
        return [len(h) for h in self._game.hands]

    @property
    def scores(self) -> list[int]:
        return list(self._game.scores)

    @property
    def draw_pile(self) -> int:
        return len(self._game.draw_pile)

    @property
    def discard_pile(self) -> int:
        """Cards under the top card (what a reshuffle would make the draw pile)."""
        return len(self._game.discard) - 1

    @property
    def pending(self) -> int:
        return self._game.pending

    @property
    def pending_kind(self) -> str | None:
        """While a penalty is pending, its rank (``draw2`` or ``wild4``); else ``None``."""
        return self._game.pending_rank

    @property
    def move(self) -> int:
        return self._game.move

    @property
    def phase(self) -> str:
        return self._game.phase

    @property
    def drawn(self) -> Card | None:
        """The card this seat drew this turn, if it may still play it."""
        return self._game.drawn

    @property
    def ruleset(self) -> Ruleset:
        return self._game.ruleset

    @property
    def colours(self) -> tuple[str, ...]:
        return self._game.colours

    def next_seat(self, steps: int = 1) -> int:
        """The seat ``steps`` turns after this one in the current direction."""
        return (self.seat + steps * self._game.direction) % self._game.n


def choice(rng: random.Random, options: list[Action]) -> Action:
    """``rng.choice(options)``, the same number drawn the same way, without ``random.py``'s two Python calls.

    ``Random.choice`` is ``options[rng._randbelow(len(options))]``, and ``_randbelow`` draws ``getrandbits`` of
    ``len(options).bit_length()`` bits until one is below the length: done here for a plain ``random.Random``;
    a subclass may draw its numbers differently, so it is asked.
    """
    if type(rng) is not random.Random:
        return rng.choice(options)
    n = len(options)
    if not n:
        raise IndexError("Cannot choose from an empty sequence")
    k = n.bit_length()
    bits = rng.getrandbits
    r = bits(k)
    while r >= n:
        r = bits(k)
    return options[r]


# Compiled (setup.py), a class refuses Python subclasses unless it says so: players are written by subclassing this.
@mypyc_attr(allow_interpreted_subclasses=True)
class Player:
    """A built-in player: picks one of the legal actions. Its own generator is seeded per game seat."""

    name = "player"

    def __init__(self, seed: int = 0) -> None:
        self.rng = seeded(None, seed)

    def reseed(self, seed: int) -> None:
        """Start a new game deterministically."""
        self.rng = seeded(self.rng, seed)

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        raise NotImplementedError
