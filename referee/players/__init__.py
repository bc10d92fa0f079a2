"""Built-in players, usable wherever a bot is (``builtin:NAME``)."""

from __future__ import annotations

from .base import Player, SeatView
from .heuristic import EasyPlayer, HardPlayer, MediumPlayer
from .random_player import RandomPlayer

BUILTINS: dict[str, type[Player]] = {
    "random": RandomPlayer,
    "easy": EasyPlayer,
    "medium": MediumPlayer,
    "hard": HardPlayer,
}


def make_player(name: str, seed: int = 0) -> Player:
    """A new built-in player by name; unknown names list the known ones."""
    try:
        cls = BUILTINS[name]
    except KeyError:
        raise ValueError(f"unknown built-in player {name!r}; built-ins: {', '.join(BUILTINS)}") from None
    return cls(seed)


__all__ = ["BUILTINS", "Player", "SeatView", "make_player", "RandomPlayer", "EasyPlayer", "MediumPlayer",
           "HardPlayer"]
