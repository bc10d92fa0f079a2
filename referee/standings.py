"""Standings from game results (plain data in, plain data out), shared by ``match`` and ``arena``."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Any, Iterable, Mapping, Sequence

#: Row keys that are durations: they vary from run to run, so results.json leaves them out.
TIMING_KEYS = ("avg_ms", "max_ms")
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


def format_table(standings: list[dict[str, Any]]) -> str:
    """A plain-text standings table for the terminal (rating columns only when there are ratings)."""
    with_rating = any(r.get("rating") is not None for r in standings)
    extra = "reached" if any("reached" in r for r in standings) else None
    headers = ["rank", "bot", "games", "wins", "draws", "avg place", "points"]
    if with_rating:
        headers.append("rating [95%]")
    headers += ["win% [95%]", "faults", "avg ms", "max ms"] + ([extra] if extra else [])
    left = {"bot", "faults", "rating [95%]", "win% [95%]", "reached"}
    lines = []
    for r in standings:
        cells = [str(r["rank"]), r["bot"], str(r["games"]), str(r["wins"]), str(r["draws"]),
                 "-" if r["avg_place"] is None else f"{r['avg_place']:.2f}", str(r["points"])]
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
    """``1623 [1580, 1660]``, or ``-``."""
    if row.get("rating") is None:
        return "-"
    text = f"{row['rating']:.0f}"
    low, high = row.get("rating_low"), row.get("rating_high")
    if low is not None or high is not None:  # a missing bound next to a present one is unbounded
        text += f" [{'-inf' if low is None else f'{low:.0f}'}, {'+inf' if high is None else f'{high:.0f}'}]"
    return text


def format_win_rate(row: Mapping[str, Any]) -> str:
    """``42% [35-50]``, or ``-``."""
    if row.get("win_rate") is None:
        return "-"
    return f"{100 * row['win_rate']:.0f}% [{100 * row['win_low']:.0f}-{100 * row['win_high']:.0f}]"


def format_faults(faults: Mapping[str, int]) -> str:
    """``timeout 2, illegal 1``, or ``-``."""
    return ", ".join(f"{k} {v}" for k, v in faults.items()) or "-"
