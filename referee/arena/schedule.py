"""An arena's schedule: stages, their rounds, and every game as plain data (id, seed, seating).

A stage that is not a knockout is one round; a knockout stage is rounds of tables until one table,
the final, is left. A round's games can run in any order and on any executor; the next round is
planned from the finished games only, so the same games give the same schedule however they ran.

Game ``g000017`` is the 17th game planned; its seed comes from the arena seed and its deal number
(``game_seed``), and the replays of a duplicate deal share the deal and so the seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from ..jobs import GameJob, game_seed
from ..results import GameLine, Slot
from .formats import Entry, RoundPlan, Table, seatings
from .model import Arena, Stage

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
    tables: tuple[Table, ...]
    games: tuple[PlannedGame, ...]
    knockout: bool = False
    final: bool = False


def count_games(arena: Arena, pool_size: int) -> int:
    """The number of games the arena plays with ``pool_size`` bots (known before any is played)."""
    return sum(stage_game_counts(arena, pool_size))


def stage_game_counts(arena: Arena, pool_size: int) -> list[int]:
    """The games of each stage with ``pool_size`` bots."""
    names = {b.spec.name for b in arena.bots}
    return [stage.format.count(stage, i, pool_size, names) for i, stage in enumerate(arena.stages)]


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
        self.stage_rounds: dict[int, list[dict[str, Any]]] = {}

    # ------------------------------------------------------------------ rounds
    def first(self) -> Round | None:
        """The arena's first round."""
        return self._stage(0, []) if self.arena.stages else None

    def next(self, done: Round, games: Sequence[GameLine]) -> Round | None:
        """The round after ``done``, given every game finished so far (``done``'s included)."""
        fmt = done.stage.format

        def results(table: int) -> list[GameLine]:
            ids = [p.game_id for p in done.games if p.table == table]
            rows = getattr(games, "rows", None)  # a run's collector finds them without a list of every game
            if rows is not None:
                return list(rows(ids))
            by_id = {g.game: g for g in games}
            return [by_id[i] for i in ids]

        def rank() -> dict[str, int]:
            return {n: i for i, n in enumerate(self.order(games, self.names))}

        outcome = fmt.after(done.stage, done.tables, [p.seating for p in done.games], results, rank, done.final)
        for name, place in outcome.places.items():
            self.reached[name] = (done.stage_index * 1000 + done.number, place)
            self.reached_label[name] = done.label
        info: dict[str, Any] = {"round": done.number, "label": done.label, "tables": len(done.tables),
                                "games": len(done.games)}
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

    def _round(self, i: int, number: int, plan: RoundPlan) -> Round:
        stage = self.arena.stages[i]
        fmt = stage.format
        tables: list[Table] = list(plan.tables)
        counts = list(plan.games)
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
        label = fmt.label(stage, number, plan.final, len(self.arena.stages))
        return Round(i, stage, number, label, tuple(tables), tuple(planned), fmt.knockout, plan.final)

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


def job_for(arena: Arena, planned: PlannedGame, specs: Mapping[str, Any], stage: Stage) -> GameJob:
    """The executor's job for a planned game: plain data, runnable anywhere."""
    seats = tuple(specs[name] for name in planned.seating)
    # A process bot's game is recorded even without ``records``: kept if it has a fault (its exact bytes).
    process = any(s.builtin is None for s in seats)
    return GameJob(planned.game_id, planned.seed, stage.rules, seats, arena.policy, arena.records or process,
                   faults_only=not arena.records)
