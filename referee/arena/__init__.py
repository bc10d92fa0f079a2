"""Arenas: tournaments between bots described in one YAML file (see docs/arena.md).

config (file -> ``Arena``) -> formats and schedule (tables, seats, game jobs) -> executor (worker
processes) -> store (games.jsonl) -> ratings and standings -> report (results.json and friends).
"""

from __future__ import annotations

from .config import Arena, ArenaFileError, BotEntry, Problem, Stage, load_arena, parse_arena
from .runner import ArenaRun, run_arena

__all__ = ["Arena", "ArenaFileError", "ArenaRun", "BotEntry", "Problem", "Stage", "load_arena", "parse_arena",
           "run_arena"]
