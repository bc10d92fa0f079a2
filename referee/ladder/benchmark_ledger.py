"""The ladder's benchmark games: kept in its file by student, submission hash and tests, so a run plays only what a
new or changed submission needs (``referee.benchmarks.run.Ledger``)."""

from __future__ import annotations

from typing import Iterable, Mapping

from referee.ladder.store import LadderStore
from referee.store.results import GameLine


class LadderLedger:
    """Each student's benchmark games for its submission as it is now, under the tests ``key``."""

    def __init__(self, store: LadderStore, hashes: Mapping[str, str], key: str) -> None:
        self.store = store
        self.hashes = hashes
        self.key = key

    def stored(self, student: str) -> Iterable[GameLine]:
        return self.store.benchmark_games(student, self.hashes[student], self.key)

    def keep(self, student: str, line: GameLine) -> None:
        self.store.keep_benchmark_game(student, self.hashes[student], self.key, line)
