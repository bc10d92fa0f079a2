"""How many worker processes a run uses, decided once: from what was asked (``--jobs``, else the file's
``jobs:``), the machine, and the games that can be in play at once. The run returns the ``Workers`` it used, and
every output says that number."""

from __future__ import annotations

import os
from dataclasses import dataclass

#: Workers per CPU at most: beyond a few per CPU more workers only add start-up time and memory
#: (a worker per job of ``--jobs 100000`` took 72 s to start and played nothing).
JOBS_PER_CPU = 4

def usable_cpus() -> list[int]:
    """The CPUs this process may run on (all of them where the platform cannot say)."""
    try:
        return sorted(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return list(range(os.cpu_count() or 1))


def default_jobs() -> int:
    """One worker per core this process may use."""
    return max(1, len(usable_cpus()))


def max_jobs() -> int:
    """The most workers a local run starts: ``JOBS_PER_CPU`` per CPU of the machine."""
    return JOBS_PER_CPU * (os.cpu_count() or 1)


@dataclass(frozen=True)
class Workers:
    """The worker processes of a run: how many, what was asked, and why they differ (a note for the terminal)."""

    count: int
    asked: int | None = None
    note: str | None = None

    def __str__(self) -> str:
        return f"{self.count} worker{'s' if self.count != 1 else ''}"


def resolve_workers(asked: int | None, at_once: int | None = None) -> Workers:
    """The one decision: ``asked`` (None: one per core this process may use), never more than ``max_jobs()`` nor
    than ``at_once`` games that can be in play; a note saying why when an explicit request was cut down."""
    cap = max_jobs()
    wanted = asked if asked is not None else default_jobs()
    count = max(1, min(wanted, cap, at_once if at_once is not None else wanted))
    if asked is None or count == asked:
        return Workers(count, asked)
    why = (f"only {at_once:,} game{'s' if at_once != 1 else ''} can be played at once"
           if at_once is not None and at_once < min(asked, cap)
           else f"at most {JOBS_PER_CPU} per CPU ({os.cpu_count() or 1} CPUs here)")
    return Workers(count, asked, f"note: {count} worker{'s' if count != 1 else ''}, not {asked:,}: {why}")
