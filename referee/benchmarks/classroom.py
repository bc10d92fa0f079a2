"""A class graded against benchmarks: the students built and started, their tests played, grades.csv written.

Shared by ``lastcard arena`` (alone, or after a contest) and the ladder (with its ``Ledger``, so a run plays only
what a new or changed submission needs). The benchmark games go to their own results folder
(``benchmark_dir``): ``OUT/benchmarks`` beside a contest, ``OUT`` itself without one.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from referee.arena.model import Arena
from referee.arena.runner import Progress, Quiet, prepare_bots
from referee.benchmarks.run import BenchmarkRun, Ledger, run_benchmarks
from referee.builds.steps import LeftOut
from referee.grading.grade import GradesWritten
from referee.grading.grades import write_benchmark_grades
from referee.run.executor import ExecutorFactory, local_executor
from referee.run.workers import resolve_workers
from referee.store.results_dir import ResultsDir


@dataclass
class ClassGrades:
    """What grading a class against benchmarks did."""

    run: BenchmarkRun
    left: list[LeftOut]
    written: GradesWritten | None
    """grades.csv and each student's grade (None while the run is incomplete)."""
    folder: str
    """The benchmark games' results folder."""
    built: Arena | None = None
    """The arena with the students as built (their built copies, the students left out gone)."""


def benchmark_dir(arena: Arena, out: str) -> str:
    """Where the benchmark games go: ``OUT`` for a file with no contest, else ``OUT/benchmarks``."""
    return out if not arena.contest else ResultsDir(out).file(ResultsDir.BENCHMARKS)


def grade_class(arena: Arena, *, out: str, jobs: int | None = None, resume: bool = False, fresh: bool = False,
                progress: Progress | None = None, executor_factory: ExecutorFactory = local_executor,
                pin: bool | None = None, stop_after: int | None = None, ledger: Ledger | None = None,
                folder: str | None = None) -> ClassGrades:
    """Build and start every student (a student who cannot is left out, with the reason), play their tests into
    ``folder`` (default ``benchmark_dir``), and write ``OUT/grades.csv`` once the tests are complete."""
    progress = progress or Quiet()
    out = os.path.abspath(out)
    folder = folder or benchmark_dir(arena, out)
    logs = ResultsDir(folder).logs
    os.makedirs(logs, exist_ok=True)
    workers = resolve_workers(jobs or arena.jobs)
    built, left = prepare_bots(arena, logs, workers.count, progress,
                               probe_starts=executor_factory is local_executor, pool_check=False)
    students = [e.spec for e in built.bots if e.spec.builtin is None]
    progress.note(f"benchmark tests: {len(students)} student{'s' if len(students) != 1 else ''} against "
                  f"{len(built.benchmarks)} benchmark{'s' if len(built.benchmarks) != 1 else ''}, at most "
                  f"{arena.grading.games if arena.grading else 0} games each")
    run = run_benchmarks(built, students, out=folder, jobs=jobs, resume=resume, fresh=fresh, progress=progress,
                         executor_factory=executor_factory, pin=pin, stop_after=stop_after, ledger=ledger)
    written = None
    if run.complete and arena.grading is not None:
        written = write_benchmark_grades(out, arena.bots, run.outcomes(), {x.bot: x.reason for x in left},
                                         arena.grading, arena.class_list)
    return ClassGrades(run, left, written, folder, built)
