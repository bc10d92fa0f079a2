"""The arena as a person runs it, in a real terminal (a pty): the progress bar, Ctrl-C, --resume."""

from __future__ import annotations

import json
import sys

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow

pexpect = pytest.importorskip("pexpect", reason="pexpect is in the 'test' extra: pip install -e '.[test]'")

ARENA = """\
name: terminal
seed: 7
ruleset: family
options: {target: 500}
seats: 4
format: round_robin
games: 160
bots: [builtin:random, builtin:easy, builtin:medium, builtin:hard, builtin:random]
"""


def _spawn(args: list[str], cwd) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "referee.cli.main", *args], cwd=str(cwd), encoding="utf-8",
                         timeout=120, dimensions=(40, 160), env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_progress_bar_ctrl_c_and_resume_in_a_terminal(tmp_path):
    (tmp_path / "arena.yaml").write_text(ARENA)
    out = tmp_path / "out"
    child = _spawn(["arena", "arena.yaml", "--out", str(out), "--jobs", "1"], tmp_path)
    # The bar: games done of the total, the rate and an ETA, redrawn in place.
    child.expect(r"(\d+)/800 games\s+[\d.]+/s\s+ETA \d+ s")
    child.expect(r"(\d+)/800 games")
    child.sendintr()  # Ctrl-C, as the terminal sends it
    child.expect("rank")  # the standings so far
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    done = len((out / "games.jsonl").read_text().splitlines())
    assert 0 < done < 800

    child = _spawn(["arena", "arena.yaml", "--out", str(out), "--jobs", "1", "--resume"], tmp_path)
    child.expect(pexpect.EOF, timeout=300)
    child.close()
    assert child.exitstatus == 0, child.before
    lines = (out / "games.jsonl").read_text().splitlines()
    assert len(lines) == 800
    assert len({json.loads(line)["game"] for line in lines}) == 800  # no game played twice
    doc = json.loads((out / "results.json").read_text())
    assert doc["complete"] is True and doc["standings"][0]["rank"] == 1
