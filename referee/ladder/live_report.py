"""The replay viewer of a ladder run's live page: the ladder keeps its games in its file, not in games.jsonl, so
the viewer is made from the file (in the server's own read-only connection) as a game is opened."""

from __future__ import annotations

import os
import sqlite3
from typing import Callable

from referee.ladder.store import LadderError, open_ladder
from referee.store.results_dir import ResultsDir


def live_report(db: str, out_dir: str) -> Callable[[str], str]:
    """What writes the viewer into the scratch folder it is given: the games played so far, not retired, read
    from the ladder file ``db``, and their notes from the run's report folder ``out_dir``."""
    def write(scratch: str) -> str:
        from referee.html_report import write_report  # the report's modules: only when a game is opened

        try:
            with open_ladder(db, write=False, create=False) as store:
                ResultsDir(scratch).games_log.write(g.line for g in store.iter_games(played=True) if g.line)
        except sqlite3.Error as exc:  # the run is writing it: the next request tries again
            raise LadderError(f"the ladder file {db} cannot be read just now: {exc}") from None
        _share_notes(out_dir, scratch)
        return write_report(scratch)
    return write


def _share_notes(out_dir: str, scratch: str) -> None:
    """The run's notes file, seen from the scratch folder (links: the run appends to it as games end)."""
    for name in (ResultsDir.NOTES, ResultsDir.NOTES_INDEX):
        source, link = ResultsDir(out_dir).file(name), ResultsDir(scratch).file(name)
        if os.path.exists(source) and not os.path.lexists(link):
            os.symlink(source, link)
