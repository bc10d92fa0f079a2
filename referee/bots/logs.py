"""A bot's logs: named by one rule wherever they are written or read (its report too), and read back from an
offset (what a bot wrote since a moment, or the tail of its log)."""

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


def log_size(path: str | None) -> int:
    """The log's size now (0 when there is none yet): the offset to read what the bot writes from here on."""
    try:
        return os.path.getsize(path) if path else 0
    except OSError:
        return 0


def read_log(path: str | None, offset: int, most: int | None = None) -> str:
    """The text of the log ``path`` from ``offset`` (negative: that many bytes before its end), at most its last
    ``most`` bytes; undecodable bytes replaced, "" when there is no log."""
    if path is None:
        return ""
    try:
        with open(path, "rb") as fh:
            end = fh.seek(0, os.SEEK_END)
            start = max(0, end + offset if offset < 0 else offset, end - most if most is not None else 0)
            fh.seek(start)
            return fh.read().decode("utf-8", "replace")
    except OSError:
        return ""
