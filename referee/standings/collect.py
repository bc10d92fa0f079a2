"""The collector of a run: what it keeps in memory as games end, whatever the number of games.

Everything the standings and the reports count is a sum (``Tally``, the head-to-head matrix, the bots'
time, each bot's sandbox levels, clocks and start-up failures), added to as each game ends; the rating fit
and a planner's order need each game's seating and places again, so those go to a ``PlacementLog``
(a few dozen bytes a game). The rest of a game is in games.jsonl on disk, where the report reads it.
"""

from __future__ import annotations

from typing import Iterable, Iterator, Sequence

from referee.protocol.faults import FaultKind
from referee.standings.first_faults import FirstFaults
from referee.standings.model import Tally
from referee.standings.placements import PlacedRow, PlacementLog
from referee.standings.results_doc import HeadToHead
from referee.store.results import GameLine, GameResult


class Collected:
    """The games of a run so far, as sums and placements (``add`` each game once; a repeated id is ignored)."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self.log = PlacementLog(names)
        self.tally = Tally(names)
        self.stage_counts: dict[str | None, int] = {}
        #: Each stage's own tally, once a second stage has been seen: until then the one stage's tally is
        #: ``tally``'s (see ``stage_tallies``), and counting every game twice would be for nothing.
        self._stage_tallies: dict[str | None, Tally] = {}
        self._index = {n: i for i, n in enumerate(self.names)}
        n = len(self.names)
        self._ahead = [[0] * n for _ in range(n)]
        self._meetings = [[0] * n for _ in range(n)]
        self.bot_ms = 0.0
        self.decisions = 0
        self.sandbox: dict[str, set[str]] = {}
        self.clock: dict[str, set[str]] = {}
        self.sat: dict[str, int] = {}
        self.startups: dict[str, tuple[int, str]] = {}
        """Per process bot: its games lost to a start-up fault, and the first such fault's message."""
        self.faults = FirstFaults()
        """Each bot's first fault of each kind (for the terminal: ``first_faults.fault_lines``)."""

    def __len__(self) -> int:
        return len(self.log)

    def __contains__(self, game_id: str) -> bool:
        return game_id in self.log

    def add(self, line: GameLine) -> bool:
        """Count one game; False when a game of that id was counted already (it is not counted twice)."""
        result = line.result
        scores = result.scores
        if scores and result.forfeited:  # a forfeited seat's score is its stand-in's: kept as no points
            scores = tuple(0 if seat in result.forfeited else s for seat, s in enumerate(scores))
        if not self.log.add(result.game, result.seed, result.seating, result.placements, scores, line.slot):
            return False
        self._count_stage(line.slot.stage, result)
        self.tally.add(result)
        index = self._index
        seats = [(index[b], p) for b, p in zip(result.seating, result.placements) if b in index]
        for i, pi in seats:
            met, ahead = self._meetings[i], self._ahead[i]
            for j, pj in seats:
                if i != j:
                    met[j] += 1
                    if pi < pj:
                        ahead[j] += 1
        self.bot_ms += sum(result.times.total)
        self.decisions += sum(result.times.decisions)
        for name, level in zip(result.seating, result.sandbox):
            if level is not None:
                self.sandbox.setdefault(name, set()).add(level)
            self.sat[name] = self.sat.get(name, 0) + 1
        for name, clock in zip(result.seating, result.clock):
            if clock is not None:
                self.clock.setdefault(name, set()).add(clock)
        if result.faults:
            self.faults.add(result.game, result.seating, result.faults)
        for fault in result.faults:
            if fault.kind is FaultKind.STARTUP and fault.bot is not None:
                count, message = self.startups.get(fault.bot, (0, fault.message))
                self.startups[fault.bot] = (count + 1, message)
        return True

    def _count_stage(self, stage: str | None, result: GameResult) -> None:
        """Count a game in its stage (before ``tally`` counts it: a second stage's first game splits them)."""
        counts = self.stage_counts
        if stage not in counts and len(counts) == 1 and not self._stage_tallies:
            (first,) = counts
            self._stage_tallies[first] = self.tally.played()
        counts[stage] = counts.get(stage, 0) + 1
        if self._stage_tallies:
            self._stage_tallies.setdefault(stage, Tally()).add(result)

    @property
    def stage_tallies(self) -> dict[str | None, Tally]:
        """Each stage's tally of its games alone (the bots that played in it)."""
        if self._stage_tallies or not self.stage_counts:
            return self._stage_tallies
        (only,) = self.stage_counts
        return {only: self.tally.played()}

    def extend(self, lines: Iterable[GameLine]) -> Collected:
        for line in lines:
            self.add(line)
        return self

    def __iter__(self) -> Iterator[PlacedRow]:
        """Every game's seating and places, in game-id order."""
        return iter(self.log)

    def head_to_head(self, names: Sequence[str]) -> HeadToHead:
        """The head-to-head matrix of ``names`` (in that order)."""
        pos = [self._index[n] for n in names]
        return HeadToHead(tuple(names), tuple(tuple(self._ahead[i][j] for j in pos) for i in pos),
                          tuple(tuple(self._meetings[i][j] for j in pos) for i in pos))

    def sandbox_levels(self) -> dict[str, list[str]]:
        """Each process bot's sandbox levels as its games actually ran."""
        return {name: sorted(levels) for name, levels in sorted(self.sandbox.items())}

    def clock_levels(self) -> dict[str, list[str]]:
        """Each process bot's clocks as its games actually ran (``cpu``, ``cpu-process``, ``wall``)."""
        return {name: sorted(clocks) for name, clocks in sorted(self.clock.items())}
