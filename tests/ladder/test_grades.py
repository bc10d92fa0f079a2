"""The ladder writes grades.csv at every run, from that run's standings (the one model), and says where."""

from __future__ import annotations

import csv
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.arena import load_arena
from referee.cli.main import cli
from referee.ladder.run import LadderOptions, run_ladder

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
CLASS = """\
name: class
seed: 3
ruleset: arcade
seats: 2
bootstrap: 10
bots:
  - builtin:hard
  - builtin:random
  - submissions: {path: 'subs/*'}
grading: {by: table, table: [[1, 100], [2, 90]], rest: 75, left_out: 0, shared_rank: worst, details: true}
"""


def grades(out: Path) -> dict[str, dict[str, str]]:
    with (out / "grades.csv").open(encoding="utf-8", newline="") as fh:
        return {r["student"]: r for r in csv.DictReader(fh)}


def table_points(rank: int) -> str:
    return "100" if rank <= 1 else "90" if rank <= 2 else "75"


def test_every_ladder_run_writes_grades_from_its_standings(tmp_path):
    for name in ("ann", "bob"):
        (tmp_path / "subs" / name).mkdir(parents=True)
        shutil.copy(ROOT / "sample_bots" / "python" / "random_bot.py", tmp_path / "subs" / name / "bot.py")
    (tmp_path / "subs" / "gil").mkdir()  # handed in nothing: left out, with a row all the same
    path = tmp_path / "class.yaml"
    path.write_text(CLASS)
    db, out = tmp_path / "l.sqlite", tmp_path / "report"
    for budget in (6, 10):
        run = run_ladder(load_arena(str(path)), str(db), out=str(out), jobs=2,
                         options=LadderOptions(share=3, budget=budget))
        assert str(out / "grades.csv") in run.paths
        rows = grades(out)
        assert set(rows) == {"ann", "bob", "gil"}
        for student in ("ann", "bob"):
            std = run.standings.row(student)
            assert std is not None
            assert (rows[student]["rank_best"], rows[student]["rank_worst"]) == (str(std.rank_best),
                                                                                str(std.rank_worst))
            assert rows[student]["games"] == str(std.games)  # this run's standings, not the first run's
            assert rows[student]["points"] == table_points(std.rank_worst)  # shared_rank: worst
        assert rows["gil"]["points"] == "0" and rows["gil"]["left_out"].startswith("no bot found in 'subs/gil'")
    report = (out / "bots" / "ann.md").read_text()
    assert "by a table of ranks (up to rank 1: 100; up to rank 2: 90; below: 75)" in report


def test_ladder_run_on_the_command_line_says_where_the_grades_are(tmp_path):
    shutil.copy(ROOT / "sample_bots" / "python" / "random_bot.py", tmp_path / "me.py")
    path = tmp_path / "l.yaml"
    path.write_text(f"name: l\nruleset: arcade\nseats: 2\nbootstrap: 0\nbots: [builtin:hard, builtin:random, "
                    f"{{name: me, command: '{sys.executable} me.py'}}]\ngrading: {{by: rank, best: 10, worst: 0}}\n")
    out = tmp_path / "rep"
    res = CliRunner().invoke(cli, ["ladder", "run", str(path), "--db", str(tmp_path / "l.sqlite"), "--out", str(out),
                                   "--budget", "3", "-j", "1"])
    assert res.exit_code == 0, res.output
    assert f"grades: {out / 'grades.csv'}" in res.output
    lines = (out / "grades.csv").read_text().splitlines()
    assert lines[0].startswith("student,points,rank_best") and len(lines) == 2 and lines[1].startswith("me,")
