"""Which tables the ladder plays next (pure: standings in, seatings out).

Two needs, in this order:

1. **Coverage**: every bot reaches its share of kept games (a new or changed bot starts at none). The
   bot furthest below its share sits down first, with the others furthest below theirs.
2. **Uncertainty**: then the tables go where the order is least certain: the neighbours in the order
   whose 95% rating intervals overlap most (relative to their widths), the top places weighted first,
   each pair seated with the bots ranked next to it.

Everything is decided by the arguments and the ``rng`` the caller seeds, so the same games give the
same plan whatever ran them.
"""

from __future__ import annotations

import random
from typing import Mapping, Sequence

from referee.standings.model import StandingRow

#: How much less a pair below the top places counts than one inside them.
LOWER_WEIGHT = 0.25
#: A missing bound (the games set none) counts as this many Elo points beyond the rating.
OPEN_BOUND = 400.0


def coverage_tables(counts: Mapping[str, int], share: int, seats: int, games: int,
                    rng: random.Random) -> list[tuple[str, ...]]:
    """Up to ``games`` tables for the bots below ``share`` kept games (none when every bot has its share)."""
    counts = dict(counts)
    names = sorted(counts)
    if len(names) < seats:
        return []
    tiebreak = {n: rng.random() for n in names}
    tables = []
    for _ in range(games):
        short = [n for n in names if counts[n] < share]
        if not short:
            break
        ranked = sorted(names, key=lambda n: (counts[n] >= share, counts[n], tiebreak[n]))
        table = ranked[:seats]
        for n in table:
            counts[n] += 1
            tiebreak[n] = rng.random()  # the next table mixes the opponents
        table = list(table)
        rng.shuffle(table)
        tables.append(tuple(table))
    return tables


def pair_uncertainty(rows: Sequence[StandingRow], top: int) -> list[tuple[float, int]]:
    """``(score, i)`` for each neighbouring pair ``rows[i], rows[i + 1]`` whose intervals overlap, best first.

    The score is the overlap over the narrower interval (1: one interval inside the other), times
    ``LOWER_WEIGHT`` below the ``top`` places.
    """
    out = []
    for i in range(len(rows) - 1):
        a, b = _interval(rows[i]), _interval(rows[i + 1])
        if a is None or b is None:
            continue
        overlap = min(a[1], b[1]) - max(a[0], b[0])
        if overlap < 0:
            continue
        narrow = max(1e-9, min(a[1] - a[0], b[1] - b[0]))
        score = min(1.0, overlap / narrow) * (1.0 if i < top else LOWER_WEIGHT)
        out.append((score, i))
    out.sort(key=lambda item: (-item[0], item[1]))
    return out


def uncertain_tables(rows: Sequence[StandingRow], seats: int, games: int, top: int,
                     rng: random.Random) -> list[tuple[str, ...]]:
    """Up to ``games`` tables around the most uncertain neighbouring pairs of ``rows`` (in rank order)."""
    pairs = pair_uncertainty(rows, top)
    if not pairs or len(rows) < seats:
        return []
    total = sum(score for score, _ in pairs)
    names = [r.bot for r in rows]
    tables: list[tuple[str, ...]] = []
    # Games in proportion to each pair's score (at least one for the most uncertain), best pairs first.
    for score, i in pairs:
        want = max(1, round(games * score / total)) if total > 0 else 1
        for _ in range(want):
            if len(tables) >= games:
                break
            tables.append(_around(names, i, seats, rng))
        if len(tables) >= games:
            break
    return tables


def _around(names: Sequence[str], i: int, seats: int, rng: random.Random) -> tuple[str, ...]:
    """The pair ``names[i], names[i + 1]`` and the ``seats - 2`` bots nearest them in the order."""
    chosen = [names[i], names[i + 1]]
    lo, hi = i - 1, i + 2
    while len(chosen) < seats:
        # Alternate above and below, the side drawn at random so neither is always first.
        sides = [lo, hi] if rng.random() < 0.5 else [hi, lo]
        for k in sides:
            if 0 <= k < len(names) and len(chosen) < seats and names[k] not in chosen:
                chosen.append(names[k])
        lo, hi = lo - 1, hi + 1
    rng.shuffle(chosen)
    return tuple(chosen)


def _interval(row: StandingRow) -> tuple[float, float] | None:
    rating = row.rating
    if rating is None:
        return None
    low, high = row.rating_low, row.rating_high
    if low is None and high is None:
        return None
    return (rating - OPEN_BOUND if low is None else low, rating + OPEN_BOUND if high is None else high)


def separated(rows: Sequence[StandingRow], top: int) -> bool:
    """True when each of the ``top`` first places holds only its own rank (``rank_best == rank_worst``)."""
    head = rows[:top]
    return bool(head) and all(r.rank_best == r.rank_worst == r.rank for r in head)
