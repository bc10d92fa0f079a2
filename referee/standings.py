"""Standings from game results (plain data in, plain data out), shared by ``match`` and ``arena``."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Any, Iterable, Mapping, Sequence

#: Row keys that are durations: they vary from run to run, so results.json leaves them out.
TIMING_KEYS = ("avg_ms", "max_ms")
#: Keys ``with_rank_ranges`` adds (results.json keeps them in its ``order`` block, not in the rows).
RANGE_KEYS = ("rank_best", "rank_worst")
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


def compute_standings(games: Iterable[Mapping[str, Any]], bots: list[str] | None = None, *,
                      ratings: Mapping[str, Any] | None = None,
                      order: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """One row per bot, in rank order: ``order`` if given, else by average placement, then wins, then
    points, then name.

    A win is a sole first place; a draw is a shared first place. The win rate counts a draw as half
    a win, with its 95% Wilson interval. ``ratings`` (bot -> ``Rating``, see ``referee.arena.ratings``)
    fills the rating columns, which are ``None`` without it.
    """
    rows: dict[str, dict[str, Any]] = {}
    faults: dict[str, Counter[str]] = defaultdict(Counter)
    times: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])

    def row(name: str) -> dict[str, Any]:
        if name not in rows:
            rows[name] = {"bot": name, "games": 0, "wins": 0, "draws": 0, "place_sum": 0, "points": 0}
        return rows[name]

    for name in bots or []:
        row(name)
    for g in games:
        places = g["placements"]
        firsts = places.count(1)
        scores = g.get("scores") or [0] * len(places)
        for seat, name in enumerate(g["seating"]):
            r = row(name)
            r["games"] += 1
            r["place_sum"] += places[seat]
            r["points"] += scores[seat]
            if places[seat] == 1:
                r["wins" if firsts == 1 else "draws"] += 1
            t = times[name]
            tm = g.get("time_ms") or {}
            if tm:
                t[0] += tm["decisions"][seat]
                t[1] += tm["total"][seat]
                t[2] = max(t[2], tm["max"][seat])
        for f in g.get("faults", []):
            faults[f.get("bot") or g["seating"][f["seat"]]][f["kind"]] += 1
    out = []
    for name, r in rows.items():
        games_played = r["games"]
        decisions, total_ms, max_ms = times[name]
        rating = (ratings or {}).get(name)
        score = r["wins"] + r["draws"] / 2
        low, high = wilson_interval(score, games_played)
        out.append({
            "bot": name, "games": games_played, "wins": r["wins"], "draws": r["draws"],
            "avg_place": round(r["place_sum"] / games_played, 4) if games_played else None,
            "points": r["points"],
            "rating": rating.rating if rating else None,
            "rating_low": rating.low if rating else None,
            "rating_high": rating.high if rating else None,
            "win_rate": round(score / games_played, 4) if games_played else None,
            "win_low": round(low, 4) if games_played else None,
            "win_high": round(high, 4) if games_played else None,
            "faults": dict(sorted(faults[name].items())),
            "avg_ms": round(total_ms / decisions, 3) if decisions else None,
            "max_ms": round(max_ms, 3) if decisions else None,
        })
    if order is not None:
        position = {name: i for i, name in enumerate(order)}
        out.sort(key=lambda r: (position.get(r["bot"], len(position)), r["bot"]))
    else:
        out.sort(key=lambda r: (r["avg_place"] if r["avg_place"] is not None else 99, -r["wins"], -r["points"],
                                r["bot"]))
    for i, r in enumerate(out, 1):
        r["rank"] = i
    return [{"rank": r.pop("rank"), **r} for r in out]


def rank_ranges(rows: Sequence[Mapping[str, Any]], groups: Mapping[str, Any] | None = None) -> list[tuple[int, int]]:
    """For rows in final order: the best and worst rank each bot could hold, given the rating intervals.

    Another bot is surely above this one when it is in a better group (``groups``: bot -> the key
    that decided the order before the rating, e.g. the knockout round reached and the place at that
    table; a smaller position in ``rows`` is better) or, in the same group, when its interval lies
    wholly above this one's; surely below likewise. The rest overlap: the games do not separate
    them, so they share the range. Without intervals (no bootstrap) each bot keeps its own rank.
    """
    n = len(rows)
    key = [(groups or {}).get(r["bot"]) for r in rows]
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


def _interval(row: Mapping[str, Any]) -> tuple[float, float] | None:
    """The row's rating interval (a missing bound next to a present one is unbounded), or None without one."""
    low, high = row.get("rating_low"), row.get("rating_high")
    if row.get("rating") is None or (low is None and high is None):
        return None
    return (-math.inf if low is None else float(low), math.inf if high is None else float(high))


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def with_rank_ranges(rows: list[dict[str, Any]], groups: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """``rows`` with ``rank_best`` and ``rank_worst`` set (see ``rank_ranges``); the same list."""
    for row, (best, worst) in zip(rows, rank_ranges(rows, groups)):
        row["rank_best"], row["rank_worst"] = best, worst
    return rows


def format_rank(row: Mapping[str, Any]) -> str:
    """``3``, or ``2-5`` when the rating intervals leave the bot anywhere from 2nd to 5th."""
    best, worst = row.get("rank_best"), row.get("rank_worst")
    if best is None or worst is None or best == worst:
        return str(row["rank"])
    return f"{best}-{worst}"


def shows_points(standings: Iterable[Mapping[str, Any]]) -> bool:
    """True when the points column says something (a ruleset that scores; arcade's single rounds do not)."""
    return any(r.get("points") for r in standings)


def format_table(standings: list[dict[str, Any]]) -> str:
    """A plain-text standings table for the terminal (rating columns only when there are ratings, points only
    when someone scored)."""
    with_rating = any(r.get("rating") is not None for r in standings)
    with_points = shows_points(standings)
    extra = "reached" if any("reached" in r for r in standings) else None
    headers = ["rank", "bot", "games", "wins", "draws", "avg place"] + (["points"] if with_points else [])
    if with_rating:
        headers.append("rating [95%]")
    headers += ["win% [95%]", "faults", "avg ms", "max ms"] + ([extra] if extra else [])
    left = {"bot", "faults", "rating [95%]", "win% [95%]", "reached"}
    lines = []
    for r in standings:
        cells = [format_rank(r), r["bot"], str(r["games"]), str(r["wins"]), str(r["draws"]),
                 "-" if r["avg_place"] is None else f"{r['avg_place']:.2f}"]
        if with_points:
            cells.append(str(r["points"]))
        if with_rating:
            cells.append(format_rating(r))
        cells += [format_win_rate(r), format_faults(r["faults"]),
                  "-" if r.get("avg_ms") is None else f"{r['avg_ms']:.2f}",
                  "-" if r.get("max_ms") is None else f"{r['max_ms']:.1f}"]
        if extra:
            cells.append(str(r.get("reached", "")))
        lines.append(cells)
    widths = [max(len(h), *(len(line[i]) for line in lines)) if lines else len(h) for i, h in enumerate(headers)]
    fmt = "  ".join("{:<%d}" % w if h in left else "{:>%d}" % w for h, w in zip(headers, widths))
    return "\n".join([fmt.format(*headers).rstrip(), fmt.format(*("-" * w for w in widths))]
                     + [fmt.format(*line).rstrip() for line in lines])


def format_rating(row: Mapping[str, Any]) -> str:
    """``1623 [1580, 1660]``; ``1936 [>=1850]`` when the games set no upper bound (``<=`` no lower); or ``-``."""
    if row.get("rating") is None:
        return "-"
    text = f"{row['rating']:.0f}"
    low, high = row.get("rating_low"), row.get("rating_high")
    if low is not None and high is not None:
        text += f" [{low:.0f}, {high:.0f}]"
    elif low is not None:  # ahead of every opponent every time: only a lower bound is known
        text += f" [>={low:.0f}]"
    elif high is not None:
        text += f" [<={high:.0f}]"
    return text


def format_win_rate(row: Mapping[str, Any]) -> str:
    """``42% [35-50]``, or ``-``."""
    if row.get("win_rate") is None:
        return "-"
    return f"{100 * row['win_rate']:.0f}% [{100 * row['win_low']:.0f}-{100 * row['win_high']:.0f}]"


def format_faults(faults: Mapping[str, int]) -> str:
    """``timeout 2, illegal 1``, or ``-``."""
    return ", ".join(f"{k} {v}" for k, v in faults.items()) or "-"
