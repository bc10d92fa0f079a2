"""A bot's notes in one game: its ``log`` messages and its stderr, each kept with the turn it came at.

What the bot wrote from its request at turn T until its next request belongs to turn T (the turn is the
game's action index, as every replay numbers it); what it wrote before its first request, to none (``BEFORE``).
A game keeps up to ``NOTES_BUDGET`` bytes of a bot's notes; past it the rest is counted, not kept, and the
turn where the budget ran out is marked, so a bot that floods stderr or ``log`` costs the run no more.
"""

from __future__ import annotations

from typing import Final

#: Bytes (UTF-8) of one bot's notes a game keeps: its stderr and its log messages together.
NOTES_BUDGET: Final = 32 * 1024
#: The turn of what a bot wrote before its first request of the game.
BEFORE: Final = -1
#: Where a note came from.
STDERR: Final = "stderr"
LOG: Final = "log"


class NoteTaker:
    """One bot's notes of one game, within ``budget`` bytes: ``(turn, source, text)`` in the order they came."""

    def __init__(self, budget: int = NOTES_BUDGET) -> None:
        self.budget = budget
        self.used = 0
        self.entries: list[tuple[int, str, str]] = []
        self.dropped = 0
        """Bytes of notes counted past the budget."""
        self.cut_at: int | None = None
        """The turn where the budget ran out (``None`` while it has not)."""

    def add(self, turn: int, source: str, text: str, size: int = -1, dropped: int = 0) -> None:
        """Keep ``text`` (``size`` bytes in UTF-8, when the caller knows; ``dropped``: bytes counted and not
        kept before it reached the referee) at ``turn``, or as much of it as the budget leaves."""
        if size < 0:
            size = len(text.encode("utf-8", "replace"))
        keep = min(size, max(0, self.budget - self.used))
        if 0 < keep < size:  # cut at the budget, less a character it would split
            text = text.encode("utf-8", "replace")[:keep].decode("utf-8", "ignore")
            keep = len(text.encode("utf-8", "replace"))
        if keep > 0:
            self.used += keep
            self._append(turn, source, text)
        lost = size - keep + dropped
        if lost > 0:
            self.dropped += lost
            if self.cut_at is None:
                self.cut_at = turn

    def _append(self, turn: int, source: str, text: str) -> None:
        """One more note; stderr that follows stderr at the same turn joins it (it came in chunks)."""
        entries = self.entries
        if entries and source == STDERR:
            last = entries[-1]
            if last[0] == turn and last[1] == STDERR:
                entries[-1] = (turn, STDERR, last[2] + text)
                return
        if text:
            entries.append((turn, source, text))
