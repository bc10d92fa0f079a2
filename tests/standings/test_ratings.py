"""Plackett-Luce ratings, their bootstrap interval, Wilson intervals and standings on known orders."""

from __future__ import annotations

import math
import os
import random

import choix
import numpy as np
import pytest

from referee.standings.model import Tally, rank_order, wilson_interval
from referee.standings.placements import choices
from referee.standings.ratings import CENTER, ELO, _Top1Data, fit_ratings
from referee.standings.results_doc import HeadToHead
from referee.store.results import GameResult


def result(data: dict) -> GameResult:
    """A made-up game as the table would return it (only the keys the test gives are real)."""
    return GameResult.from_json({"game": "g", "seed": 0, "ruleset": "compact", **data})


def simulate(strengths: dict[str, float], games: int, seats: int, seed: int = 0) -> list[GameResult]:
    """Games whose placements follow a Plackett-Luce model with the given log-strengths."""
    rng = random.Random(seed)
    names = list(strengths)
    out = []
    for g in range(games):
        table = rng.sample(names, seats)
        left, order = list(table), []
        while left:
            weights = [math.exp(strengths[n]) for n in left]
            pick = rng.choices(left, weights)[0]
            order.append(pick)
            left.remove(pick)
        out.append(result({"game": f"g{g:06d}", "seed": g, "seating": table,
                           "placements": [order.index(n) + 1 for n in table], "scores": [0] * seats}))
    return out


@pytest.mark.parametrize("places, expected", [
    pytest.param([2, 1, 3], [(1, [0, 2]), (0, [2])], id="strict"),
    pytest.param([1, 1, 3], [(0, [1, 2]), (1, [0, 2])], id="shared-first"),
    pytest.param([1, 3, 3, 2], [(0, [3, 1, 2]), (3, [1, 2]), (1, [2]), (2, [1])], id="shared-last"),
    pytest.param([1, 1], [(0, [1]), (1, [0])], id="all-tied"),
])
def test_placements_become_top1_choices_with_breslow_ties(places, expected):
    assert choices(places) == expected


def test_untied_choices_are_the_plackett_luce_ranking_likelihood():
    games = simulate({"a": 1.0, "b": 0.0, "c": -1.0, "d": 0.5}, 300, 3, seed=4)
    idx = {n: i for i, n in enumerate("abcd")}
    rankings = [[idx[n] for n, _ in sorted(zip(g.seating, g.placements), key=lambda x: x[1])] for g in games]
    top1 = [(idx[g.seating[s]], [idx[g.seating[o]] for o in others]) for g in games
            for s, others in choices(g.placements)]
    np.testing.assert_allclose(choix.ilsr_rankings(4, rankings, alpha=0.01), choix.ilsr_top1(4, top1, alpha=0.01),
                               atol=1e-7)


def test_the_stationary_distribution_is_choixs_on_numpy_alone():
    """``_statdist`` solves choix's system with numpy's solver instead of scipy.linalg's LU: the same answer
    to rounding, on random chains of several sizes (seeded)."""
    from referee.standings.ratings import _statdist

    rng = np.random.default_rng(7)
    for n in (2, 3, 8, 40):
        for _ in range(10):
            rates = rng.random((n, n)) * (rng.random((n, n)) < 0.6) + 1e-3
            np.fill_diagonal(rates, 0.0)
            generator = rates - np.diag(rates.sum(axis=1))
            np.testing.assert_allclose(_statdist(generator), choix.utils.statdist(generator), rtol=1e-11)


def test_a_chain_with_two_absorbing_classes_has_no_stationary_distribution():
    from referee.standings.ratings import _statdist

    generator = np.array([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [1.0, 1.0, -2.0]])
    with pytest.raises(ValueError, match="more than one absorbing class"):
        _statdist(generator)


def test_the_vectorised_refit_is_choix_ilsr():
    games = simulate({f"p{i}": 0.3 * i for i in range(8)}, 400, 4, seed=2)
    idx = {f"p{i}": i for i in range(8)}
    data, deal = [], []
    for d, g in enumerate(games):
        for s, others in choices(g.placements):
            data.append((idx[g.seating[s]], [idx[g.seating[o]] for o in others]))
            deal.append(d)
    fast = _Top1Data(8, data, deal)
    np.testing.assert_allclose(fast.fit(np.ones(len(games)), 0.01), choix.ilsr_top1(8, data, alpha=0.01), atol=1e-7)
    weights = np.random.default_rng(1).integers(0, 3, len(games)).astype(float)  # a resample = repeated games
    repeated = [x for x, w in zip(data, weights[np.asarray(deal)]) for _ in range(int(w))]
    np.testing.assert_allclose(fast.fit(weights, 0.01), choix.ilsr_top1(8, repeated, alpha=0.01), atol=1e-6)


