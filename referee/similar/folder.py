"""A results folder's bots compared and the figures written beside its games: what ``lastcard similar``, an arena
file's ``similarity: true`` and the ladder's all run."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from referee.similar.agreement import Similarity
from referee.similar.asking import measure, plan
from referee.similar.fingerprints import TextMatch
from referee.similar.render import write_files
from referee.similar.text import text_evidence

#: Stored seats asked when no number of points is given.
DEFAULT_SCRIPTS = 12
#: Seats asked twice, to tell a bot that plays at random.
DEFAULT_AGAIN = 2


@dataclass(frozen=True)
class Compared:
    """The figures, where they were written, and how many bots were asked how many points."""

    similarity: Similarity
    path: str
    bots: int
    scripts: int
    texts: tuple[TextMatch, ...] = ()
    """The programs compared by their text, most alike first (text_matches.json)."""


def compare_folder(out_dir: str, *, seed: int = 1, points: int | None = None, scripts: int = DEFAULT_SCRIPTS,
                   again: int = DEFAULT_AGAIN, jobs: int = 1, bots: Sequence[str] | None = None,
                   note: Callable[[str], None] | None = None, references: bool = True) -> Compared:
    """Ask the bots of ``out_dir`` the same decision points (``points`` of them, else those of ``scripts`` seats)
    and write similarity.csv and similarity_bots.csv there (``references``: the reference policies asked too, what
    they explain set aside)."""
    p = plan(out_dir, scripts=scripts, seed=seed, bots=bots, points=points)
    if note is not None:
        note(f"asking {len(p.bots)} bots {len(p.points)} decision points from {len(p.scripts)} stored seats...")
    result = measure(p, again=again, jobs=jobs, with_references=references)
    path = write_files(out_dir, result)
    flagged = {frozenset((f.a, f.b)) for f in result.standing_out}
    texts = text_evidence(out_dir, {s.name: s for s in p.bots}, flagged)
    return Compared(result, path, len(p.bots), len(p.scripts), tuple(texts))
