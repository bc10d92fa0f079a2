"""The ladder with ``similarity:`` in its arena file: after each run, the report folder's bots (the versions whose
games count) are compared on its games; a bot changed into a copy is found at the next run."""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.similar_class import make_class

pytestmark = pytest.mark.slow


def lastcard(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee.cli.entry", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600)


def standing_out(report: Path) -> set[tuple[str, ...]]:
    rows = csv.DictReader((report / "similarity.csv").open())
    return {tuple(sorted((r["bot_a"], r["bot_b"]))) for r in rows if r["stands_out"] == "yes"}


def test_each_run_compares_the_latest_versions_and_finds_a_bot_changed_into_a_copy(tmp_path: Path):
    commands = make_class(tmp_path / "bots", with_js=False)
    keep = ("strong", "disguised", "heavy", "hoarder", "random")
    bots = "\n".join(f"  - {{name: {n}, command: '{commands[n]}'}}" for n in keep)
    (tmp_path / "class.yaml").write_text(
        "name: class\nseed: 7\nruleset: family\nseats: 4\nbootstrap: 0\nsimilarity: {points: 150, references: false}\n"
        f"bots:\n{bots}\n  - {{name: medium, command: 'builtin:medium'}}\n")
    run = ["ladder", "run", "class.yaml", "--db", "class.sqlite", "--games-per-bot", "8", "--quiet"]
    first = lastcard(tmp_path, *run)
    assert first.returncode == 0, first.stderr
    report = tmp_path / "class-report"
    assert standing_out(report) == {("disguised", "strong")}
    assert "disguised / strong" in first.stdout and "Bots that play alike" in (report / "report.html").read_text()
    # hoarder hands in strong's program: its games are retired, and the next run compares the new version.
    shutil.copy(tmp_path / "bots" / "strong" / "bot.py", tmp_path / "bots" / "hoarder" / "bot.py")
    second = lastcard(tmp_path, *run)
    assert second.returncode == 0, second.stderr
    assert standing_out(report) == {("disguised", "strong"), ("hoarder", "strong"), ("disguised", "hoarder")}
    # Without the key, the next run leaves no figures of other games behind.
    path = tmp_path / "class.yaml"
    path.write_text(path.read_text().replace("similarity: {points: 150, references: false}\n", ""))
    third = lastcard(tmp_path, *run)
    assert third.returncode == 0, third.stderr
    assert not (report / "similarity.csv").exists()
    assert "Bots that play alike" not in (report / "report.html").read_text()
