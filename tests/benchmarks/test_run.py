"""The benchmark tests played (built-in players stand in for students: in-process, fast): bands tested weakest
first and only while undecided, the same bytes whatever ``--jobs`` and ``--resume``, the budget's undecided
student flagged, and the ladder logic's error rates simulated without luck."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import numpy as np
import pytest

from referee.arena.config import parse_arena
from referee.benchmarks.plan import parse_id
from referee.benchmarks.run import run_benchmarks
from referee.benchmarks.simulate import simulate_ladder
from referee.bots.spec import parse_bot
from referee.compare.simulate import binomial_ceiling, pentanomial_at
from referee.compare.sprt import SprtSettings
from referee.grading.bands import benchmark_grade

ROOT = Path(__file__).resolve().parents[2]
RESULTS_SCHEMA = json.loads((ROOT / "protocol" / "schemas" / "results.schema.json").read_text())
ARENA = parse_arena("""\
seed: 7
ruleset: compact
bots: [builtin:random]
grading:
  by: benchmarks
  bands: [{bot: "builtin:easy", points: 60}, {bot: "builtin:medium", points: 80}, {bot: "builtin:hard", points: 100}]
  below: 40
  test: {elo0: 0, elo1: 100, alpha: 0.05, beta: 0.05}
  games: 240
""")
STUDENTS = [parse_bot("ann=builtin:hard"), parse_bot("bob=builtin:random"), parse_bot("cy=builtin:medium")]


def lines(out: Path) -> list[dict]:
    return [{k: v for k, v in json.loads(x).items() if k not in ("time_ms", "wall_ms")}
            for x in (out / "games.jsonl").read_text().splitlines()]


@pytest.mark.slow
def test_bands_are_tested_weakest_first_and_only_until_the_grade_is_decided(tmp_path):
    run = run_benchmarks(ARENA, STUDENTS, out=str(tmp_path / "out"), jobs=1)
    assert run.complete
    out = run.outcomes()
    # bob (random) is no stronger than easy: H0, and he never meets medium or hard
    assert [t.verdict for t in out["bob"].tests] == ["H0"] and out["bob"].passed == 0
    games = lines(tmp_path / "out")
    assert {parse_id(g["game"])[1] for g in games if g["game"].startswith("bob:")} == {0}
    # ann (hard) is far stronger than easy: H1, then tested against medium
    assert out["ann"].tests[0].verdict == "H1" and len(out["ann"].tests) >= 2
    # every test's games are its pairs counted, in planned order (student, band, pair, twin)
    keys = [parse_id(g["game"]) for g in games]
    assert keys == sorted(keys, key=lambda k: ([s.name for s in STUDENTS].index(k[0]), k[1], k[2], k[3]))
    for name, outcome in out.items():
        assert sum(1 for k in keys if k[0] == name) == outcome.games == sum(t.games for t in outcome.tests)
    doc = json.loads((tmp_path / "out" / "results.json").read_text())
    jsonschema.validate(doc, RESULTS_SCHEMA)
    block = {s["student"]: s for s in doc["benchmarks"]["students"]}
    assert block["bob"]["tests"][0]["verdict"] == "H0" and len(block["bob"]["tests"][0]["llr_trace"]) == 9


TIGHT = parse_arena("""\
seed: 7
bots: [builtin:random]
grading:
  by: benchmarks
  bands: [{bot: "builtin:easy", points: 60}, {bot: "builtin:medium", points: 80}]
  below: 40
  test: {elo0: 0, elo1: 100}
  games: 50
