"""Small pieces every part of the page writes: escaped text and the replay command of a results folder."""

from __future__ import annotations

import html
import shlex
from typing import Any


def esc(value: Any) -> str:
    """``value`` as HTML text, quotes escaped (safe in an attribute too)."""
    return html.escape(str(value), quote=True)


def replay_command(out_dir: str) -> str:
    """``lastcard replay OUT_DIR``, quoted for a shell."""
    return f"lastcard replay {shlex.quote(out_dir)}"
