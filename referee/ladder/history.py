"""The ladder over time: every run's standings as history.csv (one row per run and bot) and history.md
(the runs, then each bot's rank run by run)."""

from __future__ import annotations

import csv
import io
from typing import Sequence

from referee.ladder.shapes import LadderRunRow
from referee.standings.model import StandingRow
from referee.standings.render import format_rating
from referee.store.results_dir import ResultsDir

HISTORY_KEYS = ("run", "finished", "status", "bot", "rank", "rank_best", "rank_worst", "games", "rating", "rating_low",
                "rating_high", "avg_place")


def history_csv(runs: Sequence[LadderRunRow]) -> str:
    """history.csv: one row per run and bot, from each run's stored standings."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(HISTORY_KEYS)
    for run in runs:
        for row in run.get("standings") or []:
            values = {"run": run["id"], "finished": run.get("finished"), "status": run["status"], **row}
            writer.writerow(["" if values.get(k) is None else values.get(k) for k in HISTORY_KEYS])
    return buf.getvalue()


def history_md(runs: Sequence[LadderRunRow], *, last: int = 12) -> str:
    """history.md: a line per run, then the rank of each bot in the ``last`` runs with standings."""
    lines = ["# Ladder history", "", "| run | finished | status | played | retired | kept | stopped because | leader |",
             "|---:|---|---|---:|---:|---:|---|---|"]
    for run in runs:
        rows = run.get("standings") or []
        leader = f"{rows[0]['bot']} {format_rating(StandingRow.from_json(rows[0]))}" if rows else "-"
        lines.append(f"| {run['id']} | {run.get('finished') or '-'} | {run['status']} | {run['played']} | "
                     f"{run['retired']} | {run.get('kept') if run.get('kept') is not None else '-'} | "
                     f"{run.get('stop_reason') or '-'} | {leader} |")
    shown = [r for r in runs if r.get("standings")][-last:]
    if shown:
        lines += _rank_table(shown)
    return "\n".join(lines) + "\n"


def _rank_table(shown: Sequence[LadderRunRow]) -> list[str]:
    """The "Rank by run" section: a row per bot (the latest run's standings first), a column per run shown."""
    latest = shown[-1]["standings"] or []
    bots = [r["bot"] for r in latest] + sorted({row["bot"] for run in shown for row in run["standings"] or ()}
                                               - {r["bot"] for r in latest})
    ranks = {run["id"]: {row["bot"]: StandingRow.from_json(row) for row in run["standings"] or ()} for run in shown}
    lines = ["", "## Rank by run", "", "The rank each bot held at the end of each run, as a range where the 95% "
             "rating intervals did not separate it from others (- : not in that run's standings). A move "
             "marked ↑ or ↓ is one the intervals support (the two runs' ranges do not overlap); ≈ marks a "
             "change of rank within the ranges, which the games do not tell from noise. history.csv has "
             "every run's ratings.", ""]
    lines.append("| bot | " + " | ".join(f"run {run['id']}" for run in shown) + " |")
    lines.append("|---|" + "|".join("---:" for _ in shown) + "|")
    for bot in bots:
        cells = []
        before: StandingRow | None = None
        for run in shown:
            row = ranks[run["id"]].get(bot)
            cells.append("-" if row is None else row.rank_text + _move(before, row))
            before = row if row is not None else before
        lines.append(f"| {bot.replace('|', chr(92) + '|')} | " + " | ".join(cells) + " |")
    return lines


def _move(before: StandingRow | None, now: StandingRow) -> str:
    """`` ↑``/`` ↓`` for a change of rank the intervals support, `` ≈`` for one within them, else nothing."""
    if before is None or before.rank == now.rank:
        return ""
    overlap = before.rank_best <= now.rank_worst and now.rank_best <= before.rank_worst
    if overlap:
        return " ≈"
    return " ↑" if now.rank < before.rank else " ↓"


def write_history(out_dir: str, runs: Sequence[LadderRunRow]) -> list[str]:
    """Write history.csv and history.md (atomically; a full disk names the file); their paths."""
    folder = ResultsDir(out_dir)
    return [folder.write(ResultsDir.HISTORY_CSV, history_csv(runs)), folder.write(ResultsDir.HISTORY_MD,
                                                                                 history_md(runs))]
