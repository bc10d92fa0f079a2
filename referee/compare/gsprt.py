"""The exact pentanomial GSPRT: the log-likelihood ratio of two maximum-likelihood multinomials.

Pure numerics on arrays, no I/O. A row of ``counts`` holds the five pentanomial counts of one test
(LL, LD, WL+DD, WD, WW: a pair scores 0, 1/4, 1/2, 3/4 or 1); many rows are solved at once, so one
test (one row) and ten thousand simulated tests share the same code.

The generalized log-likelihood ratio of H1 against H0 is ``N * sum(phat * log(p1 / p0))`` where
``phat`` is the empirical distribution (zero counts regularized to 1e-3, as fishtest's ``LLRcalc``)
and ``p0``, ``p1`` are the distributions of largest likelihood among those meeting each hypothesis:

- ``logistic``: the expected pair score is ``s = 1 / (1 + 10 ** (-elo / 400))``. The maximizer is
  ``p_i = phat_i / (1 + x (a_i - s))`` with ``x`` the root of a secular equation (Van den Bergh,
  "support_MLE_multinomial", Proposition 1.1).
- ``normalized``: the t-value ``(mu - 1/2) / sigma`` of the pair score is ``sqrt(2) * nelo / (800 / ln 10)``.
  The maximizer solves the same secular form with ``phi_i = a_i - 1/2 - t sigma (1 + ((a_i - mu) / sigma) ** 2) / 2``
  at its own ``mu, sigma``: a fixed point ("normalized_elo_practical", section 4.1).

Unlike fastchess before its fix (#877, #879: a hang, then NaN, at extreme bounds), the fixed point starts from
a distribution that already meets the constraint (the expectation maximizer whose t-value is ``t``), so every
secular equation it meets has a root; every loop has a fixed bound, and a row that cannot improve keeps its
last valid distribution. The answer is always finite.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

#: The pair scores of the five bins: LL, LD, WL+DD, WD, WW.
SCORES: NDArray[np.float64] = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
#: What a zero count becomes (fishtest's ``LLRcalc.regularize``, fastchess's ``regularize``).
REGULARIZER = 1e-3
#: 800 / ln 10: normalized Elo per unit of t-value for one game (fishtest's ``nelo_divided_by_nt``).
NELO_PER_T = 800 / math.log(10)

_SECULAR_STEPS = 200
_FIXED_POINT_STEPS = 100
_BISECTION_STEPS = 200

Floats = NDArray[np.float64]


def regularize(counts: ArrayLike) -> Floats:
    """The counts as floats, each zero replaced by 1e-3."""
    c = np.asarray(counts, dtype=float)
    return np.where(c == 0, REGULARIZER, c)


def logistic_score(elo: float) -> tuple[float, float]:
    """The expected score of logistic ``elo`` and its complement, each computed without cancellation."""
    # 1 - s by subtraction loses every digit when s is near 1; the complement has its own closed form.
    if elo >= 0:
        c = 1 / (1 + 10 ** (elo / 400))
        return 1 - c, c
    s = 1 / (1 + 10 ** (-elo / 400))
    return s, 1 - s


def normalized_t(nelo: float) -> float:
    """The pair's t-value ``(mu - 1/2) / sigma`` of normalized Elo ``nelo`` (a pair is two games: sqrt 2)."""
    return math.sqrt(2) * nelo / NELO_PER_T


def secular_root(phat: Floats, phi: Floats) -> Floats:
    """Per row, the root ``x`` of ``sum(phat * phi / (1 + x phi)) = 0`` (each row's phi has both signs).

    The sum falls from +inf to -inf on ``(-1 / max phi, -1 / min phi)``: Newton's steps, kept inside a
    bracket that shrinks at every step, else bisection; at most 200 steps.
    """
    lo = -1 / phi.max(axis=1)
    hi = -1 / phi.min(axis=1)
    x = np.zeros(len(phat))
    active = np.ones(len(phat), dtype=bool)
    for _ in range(_SECULAR_STEPS):
        xs, ph, pf = x[active], phat[active], phi[active]
        den = 1 + xs[:, None] * pf
        f = (ph * pf / den).sum(axis=1)
        df = -(ph * pf * pf / (den * den)).sum(axis=1)
        lo_a = np.where(f > 0, xs, lo[active])
        hi_a = np.where(f < 0, xs, hi[active])
        with np.errstate(divide="ignore", invalid="ignore"):
            newton = xs - f / df
        inside = (newton > lo_a) & (newton < hi_a)
        new = np.where(inside, newton, 0.5 * lo_a + 0.5 * hi_a)
        new = np.where(f == 0, xs, new)
        lo[active], hi[active], x[active] = lo_a, hi_a, new
        settled = (np.abs(new - xs) <= 1e-15 * np.maximum(1.0, np.abs(xs))) | (f == 0)
        active[np.flatnonzero(active)[settled]] = False
        if not active.any():
            break
    return x


