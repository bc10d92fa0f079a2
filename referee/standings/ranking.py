"""From stored games to ``Standings``: the rating fit, the order, rank ranges and the per-stage records.

``standings_for`` is the one place a run's standings are computed; the arena, the ladder and
``compare`` call it, and every surface renders what it returns.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Hashable, Iterable, Mapping, Sequence

from referee.engine.rules import Ruleset
from referee.standings.collect import Collected
from referee.standings.model import (
    LeftOutEntry,
    StageRecord,
    StageSummary,
    StandingRow,
    Standings,
    Tally,
    rank_order,
    with_rank_ranges,
)
from referee.standings.ratings import fit_ratings
from referee.store.ranking_shapes import StageJson
from referee.store.results import GameLine


def summed(lines: Iterable[Any]) -> Collected | None:
    """``lines`` as a run's collector (its sums and placements), when it is one or stands for one."""
    if isinstance(lines, Collected):
        return lines
    whole = getattr(lines, "whole", None)
    return whole() if whole is not None else None


def _tally(lines: Iterable[Any], names: Sequence[str]) -> Tally:
    c = summed(lines)
    return c.tally if c is not None else Tally(names).extend(line.result for line in lines)


def _fit_source(lines: Iterable[Any]) -> Any:
    c = summed(lines)
    return c.log if c is not None else lines


def ordered(lines: Sequence[GameLine], names: Sequence[str], rank_by: str) -> list[str]:
    """The bots best first on ``lines`` by ``rank_by`` (the rating fit, without a bootstrap, only when it
    decides): the order a planner needs between rounds."""
    ratings = fit_ratings(_fit_source(lines), names) if rank_by == "rating" else None
    return rank_order(_tally(lines, names).rows(ratings=ratings), rank_by)


def ranked_rows(lines: Sequence[GameLine], names: Sequence[str], *, bootstrap: int, seed: int, rank_by: str,
                order: Sequence[str] | None = None, groups: Mapping[str, Hashable] | None = None,
                reached: Mapping[str, str] | None = None) -> list[StandingRow]:
    """Every bot's row, with its rating and interval, in ``order`` (else ``rank_by``'s), with rank ranges;
    ``reached`` labels each row with the furthest round it played, ``groups`` keeps bots of different
    rounds from sharing a range."""
    ratings = fit_ratings(_fit_source(lines), names, bootstrap=bootstrap, seed=seed)
    tally = _tally(lines, names)
    if order is None:
        order = rank_order(tally.rows(ratings=ratings), rank_by)
    rows = tally.rows(ratings=ratings, order=order)
    if reached is not None:
        rows = [replace(r, reached=reached.get(r.bot, "")) for r in rows]
    return with_rank_ranges(rows, groups)


def stage_summaries(lines: Iterable[GameLine], stages: Sequence[StageJson]) -> tuple[StageSummary, ...]:
    """Each stage (results.json's entry) with its bots' records in that stage only."""
    c = summed(lines)
    by_stage: dict[str | None, Tally] = {} if c is None else c.stage_tallies
    counts: dict[str | None, int] = {} if c is None else c.stage_counts
    for line in lines if c is None else ():
        by_stage.setdefault(line.stage, Tally()).add(line.result)
        counts[line.stage] = counts.get(line.stage, 0) + 1
    out = []
    for st in stages:
        tally = by_stage.get(st["name"], Tally())
        records = tuple(StageRecord(r.bot, r.games, r.wins, r.draws, r.avg_place) for r in tally.rows())
        out.append(StageSummary(st["name"], st["format"], st["ruleset"], int(st["seats"]), counts.get(st["name"], 0),
                                tuple(st.get("rounds") or ()), records))
    return tuple(out)


def standings_for(lines: Sequence[GameLine], names: Sequence[str], *, bootstrap: int, seed: int, rank_by: str,
                  rule: str, order: Sequence[str] | None = None, groups: Mapping[str, Hashable] | None = None,
                  reached: Mapping[str, str] | None = None, left_out: Iterable[LeftOutEntry] = (),
                  complete: bool = True, stages: Sequence[StageJson] = (),
                  rulesets: Sequence[Ruleset] = ()) -> Standings:
    """A run's ``Standings``: its rows (see ``ranked_rows``), the entrants left out, the rule of the order
    and the per-stage breakdown."""
    rows = ranked_rows(lines, names, bootstrap=bootstrap, seed=seed, rank_by=rank_by, order=order, groups=groups,
                       reached=reached)
    return Standings(tuple(rows), tuple(left_out), rule, complete, stage_summaries(lines, stages), tuple(rulesets))
