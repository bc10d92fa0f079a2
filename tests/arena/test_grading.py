"""The ``grading:`` block without processes: its points rules as tables, rank ranges, left-out students, the
rows of grades.csv from a standings, and the errors a bad block gets (the value and the fix, never a traceback)."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.arena.config import ArenaFileError, load_arena, parse_arena
from referee.bots.entry import BotEntry
from referee.bots.spec import BotSpec
from referee.cli.main import cli
from referee.grading.grades import DETAIL_COLUMNS, grade_students, grades_csv, student_id
from referee.grading.rule import Grading
from referee.standings.model import LeftOutEntry, StandingRow, Standings

ARENAS = Path(__file__).resolve().parents[2] / "arenas"
RANK = Grading(by="rank", best=100, worst=60)
TABLE = Grading(by="table", table=((1, 100), (3, 90), (10, 80)), rest=70)
RATING = Grading(by="rating", rating=((1300, 60), (1700, 100)))


@pytest.mark.parametrize(("grading", "rank", "field", "points"), [
    pytest.param(RANK, 1, 9, 100, id="rank-first-gets-best"),
    pytest.param(RANK, 9, 9, 60, id="rank-last-gets-worst"),
    pytest.param(RANK, 5, 9, 80, id="rank-middle-on-the-line"),
    pytest.param(RANK, 1, 1, 100, id="rank-alone-gets-best"),
    pytest.param(TABLE, 1, 20, 100, id="table-first-row"),
    pytest.param(TABLE, 2, 20, 90, id="table-up-to-3"),
    pytest.param(TABLE, 10, 20, 80, id="table-last-row-inclusive"),
    pytest.param(TABLE, 11, 20, 70, id="table-below-is-rest"),
])
def test_rank_points(grading, rank, field, points):
    assert grading.rank_points(rank, field) == pytest.approx(points)


@pytest.mark.parametrize(("rating", "points"), [
    pytest.param(1200, 60, id="below-the-first-is-flat"), pytest.param(1300, 60, id="first-pair"),
    pytest.param(1500, 80, id="halfway"), pytest.param(1700, 100, id="last-pair"),
    pytest.param(2400, 100, id="above-the-last-is-flat")])
def test_rating_points(rating, points):
    assert RATING.rating_points(rating) == pytest.approx(points)


@pytest.mark.parametrize(("step", "value", "text"), [
    (1, 92.5, "93"), (1, 92.49, "92"), (0.5, 92.74, "92.5"), (0.5, 92.75, "93.0"), (0.1, 80.05, "80.1"), (2, 81, "82")])
def test_rounding_is_half_up_to_a_multiple_of_the_step(step, value, text):
    assert Grading(by="rank", round=step).rounded(value) == text


def entry(name: str, folder: str | None = None) -> BotEntry:
    return BotEntry(BotSpec(name=name, command=f"python3 {name}.py"), "bots", submission=folder)


def row(bot: str, rank: int, best: int, worst: int, rating: float = 1500.0) -> StandingRow:
    return StandingRow(rank=rank, bot=bot, games=10, wins=2, draws=0, avg_place=2.0, points=0, rating=rating,
                       rating_low=rating - 50, rating_high=rating + 50, faults=(("timeout", 2),),
                       rank_best=best, rank_worst=worst)


STANDINGS = Standings(rows=(row("hard", 1, 1, 1, 1700), row("ann", 2, 2, 4, 1600), row("bob", 3, 2, 4, 1550),
                            row("cy", 4, 2, 4, 1500), row("dan", 5, 5, 5, 1300)),
                      left_out=(LeftOutEntry("eve", "build failed (exit code 1)"),))
ENTRIES = [BotEntry(BotSpec(name="hard", command="builtin:hard"), "bots"), entry("ann", "/class/students/ann/"),
           entry("bob", "students/bob"), entry("cy"), entry("dan", "students/dan"), entry("eve", "students/eve"),
           entry("fay", "students/fay")]


@pytest.mark.parametrize(("shared", "ann"), [("best", 90.0), ("worst", 70.0), ("rank", 90.0), ("mean", 80.0)])
def test_a_rank_range_counts_as_shared_rank_says(shared, ann):
    grading = Grading(by="rank", best=100, worst=60, shared_rank=shared, round=0.01)
    grades = {g.bot: g for g in grade_students(STANDINGS, ENTRIES, grading)}
    assert float(grades["ann"].points) == pytest.approx(ann)
    assert grades["dan"].points == "60.00"  # a rank of its own counts as itself whatever the rule


def test_grades_csv_has_a_row_per_student_from_the_standings_and_the_left_out():
    grading = Grading(by="rank", best=100, worst=60, left_out=5, id_column="SIS Login ID", points_column="Contest")
    rows = list(csv.reader(io.StringIO(grades_csv(grade_students(STANDINGS, ENTRIES, grading), grading))))
    assert rows[0] == ["SIS Login ID", "Contest", *DETAIL_COLUMNS, "flag"]
    by_id = {r[0]: dict(zip(rows[0], r)) for r in rows[1:]}
    assert [r[0] for r in rows[1:]] == ["ann", "bob", "cy", "dan", "eve", "fay"]  # standings order, then by name
    assert "hard" not in by_id  # a built-in player is not a student
    assert by_id["ann"]["Contest"] == "90" and (by_id["ann"]["rank_best"], by_id["ann"]["rank_worst"]) == ("2", "4")
    assert (by_id["ann"]["rating"], by_id["ann"]["rating_low"], by_id["ann"]["rating_high"]) == (
        "1600.0", "1550.0", "1650.0")
    assert (by_id["ann"]["games"], by_id["ann"]["faults"], by_id["ann"]["left_out"]) == ("10", "2", "")
    assert by_id["eve"] == {**by_id["eve"], "Contest": "5", "games": "0", "rank_best": "",
                            "left_out": "build failed (exit code 1)"}
    assert by_id["fay"]["left_out"] == "it played no game" and by_id["fay"]["Contest"] == "5"


def test_a_submission_given_as_a_file_is_known_by_its_name_without_the_extension(tmp_path):
    (tmp_path / "ann.py").write_text("")
    (tmp_path / "bob.v2").mkdir()
    assert student_id(entry("ann", str(tmp_path / "ann.py"))) == "ann"
    assert student_id(entry("bob", str(tmp_path / "bob.v2"))) == "bob.v2"  # a folder keeps its whole name
    assert student_id(entry("cy")) == "cy"  # given by command: its name


def test_the_classroom_template_grades_against_the_built_in_players(tmp_path):
    shutil.copy(ARENAS / "classroom.yaml", tmp_path / "classroom.yaml")
    for student in ("ada", "bob"):
        (tmp_path / "students" / student).mkdir(parents=True)
        (tmp_path / "students" / student / "bot.py").write_text("")
    arena = load_arena(str(tmp_path / "classroom.yaml"))
    grading = arena.grading
    assert grading is not None and grading.by == "benchmarks" and arena.contest  # a contest, graded to a standard
    assert [(b.bot, b.points) for b in grading.bands] == [("builtin:easy", 60), ("builtin:medium", 80),
                                                          ("builtin:hard", 100)]
    assert grading.points_column == "Last Card bot" and grading.id_column == "student"


def test_without_details_grades_csv_holds_only_the_id_and_the_points():
    grading = Grading(by="rating", rating=((1300, 60), (1700, 100)), details=False)
    text = grades_csv(grade_students(STANDINGS, ENTRIES, grading), grading)
    assert text.splitlines()[:3] == ["student,points", "ann,90", "bob,85"]
    assert text.endswith("\r\n")  # RFC 4180 line ends, which every gradebook reads


def test_each_grade_explains_its_points():
    grading = Grading(by="rank", best=100, worst=60, shared_rank="mean")
    grades = {g.bot: g for g in grade_students(STANDINGS, ENTRIES, grading)}
    why = "\n".join(grades["bob"].why)
    assert "points: **80**" in why and "rank 1 gets 100, rank 5 (the last) gets 60" in why
    assert "rank range 2-4" in why and "mean of its ranks' points (90.00, 80.00, 70.00): 80.00" in why
    assert "left out because build failed (exit code 1)" in "\n".join(grades["eve"].why)


def problems(text: str, tmp_path) -> list[str]:
    with pytest.raises(ArenaFileError) as err:
        parse_arena("bots: [builtin:hard, builtin:random]\nseats: 2\ngrading:\n" + text, base_dir=str(tmp_path))
    return [str(p) for p in err.value.problems]


@pytest.mark.parametrize(("block", "expected"), [
    pytest.param("  by: rank\n  best: 100\n  worts: 60\n",
                 "grading.worts: unknown key 'worts'; did you mean 'worst'?", id="unknown-key"),
    pytest.param("  by: ranks\n",
                 "grading.by: 'ranks' is not one of benchmarks, rank, rating, table (did you mean 'rank'?)",
                 id="unknown-rule"),
    pytest.param("  by: rank\n  best: 100\n  worst: 60\n  round: 0\n", "grading.round: 0 must be more than 0",
                 id="round-zero"),
    pytest.param("  by: rank\n  best: -5\n  worst: 60\n", "grading.best: -5 is less than the minimum, 0",
                 id="negative-points"),
    pytest.param("  by: rank\n  best: 100\n  worst: 60\n  shared_rank: median\n",
                 "grading.shared_rank: 'median' is not one of best, mean, worst, rank", id="unknown-shared-rank"),
    pytest.param("  best: 100\n", "grading.by: missing", id="no-rule"),
    pytest.param("  by: table\n  table: [[1, 100], [3, 90]]\n",
                 "grading.rest: missing: by: table needs table: [[1, 100], [3, 90], [10, 80]] and rest: 70",
                 id="table-without-rest"),
    pytest.param("  by: rank\n  best: 100\n  worst: 60\n  rest: 50\n",
                 "grading.rest: only means something with by: table; this block grades by rank (give best: 100 and "
                 "worst: 60, or by: table)", id="another-rules-key"),
    pytest.param("  by: table\n  table: [[3, 90], [1, 100]]\n  rest: 0\n",
                 "grading.table[1]: 1 comes after 3; the ranks must rise", id="falling-table"),
    pytest.param("  by: rating\n  rating: [[1300, 60], [1700]]\n",
                 "grading.rating[1]: has 1 item; at least 2 needed", id="half-a-pair"),
    pytest.param("  by: rating\n  rating: [[1300, 60], [1700, 'a lot']]\n",
                 "grading.rating[1][1]: found a string ('a lot'); expected a number", id="points-not-a-number"),
    pytest.param("  by: rating\n  rating: [[1300, 60], [1700, 100]]\n  shared_rank: mean\n",
                 "grading.shared_rank: only means something by rank or by table", id="shared-rank-with-rating"),
])
def test_a_bad_grading_block_is_an_error_naming_the_value_and_the_fix(block, expected, tmp_path):
    found = problems(block, tmp_path)
    assert any(p.startswith(expected) for p in found), found


def test_validate_prints_the_rule_and_refuses_a_bad_block_without_a_traceback(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text("bots: [builtin:hard, builtin:random]\nseats: 2\ngrading: {by: table, table: [[1, 10]], rest: 5}\n")
    res = CliRunner().invoke(cli, ["validate", str(good)])
    assert res.exit_code == 0, res.output
    assert "grading: by a table of ranks (up to rank 1: 10; below: 5)" in res.output and "grades.csv" in res.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("bots: [builtin:hard, builtin:random]\nseats: 2\ngrading: {by: rank, best: 100}\n")
    res = CliRunner().invoke(cli, ["validate", str(bad)])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "grading.worst: missing: by: rank needs best: 100 and worst: 60 (line 3)" in res.output
