"""Faults shown where they happen: at the end of ``match``, ``arena``, ``compare`` and ``ladder run``, each bot's
first fault of each kind with its message and (with an output folder) the ``lastcard replay`` command that shows
it; bounded for a class of hundreds."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from referee.protocol.faults import Fault, FaultKind
from referee.standings.first_faults import LINES, FirstFaults, fault_lines

BOT = Path(__file__).resolve().parents[1] / "support" / "fault_bots" / "two_on_a_line.py"
COMMAND = f"{sys.executable} {BOT}"
#: The fault's own message, as the terminal must show it.
WORDS = "2 JSON messages on one line; the referee reads one message per line: end each message with a newline and flush"


def lastcard(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee.cli.entry", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300)


def replay_shows_it(cwd: Path, block: str) -> None:
    """The block's replay command, run as printed, shows the fault."""
    command = next(line.strip() for line in block.splitlines() if line.strip().startswith("lastcard replay "))
    res = lastcard(cwd, *command.split()[1:])
    assert res.returncode == 0, res.stderr
    assert "<- FAULT: non_json: 2 JSON messages on one line" in res.stdout


def block(stderr: str) -> str:
    return stderr[stderr.index("faults, the first of each kind"):]


def arena_file(folder: Path) -> Path:
    path = folder / "f.yaml"
    path.write_text("name: f\nseed: 1\nseats: 2\ngames: 2\nbootstrap: 0\n"
                    f"bots:\n  - {{name: two, command: '{COMMAND}'}}\n  - builtin:easy\n")
    return path


@pytest.mark.slow
def test_match_with_out_shows_the_message_and_the_replay_command(tmp_path):
    out = tmp_path / "out"
    res = lastcard(tmp_path, "match", "-n", "2", "--no-report", "--out", str(out), f"two={COMMAND}", "builtin:easy")
    assert res.returncode == 0, res.stderr
    text = block(res.stderr)
    assert "  two:\n    non_json (2 times; the first in g0001, seat 0): " + WORDS in text
    assert f"      lastcard replay {out} g0001 --seat 0" in text
    replay_shows_it(tmp_path, text)


@pytest.mark.slow
def test_match_without_out_shows_the_message_and_no_command(tmp_path):
    res = lastcard(tmp_path, "match", "-n", "2", f"two={COMMAND}", "builtin:easy")
    assert res.returncode == 0, res.stderr
    text = block(res.stderr)
    assert text.startswith("faults, the first of each kind:\n") and WORDS in text
    assert "lastcard replay" not in text  # the games went with the scratch folder


@pytest.mark.slow
def test_a_match_without_faults_prints_no_block(tmp_path):
    res = lastcard(tmp_path, "match", "-n", "2", "builtin:easy", "builtin:random")
    assert res.returncode == 0, res.stderr
    assert "faults, the first" not in res.stderr


@pytest.mark.slow
def test_arena_shows_the_fault(tmp_path):
    out = tmp_path / "out"
    res = lastcard(tmp_path, "arena", str(arena_file(tmp_path)), "--out", str(out), "--no-report")
    assert res.returncode == 0, res.stderr
    text = block(res.stderr)
    assert "non_json (2 times; the first in g000001, seat 0): " + WORDS in text
    replay_shows_it(tmp_path, text)


@pytest.mark.slow
def test_compare_shows_the_fault(tmp_path):
    out = tmp_path / "out"
    res = lastcard(tmp_path, "compare", COMMAND, "builtin:easy", "--games", "2", "--out", str(out), "--no-report")
    assert res.returncode == 0, res.stderr
    text = block(res.stderr)
    assert "non_json (2 times; the first in p000001a, seat 0): " + WORDS in text
    replay_shows_it(tmp_path, text)


@pytest.mark.slow
def test_ladder_run_shows_the_fault(tmp_path):
    out = tmp_path / "out"
    res = lastcard(tmp_path, "ladder", "run", str(arena_file(tmp_path)), "--db", str(tmp_path / "l.db"),
                   "--out", str(out), "--games-per-bot", "2", "--quiet")
    assert res.returncode == 0, res.stderr
    text = block(res.stderr)
    assert "non_json (2 times; the first in L000001, seat 0): " + WORDS in text
    replay_shows_it(tmp_path, text)


def test_the_first_is_the_lowest_game_whatever_the_order_games_end_in():
    faults = FirstFaults()
    late = Fault(FaultKind.TIMEOUT, "late", seat=1)
    faults.add("g0009", ("a", "b"), [late])
    faults.add("g0002", ("b", "a"), [Fault(FaultKind.TIMEOUT, "first", seat=1)])
    faults.add("g0005", ("a", "b"), [late, Fault(FaultKind.CRASH, "crashed", seat=0, bot="a")])
    got = {(f.bot, f.kind): (f.game, f.seat, f.message, f.count) for f in faults.of()}
    assert got == {("b", "timeout"): ("g0005", 1, "late", 2), ("a", "timeout"): ("g0002", 1, "first", 1),
                   ("a", "crash"): ("g0005", 0, "crashed", 1)}


def test_a_class_of_300_with_faults_gets_a_bounded_block():
    faults = FirstFaults()
    for i in range(300):
        faults.add(f"g{i:04d}", (f"s{i:03d}", "easy"), [Fault(FaultKind.NON_JSON, "x" * 1000, seat=0),
                                                        Fault(FaultKind.TIMEOUT, "slow", seat=0)])
    lines = fault_lines(faults, "/out")
    assert len(lines) <= LINES + 2
    assert lines[-1] == "  and 592 more (of 296 bots): see /out/report.html"  # 4 bots whole, 5 lines each
    assert lines[1:3] == ["  s000:", "    non_json (once; the first in g0000, seat 0): " + "x" * 300 + " ..."]
    assert all(len(line) < 400 for line in lines)  # a long message is cut
    no_out = fault_lines(faults, None)
    assert no_out[-1].endswith(": --out DIR keeps every fault") and len(no_out) <= LINES + 2


def test_start_up_faults_of_a_bot_told_elsewhere_are_left_out():
    faults = FirstFaults()
    faults.add("g1", ("ghost", "easy"), [Fault(FaultKind.STARTUP, "exited", seat=0)])
    assert fault_lines(faults, None, leave_out=["ghost"]) == []
    assert "startup (once; the first in g1, seat 0): exited" in fault_lines(faults, None)[2]


def test_one_bot_with_more_kinds_than_fit_is_cut_by_kind():
    faults = FirstFaults()
    kinds = [k for k in FaultKind][:12]
    faults.add("g1", ("a", "b"), [Fault(k, "m", seat=0) for k in kinds])
    lines = fault_lines(faults, "/out", limit=10)
    assert lines[1] == "  a:" and len(lines) == 1 + (1 + 4 * 2) + 1  # heading, "a:" and 4 kinds of 2 lines, the rest
    assert lines[-1] == f"  and {len(kinds) - 4} more (of 1 bot): see /out/report.html"


@pytest.mark.slow
def test_compare_candidates_shows_the_fault(tmp_path):
    out = tmp_path / "out"
    res = lastcard(tmp_path, "compare", "builtin:easy", "--candidate", COMMAND, "--candidate", "builtin:random",
                   "--max-games", "4", "--out", str(out), "--no-report")
    assert res.returncode == 0, res.stderr
    text = block(res.stderr)
    assert "non_json (" in text and WORDS in text
    replay_shows_it(tmp_path, text)
