"""The notes file (``notes.jsonl.gz`` and ``notes.idx``): a game's notes written in a batch's member and read back
alone, by one game or many; ``zcat`` reads it all."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from referee.store.notes import Cut, GameNotes, Note
from referee.store.notes_file import NotesReader, append_notes, read_notes


def notes(game: str, n: int) -> GameNotes:
    return GameNotes(game, 32768, tuple(Note(s, None if t == 0 else t, "stderr" if t % 2 else "log",
                                             f"{game} seat {s} turn {t} <b>&amp;</b>\n")
                                        for s in range(2) for t in range(n)), (Cut(1, 5, 1234),))


def test_notes_round_trip_through_the_file_one_game_and_many(tmp_path: Path) -> None:
    games = [notes(f"g{i}", 3 + i) for i in range(6)]
    append_notes(str(tmp_path), games[:1])   # a member of its own
    append_notes(str(tmp_path), games[1:5])  # a batch's member
    append_notes(str(tmp_path), games[5:])
    assert [read_notes(str(tmp_path), g.game) for g in games] == games
    reader = NotesReader(str(tmp_path))
    assert list(reader.games()) == [g.game for g in games] and len(reader) == 6
    assert [reader.get(g.game) for g in reversed(games)] == list(reversed(games))
    assert read_notes(str(tmp_path), "g99") is None and reader.get("g99") is None
    with gzip.open(tmp_path / "notes.jsonl.gz", "rt") as fh:  # zcat notes.jsonl.gz prints every game's line
        assert [json.loads(line)["game"] for line in fh] == [g.game for g in games]


def test_a_game_noted_again_is_read_at_its_last_line_and_a_folder_without_notes_has_none(tmp_path: Path) -> None:
    append_notes(str(tmp_path), [notes("g1", 2)])
    again = notes("g1", 4)
    append_notes(str(tmp_path), [again])  # played again after its worker died
    assert read_notes(str(tmp_path), "g1") == again
    assert read_notes(str(tmp_path / "empty"), "g1") is None
    assert NotesReader(str(tmp_path / "empty")).get("g1") is None


def test_a_seats_own_notes_and_a_turns() -> None:
    game = notes("g1", 3)
    assert {n.seat for n in game.of_seat(1).notes} == {1} and game.of_seat(0).cuts == ()
    assert [n.seat for n in game.at(None)] == [0, 1] and all(n.turn == 2 for n in game.at(2))
    assert GameNotes.from_json(game.to_json()) == game
