"""Rendering a ``Standings``: one list of columns, drawn as a terminal table, Markdown, CSV or HTML.

Every surface takes its columns and cell texts from ``columns`` and its notes from ``column_notes``
and ``left_out_lines``, so the terminal, standings.md, report.html, the per-bot reports and the
ladder show the same ranks, ranges, left-out entrants and "reached" column.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from referee.standings.model import StandingRow, Standings


def format_rank(row: StandingRow) -> str:
    """``3``, or ``2-5`` when the rating intervals leave the bot anywhere from 2nd to 5th."""
    return row.rank_text


def format_rating(row: StandingRow) -> str:
    """``1623 [1580, 1660]``; ``1936 [>=1850]`` when the games set no upper bound (``<=`` no lower); or ``-``."""
    if row.rating is None:
        return "-"
    text = f"{row.rating:.0f}"
    low, high = row.rating_low, row.rating_high
    if low is not None and high is not None:
        text += f" [{low:.0f}, {high:.0f}]"
    elif low is not None:  # ahead of every opponent every time: only a lower bound is known
        text += f" [>={low:.0f}]"
    elif high is not None:
        text += f" [<={high:.0f}]"
    return text


def format_win_rate(row: StandingRow) -> str:
    """``42% [35-50]``, or ``-``."""
    if row.win_rate is None or row.win_low is None or row.win_high is None:
        return "-"
    return f"{100 * row.win_rate:.0f}% [{100 * row.win_low:.0f}-{100 * row.win_high:.0f}]"


def format_faults(faults: Mapping[str, int] | Sequence[tuple[str, int]]) -> str:
    """``timeout 2, illegal 1``, or ``-``."""
    items = faults.items() if isinstance(faults, Mapping) else faults
    return ", ".join(f"{k} {v}" for k, v in items) or "-"


def _ms(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


@dataclass(frozen=True)
class Column:
    """A column of the standings table: its header, whether it reads left to right, and its cell."""

    header: str
    cell: Callable[[StandingRow], str]
    left: bool = False


def columns(standings: Standings, *, times: bool = True) -> list[Column]:
    """The columns every surface shows for ``standings`` (rating only with ratings, points only when someone
    scored, reached only in a knockout; times where they are known and wanted)."""
    cols = [Column("rank", format_rank), Column("bot", lambda r: r.bot, left=True),
            Column("games", lambda r: str(r.games)), Column("wins", lambda r: str(r.wins)),
            Column("draws", lambda r: str(r.draws)),
            Column("avg place", lambda r: "-" if r.avg_place is None else f"{r.avg_place:.2f}")]
    if standings.scored:
        cols.append(Column("points", lambda r: str(r.points)))
    if standings.rated:
        cols.append(Column("rating [95%]", format_rating, left=True))
    cols += [Column("win% [95%]", format_win_rate, left=True), Column("faults", lambda r: format_faults(r.faults),
                                                                      left=True)]
    if times and standings.timed:
        cols += [Column("avg ms", lambda r: _ms(r.avg_ms, 2)), Column("max ms", lambda r: _ms(r.max_ms, 1))]
        if standings.cpu_timed:  # beside the wall time: who computes, and who only waited for a core
            cols += [Column("avg cpu ms", lambda r: _ms(r.cpu_avg_ms, 2)),
                     Column("max cpu ms", lambda r: _ms(r.cpu_max_ms, 1))]
    if standings.knockout:
        cols.append(Column("reached", lambda r: r.reached or "", left=True))
    return cols


def left_out_lines(standings: Standings) -> list[str]:
    """``left out: NAME (reason)``, one per entrant that played no game."""
    return [f"left out: {x.bot} ({x.reason})" for x in standings.left_out]


def text_table(standings: Standings) -> str:
    """The standings as a plain-text table for the terminal, the left-out entrants below it."""
    cols = columns(standings)
    lines = [[c.cell(r) for c in cols] for r in standings.rows]
    widths = [max([len(c.header)] + [len(line[i]) for line in lines]) for i, c in enumerate(cols)]
    fmt = "  ".join(("{:<%d}" if c.left else "{:>%d}") % w for c, w in zip(cols, widths))
    out = [fmt.format(*(c.header for c in cols)).rstrip(), fmt.format(*("-" * w for w in widths))]
    out += [fmt.format(*line).rstrip() for line in lines]
    return "\n".join(out + left_out_lines(standings))


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def markdown_table(standings: Standings) -> list[str]:
    """The standings as Markdown table lines (the left-out entrants as rows at the end, with their reason)."""
    cols = columns(standings)
    out = ["| " + " | ".join(c.header for c in cols) + " |",
           "|" + "|".join("---" if c.left else "---:" for c in cols) + "|"]
    for r in standings.rows:
        out.append("| " + " | ".join(_md(c.cell(r)) for c in cols) + " |")
    for x in standings.left_out:
        cells = ["-", _md(x.bot)] + ["" for _ in cols[2:]]
        cells[-1] = f"left out: {_md(x.reason)}"
        out.append("| " + " | ".join(cells) + " |")
    return out


CSV_KEYS = ("rank", "rank_best", "rank_worst", "bot", "games", "wins", "draws", "avg_place", "points", "rating",
            "rating_low", "rating_high", "win_rate", "win_low", "win_high", "faults", "avg_ms", "max_ms")


def csv_text(standings: Standings) -> str:
    """standings.csv: one row per bot, every column (faults as ``kind:count;...``); left-out entrants last, with
    an empty rank and their reason."""
    keys = (list(CSV_KEYS) + (["cpu_avg_ms", "cpu_max_ms"] if standings.cpu_timed else [])
            + (["reached"] if standings.knockout else []) + (["left_out"] if standings.left_out else []))
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(keys)
    for r in standings.rows:
        values = {**r.to_json(timing=True), "rank_best": r.rank_best, "rank_worst": r.rank_worst,
                  "faults": ";".join(f"{kind}:{count}" for kind, count in r.faults)}
        writer.writerow(["" if values.get(k) is None else values.get(k) for k in keys])
    for x in standings.left_out:
        writer.writerow([x.bot if k == "bot" else x.reason if k == "left_out" else "" for k in keys])
    return buf.getvalue()


def column_notes(standings: Standings) -> list[str]:
    """What each column means for the rulesets played (the legend under every table)."""
    rulesets = list(standings.rulesets)
    notes = ["rank: a range such as 2-4 means the 95% rating intervals leave the bot anywhere from 2nd to "
             "4th (shared with the bots it overlaps)",
             "avg place: the mean place at the table, 1 = first; tied players share a place, forfeits are last",
             "wins / draws: sole / shared first places"]
    scoring = [r for r in rulesets if not r.single_round]
    if standings.scored:
        targets = ", ".join(sorted({f"{r.house} to {r.target}" for r in scoring})) or "the match target"
        notes.append(f"points: each game's final match score, summed over the games ({targets}: a round's "
                     "winner scores the cards left in the other hands; a forfeited game scores nothing)")
    elif rulesets and not scoring:
        names = ", ".join(sorted({r.house for r in rulesets}))
        notes.append(f"no points column: {names} plays single rounds that end when a player goes out, so "
                     "nobody scores; the places are the whole result")
    if standings.rated:
        notes.append("rating: Plackett-Luce fit of all placements (Elo scale, 1500 = pool average), 95% bootstrap "
                     "interval; [>=X] means no upper bound (ahead of every opponent in every game), [<=X] no lower")
    notes.append("win%: wins plus half the draws, 95% Wilson interval")
    if standings.knockout:
        notes.append("reached: the furthest knockout round the bot played (bots that reached the same round are "
                     "ordered by their place at that round's table)")
    return notes
