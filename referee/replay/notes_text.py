"""A stored game's debug notes as ``lastcard replay`` prints them: under each turn, what its bot wrote then.

A note written before a bot's first request is shown at that bot's first turn, marked so. The text is
the bot's: control characters (a terminal's escape sequences) are shown escaped, never sent raw.
"""

from __future__ import annotations

import re
from typing import Sequence

from referee.store.game_source import SourceGame
from referee.store.notes import Cut, GameNotes, Note, cut_text
from referee.store.notes_file import read_notes

#: Control characters but the tab: shown as ``\\x1b`` and the like.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def notes_of(source: SourceGame) -> GameNotes | None:
    """The notes of a game read from a results folder (None for a record file alone, or a game without notes)."""
    if source.out_dir is None:
        return None
    return read_notes(source.out_dir, source.stored.game)


class TurnNotes:
    """Hands out a game's notes turn by turn, as the replay walks it (each seat's early notes at its first turn)."""

    def __init__(self, notes: GameNotes | None, names: Sequence[str], only: int | None = None) -> None:
        self.notes = notes if notes is None or only is None else notes.of_seat(only)
        self.names = names
        self._seen: set[int] = set()

    def lines(self, turn: int, seat: int | None, indent: str = "     ") -> list[str]:
        """The lines of the notes at ``turn`` (``seat`` acts there; its first turn brings its earlier notes)."""
        notes = self.notes
        if notes is None:
            return []
        out: list[str] = []
        if seat is not None and seat not in self._seen:
            self._seen.add(seat)
            out += self._shown([n for n in notes.at(None) if n.seat == seat], indent, " (before its first turn)")
            out += self._cuts([c for c in notes.cuts if c.turn is None and c.seat == seat], notes.budget, indent)
        out += self._shown(notes.at(turn), indent, "")
        return out + self._cuts([c for c in notes.cuts if c.turn == turn], notes.budget, indent)

    def _cuts(self, cuts: list[Cut], budget: int, indent: str) -> list[str]:
        return [f"{indent}┆ {self._who(cut.seat)} {cut_text(cut, budget)}" for cut in cuts]

    def _shown(self, notes: list[Note], indent: str, when: str) -> list[str]:
        out = []
        for note in notes:
            head = f"{indent}┆ {self._who(note.seat)} {note.source}{when}: "
            for line in note.text.rstrip("\n").split("\n"):
                out.append(head + _CONTROL.sub(lambda m: repr(m.group())[1:-1], line))
                head = f"{indent}┆ {' ' * (len(head) - len(indent) - 2)}"
        return out

    def _who(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"
