"""A tune on real bot processes: the same trajectory whatever ``--jobs`` and after ``--resume``; the values each
game ran with recorded; twin pairs on the compare machinery; the outputs."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from referee.store.results import GameLine
from referee.tune.run import run_tune
from tests.tune.tunebot import peaked, settings

pytestmark = pytest.mark.slow


def rows(out: Path) -> list[dict[str, str]]:
    with open(out / "trajectory.csv", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def games(out: Path) -> dict[str, dict]:
    lines = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    return {g["game"]: {k: v for k, v in g.items() if k not in ("time_ms", "wall_ms")} for g in lines}


def test_the_trajectory_is_the_same_whatever_the_jobs(tmp_path):
    one = run_tune(settings(), out=str(tmp_path / "one"), jobs=1)
    two = run_tune(settings(), out=str(tmp_path / "two"), jobs=2)
    assert one.complete and two.complete
    assert len(one.steps) == 3 and one.games == 12
    assert [s.theta for s in one.steps] == [s.theta for s in two.steps]
    assert rows(tmp_path / "one") == rows(tmp_path / "two")
    assert games(tmp_path / "one") == games(tmp_path / "two")


def test_an_interrupted_tune_resumes_to_the_trajectory_of_one_run(tmp_path):
    whole = run_tune(settings(), out=str(tmp_path / "whole"))
    cut = run_tune(settings(), out=str(tmp_path / "cut"), stop_after=5)
    assert not cut.complete and len(cut.steps) == 1  # 4 games an iteration: cut in the second
    resumed = run_tune(settings(), out=str(tmp_path / "cut"), resume=True)
    assert resumed.complete and resumed.played_now == 12 - 5
    assert [s.theta for s in resumed.steps] == [s.theta for s in whole.steps]
    assert rows(tmp_path / "cut") == rows(tmp_path / "whole")
    assert games(tmp_path / "cut") == games(tmp_path / "whole")


def test_each_game_ran_with_the_values_the_trajectory_records(tmp_path):
    out = tmp_path / "out"
    run = run_tune(settings(), out=str(out))
    recorded = {(r["x_plus"], r["z_plus"]) for r in rows(out)[1:]} | {(r["x_minus"], r["z_minus"])
                                                                        for r in rows(out)[1:]}
    given = set()
    for log in (out / "logs").glob("peaked*.stderr.log"):
        for m in re.finditer(r"peaked x=(\S+) y=70 z=(\S+)", log.read_text()):
            given.add(m.groups())
    assert recorded == given
    # Each iteration's plus and minus sides are the probe the seed gives around theta, and theta steps by its result.
    for step, row in zip(run.steps, rows(out)[1:]):
        assert (row["x_plus"], row["x_minus"]) == tuple(str(int(v)) for v in (step.plan.plus[0], step.plan.minus[0]))
        assert row["games"] == f"p{step.first_pair + 1:06d}a-p{step.first_pair + 2:06d}b"


def test_pairs_are_twins_same_deal_seats_swapped_and_independent_games_are_not(tmp_path):
    run_tune(settings(iterations=1), out=str(tmp_path / "twins"))
    run_tune(settings(iterations=1, independent=True), out=str(tmp_path / "independent"))
    for folder, same in (("twins", True), ("independent", False)):
        text = (tmp_path / folder / "games.jsonl").read_text()
        lines = [GameLine.from_json(json.loads(x)) for x in text.splitlines()]
        by_id = {g.game: g for g in lines}
        a, b = by_id["p000001a"].result, by_id["p000001b"].result
        assert (a.seed == b.seed) is same
        assert a.seating == tuple(reversed(b.seating)) == ("peaked+ (mixture)", "peaked- (mixture)")


def test_four_seats_tune_against_the_field_with_the_sides_swapping(tmp_path):
    run = run_tune(settings(iterations=1, pairs=4, field=[peaked("--x 30 --y 70 --z 0")], seats=4),
                   out=str(tmp_path / "out"))
    assert run.complete and run.settings.table.seats == 4
    lines = [json.loads(x) for x in (tmp_path / "out" / "games.jsonl").read_text().splitlines()]
    assert all(len(g["seating"]) == 4 for g in lines)
    names = {name for g in lines for name in g["seating"]}
    assert names == {"peaked+ (mixture)", "peaked- (mixture)", "peaked", "medium"}


def test_the_outputs_hold_the_tuned_values_and_the_report_its_chart(tmp_path):
    from referee.html_report import write_report

    out = tmp_path / "out"
    run = run_tune(settings(), out=str(out))
    doc = json.loads((out / "results.json").read_text())
    assert doc["kind"] == "tune" and doc["games"] == 12
    block = doc["tune"]
    assert block["tuned"] == run.tuned
    assert block["trajectory"]["iteration"] == [0, 1, 2, 3]
    assert block["trajectory"]["values"]["x"][0] == 80
    tuned = (out / "tuned.txt").read_text()
    assert f"x, int, {round(run.tuned['x'])}, 0, 100, 10, 0.04" in tuned
    # the sides are not bots but mixtures of every iteration's values, and their names say so
    assert {r["bot"] for r in doc["standings"]} >= {"peaked+ (mixture)", "peaked- (mixture)"}
    assert block["given"] == {"x": str(round(run.tuned["x"])), "z": str(round(run.tuned["z"]))}
    assert [t["name"] for t in block["convergence"]] == ["x", "z"]
    write_report(str(out))
    page = (out / "report.html").read_text()
    assert "<section id=tune>" in page and "class=tune-trace" in page
    assert f"<td>{block['given']['x']}</td>" in page and "tuned (as the bot is given it)" in page
