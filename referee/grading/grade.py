"""A student's grade as one row type: the id, the points, the detail cells, the flag and what explains them.

grades.csv, grades.json, the platforms' gradebook files and each student's report are all written from these rows,
never from the standings again.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Grade:
    """One student's row of grades.csv, and what explains its points."""

    student: str
    """The id: the submission's folder name (the bot's name for an entrant given by command)."""
    bot: str
    points: str
    details: tuple[str, ...] = ()
    """The cells of ``detail_columns`` (the flag apart)."""
    flag: str = ""
    """Why the points are not certain ("" when they are)."""
    why: tuple[str, ...] = ()
    section: tuple[str, ...] = ()
    """Markdown lines of the student's report after the grade's lines (the benchmark tests)."""
    left_out: str = ""

    def cells(self, details: bool) -> list[str]:
        """The row of grades.csv."""
        return [self.student, self.points, *self.details, self.flag] if details else [self.student, self.points]


@dataclass(frozen=True)
class GradesWritten:
    """What ``write_grades`` did: the file (None when the rule held it back), each student's grade by bot name,
    and what the terminal and the reports should say about the class."""

    path: str | None
    grades: dict[str, Grade]
    notes: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    """The gradebook files in a platform's own shape written beside grades.csv (``roster:``)."""
