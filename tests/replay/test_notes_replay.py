"""``lastcard replay`` shows each bot's notes (stderr, log messages) under the turn they belong to: in the
all-seeing view every bot's, with ``--seat N`` only that seat's; a crash turn shows the traceback; control
characters a bot wrote are shown escaped, never sent to the terminal."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.replay.notes_text import TurnNotes
from referee.store.notes import GameNotes, Note
from tests.support.notedata import play_notes, seat_turns, store_game


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int], list[int]]:
    folder = tmp_path_factory.mktemp("notes")
    quiet = play_notes(folder, game="g1", seed=11)
    crashed = play_notes(folder, "crash 4", game="g2", seed=12)
    for result in (quiet, crashed):
        store_game(folder, result)
    return folder, seat_turns(quiet, 0), seat_turns(crashed, 0)


def _blocks(output: str) -> dict[int, str]:
    """The replay's text by turn (``turn T · ...`` or ``turn T · your turn``), each up to the next turn."""
    return {int(m.group(1)): m.group(2) for m in re.finditer(r"\nturn (\d+) (.*?)(?=\nturn \d+ |\Z)", output, re.S)}


@pytest.mark.slow
def test_every_request_shows_its_notes_under_its_turn(stored: tuple[Path, list[int], list[int]]) -> None:
    folder, turns, _ = stored
    out = CliRunner().invoke(cli, ["replay", str(folder), "g1"])
    assert out.exit_code == 0, out.output
    blocks = _blocks(out.output)
    for request, turn in enumerate(turns, 1):
        assert f"┆ notes stderr: request {request}: <b>hand" in blocks[turn]
        assert f"┆ notes log: <i>log {request}</i>" in blocks[turn]
    assert "┆ notes stderr (before its first turn): starting <script>alert(1)</script>" in blocks[turns[0]]
    assert sum(block.count("┆ notes stderr: request ") for block in blocks.values()) == len(turns)


@pytest.mark.slow
def test_a_seats_view_shows_its_own_notes_only(stored: tuple[Path, list[int], list[int]]) -> None:
    folder, turns, _ = stored
    mine = CliRunner().invoke(cli, ["replay", str(folder), "g1", "--seat", "0"]).output
    blocks = _blocks(mine)
    assert all(f"request {k}: <b>hand" in blocks[t] for k, t in enumerate(turns, 1))
    theirs = CliRunner().invoke(cli, ["replay", str(folder), "g1", "--seat", "1"]).output
    assert "turn " in theirs and "┆" not in theirs
    raw = CliRunner().invoke(cli, ["replay", str(folder), "g1", "--seat", "0", "--raw"]).output
    assert "┆" not in raw  # the lines the seat was sent, nothing else


@pytest.mark.slow
def test_the_crash_turn_shows_the_traceback(stored: tuple[Path, list[int], list[int]]) -> None:
    folder, _, turns = stored
    out = CliRunner().invoke(cli, ["replay", str(folder), "g2"]).output
    crash = _blocks(out)[turns[3]]
    assert "<- FAULT: crash" in crash and "Traceback (most recent call last):" in crash
    assert "RuntimeError: boom at request 4" in crash


def test_control_characters_a_bot_wrote_are_shown_escaped() -> None:
    notes = GameNotes("g", 100, (Note(0, 3, "stderr", "\x1b[2Jcleared\x07 and a\ttab\n"),))
    lines = TurnNotes(notes, ["bot"]).lines(3, 0)
    assert lines == ["     ┆ bot stderr: \\x1b[2Jcleared\\x07 and a\ttab"]
