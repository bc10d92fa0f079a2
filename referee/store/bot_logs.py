"""A bot's stderr log in a results folder (``logs/NAME.stderr.log``), read back game by game (and turn by turn)."""

from __future__ import annotations

import os
from typing import Iterator

from referee.bots.pipes.transport import STDERR_MARK

#: A stretch of the log: (game, seat, turn), ``turn`` None for what came before the bot's first request.
Where = tuple[str, "int | None", "int | None"]


def stderr_parts(path: str) -> Iterator[tuple[Where, list[str]]]:
    """A bot's stderr log cut at its ``--- game ID (seat N) turn T ---`` lines: each part's place and its lines
    (blank ones left out), in the order written."""
    if not os.path.exists(path):
        return
    with open(path, encoding="utf-8", errors="replace") as fh:
        where: Where | None = None
        lines: list[str] = []
        for line in fh:
            line = line.rstrip("\n")
            if line.startswith(STDERR_MARK) and line.endswith(" ---"):
                if where is not None:
                    yield where, lines
                where, lines = parse_mark(line[len(STDERR_MARK):-4]), []
            elif where is not None and line.strip():
                lines.append(line)
        if where is not None:
            yield where, lines


def stderr_by_game(path: str) -> dict[tuple[str, int | None], list[str]]:
    """A bot's stderr log split at the ``--- game ...`` lines: (game, seat) -> its lines (every turn's, in order)."""
    out: dict[tuple[str, int | None], list[str]] = {}
    for (game, seat, _turn), lines in stderr_parts(path):
        out.setdefault((game, seat), []).extend(lines)
    return out


def parse_mark(text: str) -> Where:
    """``g000012 (seat 2) turn 37`` (or without the turn, or the seat) as (game, seat, turn)."""
    game, _, rest = text.partition(" (seat ")
    seat_text, _, turn_text = rest.partition(")")
    turn_text = turn_text.strip()
    try:
        seat = int(seat_text) if rest else None
    except ValueError:
        seat = None
    try:
        turn = int(turn_text[len("turn "):]) if turn_text.startswith("turn ") else None
    except ValueError:
        turn = None
    return game, seat, turn
