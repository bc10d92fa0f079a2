"""A bootstrap resample drawn before is not fitted again: the same ratings, bit for bit, as fitting every resample
afresh, and a one-game match fits one resample, not 200."""

from __future__ import annotations

import numpy as np
import pytest

from referee.standings import ratings as ratings_module
from referee.standings.placements import PlacementLog
from referee.standings.ratings import ALPHA, BOOTSTRAP_TOL, INTERVAL, _Top1Data, fit_ratings
from tests.standings.test_ratings import simulate

NAMES = ["a", "b", "c", "d"]


def _afresh(games, names, bootstrap, seed):
    """The interval's bounds (log scale) with every resample fitted, as before resamples were remembered."""
    log = PlacementLog.of(games)
    index = {n: i for i, n in enumerate(n for n in names if n in set(log.played()))}
    data = log.top1(index)
    fast = _Top1Data(len(index), data.distinct, range(len(data.distinct)))
    params = fast.fit_weighted(data.counts(), ALPHA)
    rng = np.random.default_rng([seed, 0x1A57CA2D])
    samples = np.empty((bootstrap, len(index)))
    for b in range(bootstrap):
        picks = np.bincount(rng.integers(0, data.deals, data.deals), minlength=data.deals).astype(float)
        weights = data.counts(picks if data.deal_of is None else picks[data.deal_of])
        samples[b] = fast.fit_weighted(weights, ALPHA, initial=params, tol=BOOTSTRAP_TOL)
    tail = (1 - INTERVAL) / 2 * 100
    return np.percentile(samples, [tail, 100 - tail], axis=0), index


@pytest.mark.parametrize("games", [1, 2, 3, 40])
def test_remembered_resamples_give_the_ratings_of_every_resample_fitted(games):
    played = simulate({"a": 0.6, "b": 0.2, "c": -0.2, "d": -0.6}, games, 4, seed=games)
    got = fit_ratings(played, NAMES, bootstrap=200, seed=5)
    (low, high), index = _afresh(played, NAMES, 200, 5)
    for name, i in index.items():
        assert got[name].low in (None, ratings_module._elo(low[i]))  # None: unbounded on that side
        assert got[name].high in (None, ratings_module._elo(high[i]))
        assert got[name].low is not None or got[name].high is not None


def test_a_one_game_match_fits_its_one_resample_once(monkeypatch):
    calls = []
    real = _Top1Data.fit_weighted

    def counting(self, *args, **kwargs):
        calls.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(_Top1Data, "fit_weighted", counting)
    fit_ratings(simulate({"a": 0.6, "b": 0.2, "c": -0.2, "d": -0.6}, 1, 4), NAMES, bootstrap=200, seed=5)
    assert len(calls) == 2  # the point, and the one resample a single game has
