"""A folder of submissions as bots: one bot per match, named after it; failing builds and missing
toolchains leave a bot out (reported), never stop the arena."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.arena import load_arena, run_arena
from referee.arena.config import ArenaFileError
from referee.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = ROOT / "sample_bots" / "python" / "random_bot.py"

ARENA = """\
name: class
ruleset: arcade
seats: 3
games: 3
bootstrap: 20
bots:
  - submissions:
      path: "students/*"
      exclude: ["_*"]
      command: "{python} bot.py"
      build: "sh build.sh"
      build_timeout_s: 2
  - builtin:random
  - {name: needs-tool, command: "builtin:easy", requires: no-such-compiler-xyz}
"""


def classroom(tmp_path: Path, builds: dict[str, str]) -> Path:
    for name, script in builds.items():
        folder = tmp_path / "students" / name
        folder.mkdir(parents=True)
        shutil.copy(RANDOM_BOT, folder / "bot.py")
        (folder / "build.sh").write_text(script)
    (tmp_path / "students" / "_template").mkdir()
    (tmp_path / "arena.yaml").write_text(ARENA)
    return tmp_path / "arena.yaml"


def test_one_bot_per_submission_named_after_it(tmp_path):
    path = classroom(tmp_path, {"ada": "true\n", "bob": "true\n"})
    arena = load_arena(str(path))
    names = [b.spec.name for b in arena.bots]
    assert names == ["ada", "bob", "random", "needs-tool"]
    ada = arena.bots[0]
    assert ada.spec.cwd == str(tmp_path / "students" / "ada") and ada.build == "sh build.sh"
    assert ada.spec.command.endswith("bot.py")


@pytest.mark.slow
def test_a_failing_build_is_reported_and_left_out_not_fatal(tmp_path):
    path = classroom(tmp_path, {"ada": "echo compiled ada\n", "bob": "true\n", "cy": "true\n",
                                "dee": "echo 'bot.c:3: error: expected ;' >&2\nexit 1\n", "eve": "sleep 30\n"})
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["arena", str(path), "--out", str(out), "--jobs", "2"])
    assert res.exit_code == 0, res.output + res.stderr
    assert "left out dee: build failed (exit code 1)" in res.stderr
    assert "bot.c:3: error: expected ;" in res.stderr  # the end of its output, the rest in the log
    assert "left out eve: build timed out after 2 s" in res.stderr
    assert "left out needs-tool: needs 'no-such-compiler-xyz', which is not on PATH" in res.stderr
    doc = json.loads((out / "results.json").read_text())
    assert doc["complete"]
    assert {r["bot"] for r in doc["standings"]} == {"ada", "bob", "cy", "random"}
    assert doc["left_out"] == [{"bot": "needs-tool", "reason": "needs 'no-such-compiler-xyz', which is not on PATH"},
                               {"bot": "dee", "reason": "build failed (exit code 1)"},
                               {"bot": "eve", "reason": "build timed out after 2 s"}]
    assert "compiled ada" in (out / "logs" / "ada.build.log").read_text()
    assert "error: expected" in (out / "logs" / "dee.build.log").read_text()
    assert all(r["games"] == 9 for r in doc["standings"])  # every table of 3 from 4, 3 games each
    assert (out / "logs" / "ada.stderr.log").exists()


@pytest.mark.slow
def test_too_few_bots_left_is_a_mistake_before_any_game(tmp_path):
    path = classroom(tmp_path, {"ada": "exit 2\n", "bob": "exit 2\n"})
    with pytest.raises(ArenaFileError, match=r"seats: 3 seats, but the arena has 1 bot after leaving out "
                                             r"needs-tool, ada, bob; a table needs 3"):
        run_arena(load_arena(str(path)), out=str(tmp_path / "out"), jobs=1)
    assert not (tmp_path / "out" / "games.jsonl").exists()


@pytest.mark.slow
def test_a_build_running_when_the_arena_is_killed_outright_is_killed_too(tmp_path):
    """``kill -9`` of ``lastcard arena`` during the build step: the watchdog ends the build's process group."""
    import os
    import subprocess
    import sys

    from tests.support.procs import groups_running, wait_group_gone, wait_until

    marker = f"lastcard-build-probe-{os.getpid()}"
    # bob makes the pool big enough for a table of 3 once needs-tool is left out: else the arena file's error comes
    # before any build runs.
    path = classroom(tmp_path, {"ada": f"{sys.executable} -c 'import time; time.sleep(30)' {marker}\n",
                                "bob": "true\n"})
    arena = subprocess.Popen([sys.executable, "-m", "referee.cli.main", "arena", str(path), "--out",
                              str(tmp_path / "out")], cwd=Path(__file__).resolve().parents[2],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    found = wait_until(lambda: groups_running(marker.encode()), within=20, step=0.02)
    try:
        assert found, "the build never started"
        build_group = found[0]
    finally:
        arena.kill()  # the build limit is 2 s: kill well inside it
        arena.wait(10)
    assert wait_group_gone(build_group) == [], "the build outlived the arena"
