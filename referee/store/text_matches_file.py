"""``text_matches.json``: the programs' text compared by ``lastcard similar`` (token fingerprints), as typed data:
every pair's shared fingerprints and similarity, and for the pairs worth reading the fragments they share with
both programs' lines. Its one reader and writer (``similar`` writes it, the report reads it back)."""

from __future__ import annotations

import json
from typing import TypedDict

from referee.store.results_dir import ResultsDir

NAME = ResultsDir.TEXT_MATCHES


class FragmentJson(TypedDict):
    """A shared fragment: each program's file, first and last line (1-based), and those lines."""

    a_file: str
    a_first: int
    a_lines: list[str]
    b_file: str
    b_first: int
    b_lines: list[str]


class TextPairJson(TypedDict):
    """One pair of programs: the fingerprints they share, Dolos's similarity, the fragments (only for the pairs
    worth reading: the others have none)."""

    a: str
    b: str
    shared: int
    similarity: float
    fragments: list[FragmentJson]


class TextMatchesJson(TypedDict):
    """The file: the settings that made the fingerprints, and every pair, most similar first."""

    k: int
    window: int
    base: str
    pairs: list[TextPairJson]


def write_text_matches(out_dir: str, data: TextMatchesJson) -> str:
    """Write the file into ``out_dir`` (whole or not at all); its path."""
    return ResultsDir(out_dir).write(NAME, json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def read_text_matches(out_dir: str) -> TextMatchesJson | None:
    """The file of ``out_dir`` (``None`` when it has none); ``ValueError``/``KeyError`` for one out of shape."""
    raw = ResultsDir(out_dir).read_inside(NAME)
    if raw is None:
        return None
    data = json.loads(raw)
    if not isinstance(data, dict) or not isinstance(data.get("pairs"), list):
        raise ValueError(f"{NAME}: not the file lastcard similar writes")
    return data  # type: ignore[return-value]