""")


@pytest.mark.slow
def test_a_student_still_undecided_at_the_budget_gets_the_lower_band_flagged_with_the_interval(tmp_path):
    # 25 pairs: easy takes at least 12 (every pair won twice), which leaves medium too few for hard's 35 Elo
    run = run_benchmarks(TIGHT, [parse_bot("dee=builtin:hard")], out=str(tmp_path / "out"), jobs=1)
    outcome = run.outcomes()["dee"]
    assert outcome.games == 50 and not outcome.decided(2)
    last = outcome.last
    assert last is not None and last.verdict is None and outcome.passed == 1
    grading = TIGHT.grading
    assert grading is not None
    graded = benchmark_grade(outcome, grading)
    assert graded.points == grading.band_points(outcome.passed)
    assert graded.cells[1] == "no" and graded.flag.startswith(f"undecided against {last.benchmark} after "
                                                              f"{last.games} games")
    assert f"Elo {last.elo_low:+.0f} to {last.elo_high:+.0f}" in graded.flag


@pytest.mark.slow
def test_jobs_and_resume_give_the_same_bytes(tmp_path):
    one = run_benchmarks(ARENA, STUDENTS, out=str(tmp_path / "one"), jobs=1)
    two = run_benchmarks(ARENA, STUDENTS, out=str(tmp_path / "two"), jobs=2)
    assert (tmp_path / "two" / "results.json").read_bytes() == (tmp_path / "one" / "results.json").read_bytes()
    assert lines(tmp_path / "two") == lines(tmp_path / "one")
    cut = run_benchmarks(ARENA, STUDENTS, out=str(tmp_path / "cut"), jobs=2, stop_after=70)
    assert not cut.complete and cut.played_now >= 70
    resumed = run_benchmarks(ARENA, STUDENTS, out=str(tmp_path / "cut"), jobs=2, resume=True)
    assert resumed.complete and resumed.played_now < one.played_now
    assert (tmp_path / "cut" / "results.json").read_bytes() == (tmp_path / "one" / "results.json").read_bytes()
    assert lines(tmp_path / "cut") == lines(tmp_path / "one")
    assert two.outcomes() == one.outcomes()


def test_simulated_ladders_misgrade_no_more_than_alpha_and_beta_allow():
    """A student equal to a band's benchmark gets that band at most ``alpha`` of the time; one ``elo1`` stronger
    than every benchmark misses a band at most ``beta`` per band. 600 seeded runs each; the ceiling is where
    seeing that many misgrades at the true rate would be a one-in-a-million accident."""
    sprt = SprtSettings(0, 100, model="logistic")
    runs = 600
    # equal to medium, far above easy, below hard: the right grade is the first band only
    equal = simulate_ladder([pentanomial_at("logistic", e) for e in (400, 0, -100)], sprt, 2000, runs, seed=3)
    too_high = int((equal.passed >= 2).sum())
    assert too_high < binomial_ceiling(runs, sprt.alpha)
    assert equal.decided.all()
    # elo1 above each benchmark: every band, save a miss at any of the three (beta each, a union bound)
    strong = simulate_ladder([pentanomial_at("logistic", 100)] * 3, sprt, 2000, runs, seed=4)
    missed = int((strong.passed < 3).sum())
    assert missed < binomial_ceiling(runs, 3 * sprt.beta)
    # a budget too small for the middle student leaves some undecided, never graded above their band
    tight = simulate_ladder([pentanomial_at("logistic", e) for e in (400, 40, -100)], sprt, 60, runs, seed=5)
    assert (~tight.decided).any() and (tight.passed[~tight.decided] <= 2).all()
    assert np.all(tight.games <= 120)


@pytest.mark.slow
def test_at_four_seats_copies_of_the_benchmark_fill_the_table(tmp_path):
    arena = parse_arena("""\
seed: 2
bots: [builtin:random]
grading:
  by: benchmarks
  bands: [{bot: "builtin:easy", points: 60}]
  test: {elo0: 0, elo1: 100}
  games: 200
  seats: 4
""")
    run = run_benchmarks(arena, [parse_bot("ann=builtin:hard")], out=str(tmp_path / "out"), jobs=1)
    games = lines(tmp_path / "out")
    assert run.complete and games
    for g in games:  # the student, the benchmark it swaps with, and two copies at the same seats in both twins
        assert sorted(g["seating"]) == ["ann", "easy", "easy#2", "easy#3"]
    twins = {g["game"]: g["seating"] for g in games}
    a, b = twins["ann:b1:p000001a"], twins["ann:b1:p000001b"]
    assert [s for s in a if s.startswith("easy#")] == [s for s in b if s.startswith("easy#")]
    assert a.index("ann") == b.index("easy") and a.index("easy") == b.index("ann")
    assert run.outcomes()["ann"].tests[0].verdict == "H1"
