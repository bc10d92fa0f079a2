"""A multi-player rating: a Plackett-Luce model fitted to every game's placements at once, with a
seeded bootstrap 95% interval.

Each game's placements become top-1 choices (``choix``'s "top-1 data"): the first place was chosen
from everyone at the table, the second from everyone left, and so on, which is exactly the
Plackett-Luce likelihood of the order. Seats sharing a place (a drawn game, forfeits sharing last
place) are handled as Breslow handles ties: each tied seat counts as chosen from all the seats not
yet placed, the others of its group included, so a tie says "equally strong" rather than nothing.

The point estimate is ``choix.ilsr_top1`` (iterative Luce spectral ranking, with a small
regularisation ``ALPHA`` so that a bot that always wins or always loses keeps a finite rating). The
bootstrap resamples deals (a duplicate deal's replays stay together) with a seeded generator and
refits each sample with the same algorithm vectorised over the data (``_Top1Data``, which a test
checks against ``choix`` itself), warm-started from the point estimate.

Ratings are on the Elo scale: 1500 is the pool's average, and a bot 400 points above another
finishes ahead of it 10 times out of 11 when they meet.
"""

from __future__ import annotations

import importlib
import math
import os
import sys
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Protocol, Sequence

from referee.standings.placements import PlacementLog

if TYPE_CHECKING:
    import numpy as np

#: Regularisation of the I-LSR Markov chain (choix's ``alpha``).
ALPHA = 0.01
#: Log-strength to Elo points.
ELO = 400 / math.log(10)
CENTER = 1500.0
INTERVAL = 0.95
#: The BLAS thread settings fixed at one while numpy loads (see ``_import_numeric``).
BLAS_THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
_IMPORT_LOCK = threading.Lock()
#: Convergence of a bootstrap refit (mean change per bot, log scale): far below the 0.1 Elo shown.
BOOTSTRAP_TOL = 1e-6


@dataclass(frozen=True)
class Rating:
    """A bot's rating with its bootstrap interval.

    Without a bootstrap both bounds are ``None``; with one, a ``None`` bound is unbounded (a bot
    ahead of every opponent in every game has no upper bound, one always behind no lower bound).
    """

    rating: float
    low: float | None = None
    high: float | None = None


class Placed(Protocol):
    """What a rating fit reads of a game: who sat where, their places, and the deal (its seed)."""

    seed: int
    seating: tuple[str, ...]
    placements: tuple[int, ...]


def fit_ratings(games: Iterable[Placed] | PlacementLog, names: Sequence[str], *, bootstrap: int = 0, seed: int = 0,
                alpha: float = ALPHA) -> dict[str, Rating]:
    """Plackett-Luce ratings for the bots in ``names`` that played, with a ``bootstrap``-sample 95% interval.

    The games are read once into a ``PlacementLog`` (or given as one, in game-id order); the fit runs
    on the distinct choices with their counts, so its size follows the pool, not the number of games.
    """
    _import_numeric()
    import numpy as np

    log = games if isinstance(games, PlacementLog) else PlacementLog.of(games)
    seen = set(log.played())
    played = [n for n in names if n in seen]
    if not played:
        return {}
    index = {n: i for i, n in enumerate(played)}
    data = log.top1(index)
    distinct, deal_count = data.distinct, data.deals
    n = len(played)
    if not distinct:
        return {name: Rating(CENTER) for name in played}
    fast = _Top1Data(n, distinct, range(len(distinct)))
    params = fast.fit_weighted(data.counts(), alpha)
    point = {name: _elo(params[i]) for name, i in index.items()}
    if bootstrap <= 0:
        return {name: Rating(point[name]) for name in played}
    rng = np.random.default_rng([seed, 0x1A57CA2D])
    samples = np.empty((bootstrap, n))
    # A resample drawn before is not fitted again (the same weights give the same fit, bit for bit): with a
    # few deals most resamples repeat (a one-game match's 200 are all the same), with many none do.
    fitted: dict[bytes, np.ndarray] = {}
    for b in range(bootstrap):
        picks = np.bincount(rng.integers(0, deal_count, deal_count), minlength=deal_count).astype(float)
        weights = data.counts(picks if data.deal_of is None else picks[data.deal_of])
        key = weights.tobytes()
        fit = fitted.get(key)
        if fit is None:
            fit = fitted[key] = fast.fit_weighted(weights, alpha, initial=params, tol=BOOTSTRAP_TOL)
        samples[b] = fit
    tail = (1 - INTERVAL) / 2 * 100
    low, high = np.percentile(samples, [tail, 100 - tail], axis=0)
    ahead, behind = _separation(distinct, played)
    # A bot that finished ahead of everyone it met, every time, looks the same in every resample: the
    # data put no upper bound on its strength (the point is held finite by ALPHA only). Say so.
    return {name: Rating(point[name], None if name in behind else _elo(low[i]),
                         None if name in ahead else _elo(high[i])) for name, i in index.items()}


