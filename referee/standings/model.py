"""The standings model: each bot's record from game results, and the typed rows every surface renders.

``Tally`` folds games in one at a time (it keeps a few counters a bot, not the games); ``rows`` turns
it into ``StandingRow`` values in rank order; ``Standings`` adds what a reader needs beside the rows
(the bots left out and why, the rule of the order, the per-stage breakdown). The terminal, the
Markdown and CSV files, results.json, report.html, the per-bot reports and the ladder all render a
``Standings`` (see ``standings_render``); none of them computes a number of its own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Hashable, Iterable, Mapping, Protocol, Sequence

from referee.store.ranking_shapes import BotTimesJson, LeftOutJson, RoundJson, StageRecordJson, StandingRowJson

if TYPE_CHECKING:
    from referee.engine.rules import Ruleset

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (``successes`` may count draws as halves)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / denom
    return (max(0.0, center - half), min(1.0, center + half))


class RatingLike(Protocol):
    """A rating with its interval (``referee.standings.ratings.Rating``), read only."""

    @property
    def rating(self) -> float: ...

    @property
    def low(self) -> float | None: ...

    @property
    def high(self) -> float | None: ...


class Played(Protocol):
    """What the tally reads of a game (a ``GameResult``), read only."""

    @property
    def seating(self) -> tuple[str, ...]: ...

    @property
    def placements(self) -> tuple[int, ...]: ...

    @property
    def scores(self) -> tuple[int, ...]: ...

    @property
    def forfeited(self) -> tuple[int, ...]: ...

    @property
    def faults(self) -> Sequence[Any]: ...

    @property
    def times(self) -> Any: ...


class _Counts:
    __slots__ = ("games", "wins", "draws", "place_sum", "points", "faults", "decisions", "total_ms", "max_ms",
                 "cpu_decisions", "cpu_total_ms", "cpu_max_ms")

    def __init__(self) -> None:
        self.games = self.wins = self.draws = self.place_sum = self.points = self.decisions = 0
        self.total_ms = self.max_ms = 0.0
        self.cpu_decisions = 0
        self.cpu_total_ms = self.cpu_max_ms = 0.0
        self.faults: dict[str, int] = {}


class Tally:
    """Each bot's record so far; ``add`` one game at a time (memory does not grow with the games)."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        self._counts: dict[str, _Counts] = {}
        for name in names:
            self._counts[name] = _Counts()

    def add(self, result: Played) -> None:
        """Count one game."""
        places = result.placements
        firsts = places.count(1)
        scores = result.scores
        forfeited = result.forfeited
        times = result.times
        counts = self._counts
        for seat, name in enumerate(result.seating):
            c = counts.get(name)
            if c is None:
                c = counts[name] = _Counts()
            c.games += 1
            place = places[seat]
            c.place_sum += place
            # A forfeited seat's score is its stand-in's (the first legal action played it): not the bot's.
            c.points += scores[seat] if scores and seat not in forfeited else 0
            if place == 1:
                if firsts == 1:
                    c.wins += 1
                else:
                    c.draws += 1
            if times is not None:
                c.decisions += times.decisions[seat]
                c.total_ms += times.total[seat]
                if times.max[seat] > c.max_ms:
                    c.max_ms = times.max[seat]
                if times.cpu_decisions:
                    c.cpu_decisions += times.cpu_decisions[seat]
                    c.cpu_total_ms += times.cpu_total[seat]
                    if times.cpu_max[seat] > c.cpu_max_ms:
                        c.cpu_max_ms = times.cpu_max[seat]
        for fault in result.faults:
            name = fault.bot if fault.bot is not None else result.seating[fault.seat]
            c = counts.setdefault(name, _Counts())
            kind = fault.kind.value
            c.faults[kind] = c.faults.get(kind, 0) + 1

    def played(self) -> Tally:
        """A copy of the bots that were counted in a game (named at the start and never seen: left out), as a
        tally made empty and given the same games would hold them."""
        out = Tally()
        for name, c in self._counts.items():
            if c.games or c.faults:
                copy = out._counts[name] = _Counts()
                for attr in _Counts.__slots__:
                    setattr(copy, attr, getattr(c, attr))
                copy.faults = dict(c.faults)
        return out

    def extend(self, results: Iterable[Played]) -> Tally:
        for r in results:
            self.add(r)
        return self

    @property
    def names(self) -> list[str]:
        """Every bot counted (or named at the start), in the order first seen."""
        return list(self._counts)

    def rows(self, *, ratings: Mapping[str, RatingLike] | None = None, order: Sequence[str] | None = None
             ) -> list[StandingRow]:
        """One row per bot, in rank order: ``order`` if given, else by average place, then wins, then points,
        then name. Rank ranges are each row's own rank until ``with_rank_ranges``."""
        out = []
        for name, c in self._counts.items():
            n = c.games
            score = c.wins + c.draws / 2
            low, high = wilson_interval(score, n)
            rating = (ratings or {}).get(name)
            out.append(StandingRow(
                rank=0, bot=name, games=n, wins=c.wins, draws=c.draws,
                avg_place=round(c.place_sum / n, 4) if n else None, points=c.points,
                rating=rating.rating if rating else None, rating_low=rating.low if rating else None,
                rating_high=rating.high if rating else None,
                win_rate=round(score / n, 4) if n else None, win_low=round(low, 4) if n else None,
                win_high=round(high, 4) if n else None, faults=tuple(sorted(c.faults.items())),
                avg_ms=round(c.total_ms / c.decisions, 3) if c.decisions else None,
                max_ms=round(c.max_ms, 3) if c.decisions else None,
                cpu_avg_ms=round(c.cpu_total_ms / c.cpu_decisions, 3) if c.cpu_decisions else None,
                cpu_max_ms=round(c.cpu_max_ms, 3) if c.cpu_decisions else None))
        if order is not None:
            position = {name: i for i, name in enumerate(order)}
            out.sort(key=lambda r: (position.get(r.bot, len(position)), r.bot))
        else:
            out.sort(key=lambda r: (r.avg_place if r.avg_place is not None else 99, -r.wins, -r.points, r.bot))
        return [replace(r, rank=i, rank_best=i, rank_worst=i) for i, r in enumerate(out, 1)]


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One bot's line of the standings: its rank (a range where the games do not separate it from others),
    record, rating interval, faults, answer times, and the knockout round it reached."""

    rank: int
    bot: str
    games: int
    wins: int
    """Sole first places."""
    draws: int
    """Shared first places."""
    avg_place: float | None
    points: int
    """The final match score of each game, summed over the games (0 for rulesets of single rounds and for a
    forfeited game, whose seat a stand-in played)."""
    rating: float | None = None
    rating_low: float | None = None
    """``None`` beside a rating: no lower bound (the bot was never ahead of anyone)."""
    rating_high: float | None = None
    win_rate: float | None = None
    """Wins plus half the draws, a share of the games; with its 95% Wilson interval."""
    win_low: float | None = None
    win_high: float | None = None
    faults: tuple[tuple[str, int], ...] = ()
    avg_ms: float | None = None
    """The wall time of its answers, on average and at most (ms)."""
    max_ms: float | None = None
    cpu_avg_ms: float | None = None
    """The CPU time of its answers, on average and at most (ms; ``None`` where it could not be read)."""
    cpu_max_ms: float | None = None
    rank_best: int = 0
    rank_worst: int = 0
    reached: str | None = None
    """The furthest round reached, where not every bot played the last round (a knockout)."""

    @property
    def rank_text(self) -> str:
        """``3``, or ``2-5`` when the rating intervals leave the bot anywhere from 2nd to 5th."""
        best, worst = self.rank_best or self.rank, self.rank_worst or self.rank
        return str(self.rank) if best == worst else f"{best}-{worst}"

    @property
    def fault_counts(self) -> dict[str, int]:
        return dict(self.faults)

    @property
    def fault_total(self) -> int:
        return sum(n for _, n in self.faults)

    def to_json(self, *, timing: bool = False) -> StandingRowJson:
        """results.json's row (durations only with ``timing``: they vary from run to run; the rank range is in
        results.json's ``order`` block)."""
        out: StandingRowJson = {
            "rank": self.rank, "bot": self.bot, "games": self.games, "wins": self.wins, "draws": self.draws,
            "avg_place": self.avg_place, "points": self.points, "rating": self.rating,
            "rating_low": self.rating_low, "rating_high": self.rating_high, "win_rate": self.win_rate,
            "win_low": self.win_low, "win_high": self.win_high, "faults": dict(self.faults)}
        if timing:
            out["avg_ms"], out["max_ms"] = self.avg_ms, self.max_ms
            if self.cpu_avg_ms is not None:
                out["cpu_avg_ms"], out["cpu_max_ms"] = self.cpu_avg_ms, self.cpu_max_ms
        if self.reached is not None:
            out["reached"] = self.reached
        return out

    @classmethod
    def from_json(cls, data: StandingRowJson, rank_range: Sequence[int] | None = None,
                  times: BotTimesJson | None = None) -> StandingRow:
        """A row of results.json, with its range from ``order.rank_ranges`` and times from timing.json."""
        rank = int(data["rank"])
        best, worst = (rank_range or (data.get("rank_best", rank), data.get("rank_worst", rank)))
        times = times or {}
        return cls(rank=rank, bot=str(data["bot"]), games=int(data["games"]), wins=int(data["wins"]),
                   draws=int(data.get("draws", 0)), avg_place=data.get("avg_place"), points=int(data.get("points", 0)),
                   rating=data.get("rating"), rating_low=data.get("rating_low"), rating_high=data.get("rating_high"),
                   win_rate=data.get("win_rate"), win_low=data.get("win_low"), win_high=data.get("win_high"),
                   faults=tuple(sorted((data.get("faults") or {}).items())),
                   avg_ms=data.get("avg_ms", times.get("avg_ms")), max_ms=data.get("max_ms", times.get("max_ms")),
                   cpu_avg_ms=data.get("cpu_avg_ms", times.get("cpu_avg_ms")),
                   cpu_max_ms=data.get("cpu_max_ms", times.get("cpu_max_ms")),
                   rank_best=int(best), rank_worst=int(worst), reached=data.get("reached"))


