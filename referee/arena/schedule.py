"""An arena's schedule: stages, their rounds, and every game as plain data (id, seed, seating).

A stage that is not a knockout is one round; a knockout stage is rounds of tables until one table,
the final, is left. A round's games can run in any order and on any executor; the next round is
planned from the finished games only, so the same games give the same schedule however they ran.

Game ``g000017`` is the 17th game planned; its seed comes from the arena seed and its deal number
(``game_seed``), and the replays of a duplicate deal share the deal and so the seed.

A round whose tables all play the same number of games (every round robin and gauntlet, a match of
any length) is not held: its games are a formula of the round's index (``LazyGames``), so a match of
two million games starts at once. Other rounds are listed whole, with the same games either way.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Callable, Iterator, Mapping, Sequence, overload

from referee.arena.formats import Entry, Lineup, RoundPlan, rotations, seating
from referee.arena.model import Arena, Stage
from referee.bots.spec import BotSpec
from referee.run.jobs import GameJob
from referee.run.seeds import game_seed
from referee.store.ranking_shapes import RoundJson
from referee.store.results import GameLine, Slot

#: ``order(games, names)``: the names ranked best first on the games so far.
Order = Callable[[Sequence[GameLine], Sequence[str]], list[str]]


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

    @property
    def slot(self) -> Slot:
        """Where the game sits in the schedule, as games.jsonl records it."""
        return Slot(self.stage, self.round, self.table, self.deal)


@dataclass(frozen=True)
class Round:
    """A set of tables whose games may run in any order; the next round needs all of them."""

    stage_index: int
    stage: Stage
    number: int
    label: str
    tables: tuple[Lineup, ...]
    games: Sequence[PlannedGame]
    """Every game in plan order: a tuple, or a ``LazyGames`` that computes each when asked."""
    knockout: bool = False
    final: bool = False


def count_games(arena: Arena, pool_size: int) -> int:
    """The number of games the arena plays with ``pool_size`` bots (known before any is played)."""
    return sum(stage_game_counts(arena, pool_size))


def stage_game_counts(arena: Arena, pool_size: int) -> list[int]:
    """The games of each stage with ``pool_size`` bots."""
    names = {b.spec.name for b in arena.bots}
    return [stage.format.count(stage, i, pool_size, names) for i, stage in enumerate(arena.stages)]


def games_at_once(arena: Arena, pool_size: int) -> int:
    """The most games of the arena that can be in play together: the largest round's."""
    names = {b.spec.name for b in arena.bots}
    return max((stage.format.at_once(stage, i, pool_size, names) for i, stage in enumerate(arena.stages)), default=0)


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
        self._seat_counts: dict[str, list[int]] = {}
        #: bot -> (number of the last round it played, its place at its table there if a knockout, else 0)
        self.reached: dict[str, tuple[int, int]] = {}
        self.reached_label: dict[str, str] = {}
        self.stage_rounds: dict[int, list[RoundJson]] = {}

    # ------------------------------------------------------------------ rounds
    def first(self) -> Round | None:
        """The arena's first round."""
        return self._stage(0, []) if self.arena.stages else None

    def next(self, done: Round, games: Sequence[GameLine]) -> Round | None:
        """The round after ``done``, given every game finished so far (``done``'s included)."""
        fmt = done.stage.format

        by_id: dict[str, GameLine] = {}

        def results(table: int) -> list[GameLine]:
            ids = [p.game_id for p in done.games if p.table == table]
            rows = getattr(games, "rows", None)  # a run's collector finds them without a list of every game
            if rows is not None:
                return list(rows(ids))
            if not by_id:  # only a format that reads the results pays for the index
                by_id.update((g.game, g) for g in games)
            return [by_id[i] for i in ids]

        def rank() -> dict[str, int]:
            return {n: i for i, n in enumerate(self.order(games, self.names))}

        # The first game of every table comes first and seats all of it: the names in the order they played.
        firsts = [p.seating for p in itertools.islice(done.games, len(done.tables))]
        outcome = fmt.after(done.stage, done.tables, firsts, results, rank, done.final)
        for name, place in outcome.places.items():
            self.reached[name] = (done.stage_index * 1000 + done.number, place)
            self.reached_label[name] = done.label
        info: RoundJson = {"round": done.number, "label": done.label, "tables": len(done.tables),
                                "games": done.games.total if isinstance(done.games, LazyGames) else len(done.games)}
        if outcome.advanced is not None:
            info["advanced"] = list(outcome.advanced)
        self.stage_rounds.setdefault(done.stage_index, []).append(info)
        if outcome.next is not None:
            return self._round(done.stage_index, done.number + 1, outcome.next)
        if done.stage_index + 1 < len(self.arena.stages):
            return self._stage(done.stage_index + 1, games)
        return None

    def _stage(self, i: int, games: Sequence[GameLine]) -> Round:
        stage = self.arena.stages[i]
        ranked = self.order(games, self.names) if games else list(self.names)
        return self._round(i, 1, stage.format.first(stage, Entry(i, self.names, ranked, self.arena.seed)))

    def _round(self, i: int, number: int, plan: RoundPlan, lazy: bool | None = None) -> Round:
        """The round of ``plan``: lazy (``LazyGames``) when its tables are alike, unless ``lazy`` says."""
        stage = self.arena.stages[i]
        fmt = stage.format
        tables = tuple(plan.tables)
        counts = list(plan.games)
        turns = rotations(tables, counts, self._seat_counts)
        if lazy is None:
            lazy = LazyGames.fits(tables, counts, stage.duplicate)
        games: Sequence[PlannedGame]
        if lazy:
            games = LazyGames(self.arena.seed, stage.name, number, tables, counts[0] if counts else 0, turns,
                              stage.duplicate, self._index, self._deal, self.width)
            self._index += games.total
            self._deal += games.deals
        else:
            games = self._listed(stage, number, tables, counts, turns)
        label = fmt.label(stage, number, plan.final, len(self.arena.stages))
        return Round(i, stage, number, label, tables, games, fmt.knockout, plan.final)

    def _listed(self, stage: Stage, number: int, tables: Sequence[Lineup], counts: Sequence[int],
                turns: Sequence[tuple[int, bool]]) -> tuple[PlannedGame, ...]:
        """Every game of a round whose tables differ, in plan order."""
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
                                           game_seed(self.arena.seed, deal), seating(table, j, *turns[t])))
        return tuple(planned)

    @property
    def last_index(self) -> int:
        """The number of the last game planned so far (games are numbered in plan order from 1)."""
        return self._index

    def is_planned(self, game_id: str) -> bool:
        """Whether ``game_id`` belongs to a round planned so far (games are numbered in plan order)."""
        digits = game_id[1:]
        return game_id[:1] == "g" and digits.isdigit() and 0 < int(digits) <= self._index

    # ------------------------------------------------------------------ results
    def final_order(self, games: Sequence[GameLine]) -> list[str]:
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


