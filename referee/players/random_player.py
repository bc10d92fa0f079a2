"""``random``: a uniformly random legal action."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Callable

from referee.players.base import Player, SeatView

if TYPE_CHECKING:
    from referee.engine.actions import Action


class RandomPlayer(Player):
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        # The generator's bound ``random``, kept: looking the method up on a ``random.Random`` (a Python class
        # with an instance dict) cost more than the call. Bound again if ``rng`` is replaced.
        self._rng_of: random.Random = self.rng
        self._random: Callable[[], float] = self.rng.random

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        rng = self.rng
        if rng is not self._rng_of:
            self._rng_of = rng
            self._random = rng.random
        # ``float(len(...))``: what ``r * len(legal)`` does, in C doubles rather than Python objects.
        return legal[int(self._random() * float(len(legal)))]