def test_ratings_recover_a_known_order_with_intervals_that_cover_it():
    truth = {"a": 1.2, "b": 0.6, "c": 0.0, "d": -0.6, "e": -1.2}
    games = simulate(truth, 400, 4, seed=9)
    ratings = fit_ratings(games, list(truth), bootstrap=100, seed=1)
    assert sorted(truth, key=lambda n: -ratings[n].rating) == list(truth)
    mean = sum(truth.values()) / len(truth)
    for name, r in ratings.items():
        true_elo = CENTER + ELO * (truth[name] - mean)
        assert r.low < r.rating < r.high
        assert r.low - 30 <= true_elo <= r.high + 30, (name, r, true_elo)


def test_the_bootstrap_is_seeded():
    games = simulate({"a": 0.5, "b": 0.0, "c": -0.5}, 60, 3)
    one = fit_ratings(games, ["a", "b", "c"], bootstrap=50, seed=3)
    assert one == fit_ratings(games, ["a", "b", "c"], bootstrap=50, seed=3)
    assert one != fit_ratings(games, ["a", "b", "c"], bootstrap=50, seed=4)


def test_a_bot_ahead_of_everyone_every_time_has_no_upper_bound():
    games = [result({"game": f"g{i}", "seed": i, "seating": ["top", f"x{i % 3}", f"y{i % 2}"],
                     "placements": [1, 2 + i % 2, 3 - i % 2]}) for i in range(12)]
    ratings = fit_ratings(games, ["top", "x0", "x1", "x2", "y0", "y1"], bootstrap=20, seed=1)
    assert ratings["top"].high is None and ratings["top"].low is not None
    assert ratings["top"].rating == max(r.rating for r in ratings.values())


def test_wilson_interval():
    low, high = wilson_interval(0, 10)
    assert low == 0 and 0.27 < high < 0.28
    low, high = wilson_interval(50, 100)
    assert 0.40 < low < 0.41 and 0.59 < high < 0.60
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_standings_rows_carry_ratings_win_rates_and_keep_the_match_format():
    games = simulate({"hard": 2.0, "mid": 0.5, "weak": -1.0}, 90, 3, seed=5)
    ratings = fit_ratings(games, ["weak", "mid", "hard"], bootstrap=30, seed=2)
    rows = Tally(["weak", "mid", "hard"]).extend(games).rows(ratings=ratings)
    assert [r.bot for r in rows] == ["hard", "mid", "weak"] == rank_order(rows)
    assert [r.rank for r in rows] == [1, 2, 3]
    assert list(rows[0].to_json()) == ["rank", "bot", "games", "wins", "draws", "avg_place", "points", "rating",
                                       "rating_low", "rating_high", "win_rate", "win_low", "win_high", "faults"]
    hard = rows[0]
    assert hard.win_low < hard.win_rate < hard.win_high
    assert hard.rating_low < hard.rating < hard.rating_high


def test_head_to_head_counts_who_finished_ahead():
    games = [result({"seating": ["a", "b", "c"], "placements": [1, 2, 3]}),
             result({"seating": ["b", "c", "a"], "placements": [1, 1, 3]})]
    h2h = HeadToHead.of(games, ["a", "b", "c"]).to_json()
    assert h2h["meetings"] == [[0, 2, 2], [2, 0, 2], [2, 2, 0]]
    assert h2h["ahead"] == [[0, 1, 1], [1, 0, 1], [1, 0, 0]]  # b and c tied in game 2


@pytest.mark.slow
def test_the_fit_loads_numpy_with_one_blas_thread_and_leaves_the_environment_as_it_was():
    import subprocess
    import sys

    # numpy's OpenBLAS says how many threads it has (when the wheel's library exports the call).
    code = """
import ctypes, os
from referee.standings.ratings import _import_numeric
_import_numeric()
threads = "unknown"
for line in open("/proc/self/maps"):
    path = line.split()[-1]
    if "openblas64" in path and ".so" in path:
        try:
            threads = ctypes.CDLL(path).scipy_openblas_get_num_threads64_()
        except AttributeError:
            pass
print(os.environ.get("OPENBLAS_NUM_THREADS"), os.environ.get("MKL_NUM_THREADS"), threads)
"""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    env["MKL_NUM_THREADS"] = "3"  # a setting the user made is kept
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    before, mkl, threads = out.stdout.split()
    assert (before, mkl) == ("None", "3")  # the bots started later see the environment as it was
    assert threads in ("1", "unknown")


@pytest.mark.slow
def test_the_fit_loads_neither_choix_nor_scipy():
    """``import choix`` costs three times the CPU of what the fit uses (scipy.stats, scipy.optimize): a serial
    second of every run, and scipy.linalg alone 0.3 s more than numpy; the fit's few lines of choix are its
    own, on numpy (the refit is checked against choix above)."""
    import subprocess
    import sys

    code = """
import sys
from referee.standings.ratings import fit_ratings
from referee.store.results import GameResult
games = [GameResult.from_json({"game": f"g{i}", "seed": i, "ruleset": "compact", "seating": ["a", "b", "c"],
                               "placements": [1 + (i + k) % 3 for k in range(3)], "scores": [0, 0, 0]})
         for i in range(30)]
ratings = fit_ratings(games, ["a", "b", "c"], bootstrap=20, seed=1)
assert sorted(ratings) == ["a", "b", "c"], ratings
print(sorted(m for m in sys.modules if m.split(".")[0] in ("choix", "scipy")))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
