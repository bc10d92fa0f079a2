"""``random``: a uniformly random legal action."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Player, SeatView

if TYPE_CHECKING:
    from ..actions import Action


class RandomPlayer(Player):
    """Picks uniformly among the legal actions."""

    name = "random"

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        return legal[int(self.rng.random() * len(legal))]
