"""The run's programs compared by their text (``fingerprints``), the starter kits' code left out, and the file
written for the report: every pair's figure, and for the pairs worth reading (those whose play stands out, and
those whose text is ``TEXT_FLAG`` alike or more) the fragments they share, with both programs' lines."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Collection, Mapping

from referee.bots.spec import BotSpec
from referee.similar.fingerprints import (
    K,
    Program,
    TextMatch,
    W,
    base_prints,
    match,
    named_files,
    program,
    source_files,
)
from referee.similar.references import KITS
from referee.store.text_matches_file import FragmentJson, TextMatchesJson, TextPairJson, write_text_matches

#: A text similarity (Dolos's, 0 to 1) at which a pair's fragments are kept for the report.
TEXT_FLAG = 0.5
#: The most fragments, and lines of a fragment, kept per pair (a whole copied file shows as its first lines).
MOST_FRAGMENTS = 12
MOST_LINES = 40
#: The bot kit copied into Python bots' folders: starter code too.
BOTKIT = Path(__file__).resolve().parents[1] / "botkit.py"


def starter_files() -> list[str]:
    """The starter code: every kit's files, and the Python bot kit."""
    found = [str(p) for p in sorted(KITS.rglob("*")) if p.is_file() and p.suffix not in (".md", ".npz")]
    return found + ([str(BOTKIT)] if BOTKIT.is_file() else [])


def programs(specs: Mapping[str, BotSpec]) -> list[Program]:
    """Each program bot's source, fingerprinted, the starter code's fingerprints left out (built-ins have none)."""
    base = base_prints(starter_files())
    bots = {name: spec for name, spec in sorted(specs.items()) if spec.builtin is None}
    folders = Counter(os.path.dirname(f) for spec in bots.values() for f in set(named_files(spec.cwd, spec.command)))
    shared = frozenset(folder for folder, count in folders.items() if count > 1)
    return [program(name, source_files(spec.cwd, spec.command, shared), base) for name, spec in bots.items()]


def compare_texts(found: list[Program]) -> list[TextMatch]:
    """Every pair of programs with text to compare, most alike first."""
    pairs = [match(a, b) for i, a in enumerate(found) for b in found[i + 1:] if a.tokens and b.tokens]
    return sorted(pairs, key=lambda m: (-m.similarity, m.a, m.b))


def _lines(p: Program, file: str, first: int, last: int) -> list[str]:
    return p.lines.get(file, [])[first - 1:min(last, first + MOST_LINES - 1)]


def to_json(found: list[Program], pairs: list[TextMatch], flagged: Collection[frozenset[str]]) -> TextMatchesJson:
    """The file's data: fragments with their lines for the pairs flagged by play and those alike in text."""
    by_name = {p.name: p for p in found}
    out: list[TextPairJson] = []
    for m in pairs:
        keep = m.similarity >= TEXT_FLAG or frozenset((m.a, m.b)) in flagged
        frags: list[FragmentJson] = []
        if keep:
            a, b = by_name[m.a], by_name[m.b]
            frags = [{"a_file": f.a_file, "a_first": f.a_first, "a_lines": _lines(a, f.a_file, f.a_first, f.a_last),
                      "b_file": f.b_file, "b_first": f.b_first, "b_lines": _lines(b, f.b_file, f.b_first, f.b_last)}
                     for f in m.fragments[:MOST_FRAGMENTS]]
        out.append({"a": m.a, "b": m.b, "shared": m.shared, "similarity": round(m.similarity, 4),
                    "fragments": frags})
    return {"k": K, "window": W, "base": "sample_bots/ and the bot kit", "pairs": out}


def text_evidence(out_dir: str, specs: Mapping[str, BotSpec], flagged: Collection[frozenset[str]]) -> list[TextMatch]:
    """Compare the programs' text and write text_matches.json into ``out_dir``; the pairs, most alike first."""
    found = programs(specs)
    pairs = compare_texts(found)
    write_text_matches(out_dir, to_json(found, pairs, flagged))
    return pairs
