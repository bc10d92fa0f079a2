"""Has a tune settled? The trend of each parameter over the last iterations against its own noise, and the
gradient SPSA measured there against the noise of the games. Pure arithmetic on the steps, no I/O.

Over the last ``W`` iterations (a fifth of the run, at least ``MIN_WINDOW``), per parameter:

- **moved**: theta at the end less theta ``W`` iterations before;
- **noise**: how far ``W`` steps of the size seen would wander by chance, ``2 sd(step) sqrt(W)``: a random walk's
  95% reach. A parameter that moved less than this has **settled** (what is left is the games' noise);
  one that moved more is **still moving**, up or down;
- **gradient**: the mean of ``result * sign``, the plus side's wins less losses in this parameter's direction per
  iteration, with its 95% half-width ``2 sd / sqrt(W)``. Within it, SPSA sees no direction left (an optimum, or
  a parameter whose ``c_end`` is too small for the games to tell plus from minus).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Sequence

from referee.tune.model import Step
from referee.tune.params import Param

#: The fewest iterations a trend is read over.
MIN_WINDOW = 10


@dataclass(frozen=True)
class Trend:
    """One parameter over the last ``window`` iterations."""

    name: str
    window: int
    moved: float
    noise: float
    gradient: float
    gradient_error: float

    @property
    def settled(self) -> bool:
        return abs(self.moved) <= self.noise

    @property
    def verdict(self) -> str:
        if self.settled:
            return "settled (its drift is within the noise)"
        return f"still moving {'up' if self.moved > 0 else 'down'}: more iterations, or a larger r_end"

    def to_json(self) -> dict[str, float | int | bool | str]:
        return {"name": self.name, "window": self.window, "moved": self.moved, "noise": self.noise,
                "gradient": self.gradient, "gradient_error": self.gradient_error, "settled": self.settled}


def window(iterations: int) -> int:
    """The iterations a trend is read over: a fifth of the run, at least ``MIN_WINDOW`` (all of a shorter run)."""
    return min(iterations, max(MIN_WINDOW, iterations // 5))


def trends(params: Sequence[Param], starts: Sequence[float], steps: Sequence[Step]) -> list[Trend]:
    """Each parameter's trend over the last iterations (none before two iterations)."""
    if len(steps) < 2:
        return []
    w = window(len(steps))
    last = steps[-w:]
    out = []
    for i, p in enumerate(params):
        values = [starts[i], *(s.theta[i] for s in steps)][-(w + 1):]
        moves = [b - a for a, b in zip(values, values[1:])]
        noise = 2 * statistics.pstdev(moves) * math.sqrt(w)
        pulls = [s.result * s.plan.signs[i] for s in last]
        error = 2 * statistics.pstdev(pulls) / math.sqrt(w)
        out.append(Trend(p.name, w, values[-1] - values[0], noise, statistics.fmean(pulls), error))
    return out


def trend_lines(trends_: Sequence[Trend]) -> list[str]:
    """``convergence over the last 20 iterations:`` then a line per parameter."""
    if not trends_:
        return []
    width = max(len(t.name) for t in trends_)
    lines = [f"convergence over the last {trends_[0].window} iterations (moved against a random walk's 95% reach; "
             f"the plus side's wins less losses along the parameter, per iteration, ±95%):"]
    for t in trends_:
        lines.append(f"  {t.name:<{width}}  moved {_signed(t.moved)}, noise ±{_g(t.noise)}; gradient "
                     f"{t.gradient:+.2f} ±{t.gradient_error:.2f}: {t.verdict}")
    return lines


def _g(value: float) -> str:
    return f"{value:.3g}"


def _signed(value: float) -> str:
    return ("+" if value >= 0 else "-") + _g(abs(value))
