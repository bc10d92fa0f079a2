"""Debug notes at their turn, with a real bot process (``--sandbox none``): what it wrote on stderr and in log
messages between a request and its next one is kept with that request's turn, and its stderr log marks the
same turns; a flood gets the budget and a marked cut while the game goes on; a crash turn keeps the traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.bots.pipes.notes import NOTES_BUDGET
from referee.engine.notation import StoredGame
from referee.replay.locate import turn_of_faults
from referee.store.bot_logs import stderr_parts
from referee.store.game_source import SourceGame
from referee.store.results import GameLine
from tests.support.notedata import play_notes, seat_turns

pytestmark = pytest.mark.slow  # every test here starts a process

REQUEST = re.compile(r"^request (\d+): ")


def test_each_requests_stderr_and_log_are_kept_at_its_turn_and_the_log_marks_the_same_turn(tmp_path: Path) -> None:
    result = play_notes(tmp_path)
    assert result.faults == () and result.notes is not None
    turns = seat_turns(result, 0)  # request id k was asked at turns[k - 1]
    mine = [n for n in result.notes.notes if n.seat == 0]
    logs = {int(n.text[len("<i>log "):-len("</i>")]): n.turn for n in mine if n.source == "log"}
    stderr = {int(m.group(1)): n.turn for n in mine if n.source == "stderr" for line in n.text.splitlines()
              if (m := REQUEST.match(line))}
    expected = {k: turns[k - 1] for k in range(1, len(turns) + 1)}
    assert logs == expected and stderr == expected
    before = [n for n in mine if n.turn is None]
    assert [n.text for n in before] == ["starting <script>alert(1)</script>\n"]  # before its first request
    # The stderr log numbers its parts by the same turns (not by request id).
    parts = {(game, seat, turn): lines for (game, seat, turn), lines in stderr_parts(str(tmp_path / "logs" /
                                                                                       "notes.stderr.log"))}
    marked = {int(m.group(1)): turn for (_, _, turn), lines in parts.items() for line in lines
              if (m := REQUEST.match(line))}
    assert marked == expected
    assert parts[("g1", 0, None)] == ["starting <script>alert(1)</script>"]


def test_a_flood_gets_the_budget_then_a_marked_cut_and_the_game_goes_on(tmp_path: Path) -> None:
    result = play_notes(tmp_path, "flood")
    assert result.faults == () and result.reason != "lost" and result.notes is not None
    kept = sum(len(n.text.encode()) for n in result.notes.notes if n.seat == 0)
    assert NOTES_BUDGET - 4096 < kept <= NOTES_BUDGET
    [cut] = result.notes.cuts
    first = seat_turns(result, 0)[0]
    assert cut.seat == 0 and cut.turn == first  # it flooded from its first request on
    assert cut.dropped > 40000 * (len(seat_turns(result, 0)) - 1)
    assert result.notes.budget == NOTES_BUDGET


def test_a_crash_turn_keeps_the_traceback_the_bot_wrote_before_dying(tmp_path: Path) -> None:
    result = play_notes(tmp_path, "crash 3")
    [fault] = result.faults
    assert fault.kind.value == "crash"
    line = GameLine(result).to_json()
    [turn] = turn_of_faults(SourceGame(StoredGame.from_json(line), line, None, None, ""))
    assert turn == seat_turns(result, 0)[2]
    assert result.notes is not None
    at_crash = "".join(n.text for n in result.notes.notes if n.seat == 0 and n.turn == turn and n.source == "stderr")
    assert at_crash.startswith("request 3: ") and "Traceback (most recent call last)" in at_crash
    assert "RuntimeError: boom at request 3" in at_crash

