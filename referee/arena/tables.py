"""Which bots sit at which tables, and in which seats: pure functions of names, counts and a seeded RNG.

A *table* is a tuple of bot names in a base order. ``seatings`` turns each table into the seat
orders of its games, rotating the seats (and alternating the direction of play) so no bot keeps an
advantage of position; with duplicate deals the rotations of one cycle are the replays of one deal.
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Iterable, Sequence

#: The bots at one table of a round, in seat order (the table of a game is ``referee.table.table.Table``).
Lineup = tuple[str, ...]

#: How many of the least-played bots ``sampled`` considers for each seat; bounds its cost on large pools.
SAMPLE_WINDOW = 48


def round_robin(pool: Sequence[str], seats: int) -> list[Lineup]:
    """Every table of ``seats`` bots from the pool (``C(n, seats)`` tables)."""
    return [tuple(t) for t in itertools.combinations(pool, seats)]


def gauntlet(challengers: Sequence[str], field: Sequence[str], seats: int) -> list[Lineup]:
    """Each challenger against every group of ``seats - 1`` bots from the field."""
    return [(c, *group) for c in challengers for group in itertools.combinations(field, seats - 1)]


def sampled_table_count(pool_size: int, seats: int, games_per_bot: int) -> int:
    """Tables needed for every bot to play ``games_per_bot`` games (the last few play one more)."""
    return math.ceil(pool_size * games_per_bot / seats)


def sampled(pool: Sequence[str], seats: int, tables: int, rng: random.Random) -> list[Lineup]:
    """``tables`` random tables in which every bot plays as often as any other (give or take one game)
    and meets as many different opponents as it can.

    Each seat goes to one of the bots that have played least so far, the one that has met the
    bots already at the table least often (ties broken by the seeded shuffle).
    """
    n = len(pool)
    played = [0] * n
    met = [[0] * n for _ in range(n)]
    out: list[Lineup] = []
    for _ in range(tables):
        order = list(range(n))
        rng.shuffle(order)
        order.sort(key=played.__getitem__)  # stable: least played first, shuffled within a count
        chosen = [order[0]]
        rest = order[1:]
        for _ in range(seats - 1):
            low = played[rest[0]]
            window = [b for b in rest[:SAMPLE_WINDOW] if played[b] == low]
            best = min(window, key=lambda b: sum(met[b][c] for c in chosen))
            chosen.append(best)
            rest.remove(best)
        for a in chosen:
            played[a] += 1
            for b in chosen:
                if a != b:
                    met[a][b] += 1
        out.append(tuple(pool[i] for i in chosen))
    return out


def knockout_tables(ordered: Sequence[str], seats: int) -> list[Lineup]:
    """Split bots, strongest first, into ``ceil(n / seats)`` tables by snake seeding.

    Snake seeding (1 8 9 16 / 2 7 10 15 / ...) spreads the strong bots over the tables. A table of
    one bot is a bye: that bot goes through without playing.
    """
    n = len(ordered)
    count = max(1, math.ceil(n / seats))
    tables: list[list[str]] = [[] for _ in range(count)]
    for i, name in enumerate(ordered):
        row, col = divmod(i, count)
        tables[col if row % 2 == 0 else count - 1 - col].append(name)
    return [tuple(t) for t in tables]


def knockout_sizes(entrants: int, seats: int, advance: int) -> list[list[int]]:
    """The table sizes of each knockout round for ``entrants`` bots, the last being the final."""
    rounds = []
    n = entrants
    while True:
        count = max(1, math.ceil(n / seats))
        sizes = [n // count + (1 if c < n % count else 0) for c in range(count)]
        rounds.append(sizes)
        if count == 1:
            return rounds
        n = sum(advancing(s, advance) for s in sizes)


def advancing(size: int, advance: int) -> int:
    """Places that go through from a knockout table of ``size`` (a bye goes through; someone always goes out)."""
    return 1 if size == 1 else min(advance, size - 1)


def table_games(size: int, games: int, duplicate: bool, seats: int) -> int:
    """Games a table of ``size`` plays: ``games``, or with duplicate deals, its deals times its size."""
    if size < 2:
        return 0
    return max(1, games // seats) * size if duplicate else games


def seating(table: Lineup, j: int, offset: int, reverse: bool) -> Lineup:
    """The seat order of a table's ``j``-th game: rotation ``offset + j`` of the base order, which is the
    table's order in even cycles of ``len(table)`` games and its reverse in odd ones (``reverse`` swaps)."""
    size = len(table)
    cycle = j // size
    base = table[::-1] if (cycle % 2 == 1) != reverse else table
    r = (offset + j) % size
    return base[r:] + base[:r]


def seatings(tables: Iterable[Lineup], games: Sequence[int], counts: dict[str, list[int]] | None = None
             ) -> list[list[Lineup]]:
    """Seat orders for each table's games, balancing every bot's seats across all the tables.

    Within a table, ``len(table)`` consecutive games are its rotations, so every bot sits in every
    seat once per cycle; which rotation comes first (and the direction) is chosen per table to even
    out the seats the bots have had so far (``counts``: bot -> games per seat, updated in place).
    """
    tables = list(tables)
    return [[seating(table, j, offset, reverse) for j in range(g)]
            for table, g, (offset, reverse) in zip(tables, games, rotations(tables, games, counts))]


def rotations(tables: Iterable[Lineup], games: Sequence[int], counts: dict[str, list[int]] | None = None
              ) -> list[tuple[int, bool]]:
    """Each table's first rotation and direction (``seating``'s ``offset`` and ``reverse``), as ``seatings``
    chooses them, in time independent of the games per table (``counts`` updated in place).

    A whole cycle of ``len(table)`` games seats every bot once in every seat whatever the rotation and
    direction, so it adds the same cost to each choice and the same counts: only the games of the last,
    partial cycle decide, and a table of a million games is chosen as fast as one of four.
    """
    counts = {} if counts is None else counts
    out = []
    for table, g in zip(tables, games):
        size = len(table)
        for name in table:
            counts.setdefault(name, [0] * 6)
        cycles, rest = divmod(g, size) if size else (0, 0)
        tail = range(cycles * size, g)
        best: tuple[int, int, bool] | None = None
        for reverse in (False, True) if size > 2 else (False,):
            for offset in range(size):
                cost = 0
                for j in tail:
                    order = seating(table, j, offset, reverse)
                    cost += sum(counts[name][s] for s, name in enumerate(order))
                if best is None or cost < best[0]:
                    best = (cost, offset, reverse)
        assert best is not None
        _, offset, reverse = best
        for name in table:
            seats = counts[name]
            for s in range(size):
                seats[s] += cycles
        for j in tail:
            for s, name in enumerate(seating(table, j, offset, reverse)):
                counts[name][s] += 1
        out.append((offset, reverse))
    return out
