"""A class graded against benchmarks from the command line, as a teacher runs it: grades.csv, each student's
report with the tests and their LLR traces, report.html; a student's grade row the same bytes whatever happens to
classmates; the ladder keeping the benchmark games across runs; a contest and benchmark grades in one file.

The bots are the trusted sample Python bots, run with ``--sandbox none`` for speed (the walls are tested in
tests/bots)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from tests.benchmarks.classes import GRADED, grade_rows, grades, make_class

pytestmark = pytest.mark.slow  # every test here starts a process


def arena(path: Path, out: Path, *more: str) -> str:
    result = CliRunner().invoke(cli, ["arena", str(path), "--out", str(out), "-q", "-j", "2", "--sandbox", "none",
                                      "--check-games", "0", *more])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_class_is_graded_against_the_benchmarks_and_each_student_told_why(tmp_path):
    path = make_class(tmp_path, {"ann": "strong", "bob": "random", "hal": ""})
    out = tmp_path / "out"
    output = arena(path, out)
    rows = grades(out / "grades.csv")
    header = (out / "grades.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header == "student,Bots,band,decided,games,faults,tested,elo,elo_low,elo_high,left_out,flag"
    # ann is far stronger than easy and medium: both bands, decided; bob loses to easy: 40, decided
    assert (rows["ann"]["Bots"], rows["ann"]["band"], rows["ann"]["decided"]) == ("80", "builtin:medium", "yes")
    assert (rows["bob"]["Bots"], rows["bob"]["band"], rows["bob"]["decided"], rows["bob"]["tested"]) == (
        "40", "below", "yes", "easy")
    assert rows["hal"]["Bots"] == "5" and rows["hal"]["left_out"].startswith("no bot found")
    assert rows["ann"]["flag"] == rows["bob"]["flag"] == ""
    # the results folder of the benchmark games (no contest: OUT itself), and the block grades come from
    doc = json.loads((out / "results.json").read_text())
    block = {s["student"]: s for s in doc["benchmarks"]["students"]}
    assert block["ann"]["games"] == int(rows["ann"]["games"]) and block["ann"]["passed"] == 2
    assert [t["verdict"] for t in block["bob"]["tests"]] == ["H0"]
    # the terminal: a line per student
    assert "ann" in output and "stronger than easy, medium" in output and f"grades: {out / 'grades.csv'}" in output
    # each student's report: the tests decided, after how many games, with the LLR after each pair
    report = (out / "bots" / "ann.md").read_text()
    easy = block["ann"]["tests"][0]
    assert "## Benchmark tests" in report and "| 1 | `builtin:easy` | 60 | yes |" in report
    assert f"easy: decided: stronger after {easy['games']} games. LLR after each pair:" in report
    assert " ".join(f"{x:.2f}" for x in easy["llr_trace"][:5]) in report
    assert "## Grade" in report and "points: **80**" in report
    page = (out / "report.html").read_text()
    assert "<section id=benchmarks>" in page and "benchmark-student" in page


def test_a_students_grade_row_does_not_change_when_classmates_are_added_removed_or_changed(tmp_path):
    out = tmp_path / "out"
    runs = {"alone": {"ann": "strong", "bob": "random"},
            "added": {"ann": "strong", "bob": "random", "cy": "strong"},
            "removed": {"ann": "strong"},
            "changed": {"ann": "strong", "bob": "strong"}}
    rows, games = {}, {}
    for label, students in runs.items():
        path = make_class(tmp_path, students)
        arena(path, out, "--fresh")
        rows[label] = grade_rows(out / "grades.csv")["ann"]
        games[label] = [json.loads(x)["seed"] for x in (out / "games.jsonl").read_text().splitlines()
                        if x.startswith('{"game":"ann:')]
    assert len(set(rows.values())) == 1, rows  # byte for byte
    assert len({tuple(g) for g in games.values()}) == 1 and games["alone"]  # the same games, deal for deal
    assert grades(out / "grades.csv")["bob"]["Bots"] == "80"  # bob changed: his own grade moved


def test_the_ladder_keeps_the_benchmark_games_and_plays_only_what_a_changed_submission_needs(tmp_path):
    path = make_class(tmp_path, {"ann": "strong", "bob": "random"})
    db = tmp_path / "class.sqlite"

    def ladder() -> str:
        result = CliRunner().invoke(cli, ["ladder", "run", str(path), "--db", str(db), "-q", "-j", "2"])
        assert result.exit_code == 0, result.output
        return result.output

    first = ladder()
    report = tmp_path / "class-report"
    before = grade_rows(report / "grades.csv")
    assert "kept from earlier runs" not in first
    again = ladder()
    assert "(0 played now," in again and grade_rows(report / "grades.csv") == before
    # bob hands in a new bot: only his tests are played again; ann's row is the same bytes
    (tmp_path / "students" / "bob" / "bot.py").write_text(
        (tmp_path / "students" / "ann" / "bot.py").read_text())
    changed = ladder()
    block = {s["student"]: s for s in json.loads((report / "benchmarks" / "results.json").read_text())
             ["benchmarks"]["students"]}
    played = int(re.search(r"\((\d+) played now,", changed).group(1))  # type: ignore[union-attr]
    assert block["bob"]["games"] <= played < block["bob"]["games"] + block["ann"]["games"]  # games read ahead of a
    # verdict are played but not counted: never ann's tests again
    after = grade_rows(report / "grades.csv")
    assert after["ann"] == before["ann"] and after["bob"] != before["bob"]


def test_a_contest_and_benchmark_grades_in_one_file(tmp_path):
    contest = GRADED.replace("bots:\n", "seats: 2\nformat: round_robin\ngames: 2\nbots:\n  - builtin:medium\n")
    path = make_class(tmp_path, {"ann": "strong", "bob": "random"}, contest)
    out = tmp_path / "out"
    output = arena(path, out)
    assert (out / "results.json").exists() and json.loads((out / "results.json").read_text())["kind"] == "arena"
    bench = json.loads((out / "benchmarks" / "results.json").read_text())
    assert bench["kind"] == "benchmarks"
    rows = grades(out / "grades.csv")
    assert rows["ann"]["Bots"] == "80" and set(rows) == {"ann", "bob"}  # students only: builtin:medium is not one
    report = (out / "bots" / "ann.md").read_text()
    assert "- place:" in report and "## Benchmark tests" in report  # the contest's record and the grade's tests
    assert f"games in {out / 'benchmarks'}" in output