@dataclass(frozen=True, slots=True)
class LeftOutEntry:
    """An entrant that played no game, and why (deterministic text)."""

    bot: str
    reason: str

    def to_json(self) -> LeftOutJson:
        return {"bot": self.bot, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class StageRecord:
    """A bot's record in one stage."""

    bot: str
    games: int
    wins: int
    draws: int
    avg_place: float | None

    def to_json(self) -> StageRecordJson:
        return {"bot": self.bot, "games": self.games, "wins": self.wins, "draws": self.draws,
                "avg_place": self.avg_place}


@dataclass(frozen=True, slots=True)
class StageSummary:
    """One stage of a run: how it was played, its rounds (who advanced), and each bot's record in it."""

    name: str
    format: str
    ruleset: str
    seats: int
    games: int
    """Games played in the stage."""
    rounds: tuple[RoundJson, ...] = ()
    records: tuple[StageRecord, ...] = ()


@dataclass(frozen=True)
class Standings:
    """Everything a surface shows of a run's ranking: the rows, the bots left out, and how the order was made."""

    rows: tuple[StandingRow, ...]
    left_out: tuple[LeftOutEntry, ...] = ()
    rule: str = ""
    """The rule of the order, in words (``by the rating ..., then ...``)."""
    complete: bool = True
    stages: tuple[StageSummary, ...] = field(default=())
    rulesets: tuple[Ruleset, ...] = field(default=())
    """The ``Ruleset`` of each stage (for the column notes: which rulesets score)."""

    @property
    def bots(self) -> list[str]:
        return [r.bot for r in self.rows]

    @property
    def rated(self) -> bool:
        return any(r.rating is not None for r in self.rows)

    @property
    def scored(self) -> bool:
        """True when the points column says something (a ruleset that scores; arcade's single rounds do not)."""
        return any(r.points for r in self.rows)

    @property
    def knockout(self) -> bool:
        """True when some bot did not reach the last round (then the "reached" column is shown)."""
        return any(r.reached is not None for r in self.rows)

    @property
    def timed(self) -> bool:
        return any(r.avg_ms is not None for r in self.rows)

    @property
    def cpu_timed(self) -> bool:
        """True when some bot's CPU time per answer is known (then its columns are shown beside the wall's)."""
        return any(r.cpu_avg_ms is not None for r in self.rows)

    def row(self, bot: str) -> StandingRow | None:
        return next((r for r in self.rows if r.bot == bot), None)

    def rank_ranges(self) -> dict[str, list[int]]:
        return {r.bot: [r.rank_best or r.rank, r.rank_worst or r.rank] for r in self.rows}


def rank_ranges(rows: Sequence[StandingRow], groups: Mapping[str, Hashable] | None = None) -> list[tuple[int, int]]:
    """For rows in final order: the best and worst rank each bot could hold, given the rating intervals.

    Another bot is surely above this one when it is in a better group (``groups``: bot -> the key
    that decided the order before the rating, e.g. the knockout round reached and the place at that
    table; a smaller position in ``rows`` is better) or, in the same group, when its interval lies
    wholly above this one's; surely below likewise. The rest overlap: the games do not separate
    them, so they share the range. Without intervals (no bootstrap) each bot keeps its own rank.
    """
    n = len(rows)
    key = [(groups or {}).get(r.bot) for r in rows]
    group_pos: dict[Any, int] = {}
    for k in key:
        group_pos.setdefault(_hashable(k), len(group_pos))
    pos = [group_pos[_hashable(k)] for k in key]
    bounds = [_interval(r) for r in rows]
    out = []
    for i in range(n):
        mine = bounds[i]
        if mine is None:
            out.append((i + 1, i + 1))
            continue
        above = below = 0
        for j in range(n):
            other = bounds[j]
            if j == i:
                continue
            if other is None:  # no interval for the other: the order says where it stands
                above += j < i
                below += j > i
            elif pos[j] != pos[i]:
                above += pos[j] < pos[i]
                below += pos[j] > pos[i]
            elif other[0] > mine[1]:
                above += 1
            elif other[1] < mine[0]:
                below += 1
        out.append((min(above + 1, i + 1), max(n - below, i + 1)))  # never a range without the rank itself
    return out


def with_rank_ranges(rows: Sequence[StandingRow], groups: Mapping[str, Hashable] | None = None) -> list[StandingRow]:
    """``rows`` with ``rank_best`` and ``rank_worst`` set (see ``rank_ranges``)."""
    return [replace(row, rank_best=best, rank_worst=worst)
            for row, (best, worst) in zip(rows, rank_ranges(rows, groups))]


def _interval(row: StandingRow) -> tuple[float, float] | None:
    """The row's rating interval (a missing bound next to a present one is unbounded), or None without one."""
    low, high = row.rating_low, row.rating_high
    if row.rating is None or (low is None and high is None):
        return None
    return (-math.inf if low is None else float(low), math.inf if high is None else float(high))


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def rank_order(rows: Sequence[StandingRow], rank_by: str = "rating") -> list[str]:
    """Bot names, best first: by rating (then average place) or by average place (then rating)."""

    def key(row: StandingRow) -> tuple[Any, ...]:
        r = -row.rating if row.rating is not None else math.inf
        place = row.avg_place if row.avg_place is not None else math.inf
        tail = (-row.wins, -row.points, row.bot)
        return (r, place) + tail if rank_by == "rating" else (place, r) + tail

    return [row.bot for row in sorted(rows, key=key)]
