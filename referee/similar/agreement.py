"""How often two bots choose the same answer, against what the class's play predicts by chance (pure functions).

Each bot answered the same decision points (requests with at least two legal answers). At a point, two bots
that play independently of each other agree with the probability that two bots drawn from the class agree
there: ``sum_a n_a (n_a - 1) / (N (N - 1))`` over the answers ``a`` the ``N`` bots gave, ``n_a`` of them each
(a forced-looking point, where every bot plays alike, counts little; a point where the class spreads counts
much). A pair's baseline is the mean of that over the points both answered, its excess its agreement less the
baseline, and ``z`` that excess in binomial standard errors. Strong honest bots agree more than chance (good
moves are alike), so the figure that decides is ``kappa``, Cohen's: how far the pair went from chance to
always agreeing (``excess / (1 - baseline)``: 0 is chance, 1 identical play). Honest bots that share good
advice reach a third of the way; a copy, disguised or translated, nearly all of it. A pair stands out at
``KAPPA_STANDS_OUT`` ("substantial" agreement on Landis and Koch's scale) when its excess is also beyond
chance (``z`` at least 3). ``above_class`` places it among the class's pairs (robust deviations above the
median pair), as SIM03's readers compare two engines with the field. A figure to look at, never a verdict.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from statistics import median
from typing import Mapping, Sequence

#: An answer as compared: the legal action's key (None: no legal answer, or a fault).
Answer = str | None
#: Two answers to one point from the same bot differ at least this often: it plays at random.
RANDOM_BELOW = 0.95
#: Cohen's kappa (from chance, 0, to identical play, 1) at which a pair stands out.
KAPPA_STANDS_OUT = 0.6
#: Binomial standard errors above chance a pair's excess must also reach (no pair stands out on a few points).
Z_STANDS_OUT = 3.0
#: The scale of a median absolute deviation as a standard deviation (normal data).
MAD_SCALE = 1.4826


@dataclass(frozen=True)
class PairFigure:
    """Two bots' agreement on the points both answered, its chance baseline, and its place in the class."""

    a: str
    b: str
    points: int
    agree: float
    baseline: float
    z: float
    """The excess over the baseline in binomial standard errors."""
    above_class: float
    """The excess against the class's median pair's, in robust deviations."""

    @property
    def excess(self) -> float:
        return self.agree - self.baseline

    @property
    def kappa(self) -> float:
        """How far from chance (0) to identical play (1) the pair's agreement is."""
        return self.excess / (1 - self.baseline) if self.baseline < 1 else 0.0

    @property
    def stands_out(self) -> bool:
        return self.kappa >= KAPPA_STANDS_OUT and self.z >= Z_STANDS_OUT


@dataclass(frozen=True)
class Similarity:
    """Every pair of the bots that play the same way when asked twice, and those that do not."""

    pairs: tuple[PairFigure, ...]
    """Closest first (by ``kappa``)."""
    self_agreement: Mapping[str, float]
    """Each bot's agreement with itself when asked the same points again."""
    points: int

    @property
    def random_bots(self) -> list[str]:
        """The bots that answer the same point differently when asked twice: their pairs are not compared."""
        return sorted(b for b, s in self.self_agreement.items() if s < RANDOM_BELOW)

    @property
    def standing_out(self) -> list[PairFigure]:
        return [p for p in self.pairs if p.stands_out]


def chance_agreement(answers: Sequence[Answer]) -> float | None:
    """The probability that two of these answers, drawn without replacement, are the same (None: fewer than 2)."""
    given = [a for a in answers if a is not None]
    n = len(given)
    if n < 2:
        return None
    return sum(k * (k - 1) for k in Counter(given).values()) / (n * (n - 1))


def similarity(answers: Mapping[str, Sequence[Answer]], again: Mapping[str, Sequence[Answer]]) -> Similarity:
    """The pairs' figures from ``answers`` (bot -> its answer at each point, the same points in the same order
    for every bot) and ``again`` (bot -> its answers to the first points asked a second time)."""
    bots = sorted(answers)
    count = len(next(iter(answers.values()), ()))
    if any(len(answers[b]) != count for b in bots):
        raise ValueError("every bot must be asked the same points")
    self_agreement = {b: _self_agreement(answers[b], again.get(b, ())) for b in bots}
    steady = [b for b in bots if self_agreement[b] >= RANDOM_BELOW]
    chance = [chance_agreement([answers[b][i] for b in steady]) for i in range(count)]
    found = (_pair(a, b, answers[a], answers[b], chance) for i, a in enumerate(steady) for b in steady[i + 1:])
    raw = [p for p in found if p is not None]
    excesses = [p.excess for p in raw]
    middle = median(excesses) if excesses else 0.0
    spread = MAD_SCALE * median(abs(e - middle) for e in excesses) if excesses else 0.0
    spread = max(spread, 0.01)  # a class that all agree alike: a pair must still be 1% above it per deviation
    pairs = tuple(sorted((PairFigure(p.a, p.b, p.points, p.agree, p.baseline, p.z, (p.excess - middle) / spread)
                          for p in raw), key=lambda p: (-p.kappa, p.a, p.b)))
    return Similarity(pairs, self_agreement, count)


def _self_agreement(first: Sequence[Answer], second: Sequence[Answer]) -> float:
    both = [(x, y) for x, y in zip(first, second) if x is not None and y is not None]
    return sum(x == y for x, y in both) / len(both) if both else 1.0


def _pair(a: str, b: str, mine: Sequence[Answer], theirs: Sequence[Answer],
          chance: Sequence[float | None]) -> PairFigure | None:
    agree = points = 0
    baseline = 0.0
    for x, y, c in zip(mine, theirs, chance):
        if x is None or y is None or c is None:
            continue
        points += 1
        agree += x == y
        baseline += c
    if not points:
        return None
    rate, base = agree / points, baseline / points
    error = math.sqrt(max(base * (1 - base), 1e-9) / points)
    return PairFigure(a, b, points, rate, base, (rate - base) / error, 0.0)
