"""The files of a results directory, shared by ``arena``, ``match --out``, the ladder and ``compare``:
results.json, standings.csv, standings.md, standings.txt (the terminal's table, to paste where Markdown is not
rendered), head_to_head.csv and timing.json, all rendered from one ``ResultsDoc`` and written through
``ResultsDir.write``.
"""

from __future__ import annotations

import csv
import io
import json
import os
from typing import Any, Iterable, Protocol, Sequence

from referee.standings.model import StandingRow, Standings
from referee.standings.render import column_notes, csv_text, markdown_table, text_table
from referee.standings.results_doc import HeadToHead, ResultsDoc
from referee.store.ranking_shapes import BotTimesJson
from referee.store.results_dir import ResultsDir
from referee.store.results_shapes import TimingJson

#: The head-to-head matrix goes into standings.md up to this many bots (head_to_head.csv always has it all,
#: and standings.md says so above the limit).
MD_MATRIX_LIMIT = 24


class TimeSums(Protocol):
    """A run's collector, with the bots' time and decisions summed already."""

    bot_ms: float
    decisions: int


def timing(standings: Standings, games: Iterable[Any] | TimeSums, *, wall_s: float, played_now: int, jobs: int
           ) -> TimingJson:
    """Durations (which vary from run to run): per bot, and for the run."""
    bot_ms = getattr(games, "bot_ms", 0.0)  # a run's collector has the sums already
    decisions = getattr(games, "decisions", 0)
    for g in games if not hasattr(games, "bot_ms") else ():
        times = g.result.times if hasattr(g, "result") else g.times
        bot_ms += sum(times.total)
        decisions += sum(times.decisions)
    return {
        "wall_s": round(wall_s, 3), "games_this_run": played_now, "jobs": jobs,
        "games_per_s": round(played_now / wall_s, 3) if wall_s > 0 else None,
        "bot_decisions": decisions, "bot_time_s": round(bot_ms / 1000, 3),
        "bots": {r.bot: _bot_times(r) for r in standings.rows},
    }


def _bot_times(row: StandingRow) -> BotTimesJson:
    out = BotTimesJson(avg_ms=row.avg_ms, max_ms=row.max_ms)
    if row.cpu_avg_ms is not None:
        out["cpu_avg_ms"], out["cpu_max_ms"] = row.cpu_avg_ms, row.cpu_max_ms
    return out


def write_reports(out_dir: str, doc: ResultsDoc, timing_doc: TimingJson | None = None,
                  notes: Sequence[str] = ()) -> list[str]:
    """Write every report file of ``doc``; their paths."""
    os.makedirs(out_dir, exist_ok=True)
    files = [(ResultsDir.RESULTS, doc.dumps()), (ResultsDir.STANDINGS_CSV, csv_text(doc.standings)),
             (ResultsDir.HEAD_TO_HEAD_CSV, head_to_head_csv(doc.head_to_head)),
             (ResultsDir.STANDINGS_MD, standings_md(doc, notes=notes)),
             (ResultsDir.STANDINGS_TXT, text_table(doc.standings) + "\n")]
    if timing_doc is not None:
        files.append((ResultsDir.TIMING, json.dumps(timing_doc, indent=2) + "\n"))
    folder = ResultsDir(out_dir)
    return [folder.write(name, text) for name, text in files]


def head_to_head_csv(h2h: HeadToHead) -> str:
    """head_to_head.csv: one row per ordered pair of bots that met."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["bot", "opponent", "games", "ahead", "behind", "tied", "ahead_rate"])
    for i, a in enumerate(h2h.bots):
        for j, b in enumerate(h2h.bots):
            score = h2h.score(i, j)
            if score is None:
                continue
            met, ahead, behind = h2h.meetings[i][j], h2h.ahead[i][j], h2h.ahead[j][i]
            writer.writerow([a, b, met, ahead, behind, met - ahead - behind, round(score, 4)])
    return buf.getvalue()


def stage_lines(doc: ResultsDoc) -> list[str]:
    """One line per stage (how it was played) and per knockout round (who went through)."""
    out = []
    for st in doc.stages:
        played = st.get("played")
        count = str(played if played is not None else st["games"])
        out.append(f"- stage **{st['name']}**: {st['format']}, {st['ruleset']}, {st['seats']} seats, "
                   f"{count} games{' (duplicate deals)' if st.get('duplicate') else ''}")
        for rnd in st.get("rounds") or ():
            went = f"; through: {', '.join(rnd['advanced'])}" if rnd.get("advanced") else ""
            out.append(f"  - {rnd['label']}: {rnd['tables']} table(s), {rnd['games']} games{went}")
    if not doc.stages and doc.table:
        out.append(f"- {doc.table.get('ruleset')}, {doc.table.get('seats')} seats")
    return out


def stage_records_md(doc: ResultsDoc) -> list[str]:
    """Each stage's own table of records (only for a run of more than one stage)."""
    if len(doc.standings.stages) < 2:
        return []
    out = ["", "## By stage"]
    for st in doc.standings.stages:
        out += ["", f"### {st.name} ({st.format}, {st.games} games)", "", "| bot | games | wins | draws | avg place |",
                "|---|---:|---:|---:|---:|"]
        for rec in st.records:
            avg = "-" if rec.avg_place is None else f"{rec.avg_place:.2f}"
            out.append(f"| {rec.bot.replace('|', chr(92) + '|')} | {rec.games} | {rec.wins} | {rec.draws} | {avg} |")
    return out


def standings_md(doc: ResultsDoc, *, notes: Sequence[str] = ()) -> str:
    """standings.md: what was played, the standings table, each stage's records and the head-to-head matrix."""
    lines = [f"# {doc.title}", ""]
    meta = stage_lines(doc)
    planned = f" of {doc.games_planned} planned" if doc.games_planned not in (None, doc.games) else ""
    meta.append(f"- {doc.games} games{planned}, seed {doc.seed}"
                + ("" if doc.complete else " (**unfinished**: `--resume` completes it)"))
    meta.extend(f"- {n}" for n in notes)
    lines += meta + [""]
    if doc.standings.rule:
        lines += [f"Order: {doc.standings.rule}. Bots whose 95% rating intervals overlap share a rank range "
                  "(such as 2-4).", ""]
    lines += markdown_table(doc.standings)
    lines += [""] + [f"- {note}" for note in column_notes(doc.standings)]
    lines += stage_records_md(doc)
    lines += head_to_head_md(doc.head_to_head)
    return "\n".join(lines) + "\n"


def head_to_head_md(h2h: HeadToHead) -> list[str]:
    names = h2h.bots
    if len(names) > MD_MATRIX_LIMIT:
        return ["", "## Head to head", "",
                f"{len(names)} bots make a matrix too wide for this page: every pair is in "
                "head_to_head.csv (and in results.json's head_to_head)."]
    if len(names) < 2:
        return []
    out = ["", "## Head to head", "",
           "How often the row's bot finished ahead of the column's when they met (a tie counts half); "
           "head_to_head.csv has the counts.", "",
           "| | " + " | ".join(n.replace("|", "\\|") for n in names) + " |",
           "|---|" + "|".join("---:" for _ in names) + "|"]
    for i, a in enumerate(names):
        cells = ["" if (s := h2h.score(i, j)) is None else f"{100 * s:.0f}%" for j in range(len(names))]
        out.append(f"| {a.replace('|', chr(92) + '|')} | " + " | ".join(cells) + " |")
    return out
