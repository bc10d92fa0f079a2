"""A small class of Python bots for the benchmark tests: ``strong`` (the sample strong bot: far above easy and
medium) and ``random`` (the sample random bot: below easy), in submission folders beside an arena file."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON = ROOT / "sample_bots" / "python"
BOTS = {"strong": "strong_bot.py", "random": "random_bot.py"}

#: Two bands and a quick test (H1 needs 12 pairs at least): a strong bot is decided in a few dozen games.
GRADED = """\
name: graded
seed: 3
ruleset: compact
policy: strikes:3
grading:
  by: benchmarks
  bands:
    - {bot: "builtin:easy", points: 60}
    - {bot: "builtin:medium", points: 80}
  below: 40
  test: {elo0: 0, elo1: 100, alpha: 0.05, beta: 0.05}
  games: 300
  left_out: 5
  points_column: Bots
bots:
  - submissions: {path: "students/*"}
"""


def make_class(folder: Path, students: dict[str, str], arena: str = GRADED) -> Path:
    """``folder/students/NAME/bot.py`` for each ``NAME: kind`` (a kind of ``BOTS``, or "" for an empty folder),
    and ``folder/graded.yaml``; the arena file's path."""
    shutil.rmtree(folder / "students", ignore_errors=True)
    for name, kind in students.items():
        sub = folder / "students" / name
        sub.mkdir(parents=True)
        if kind:
            shutil.copy(PYTHON / BOTS[kind], sub / "bot.py")
            shutil.copy(PYTHON / "botkit.py", sub / "botkit.py")
    path = folder / "graded.yaml"
    path.write_text(arena)
    return path


def grade_rows(csv_path: Path) -> dict[str, str]:
    """Each student's row of grades.csv, as its raw line (the bytes a gradebook imports)."""
    lines = csv_path.read_bytes().decode("utf-8").split("\r\n")
    return {line.split(",", 1)[0]: line for line in lines[1:] if line}


def grades(csv_path: Path) -> dict[str, dict[str, str]]:
    with csv_path.open(encoding="utf-8", newline="") as fh:
        return {r["student"]: r for r in csv.DictReader(fh)}