def mle_mean(phat: Floats, d: Floats) -> Floats:
    """Per row, the distribution of largest likelihood for ``phat`` whose mean of ``d`` (``a - s``) is zero."""
    d = np.broadcast_to(d, phat.shape)
    x = secular_root(phat, d)
    return phat / (1 + x[:, None] * d)


def _mean_sd(p: Floats) -> tuple[Floats, Floats]:
    mu = p @ SCORES
    var = (p * (SCORES - mu[:, None]) ** 2).sum(axis=1)
    return mu, np.sqrt(var)


def _mean_with_t(phat: Floats, ref: float, t: float) -> Floats:
    """Per row, the expectation maximizer whose own t-value ``(mu - ref) / sigma`` is ``t``, by bisection on its mean.

    The t-value of the maximizer with mean ``m`` runs from -inf near the lowest score to +inf near the highest.
    """
    lo = np.full(len(phat), SCORES[0])
    hi = np.full(len(phat), SCORES[-1])
    p = phat
    for _ in range(_BISECTION_STEPS):
        m = 0.5 * lo + 0.5 * hi
        if np.all(hi - lo < 1e-9):  # a start: the fixed point does the rest
            break
        p = mle_mean(phat, SCORES - m[:, None])
        mu, sd = _mean_sd(p)
        high = mu - ref > t * sd
        hi = np.where(high, m, hi)
        lo = np.where(high, lo, m)
    return p


def _fixed_point(phat: Floats, p: Floats, ref: float, t: float) -> tuple[Floats, NDArray[np.bool_]]:
    """Iterate the t-value maximizer from ``p``; also which rows settled (a row with nowhere to go stops)."""
    p = p.copy()
    active = np.ones(len(phat), dtype=bool)
    stuck = np.zeros(len(phat), dtype=bool)
    for _ in range(_FIXED_POINT_STEPS):
        pa, ph = p[active], phat[active]
        mu, sd = _mean_sd(pa)
        phi = SCORES - ref - t * (sd[:, None] ** 2 + (SCORES - mu[:, None]) ** 2) / (2 * sd[:, None])
        # phi of one sign: the secular equation has no root (fastchess #879's NaN); this start cannot go on.
        movable = (phi.min(axis=1) < 0) & (phi.max(axis=1) > 0) & (sd > 0)
        new = pa.copy()
        if movable.any():
            x = secular_root(ph[movable], phi[movable])
            new[movable] = ph[movable] / (1 + x[:, None] * phi[movable])
        change = np.abs(new - pa).max(axis=1)
        p[active] = new
        rows = np.flatnonzero(active)
        stuck[rows[~movable]] = True
        active[rows[~movable | (change < 1e-12)]] = False
        if not active.any():
            break
    mu, sd = _mean_sd(p)
    with np.errstate(divide="ignore", invalid="ignore"):
        settled = ~stuck & (np.abs((mu - ref) / sd - t) <= 1e-8 * max(1.0, abs(t)))
    return p, settled


def mle_t_value(phat: Floats, ref: float, t: float) -> Floats:
    """Per row, the distribution of largest likelihood for ``phat`` whose t-value ``(mu - ref) / sigma`` is ``t``.

    First from the uniform distribution, as fishtest; a row that does not settle from there starts again
    from the expectation maximizer with t-value ``t``, which meets the constraint, so the first secular
    equation has a root whatever the counts and the bounds.
    """
    p, settled = _fixed_point(phat, np.full_like(phat, 1 / phat.shape[1]), ref, t)
    if not settled.all():
        again = ~settled
        start = _mean_with_t(phat[again], ref, t)
        p[again], _ = _fixed_point(phat[again], start, ref, t)
    return p


def llr_batch(counts: ArrayLike, elo0: float, elo1: float, model: str = "normalized") -> Floats:
    """The GSPRT log-likelihood ratio (H1: ``elo1`` against H0: ``elo0``) of each row of pentanomial ``counts``.

    A row with no pairs has no evidence: 0.
    """
    raw = np.atleast_2d(np.asarray(counts, dtype=float))
    reg = regularize(raw)
    total = reg.sum(axis=1)
    phat = reg / total[:, None]
    if model == "logistic":
        (s0, c0), (s1, c1) = logistic_score(elo0), logistic_score(elo1)
        p0 = mle_mean(phat, _minus(s0, c0))
        p1 = mle_mean(phat, _minus(s1, c1))
    elif model == "normalized":
        p0 = mle_t_value(phat, 0.5, normalized_t(elo0))
        p1 = mle_t_value(phat, 0.5, normalized_t(elo1))
    else:
        raise ValueError(f"unknown model {model!r}: 'normalized' or 'logistic'")
    llr = total * (phat * (np.log(p1) - np.log(p0))).sum(axis=1)
    return np.where(raw.sum(axis=1) == 0, 0.0, llr)


