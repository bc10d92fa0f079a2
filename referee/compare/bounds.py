"""The default bounds of ``compare``'s test, chosen for this game as fishtest chooses its bounds per time control.

Pure values. Chess engines gain a few Elo a patch, so fishtest tests ``[0, 2]`` normalized Elo; a bot author's
change to a Last Card bot is worth tens. The defaults here are made so that **a +30 Elo change is accepted (H1)
at least 95% of the time and no change is rejected (H0) 95% of the time**, in as few games as that allows:
``elo1`` is the normalized Elo of +30 logistic Elo at the game's own per-pair variance, rounded down to a
multiple of 5. The variance is the largest measured between the built-ins in twin pairs, per ruleset and table
size (``bench/bounds_bench.py``, 3000 pairs of each of hard-medium, medium-easy and hard-easy on seed 500), so
the power at +30 Elo is at least 95% on every table. In the normalized model a test's expected length depends
on its bounds alone: ``[0, 30]`` takes about 710 games under H0 or H1 (docs/compare.md has the table).

The logistic model's default is ``[0, 30]`` itself.
"""

from __future__ import annotations

import math

from referee.compare.expected import nelo_of_logistic
from referee.compare.sprt import Model, SprtSettings

#: The change the default bounds are made to find, in logistic Elo.
TARGET_ELO = 30.0
#: ``elo1`` is rounded down to a multiple of this (round numbers, and the power only rises).
STEP = 5.0

#: The largest per-pair variance of the pair score measured between the built-ins, by ruleset and seats
#: (``bench/bounds_bench.py --pairs 3000``; bench/README.md has the whole table).
PAIR_VARIANCE: dict[tuple[str, int], float] = {
    ("compact", 2): 0.0990, ("compact", 3): 0.1075, ("compact", 4): 0.1121,
    ("compact", 5): 0.0922, ("compact", 6): 0.0804,
    ("family", 2): 0.0932, ("family", 3): 0.0966, ("family", 4): 0.0909,
    ("family", 5): 0.0863, ("family", 6): 0.0708,
    ("arcade", 2): 0.0950, ("arcade", 3): 0.1028, ("arcade", 4): 0.1035,
    ("arcade", 5): 0.1031, ("arcade", 6): 0.1006,
}
#: What a table not measured takes (a ruleset's options may change the noise; the largest measured anywhere).
FALLBACK_VARIANCE = max(PAIR_VARIANCE.values())


def pair_variance(house: str, seats: int) -> float:
    """The game's per-pair variance on this table (measured; the largest measured where it was not)."""
    return PAIR_VARIANCE.get((house, seats), FALLBACK_VARIANCE)


def derive_elo1(variance: float, target: float = TARGET_ELO) -> float:
    """The normalized ``elo1`` whose test accepts a ``target`` logistic Elo change at least 95% of the time at this
    per-pair variance: its normalized Elo, rounded down to a multiple of ``STEP``."""
    return max(STEP, math.floor(nelo_of_logistic(target, variance) / STEP) * STEP)


def default_bounds(house: str, seats: int, model: Model = "normalized") -> tuple[float, float]:
    """``(elo0, elo1)`` for a test on this table in ``model``'s Elo."""
    if model == "logistic":
        return 0.0, TARGET_ELO
    return 0.0, derive_elo1(pair_variance(house, seats))


def default_settings(house: str, seats: int, model: Model = "normalized", alpha: float = 0.05,
                     beta: float = 0.05) -> SprtSettings:
    """The test ``compare`` runs on this table when no bound is given."""
    elo0, elo1 = default_bounds(house, seats, model)
    return SprtSettings(elo0, elo1, alpha, beta, model)


def resolve_bounds(elo0: float | None, elo1: float | None, house: str, seats: int,
                   model: Model) -> tuple[float, float, bool]:
    """The bounds given, the missing ones from the table's defaults; and whether both are the defaults."""
    low, high = default_bounds(house, seats, model)
    return (low if elo0 is None else elo0), (high if elo1 is None else elo1), elo0 is None and elo1 is None
