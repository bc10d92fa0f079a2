"""The checks behind the bot reports, run beside the contest's games instead of after them (issue 51).

Each student's report (``OUT/bots/NAME.md``) carries a ``lastcard check`` of their bot as the contest runs it:
a scripted suite and a few fuzz games. They depend on the bots as built, not on the games, and they mostly wait
(for a bot's quiet, its start-up): after the games they were a quarter of a class arena's wall time. So they
start as the games do, on threads of their own, with the arena as it is played: the bots as built, those left
out gone.
"""

from __future__ import annotations

from typing import Any, Callable

from referee.arena.model import Arena
from referee.bots.entry import BotEntry
from referee.run.background import Background

#: Checks run side by side, at least (more with more workers): a check mostly waits, for a bot's start-up and the
#: quiet after its answers, so more at once than the cores fill the waits. A class of 30 on 2 cores
#: (bench/class_bench.py --reports): the reports' time after the games 4.5-4.7 s two at once, 1.8 s four at once
#: (1.6-2.0 s eight), its games' time the same.
AT_ONCE = 4
#: A bot's check report (``CheckReport.to_json``), by bot name.
Checks = dict[str, dict[str, Any]]


def checked_bots(arena: Arena) -> list[BotEntry]:
    """The bots of ``arena`` a check runs: its programs (built-in players need none)."""
    return [e for e in arena.bots if e.spec.builtin is None and not e.unusable]


class ChecksBeside:
    """``games`` fuzz games for each bot program of the arena as played, ``jobs`` checks at a time, on a thread.

    ``start`` is ``run_arena``'s ``beside`` hook (called once, as the games begin); ``result`` waits for the
    checks, or starts them then when no game did (a finished arena resumed, say).
    """

    def __init__(self, games: int, jobs: int, note: Callable[[str], None]) -> None:
        self.games = games
        self.jobs = jobs
        self.note = note
        # A daemon: an interrupted run does not wait for its checks (their bots' watchdogs end the bots).
        self._checks: Background[Checks] = Background("lastcard-checks")

    def start(self, arena: Arena, when: str = ", beside the games") -> None:
        """Start checking the bot programs of ``arena`` (the pool as played), unless there are none or no games."""
        bots = checked_bots(arena)
        if self._checks.started or not self.games or not bots:
            return
        self.note(f"checking {len(bots)} bot(s) for their reports ({self.games} fuzz games each){when}")
        # Imported here, before the thread starts: a thread must not hold an import lock when workers are forked.
        from referee.check.contest import run_contest_checks

        self._checks.start(lambda: run_contest_checks(arena, bots, games=self.games, jobs=max(self.jobs, AT_ONCE)))

    def result(self, arena: Arena) -> Checks:
        """The reports by bot name: those started beside the games, waited for, or else checked now."""
        self.start(arena, when="...")
        return self._checks.result() if self._checks.started else {}
