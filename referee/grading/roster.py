"""A class roster: the file the teacher already has, read as the platform wrote it (``roster:``, ``--roster``).

Four shapes, told apart by the header row (each as its platform documents its export):

- **Canvas**'s gradebook export (Grades > Export): ``Student, ID, SIS User ID, SIS Login ID, Section``, then a
  column per assignment named ``Name (id)`` and Canvas's totals; a ``Points Possible`` row under the header.
  Students' names are sortable names with a comma, quoted (``"Benson, Ben"``). Its ``ID`` is the user id in
  Canvas's download names.
- **Moodle**'s grading worksheet (an assignment's "Download grading worksheet"): ``Identifier, Full name, Email
  address, Status, Grade, ...``; its ``Participant 205`` is the number in Moodle's download names.
- **Moodle**'s gradebook export (Export > Plain text file): ``First name, Last name, ID number, Institution,
  Department, Email address``, then the grade items.
- **a plain CSV**: ``id, name`` and optionally ``email`` and ``github`` (or ``username``), any case.

Every mistake is an ``InputFileError`` naming the file, the line, the value and the fix, raised before any game:
a header of none of these shapes (the columns found and the ones expected), a semicolon- or tab-separated file
(a spreadsheet set to a European locale), a row of another length than the header, a student without an id, an
id twice (both lines). The file itself goes through ``inputs.csvfile`` (UTF-8 with its BOM, other encodings named).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from referee.inputs.csvfile import Row, parse_rows
from referee.inputs.files import read_text, refuse
from referee.inputs.kinds import ROSTER
from referee.inputs.problems import InputFileError

#: Canvas's identity columns, as its export names them (the rest are assignments and totals).
CANVAS_IDENTITY = ("Student", "ID", "SIS User ID", "SIS Login ID", "Integration ID", "Root Account", "Section")
#: What each shape needs in its header (compared without case or surrounding spaces).
SHAPES = {
    "canvas": ("student", "id"),
    "moodle-worksheet": ("identifier", "full name"),
    "moodle": ("first name", "last name"),
    "plain": ("id", "name"),
}
SHAPE_NAMES = {"canvas": "a Canvas gradebook export", "moodle-worksheet": "a Moodle grading worksheet",
               "moodle": "a Moodle gradebook export", "plain": "a plain roster"}
EXPECTED = ("a Canvas gradebook export (Student, ID, SIS User ID, SIS Login ID, Section, ...), a Moodle grading "
            "worksheet (Identifier, Full name, Email address, ...), a Moodle gradebook export (First name, Last name, "
            "ID number, ..., Email address) or a plain CSV (id, name, email)")
#: The header of each shape's ids, as messages name it.
ID_LABELS = {"canvas": "ID", "moodle-worksheet": "Identifier", "moodle": "Email address", "plain": "id"}
PLAIN_EMAIL = ("email", "e-mail", "mail", "email address")
PLAIN_LOGIN = ("github", "username", "login", "user")


@dataclass(frozen=True)
class RosterStudent:
    """One student of the roster: the id the gradebook knows them by, their name, and every other id they have."""

    line: int
    id: str
    """The id written into the grades: Canvas's ``ID``, Moodle's ``Identifier`` or ``Email address``, the plain
    roster's ``id``."""
    name: str
    email: str = ""
    ids: tuple[tuple[str, str], ...] = ()
    """Other ids by kind: ``canvas``, ``sis_user``, ``sis_login``, ``participant``, ``idnumber``, ``login``."""
    cells: tuple[str, ...] = ()
    """The row as read (a platform's file is written back from it, its own cells untouched)."""

    def other(self, kind: str) -> str:
        """The id of ``kind`` ("" when the roster has none)."""
        return next((v for k, v in self.ids if k == kind), "")

    def described(self, id_label: str) -> str:
        """``Benson, Ben (ID 4411, line 3)``: the student as messages name them."""
        return f"{self.name} ({id_label} {self.id}, line {self.line})"


@dataclass(frozen=True)
class Roster:
    """A roster read: its shape, its header and students, in file order."""

    path: str
    shape: str
    header: tuple[str, ...]
    students: tuple[RosterStudent, ...]
    points_possible: tuple[str, ...] = ()
    """Canvas's ``Points Possible`` row, as read (empty for the other shapes)."""

    @property
    def id_label(self) -> str:
        """The header the students' ids are under, as messages name it."""
        return ID_LABELS[self.shape]

    def describe(self) -> str:
        """``class.csv: a Canvas gradebook export, 30 students``."""
        return f"{self.path}: {SHAPE_NAMES[self.shape]}, {len(self.students)} student" + \
            ("s" if len(self.students) != 1 else "")


def _key(cell: str) -> str:
    return " ".join(cell.strip().casefold().split())


def _column(header: tuple[str, ...], *names: str) -> int | None:
    """The index of the first header cell that is one of ``names`` (compared by ``_key``), or None."""
    keys = [_key(c) for c in header]
    for name in names:
        if name in keys:
            return keys.index(name)
    return None


