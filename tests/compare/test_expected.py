"""How long a test runs (referee/compare/expected.py): fishtest's formulas, held against seeded simulated tests,
and the default bounds made from the game's variance (referee/compare/bounds.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from referee.compare.bounds import PAIR_VARIANCE, TARGET_ELO, default_bounds, derive_elo1, resolve_bounds
from referee.compare.expected import (
    expected_pairs,
    logistic_of_nelo,
    nelo_of_logistic,
    outlook,
    pass_probability,
    ptnml_variance,
    remaining,
    score_at,
)
from referee.compare.gsprt import SCORES
from referee.compare.simulate import H1, binomial_ceiling, pentanomial_at, simulate_family
from referee.compare.sprt import Ptnml, SprtSettings

#: A pentanomial shape like a card game's (many even pairs, every bin used).
SHAPE = (0.15, 0.1, 0.5, 0.1, 0.15)
#: How far a simulated mean may sit from the formula, in standard errors of the mean: 4.5 is a one-in-300,000
#: accident, so the test fails for a real difference, not for luck.
Z = 4.5
#: The formula ignores the overshoot past a bound (a pair's LLR step), which only makes real tests longer: by 2-5%
#: on these bounds; this is the allowance on the long side.
OVERSHOOT = 0.08


def moments(p: np.ndarray) -> tuple[float, float]:
    mean = float(p @ SCORES)
    return mean, float(p @ (SCORES - mean) ** 2)


# ---------------------------------------------------------------- the formulas' own properties
@pytest.mark.parametrize("model", ["normalized", "logistic"])
def test_the_error_rates_are_alpha_and_beta_at_the_bounds(model):
    settings = SprtSettings(0, 30, 0.05, 0.1, model)
    assert pass_probability(settings, 0.1, 0) == pytest.approx(0.05, abs=1e-9)
    assert pass_probability(settings, 0.1, 30) == pytest.approx(0.9, abs=1e-9)
    # midway no drift: the chance of ending at B is -A / (B - A) (exact in the normalized model, where a bound's
    # score is linear in its Elo; the logistic midpoint's score is a hair off the scores' mean)
    a, b = math.log(0.1 / 0.95), math.log(0.9 / 0.05)
    rel = 1e-9 if model == "normalized" else 1e-2
    assert pass_probability(settings, 0.1, 15) == pytest.approx(-a / (b - a), rel=rel)


def test_a_normalized_test_takes_the_same_games_whatever_the_variance():
    """fishtest: in the normalized model it is the duration that does not depend on the draw ratio."""
    settings = SprtSettings(0, 30)
    lengths = {round(expected_pairs(settings, v, 0), 6) for v in (0.03, 0.1, 0.2)}
    assert len(lengths) == 1
    # -A B / w2 at the midpoint, w2 = (t1 - t0)^2: the closed form of sprt.js's PT at h = 0
    t1 = math.sqrt(2) * 30 / (800 / math.log(10))
    assert expected_pairs(settings, 0.1, 15) == pytest.approx(-settings.lower * settings.upper / t1 ** 2, rel=1e-9)


def test_a_logistic_test_takes_longer_on_a_noisier_game():
    settings = SprtSettings(0, 30, model="logistic")
    assert expected_pairs(settings, 0.05, 0) < expected_pairs(settings, 0.1, 0) < expected_pairs(settings, 0.2, 0)


def test_what_is_left_shrinks_to_nothing_at_a_bound():
    settings = SprtSettings(0, 30)
    s1 = score_at(settings, 30, 0.1)
    assert outlook(settings, 0.1, s1, settings.upper).pairs == 0
    assert outlook(settings, 0.1, s1, settings.upper).accept == 1
    assert outlook(settings, 0.1, s1, settings.lower).accept == 0
    more = [outlook(settings, 0.1, s1, llr).pairs for llr in (0.0, 1.0, 2.0, 2.9)]
    assert more == sorted(more, reverse=True) and more[-1] < more[0] / 10


def test_the_estimate_so_far_reads_the_counts():
    counts = Ptnml((10, 5, 50, 5, 15))  # NEW ahead, the test not yet decided
    settings = SprtSettings(0, 30)
    n = counts.pairs
    mean = sum(c * i / 4 for i, c in enumerate(counts.counts)) / n
    variance = sum(c * (i / 4 - mean) ** 2 for i, c in enumerate(counts.counts)) / n
    assert ptnml_variance(counts) == pytest.approx(variance)
    at = remaining(settings, counts, settings.llr(counts))
    assert settings.verdict(settings.llr(counts)) is None
    assert at.accept > 0.5 and at.pairs > 0


def test_a_strong_drift_does_not_overflow():
    settings = SprtSettings(0, 5)
    assert expected_pairs(settings, 0.1, 4000) >= 0
    assert math.isfinite(pass_probability(settings, 0.1, -4000))


# ---------------------------------------------------------------- against simulated tests
CASES = [
    pytest.param("normalized", 30, 0, 500, id="normalized-no-change"),
    pytest.param("normalized", 30, 30, 500, id="normalized-at-elo1"),
    pytest.param("logistic", 30, 0, 1500, id="logistic-no-change"),
    pytest.param("logistic", 30, 15, 1500, id="logistic-middle"),
    pytest.param("logistic", 30, 45, 1500, id="logistic-beyond"),
]


@pytest.mark.parametrize("model, elo1, truth, runs", CASES)
def test_the_expected_games_agree_with_simulated_tests(model, elo1, truth, runs):
    settings = SprtSettings(0, elo1, model=model)
    p = pentanomial_at(model, truth, SHAPE)
    mean, variance = moments(p)
    predicted = outlook(settings, variance, mean)
    sim = simulate_family([p], settings, runs=runs, seed=7, catch_up=False, bonferroni=False)
    pairs = sim.pairs[:, 0]
    se = pairs.std() / math.sqrt(runs)
    assert predicted.pairs - Z * se <= pairs.mean() <= predicted.pairs * (1 + OVERSHOOT) + Z * se, \
        (pairs.mean(), se, predicted.pairs)
    accepted = int((sim.status[:, 0] == H1).sum())
    spread = Z * math.sqrt(predicted.accept * (1 - predicted.accept) * runs)
    assert abs(accepted - predicted.accept * runs) <= spread + 0.02 * runs, (accepted, predicted.accept)
    if truth == 0:  # and the simulated tests keep alpha
        assert accepted < binomial_ceiling(runs, settings.alpha)


# ---------------------------------------------------------------- the default bounds
def test_each_table_bound_is_the_normalized_elo_of_plus_30_rounded_down():
    for (house, seats), variance in PAIR_VARIANCE.items():
        low, high = default_bounds(house, seats)
        assert low == 0 and high % 5 == 0 and high == derive_elo1(variance)
        assert high <= nelo_of_logistic(TARGET_ELO, variance) < high + 5


def test_the_default_bounds_accept_plus_30_at_least_95_percent_and_decide_within_800_games():
    for (house, seats), variance in PAIR_VARIANCE.items():
        settings = SprtSettings(*default_bounds(house, seats))
        plus30 = nelo_of_logistic(TARGET_ELO, variance)
        assert pass_probability(settings, variance, plus30) >= 0.95, (house, seats)
        assert pass_probability(settings, variance, 0) == pytest.approx(0.05)
        assert 2 * expected_pairs(settings, variance, 0) < 800, (house, seats)
        assert 2 * expected_pairs(settings, variance, plus30) < 800, (house, seats)


def test_the_logistic_default_is_plus_30_itself():
    assert default_bounds("family", 4, "logistic") == (0, TARGET_ELO)


def test_a_bound_given_is_kept_and_the_other_is_the_tables():
    assert resolve_bounds(None, None, "compact", 2, "normalized") == (0, default_bounds("compact", 2)[1], True)
    assert resolve_bounds(None, 20, "compact", 2, "normalized") == (0, 20, False)
    assert resolve_bounds(-5, None, "compact", 2, "normalized") == (-5, default_bounds("compact", 2)[1], False)


def test_logistic_and_normalized_elo_convert_both_ways():
    for variance in (0.05, 0.1, 0.2):
        for elo in (-60.0, 0.0, 30.0, 200.0):
            assert logistic_of_nelo(nelo_of_logistic(elo, variance), variance) == pytest.approx(elo, abs=1e-9)
