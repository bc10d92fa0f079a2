"""grades.csv: a run's standings as points for the gradebook, one row per student, and why each got them.

Everything comes from the one ``Standings`` of the run (its ranks, rank ranges, ratings and left-out
students) and the arena's ``Grading``: nothing here ranks or rates anything. Each ``Grade`` carries
the sentences that explain it, for the student's ``bots/NAME.md``.
"""

from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass
from typing import Sequence

from referee.bots.entry import BotEntry
from referee.grading.rule import SHARED_WORDS, Grading, points_text
from referee.standings.model import StandingRow, Standings
from referee.standings.render import format_rating
from referee.store.results_dir import ResultsDir

#: The columns after the id and the points (``details: true``).
DETAIL_COLUMNS = ("rank_best", "rank_worst", "rating", "rating_low", "rating_high", "games", "faults", "left_out")


@dataclass(frozen=True)
class Grade:
    """One student's row of grades.csv, and the lines that explain its points."""

    student: str
    """The id: the submission's folder name (the bot's name for an entrant given by command)."""
    bot: str
    points: str
    row: StandingRow | None = None
    left_out: str = ""
    why: tuple[str, ...] = ()

    def cells(self, details: bool) -> list[str]:
        """The row of grades.csv."""
        out = [self.student, self.points]
        if not details:
            return out
        r = self.row
        if r is None:
            return out + ["", "", "", "", "", "0", "0", self.left_out]
        return out + [str(r.rank_best or r.rank), str(r.rank_worst or r.rank), _rating(r.rating), _rating(r.rating_low),
                      _rating(r.rating_high), str(r.games), str(r.fault_total), ""]


def student_id(entry: BotEntry) -> str:
    """The id a gradebook knows the student by: the submission's folder name (a file's without its extension)."""
    if entry.student:
        return entry.student
    if not entry.submission:
        return entry.spec.name
    name = os.path.basename(os.path.normpath(entry.submission))
    return os.path.splitext(name)[0] if os.path.isfile(entry.submission) else name


def grade_students(standings: Standings, entries: Sequence[BotEntry], grading: Grading) -> list[Grade]:
    """A grade for every entrant that is not a built-in player: the ranked in the standings' order, then the rest
    (left out, or never in a game) by name."""
    students = [e for e in entries if e.spec.builtin is None]
    rows = {r.bot: r for r in standings.rows}
    reasons = {x.bot: x.reason for x in standings.left_out}
    field = len(standings.rows)
    position = {r.bot: i for i, r in enumerate(standings.rows)}
    graded = [grade_one(e, rows.get(e.spec.name), reasons.get(e.spec.name), field, grading) for e in students]
    return sorted(graded, key=lambda g: (position.get(g.bot, field), g.student))


def grade_one(entry: BotEntry, row: StandingRow | None, reason: str | None, field: int, grading: Grading) -> Grade:
    """One student's grade and its explanation."""
    sid = student_id(entry)
    column = f"the gradebook column `{grading.points_column}`, id `{sid}`"
    if row is None or (grading.by == "rating" and row.rating is None):
        why = reason or ("it has no rating (the run computed none)" if row is not None else "it played no game")
        points = grading.rounded(grading.left_out)
        return Grade(sid, entry.spec.name, points, row, why,
                     (f"points: **{points}** ({column})",
                      f"a student left out gets {points_text(grading.left_out)} points; left out because {why}"))
    if grading.by == "rating":
        assert row.rating is not None
        raw = grading.rating_points(row.rating)
        how = f"your rating {format_rating(row)} (95% interval) gives {raw:.2f}"
    else:
        raw, how = _by_rank(row, field, grading)
    points = grading.rounded(raw)
    return Grade(sid, entry.spec.name, points, row, "",
                 (f"points: **{points}** ({column})", f"how: {grading.describe(field)}",
                  f"yours: {how}; rounded to a multiple of {points_text(grading.round)}: {points}"))


def _by_rank(row: StandingRow, field: int, grading: Grading) -> tuple[float, str]:
    """The points of a row's rank range under ``shared_rank``, and how they were found."""
    best, worst = row.rank_best or row.rank, row.rank_worst or row.rank
    if best == worst:
        raw = grading.rank_points(row.rank, field)
        return raw, f"rank {row.rank} gives {raw:.2f}"
    span = f"your rank range {best}-{worst} (the games do not separate you from the bots sharing it)"
    if grading.shared_rank == "mean":
        each = [grading.rank_points(r, field) for r in range(best, worst + 1)]
        raw = sum(each) / len(each)
        return raw, f"{span} counts as the mean of its ranks' points ({', '.join(f'{p:.2f}' for p in each)}): {raw:.2f}"
    rank = {"best": best, "worst": worst, "rank": row.rank}[grading.shared_rank]
    raw = grading.rank_points(rank, field)
    return raw, f"{span} counts as {SHARED_WORDS[grading.shared_rank]}, {rank}: {raw:.2f}"


def grades_csv(grades: Sequence[Grade], grading: Grading) -> str:
    """grades.csv: a header, then one row per student (RFC 4180 quoting, UTF-8)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    header = [grading.id_column, grading.points_column]
    writer.writerow(header + list(DETAIL_COLUMNS) if grading.details else header)
    for g in grades:
        writer.writerow(g.cells(grading.details))
    return buf.getvalue()


def _rating(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


def write_grades(out_dir: str, standings: Standings, entries: Sequence[BotEntry], grading: Grading
                 ) -> tuple[str, dict[str, Grade]]:
    """Write ``OUT/grades.csv``; its path, and each student's grade by bot name (for their report)."""
    grades = grade_students(standings, entries, grading)
    path = ResultsDir(out_dir).write(ResultsDir.GRADES, grades_csv(grades, grading))
    return path, {g.bot: g for g in grades}
