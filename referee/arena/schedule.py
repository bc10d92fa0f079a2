"""An arena's schedule: stages, their rounds, and every game as plain data (id, seed, seating).

A stage that is not a knockout is one round; a knockout stage is rounds of tables until one table,
the final, is left. A round's games can run in any order and on any executor; the next round is
planned from the finished games only, so the same games give the same schedule however they ran.

Game ``g000017`` is the 17th game planned; its seed comes from the arena seed and its deal number
(``game_seed``), and the replays of a duplicate deal share the deal and so the seed.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from ..jobs import GameJob, game_seed
from ..standings import compute_standings
from .config import Arena, Stage
from .formats import (Table, advancing, gauntlet, knockout_sizes, knockout_tables, round_robin, sampled,
                      sampled_table_count, seatings, table_games)

#: ``order(games, names)``: the names ranked best first on the games so far.
Order = Callable[[Sequence[Mapping[str, Any]], Sequence[str]], list[str]]


@dataclass(frozen=True)
class PlannedGame:
    """One game of the schedule, as plain data."""

    game_id: str
    index: int
    stage: str
    round: int
    table: int
    deal: int
    seed: int
    seating: tuple[str, ...]


@dataclass(frozen=True)
class Round:
    """A set of tables whose games may run in any order; the next round needs all of them."""

    stage_index: int
    stage: Stage
    number: int
    label: str
    tables: tuple[Table, ...]
    games: tuple[PlannedGame, ...]
    knockout: bool = False
    final: bool = False

    @property
    def byes(self) -> list[str]:
        """Bots alone at a knockout table: they go through without playing."""
        return [t[0] for t in self.tables if len(t) == 1]


def count_games(arena: Arena, pool_size: int) -> int:
    """The number of games the arena plays with ``pool_size`` bots (known before any is played)."""
    return sum(stage_game_counts(arena, pool_size))


def stage_game_counts(arena: Arena, pool_size: int) -> list[int]:
    """The games of each stage with ``pool_size`` bots."""
    counts = []
    for i, stage in enumerate(arena.stages):
        total = 0
        m = _entrant_count(stage, i, pool_size)
        k, g, dup = stage.seats, stage.games, stage.duplicate
        if stage.format == "round_robin":
            total += math.comb(m, k) * table_games(k, g, dup, k)
        elif stage.format == "gauntlet":
            names = {b.spec.name for b in arena.bots}
            c = sum(1 for x in stage.challengers if x in names)
            field = min(stage.entrants or pool_size - c, pool_size - c)
            total += c * math.comb(field, k - 1) * table_games(k, g, dup, k)
        elif stage.format == "sampled":
            if dup:
                total += _sampled_deals(m, k, g) * k
            else:
                total += sampled_table_count(m, k, g)
        else:
            rounds = knockout_sizes(m, k, stage.advance)
            for r, sizes in enumerate(rounds):
                games = (stage.final_games or g) if r == len(rounds) - 1 else g
                total += sum(table_games(s, games, dup, k) for s in sizes)
        counts.append(total)
    return counts


def _sampled_deals(pool: int, seats: int, games_per_bot: int) -> int:
    return math.ceil(pool * games_per_bot / (seats * seats))


def _entrant_count(stage: Stage, index: int, pool_size: int) -> int:
    if index == 0 or stage.entrants is None or stage.format == "gauntlet":
        return pool_size
    return min(stage.entrants, pool_size)


class Planner:
    """Plans an arena round by round; feed it each finished round's games to get the next."""

    def __init__(self, arena: Arena, names: Sequence[str], order: Order, id_digits: int = 6) -> None:
        self.arena = arena
        self.names = list(names)
        self.order = order
        self.total = count_games(arena, len(self.names))
        self.width = max(id_digits, len(str(self.total)))
        self._index = 0
        self._deal = 0
        self._seq = 0
        self._seat_counts: dict[str, list[int]] = {}
        #: bot -> (number of the last round it played, its place at its table there if a knockout, else 0)
        self.reached: dict[str, tuple[int, int]] = {}
        self.reached_label: dict[str, str] = {}
        self._alive: list[str] = []
        self.stage_rounds: dict[int, list[dict[str, Any]]] = {}

    # ------------------------------------------------------------------ rounds
    def first(self) -> Round | None:
        """The arena's first round."""
        return self._stage(0, []) if self.arena.stages else None

    def next(self, done: Round, games: Sequence[Mapping[str, Any]]) -> Round | None:
        """The round after ``done``, given every game finished so far (``done``'s included)."""
        by_id = {g["game"]: g for g in games}
        played = [by_id[p.game_id] for p in done.games]
        stage = done.stage
        info: dict[str, Any] = {"round": done.number, "label": done.label, "tables": len(done.tables),
                                "games": len(done.games)}
        if done.knockout:
            overall = self.order(games, self.names)
            rank = {n: i for i, n in enumerate(overall)}
            through: list[tuple[int, float, int, str]] = []
            for t, table in enumerate(done.tables):
                if len(table) == 1:
                    self._reach(table[0], done, 1)
                    through.append((1, 0.0, rank.get(table[0], 0), table[0]))
                    continue
                here = [g for g, p in zip(played, done.games) if p.table == t]
                rows = compute_standings(here, list(table))
                rows.sort(key=lambda r: (r["avg_place"], -r["wins"], -r["points"], rank.get(r["bot"], 0)))
                go = advancing(len(table), stage.advance) if not done.final else 0
                for place, row in enumerate(rows, 1):
                    self._reach(row["bot"], done, place)
                    if place <= go:
                        through.append((place, row["avg_place"], rank.get(row["bot"], 0), row["bot"]))
            through.sort()
            info["advanced"] = [] if done.final else [b for *_, b in through]
            self.stage_rounds.setdefault(done.stage_index, []).append(info)
            if not done.final:
                return self._knockout_round(done.stage_index, [b for *_, b in through], done.number + 1)
        else:
            for p in done.games:
                for name in p.seating:
                    self._reach(name, done, 0)
            self.stage_rounds.setdefault(done.stage_index, []).append(info)
        if done.stage_index + 1 < len(self.arena.stages):
            return self._stage(done.stage_index + 1, games)
        return None

    def _reach(self, name: str, done: Round, place: int) -> None:
        self.reached[name] = (self._seq_of(done), place)
        self.reached_label[name] = done.label

    def _seq_of(self, done: Round) -> int:
        return done.stage_index * 1000 + done.number

    def _stage(self, i: int, games: Sequence[Mapping[str, Any]]) -> Round | None:
        stage = self.arena.stages[i]
        ranked = self.order(games, self.names) if games else list(self.names)
        if stage.format == "gauntlet":
            challengers = [c for c in stage.challengers if c in self.names]
            field = [n for n in ranked if n not in challengers]
            if i > 0 and stage.entrants is not None:
                field = field[:stage.entrants]
            field.sort(key=self.names.index)
            return self._round(i, 1, stage.name, gauntlet(challengers, field, stage.seats), stage.games)
        entrants = ranked if i == 0 or stage.entrants is None else ranked[:stage.entrants]
        if stage.format == "knockout":
            if i == 0:  # no standings yet: a seeded draw
                entrants = list(self.names)
                random.Random(game_seed(self.arena.seed, i, "draw")).shuffle(entrants)
            return self._knockout_round(i, entrants, 1)
        entrants = sorted(entrants, key=self.names.index)  # file order: tables do not depend on the ranking
        if stage.format == "round_robin":
            return self._round(i, 1, stage.name, round_robin(entrants, stage.seats), stage.games)
        rng = random.Random(game_seed(self.arena.seed, i, "sampled"))
        if stage.duplicate:
            tables = sampled(entrants, stage.seats, _sampled_deals(len(entrants), stage.seats, stage.games), rng)
            return self._round(i, 1, stage.name, tables, stage.seats)
        tables = sampled(entrants, stage.seats, sampled_table_count(len(entrants), stage.seats, stage.games), rng)
        return self._round(i, 1, stage.name, tables, 1, per_table_given=True)

    def _knockout_round(self, i: int, entrants: list[str], number: int) -> Round:
        stage = self.arena.stages[i]
        tables = knockout_tables(entrants, stage.seats)
        final = len(tables) == 1
        label = "final" if final else f"round {number}"
        if len(self.arena.stages) > 1:
            label = f"{stage.name} {label}"
        games = (stage.final_games or stage.games) if final else stage.games
        return self._round(i, number, label, tables, games, knockout=True, final=final)

    def _round(self, i: int, number: int, label: str, tables: list[Table], games: int, *, knockout: bool = False,
               final: bool = False, per_table_given: bool = False) -> Round:
        stage = self.arena.stages[i]
        if per_table_given:
            counts = [1] * len(tables)
        else:
            counts = [table_games(len(t), games, stage.duplicate, stage.seats) for t in tables]
        orders = seatings(tables, counts, self._seat_counts)
        planned: list[PlannedGame] = []
        deal_ids: dict[tuple[int, int], int] = {}
        for j in range(max(counts, default=0)):  # game j of every table, then game j + 1: a stopped round is even
            for t, table in enumerate(tables):
                if j >= counts[t]:
                    continue
                if stage.duplicate:
                    key = (t, j // len(table))
                    if key not in deal_ids:
                        deal_ids[key] = self._deal
                        self._deal += 1
                    deal = deal_ids[key]
                else:
                    deal = self._deal
                    self._deal += 1
                self._index += 1
                planned.append(PlannedGame(f"g{self._index:0{self.width}d}", self._index, stage.name, number, t, deal,
                                           game_seed(self.arena.seed, deal), orders[t][j]))
        return Round(i, stage, number, label, tuple(tables), tuple(planned), knockout, final)

    # ------------------------------------------------------------------ results
    def final_order(self, games: Sequence[Mapping[str, Any]]) -> list[str]:
        """Bots best first: the furthest round reached, then the place at that round's table (knockout),
        then the standings over every game."""
        overall = self.order(games, self.names)
        rank = {n: i for i, n in enumerate(overall)}
        return sorted(self.names, key=lambda n: (-self.reached.get(n, (-1, 0))[0], self.reached.get(n, (-1, 0))[1],
                                                 rank.get(n, len(rank)), n))

    def all_reached_end(self) -> bool:
        """True when every bot played the last round (then "reached" says nothing)."""
        last = max((v[0] for v in self.reached.values()), default=0)
        return all(self.reached.get(n, (-1, 0))[0] == last for n in self.names)


def job_for(arena: Arena, planned: PlannedGame, specs: Mapping[str, Any], stage: Stage) -> GameJob:
    """The executor's job for a planned game: plain data, runnable anywhere."""
    return GameJob(planned.game_id, planned.seed, stage.ruleset, stage.options,
                   tuple(specs[name] for name in planned.seating), arena.policy, arena.records)
