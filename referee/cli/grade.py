"""``lastcard grade BOT``: one submission graded as Gradescope, PrairieLearn or a CI job runs it."""

from __future__ import annotations

import math
import os
import sys

import click

from referee.benchmarks.platforms import FORMATS, render
from referee.benchmarks.submission import grade_submission, teacher_arena
from referee.cli.common import (
    INTERRUPTED,
    InputError,
    TerminalProgress,
    cluster_executor,
    cluster_options,
    executor_kwargs,
    sigterm_as_interrupt,
)
from referee.cli.options import jobs_option
from referee.cli.sandbox_option import sandbox_option, sandboxed
from referee.grading.rule import points_text
from referee.inputs.problems import ArenaFileError
from referee.store.disk import atomic_write


@click.command("grade")
@click.argument("bot", metavar="BOT")
@click.option("--arena", "arena_file", type=click.Path(dir_okay=False), metavar="FILE.yaml",
              help="The teacher's arena file: its grading block (bands, test, budget, check and suites' points), "
                   "rules, limits, sandbox and languages.  [default: the bands of arenas/graded.yaml]")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="json", show_default=True,
              help="gradescope (results.json of its autograder), prairielearn (its external grader's results.json), "
                   "junit (XML for CI) or json (lastcard's own).")
@click.option("--output", "-o", type=click.Path(dir_okay=False, allow_dash=True), default="-", show_default=True,
              help="Where to write it ('-': stdout), e.g. /autograder/results/results.json.")
@click.option("--work", type=click.Path(file_okay=False),
              help="Keep the benchmark games in this results folder (lastcard replay reads it; --resume goes on "
                   "from it).  [default: a temporary folder]")
@click.option("--resume", is_flag=True, help="With --work: go on from the games already there.")
@click.option("--check-games", type=click.IntRange(0), default=20, show_default=True,
              help="Fuzz games of the lastcard check run (0: the scripted checks only).")
@click.option("--fail-under", type=float, metavar="POINTS",
              help="Exit status 1 when the score is below this (for CI), as well as when a check or suite fails.")
@click.option("--quiet", "-q", is_flag=True, help="No progress on stderr.")
@jobs_option(None, "Worker processes for the benchmark games (default: one per core).")
@cluster_options
@sandbox_option
def grade_cmd(bot: str, arena_file: str | None, fmt: str, output: str, work: str | None, resume: bool,
              check_games: int, fail_under: float | None, quiet: bool, jobs: int | None, cluster: str | None = None,
              tls_ca_file: str | None = None, tls_cert: str | None = None, tls_key: str | None = None,
              sandbox_mode: str | None = None) -> None:
    """Grade one submission: lastcard check, the teacher's position suites, and the benchmark tests.

    BOT is the submission's folder (recognised as an arena's submissions are: bot.py, bot.c, a run script,
    a lastcard.yaml...) or a command line in quotes. Writes FORMAT to --output. Exit status: 0 graded, every
    check and suite passed (and the score at least --fail-under); 1 graded, but a check or suite failed, the
    submission cannot run, or the score is below --fail-under; 2 bad input; 130 interrupted. The benchmark
    bands are a grade, not a failure: use --fail-under to fail below one.
    """
    if fail_under is not None and not math.isfinite(fail_under):
        raise click.BadParameter(f"{fail_under} is not a number of points; give e.g. --fail-under 60",
                                 param_hint="--fail-under")
    if resume and work is None:
        raise click.UsageError("--resume goes on from the games of --work DIR: give --work")
    try:
        arena = sandboxed(teacher_arena(arena_file, bot), sandbox_mode)
    except ArenaFileError as exc:
        raise InputError(str(exc)) from None
    factory = cluster_executor(cluster, tls_ca_file, tls_cert, tls_key, False, arena)
    progress = TerminalProgress(quiet=quiet)
    try:
        with sigterm_as_interrupt():
            graded = grade_submission(arena, work=work, jobs=jobs, resume=resume, check_games=check_games,
                                      progress=progress, note=progress.note, **executor_kwargs(factory))
    except ArenaFileError as exc:
        raise InputError(str(exc)) from None
    except KeyboardInterrupt:
        click.echo("interrupted" + (f": the games so far are in {work}; --resume goes on" if work else ""), err=True)
        sys.exit(INTERRUPTED)
    text = render(graded, fmt)
    if output == "-":
        click.echo(text, nl=False)
    else:
        os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
        atomic_write(output, text)
        if not quiet:
            click.echo(f"{graded.student}: {graded.summary()} ({fmt}: {output})", err=True)
    below = fail_under is not None and graded.score < fail_under
    if fail_under is not None and below:  # the exit status alone would not say which promise failed
        click.echo(f"{graded.student}: score {points_text(graded.score)} of {points_text(graded.max_score)} is below "
                   f"--fail-under {points_text(fail_under)}", err=True)
    sys.exit(1 if below or not graded.ok else 0)
