"""Standings from game results (plain data in, plain data out), shared by ``match`` and ``arena``."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any, Iterable


def compute_standings(games: Iterable[dict[str, Any]], bots: list[str] | None = None) -> list[dict[str, Any]]:
    """One row per bot, in rank order: by average placement, then wins, then points, then name.

    A win is a sole first place; a draw is a shared first place.
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
        out.append({
            "bot": name, "games": games_played, "wins": r["wins"], "draws": r["draws"],
            "avg_place": round(r["place_sum"] / games_played, 4) if games_played else None,
            "points": r["points"], "faults": dict(sorted(faults[name].items())),
            "avg_ms": round(total_ms / decisions, 3) if decisions else None,
            "max_ms": round(max_ms, 3) if decisions else None,
        })
    out.sort(key=lambda r: (r["avg_place"] if r["avg_place"] is not None else 99, -r["wins"], -r["points"], r["bot"]))
    for i, r in enumerate(out, 1):
        r["rank"] = i
    return [{"rank": r.pop("rank"), **r} for r in out]


def format_table(standings: list[dict[str, Any]]) -> str:
    """A plain-text standings table for the terminal."""
    headers = ["rank", "bot", "games", "wins", "draws", "avg place", "points", "faults", "avg ms", "max ms"]
    lines = []
    for r in standings:
        faults = ", ".join(f"{k} {v}" for k, v in r["faults"].items()) or "-"
        lines.append([str(r["rank"]), r["bot"], str(r["games"]), str(r["wins"]), str(r["draws"]),
                      "-" if r["avg_place"] is None else f"{r['avg_place']:.2f}", str(r["points"]), faults,
                      "-" if r["avg_ms"] is None else f"{r['avg_ms']:.2f}",
                      "-" if r["max_ms"] is None else f"{r['max_ms']:.1f}"])
    widths = [max(len(h), *(len(l[i]) for l in lines)) if lines else len(h) for i, h in enumerate(headers)]
    fmt = "  ".join("{:<%d}" % w if i == 1 or i == 7 else "{:>%d}" % w for i, w in enumerate(widths))
    return "\n".join([fmt.format(*headers), fmt.format(*("-" * w for w in widths))] + [fmt.format(*l) for l in lines])
