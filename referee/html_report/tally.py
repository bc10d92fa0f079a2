"""What the page counts over games.jsonl, a line at a time: each stage's rounds and who played them, and
each bot's faults."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from referee.protocol.faults import FaultJson
from referee.store.ranking_shapes import RoundJson
from referee.store.results import GameLineJson
from referee.store.results_shapes import ResultsJson

#: Faults shown in full (request, answer, replay command) per bot; the rest are counted.
FAULT_DETAILS = 20


class RoundCounts:
    """Games and players of each (stage, round) in games.jsonl, counted a line at a time."""

    def __init__(self) -> None:
        self.games: dict[tuple[str, int], int] = defaultdict(int)
        self.players: dict[tuple[str, int], dict[str, None]] = defaultdict(dict)

    def add(self, line: GameLineJson) -> None:
        if line.get("stage") is not None:
            key = (str(line["stage"]), int(line.get("round") or 1))
            self.games[key] += 1
            for n in line.get("seating") or []:
                self.players[key].setdefault(n, None)


class Faulted:
    """The faults of games.jsonl by bot: the first ``FAULT_DETAILS`` with their games, and a count by kind."""

    def __init__(self) -> None:
        self.shown: dict[str, list[tuple[GameLineJson, FaultJson]]] = defaultdict(list)
        self.kinds: dict[str, Counter[str]] = defaultdict(Counter)

    def add(self, line: GameLineJson) -> None:
        for fault in line.get("faults") or []:
            bot = fault.get("bot") or (line["seating"][fault["seat"]] if isinstance(fault.get("seat"), int) else "?")
            self.kinds[bot][fault["kind"]] += 1
            if len(self.shown[bot]) < FAULT_DETAILS:
                self.shown[bot].append((line, fault))


@dataclass(frozen=True, slots=True)
class RoundRow:
    """One round of a stage as the page lists it: what results.json says of it, and who played its games."""

    stage: str
    number: int
    label: str
    tables: int | None
    games: int
    """Games of this round in games.jsonl (fewer than planned while an arena is interrupted)."""
    players: tuple[str, ...]
    advanced: tuple[str, ...] | None
    """Who went through to the next round (a knockout's); ``()`` after a final; None where the format says nothing."""


@dataclass(frozen=True, slots=True)
class StageRow:
    """One stage of an arena: its settings and its rounds."""

    name: str
    format: str
    ruleset: str
    rounds: tuple[RoundRow, ...]

    @property
    def players(self) -> tuple[str, ...]:
        """Everyone who played a game of this stage, in order of first appearance."""
        return tuple(dict.fromkeys(n for r in self.rounds for n in r.players))


def stage_rounds(results: ResultsJson | None, played: RoundCounts | Iterable[GameLineJson]) -> list[StageRow]:
    """Each stage and its rounds: results.json's ``stages[i].rounds``, with the rounds games.jsonl adds to them
    (none for a ladder: its batches are not rounds anyone plays through)."""
    if results and "ladder" in results:
        return []
    if not isinstance(played, RoundCounts):
        counts = RoundCounts()
        for line in played:
            counts.add(line)
        played = counts
    declared = {str(st.get("name", "")): st for st in (results.get("stages") if results else None) or []}
    names = list(dict.fromkeys([*declared, *(stage for stage, _ in played.games)]))
    rows = []
    for name in names:
        st = declared.get(name)
        rows.append(StageRow(name, str(st.get("format", "")) if st else "", str(st.get("ruleset", "")) if st else "",
                             _round_rows(name, (st.get("rounds") if st else None) or [], played)))
    return rows


def _round_rows(stage: str, declared: Sequence[RoundJson], played: RoundCounts) -> tuple[RoundRow, ...]:
    info = {int(r["round"]): r for r in declared}
    numbers = sorted(set(info) | {n for name, n in played.games if name == stage})
    rows = []
    for number in numbers:
        r = info.get(number)
        label = (r.get("label") if r else None) or (stage if len(numbers) == 1 else f"{stage} round {number}")
        rows.append(RoundRow(stage, number, str(label), r.get("tables") if r else None,
                             played.games.get((stage, number), 0), tuple(played.players.get((stage, number), {})),
                             tuple(r["advanced"]) if r and "advanced" in r else None))
    return tuple(rows)


def has_breakdown(stages: Sequence[StageRow]) -> bool:
    """A breakdown says something only with more than one stage or round."""
    return len(stages) > 1 or any(len(s.rounds) > 1 for s in stages)


def stage_filter(stages: Sequence[StageRow]) -> list[list[Any]]:
    """The games list's stage filter: ``[stage, games, [[round, label, games], ...]]`` (rounds only where several)."""
    return [[s.name, sum(r.games for r in s.rounds),
             [[r.number, r.label, r.games] for r in s.rounds] if len(s.rounds) > 1 else []] for s in stages]
