"""Tournament formats as objects: each knows how many games a stage has and which tables play them.

One class per format (``round_robin``, ``gauntlet``, ``sampled``, ``knockout``), so the count that
``validate`` prints and the games the planner hands out come from the same place. A format deals
in tables and games per table; the ``Planner`` (schedule.py) numbers the games, gives them deals,
seeds and seat orders, and keeps track of who reached which round.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Callable, ClassVar, Collection, Mapping, Protocol, Sequence

from referee.run.seeds import game_seed
from referee.standings.model import Tally
from referee.store.ranking_shapes import FormatSettingsJson

if TYPE_CHECKING:
    from referee.store.results import GameLine
from referee.arena.tables import (
    SAMPLE_WINDOW,
    Lineup,
    advancing,
    gauntlet,
    knockout_sizes,
    knockout_tables,
    rotations,
    round_robin,
    sampled,
    sampled_table_count,
    seating,
    seatings,
    table_games,
)


class StageShape(Protocol):
    """What a format reads of the stage it plays (``model.Stage`` is one): the formats are configured by it
    without importing the model that holds them."""

    @property
    def name(self) -> str: ...

    @property
    def seats(self) -> int: ...

    @property
    def games(self) -> int: ...

    @property
    def duplicate(self) -> bool: ...

    @property
    def entrants(self) -> int | None: ...


@dataclass(frozen=True)
class Entry:
    """Who may enter stage ``index``: the pool in file order and ranked best first on the games so far."""

    index: int
    names: Sequence[str]
    ranked: Sequence[str]
    seed: int


@dataclass(frozen=True)
class RoundPlan:
    """The tables of one round and how many games each plays."""

    tables: tuple[Lineup, ...]
    games: tuple[int, ...]
    final: bool = False


@dataclass(frozen=True)
class RoundOutcome:
    """What a finished round decided: each bot's place at its table (0: not ranked) and who goes on."""

    places: Mapping[str, int]
    advanced: tuple[str, ...] | None = None
    next: RoundPlan | None = None


@dataclass(frozen=True)
class Format(ABC):
    """A way of forming a stage's tables, configured with its own settings: counts its games, plans its first
    round and any after it."""

    name: ClassVar[str]
    #: True when the stage is rounds of tables that knock bots out.
    knockout: ClassVar[bool] = False
    #: True when only the tables are held and each game is a formula of its index (``schedule.LazyGames``);
    #: False when the format must see all its games at once (so at most ``pool_check.MAX_GAMES`` of them).
    lazy: ClassVar[bool] = False

    @classmethod
    def keys(cls) -> tuple[str, ...]:
        """The arena-file keys only this format reads (anywhere else they are a mistake)."""
        return tuple(f.name for f in fields(cls))

    def entrants(self, stage: StageShape, index: int, pool_size: int) -> int:
        """How many bots enter the stage from a pool of ``pool_size``."""
        if index == 0 or stage.entrants is None:
            return pool_size
        return min(stage.entrants, pool_size)

    @abstractmethod
    def count(self, stage: StageShape, index: int, pool_size: int, names: Collection[str]) -> int:
        """The stage's games with ``pool_size`` bots (``names``: every bot of the arena)."""

    def held(self, stage: StageShape, index: int, pool_size: int, names: Collection[str]) -> int:
        """What planning the stage holds at once: its tables if ``lazy``, else its games."""
        return self.count(stage, index, pool_size, names)

    def at_once(self, stage: StageShape, index: int, pool_size: int, names: Collection[str]) -> int:
        """The most games of the stage that can be in play together (one round's: the next needs them all)."""
        return self.count(stage, index, pool_size, names)

    @abstractmethod
    def first(self, stage: StageShape, entry: Entry) -> RoundPlan:
        """The stage's first round."""

    def after(self, stage: StageShape, tables: Sequence[Lineup], played: Sequence[Sequence[str]],
              results: Callable[[int], list[GameLine]], rank: Callable[[], Mapping[str, int]],
              final: bool) -> RoundOutcome:
        """What the finished round decided: ``played`` is each game's seat order, ``results(t)`` table t's
        games, ``rank()`` each bot's place in the standings so far (costly: call it only when needed).
        One round and no places, unless the format overrides this."""
        return RoundOutcome({name: 0 for seating_ in played for name in seating_})

    def label(self, stage: StageShape, number: int, final: bool, stages: int) -> str:
        """The round's name in results.json and the standings."""
        return stage.name

    def problems(self, seats: int, games: int, duplicate: bool) -> list[tuple[str, str]]:
        """Settings this format cannot play, as (key, message)."""
        if duplicate and games % seats:
            return [("games", f"{games} games is not a multiple of seats ({seats}), which duplicate: true needs "
                              "(each deal is replayed once per seat); try "
                              f"{max(seats, games // seats * seats)} or {(games // seats + 1) * seats}")]
        return []

    def describe(self, stage: StageShape, entrants: int) -> str:
        """How the stage's games grow with its entrants, for the message that refuses too many."""
        return f"{self.name} of {entrants:,} bots"

    def settings(self, stage: StageShape) -> FormatSettingsJson:
        """The settings only this format has, as results.json and arena.json show them."""
        return {}

    def _per_table(self, stage: StageShape, tables: Sequence[Lineup], games: int | None = None) -> RoundPlan:
        count = stage.games if games is None else games
        return RoundPlan(tuple(tables), tuple(table_games(len(t), count, stage.duplicate, stage.seats)
                                              for t in tables))


