"""The README's quick start: the shipped sample arena builds its bots and plays them without a fault.

A bounded run (the first games of the first stage); the whole arena is the README's command.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from referee.arena import load_arena, run_arena

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("gcc", "javac", "java", "node")


@pytest.mark.skipif(any(shutil.which(t) is None for t in TOOLS),
                    reason=f"the sample arena needs {', '.join(TOOLS)} (.ci/run installs them)")
def test_the_sample_arena_builds_every_bot_and_plays_without_faults(tmp_path):
    classes = ROOT / "sample_bots" / "java" / "classes"
    shutil.rmtree(classes, ignore_errors=True)  # the build step must make it, not an earlier run
    arena = load_arena(str(ROOT / "arenas" / "sample.yaml"))
    # The builds run beside the first games (issue 51), and a game seating a bot waits for its build: the first
    # stage (a round: the next waits for it) has 90 games without java-bot (10 tables of 20, 9 games each) and 90
    # without c-bot, so by its 91st game both builds are in.
    run = run_arena(arena, out=str(tmp_path / "out"), jobs=2, stop_after=91)
    assert run.left_out == []  # every bot built and found its toolchain
    # Compiled once, beside the first games (not by each worker), in a copy behind the walls: the bot runs from it,
    # and the shipped folder is as it was.
    java = next(b for b in run.doc.bots if b["name"] == "java-bot")
    assert (Path(java["cwd"]) / "classes" / "Bot.class").is_file()
    assert not classes.exists()
    games = [json.loads(line) for line in (tmp_path / "out" / "games.jsonl").read_text().splitlines()]
    assert len(games) == 91
    assert {name for g in games for name in g["seating"]} == {"c-bot", "java-bot", "js-bot", "strong-py",
                                                              "random-py", "hard"}
    assert [f for g in games for f in g["faults"]] == []
    # `java Bot.java` still runs in the folder after the build (it refuses a Bot.class beside the source).
    assert not (ROOT / "sample_bots" / "java" / "Bot.class").exists()