def _separation(distinct: Sequence[tuple[int, Sequence[int]]], names: Sequence[str]) -> tuple[set[str], set[str]]:
    """Bots never behind or level with an opponent, and bots never ahead or level, from the top-1 choices:
    a bot is behind or level with someone exactly when it is among a choice's others (chosen from with
    it still unplaced), and ahead or level exactly when it is a choice's winner."""
    chosen = {w for w, _ in distinct}
    among = {o for _, others in distinct for o in others}
    return ({name for i, name in enumerate(names) if i not in among},
            {name for i, name in enumerate(names) if i not in chosen})


def warm_up() -> None:
    """Import numpy ahead of need, in a background thread (about 0.3 s of CPU)."""
    start_warm_up()


def start_warm_up() -> threading.Thread:
    """``warm_up``, returning the thread (to join before forking: no thread may hold an import lock then)."""
    thread = threading.Thread(target=_import_quietly, name="lastcard-import-numeric", daemon=True)
    thread.start()
    return thread


def _import_quietly() -> None:
    try:
        _import_numeric()
        import numpy as np

        # The interval's percentiles import numpy.ma at their first call (np.unique does): 20 ms of a one-game
        # match's wait for its standings, taken here, beside the games.
        np.percentile(np.zeros((2, 1)), [2.5, 97.5], axis=0)
    except ImportError:  # pragma: no cover - reported when the fit runs
        pass


def _import_numeric() -> None:
    """Import numpy with one BLAS thread, unless the environment says otherwise.

    Only what the fit uses: ``import choix`` pulls in scipy.stats and scipy.optimize as well, three times
    the CPU of numpy and scipy.linalg (1.5 s against 0.5 s on the 2-core VM), and scipy.linalg itself
    two thirds of that; so the few lines of choix the fit needs are here (``_statdist`` on numpy's
    solver, ``_centred_log``, ``_spread``).

    The fit factorises a bots x bots matrix per iteration. On a machine whose cores are busy with
    other work (bots, workers, other users), OpenBLAS threads wait for each other: a 300 x 300 LU
    took 66 ms with OpenBLAS's two threads and 2 ms with one (2-core VM under load). OpenBLAS reads
    the setting when it loads, so it is set for the import and put back at once: the bots this
    process starts later see the environment as it was.
    """
    with _IMPORT_LOCK:
        if "numpy" in sys.modules:
            return
        saved = {k: os.environ.get(k) for k in BLAS_THREAD_VARS}
        for k in BLAS_THREAD_VARS:
            os.environ.setdefault(k, "1")
        try:
            importlib.import_module("numpy")
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v


def _elo(theta: float) -> float:
    return round(CENTER + ELO * float(theta), 1)


