"""``similarity.csv`` and ``similarity_bots.csv``: what ``lastcard similar`` keeps in a results folder, as typed rows.

The one reader and writer of the two files: ``similar`` writes them, the report reads them back (the two
packages do not import each other). ``similarity.csv`` has a row a pair compared, closest first;
``similarity_bots.csv`` a row a bot asked, with its agreement with itself when asked twice (a bot that plays
at random has no pairs, so only this file names it).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Iterable

from referee.store.results_dir import ResultsDir

#: The pairs' file and the bots' file, in the results folder (a fresh start removes them with the run's files).
PAIRS_NAME = ResultsDir.SIMILARITY
BOTS_NAME = ResultsDir.SIMILARITY_BOTS
PAIR_FIELDS = ("bot_a", "bot_b", "points", "agreement", "baseline", "kappa", "z", "above_class", "stands_out")
BOT_FIELDS = ("bot", "self_agreement", "plays_at_random")


@dataclass(frozen=True)
class PairRow:
    """One pair's figures as the file keeps them."""

    bot_a: str
    bot_b: str
    points: int
    agreement: float
    baseline: float
    kappa: float
    z: float
    above_class: float
    stands_out: bool


@dataclass(frozen=True)
class BotRow:
    """One bot asked: how often it gave the same answer when asked the same point again."""

    bot: str
    self_agreement: float
    plays_at_random: bool


@dataclass(frozen=True)
class SimilarityFile:
    """Both files read back: every pair compared and every bot asked."""

    pairs: tuple[PairRow, ...]
    bots: tuple[BotRow, ...]


def pairs_text(rows: Iterable[PairRow]) -> str:
    """similarity.csv's text."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(PAIR_FIELDS)
    for p in rows:
        writer.writerow([p.bot_a, p.bot_b, p.points, f"{p.agreement:.4f}", f"{p.baseline:.4f}", f"{p.kappa:.4f}",
                         f"{p.z:.2f}", f"{p.above_class:.2f}", "yes" if p.stands_out else "no"])
    return out.getvalue()


def bots_text(rows: Iterable[BotRow]) -> str:
    """similarity_bots.csv's text."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(BOT_FIELDS)
    for b in rows:
        writer.writerow([b.bot, f"{b.self_agreement:.4f}", "yes" if b.plays_at_random else "no"])
    return out.getvalue()


def write_similarity(out_dir: str, pairs: Iterable[PairRow], bots: Iterable[BotRow]) -> str:
    """Write both files into ``out_dir`` (each whole or not at all); the pairs' file's path."""
    folder = ResultsDir(out_dir)
    for name, text in ((BOTS_NAME, bots_text(bots)), (PAIRS_NAME, pairs_text(pairs))):
        folder.write(name, text)
    return folder.file(PAIRS_NAME)


def read_similarity(out_dir: str) -> SimilarityFile | None:
    """The two files of ``out_dir`` (``None`` when there is no similarity.csv; no bots' file: no bot rows)."""
    folder = ResultsDir(out_dir)
    try:
        with open(folder.file(PAIRS_NAME), encoding="utf-8", newline="") as fh:
            pairs = tuple(_pair(r) for r in csv.DictReader(fh))
    except FileNotFoundError:
        return None
    try:
        with open(folder.file(BOTS_NAME), encoding="utf-8", newline="") as fh:
            bots = tuple(BotRow(r["bot"], float(r["self_agreement"]), r["plays_at_random"] == "yes")
                         for r in csv.DictReader(fh))
    except FileNotFoundError:
        bots = ()
    return SimilarityFile(pairs, bots)


def _pair(r: dict[str, str]) -> PairRow:
    return PairRow(r["bot_a"], r["bot_b"], int(r["points"]), float(r["agreement"]), float(r["baseline"]),
                   float(r["kappa"]), float(r["z"]), float(r["above_class"]), r["stands_out"] == "yes")
