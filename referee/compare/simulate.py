"""Simulated candidate runs: pure numbers, no games, no processes.

Pairs are drawn from known pentanomial distributions (one per candidate, its true strength against the base);
many runs are played side by side with the very rules of ``lastcard compare BASE --candidate ...``: each
candidate's GSPRT at the Bonferroni levels, the stop when a test decides, the catch-up stop
(``candidates.behind``), the per-candidate cap. From them: the family-wise error rates (some candidate no
better than ``elo0`` accepted; some candidate at least ``elo1`` better dropped) and the games, against running
the candidates one after the other as single comparisons. ``bench/candidates_bench.py`` prints the table;
``tests/test_compare_candidates.py`` checks it with fixed seeds and tolerances from the number of runs::

    truths = [pentanomial_at("normalized", e) for e in (0, 0, 20)]
    fam = simulate_family(truths, SprtSettings(0, 20), runs=2000, seed=1)
    fam.type1_rate(elos=(0, 0, 20)), fam.mean_games
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from referee.compare.candidates import behind
from referee.compare.gsprt import SCORES, llr_batch, logistic_score, normalized_t
from referee.compare.sprt import SprtSettings

#: A pentanomial shape with every bin used (a card game's pairs are often even).
SHAPE = (0.2, 0.1, 0.4, 0.1, 0.2)
#: Status codes of the simulated tests.
RUNNING, H1, H0, BEHIND, CAP = 0, 1, 2, 3, 4


def pentanomial_at(model: str, elo: float, shape: Sequence[float] = SHAPE) -> NDArray[np.float64]:
    """A pair distribution whose true strength, in ``model``'s Elo, is ``elo``: the exponential tilt of
    ``shape`` (``p_i ~ shape_i e^(theta a_i)``) that meets it, by bisection on ``theta``."""
    def tilt(theta: float) -> NDArray[np.float64]:
        w = np.asarray(shape, dtype=float) * np.exp(theta * SCORES)
        return np.asarray(w / w.sum(), dtype=np.float64)

    def stat(p: NDArray[np.float64]) -> float:
        mu = float(p @ SCORES)
        if model == "logistic":
            return mu
        return (mu - 0.5) / math.sqrt(float(p @ (SCORES - mu) ** 2))

    target = logistic_score(elo)[0] if model == "logistic" else normalized_t(elo)
    lo, hi = -60.0, 60.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if stat(tilt(mid)) > target else (mid, hi)
    return tilt((lo + hi) / 2)


@dataclass(frozen=True)
class Simulated:
    """``runs`` simulated runs: each candidate's final status and pairs played (``(runs, K)`` arrays)."""

    status: NDArray[np.int64]
    pairs: NDArray[np.int64]

    @property
    def runs(self) -> int:
        return int(self.status.shape[0])

    @property
    def games(self) -> NDArray[np.int64]:
        """Games per run, every candidate's summed."""
        return np.asarray(2 * self.pairs.sum(axis=1), dtype=np.int64)

    @property
    def mean_games(self) -> float:
        return float(self.games.mean())

    def type1_errors(self, elos: Sequence[float], elo0: float) -> int:
        """Runs in which some candidate no better than ``elo0`` was accepted."""
        null = np.asarray(elos) <= elo0
        return int(((self.status == H1) & null).any(axis=1).sum())

    def type2_errors(self, elos: Sequence[float], elo1: float) -> int:
        """Runs in which some candidate at least ``elo1`` better was dropped (H0)."""
        alt = np.asarray(elos) >= elo1
        return int(((self.status == H0) & alt).any(axis=1).sum())

    def share(self, code: int) -> NDArray[np.float64]:
        """Per candidate, the share of runs that ended with status ``code``."""
        return np.asarray((self.status == code).mean(axis=0), dtype=np.float64)


def _draw(rng: np.random.Generator, cdf: NDArray[np.float64], runs: int) -> NDArray[np.int64]:
    """One pair per run and candidate: bins by inverse CDF (a fixed draw per round, whoever still plays)."""
    u = rng.random((runs, cdf.shape[0]))
    return np.asarray((u[:, :, None] > cdf[None, :, :]).sum(axis=2), dtype=np.int64)


