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

*What a reference explains.* A class starts from the same places: the starter kits' default play, the built-in
players. Two students who hand in the same kit, barely edited, agree as copies do. So each pair's agreement is
also set against the reference policies (``references.py``), asked the same points: the reference that answered as
both bots did at the most points *explains* those points, and the pair's kappa is made again on the others, where
at least one of the two left the reference (``beyond_kappa``: what they share beyond their common start; a copy of
an edited kit keeps its edits in common, two students' own edits of one kit do not). A pair stands out only when
that kappa does too. A pair that both answer as one reference at ``KIT_SHARE`` of the points or more *plays that
reference*: it is reported so, never as standing out (two unedited kits look identical; whether two students may
hand one in is the teacher's rule).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace
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
#: A bot that answers as a reference at this share of the points or more plays that reference.
KIT_SHARE = 0.95


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
    reference: str | None = None
    """The reference policy that explains the most of the pair's agreement (``None``: none explains any)."""
    explained: int = 0
    """Points where both answered as ``reference``."""
    beyond: PairFigure | None = None
    """The figure on the points ``reference`` does not explain (``None``: no reference explains any)."""
    plays_reference: bool = False
    """Both answer as ``reference`` at ``KIT_SHARE`` of the points or more: it is their common play, not a copy."""

    @property
    def excess(self) -> float:
        return self.agree - self.baseline

    @property
    def kappa(self) -> float:
        """How far from chance (0) to identical play (1) the pair's agreement is."""
        return self.excess / (1 - self.baseline) if self.baseline < 1 else 0.0

    @property
    def beyond_kappa(self) -> float | None:
        """The kappa on the points the reference does not explain (``None``: none explained, or none left)."""
        return self.beyond.kappa if self.beyond is not None and self.beyond.points else None

    @property
    def stands_out(self) -> bool:
        own = self.kappa >= KAPPA_STANDS_OUT and self.z >= Z_STANDS_OUT
        beyond = self.beyond
        return own and not self.plays_reference and (beyond is None or (beyond.kappa >= KAPPA_STANDS_OUT
                                                                        and beyond.z >= Z_STANDS_OUT))


@dataclass(frozen=True)
class Similarity:
    """Every pair of the bots that play the same way when asked twice, and those that do not."""

    pairs: tuple[PairFigure, ...]
    """Closest first (by ``kappa``)."""
    self_agreement: Mapping[str, float]
    """Each bot's agreement with itself when asked the same points again."""
    points: int
    closest: Mapping[str, tuple[str, float]] = field(default_factory=dict)
    """Each bot's closest reference policy and the share of points it answered as it (none asked: empty)."""
    references: tuple[str, ...] = ()
    """The reference policies asked, and a line for each one left out (its files or toolchain missing)."""

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


def similarity(answers: Mapping[str, Sequence[Answer]], again: Mapping[str, Sequence[Answer]],
               references: Mapping[str, Sequence[Answer]] | None = None) -> Similarity:
    """The pairs' figures from ``answers`` (bot -> its answer at each point, the same points in the same order
    for every bot), ``again`` (bot -> its answers to the first points asked a second time) and ``references``
    (reference policy -> its answers to the same points: what they explain is set aside)."""
    bots = sorted(answers)
    refs = dict(references or {})
    count = len(next(iter(answers.values()), ()))
    if any(len(answers[b]) != count for b in bots) or any(len(r) != count for r in refs.values()):
        raise ValueError("every bot and reference must be asked the same points")
    self_agreement = {b: _self_agreement(answers[b], again.get(b, ())) for b in bots}
    steady = [b for b in bots if self_agreement[b] >= RANDOM_BELOW]
    chance = [chance_agreement([answers[b][i] for b in steady]) for i in range(count)]
    found = (_explained(a, b, answers[a], answers[b], chance, refs) for i, a in enumerate(steady)
             for b in steady[i + 1:])
    pairs = _placed([p for p in found if p is not None])
    closest = {b: _closest(answers[b], refs) for b in bots} if refs else {}
    return Similarity(pairs, self_agreement, count, closest)


def _placed(raw: list[PairFigure]) -> tuple[PairFigure, ...]:
    """The pairs with their place among the class's (robust deviations above the median pair's excess), closest
    first, those that play a reference last."""
    excesses = [p.excess for p in raw]
    middle = median(excesses) if excesses else 0.0
    spread = MAD_SCALE * median(abs(e - middle) for e in excesses) if excesses else 0.0
    spread = max(spread, 0.01)  # a class that all agree alike: a pair must still be 1% above it per deviation
    return tuple(sorted((replace(p, above_class=(p.excess - middle) / spread) for p in raw),
                        key=lambda p: (p.plays_reference, -p.kappa, p.a, p.b)))


def _share(mine: Sequence[Answer], theirs: Sequence[Answer]) -> float:
    both = [(x, y) for x, y in zip(mine, theirs) if x is not None and y is not None]
    return sum(x == y for x, y in both) / len(both) if both else 0.0


def _closest(mine: Sequence[Answer], refs: Mapping[str, Sequence[Answer]]) -> tuple[str, float]:
    """The reference the bot answers as most often, and how often (its first by name on a tie)."""
    return max(((name, _share(mine, ans)) for name, ans in sorted(refs.items())), key=lambda t: t[1])


def _explained(a: str, b: str, mine: Sequence[Answer], theirs: Sequence[Answer], chance: Sequence[float | None],
               refs: Mapping[str, Sequence[Answer]]) -> PairFigure | None:
    """The pair's figure on the points its best-explaining reference does not explain (every point: none does)."""
    whole = _pair(a, b, mine, theirs, chance)
    if whole is None or not refs:
        return whole
    counts = {name: sum(1 for x, y, r in zip(mine, theirs, ans) if x is not None and x == y == r)
              for name, ans in sorted(refs.items())}
    best = max(counts, key=lambda n: counts[n])
    if counts[best] == 0:
        return whole
    ans = refs[best]
    kept = [x != r or y != r for x, y, r in zip(mine, theirs, ans)]
    rest = _pair(a, b, [x if k else None for x, k in zip(mine, kept)], theirs, chance)
    plays = min(_share(mine, ans), _share(theirs, ans)) >= KIT_SHARE
    return replace(whole, reference=best, explained=counts[best],
                   beyond=rest if rest is not None else PairFigure(a, b, 0, 0.0, 0.0, 0.0, 0.0), plays_reference=plays)


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
