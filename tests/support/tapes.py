"""A tape maker that finishes every tape it was given before it closes, for tests that check which games a run hands
it: the real one stops at the games' end and leaves the rest to the page (its CPU time is only the idle kind)."""

from __future__ import annotations

from referee.html_report.tapes_beside import TapesBeside
from referee.store.results_dir import ResultsDir
from tests.support.procs import wait_until


class Drained(TapesBeside):
    """``TapesBeside`` whose ``close`` first waits (a minute at most) for a tape of every game it was given."""

    def close(self, wait: float = 5.0) -> None:
        if self._fd is not None:
            given = self._sent + self._sent_faulted
            path = ResultsDir(self.out_dir).tapes
            wait_until(lambda: _lines(path) >= given)
        super().close(wait)


def _lines(path: str) -> int:
    try:
        with open(path, "rb") as fh:
            return sum(1 for _ in fh)
    except FileNotFoundError:
        return 0
