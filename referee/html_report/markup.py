"""Small pieces every part of the page writes: escaped text, the replay command of a results folder, and what
the page may say about paths (``store.handout``: none of the teacher's machine)."""

from __future__ import annotations

import html
import shlex
from typing import Any

from referee.engine.jsondata import JsonObject
from referee.store.handout import HERE, Handout
from referee.store.results_dir import ResultsDir


def esc(value: Any) -> str:
    """``value`` as HTML text, quotes escaped (safe in an attribute too)."""
    return html.escape(str(value), quote=True)


def replay_command(out_dir: str = HERE) -> str:
    """``lastcard replay OUT_DIR``, quoted for a shell (the page's: ``lastcard replay .``, run in the results
    folder, wherever it was copied)."""
    return f"lastcard replay {shlex.quote(out_dir)}"


def arena_bots(out_dir: str) -> list[JsonObject]:
    """The bots ``arena.json`` names (each with its name, command and folder); [] where there is none."""
    run = ResultsDir(out_dir).read_run() or {}
    arena = run.get("arena")
    bots = arena.get("bots") if isinstance(arena, dict) else None
    return [b for b in bots if isinstance(b, dict)] if isinstance(bots, list) else []


def page_handout(out_dir: str) -> Handout:
    """What the page may quote of the results folder ``out_dir``: each bot's folder (``arena.json``) by the bot's
    name, every other path of this machine by its last part."""
    folders = {str(b["cwd"]): str(b["name"]) for b in arena_bots(out_dir)
               if isinstance(b.get("cwd"), str) and isinstance(b.get("name"), str)}
    return Handout(out_dir, folders)
