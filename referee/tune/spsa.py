"""SPSA's arithmetic as OpenBench does it: the gains, the probe of one iteration, the step. Pure functions of data.

From a parameter's ``c_end`` and ``r_end`` and the run's length ``N`` (OpenBench's ``create_spsa_run``):
``c = c_end * N**gamma``, ``a = r_end * c_end**2 * (A + N)**alpha`` with ``A = a_ratio * N``. At iteration
``k`` (1 first): ``c_k = c / k**gamma`` (at least 0.5 for an int, so its probes differ by a whole step),
``a_k = a / (A + k)**alpha``, ``r_k = a_k / c_k**2``: so the last iteration perturbs by ``c_end`` and steps by
``r_end``. The probe: a random sign per parameter, ``theta + c_k * sign`` against ``theta - c_k * sign``, an int
rounded by ``floor(x + u)`` with one uniform ``u`` for both sides, then clipped to the bounds. The step, after the
iteration's twin pairs: ``theta += r_k * c_k * (wins - losses) * sign``, clipped.
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass
from typing import Sequence

from referee.tune.params import Param

ALPHA = 0.602
GAMMA = 0.101
A_RATIO = 0.1


@dataclass(frozen=True)
class SpsaSettings:
    """The schedule: ``iterations`` of ``pairs`` twin pairs each, Spall's exponents and OpenBench's A-ratio."""

    iterations: int
    pairs: int = 8
    alpha: float = ALPHA
    gamma: float = GAMMA
    a_ratio: float = A_RATIO

    @property
    def big_a(self) -> float:
        """Spall's stability constant A: a tenth of the iterations by default."""
        return self.a_ratio * self.iterations

    def to_json(self) -> dict[str, float | int]:
        return {"iterations": self.iterations, "pairs": self.pairs, "alpha": self.alpha, "gamma": self.gamma,
                "a_ratio": self.a_ratio}


@dataclass(frozen=True)
class Gains:
    """One parameter's constants ``a`` and ``c``, derived from its ``c_end`` and ``r_end``."""

    a: float
    c: float

    @classmethod
    def of(cls, param: Param, settings: SpsaSettings) -> Gains:
        n = settings.iterations
        c = param.c_end * math.pow(n, settings.gamma)
        a = param.r_end * param.c_end ** 2 * math.pow(settings.big_a + n, settings.alpha)
        return cls(a, c)

    def c_k(self, k: int, settings: SpsaSettings, is_float: bool) -> float:
        return max(self.c / math.pow(k, settings.gamma), 0.0 if is_float else 0.5)

    def a_k(self, k: int, settings: SpsaSettings) -> float:
        return self.a / math.pow(settings.big_a + k, settings.alpha)

    def r_k(self, k: int, settings: SpsaSettings, is_float: bool) -> float:
        c = self.c_k(k, settings, is_float)
        return self.a_k(k, settings) / c ** 2 if c > 0 else 0.0


@dataclass(frozen=True)
class Perturbation:
    """Iteration ``k``'s plan: each parameter's sign, perturbation and step size, and the values of each side."""

    k: int
    signs: tuple[int, ...]
    c: tuple[float, ...]
    r: tuple[float, ...]
    plus: tuple[float, ...]
    minus: tuple[float, ...]


def iteration_rng(seed: int, k: int) -> random.Random:
    """Iteration ``k``'s own generator: a formula of the seed and ``k``, so a resumed run draws what it drew."""
    digest = hashlib.sha256(f"lastcard:{seed}:tune:{k}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def probe(params: Sequence[Param], theta: Sequence[float], k: int, settings: SpsaSettings,
          rng: random.Random) -> Perturbation:
    """The two sides of iteration ``k`` around ``theta``: signs drawn, ints rounded as OpenBench does, clipped."""
    signs, cs, rs, plus, minus = [], [], [], [], []
    for p, value in zip(params, theta):
        gains = Gains.of(p, settings)
        sign = 1 if rng.random() < 0.5 else -1
        c = gains.c_k(k, settings, p.is_float)
        hi, lo = value + sign * c, value - sign * c
        u = rng.random()  # drawn for floats too, so adding a float parameter does not reshuffle the others
        if not p.is_float:  # probabilistic rounding, one draw for both sides (OpenBench)
            hi, lo = math.floor(hi + u), math.floor(lo + u)
        signs.append(sign)
        cs.append(c)
        rs.append(gains.r_k(k, settings, p.is_float))
        plus.append(p.clip(hi))
        minus.append(p.clip(lo))
    return Perturbation(k, tuple(signs), tuple(cs), tuple(rs), tuple(plus), tuple(minus))


def step(params: Sequence[Param], theta: Sequence[float], plan: Perturbation, result: float) -> tuple[float, ...]:
    """``theta`` moved along the signs by the iteration's ``result`` (wins less losses of the plus side), clipped."""
    return tuple(p.clip(value + r * c * result * sign)
                 for p, value, r, c, sign in zip(params, theta, plan.r, plan.c, plan.signs))