def read_roster(where: str, path: str | None = None) -> Roster:
    """The roster in the file ``where``, named ``path`` in messages (as the arena file or the command line gave it),
    or ``InputFileError`` with the line and the fix."""
    path = path or where
    try:
        text = read_text(where, ROSTER)
    except InputFileError as exc:
        raise InputFileError(path, exc.problem) from None
    first = text.split("\n", 1)[0]
    _separator(path, 1, tuple(c for c in first.split(",")) if first else ())  # before a quote trips the reader
    rows = parse_rows(text, path, ROSTER)
    if not rows:
        raise refuse(path, f"the roster is empty; give {EXPECTED}")
    line, header_cells = rows[0]
    header = tuple(header_cells)
    shape = _shape(path, line, header)
    body = rows[1:]
    points: tuple[str, ...] = ()
    if shape == "canvas" and body and body[0][1] and body[0][1][0].strip() == "Points Possible":
        points = tuple(body[0][1])
        body = body[1:]
    students = [s for s in (_student(path, shape, header, row) for row in body) if s is not None]
    if not students:
        raise refuse(path, "the roster has a header but no student; give one row per student under it", line)
    _unique(path, shape, students)
    return Roster(path, shape, header, tuple(students), points)


def _separator(path: str, line: int, header: tuple[str, ...]) -> None:
    """A header (its first line split at commas) of no shape whose cells hold ``;`` or a tab: the file was saved
    with another separator."""
    if any(all(_column(header, n) is not None for n in needs) for needs in SHAPES.values()):
        return
    for sep, name in ((";", "semicolons"), ("\t", "tabs")):
        if any(sep in cell for cell in header):
            found = ", ".join(repr(c.strip()) for c in ",".join(header).split(sep)[:6])
            raise refuse(path, f"the columns are separated by {name}, not commas ({found}): a spreadsheet set to a "
                               "European language saves CSV so; save it again as \"CSV UTF-8 (comma delimited)\", or "
                               "export the roster from the course platform as it is", line)


def _shape(path: str, line: int, header: tuple[str, ...]) -> str:
    for shape, needs in SHAPES.items():
        if all(_column(header, n) is not None for n in needs):
            return shape
    found = ", ".join(repr(c) for c in header[:8]) + (", ..." if len(header) > 8 else "")
    raise refuse(path, f"the header row ({found}) is not a roster lastcard reads: expected {EXPECTED}; rename the "
                       "columns, or export the roster from the course platform again", line)


def _student(path: str, shape: str, header: tuple[str, ...], row: Row) -> RosterStudent | None:
    """One row as a student (None for a row that is none: Canvas's rows with no ID, such as its posting row)."""
    line, cells = row
    if len(cells) != len(header):
        hint = " (a name with a comma must be in quotes: \"Benson, Ben\")" if len(cells) > len(header) else ""
        raise refuse(path, f"this row has {len(cells)} cells where the header has {len(header)}{hint}; every row "
                           "needs a cell for each column", line)

    def cell(*names: str) -> str:
        index = _column(header, *names)
        return cells[index].strip() if index is not None else ""

    return _READERS[shape](path, line, cell, cells)


Cell = Callable[..., str]
"""A row's cell by its column's header (any of the names given)."""


def _canvas(path: str, line: int, cell: Cell, cells: list[str]) -> RosterStudent | None:
    if not cell("id") and not cell("student"):
        return None  # a row of Canvas's own (its posting policies), no student's
    ids = (("canvas", cell("id")), ("sis_user", cell("sis user id")), ("sis_login", cell("sis login id")))
    return _made(path, line, cell("id"), cell("student"), "", ids, cells, "ID")


def _worksheet(path: str, line: int, cell: Cell, cells: list[str]) -> RosterStudent | None:
    ident = cell("identifier")
    number = re.search(r"(\d+)\s*$", ident)
    if ident and number is None:
        raise refuse(path, f"the Identifier {ident!r} is not Moodle's \"Participant NUMBER\"; download the grading "
                           "worksheet from the assignment again", line)
    ids = (("participant", number.group(1) if number else ""),)
    return _made(path, line, ident, cell("full name"), cell("email address"), ids, cells, "Identifier")


def _moodle(path: str, line: int, cell: Cell, cells: list[str]) -> RosterStudent | None:
    email, number = cell("email address"), cell("id number")
    name = f"{cell('first name')} {cell('last name')}".strip()
    ids = (("idnumber", number), ("login", cell("username")))
    return _made(path, line, email or number, name, email, ids, cells, "Email address")


def _plain(path: str, line: int, cell: Cell, cells: list[str]) -> RosterStudent | None:
    ids = (("login", cell(*PLAIN_LOGIN)),)
    return _made(path, line, cell("id"), cell("name"), cell(*PLAIN_EMAIL), ids, cells, "id")


_READERS: dict[str, Callable[[str, int, Cell, list[str]], RosterStudent | None]] = {
    "canvas": _canvas, "moodle-worksheet": _worksheet, "moodle": _moodle, "plain": _plain}


def _made(path: str, line: int, ident: str, name: str, email: str, ids: tuple[tuple[str, str], ...],
          cells: list[str], label: str) -> RosterStudent:
    if not ident:
        who = f" for {name!r}" if name else ""
        raise refuse(path, f"no {label}{who}: every student needs one (the gradebook finds the student by it)", line)
    return RosterStudent(line, ident, name or ident, email, tuple((k, v) for k, v in ids if v), tuple(cells))


def _unique(path: str, shape: str, students: list[RosterStudent]) -> None:
    """An id twice is a mistake (which of the two rows gets the grade?): both lines named."""
    seen: dict[str, RosterStudent] = {}
    label = ID_LABELS[shape]
    for s in students:
        key = s.id.casefold()
        if key in seen:
            first = seen[key]
            raise refuse(path, f"the {label} {s.id!r} ({s.name}) is also on line {first.line} ({first.name}); each "
                               "student must be on the roster once, with an id of their own", s.line)
        seen[key] = s
