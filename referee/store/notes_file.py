"""A results folder's debug notes: ``notes.jsonl.gz`` with its index ``notes.idx``, kept as the records are.

Each game whose bots wrote something (stderr, ``log`` messages) has one JSON line (``GameNotesJson``); the
lines of the games that ended close together go into one gzip member (the run store writes them as it
flushes games.jsonl), and ``notes.idx`` says where each game's line is (``record_file``'s index lines), so
``zcat notes.jsonl.gz`` prints them all and a reader inflates only the member of the game it wants. A game
whose bots wrote nothing has no line. A game played again (a worker that died) is found at its last line.
"""

from __future__ import annotations

import json
from typing import Iterable, Iterator

import orjson

from referee.store.notes import GameNotes, GameNotesJson
from referee.store.record_file import Where, append_records, find, index_entries, read_member
from referee.store.results_dir import ResultsDir

FILES = (ResultsDir.NOTES, ResultsDir.NOTES_INDEX)


def encode_notes(notes: GameNotes) -> bytes:
    """A game's notes as its line of the notes file."""
    return orjson.dumps(notes.to_json(), option=orjson.OPT_APPEND_NEWLINE)


def append_notes(out_dir: str, notes: Iterable[GameNotes]) -> None:
    """Append the notes of some games to ``out_dir``'s notes file, as one member (under the index's lock)."""
    lines = [(n.game, encode_notes(n)) for n in notes]
    if lines:
        append_records(out_dir, lines, files=FILES)


def read_notes(out_dir: str, game_id: str) -> GameNotes | None:
    """``game_id``'s notes; None when its bots wrote nothing (or the folder keeps no notes)."""
    where = find(out_dir, game_id, FILES[1])
    return None if where is None or isinstance(where, str) else _decode(read_member(out_dir, where, FILES[0]))


class NotesReader:
    """The notes of many games of one folder: the index read once, a batch's member inflated once."""

    def __init__(self, out_dir: str) -> None:
        self.out_dir = out_dir
        self.index = {game: at for game, at in index_entries(out_dir, FILES[1]).items() if not isinstance(at, str)}
        self._member: tuple[tuple[int, int], bytes | None] | None = None

    def __len__(self) -> int:
        return len(self.index)

    def get(self, game_id: str) -> GameNotes | None:
        """``game_id``'s notes (None: none kept)."""
        where = self.index.get(game_id)
        if where is None or isinstance(where, str):
            return None
        return _decode(self._bytes(where))

    def games(self) -> Iterator[str]:
        """The games with notes, in the order stored."""
        return iter(self.index)

    def _bytes(self, where: Where) -> bytes | None:
        offset, length, start, size = where
        if size is None:
            return read_member(self.out_dir, where, FILES[0])
        if self._member is None or self._member[0] != (offset, length):  # the whole batch, kept for its neighbours
            self._member = ((offset, length), read_member(self.out_dir, (offset, length, 0, None), FILES[0]))
        whole = self._member[1]
        return None if whole is None or len(whole) < start + size else whole[start:start + size]


def _decode(data: bytes | None) -> GameNotes | None:
    if not data:
        return None
    try:
        doc: GameNotesJson = json.loads(data)
        return GameNotes.from_json(doc)
    except (ValueError, KeyError, TypeError):
        return None
