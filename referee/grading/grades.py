"""grades.csv: points for the gradebook, one row per student, and why each got them.

One row type, ``Grade``: the student's id, the points, the detail cells of the rule (``detail_columns``), a
flag when the points are not certain (a benchmark test still undecided, a rank the games do not separate),
and the sentences and report section that explain them (the student's ``bots/NAME.md``). Other gradebook
formats are written from the same rows.

By rank, rating or table, everything comes from the one ``Standings`` of the run (its ranks, rank ranges,
ratings and left-out students) and the arena's ``Grading``: nothing here rates anything; a knockout's order is
replaced by the overall rating's (``separation.by_overall_rating``). By benchmarks, each student's grade comes
from their own tests only (``bands.benchmark_grade``).
"""

from __future__ import annotations

import csv
import io
import json
import os
from typing import Mapping, Sequence

from referee.bots.entry import BotEntry
from referee.grading.bands import BENCHMARK_COLUMNS, BenchmarkOutcome, benchmark_grade
from referee.grading.class_list import ClassList
from referee.grading.grade import Grade, GradesWritten
from referee.grading.gradebook import by_roster_id, platform_file, roster_grades
from referee.grading.rule import SHARED_WORDS, Grading, points_text
from referee.grading.separation import Separation, by_overall_rating, separation
from referee.standings.model import StandingRow, Standings
from referee.standings.render import format_rating
from referee.store.results_dir import ResultsDir
from referee.store.results_shapes import GradesJson

#: The columns after the id and the points (``details: true``) by rank, rating or table.
DETAIL_COLUMNS = ("rank_best", "rank_worst", "rating", "rating_low", "rating_high", "games", "faults", "left_out")
#: The last column of every detailed grades.csv: why the points are not certain ("" when they are).
FLAG = "flag"


def detail_columns(grading: Grading) -> tuple[str, ...]:
    """grades.csv's columns after the id and the points (with ``details``)."""
    return (BENCHMARK_COLUMNS if grading.by == "benchmarks" else DETAIL_COLUMNS) + (FLAG,)


def student_id(entry: BotEntry) -> str:
    """The id a gradebook knows the student by: the submission's folder name (a file's without its extension)."""
    if entry.student:
        return entry.student
    if not entry.submission:
        return entry.spec.name
    name = os.path.basename(os.path.normpath(entry.submission))
    return os.path.splitext(name)[0] if os.path.isfile(entry.submission) else name


def students(entries: Sequence[BotEntry]) -> list[BotEntry]:
    """The entrants that are students: every one but the built-in players."""
    return [e for e in entries if e.spec.builtin is None]


def grade_students(standings: Standings, entries: Sequence[BotEntry], grading: Grading) -> list[Grade]:
    """A grade for every entrant that is not a built-in player: the ranked in the standings' order, then the rest
    (left out, or never in a game) by name."""
    rows_in_order = _ranked_rows(standings)
    rows = {r.bot: r for r in rows_in_order}
    reasons = {x.bot: x.reason for x in standings.left_out}
    field = len(rows_in_order)
    position = {r.bot: i for i, r in enumerate(rows_in_order)}
    sep = separation(rows_in_order, {e.spec.name for e in students(entries)})
    graded = [grade_one(e, rows.get(e.spec.name), reasons.get(e.spec.name), field, grading, sep,
                        knockout=rows_in_order is not standings.rows and bool(standings.rows))
              for e in students(entries)]
    return sorted(graded, key=lambda g: (position.get(g.bot, field), g.student))


def _ranked_rows(standings: Standings) -> Sequence[StandingRow]:
    """The rows ranks are read from: the standings', or the overall rating's where a knockout set the order."""
    if any(r.reached is not None for r in standings.rows):
        return by_overall_rating(standings.rows)
    return standings.rows


