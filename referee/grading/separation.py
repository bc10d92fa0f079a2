"""Whether grades by rank separate a class, and how many more games would (an estimate), from one standings.

A student whose 95% rating interval overlaps a neighbour's holds a rank range (``rank_best`` < ``rank_worst``):
its points then come from ``shared_rank``, not from its own place, and a class whose ranges overlap gets the
same points over and over (every student's "100"). This says so, with a number a teacher can act on.

The estimate: an interval's width shrinks as ``1 / sqrt(games)``, so two neighbours ``d`` Elo apart with
half-widths ``w1`` and ``w2`` stop overlapping after about ``((w1 + w2) / d) ** 2`` times their games. Pairs that
would need more than ``NEVER_FACTOR`` times (a copied bot, two bots within a few Elo) are counted apart: more
games hardly help them, and the estimate would be meaningless.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Collection, Sequence

from referee.standings.model import StandingRow, rank_order, with_rank_ranges

#: Beyond this many times their games, two neighbours are reported as not separable by more games.
NEVER_FACTOR = 100.0


@dataclass(frozen=True)
class Separation:
    """How far the rank ranges separate the ranked students."""

    students: int
    """Students with a rank."""
    shared: tuple[str, ...]
    """Students whose rank range spans more than one rank: ``shared_rank`` decided their points."""
    more_games: int | None
    """About how many more games a bot would part the overlapping neighbours (None: no pair to part)."""
    never: tuple[tuple[str, str], ...] = ()
    """Neighbours that more games would hardly part (``NEVER_FACTOR``)."""

    @property
    def separated(self) -> bool:
        return not self.shared

    def text(self) -> str:
        """One sentence for the terminal, grades.csv's readers and the reports ("" when separated)."""
        if self.separated:
            return ""
        out = (f"grades by rank do not separate the class: {len(self.shared)} of {self.students} students hold a "
               "rank range shared with others (their 95% rating intervals overlap), so their points come from "
               "shared_rank, not their own place")
        if self.more_games is not None:
            out += (f"; about {self.more_games:,} more games a bot would part the overlapping neighbours (an estimate: "
                    "intervals narrow as 1/sqrt(games))")
        if self.never:
            pairs = ", ".join(f"{a} and {b}" for a, b in self.never[:5]) + (" ..." if len(self.never) > 5 else "")
            out += (f"; {len(self.never)} pair{'s' if len(self.never) != 1 else ''} would need over "
                    f"{NEVER_FACTOR:g} times their games ({pairs}): they play nearly alike")
        return out


def separation(rows: Sequence[StandingRow], students: Collection[str]) -> Separation:
    """The separation of ``students`` among ``rows`` (in rank order, with rank ranges)."""
    ranked = [r for r in rows if r.bot in students]
    shared = tuple(r.bot for r in ranked if (r.rank_best or r.rank) != (r.rank_worst or r.rank))
    factors: list[float] = []
    never: list[tuple[str, str]] = []
    for a, b in zip(rows, rows[1:]):
        if a.bot not in students and b.bot not in students:
            continue
        need = _factor(a, b)
        if need is None:
            continue
        if need > NEVER_FACTOR:
            never.append((a.bot, b.bot))
        elif need > 1:
            factors.append((need - 1) * (a.games + b.games) / 2)
    more = math.ceil(max(factors)) if factors else None
    return Separation(len(ranked), shared, more if shared else None, tuple(never) if shared else ())


def _factor(a: StandingRow, b: StandingRow) -> float | None:
    """How many times their games two neighbours need for their intervals to part (None: no interval to part)."""
    if None in (a.rating, b.rating, a.rating_low, a.rating_high, b.rating_low, b.rating_high):
        return None
    assert a.rating is not None and b.rating is not None
    assert a.rating_low is not None and a.rating_high is not None
    assert b.rating_low is not None and b.rating_high is not None
    overlap = min(a.rating_high, b.rating_high) - max(a.rating_low, b.rating_low)
    if overlap < 0:
        return None  # already apart
    gap = abs(a.rating - b.rating)
    widths = (a.rating_high - a.rating_low) / 2 + (b.rating_high - b.rating_low) / 2
    if gap <= 0:
        return math.inf
    return (widths / gap) ** 2


def by_overall_rating(rows: Sequence[StandingRow]) -> list[StandingRow]:
    """``rows`` ordered by the overall rating (over every game), ranks and rank ranges from the rating intervals
    alone: a knockout's order, set by a final's few games, is left out."""
    position = {name: i for i, name in enumerate(rank_order(rows, "rating"))}
    ordered = sorted(rows, key=lambda r: position[r.bot])
    return with_rank_ranges([replace(r, rank=i, reached=None) for i, r in enumerate(ordered, 1)])
