"""Grades for every student on the roster, written in the shape the teacher's gradebook imports.

``roster_grades`` turns the run's grades (``grades.grade_students``, one per entrant) into one row per roster
student, in the roster's order, under the roster's id: a student whose submission played gets its grade, a student
left out gets ``left_out`` with the reason (as without a roster), and a student with no submission gets
``grading.missing`` with that reason. Then, besides today's grades.csv:

- a **Canvas** gradebook export as roster -> ``grades-canvas.csv``: the export's identity columns (Student, ID, SIS
  User ID, SIS Login ID, Section) as they were, its ``Points Possible`` row, and the assignment's column filled
  (the export's own ``Name (id)`` column when ``points_column`` names one, so Canvas updates that assignment; else
  a new column, which Canvas's import offers to create). Canvas's CSV import takes no comments: the feedback is in
  each student's report.
- a **Moodle** grading worksheet -> ``grades-moodle.csv``: the worksheet itself with ``Grade`` and ``Feedback
  comments`` filled, which the assignment's "Upload grading worksheet" matches on its ``Identifier``.
- a **Moodle** gradebook export -> ``grades-moodle.csv``: the names, ``ID number`` and ``Email address`` (the
  identifier Moodle's CSV import maps users by), the points, and a feedback column to map to the item's feedback.

A feedback text says the points and how they were found, from the same sentences as the student's report.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import replace
from typing import Callable, Sequence

from referee.grading.class_list import ClassList
from referee.grading.grade import Grade
from referee.grading.roster import CANVAS_IDENTITY, Roster, RosterStudent
from referee.grading.rule import Grading, points_text
from referee.store.results_dir import ResultsDir

#: Moodle's grading worksheet's columns this writes (as Moodle's English strings name them).
WORKSHEET_GRADE = "Grade"
WORKSHEET_FEEDBACK = "Feedback comments"


def roster_grades(grades: Sequence[Grade], class_list: ClassList, grading: Grading,
                  cells: Callable[[Grading, str], tuple[str, ...]] = lambda grading, why: ()) -> list[Grade]:
    """One grade per roster student, in the roster's order, under the roster's id (see the module's docstring);
    ``cells`` gives a student with no submission the detail cells of grades.csv."""
    by_bot = {g.bot: g for g in grades}
    out = []
    for placed in class_list.placed:
        student = placed.student
        grade = by_bot.get(placed.bot) if placed.bot is not None else None
        if grade is not None:
            out.append(replace(grade, student=student.id))
            continue
        points = grading.rounded(grading.missing)
        why = (f"no submission: nothing among the submissions matched their row of the roster "
               f"({class_list.roster.id_label} {student.id}, line {student.line})")
        out.append(Grade(student=student.id, bot="", points=points, details=cells(grading, why), left_out=why,
                         why=(f"points: **{points}** (the gradebook column `{grading.points_column}`, id "
                              f"`{student.id}`)", f"missing work gets {points_text(grading.missing)} points: {why}")))
    return out


def feedback(grade: Grade, grading: Grading) -> str:
    """The points explained in plain text, for a gradebook's feedback column."""
    lines = [re.sub(r"[*`]", "", line) for line in grade.why[1:]]
    return f"{grading.points_column}: {grade.points} points. " + " ".join(
        line[0].upper() + line[1:] + ("" if line.endswith(".") else ".") for line in lines if line)


def _csv(rows: Sequence[Sequence[str]]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerows(rows)
    return buf.getvalue()


def max_points(grading: Grading) -> float:
    """The most points the rule gives: Canvas's Points Possible for a new assignment column."""
    return max([grading.best, grading.worst, grading.rest, grading.left_out, grading.missing]
               + [p for _, p in grading.rating] + [p for _, p in grading.table])


def canvas_column(roster: Roster, grading: Grading) -> int | None:
    """The export's column of the assignment ``points_column`` names (``Last Card contest (4242)``), or None."""
    name = grading.points_column.strip()
    for i, cell in enumerate(roster.header):
        text = cell.strip()
        if text == name or re.fullmatch(re.escape(name) + r"\s*\(\d+\)", text):
            return i
    return None


def canvas_csv(roster: Roster, rows: Sequence[Grade], grading: Grading) -> tuple[str, str]:
    """grades-canvas.csv (its text) and a sentence on the assignment column."""
    keep = [i for i, h in enumerate(roster.header) if h.strip() in CANVAS_IDENTITY]
    column = canvas_column(roster, grading)
    title = roster.header[column].strip() if column is not None else grading.points_column
    possible = ""
    if column is not None and column < len(roster.points_possible):
        possible = roster.points_possible[column].strip()
    possible = possible or points_text(max_points(grading))
    out: list[list[str]] = [[roster.header[i] for i in keep] + [title]]
    points_row = ["" for _ in keep] + [possible]
    points_row[0] = "    Points Possible"
    out.append(points_row)
    by_id = {g.student: g for g in rows}
    for s in roster.students:
        out.append([s.cells[i] for i in keep] + [by_id[s.id].points])
    said = (f"the export's column {title!r} filled: Canvas updates that assignment" if column is not None else
            f"a new column {title!r} ({possible} points possible): Canvas's import offers to create the assignment")
    return _csv(out), said


def moodle_csv(roster: Roster, rows: Sequence[Grade], grading: Grading) -> tuple[str, str]:
    """grades-moodle.csv (its text) for a Moodle worksheet or gradebook export, and a sentence on how it imports."""
    by_id = {g.student: g for g in rows}
    if roster.shape == "moodle-worksheet":
        header = list(roster.header)
        names = [h.strip() for h in header]
        for column in (WORKSHEET_GRADE, WORKSHEET_FEEDBACK):  # Moodle's importer finds its columns by these names
            if column not in names:
                header.append(column)
                names.append(column)
        out = [header]
        for s in roster.students:
            row = list(s.cells) + [""] * (len(header) - len(s.cells))
            row[names.index(WORKSHEET_GRADE)] = by_id[s.id].points
            row[names.index(WORKSHEET_FEEDBACK)] = feedback(by_id[s.id], grading)
            out.append(row)
        return _csv(out), "the grading worksheet with Grade and Feedback comments filled: the assignment's \"Upload " \
                          "grading worksheet\" matches each row on its Identifier"
    out = [["First name", "Last name", "ID number", "Email address", grading.points_column,
            f"{grading.points_column} (feedback)"]]
    for s in roster.students:
        grade = by_id[s.id]
        out.append([*_moodle_names(roster, s), grade.points, feedback(grade, grading)])
    return _csv(out), "map \"Email address\" to the users' email address, the points column to the grade item and " \
                      "the feedback column to its feedback (Grades > Import > CSV file)"


def _moodle_names(roster: Roster, s: RosterStudent) -> list[str]:
    keys = [h.strip().casefold() for h in roster.header]

    def cell(name: str) -> str:
        return s.cells[keys.index(name)] if name in keys else ""

    return [cell("first name"), cell("last name"), cell("id number"), cell("email address")]


def platform_file(out_dir: str, rows: Sequence[Grade], grading: Grading, roster: Roster) -> tuple[str, str] | None:
    """The roster's platform's own gradebook file beside grades.csv (Canvas's export, Moodle's worksheet or
    gradebook), and what to do with it; None for a plain roster."""
    store = ResultsDir(out_dir)
    if roster.shape == "canvas":
        text, said = canvas_csv(roster, rows, grading)
        return store.write(ResultsDir.GRADES_CANVAS, text), f"{ResultsDir.GRADES_CANVAS}: {said}"
    if roster.shape in ("moodle", "moodle-worksheet"):
        text, said = moodle_csv(roster, rows, grading)
        return store.write(ResultsDir.GRADES_MOODLE, text), f"{ResultsDir.GRADES_MOODLE}: {said}"
    return None


def by_roster_id(grades: Sequence[Grade], class_list: ClassList) -> dict[str, Grade]:
    """Each bot's grade under its student's roster id (for the student's report)."""
    placed = {p.bot: p.student.id for p in class_list.placed if p.bot is not None}
    return {g.bot: (replace(g, student=placed[g.bot]) if g.bot in placed else g) for g in grades}
