"""A bot's name as a file name: its report and its logs are named by this one rule, wherever they are written
or read."""

from __future__ import annotations

import os


def safe_name(name: str) -> str:
    """``name`` with everything but letters, digits and ``-_.#`` turned into ``_`` (``random#2`` stays as it is)."""
    return "".join(ch if ch.isalnum() or ch in "-_.#" else "_" for ch in name)


def stderr_log(folder: str, name: str) -> str:
    """Where the bot called ``name`` has its stderr written in ``folder`` (all its games, one file)."""
    return os.path.join(folder, f"{safe_name(name)}.stderr.log")


def build_log(folder: str, name: str) -> str:
    """Where the build of the bot called ``name`` is logged in ``folder``."""
    return os.path.join(folder, f"{safe_name(name)}.build.log")