class _Top1Data:
    """Top-1 data as arrays, for refitting many weighted copies (bootstrap samples) quickly.

    ``fit`` is choix's I-LSR (``choix.lsr_top1`` iterated to convergence) with every choice
    weighted by how often its deal was drawn; with all weights 1 it is ``choix.ilsr_top1``.
    """

    def __init__(self, n: int, data: Sequence[tuple[int, Sequence[int]]], deal_of: Sequence[int]) -> None:
        import numpy as np

        self.n = n
        # Choices that are alike (the same winner among the same bots) are fitted once, weighted by
        # their count in the sample: a long match has a few dozen kinds among tens of thousands.
        kinds: dict[tuple[int, tuple[int, ...]], int] = {}
        kind_of = [kinds.setdefault((winner, tuple(sorted(others))), len(kinds)) for winner, others in data]
        width = max(len(others) for _, others in kinds) + 1
        members = np.full((len(kinds), width), n, dtype=np.int64)  # n: padding, weight 0
        losers, winners, obs = [], [], []
        for o, (winner, others) in enumerate(kinds):
            members[o, 0] = winner
            members[o, 1:1 + len(others)] = others
            for other in others:
                losers.append(other)
                winners.append(winner)
                obs.append(o)
        self.members = members
        self.kinds = len(kinds)
        self.kind_of = np.asarray(kind_of, dtype=np.int64)
        self.cell = np.asarray(losers, dtype=np.int64) * n + np.asarray(winners, dtype=np.int64)
        self.obs = np.asarray(obs, dtype=np.int64)
        self.deal_of = np.asarray(deal_of, dtype=np.int64)

    def fit(self, deal_weights: np.ndarray, alpha: float, initial: np.ndarray | None = None,
            max_iter: int = 10_000, tol: float = 1e-8) -> np.ndarray:
        """The fit with every choice weighted by its deal's weight."""
        return self.fit_weighted(deal_weights[self.deal_of], alpha, initial, max_iter, tol)

    def fit_weighted(self, obs_weight: np.ndarray, alpha: float, initial: np.ndarray | None = None,
                     max_iter: int = 10_000, tol: float = 1e-8) -> np.ndarray:
        """The fit with each choice weighted by ``obs_weight`` (a count of identical choices, or a resample's)."""
        import numpy as np

        n = self.n
        obs_weight = np.bincount(self.kind_of, weights=obs_weight, minlength=self.kinds)  # per kind of choice
        params = initial
        previous = None
        for _ in range(max_iter):
            weights = np.ones(n) if params is None else _spread(params)
            padded = np.append(weights, 0.0)
            totals = padded[self.members].sum(axis=1)
            values = (obs_weight / totals)[self.obs]
            chain = np.bincount(self.cell, weights=values, minlength=n * n).reshape(n, n) + alpha
            chain -= np.diag(chain.sum(axis=1))
            params = _centred_log(_statdist(chain))
            # choix's NormOfDifferenceTest(tol, order=1): the mean change per bot, of centred parameters
            centred = params - np.mean(params)
            if previous is not None and np.linalg.norm(previous - centred, ord=1) <= tol * len(centred):
                return params
            previous = centred
        raise RuntimeError(f"the rating fit did not converge after {max_iter} iterations")


# choix.utils (MIT licence), the three functions the fit needs: two line for line, ``_statdist`` on numpy's
# solver instead of scipy.linalg's LU; importing choix itself would load scipy.stats and scipy.optimize too.
def _centred_log(weights: np.ndarray) -> np.ndarray:
    """choix's ``log_transform``: weights to centred log-scale parameters."""
    import numpy as np

    params = np.log(weights)
    centred: np.ndarray = params - params.mean()
    return centred


def _spread(params: np.ndarray) -> np.ndarray:
    """choix's ``exp_transform``: parameters to exp-scale weights summing to their number."""
    import numpy as np

    params = np.asarray(params)
    weights = np.exp(params - np.mean(params))
    spread: np.ndarray = (len(weights) / weights.sum()) * weights
    return spread


def _statdist(generator: np.ndarray) -> np.ndarray:
    """choix's ``statdist``: the (unnormalised) stationary distribution of the chain with this generator.

    The same system as choix solves, with numpy alone: ``x Q = 0`` with the last entry 1, i.e. the first
    n-1 equations of ``Q.T x = 0`` (the last one is their sum) on the leading (n-1)-block, which is
    nonsingular for a chain with one communicating class. choix takes an LU of the whole matrix through
    scipy.linalg; importing scipy.linalg cost a run 0.25 s of CPU more than numpy's own (the figures in
    bench/README.md), for the same answer to about 1e-15.
    """
    import numpy as np

    transposed = np.asarray(generator).T
    n = transposed.shape[0]
    try:
        res = np.linalg.solve(transposed[:-1, :-1], -transposed[:-1, -1])
    except np.linalg.LinAlgError as exc:
        raise ValueError("stationary distribution could not be computed. "
                         "Perhaps the Markov chain has more than one absorbing class?") from exc
    res = np.append(res, 1.0)
    stationary: np.ndarray = (n / res.sum()) * res
    return stationary