def job_for(arena: Arena, planned: PlannedGame, specs: Mapping[str, BotSpec], stage: Stage,
            actions: bool = True) -> GameJob:
    """The executor's job for a planned game: plain data, runnable anywhere (``actions``: see ``GameJob.actions``)."""
    seats = tuple(specs[name] for name in planned.seating)
    # A process bot's game is recorded even without ``records``: kept if it has a fault (its exact bytes).
    process = any(s.builtin is None for s in seats)
    return GameJob(planned.game_id, planned.seed, stage.rules, seats, arena.policy, arena.records or process,
                   faults_only=not arena.records, actions=actions, hide_names=arena.hide_names)


class LazyGames(Sequence[PlannedGame]):
    """The games of a round whose tables all play ``per_table`` games (and, with duplicate deals, are all the
    same size), computed from the index when asked: game ``k`` is game ``k // tables`` of table
    ``k % tables``, exactly as ``Planner._listed`` would list it, and nothing is held."""

    def __init__(self, seed: int, stage: str, number: int, tables: Sequence[Lineup], per_table: int,
                 turns: Sequence[tuple[int, bool]], duplicate: bool, first_index: int, first_deal: int,
                 width: int) -> None:
        self.seed, self.stage, self.number = seed, stage, number
        self.tables, self.per_table, self.turns = tuple(tables), per_table, tuple(turns)
        self.duplicate, self.first_index, self.first_deal, self.width = duplicate, first_index, first_deal, width
        self.size = len(self.tables[0]) if self.tables else 0
        #: The round's games; ``len`` cannot say more than ``sys.maxsize`` (a match of 2**63 games).
        self.total = per_table * len(self.tables)

    @staticmethod
    def fits(tables: Sequence[Lineup], counts: Sequence[int], duplicate: bool) -> bool:
        """Whether a round's games are a formula of the index: the same games at every table (and, with
        duplicate deals, tables of one size, so every table's deals start together)."""
        if not tables or len(set(counts)) != 1:
            return False
        return not duplicate or len({len(t) for t in tables}) == 1

    @property
    def deals(self) -> int:
        """The deals the round uses (a duplicate deal is replayed once per seat)."""
        if not self.duplicate:
            return self.total
        return -(-self.per_table // self.size) * len(self.tables)

    def __len__(self) -> int:
        return self.total

    def game(self, k: int) -> PlannedGame:
        """Game ``k`` of the round (0 first)."""
        j, t = divmod(k, len(self.tables))
        deal = self.first_deal + (j // self.size * len(self.tables) + t if self.duplicate else k)
        index = self.first_index + k + 1
        return PlannedGame(f"g{index:0{self.width}d}", index, self.stage, self.number, t, deal,
                           game_seed(self.seed, deal), seating(self.tables[t], j, *self.turns[t]))

    @overload
    def __getitem__(self, k: int) -> PlannedGame: ...
    @overload
    def __getitem__(self, k: slice) -> Sequence[PlannedGame]: ...

    def __getitem__(self, k: int | slice) -> PlannedGame | Sequence[PlannedGame]:
        if isinstance(k, slice):
            return [self.game(i) for i in range(*k.indices(self.total))]
        n = self.total
        if k < 0:
            k += n
        if not 0 <= k < n:
            raise IndexError(f"game {k} of a round of {n}")
        return self.game(k)

    def __iter__(self) -> Iterator[PlannedGame]:
        return (self.game(k) for k in range(self.total))
