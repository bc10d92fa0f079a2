"""The tests of ``lastcard collusion`` as pure functions: Welch's t-test (one-sided), the Cochran-Mantel-Haenszel
test of a stratified 2x2 table (one-sided), and Holm's step-down adjustment of a family of p-values.

No SciPy at run time (it is a test dependency only): Student's t distribution is the regularized incomplete beta
function, evaluated by its continued fraction (modified Lentz), as in the numerical references; the tests compare
every function here with SciPy's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

#: The continued fraction's stopping rule and its most terms (it converges in a few dozen for these arguments).
_EPS = 1e-14
_TERMS = 500
_TINY = 1e-300


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function at ``x`` (converges for x < (a + 1) / (a + b + 2))."""
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, _TERMS + 1):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + num / c
            c = c if abs(c) > _TINY else _TINY
            h *= d * c
        if abs(d * c - 1.0) < _EPS:
            break
    return h


def beta_inc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), for a, b > 0 and 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom."""
    if math.isinf(t):
        return 0.0 if t > 0 else 1.0
    tail = 0.5 * beta_inc(df / 2.0, 0.5, df / (df + t * t))
    return tail if t > 0 else 1.0 - tail


def normal_cdf(z: float) -> float:
    """P(Z <= z) for a standard normal Z."""
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


@dataclass(frozen=True)
class Welch:
    """Welch's one-sided test that the mean of ``xs`` exceeds the mean of ``ys``."""

    difference: float
    t: float
    df: float
    p: float


def welch_greater(xs: Sequence[float], ys: Sequence[float]) -> Welch | None:
    """The test, or ``None`` when a sample has fewer than two values. Samples without spread (two constant
    samples) give t of plus or minus infinity when their means differ, else p = 1/2."""
    if len(xs) < 2 or len(ys) < 2:
        return None
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    vx = sum((x - mx) ** 2 for x in xs) / (len(xs) - 1) / len(xs)
    vy = sum((y - my) ** 2 for y in ys) / (len(ys) - 1) / len(ys)
    diff = mx - my
    if vx + vy == 0.0:
        t = 0.0 if diff == 0 else math.copysign(math.inf, diff)
        return Welch(diff, t, len(xs) + len(ys) - 2.0, 0.5 if diff == 0 else t_sf(t, 1.0))
    se2 = vx + vy
    df = se2 ** 2 / ((vx ** 2 / (len(xs) - 1) if vx else 0.0) + (vy ** 2 / (len(ys) - 1) if vy else 0.0))
    t = diff / math.sqrt(se2)
    return Welch(diff, t, df, t_sf(t, df))


@dataclass(frozen=True)
class Stratum:
    """One 2x2 table: of the chances to hurt the seat after, with the pair's friend there (``ours``) or another
    seat (``theirs``), how many were taken (``ours_taken``, ``theirs_taken``)."""

    ours: int
    ours_taken: int
    theirs: int
    theirs_taken: int


def mantel_haenszel_less(strata: Sequence[Stratum]) -> float | None:
    """The one-sided Cochran-Mantel-Haenszel p-value that chances are taken less often against ``ours`` than
    against ``theirs``, within strata (with the usual continuity correction of 1/2); ``None`` when no stratum
    has both kinds of chances and both outcomes."""
    observed = expected = variance = 0.0
    for s in strata:
        n = s.ours + s.theirs
        taken = s.ours_taken + s.theirs_taken
        if s.ours == 0 or s.theirs == 0 or taken in (0, n) or n < 2:
            continue  # this stratum says nothing about a difference
        observed += s.ours_taken
        expected += s.ours * taken / n
        variance += s.ours * s.theirs * taken * (n - taken) / (n * n * (n - 1))
    if variance == 0.0:
        return None
    z = (observed - expected + 0.5) / math.sqrt(variance)
    return min(1.0, normal_cdf(z))


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjusted p-values (``None`` stays ``None`` and is not counted in the family): a hypothesis
    is rejected at family-wise error rate alpha exactly when its adjusted p-value is at most alpha."""
    tested = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    m = len(tested)
    out: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out