def grade_one(entry: BotEntry, row: StandingRow | None, reason: str | None, field: int, grading: Grading,
              sep: Separation | None = None, knockout: bool = False) -> Grade:
    """One student's grade by rank, rating or table, and its explanation."""
    sid = student_id(entry)
    column = f"the gradebook column `{grading.points_column}`, id `{sid}`"
    if row is None or (grading.by == "rating" and row.rating is None):
        why = reason or ("it has no rating (the run computed none)" if row is not None else "it played no game")
        return left_out_grade(entry, grading, why, row)
    if grading.by == "rating":
        assert row.rating is not None
        raw = grading.rating_points(row.rating)
        how = f"your rating {format_rating(row)} (95% interval) gives {raw:.2f}"
    else:
        raw, how = _by_rank(row, field, grading)
    cost = grading.faults.cost(row.fault_total) if grading.faults else 0.0
    points = grading.rounded(max(0.0, raw - cost))
    flag = ""
    if grading.by != "rating" and sep is not None and entry.spec.name in sep.shared:
        flag = (f"rank range {row.rank_best}-{row.rank_worst} shared with others: points by shared_rank "
                f"{grading.shared_rank}, not your own place")
    lines = [f"points: **{points}** ({column})", f"how: {grading.describe(field)}"]
    if knockout:
        lines.append("the ranks are the overall rating's over every game (with its 95% interval), not the knockout's "
                   "order, which a final's few games would set")
    lines.append(f"yours: {how}; rounded to a multiple of {points_text(grading.round)}: {grading.rounded(raw)}")
    if grading.faults and row.fault_total:
        lines.append(f"faults: {row.fault_total}; {grading.faults.describe()}: -{points_text(cost)}")
    if flag:
        lines.append(f"**not certain**: {flag}" + (f"; {sep.text()}" if sep is not None else ""))
    return Grade(sid, entry.spec.name, points, _rank_cells(row), flag, tuple(lines))


def left_out_grade(entry: BotEntry, grading: Grading, why: str, row: StandingRow | None = None) -> Grade:
    """The grade of a student left out (no bot, a failed build, no game played)."""
    points = grading.rounded(grading.left_out)
    column = f"the gradebook column `{grading.points_column}`, id `{student_id(entry)}`"
    cells = _rank_cells(row)[:-1] + (why,) if row is not None and grading.by != "benchmarks" else \
        left_out_cells(grading, why)
    return Grade(student_id(entry), entry.spec.name, points, cells, "",
                 (f"points: **{points}** ({column})",
                  f"a student left out gets {points_text(grading.left_out)} points; left out because {why}"),
                 left_out=why)


def left_out_cells(grading: Grading, why: str) -> tuple[str, ...]:
    """The detail cells of a student who played no game (none played, no faults, the reason last)."""
    cells = ("", "", "0", "0", "", "", "", "", why) if grading.by == "benchmarks" else ("",) * 5 + ("0", "0", why)
    assert len(cells) == len(detail_columns(grading)) - 1
    return cells


def _rank_cells(row: StandingRow) -> tuple[str, ...]:
    return (str(row.rank_best or row.rank), str(row.rank_worst or row.rank), _rating(row.rating),
            _rating(row.rating_low), _rating(row.rating_high), str(row.games), str(row.fault_total), "")


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


def grade_benchmarks(entries: Sequence[BotEntry], outcomes: Mapping[str, BenchmarkOutcome],
                     left: Mapping[str, str], grading: Grading) -> list[Grade]:
    """A grade for every student from their own benchmark tests (``outcomes`` by bot name), in the entries' order;
    a student with no outcome is left out (``left``: the reason by bot name)."""
    out = []
    for entry in students(entries):
        name = entry.spec.name
        outcome = outcomes.get(name)
        if outcome is None:
            out.append(left_out_grade(entry, grading, left.get(name) or "it played no game"))
            continue
        graded = benchmark_grade(outcome, grading)
        points = grading.rounded(graded.points)
        column = f"the gradebook column `{grading.points_column}`, id `{student_id(entry)}`"
        out.append(Grade(student_id(entry), name, points, graded.cells, graded.flag,
                         (f"points: **{points}** ({column})", *graded.why), graded.section))
    return out


