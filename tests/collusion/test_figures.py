"""The tests' arithmetic against SciPy's (Student's t, Welch, the one-sample t-test), the Cochran-Mantel-Haenszel
statistic against its textbook form, and Holm's adjustment against its definition."""

from __future__ import annotations

import math
import random

import pytest
from scipy import stats

from referee.collusion.evidence import one_sample_greater
from referee.collusion.figures import Stratum, beta_inc, holm, mantel_haenszel_less, t_sf, welch_greater


@pytest.mark.parametrize("df", [1, 2.5, 5, 30, 200])
@pytest.mark.parametrize("t", [-6, -0.5, 0, 0.7, 2, 5, 40])
def test_students_t_tail_is_scipys(t: float, df: float):
    assert t_sf(t, df) == pytest.approx(stats.t.sf(t, df), rel=1e-9, abs=1e-15)


@pytest.mark.parametrize(("a", "b", "x"), [(0.5, 0.5, 0.3), (3, 7, 0.9), (20, 0.5, 0.99), (1, 1, 0.5)])
def test_incomplete_beta_is_scipys(a: float, b: float, x: float):
    from scipy import special

    assert beta_inc(a, b, x) == pytest.approx(special.betainc(a, b, x), rel=1e-10)


def test_welch_and_the_one_sample_test_are_scipys():
    rng = random.Random(5)
    for _ in range(20):
        xs = [rng.gauss(0.2, 1) for _ in range(rng.randint(3, 30))]
        ys = [rng.gauss(0, 2) for _ in range(rng.randint(3, 60))]
        ours = welch_greater(xs, ys)
        assert ours is not None
        theirs = stats.ttest_ind(xs, ys, equal_var=False, alternative="greater")
        assert ours.p == pytest.approx(theirs.pvalue, rel=1e-8) and ours.t == pytest.approx(theirs.statistic)
        assert one_sample_greater(xs) == pytest.approx(stats.ttest_1samp(xs, 0, alternative="greater").pvalue,
                                                       rel=1e-8)
    assert welch_greater([1.0], [1.0, 2.0]) is None and one_sample_greater([1.0]) is None


def test_mantel_haenszel_is_the_textbook_statistic():
    strata = [Stratum(10, 1, 40, 30), Stratum(5, 2, 20, 10), Stratum(0, 0, 9, 3), Stratum(4, 4, 6, 6)]
    # By hand: only the first two strata say something (no chance against ours in the third; all taken in the fourth).
    e = 10 * 31 / 50 + 5 * 12 / 25
    v = 10 * 40 * 31 * 19 / (50 ** 2 * 49) + 5 * 20 * 12 * 13 / (25 ** 2 * 24)
    z = (3 - e + 0.5) / math.sqrt(v)
    assert mantel_haenszel_less(strata) == pytest.approx(stats.norm.cdf(z))
    assert mantel_haenszel_less(strata[2:]) is None


def test_a_giver_that_never_hits_its_friend_and_always_hits_the_others_gives_z_near_minus_root_n():
    """The planted pair's case: p far below Holm's threshold once a few dozen chances are counted (the tolerance of
    tests/collusion/test_collusion.py: z = -(E - 1/2) / (E / sqrt(N - 1)), about -sqrt(N - 1))."""
    p = mantel_haenszel_less([Stratum(30, 0, 60, 60)])
    e = 30 * 60 / 90
    assert p == pytest.approx(stats.norm.cdf(-(e - 0.5) / (e / math.sqrt(89))))
    assert p < 1e-15


def test_holm_is_the_step_down_of_its_definition():
    ps = [0.01, 0.04, None, 0.03, 0.2]
    # Sorted: 0.01, 0.03, 0.04, 0.2 (m = 4): 0.04, max(0.04, 0.09), max(0.09, 0.08), max(0.09, 0.2).
    assert holm(ps) == [pytest.approx(0.04), pytest.approx(0.09), None, pytest.approx(0.09), pytest.approx(0.2)]
    assert holm([0.5, 0.6]) == [1.0, 1.0]
