"""Built-in players, usable wherever a bot is (``builtin:NAME``)."""

from __future__ import annotations

from referee.players.base import Player, SeatView
from referee.players.heuristic import EasyPlayer, HardPlayer, MediumPlayer
from referee.players.random_player import RandomPlayer

BUILTINS: dict[str, type[Player]] = {
    "random": RandomPlayer,
    "easy": EasyPlayer,
    "medium": MediumPlayer,
    "hard": HardPlayer,
}


def make_player(name: object, seed: object = 0) -> Player:
    """A new built-in player by name; unknown names list the known ones."""
    # Checked here rather than by the annotations: a compiled build would refuse other types with a bare TypeError.
    cls = BUILTINS.get(name) if isinstance(name, str) else None
    if cls is None:
        raise ValueError(f"unknown built-in player {name!r}; built-ins: {', '.join(BUILTINS)}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"a built-in player's seed is a whole number, got {seed!r}")
    return cls(seed)


__all__ = ["BUILTINS", "Player", "SeatView", "make_player", "RandomPlayer", "EasyPlayer", "MediumPlayer",
           "HardPlayer"]
