#!/usr/bin/env python3
"""A class of 30 delivered as a Canvas download, from the folder to the file Canvas imports (issue 48).

Run by hand (not part of the test suite)::

    python bench/roster_bench.py [--reps 5] [--play] [--json FILE]

Builds the class with ``tests/support/platform_class.py``: 30 students on a Canvas gradebook export (a header row
with a BOM, quoted "Last, First" names, the Points Possible row); in ``download/``, as Canvas's "Download
Submissions" unzips, 5 students' zips (a folder and macOS's ``__MACOSX`` forks inside), 2 students marked LATE,
1 student's single file, 21 more students' files (bot.py, and botkit.py beside it for a third of them: each file
its own entry, as Canvas names them), 1 student with nothing. Then:

- **manual steps**: what a teacher had to do by hand before this change to get from that folder to a file Canvas
  imports (counted from the download: a folder to make per student, each file to rename into it with Canvas's
  prefix taken off, each zip to unpack, the join of grades.csv to the export by name, a row to add per student
  with no submission), and what is left now (the arena file's ``roster:`` and ``submissions: {path:
  "download/*"}`` lines, then ``lastcard arena``): counted as what the run's output still lacks, checked cell by
  cell (every roster student a row, the export's identity cells, the assignment column filled, missing work 0);
- **time**: ``load_arena`` (what ``validate`` and ``arena`` do before any game) on the download with the roster,
  the first time (each folder made: zips unpacked, files grouped; a fresh unpack folder) and again (every folder
  found made), against the same submissions already as plain folders without a roster; the median wall and CPU
  (this process's) time of ``--reps``.

``--play`` also runs ``lastcard arena`` on the class (4 games a bot, the default sandbox) and checks the file it
writes for Canvas, as above; without it, the grades are checked from a run with the games replaced by nothing
(``write_roster_grades`` on empty standings: every student then gets the left-out or missing grade).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from referee.arena.config import load_arena  # noqa: E402
from referee.builds.archives import archive_format  # noqa: E402
from referee.builds.download_names import read_name  # noqa: E402
from tests.support.platform_class import PlatformClass, canvas_class, plan_class  # noqa: E402


def manual_steps_before(cls: PlatformClass) -> dict[str, int]:
    """What the teacher did by hand before: read off the download and the roster."""
    entries = sorted(cls.download.iterdir())
    students = {read_name(p.name).student for p in entries}
    return {"folders to make, one per student": len(students),
            "files to move and rename (Canvas's prefix off)": sum(1 for p in entries if archive_format(p.name) is None),
            "zips to unpack (or excluded unsaid by the shipped exclude)": sum(1 for p in entries
                                                                              if archive_format(p.name) is not None),
            "joins of grades.csv to the export (by name)": 1,
            "rows to add for students with no submission": sum(1 for s in cls.students if s.how == "missing")}


def missing_cells(cls: PlatformClass, canvas_file: Path, grades_file: Path) -> list[str]:
    """What the written files still lack before Canvas takes them: each a manual step left (none wanted)."""
    table = list(csv.reader(io.StringIO(canvas_file.read_text(encoding="utf-8"), newline="")))
    roster = list(csv.reader(io.StringIO(cls.roster.read_text(encoding="utf-8-sig"), newline="")))
    want_header = roster[0][:5] + [roster[0][5]]
    lacking = []
    if table[0] != want_header:
        lacking.append(f"header {table[0]} is not {want_header}")
    if table[1][0].strip() != "Points Possible" or not table[1][-1]:
        lacking.append("the Points Possible row")
    with grades_file.open(encoding="utf-8", newline="") as fh:
        points = {r["student"]: r["Last Card contest"] for r in csv.DictReader(fh)}
    rows = {r[1]: r for r in table[2:]}
    for s, want in zip(cls.students, roster[2:]):
        row = rows.get(s.user_id)
        if row is None:
            lacking.append(f"a row for {s.sortable}")
        elif row[:5] != want[:5] or row[-1] in ("", None) or row[-1] != points.get(s.user_id):
            lacking.append(f"{s.sortable}'s cells {row}")
        elif s.how == "missing" and row[-1] != "0":
            lacking.append(f"{s.sortable}'s missing work as 0")
    return lacking


def as_plain_folders(cls: PlatformClass, root: Path) -> Path:
    """The same submissions as the folders a teacher made by hand (the made folders copied), no roster."""
    arena = load_arena(str(cls.arena))
    students = root / "students"
    for b in arena.bots:
        if b.submission and os.path.isdir(b.submission):
            shutil.copytree(b.submission, students / b.spec.name)
    text = cls.arena.read_text().replace('path: "download/*"', 'path: "students/*"').replace("roster: roster.csv\n", "")
    path = root / "plain.yaml"
    path.write_text(text)
    return path


def timed_load(path: Path, reps: int, fresh: bool) -> tuple[float, float]:
    """The median wall and CPU seconds of ``load_arena`` (``fresh``: a new unpack folder each time)."""
    walls, cpus = [], []
    for _ in range(reps):
        if fresh:
            os.environ["LASTCARD_UNPACK_DIR"] = tempfile.mkdtemp(prefix="unpack-", dir=path.parent)
        t0, c0 = time.perf_counter(), time.process_time()
        load_arena(str(path))
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return round(statistics.median(walls), 3), round(statistics.median(cpus), 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--play", action="store_true", help="also run the arena and check the file it writes")
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="roster-bench-") as tmp:
        root = Path(tmp)
        os.environ["LASTCARD_UNPACK_DIR"] = str(root / "unpack")
        os.environ.setdefault("LASTCARD_BUILD_CACHE", str(root / "build-cache"))
        cls = canvas_class(root / "class", plan_class(30, zips=5, late=2, flat=1, missing=1), games=4)
        entries = len(list(cls.download.iterdir()))
        before = manual_steps_before(cls)
        cold = timed_load(cls.arena, args.reps, fresh=True)
        os.environ["LASTCARD_UNPACK_DIR"] = str(root / "unpack")
        load_arena(str(cls.arena))
        warm = timed_load(cls.arena, args.reps, fresh=False)
        plain = timed_load(as_plain_folders(cls, root / "plain"), args.reps, fresh=False)
        out = root / "out"
        t0 = time.perf_counter()
        if args.play:
            res = subprocess.run([sys.executable, "-m", "referee.cli.entry", "arena", str(cls.arena), "--out", str(out),
                                  "-q", "--check-games", "0", "--no-report"], cwd=REPO, capture_output=True, text=True)
            if res.returncode != 0:
                sys.exit(f"the arena failed:\n{res.stdout}\n{res.stderr}")
        else:
            from referee.grading.gradebook import write_roster_grades
            from referee.standings.model import Standings

            arena = load_arena(str(cls.arena))
            assert arena.grading is not None and arena.class_list is not None
            write_roster_grades(str(out), Standings(rows=()), arena.bots, arena.grading, arena.class_list)
        run_s = time.perf_counter() - t0
        left = missing_cells(cls, out / "grades-canvas.csv", out / "grades.csv")
    figures = {"students": len(cls.students), "download entries": entries, "manual steps before": before,
               "manual steps before, total": sum(before.values()), "manual steps now": len(left), "lacking": left,
               "load with roster, first (wall s, CPU s)": cold, "load with roster, again (wall s, CPU s)": warm,
               "load of plain folders, no roster (wall s, CPU s)": plain,
               ("arena run (s)" if args.play else "grades written (s)"): round(run_s, 2)}
    for key, value in figures.items():
        print(f"{key}: {value}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
