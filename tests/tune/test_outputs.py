"""The live lines and the trend, from steps made by hand (no games)."""

from __future__ import annotations

import random

import pytest

from referee.tune.convergence import trend_lines, trends
from referee.tune.model import Step
from referee.tune.outputs import live_lines, trend
from referee.tune.params import Param
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


def walk(k: int, rng: random.Random) -> list[Step]:
    """``k`` iterations: x climbs 1 a step (with a little noise), z wanders ±1 at random; the results follow the
    signs of x (plus wins where x is higher) and are noise for z."""
    out, x, z = [], 20.0, 50.0
    for i in range(1, k + 1):
        sx, sz = rng.choice((1, -1)), rng.choice((1, -1))
        x += 1 + rng.uniform(-0.2, 0.2)
        z += rng.choice((1, -1))
        plan = Perturbation(i, (sx, sz), (5.0, 5.0), (0.02, 0.02), (x + 5 * sx, z + 5 * sz), (x - 5 * sx, z - 5 * sz))
        out.append(Step(plan, 2.0 * sx, (x, z), 2 * (i - 1), 2))
    return out


def test_a_parameter_still_climbing_is_told_from_one_wandering_in_its_noise():
    params = [Param("x", 20, 0, 1000, 5), Param("z", 50, 0, 100, 5)]
    steps = walk(100, random.Random(3))
    x, z = trends(params, (20.0, 50.0), steps)
    assert x.window == z.window == 20  # a fifth of the run
    assert x.moved == pytest.approx(steps[-1].theta[0] - steps[-21].theta[0])
    assert not x.settled and x.verdict.startswith("still moving up")
    assert z.settled and abs(z.moved) <= z.noise
    # the plus side won along x every time: a gradient of +2 a iteration, with no spread; along z, no direction
    assert x.gradient == pytest.approx(2.0) and x.gradient_error == pytest.approx(0.0)
    assert abs(z.gradient) < x.gradient and z.gradient_error == pytest.approx(2 * 2 / 20 ** 0.5, rel=0.05)
    lines = trend_lines([x, z])
    assert lines[0].startswith("convergence over the last 20 iterations")
    assert lines[1].startswith("  x  moved +") and "still moving up" in lines[1]
    assert lines[2].startswith("  z  moved ") and lines[2].endswith("settled (its drift is within the noise)")


def test_the_trend_needs_two_iterations_and_reads_a_short_run_whole():
    params = [Param("x", 20, 0, 1000, 5), Param("z", 50, 0, 100, 5)]
    assert trends(params, (20.0, 50.0), walk(1, random.Random(1))) == []
    (x, _) = trends(params, (20.0, 50.0), walk(6, random.Random(1)))
    assert x.window == 6