def _file_order(entry: Entry, stage: StageShape) -> list[str]:
    """The entrants (the top ``entrants`` in a later stage) in file order: tables must not depend on the ranking."""
    chosen = entry.ranked if entry.index == 0 or stage.entrants is None else entry.ranked[:stage.entrants]
    return sorted(chosen, key=list(entry.names).index)


@dataclass(frozen=True)
class RoundRobin(Format):
    """Every table of ``seats`` bots from the entrants, each playing ``games`` games."""

    name = "round_robin"
    lazy = True

    def count(self, stage: StageShape, index: int, pool_size: int, names: Collection[str]) -> int:
        m, k = self.entrants(stage, index, pool_size), stage.seats
        return math.comb(m, k) * table_games(k, stage.games, stage.duplicate, k)

    def held(self, stage: StageShape, index: int, pool_size: int, names: Collection[str]) -> int:
        return math.comb(self.entrants(stage, index, pool_size), stage.seats)

    def first(self, stage: StageShape, entry: Entry) -> RoundPlan:
        return self._per_table(stage, round_robin(_file_order(entry, stage), stage.seats))

    def describe(self, stage: StageShape, entrants: int) -> str:
        return (f"a round robin of {entrants:,} bots: every table of {stage.seats} plays "
                f"{table_games(stage.seats, stage.games, stage.duplicate, stage.seats)} games")


@dataclass(frozen=True)
class Gauntlet(Format):
    """Each challenger against every group of ``seats - 1`` bots from the field (the other bots)."""

    name = "gauntlet"
    lazy = True
    challengers: tuple[str, ...] = ()

    def settings(self, stage: StageShape) -> FormatSettingsJson:
        return {"challengers": list(self.challengers)}

    def entrants(self, stage: StageShape, index: int, pool_size: int) -> int:
        return pool_size  # the challengers always play; ``entrants`` limits the field

    def count(self, stage: StageShape, index: int, pool_size: int, names: Collection[str]) -> int:
        return self.held(stage, index, pool_size, names) * table_games(stage.seats, stage.games, stage.duplicate,
                                                                       stage.seats)

    def held(self, stage: StageShape, index: int, pool_size: int, names: Collection[str]) -> int:
        c = sum(1 for x in self.challengers if x in names)
        field = min(stage.entrants or pool_size - c, pool_size - c)
        return c * math.comb(field, stage.seats - 1)

    def first(self, stage: StageShape, entry: Entry) -> RoundPlan:
        challengers = [c for c in self.challengers if c in entry.names]
        field = [n for n in entry.ranked if n not in challengers]
        if entry.index > 0 and stage.entrants is not None:
            field = field[:stage.entrants]
        field.sort(key=list(entry.names).index)
        return self._per_table(stage, gauntlet(challengers, field, stage.seats))

    def describe(self, stage: StageShape, entrants: int) -> str:
        return (f"a gauntlet of {len(self.challengers)} challenger(s) against every group of {stage.seats - 1} "
                f"from a field of up to {entrants:,} bots")


@dataclass(frozen=True)
class Sampled(Format):
    """Random tables in which every bot plays about ``games`` games (with duplicate: whole deals)."""

    name = "sampled"

    def count(self, stage: StageShape, index: int, pool_size: int, names: Collection[str]) -> int:
        m, k = self.entrants(stage, index, pool_size), stage.seats
        if stage.duplicate:
            return sampled_deals(m, k, stage.games) * k
        return sampled_table_count(m, k, stage.games)

    def first(self, stage: StageShape, entry: Entry) -> RoundPlan:
        entrants = _file_order(entry, stage)
        rng = random.Random(game_seed(entry.seed, entry.index, "sampled"))
        if stage.duplicate:
            tables = sampled(entrants, stage.seats, sampled_deals(len(entrants), stage.seats, stage.games), rng)
            return self._per_table(stage, tables, stage.seats)
        tables = sampled(entrants, stage.seats, sampled_table_count(len(entrants), stage.seats, stage.games), rng)
        return RoundPlan(tuple(tables), (1,) * len(tables))

    def problems(self, seats: int, games: int, duplicate: bool) -> list[tuple[str, str]]:
        return []  # games is per bot here: any number makes whole deals

    def describe(self, stage: StageShape, entrants: int) -> str:
        return f"{entrants:,} bots playing {stage.games:,} games each"


