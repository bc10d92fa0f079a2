"""Tune against a known optimum: the peaked bot is strongest at x = 30 whatever z is. From x = 80 the tune must end
near 30, and z, which changes nothing, near where it started.

Seeded runs, so the outcome is fixed: on these seeds x ends within 2 of the optimum (31.5 and 31.9) and z within
10 of its start (40.6 and 43.9). The tolerances leave room for a small change in the arithmetic, not for a tune
that does not climb: x must cover 42 of its 50 away from the start, where z, moved by the same steps with no
pull, wandered less than 10.
"""

from __future__ import annotations

import os

import pytest

from referee.tune.run import run_tune
from tests.tune.tunebot import OPTIMUM, settings

pytestmark = pytest.mark.slow

PARAMS = ("x=80,0,100,10,0.02", "z=50,0,100,10,0.02")


#: Seed 2 with LASTCARD_SOAK=1 (the suite's bounded run tunes on seed 1: half a minute).
SEEDS = [1, 2] if os.environ.get("LASTCARD_SOAK") == "1" else [1]


@pytest.mark.parametrize("seed", SEEDS)
def test_tune_finds_the_optimum_and_leaves_an_irrelevant_parameter_near_its_start(seed):
    run = run_tune(settings(PARAMS, iterations=100, pairs=2, seed=seed), jobs=2)
    assert run.complete and run.games == 400
    x, z = run.tuned["x"], run.tuned["z"]
    assert abs(x - OPTIMUM["x"]) <= 8, f"x ended at {x:.1f}, the optimum is 30 (start 80)"
    assert abs(z - 50) <= 12, f"z, which changes nothing, drifted to {z:.1f} from 50"
    # It climbed: past half-way it had already left the start well behind.
    assert run.steps[49].theta[0] < 60
