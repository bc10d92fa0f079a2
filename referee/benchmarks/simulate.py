"""Simulated band ladders: pure numbers, no games, the very rules of ``StudentTests``.

A student's pairs against each band's benchmark are drawn from a known pentanomial distribution (its true
strength against that benchmark); many students are tested side by side: the GSPRT of each band in turn, the next
band after H1, the stop at H0, the budget. From them: how often a student is graded wrong (given a band it is not
stronger than, or denied one it is ``elo1`` stronger than) and the games it takes. ``tests/benchmarks`` checks the
error rates against ``alpha`` and ``beta`` with a ceiling from the number of runs (``compare.simulate``)::

    truths = [pentanomial_at("logistic", e) for e in (300, 0, -40)]   # vs easy, medium, hard
    sim = simulate_ladder(truths, SprtSettings(0, 30, model="logistic"), max_pairs=600, runs=1000, seed=1)
    sim.passed, sim.decided, sim.games
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from referee.compare.gsprt import llr_batch
from referee.compare.sprt import SprtSettings


@dataclass(frozen=True)
class LadderSim:
    """Each run's bands reached, whether its grade was decided, and its games."""

    passed: NDArray[np.int64]
    decided: NDArray[np.bool_]
    games: NDArray[np.int64]


def simulate_ladder(truths: Sequence[ArrayLike], sprt: SprtSettings, max_pairs: int, runs: int,
                    seed: int) -> LadderSim:
    """``runs`` students whose pairs against band ``b`` follow ``truths[b]`` (five bin probabilities, LL first)."""
    rng = np.random.default_rng(seed)
    bands = len(truths)
    cdfs = [np.cumsum(np.asarray(t, dtype=float)) for t in truths]
    counts = np.zeros((runs, bands, 5), dtype=np.int64)
    band = np.zeros(runs, dtype=np.int64)
    pairs = np.zeros(runs, dtype=np.int64)
    running = np.ones(runs, dtype=bool)
    refused = np.zeros(runs, dtype=bool)  # a test accepted H0
    for _ in range(max_pairs):
        live = np.flatnonzero(running)
        if live.size == 0:
            break
        u = rng.random(live.size)
        for b in range(bands):
            here = live[band[live] == b]
            if here.size:
                bins = np.searchsorted(cdfs[b], u[band[live] == b] * cdfs[b][-1], side="right").clip(0, 4)
                counts[here, b, bins] += 1
        pairs[live] += 1
        rows = counts[live, band[live]]
        llr = llr_batch(rows, sprt.elo0, sprt.elo1, sprt.model)
        up, down = llr >= sprt.upper, llr <= sprt.lower
        last = band[live] == bands - 1
        band[live[up & ~last]] += 1
        done = (up & last) | down | (pairs[live] >= max_pairs)
        refused[live[down]] = True
        running[live[done]] = False
        band[live[up & last]] = bands  # every band reached
    decided = (band >= bands) | refused
    return LadderSim(band.clip(0, bands), decided, 2 * pairs)
