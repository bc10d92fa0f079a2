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
PAIR_FIELDS = ("bot_a", "bot_b", "points", "agreement", "baseline", "kappa", "z", "above_class", "stands_out",
               "reference", "explained", "beyond_kappa", "plays_reference")
BOT_FIELDS = ("bot", "self_agreement", "plays_at_random", "closest_reference", "reference_agreement")


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
    reference: str = ""
    """The reference policy that explains the most of the pair's agreement ("": none), at ``explained`` points."""
    explained: int = 0
    beyond_kappa: float | None = None
    """The kappa on the points ``reference`` does not explain (``None``: none explained, or none left)."""
    plays_reference: bool = False
    """Both answer as ``reference`` nearly always: their common start, reported as such, not as a copy."""


@dataclass(frozen=True)
class BotRow:
    """One bot asked: how often it gave the same answer when asked the same point again, and the reference policy
    it answers as most often."""

    bot: str
    self_agreement: float
    plays_at_random: bool
    closest_reference: str = ""
    reference_agreement: float | None = None


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
                         f"{p.z:.2f}", f"{p.above_class:.2f}", "yes" if p.stands_out else "no", p.reference,
                         p.explained, "" if p.beyond_kappa is None else f"{p.beyond_kappa:.4f}",
                         "yes" if p.plays_reference else "no"])
    return out.getvalue()


def bots_text(rows: Iterable[BotRow]) -> str:
    """similarity_bots.csv's text."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(BOT_FIELDS)
    for b in rows:
        writer.writerow([b.bot, f"{b.self_agreement:.4f}", "yes" if b.plays_at_random else "no", b.closest_reference,
                         "" if b.reference_agreement is None else f"{b.reference_agreement:.4f}"])
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
            bots = tuple(BotRow(r["bot"], float(r["self_agreement"]), r["plays_at_random"] == "yes",
                                r.get("closest_reference") or "", _maybe(r.get("reference_agreement")))
                         for r in csv.DictReader(fh))
    except FileNotFoundError:
        bots = ()
    return SimilarityFile(pairs, bots)


def _maybe(text: str | None) -> float | None:
    return float(text) if text else None


def _pair(r: dict[str, str]) -> PairRow:
    """A row; the columns a file of an earlier version lacks (no references) take their defaults."""
    return PairRow(r["bot_a"], r["bot_b"], int(r["points"]), float(r["agreement"]), float(r["baseline"]),
                   float(r["kappa"]), float(r["z"]), float(r["above_class"]), r["stands_out"] == "yes",
                   r.get("reference") or "", int(r.get("explained") or 0), _maybe(r.get("beyond_kappa")),
                   r.get("plays_reference") == "yes")
