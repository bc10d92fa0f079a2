"""Classes as course platforms deliver them (issue 48), for the tests and ``bench/roster_bench.py``.

Each builder writes a download as the platform names its files (``referee/builds/download_names.py`` cites how),
the roster the teacher exports from the same platform (a header row with a UTF-8 BOM, quoted names with commas,
Canvas's ``Points Possible`` row) and an arena file over them, and returns what the class should come to.
"""

from __future__ import annotations

import io
import shutil
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON_KIT = ROOT / "sample_bots" / "python"
BOM = "\ufeff"

FIRST = ["Ben", "Jun", "Dan", "Hana", "Zoé", "Pat", "Ann", "Ravi", "Lena", "Omar", "Iris", "Tom", "Mei", "Sam", "Eva",
         "Ola", "Kai", "Noor", "Luca", "Ada", "Yuki", "Finn", "Sara", "Ali", "Nina", "Igor", "Rosa", "Theo", "Amy",
         "Raj", "Lou", "Emil"]
LAST = ["Benson", "Kim", "Daniels", "Ito", "Martin", "O'Brien", "Lee", "Patel", "Novak", "Haddad", "Berg", "Ruiz",
        "Chen", "Okafor", "Rossi", "Nilsen", "Tanaka", "Khan", "Bianchi", "Lovelace", "Sato", "Murphy", "Costa",
        "Aziz", "Ivanova", "Petrov", "Garcia", "Dubois", "Wong", "Singh", "Moreau", "Larsen"]

ARENA = """\
name: {name}
seed: 7
ruleset: arcade
seats: 4
format: sampled
games: {games}
bootstrap: 20
limits: {{move_ms: 2000}}
roster: {roster}
bots:
  - submissions: {{path: "{download}/*"}}
  - builtin:medium
grading:
  by: rank
  best: 100
  worst: 60
  left_out: 10
  missing: 0
  points_column: {column}
"""


@dataclass(frozen=True)
class Student:
    first: str
    last: str
    user_id: str
    how: str
    """``files`` (bot.py and botkit.py), ``flat`` (one file), ``zip``, ``missing``, ``late``."""

    @property
    def sortable(self) -> str:
        return f"{self.last}, {self.first}"

    @property
    def canvas_slug(self) -> str:
        return "".join(c for c in self.sortable if c.isalnum() or c == "_").lower()


@dataclass
class PlatformClass:
    """A class written to disk: the arena file, the roster, the download, and each student's expected fate."""

    root: Path
    arena: Path
    roster: Path
    download: Path
    students: list[Student] = field(default_factory=list)

    def by(self, how: str) -> list[Student]:
        return [s for s in self.students if s.how == how]


def _zip_of_folder(folder_name: str, files: dict[str, bytes], junk: bool = True) -> bytes:
    """A zip as a student makes one of their folder on a Mac (a top folder, and macOS's ``__MACOSX`` forks)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(f"{folder_name}/", b"")
        for name, data in files.items():
            zf.writestr(f"{folder_name}/{name}", data)
            if junk:
                zf.writestr(f"__MACOSX/{folder_name}/._{name}", b"\0\5\26\7")
    return buf.getvalue()


def _bot_files(strong: bool) -> dict[str, bytes]:
    if strong:
        return {"bot.py": (PYTHON_KIT / "strong_bot.py").read_bytes(),
                "botkit.py": (PYTHON_KIT / "botkit.py").read_bytes()}
    return {"bot.py": (PYTHON_KIT / "random_bot.py").read_bytes()}


def plan_class(size: int = 30, zips: int = 5, late: int = 2, flat: int = 1, missing: int = 1) -> list[Student]:
    """The students of a class: ``zips`` hand in a zip, ``late`` two files late, ``flat`` one file, ``missing``
    nothing; the rest two files (bot.py and botkit.py), each as its own upload."""
    hows = ["zip"] * zips + ["late"] * late + ["flat"] * flat + ["missing"] * missing
    hows += ["files"] * (size - len(hows))
    return [Student(FIRST[i % len(FIRST)], LAST[i % len(LAST)] + ("" if i < len(LAST) else str(i)), str(4411 + i),
                    hows[i]) for i in range(size)]


def canvas_class(root: Path, students: list[Student] | None = None, games: int = 4, column: str = "Last Card contest",
                 assignment_id: str = "4242") -> PlatformClass:
    """A Canvas class: ``download/`` as "Download Submissions" unzips, ``roster.csv`` as the gradebook's export."""
    students = students if students is not None else plan_class()
    download = root / "download"
    download.mkdir(parents=True)
    attachment = 99812
    for i, s in enumerate(students):
        strong = i % 3 == 0
        late = "LATE_" if s.how == "late" else ""
        prefix = f"{s.canvas_slug}_{late}{s.user_id}"
        if s.how == "missing":
            continue
        if s.how == "zip":
            (download / f"{prefix}_{attachment}_Bot.zip").write_bytes(
                _zip_of_folder(s.canvas_slug, _bot_files(strong)))
            attachment += 1
            continue
        files = _bot_files(strong and s.how != "flat")
        for name, data in files.items():
            (download / f"{prefix}_{attachment}_{name}").write_bytes(data)
            attachment += 1
    roster = root / "roster.csv"
    header = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", f"{column} ({assignment_id})",
              "Quiz 1 (4243)", "Current Points", "Final Points"]
    lines = [",".join(header),
             ",".join(["    Points Possible", "", "", "", "", "100.00", "10.00", "(read only)", "(read only)"])]
    for s in students:
        lines.append(",".join([f'"{s.sortable}"', s.user_id, f"s{s.user_id}", f"{s.first.lower()}{s.user_id}",
                               '"Section 1, Mon"', "", "8.00", "8.00", "8.00"]))
    roster.write_text(BOM + "\r\n".join(lines) + "\r\n", encoding="utf-8")
    arena = root / "class.yaml"
    arena.write_text(ARENA.format(name="canvas-class", games=games, roster="roster.csv", download="download",
                                  column=column))
    return PlatformClass(root, arena, roster, download, students)


