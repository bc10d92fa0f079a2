"""``collusion.csv``: what ``lastcard collusion`` keeps in a results folder, as typed rows (its one reader and
writer: ``collusion`` writes it, the report reads it back; the two packages do not import each other).

A row a pair of bots, the strongest evidence first: the tables they shared, their joint gain from the games
played again (what each gained from the other's presence, summed) and its p-value, each direction's chances to
hurt the other (taken, and against every other seat) with its p-value, the smallest Holm-adjusted p-value, whether
it is a pair to look at, and a note when a test could not be made.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, fields
from typing import Iterable

from referee.store.results_dir import ResultsDir

NAME = ResultsDir.COLLUSION


@dataclass(frozen=True)
class CollusionRow:
    """One pair's figures as the file keeps them (``None``: not measured; the file leaves the cell empty)."""

    bot_a: str
    bot_b: str
    tables: int
    replayed: int
    """Stored games both sat at that were played again both ways (without A, without B)."""
    joint_gain: float | None
    a_from_b: float | None
    """What A gained (place score, 1 first to 0 last) when B sat at its table, beyond the others there."""
    b_from_a: float | None
    p_joint: float | None
    b_hit_a_chances: int
    b_hit_a: int
    b_hit_others_chances: int
    b_hit_others: int
    p_b_spares_a: float | None
    a_hit_b_chances: int
    a_hit_b: int
    a_hit_others_chances: int
    a_hit_others: int
    p_a_spares_b: float | None
    p_adjusted: float | None
    look: bool
    note: str = ""


FIELDS = tuple(f.name for f in fields(CollusionRow))


def _cell(value: object) -> object:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4g}" if 0 < abs(value) < 1e-3 else f"{value:.4f}"
    return value


def collusion_text(rows: Iterable[CollusionRow]) -> str:
    """collusion.csv's text."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(FIELDS)
    for row in rows:
        writer.writerow([_cell(getattr(row, name)) for name in FIELDS])
    return out.getvalue()


def write_collusion(out_dir: str, rows: Iterable[CollusionRow]) -> str:
    """Write collusion.csv into ``out_dir`` (whole or not at all); its path."""
    return ResultsDir(out_dir).write(NAME, collusion_text(rows))


def read_collusion(out_dir: str) -> tuple[CollusionRow, ...] | None:
    """The rows of ``out_dir``'s collusion.csv (``None`` when it has none); ``KeyError``/``ValueError`` for a
    file edited out of shape."""
    try:
        with open(ResultsDir(out_dir).file(NAME), encoding="utf-8", newline="") as fh:
            return tuple(_row(r) for r in csv.DictReader(fh))
    except FileNotFoundError:
        return None


def _number(text: str) -> float | None:
    return float(text) if text != "" else None


def _row(r: dict[str, str]) -> CollusionRow:
    ints = ("tables", "replayed", "b_hit_a_chances", "b_hit_a", "b_hit_others_chances", "b_hit_others",
            "a_hit_b_chances", "a_hit_b", "a_hit_others_chances", "a_hit_others")
    values: dict[str, object] = {}
    for name in FIELDS:
        text = r[name]
        if name in ("bot_a", "bot_b", "note"):
            values[name] = text
        elif name == "look":
            values[name] = text == "yes"
        elif name in ints:
            values[name] = int(text)
        else:
            values[name] = _number(text)
    return CollusionRow(**values)  # type: ignore[arg-type]