def grades_csv(grades: Sequence[Grade], grading: Grading) -> str:
    """grades.csv: a header, then one row per student (RFC 4180 quoting, UTF-8)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    header = [grading.id_column, grading.points_column]
    writer.writerow(header + list(detail_columns(grading)) if grading.details else header)
    for g in grades:
        writer.writerow(g.cells(grading.details))
    return buf.getvalue()


def _rating(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


def grades_json(grades: Sequence[Grade], grading: Grading) -> GradesJson:
    """grades.json: each student's points and the sentences that explain them (the students' pages read it)."""
    return {"format": "lastcard-grades", "version": 1, "points_column": grading.points_column,
            "grades": [{"student": g.student, "bot": g.bot, "points": g.points, "why": list(g.why)} for g in grades]}


def _write(out_dir: str, grades: Sequence[Grade], grading: Grading, class_list: ClassList | None,
           notes: list[str]) -> GradesWritten:
    """grades.csv and grades.json (the same points, each with why), with a row per roster student and the roster's
    platform's own file when there is a roster; what was written."""
    rows = roster_grades(grades, class_list, grading, left_out_cells) if class_list is not None else list(grades)
    folder = ResultsDir(out_dir)
    path = folder.write(ResultsDir.GRADES, grades_csv(rows, grading))
    folder.write(ResultsDir.GRADES_EXPLAINED, json.dumps(grades_json(rows, grading), indent=1, ensure_ascii=False)
                 + "\n")
    files: tuple[str, ...] = ()
    if class_list is not None:
        made = platform_file(out_dir, rows, grading, class_list.roster)
        if made is not None:
            files = (made[0],)
            notes.append(made[1])
    by_bot = by_roster_id(grades, class_list) if class_list is not None else {g.bot: g for g in grades}
    return GradesWritten(path, by_bot, tuple(notes), files)


def write_grades(out_dir: str, standings: Standings, entries: Sequence[BotEntry], grading: Grading,
                 class_list: ClassList | None = None) -> GradesWritten:
    """Grades by rank, rating or table: ``OUT/grades.csv`` and ``grades.json`` (held back while
    ``require_separation`` is not met; with ``class_list``, a row per roster student and the platform's file), each
    student's grade by bot name (for their report), and what to tell the teacher."""
    grades = grade_students(standings, entries, grading)
    notes: list[str] = []
    sep = separation(_ranked_rows(standings), {e.spec.name for e in students(entries)})
    if grading.by != "rating" and not sep.separated:
        notes.append(sep.text())
    if grading.require_separation and not sep.separated:
        notes.append(f"grades.csv is not written: the grading block asks for a separation (require_separation), and "
                     f"{len(sep.shared)} students still share a rank range; play more games (lastcard ladder run "
                     "--target-separation N, or more games a bot in the arena file) and run again")
        ResultsDir(out_dir).remove(ResultsDir.GRADES)
        ResultsDir(out_dir).remove(ResultsDir.GRADES_EXPLAINED)
        return GradesWritten(None, {g.bot: g for g in grades}, tuple(notes))
    return _write(out_dir, grades, grading, class_list, notes)


def write_benchmark_grades(out_dir: str, entries: Sequence[BotEntry], outcomes: Mapping[str, BenchmarkOutcome],
                           left: Mapping[str, str], grading: Grading,
                           class_list: ClassList | None = None) -> GradesWritten:
    """Grades by benchmarks: ``OUT/grades.csv`` and ``grades.json`` (with ``class_list``, a row per roster student
    and the platform's file), each student's grade by bot name, and the undecided students."""
    grades = grade_benchmarks(entries, outcomes, left, grading)
    flagged = [g for g in grades if g.flag]
    notes = []
    if flagged:
        notes.append(f"{len(flagged)} of {len(grades)} students undecided when the budget ran out, each graded at the "
                     f"band below the undecided test (flagged in grades.csv): "
                     + "; ".join(f"{g.student}: {g.flag}" for g in flagged[:3]) + (" ..." if len(flagged) > 3 else ""))
    return _write(out_dir, grades, grading, class_list, notes)
