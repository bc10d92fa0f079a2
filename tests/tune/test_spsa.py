"""SPSA's arithmetic against OpenBench's formulas, worked by hand: the gains, the probe's rounding, the step."""

from __future__ import annotations

import math
import random

import pytest

from referee.tune.params import Param
from referee.tune.spsa import ALPHA, GAMMA, Gains, SpsaSettings, iteration_rng, probe, step

N = 1000
SETTINGS = SpsaSettings(iterations=N, pairs=8)


def test_the_defaults_are_spalls_exponents_and_a_tenth_of_the_iterations():
    assert (ALPHA, GAMMA) == (0.602, 0.101)
    assert SETTINGS.big_a == pytest.approx(100.0)


def test_a_and_c_as_openbench_derives_them_from_c_end_and_r_end():
    p = Param("keep", 50, 0, 100, c_end=4, r_end=0.002)
    gains = Gains.of(p, SETTINGS)
    # OpenBench's create_spsa_run: c = c_end * N^gamma; a = r_end * c_end^2 * (A + N)^alpha.
    assert gains.c == pytest.approx(4 * 1000 ** 0.101)
    assert gains.a == pytest.approx(0.002 * 16 * 1100 ** 0.602)


def test_the_last_iteration_perturbs_by_c_end_and_steps_by_r_end():
    p = Param("aggr", 0.5, 0, 1, c_end=0.05, r_end=0.003, is_float=True)
    gains = Gains.of(p, SETTINGS)
    assert gains.c_k(N, SETTINGS, True) == pytest.approx(0.05)
    assert gains.r_k(N, SETTINGS, True) == pytest.approx(0.003)


def test_gains_at_iteration_k_follow_spalls_schedule():
    p = Param("aggr", 0.5, 0, 1, c_end=0.05, r_end=0.003, is_float=True)
    gains = Gains.of(p, SETTINGS)
    k = 37
    assert gains.c_k(k, SETTINGS, True) == pytest.approx(gains.c / k ** 0.101)
    assert gains.a_k(k, SETTINGS) == pytest.approx(gains.a / (100 + k) ** 0.602)
    assert gains.r_k(k, SETTINGS, True) == pytest.approx(gains.a_k(k, SETTINGS) / gains.c_k(k, SETTINGS, True) ** 2)


def test_an_int_parameters_perturbation_never_falls_below_half_a_step():
    p = Param("keep", 5, 0, 20, c_end=0.1)
    assert Gains.of(p, SETTINGS).c_k(N, SETTINGS, False) == 0.5


def test_ints_are_rounded_with_one_draw_for_both_sides_and_clipped():
    params = [Param("keep", 10, 0, 12, c_end=2), Param("low", 0, 0, 20, c_end=2)]
    for k in (1, 2, 50, N):
        plan = probe(params, (10.3, 0.0), k, SETTINGS, iteration_rng(7, k))
        for i, p in enumerate(params):
            assert plan.plus[i] == int(plan.plus[i]) and plan.minus[i] == int(plan.minus[i])
            assert p.min <= plan.minus[i] <= p.max and p.min <= plan.plus[i] <= p.max
        c = plan.c[0]
        # floor(x + u) and floor(y + u) with one u: the two sides are 2c apart before clipping, give or take one.
        unclipped_gap = abs(plan.plus[0] - plan.minus[0])
        assert unclipped_gap <= math.ceil(2 * c) + 1
        assert plan.signs[1] * (plan.plus[1] - plan.minus[1]) >= 0  # clipped at 0, never crossed


def test_the_probe_is_the_same_for_the_same_seed_and_iteration():
    params = [Param("keep", 10, 0, 20, c_end=2), Param("aggr", 0.5, 0, 1, 0.1, is_float=True)]
    a = probe(params, (10, 0.5), 5, SETTINGS, iteration_rng(3, 5))
    b = probe(params, (10, 0.5), 5, SETTINGS, iteration_rng(3, 5))
    c = probe(params, (10, 0.5), 6, SETTINGS, iteration_rng(3, 6))
    assert a == b and a != c


def test_the_step_is_r_times_c_times_the_result_along_the_sign_clipped():
    params = [Param("aggr", 0.5, 0, 1, c_end=0.05, r_end=0.003, is_float=True),
              Param("keep", 10, 0, 20, c_end=2, r_end=0.002)]
    plan = probe(params, (0.5, 10), 3, SETTINGS, random.Random(1))
    theta = step(params, (0.5, 10), plan, 4)
    for i, start in enumerate((0.5, 10)):
        assert theta[i] == pytest.approx(start + plan.r[i] * plan.c[i] * 4 * plan.signs[i])
    # An enormous result is clipped to the bounds.
    assert step(params, (0.5, 10), plan, 1e9) == tuple(p.max if s > 0 else p.min
                                                       for p, s in zip(params, plan.signs))


def test_spsa_climbs_a_noiseless_hill_to_its_top():
    """With an exact comparison (wins - losses = f(plus) - f(minus) scaled), SPSA ends near the optimum."""
    params = [Param("x", 90, 0, 100, c_end=2, r_end=0.1, is_float=True),
              Param("y", 10, 0, 100, c_end=2, r_end=0.1, is_float=True)]
    settings = SpsaSettings(iterations=400, pairs=1)

    def f(v):
        return -((v[0] - 30) ** 2 + (v[1] - 60) ** 2) / 100

    theta = (90.0, 10.0)
    for k in range(1, 401):
        plan = probe(params, theta, k, settings, iteration_rng(1, k))
        theta = step(params, theta, plan, f(plan.plus) - f(plan.minus))
    assert theta[0] == pytest.approx(30, abs=1) and theta[1] == pytest.approx(60, abs=1)