def moodle_class(root: Path, students: list[Student] | None = None, games: int = 4, flat: bool = False,
                 column: str = "Last Card contest") -> PlatformClass:
    """A Moodle class: ``download/`` as "Download all submissions" unzips (a folder per student, or ``flat``
    files), ``worksheet.csv`` as the assignment's grading worksheet."""
    students = students if students is not None else plan_class(8, zips=2, late=0, flat=1, missing=1)
    download = root / "download"
    download.mkdir(parents=True)
    for i, s in enumerate(students):
        if s.how == "missing":
            continue
        prefix = f"{s.first} {s.last}_{s.user_id}_assignsubmission_file_"
        files = _bot_files(i % 2 == 0 and s.how != "flat")
        if s.how == "zip":
            files = {"bot.zip": _zip_of_folder("mybot", files, junk=False)}
        if flat:
            for name, data in files.items():
                (download / f"{prefix}{name}").write_bytes(data)
        else:
            (download / prefix).mkdir()
            for name, data in files.items():
                (download / prefix / name).write_bytes(data)
    roster = root / "worksheet.csv"
    header = ["Identifier", "Full name", "Email address", "Status", "Grade", "Maximum Grade", "Grade can be changed",
              "Last modified (submission)", "Last modified (grade)", "Feedback comments"]
    lines = [",".join(header)]
    for s in students:
        status = "No submission" if s.how == "missing" else "Submitted for grading"
        lines.append(",".join([f"Participant {s.user_id}", f'"{s.first} {s.last}"', f"{s.first.lower()}@uni.example",
                               status, "", "100.00", "Yes", '"Monday, 3 March 2025, 10:00 AM"', "-", ""]))
    roster.write_text(BOM + "\n".join(lines) + "\n", encoding="utf-8")
    arena = root / "class.yaml"
    arena.write_text(ARENA.format(name="moodle-class", games=games, roster="worksheet.csv", download="download",
                                  column=column))
    return PlatformClass(root, arena, roster, download, students)


def github_class(root: Path, students: list[Student], assignment: str = "last-card-2025", games: int = 4
                 ) -> PlatformClass:
    """GitHub Classroom: a folder per student named ``assignment-username``, and a plain roster (id, name, email,
    github)."""
    download = root / "repos"
    download.mkdir(parents=True)
    for i, s in enumerate(students):
        if s.how == "missing":
            continue
        folder = download / f"{assignment}-{s.first.lower()}-gh"
        folder.mkdir()
        for name, data in _bot_files(i % 2 == 0).items():
            (folder / name).write_bytes(data)
    roster = root / "roster.csv"
    lines = ["id,name,email,github"] + [f's{s.user_id},"{s.first} {s.last}",{s.first.lower()}@uni.example,'
                                        f"{s.first.lower()}-gh" for s in students]
    roster.write_text("\n".join(lines) + "\n", encoding="utf-8")
    arena = root / "class.yaml"
    arena.write_text(ARENA.format(name="github-class", games=games, roster="roster.csv", download="repos",
                                  column="Last Card contest"))
    return PlatformClass(root, arena, roster, download, students)


def copy_kit(folder: Path) -> None:
    """A plain student folder: the strong bot and its kit."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(PYTHON_KIT / "strong_bot.py", folder / "bot.py")
    shutil.copy(PYTHON_KIT / "botkit.py", folder / "botkit.py")