def simulate_family(truths: Sequence[ArrayLike], sprt: SprtSettings, runs: int, seed: int,
                    cap_pairs: int = 20_000, catch_up: bool = True, bonferroni: bool = True) -> Simulated:
    """``runs`` runs of the candidates' family of tests, each candidate's pairs drawn from its ``truths`` row.

    ``sprt`` carries the family's alpha and beta (each test runs at ``alpha / K``, ``beta / K``; with
    ``bonferroni`` false, at ``alpha`` and ``beta`` each: K single comparisons as people run them today).
    ``catch_up`` false: no candidate is stopped for being behind (the tests run side by side, independently).
    Rounds as in the real run: every candidate still running draws a pair, the tests update, then the stops.
    """
    p = np.asarray([np.asarray(t, dtype=float) for t in truths])
    k = p.shape[0]
    cdf = np.cumsum(p, axis=1)[:, :4]
    level = sprt if not bonferroni else SprtSettings(sprt.elo0, sprt.elo1, sprt.alpha / k, sprt.beta / k, sprt.model)
    rng = np.random.default_rng(seed)
    counts = np.zeros((runs, k, 5))
    status = np.zeros((runs, k), dtype=np.int64)
    pairs = np.zeros((runs, k), dtype=np.int64)
    for _ in range(cap_pairs):
        running = status == RUNNING
        if not running.any():
            break
        bins = _draw(rng, cdf, runs)
        r, c = np.nonzero(running)
        counts[r, c, bins[r, c]] += 1
        pairs[r, c] += 1
        llr = llr_batch(counts[r, c], level.elo0, level.elo1, level.model)
        status[r[llr >= level.upper], c[llr >= level.upper]] = H1
        status[r[llr <= level.lower], c[llr <= level.lower]] = H0
        if catch_up:
            late = behind(counts, status == RUNNING, status == H1)
            status[late] = BEHIND
    status[status == RUNNING] = CAP
    return Simulated(status, pairs)


def binomial_ceiling(n: int, p: float, tail: float = 1e-6) -> int:
    """The smallest ``k`` with ``P(Binomial(n, p) >= k) <= tail``: ``k`` or more errors in ``n`` runs whose true
    rate is at most ``p`` would be a one-in-a-million accident, so seeing fewer is a test without luck."""
    upper = 0.0
    for j in range(n, -1, -1):
        upper += math.exp(math.lgamma(n + 1) - math.lgamma(j + 1) - math.lgamma(n - j + 1)
                          + j * math.log(p) + (n - j) * math.log1p(-p))
        if upper > tail:
            return j + 1
    return 0


@dataclass(frozen=True)
class Scenario:
    """A row of the table: the candidates' true Elo (in the test's model) against the base."""

    name: str
    elos: tuple[float, ...]


#: The truths the issue names, for bounds ``[0, elo1]``: in units of ``elo1``.
SCENARIOS = (
    Scenario("all equal to the base", (0.0, 0.0, 0.0, 0.0)),
    Scenario("one better", (0.0, 0.0, 0.0, 1.0)),
    Scenario("one worse", (0.0, 0.0, -1.0, 1.0)),
    Scenario("two better, by different margins", (0.0, 0.0, 1.0, 2.0)),
)


@dataclass(frozen=True)
class Row:
    """One scenario's figures: the family run, the same tests one after the other at full and Bonferroni levels."""

    scenario: Scenario
    elos: tuple[float, ...]
    family: Simulated
    sequential: Simulated
    sequential_bonferroni: Simulated

    @property
    def saved(self) -> float:
        """The share of games the family run saves against single comparisons one after the other."""
        return 1 - self.family.mean_games / self.sequential.mean_games

    @property
    def saved_bonferroni(self) -> float:
        return 1 - self.family.mean_games / self.sequential_bonferroni.mean_games


def scenario_row(scenario: Scenario, sprt: SprtSettings, runs: int, seed: int, shape: Sequence[float] = SHAPE,
                 cap_pairs: int = 20_000) -> Row:
    """Simulate one scenario (Elo in units of ``sprt.elo1``) three ways on the same seed."""
    elos = tuple(e * sprt.elo1 for e in scenario.elos)
    truths = [pentanomial_at(sprt.model, e, shape) for e in elos]
    fam = simulate_family(truths, sprt, runs, seed, cap_pairs)
    # One after the other: each a single comparison to its own verdict, no catch-up (the tests are independent,
    # so simulating them side by side gives the same games as one after the other).
    seq = simulate_family(truths, sprt, runs, seed + 1, cap_pairs, catch_up=False, bonferroni=False)
    seq_b = simulate_family(truths, sprt, runs, seed + 2, cap_pairs, catch_up=False)
    return Row(scenario, elos, fam, seq, seq_b)
