"""How long a sequential test runs: its expected number of pairs and its chance of accepting H1.

Pure arithmetic, no I/O. The published approximation fishtest's SPRT calculator uses (``static/js/sprt.js``,
after Van den Bergh's "Asymptotic properties of the SPRT", sprta.pdf): the LLR after ``n`` pairs is a Brownian
motion with drift ``mu`` and variance ``sigma^2`` per pair, stopped at the bounds ``A < 0 < B``. With the pair
score's variance ``v`` and the scores ``s0``, ``s1`` the bounds stand for::

    w2 = (s1 - s0)^2 / v                         the LLR's variance per pair
    h  = (2 s - s0 - s1) / (s1 - s0)             2 mu / sigma^2, for a true pair score s
    P  = (1 - e^(-h A)) / (e^(-h B) - e^(-h A))  the chance of ending at B (accepting H1)
    T  = 2 (B P + A (1 - P)) / (h w2)            the expected pairs  (h = 0: -A B / w2)

From an LLR ``x`` already reached, the same with ``A - x`` and ``B - x``: the pairs still to come. In the
normalized model a bound's score is ``1/2 + t sigma`` (``t`` its pair t-value), so ``w2`` is ``(t1 - t0)^2``
and the length does not depend on the variance; in the logistic model it does. The approximation ignores the
overshoot at the bounds; ``tests/compare/test_expected.py`` holds it against simulated tests. The API::

    length = expected_pairs(SprtSettings(0, 30), variance=0.1, elo=0)      # pairs under H0
    accept = pass_probability(SprtSettings(0, 30), variance=0.1, elo=30)
    more = remaining_pairs(settings, variance, llr=1.2, score=0.53)        # from the LLR so far
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from referee.compare.gsprt import logistic_score, normalized_t
from referee.compare.sprt import Estimates, Ptnml, SprtSettings

#: Below this ``|h (B - A)|`` the formulas' limit at h = 0 is used (as sprt.js: no division by nearly zero).
_FLAT = 1e-6
#: The least per-pair variance taken (a test whose pairs all fell in one bin has none to go on).
MIN_VARIANCE = 1e-6


def logistic_elo_score(elo: float) -> float:
    """The expected game (and pair) score of a logistic Elo difference."""
    return logistic_score(elo)[0]


def score_at(settings: SprtSettings, elo: float, variance: float) -> float:
    """The pair score that ``elo``, in the test's model, stands for at this per-pair ``variance``."""
    if settings.model == "logistic":
        return logistic_elo_score(elo)
    return 0.5 + normalized_t(elo) * math.sqrt(max(variance, MIN_VARIANCE))


def nelo_of_logistic(elo: float, variance: float) -> float:
    """The normalized Elo of a logistic Elo difference at this per-pair variance (the game's own noise)."""
    sigma = math.sqrt(max(variance, MIN_VARIANCE))
    return (logistic_elo_score(elo) - 0.5) / sigma / normalized_t(1.0)


def logistic_of_nelo(nelo: float, variance: float) -> float:
    """The logistic Elo of a normalized Elo at this per-pair variance (``nelo_of_logistic``'s inverse)."""
    score = 0.5 + normalized_t(nelo) * math.sqrt(max(variance, MIN_VARIANCE))
    score = min(max(score, 1e-9), 1 - 1e-9)
    return -400 * math.log10(1 / score - 1)


def _universal(lower: float, upper: float, h: float) -> tuple[float, float]:
    """The chance of ending at ``upper`` and the expected time (in units of the LLR's variance) of a Brownian
    motion from 0 between ``lower < 0 < upper`` with ``2 mu / sigma^2 = h`` (sprt.js's ``PT``)."""
    if abs(h * (upper - lower)) < _FLAT:
        return -lower / (upper - lower), -lower * upper
    # exp of the larger exponent first: for a strong drift e^(-h A) overflows long before the ratio does.
    ea, eb = -h * lower, -h * upper
    top = max(ea, eb)
    p = (math.exp(-top) - math.exp(ea - top)) / (math.exp(eb - top) - math.exp(ea - top))
    return p, 2 / h * (upper * p + lower * (1 - p))


@dataclass(frozen=True)
class Outlook:
    """A test's future from where it is: the chance it ends at H1 and the pairs it is expected to take."""

    accept: float
    pairs: float

    @property
    def games(self) -> float:
        return 2 * self.pairs


def outlook(settings: SprtSettings, variance: float, score: float, llr: float = 0.0) -> Outlook:
    """From LLR ``llr``, for a true pair ``score``: the chance of accepting H1 and the pairs still to come."""
    s0, s1 = (score_at(settings, e, variance) for e in (settings.elo0, settings.elo1))
    w2 = (s1 - s0) ** 2 / max(variance, MIN_VARIANCE)
    lower, upper = settings.lower - llr, settings.upper - llr
    if lower >= 0 or upper <= 0:  # already at a bound: decided
        return Outlook(1.0 if upper <= 0 else 0.0, 0.0)
    h = (2 * score - s0 - s1) / (s1 - s0)
    accept, time = _universal(lower, upper, h)
    return Outlook(accept, max(0.0, time / w2))


def expected_pairs(settings: SprtSettings, variance: float, elo: float) -> float:
    """The pairs a test of ``settings`` takes on average when the true difference is ``elo`` (the test's model)."""
    return outlook(settings, variance, score_at(settings, elo, variance)).pairs


def pass_probability(settings: SprtSettings, variance: float, elo: float) -> float:
    """The chance a test of ``settings`` accepts H1 when the true difference is ``elo`` (the test's model)."""
    return outlook(settings, variance, score_at(settings, elo, variance)).accept


def ptnml_variance(ptnml: Ptnml) -> float:
    """The per-pair variance of the pair score in these counts (regularized as ``Estimates.of``)."""
    counts = [c if c or sum(1 for x in ptnml.counts if x) >= 2 else 1e-3 for c in ptnml.counts]
    n = sum(counts)
    mean = sum(c * i / 4 for i, c in enumerate(counts)) / n
    return sum(c * (i / 4 - mean) ** 2 for i, c in enumerate(counts)) / n


def remaining(settings: SprtSettings, ptnml: Ptnml, llr: float) -> Outlook:
    """A running test's outlook at the estimate so far: the pairs still to come from its LLR, if the truth is what
    the pairs so far say (the estimate moves as they come; early on it is rough)."""
    return outlook(settings, ptnml_variance(ptnml), Estimates.of(ptnml).score, llr)
