"""Every entrant accounted for: a report per bot (its record, faults with the request, the line sent, that
game's stderr and the replay command), and stderr logs that say which game each part came from."""

from __future__ import annotations

import json
import os
import re
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.bots.pipes.transport import STDERR_MARK, StderrSink
from referee.cli.main import cli
from referee.store.bot_logs import stderr_by_game

CRASHY = textwrap.dedent("""\
    import json, sys
    n = 0
    for line in sys.stdin:
        m = json.loads(line)
        if m["type"] == "hello":
            print(json.dumps({"type": "ready", "name": "crashy"}), flush=True)
        elif m["type"] == "turn":
            n += 1
            print(f"thinking about turn {n}", file=sys.stderr, flush=True)
            if n == 3:
                raise RuntimeError("boom at turn 3")
            print(json.dumps(m["legal"][0]), flush=True)
        elif m["type"] == "quit":
            break
""")
STEADY = textwrap.dedent("""\
    import json, sys
    for line in sys.stdin:
        m = json.loads(line)
        if m["type"] == "hello":
            print(json.dumps({"type": "ready", "name": "steady"}), flush=True)
        elif m["type"] == "turn":
            print(json.dumps(m["legal"][0]), flush=True)
        elif m["type"] == "quit":
            break
""")
ARENA = """\
ruleset: compact
options: {target: 100}
seats: 2
format: round_robin
games: 2
records: true
bootstrap: 0
bots:
  - submissions: {path: "students/*"}
  - builtin:random
"""


def class_run(tmp_path: Path, *extra: str) -> Path:
    for name, text in (("crashy one", CRASHY), ("steady", STEADY)):
        (tmp_path / "students" / name).mkdir(parents=True)
        (tmp_path / "students" / name / "bot.py").write_text(text)
    (tmp_path / "students" / "empty").mkdir()
    (tmp_path / "arena.yaml").write_text(ARENA)
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["arena", str(tmp_path / "arena.yaml"), "--out", str(out), "-j", "2", "-q",
                                      *extra])
    assert result.exit_code == 0, result.output
    assert "reports per bot:" in result.output
    return out


@pytest.mark.slow
def test_every_entrant_gets_a_report_the_left_out_one_with_its_reason(tmp_path):
    out = class_run(tmp_path, "--check-games", "0")
    reports = sorted(os.listdir(out / "bots"))
    assert reports == ["crashy_one.html", "crashy_one.md", "empty.html", "empty.md", "index.md", "steady.html",
                       "steady.md"]  # built-ins have none (the pages, .html, are the report's: bots/NAME.html)
    empty = (out / "bots" / "empty.md").read_text()
    assert "**left out**: no bot found in 'students/empty'" in empty
    index = (out / "bots" / "index.md").read_text()
    assert "| left out | empty |" in index
    doc = json.loads((out / "results.json").read_text())
    assert [x["bot"] for x in doc["left_out"]] == ["empty"]


@pytest.mark.slow
def test_a_fault_comes_with_its_request_line_stderr_of_that_game_and_replay(tmp_path):
    out = class_run(tmp_path, "--check-games", "0")
    games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    crashed = [g["game"] for g in games if any(f["kind"] == "crash" for f in g["faults"])]
    assert crashed
    report = (out / "bots" / "crashy_one.md").read_text()
    assert f"### {crashed[0]}" in report
    assert '"type":"turn"' in report  # the request, from the game's record
    assert "RuntimeError: boom at turn 3" in report  # the stderr tail of that game
    assert f"lastcard replay . {crashed[0]}" in report and str(out) not in report  # run in the results folder
    seat = next(f["seat"] for g in games if g["game"] == crashed[0] for f in g["faults"] if f["kind"] == "crash")
    asked = re.search(rf"lastcard replay \. {crashed[0]} --seat {seat} --turn (\d+) --ask (.+)", report)
    assert asked, report  # the --ask command at the fault's turn, with the bot's command (or a placeholder)
    steady = (out / "bots" / "steady.md").read_text()
    assert "None: every answer was on time" in steady and "place: **" in steady


@pytest.mark.slow
def test_the_report_carries_the_check_run_as_the_contest_runs_it(tmp_path):
    out = class_run(tmp_path, "--check-games", "2")
    report = (out / "bots" / "crashy_one.md").read_text()
    assert "## lastcard check" in report and "FAILED" in report
    assert "move_ms 1000" in report and "policy forfeit" in report
    assert "## lastcard check\n\nPASSED" in (out / "bots" / "steady.md").read_text()


def test_stderr_log_parts_are_marked_with_their_game(tmp_path):
    log = tmp_path / "bot.stderr.log"
    sink = StderrSink(str(log))
    r, w = os.pipe()
    sink.label = "g000001 (seat 0)"
    os.write(w, b"one\n")
    os.close(w)
    sink.pump(r)
    os.close(r)
    # Another process appended in between (the same bot in another worker): the next part is marked again.
    with open(log, "ab") as fh:
        fh.write(f"{STDERR_MARK}g000002 (seat 1) ---\nother\n".encode())
    r, w = os.pipe()
    os.write(w, b"two\n")
    os.close(w)
    sink.pump(r)
    os.close(r)
    parts = stderr_by_game(str(log))
    assert parts[("g000001", 0)] == ["one", "two"]
    assert parts[("g000002", 1)] == ["other"]
