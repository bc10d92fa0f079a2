"""An arena with ``grading:`` end to end: grades.csv holds a row per student whose rank range and rating are
results.json's (the one standings), whose points follow the block's rule, a left-out student's row with the
reason, and each student's bots/NAME.md explains the points."""

from __future__ import annotations

import csv
import json
import math
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
ARENA = """\
name: graded
seed: 5
ruleset: arcade
seats: 2
format: round_robin
games: 2
bootstrap: 40
bots:
  - submissions: {path: "students/*"}
  - builtin:random
  - builtin:hard
grading:
  by: rank
  best: 100
  worst: 50
  shared_rank: best
  left_out: 10
  round: 0.5
  points_column: Contest 1
"""


def graded_run(tmp_path: Path) -> tuple[Path, str]:
    for name, bot in (("ann", "strong_bot.py"), ("bob", "random_bot.py"), ("cy dee", "strong_bot.py")):
        folder = tmp_path / "students" / name
        folder.mkdir(parents=True)
        shutil.copy(ROOT / "sample_bots" / "python" / bot, folder / "bot.py")
        shutil.copy(ROOT / "sample_bots" / "python" / "botkit.py", folder / "botkit.py")
    (tmp_path / "students" / "empty").mkdir()
    (tmp_path / "arena.yaml").write_text(ARENA)
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["arena", str(tmp_path / "arena.yaml"), "--out", str(out), "-j", "2", "-q",
                                   "--check-games", "0", "--no-report"])
    assert res.exit_code == 0, res.output
    return out, res.output


def expected_points(rank: int, field: int) -> str:
    """best 100 at rank 1, worst 50 at the last rank, rounded half up to a multiple of 0.5 (as the file asks)."""
    raw = 100 + (50 - 100) * (rank - 1) / (field - 1)
    return f"{math.floor(raw * 2 + 0.5) / 2:.1f}"


def test_grades_csv_follows_the_standings_and_explains_each_students_points(tmp_path):
    out, output = graded_run(tmp_path)
    assert f"grades: {out / 'grades.csv'}" in output
    doc = json.loads((out / "results.json").read_text())
    with (out / "grades.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0])[:2] == ["student", "Contest 1"]
    standings = {r["bot"]: r for r in doc["standings"]}
    ranges = doc["order"]["rank_ranges"]
    field = len(doc["standings"])
    graded = {r["student"]: r for r in rows}
    assert set(graded) == {"ann", "bob", "cy dee", "empty"}  # students only: no built-in players
    assert any(best != worst for best, worst in ranges.values()), ranges  # the test must see a shared range
    for student in ("ann", "bob", "cy dee"):
        row, std = graded[student], standings[student]
        best, worst = ranges[student]
        assert (int(row["rank_best"]), int(row["rank_worst"])) == (best, worst)
        assert float(row["rating"]) == round(std["rating"], 1)
        assert (float(row["rating_low"]), float(row["rating_high"])) == (round(std["rating_low"], 1),
                                                                         round(std["rating_high"], 1))
        assert int(row["games"]) == std["games"] and int(row["faults"]) == sum(std["faults"].values())
        assert row["Contest 1"] == expected_points(best, field)  # shared_rank: best
        assert row["left_out"] == ""
        report = (out / "bots" / f"{student.replace(' ', '_')}.md").read_text()
        assert f"- points: **{row['Contest 1']}** (the gradebook column `Contest 1`, id `{student}`)" in report
        assert f"rank 1 gets 100, rank {field} (the last) gets 50" in report
    order = [r["student"] for r in rows]
    assert order[:3] == [b for b in (r["bot"] for r in doc["standings"]) if b in graded]  # standings order
    empty = graded["empty"]
    reason = next(x["reason"] for x in doc["left_out"] if x["bot"] == "empty")
    assert (empty["Contest 1"], empty["games"], empty["rank_best"], empty["left_out"]) == ("10.0", "0", "", reason)
    assert "a student left out gets 10 points; left out because no bot found" in (out / "bots" / "empty.md").read_text()
    index = (out / "bots" / "index.md").read_text()
    assert "| place | bot | games | wins | faults | points | report |" in index
    assert "| left out | empty | 0 | 0 | 0 | 10.0 | [empty.md](empty.md) |" in index
