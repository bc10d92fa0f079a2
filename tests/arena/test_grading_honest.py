"""Honest grades by rank: a class the games do not separate is told so (with how many more games would part it),
a ``grading:`` block can hold grades.csv back until they do, a knockout's grades come from the overall rating with
its range, and faults cost points by the block's stated rule."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.arena.config import ArenaFileError, parse_arena
from referee.bots.entry import BotEntry
from referee.bots.spec import BotSpec
from referee.cli.main import cli
from referee.grading.grades import grade_students, grades_csv, write_grades
from referee.grading.rule import FaultRule, Grading
from referee.grading.separation import NEVER_FACTOR, by_overall_rating, separation
from referee.standings.model import StandingRow, Standings

ROOT = Path(__file__).resolve().parents[2]


def row(bot: str, rank: int, rating: float, half: float, best: int, worst: int, games: int = 10,
        reached: str | None = None, faults: tuple[tuple[str, int], ...] = ()) -> StandingRow:
    return StandingRow(rank=rank, bot=bot, games=games, wins=2, draws=0, avg_place=2.0, points=0, rating=rating,
                       rating_low=rating - half, rating_high=rating + half, rank_best=best, rank_worst=worst,
                       reached=reached, faults=faults)


def entry(name: str) -> BotEntry:
    return BotEntry(BotSpec(name=name, command=f"python3 {name}.py"), "bots", submission=f"students/{name}")


def test_the_games_that_would_part_two_neighbours_follow_the_intervals_widths():
    # 50 Elo apart, half-widths 50 each: the intervals part at ((50 + 50) / 50) ** 2 = 4 times their 10 games,
    # so 30 more games a bot; a copy (the same rating) never parts from its original
    rows = [row("ann", 1, 1600, 50, 1, 2), row("bob", 2, 1550, 50, 1, 2), row("cy", 3, 1400, 20, 3, 4),
            row("cy2", 4, 1400, 20, 3, 4)]
    sep = separation(rows, {"ann", "bob", "cy", "cy2"})
    assert not sep.separated and sep.shared == ("ann", "bob", "cy", "cy2")
    assert sep.more_games == 30 and sep.never == (("cy", "cy2"),)
    text = sep.text()
    assert "4 of 4 students hold a rank range" in text and "about 30 more games a bot" in text
    assert f"over {NEVER_FACTOR:g} times their games (cy and cy2)" in text
    apart = separation([row("ann", 1, 1600, 10, 1, 1), row("bob", 2, 1500, 10, 2, 2)], {"ann", "bob"})
    assert apart.separated and apart.text() == "" and apart.more_games is None


def test_grades_that_do_not_separate_are_flagged_and_can_be_held_back(tmp_path):
    standings = Standings(rows=(row("ann", 1, 1600, 80, 1, 3), row("bob", 2, 1580, 80, 1, 3),
                                row("cy", 3, 1560, 80, 1, 3), row("dan", 4, 1200, 30, 4, 4)))
    entries = [entry(n) for n in ("ann", "bob", "cy", "dan")]
    grading = Grading(by="rank", best=100, worst=60)
    rows = list(csv.DictReader(io.StringIO(grades_csv(grade_students(standings, entries, grading), grading))))
    flags = {r["student"]: r["flag"] for r in rows}
    assert flags["dan"] == "" and flags["ann"].startswith("rank range 1-3 shared with others")
    assert {r["points"] for r in rows if r["student"] != "dan"} == {"100"}  # the collapse the flag warns of
    written = write_grades(str(tmp_path), standings, entries, grading)
    assert written.path is not None and "3 of 4 students hold a rank range" in written.notes[0]
    held = write_grades(str(tmp_path), standings, entries, Grading(by="rank", best=100, worst=60,
                                                                   require_separation=True))
    assert held.path is None and not (tmp_path / "grades.csv").exists()  # the earlier file is not left stale
    assert "grades.csv is not written: the grading block asks for a separation" in held.notes[-1]


def test_a_knockouts_grades_follow_the_overall_rating_with_its_range():
    # The knockout put cy first (it won the final's few games) though ann and bob rate higher over all games.
    rows = (row("cy", 1, 1500, 20, 1, 1, reached="final"), row("ann", 2, 1700, 20, 2, 2, reached="final"),
            row("bob", 3, 1650, 20, 3, 3, reached="semi"))
    ranked = by_overall_rating(rows)
    assert [(r.bot, r.rank, r.rank_best, r.rank_worst) for r in ranked] == [("ann", 1, 1, 1), ("bob", 2, 2, 2),
                                                                           ("cy", 3, 3, 3)]
    grading = Grading(by="rank", best=100, worst=60)
    grades = {g.bot: g for g in grade_students(Standings(rows=rows), [entry(n) for n in ("ann", "bob", "cy")],
                                               grading)}
    assert (grades["ann"].points, grades["bob"].points, grades["cy"].points) == ("100", "80", "60")
    assert any("not the knockout's order" in line for line in grades["cy"].why)


def test_faults_cost_points_by_the_stated_rule():
    rows = (row("ann", 1, 1600, 10, 1, 1, faults=(("crash", 13),)), row("bob", 2, 1500, 10, 2, 2))
    grading = Grading(by="rank", best=100, worst=80, faults=FaultRule(each=2, most=20))
    grades = {g.bot: g for g in grade_students(Standings(rows=rows), [entry("ann"), entry("bob")], grading)}
    assert grades["ann"].points == "80" and grades["bob"].points == "80"  # 100 - min(13 x 2, 20) = 80
    assert "faults: 13; each fault costs 2 points, at most 20: -20" in grades["ann"].why
    with pytest.raises(ArenaFileError) as err:
        parse_arena("bots: [builtin:random, builtin:hard]\ngrading: {by: rating, rating: [[1300, 60], [1700, 100]], "
                    "require_separation: true}\n")
    assert "grading.require_separation: only means something by rank or by table" in str(err.value)


ARENA = """\
name: tight
seed: 5
ruleset: arcade
seats: 2
format: round_robin
games: 1
bootstrap: 40
bots:
  - submissions: {path: "students/*"}
grading: {by: rank, best: 100, worst: 50, REQUIRE}
"""


@pytest.mark.slow
@pytest.mark.parametrize("require", [False, True])
def test_the_run_says_when_its_grades_do_not_separate_the_class(tmp_path, require):
    for name in ("ann", "bob", "cy"):  # three copies of one bot, one game a pair: nothing separates them
        folder = tmp_path / "students" / name
        folder.mkdir(parents=True)
        shutil.copy(ROOT / "sample_bots" / "python" / "strong_bot.py", folder / "bot.py")
        shutil.copy(ROOT / "sample_bots" / "python" / "botkit.py", folder / "botkit.py")
    (tmp_path / "a.yaml").write_text(ARENA.replace("REQUIRE", f"require_separation: {str(require).lower()}"))
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["arena", str(tmp_path / "a.yaml"), "--out", str(out), "-q", "--check-games", "0",
                                   "--no-report", "--sandbox", "none"])  # none: trusted sample bots, for speed
    assert res.exit_code == 0, res.output
    assert "note: grades by rank do not separate the class: 3 of 3 students" in res.output
    index = (out / "bots" / "index.md").read_text()
    assert "**Note**: grades by rank do not separate the class" in index
    if require:
        assert not (out / "grades.csv").exists() and "grades.csv is not written" in res.output
        return
    with (out / "grades.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert all(r["flag"].startswith("rank range") for r in rows) and len(rows) == 3
    assert "(not certain)" in index
