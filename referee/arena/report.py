"""Outputs, shared by ``lastcard arena`` and ``lastcard match --out``: results.json, standings.csv,
standings.md, head_to_head.csv and timing.json.

results.json holds nothing that varies from run to run (no times, no timestamps, no paths of the
output), so the same arena and seed give the same bytes whatever the number of workers; the times
go to timing.json and the tables meant for people.
"""

from __future__ import annotations

import csv
import io
import json
import os
from typing import Any, Iterable, Mapping, Sequence

from ..rules import RulesetError, get_ruleset
from ..standings import (RANGE_KEYS, TIMING_KEYS, compute_standings, format_faults, format_rank, format_rating,
                         format_win_rate, shows_points)
from .ratings import ALPHA, INTERVAL, fit_ratings

RESULTS_FORMAT = "lastcard-results"
RESULTS_VERSION = 2
#: The head-to-head matrix goes into standings.md up to this many bots (head_to_head.csv always has it all,
#: and standings.md says so above the limit).
MD_MATRIX_LIMIT = 24


def standings_with_ratings(games: Sequence[Mapping[str, Any]], names: Sequence[str], *, bootstrap: int, seed: int,
                           order: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Standings rows with Plackett-Luce ratings (and their bootstrap interval)."""
    ratings = fit_ratings(games, names, bootstrap=bootstrap, seed=seed)
    return compute_standings(games, list(names), ratings=ratings, order=order)


def rating_info(bootstrap: int, seed: int) -> dict[str, Any]:
    """How the rating columns were computed, for results.json."""
    return {"model": "plackett-luce", "fit": "choix.ilsr_top1 on every game's placements (ties: Breslow)",
            "alpha": ALPHA, "scale": "elo: 1500 is the pool average, +400 is 10:1 to finish ahead",
            "interval": INTERVAL if bootstrap else None, "bootstrap": bootstrap,
            "resample": "deals", "bootstrap_seed": seed}


def results_rows(standings: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Standings rows for results.json: everything but the durations (and the rank ranges, which ``order_info``
    holds)."""
    return [{k: v for k, v in row.items() if k not in TIMING_KEYS and k not in RANGE_KEYS} for row in standings]


def order_rule(stages: Sequence[Mapping[str, Any]], rank_by: str, *, complete: bool = True) -> str:
    """The rule that decided the order, in words (for results.json, standings.md and the terminal)."""
    overall = ("the rating (Plackett-Luce over every game), then the average place" if rank_by == "rating"
               else "the average place, then the rating")
    if not complete:
        return f"unfinished, so by {overall} over the games played so far"
    parts = []
    knockouts = [st["name"] for st in stages if st.get("format") == "knockout"]
    if len(stages) > 1 or knockouts:
        parts.append("the furthest stage and round reached")
    if knockouts:
        parts.append(f"the place at that round's table (knockout: {', '.join(knockouts)})")
    parts.append(overall)
    return "by " + ", then ".join(parts)


def order_info(standings: Sequence[Mapping[str, Any]], stages: Sequence[Mapping[str, Any]], rank_by: str, *,
               complete: bool = True) -> dict[str, Any]:
    """results.json's ``order``: the rule that decided the order, and each bot's rank range (bots whose 95%
    rating intervals overlap, under the same rule's earlier keys, share a range)."""
    return {"rule": order_rule(stages, rank_by, complete=complete),
            "tied": "bots whose 95% rating intervals overlap share a rank range: the games do not separate them",
            "rank_ranges": {r["bot"]: [r.get("rank_best", r["rank"]), r.get("rank_worst", r["rank"])]
                            for r in standings}}


def column_notes(doc: Mapping[str, Any], standings: Sequence[Mapping[str, Any]]) -> list[str]:
    """What each column means for the rulesets played (standings.md's legend)."""
    rulesets = []
    for st in doc.get("stages") or [{"ruleset": doc.get("ruleset"), "options": doc.get("options") or {}}]:
        if st.get("ruleset"):
            try:
                rulesets.append(get_ruleset(st["ruleset"], st.get("options") or {}))
            except RulesetError:
                pass
    notes = ["rank: a range such as 2-4 means the 95% rating intervals leave the bot anywhere from 2nd to "
             "4th (shared with the bots it overlaps)",
             "avg place: the mean place at the table, 1 = first; tied players share a place, forfeits are last",
             "wins / draws: sole / shared first places"]
    scoring = [r for r in rulesets if not r.single_round]
    if shows_points(standings):
        targets = ", ".join(sorted({f"{r.house} to {r.target}" for r in scoring})) or "the match target"
        notes.append(f"points: each game's final match score, summed over the games ({targets}: a round's "
                     "winner scores the cards left in the other hands)")
    elif rulesets and not scoring:
        names = ", ".join(sorted({r.house for r in rulesets}))
        notes.append(f"no points column: {names} plays single rounds that end when a player goes out, so "
                     "nobody scores; the places are the whole result")
    if any(r.get("rating") is not None for r in standings):
        notes.append("rating: Plackett-Luce fit of all placements (Elo scale, 1500 = pool average), 95% bootstrap "
                     "interval; [>=X] means no upper bound (ahead of every opponent in every game), [<=X] no lower")
    notes.append("win%: wins plus half the draws, 95% Wilson interval")
    return notes


def head_to_head(games: Iterable[Mapping[str, Any]], names: Sequence[str]) -> dict[str, Any]:
    """For every pair of bots: games together, and how often each placed ahead of the other."""
    index = {n: i for i, n in enumerate(names)}
    n = len(names)
    ahead = [[0] * n for _ in range(n)]
    meetings = [[0] * n for _ in range(n)]
    for g in games:
        seats = [(index[b], p) for b, p in zip(g["seating"], g["placements"]) if b in index]
        for i, pi in seats:
            for j, pj in seats:
                if i == j:
                    continue
                meetings[i][j] += 1
                if pi < pj:
                    ahead[i][j] += 1
    return {"bots": list(names), "ahead": ahead, "meetings": meetings}


def timing(standings: Iterable[Mapping[str, Any]], games: Iterable[Mapping[str, Any]], *, wall_s: float,
           played_now: int, jobs: int) -> dict[str, Any]:
    """Durations (which vary from run to run): per bot, and for the run."""
    bot_ms = 0.0
    decisions = 0
    for g in games:
        tm = g.get("time_ms") or {}
        bot_ms += sum(tm.get("total") or [])
        decisions += sum(tm.get("decisions") or [])
    return {
        "wall_s": round(wall_s, 3), "games_this_run": played_now, "jobs": jobs,
        "games_per_s": round(played_now / wall_s, 3) if wall_s > 0 else None,
        "bot_decisions": decisions, "bot_time_s": round(bot_ms / 1000, 3),
        "bots": {r["bot"]: {"avg_ms": r.get("avg_ms"), "max_ms": r.get("max_ms")} for r in standings},
    }


def dumps(doc: Mapping[str, Any]) -> str:
    """results.json text: stable key order as built, two-space indent, final newline."""
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def write_reports(out_dir: str, doc: Mapping[str, Any], standings: Sequence[Mapping[str, Any]],
                  timing_doc: Mapping[str, Any] | None = None, title: str | None = None,
                  notes: Sequence[str] = ()) -> list[str]:
    """Write every report file; their paths."""
    os.makedirs(out_dir, exist_ok=True)
    paths = []

    def put(name: str, text: str) -> None:
        path = os.path.join(out_dir, name)
        with open(path + ".part", "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.replace(path + ".part", path)  # never a half-written results file
        paths.append(path)

    put("results.json", dumps(doc))
    put("standings.csv", standings_csv(standings))
    h2h = doc.get("head_to_head") or head_to_head([], [r["bot"] for r in standings])
    put("head_to_head.csv", head_to_head_csv(h2h))
    put("standings.md", standings_md(doc, standings, title=title, notes=notes))
    if timing_doc is not None:
        put("timing.json", json.dumps(timing_doc, indent=2) + "\n")
    return paths


CSV_KEYS = ("rank", "rank_best", "rank_worst", "bot", "games", "wins", "draws", "avg_place", "points", "rating", "rating_low", "rating_high",
            "win_rate", "win_low", "win_high", "faults", "avg_ms", "max_ms")


def standings_csv(standings: Sequence[Mapping[str, Any]]) -> str:
    """standings.csv: one row per bot, every column (faults as ``kind:count;...``)."""
    keys = list(CSV_KEYS) + (["reached"] if any("reached" in r for r in standings) else [])
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(keys)
    for r in standings:
        row = []
        for k in keys:
            v = r.get(k)
            if k == "faults":
                v = ";".join(f"{kind}:{count}" for kind, count in (v or {}).items())
            row.append("" if v is None else v)
        writer.writerow(row)
    return buf.getvalue()


def head_to_head_csv(h2h: Mapping[str, Any]) -> str:
    """head_to_head.csv: one row per ordered pair of bots that met."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["bot", "opponent", "games", "ahead", "behind", "tied", "ahead_rate"])
    names = h2h["bots"]
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            met = h2h["meetings"][i][j]
            if i == j or not met:
                continue
            ahead, behind = h2h["ahead"][i][j], h2h["ahead"][j][i]
            writer.writerow([a, b, met, ahead, behind, met - ahead - behind, round((ahead + (met - ahead - behind) / 2)
                                                                                    / met, 4)])
    return buf.getvalue()


def standings_md(doc: Mapping[str, Any], standings: Sequence[Mapping[str, Any]], *, title: str | None = None,
                 notes: Sequence[str] = ()) -> str:
    """standings.md: what was played, the standings table, and the head-to-head matrix."""
    lines = [f"# {title or doc.get('name') or 'Standings'}", ""]
    meta = []
    if doc.get("stages"):
        for st in doc["stages"]:
            meta.append(f"- stage **{st['name']}**: {st['format']}, {st['ruleset']}, {st['seats']} seats, "
                        f"{st['games']} games{' (duplicate deals)' if st.get('duplicate') else ''}")
    elif doc.get("ruleset"):
        meta.append(f"- {doc['ruleset']}, {doc.get('seats')} seats")
    meta.append(f"- {doc.get('games')} games, seed {doc.get('seed')}"
                + ("" if doc.get("complete", True) else " (**unfinished**: `--resume` completes it)"))
    for item in doc.get("left_out") or []:
        meta.append(f"- left out: {item['bot']} ({item['reason']})")
    meta.extend(f"- {n}" for n in notes)
    lines += meta + [""]
    rule = (doc.get("order") or {}).get("rule")
    if rule:
        lines += [f"Order: {rule}. Bots whose 95% rating intervals overlap share a rank range (such as 2-4).", ""]
    with_rating = any(r.get("rating") is not None for r in standings)
    with_points = shows_points(standings)
    reached = any("reached" in r for r in standings)
    head = ["rank", "bot", "games", "wins", "draws", "avg place"] + (["points"] if with_points else [])
    head += (["rating [95%]"] if with_rating else []) + ["win% [95%]", "faults", "avg ms", "max ms"]
    head += ["reached"] if reached else []
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "|".join("---" if h in ("bot", "faults", "reached") else "---:" for h in head) + "|")
    for r in standings:
        cells = [format_rank(r), _md(r["bot"]), str(r["games"]), str(r["wins"]), str(r["draws"]),
                 "-" if r.get("avg_place") is None else f"{r['avg_place']:.2f}"]
        if with_points:
            cells.append(str(r["points"]))
        if with_rating:
            cells.append(format_rating(r))
        cells += [format_win_rate(r), format_faults(r.get("faults") or {}),
                  "-" if r.get("avg_ms") is None else f"{r['avg_ms']:.2f}",
                  "-" if r.get("max_ms") is None else f"{r['max_ms']:.1f}"]
        if reached:
            cells.append(_md(str(r.get("reached", ""))))
        lines.append("| " + " | ".join(cells) + " |")
    lines += [""] + [f"- {note}" for note in column_notes(doc, standings)]
    h2h = doc.get("head_to_head")
    if h2h and len(h2h["bots"]) > MD_MATRIX_LIMIT:
        lines += ["", "## Head to head", "",
                  f"{len(h2h['bots'])} bots make a matrix too wide for this page: every pair is in "
                  "head_to_head.csv (and in results.json's head_to_head)."]
    elif h2h and len(h2h["bots"]) > 1:
        names = h2h["bots"]
        lines += ["", "## Head to head", "",
                  "How often the row's bot finished ahead of the column's when they met (a tie counts half); "
                  "head_to_head.csv has the counts.", ""]
        lines.append("| | " + " | ".join(_md(n) for n in names) + " |")
        lines.append("|---|" + "|".join("---:" for _ in names) + "|")
        for i, a in enumerate(names):
            cells = []
            for j in range(len(names)):
                met = h2h["meetings"][i][j]
                if i == j or not met:
                    cells.append("")
                    continue
                ahead, behind = h2h["ahead"][i][j], h2h["ahead"][j][i]
                cells.append(f"{100 * (ahead + (met - ahead - behind) / 2) / met:.0f}%")
            lines.append(f"| {_md(a)} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    return text.replace("|", "\\|")


__all__ = ["RESULTS_FORMAT", "RESULTS_VERSION", "column_notes", "compute_standings", "dumps", "head_to_head",
           "order_info", "order_rule", "rating_info", "results_rows", "standings_with_ratings", "timing", "write_reports"]