def _minus(s: float, c: float) -> Floats:
    """``SCORES - s`` as one row, taken from the nearer end so the small differences keep their digits."""
    row = SCORES - s if s <= 0.5 else (SCORES - 1) + c
    return np.broadcast_to(row, (1, len(SCORES)))


# One test, one row: the same algorithm on five Python floats. The live test computes its LLR after
# every pair, and on arrays of five numpy's per-call overhead made that 1-7 ms a pair, about half of a
# compare between built-ins; on floats it is a few hundred microseconds. ``llr_batch`` stays the
# reference for many rows (the simulations) and the tests hold the two together.

_LOW, _HIGH = float(SCORES[0]), float(SCORES[-1])
_SCORE_LIST = [float(s) for s in SCORES]


def _secular_root1(phat: list[float], phi: list[float]) -> float:
    """``secular_root`` for one row."""
    lo, hi, x = -1 / max(phi), -1 / min(phi), 0.0
    for _ in range(_SECULAR_STEPS):
        f = df = 0.0
        for p, a in zip(phat, phi):
            den = 1 + x * a
            term = p * a / den
            f += term
            df -= term * a / den
        if f == 0:
            return x
        if f > 0:
            lo = x
        else:
            hi = x
        newton = x - f / df if df != 0 else math.nan
        new = newton if lo < newton < hi else 0.5 * lo + 0.5 * hi
        if abs(new - x) <= 1e-15 * max(1.0, abs(x)):
            return new
        x = new
    return x


def _mle_mean1(phat: list[float], d: list[float]) -> list[float]:
    x = _secular_root1(phat, d)
    return [p / (1 + x * a) for p, a in zip(phat, d)]


def _mean_sd1(p: list[float]) -> tuple[float, float]:
    mu = sum(q * s for q, s in zip(p, _SCORE_LIST))
    return mu, math.sqrt(sum(q * (s - mu) ** 2 for q, s in zip(p, _SCORE_LIST)))


def _fixed_point1(phat: list[float], p: list[float], ref: float, t: float) -> tuple[list[float], bool]:
    stuck = False
    for _ in range(_FIXED_POINT_STEPS):
        mu, sd = _mean_sd1(p)
        phi = [s - ref - t * (sd * sd + (s - mu) ** 2) / (2 * sd) for s in _SCORE_LIST] if sd > 0 else []
        if not phi or not (min(phi) < 0 < max(phi)):
            stuck = True
            break
        x = _secular_root1(phat, phi)
        new = [q / (1 + x * a) for q, a in zip(phat, phi)]
        change = max(abs(a - b) for a, b in zip(new, p))
        p = new
        if change < 1e-12:
            break
    mu, sd = _mean_sd1(p)
    settled = not stuck and sd > 0 and abs((mu - ref) / sd - t) <= 1e-8 * max(1.0, abs(t))
    return p, settled


def _mean_with_t1(phat: list[float], ref: float, t: float) -> list[float]:
    lo, hi, p = _LOW, _HIGH, phat
    for _ in range(_BISECTION_STEPS):
        m = 0.5 * lo + 0.5 * hi
        if hi - lo < 1e-9:
            break
        p = _mle_mean1(phat, [s - m for s in _SCORE_LIST])
        mu, sd = _mean_sd1(p)
        if mu - ref > t * sd:
            hi = m
        else:
            lo = m
    return p


def _mle_t_value1(phat: list[float], ref: float, t: float) -> list[float]:
    p, settled = _fixed_point1(phat, [1 / len(phat)] * len(phat), ref, t)
    if not settled:
        p, _ = _fixed_point1(phat, _mean_with_t1(phat, ref, t), ref, t)
    return p


def llr_one(counts: tuple[int, ...] | list[int], elo0: float, elo1: float, model: str = "normalized") -> float:
    """``llr_batch`` of one row of five counts, on Python floats (what a running test calls after each pair)."""
    if sum(counts) == 0:
        return 0.0
    reg = [float(c) if c else REGULARIZER for c in counts]
    total = sum(reg)
    phat = [c / total for c in reg]
    if model == "logistic":
        (s0, c0), (s1, c1) = logistic_score(elo0), logistic_score(elo1)
        p0 = _mle_mean1(phat, [float(x) for x in _minus(s0, c0)[0]])
        p1 = _mle_mean1(phat, [float(x) for x in _minus(s1, c1)[0]])
    elif model == "normalized":
        p0 = _mle_t_value1(phat, 0.5, normalized_t(elo0))
        p1 = _mle_t_value1(phat, 0.5, normalized_t(elo1))
    else:
        raise ValueError(f"unknown model {model!r}: 'normalized' or 'logistic'")
    return total * sum(q * (math.log(a) - math.log(b)) for q, a, b in zip(phat, p1, p0))
