"""Arenas: tournaments between bots described in one YAML file (see docs/arena.md).

config (file -> ``Arena``) -> formats and schedule (tables, seats, game jobs) -> executor (worker
processes) -> store (games.jsonl) -> ratings and standings -> report (results.json and friends).

The names below are imported when first asked for (PEP 562): importing any ``referee.arena.X``
imports this package first, and ``config`` brings the YAML reader and jsonschema, which a match
between built-ins or ``lastcard --version`` never needs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.arena.config import Arena, ArenaFileError, BotEntry, Problem, Stage, load_arena, parse_arena
    from referee.arena.runner import ArenaRun, run_arena

#: Each name this package offers, by the module that defines or re-exports it.
_LAZY = {"Arena": "config", "ArenaFileError": "config", "BotEntry": "config", "Problem": "config", "Stage": "config",
         "load_arena": "config", "parse_arena": "config", "ArenaRun": "runner", "run_arena": "runner"}

__all__ = ["Arena", "ArenaFileError", "ArenaRun", "BotEntry", "Problem", "Stage", "load_arena", "parse_arena",
           "run_arena"]


def __getattr__(name: str) -> Any:
    """A name of ``__all__`` from its module; anything else is not here (so ``from . import store`` imports it)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
