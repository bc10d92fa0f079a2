"""The live lines and the trend, from steps made by hand (no games)."""

from __future__ import annotations

from referee.tune.model import Step
from referee.tune.outputs import live_lines, trend
from referee.tune.spsa import Perturbation
from tests.tune.tunebot import settings


def steps_through(values: list[float]) -> list[Step]:
    plan = Perturbation(1, (1, 1), (10.0, 10.0), (0.02, 0.02), (90.0, 60.0), (70.0, 40.0))
    return [Step(plan, 2.0, (v, 50.0), 2 * i, 2) for i, v in enumerate(values)]


def test_the_trend_counts_from_the_start_until_there_are_enough_iterations():
    steps = steps_through([78, 75, 71])
    assert trend(80, steps, 0, 5) == (-9, 3)
    assert trend(80, steps, 0, 2) == (-7, 2)
    assert trend(80, [], 0, 5) == (0, 0)


def test_the_live_block_shows_each_value_its_start_range_trend_and_gains():
    lines = live_lines(settings(iterations=10), steps_through([78, 75, 71]), 12.0)
    assert lines[0] == "tune peaked: iteration 3/10, 12 games, 12.0 s"
    x = lines[1]
    assert x.split()[:2] == ["x", "71"] and "start     80 [0, 100]" in x and "-9 over 3 it" in x
    assert "c 10 r 0.02" in x
    assert "=0 over 3 it" in lines[2]  # z did not move
