"""A bot's stderr log in a results folder (``logs/NAME.stderr.log``), read back game by game."""

from __future__ import annotations

import os

from referee.bots.pipes.transport import STDERR_MARK


def stderr_by_game(path: str) -> dict[tuple[str, int | None], list[str]]:
    """A bot's stderr log split at the ``--- game ID (seat N) ---`` lines: (game, seat) -> its lines."""
    out: dict[tuple[str, int | None], list[str]] = {}
    if not os.path.exists(path):
        return out
    with open(path, encoding="utf-8", errors="replace") as fh:
        current: list[str] | None = None
        for line in fh:
            line = line.rstrip("\n")
            if line.startswith(STDERR_MARK) and line.endswith(" ---"):
                game, seat = _parse_mark(line[len(STDERR_MARK):-4])
                current = out.setdefault((game, seat), [])
            elif current is not None and line.strip():
                current.append(line)
    return out


def _parse_mark(text: str) -> tuple[str, int | None]:
    game, _, rest = text.partition(" (seat ")
    try:
        return game, int(rest.rstrip(")")) if rest else None
    except ValueError:
        return game, None
