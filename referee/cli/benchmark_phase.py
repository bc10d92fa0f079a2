"""``lastcard arena`` with ``grading: by: benchmarks``: the benchmark tests after the contest (or alone), printed."""

from __future__ import annotations

import os
from typing import Any, Mapping

import click

from referee.arena.bot_reports import write_bot_reports
from referee.arena.model import Arena
from referee.benchmarks.classroom import ClassGrades, grade_class
from referee.benchmarks.summary import summary_lines
from referee.cli.common import TerminalProgress, executor_kwargs, interrupted, sigterm_as_interrupt
from referee.cli.options import write_html_report
from referee.grading.grade import Grade
from referee.run.executor import ExecutorFactory
from referee.store.results_dir import ResultsDir


def benchmark_phase(arena: Arena, out_dir: str, *, jobs: int | None, resume: bool, fresh: bool,
                    progress: TerminalProgress, pin: bool | None, factory: ExecutorFactory | None) -> ClassGrades:
    """Play the class's benchmark tests and print each student's grade; an interrupted run ends the command."""
    with sigterm_as_interrupt():
        graded = grade_class(arena, out=out_dir, jobs=jobs, resume=resume, fresh=fresh, progress=progress, pin=pin,
                             **executor_kwargs(factory))
    show_benchmarks(graded, arena)
    return graded


def show_benchmarks(graded: ClassGrades, arena: Arena) -> None:
    """Each student's grade and tests; an interrupted run ends the command (exit status 130)."""
    run = graded.run
    assert arena.grading is not None
    state = "" if run.complete else " (unfinished)"
    reused = f", {run.reused:,} kept from earlier runs" if run.reused else ""
    click.echo(f"benchmark tests{state}: {len(run.tests)} students, {len(run.collected):,} games counted "
               f"({run.played_now:,} played now{reused}), {run.wall_s:.1f} s; games in {graded.folder}")
    grades = graded.written.grades if graded.written else {}
    for line in summary_lines(run.outcomes(), grades, arena.grading, {x.bot: x.reason for x in graded.left}):
        click.echo(line)
    if graded.written is not None:
        for note in graded.written.notes:
            click.echo(f"note: {note}", err=True)
        for path in (graded.written.path, *graded.written.files):
            click.echo(f"grades: {path}")
    if not run.complete:
        interrupted(games=f"{len(run.collected):,} benchmark games")


def graded_only(arena: Arena, out: str | None, *, jobs: int | None, resume: bool, fresh: bool,
                progress: TerminalProgress, pin: bool | None, factory: ExecutorFactory | None, check_games: int,
                html_report: bool) -> None:
    """An arena file with no contest: only the benchmark tests, each student's report, the page."""
    out_dir = os.path.abspath(out or arena.out)
    graded = benchmark_phase(arena, out_dir, jobs=jobs, resume=resume, fresh=fresh, progress=progress, pin=pin,
                             factory=factory)
    grades: Mapping[str, Grade] = graded.written.grades if graded.written else {}
    checks: dict[str, dict[str, Any]] = {}
    built = graded.built or arena
    played = [e for e in built.bots if e.spec.builtin is None and e.spec.name in graded.run.tests]
    if check_games and played:
        progress.note(f"checking {len(played)} bot(s) for their reports ({check_games} fuzz games each)...")
        from referee.check.contest import run_contest_checks  # here: a run without checks need not import them

        checks = run_contest_checks(built, played, games=check_games, jobs=jobs or 1)
    assert graded.run.doc is not None
    paths = write_bot_reports(out_dir, graded.run.doc, ResultsDir(graded.folder).games_log, arena.bots, graded.left,
                              checks, grades=grades)
    if paths:
        click.echo(f"reports per bot: {os.path.dirname(paths[-1])}")
    if html_report:
        write_html_report(graded.folder, jobs=jobs or 1)