@dataclass(frozen=True)
class Knockout(Format):
    """Rounds of tables (snake-seeded); the top ``advance`` at each go on, until one table, the final, is left.
    The final plays ``final_games`` (``None``: the stage's ``games``)."""

    name = "knockout"
    knockout = True
    advance: int = 1
    final_games: int | None = None

    def settings(self, stage: StageShape) -> FormatSettingsJson:
        return {"advance": self.advance, "final_games": self.final_count(stage)}

    def final_count(self, stage: StageShape) -> int:
        return self.final_games or stage.games

    def count(self, stage: StageShape, index: int, pool_size: int, names: Collection[str]) -> int:
        rounds = knockout_sizes(self.entrants(stage, index, pool_size), stage.seats, self.advance)
        total = 0
        for r, sizes in enumerate(rounds):
            games = self.final_count(stage) if r == len(rounds) - 1 else stage.games
            total += sum(table_games(s, games, stage.duplicate, stage.seats) for s in sizes)
        return total

    def at_once(self, stage: StageShape, index: int, pool_size: int, names: Collection[str]) -> int:
        rounds = knockout_sizes(self.entrants(stage, index, pool_size), stage.seats, self.advance)
        return max((sum(table_games(s, self.final_count(stage) if r == len(rounds) - 1 else stage.games,
                                    stage.duplicate, stage.seats) for s in sizes)
                    for r, sizes in enumerate(rounds)), default=0)

    def first(self, stage: StageShape, entry: Entry) -> RoundPlan:
        if entry.index == 0:  # no standings yet: a seeded draw
            entrants = list(entry.names)
            random.Random(game_seed(entry.seed, entry.index, "draw")).shuffle(entrants)
        else:
            entrants = list(entry.ranked if stage.entrants is None else entry.ranked[:stage.entrants])
        return self.round(stage, entrants)

    def round(self, stage: StageShape, entrants: Sequence[str]) -> RoundPlan:
        """A round for ``entrants``, strongest first."""
        tables = knockout_tables(entrants, stage.seats)
        final = len(tables) == 1
        plan = self._per_table(stage, tables, self.final_count(stage) if final else stage.games)
        return RoundPlan(plan.tables, plan.games, final)

    def after(self, stage: StageShape, tables: Sequence[Lineup], played: Sequence[Sequence[str]],
              results: Callable[[int], list[GameLine]], rank: Callable[[], Mapping[str, int]],
              final: bool) -> RoundOutcome:
        """Places at each table by average place (ties: wins, points, the ranking); a bye goes through."""
        order = rank()
        places: dict[str, int] = {}
        through: list[tuple[int, float | None, int, str]] = []  # a bot of a table played: its average is a float
        for t, table in enumerate(tables):
            if len(table) == 1:
                places[table[0]] = 1
                through.append((1, 0.0, order.get(table[0], 0), table[0]))
                continue
            rows = Tally(table).extend(line.result for line in results(t)).rows()
            rows.sort(key=lambda r: (r.avg_place, -r.wins, -r.points, order.get(r.bot, 0)))
            go = advancing(len(table), self.advance) if not final else 0
            for place, row in enumerate(rows, 1):
                places[row.bot] = place
                if place <= go:
                    through.append((place, row.avg_place, order.get(row.bot, 0), row.bot))
        through.sort()
        advanced = () if final else tuple(b for *_, b in through)
        return RoundOutcome(places, advanced, None if final else self.round(stage, advanced))

    def label(self, stage: StageShape, number: int, final: bool, stages: int) -> str:
        label = "final" if final else f"round {number}"
        return f"{stage.name} {label}" if stages > 1 else label

    def problems(self, seats: int, games: int, duplicate: bool) -> list[tuple[str, str]]:
        out = super().problems(seats, games, duplicate)
        if duplicate and self.final_games and self.final_games % seats:
            out.append(("final_games", f"{self.final_games} games is not a multiple of seats ({seats}), which "
                                       "duplicate: true needs (each deal is replayed once per seat)"))
        if self.advance >= seats:
            out.append(("advance", f"{self.advance} places advance from a table of {seats}: at most {seats - 1} "
                                   "may, or nobody is knocked out"))
        return out


def sampled_deals(pool: int, seats: int, games_per_bot: int) -> int:
    """Deals a duplicate sampled stage needs for every bot to play ``games_per_bot`` games (each deal ``seats``
    games)."""
    return math.ceil(pool * games_per_bot / (seats * seats))


#: Every format's class by the name an arena file gives it, in the order the docs list them.
FORMATS: dict[str, type[Format]] = {f.name: f for f in (RoundRobin, Gauntlet, Sampled, Knockout)}


__all__ = ["Entry", "FORMATS", "Format", "Gauntlet", "Knockout", "Lineup", "RoundOutcome", "RoundPlan",
           "RoundRobin", "SAMPLE_WINDOW", "Sampled", "advancing", "gauntlet", "knockout_sizes",
           "knockout_tables", "rotations", "round_robin", "sampled", "sampled_deals", "sampled_table_count", "seating",
           "seatings", "table_games"]
