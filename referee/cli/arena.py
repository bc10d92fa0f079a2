"""``lastcard arena FILE`` and ``lastcard validate FILE``: run or check a tournament described in YAML."""

from __future__ import annotations

import dataclasses
import os
import tempfile
from dataclasses import replace
from typing import TYPE_CHECKING

import click

from referee.arena.bot_reports import write_bot_reports
from referee.arena.model import Arena
from referee.arena.runner import ArenaRun, Quiet, prepare_bots, run_arena
from referee.arena.schedule import stage_game_counts
from referee.bots.entry import BotEntry
from referee.builds.arrivals import PLATFORM_NAMES
from referee.builds.steps import check_requires
from referee.cli.common import (
    InputError,
    TerminalProgress,
    cluster_executor,
    cluster_options,
    executor_kwargs,
    interrupted,
    load_arena_file,
    sigterm_as_interrupt,
    warn_never_started,
)
from referee.cli.live_option import end_live, live_option, start_live, with_live
from referee.cli.options import (
    clock_options,
    jobs_option,
    out_option,
    page_tapes,
    report_option,
    roster_option,
    with_clock,
    write_html_report,
)
from referee.cli.sandbox_option import sandbox_option, sandboxed
from referee.grading.grade import Grade
from referee.grading.grades import write_grades
from referee.live.address import LiveAddress
from referee.run.workers import resolve_workers
from referee.standings.first_faults import fault_lines
from referee.standings.render import text_table
from referee.store.outdir import out_dir_problem
from referee.store.results_dir import ResultsDir

if TYPE_CHECKING:
    from referee.check.beside import ChecksBeside

#: Bots listed one by one by ``validate``; beyond this, the first few and a count.
SHOW_BOTS = 24
#: Fuzz games in the check each bot's report carries (a few: the contest's games are the real test).
DEFAULT_CHECK_GAMES = 4


@click.command("arena")
@click.argument("file", type=click.Path(dir_okay=False))
@out_option("Output directory (default: the file's out, or results/NAME).")
@jobs_option(None, "Worker processes (default: the file's jobs, or one per core).")
@click.option("--resume", is_flag=True, help="Finish an interrupted arena in the same output directory.")
@click.option("--fresh", is_flag=True, help="Start over, discarding an unfinished arena in the output directory.")
@click.option("--pin/--no-pin", default=None, help="Pin each worker and its bots to a CPU (default: when there are "
                                                   "more CPUs than workers).")
@click.option("--quiet", "-q", is_flag=True, help="No progress display, only the final standings.")
@click.option("--records", is_flag=True, help=f"Keep every game's full message record in OUT/{ResultsDir.RECORDS}, as "
                                              "`records: true` in the file does "
                                              "(games with a fault keep theirs anyway).")
@cluster_options
@click.option("--build-on-workers", is_flag=True, help="With --cluster: run the bots' build steps on each worker too "
                                                       "(for workers of another architecture).")
@click.option("--check-games", type=click.IntRange(0), default=None,
              help="After the games, each bot's report (OUT/bots/NAME.md) gets a lastcard check run as the contest "
                   f"runs it, with this many fuzz games (0: no check).  [default: {DEFAULT_CHECK_GAMES} for an arena "
                   "of submissions, else 0]")
@report_option
@sandbox_option
@clock_options
@live_option
@roster_option
def arena_cmd(file: str, out: str | None, jobs: int | None, resume: bool, fresh: bool, pin: bool | None,
              quiet: bool, cluster: str | None = None, tls_ca_file: str | None = None, tls_cert: str | None = None,
              tls_key: str | None = None, build_on_workers: bool = False,
              sandbox_mode: str | None = None, check_games: int | None = None, html_report: bool = True,
              clock: str | None = None, wall_ms: int | None = None, records: bool = False,
              live: LiveAddress | None = None, roster: str | None = None) -> None:
    """Run the tournament described in FILE (YAML; see docs/arena.md) and print its standings.

    Results are written as each game ends; Ctrl-C stops cleanly and --resume finishes the arena
    with exactly the results an uninterrupted run gives.
    """
    if resume and fresh:
        raise click.UsageError("--resume and --fresh contradict each other: pick one")
    arena = _arena_as_asked(file, out, sandbox_mode, clock, wall_ms, records, roster)
    factory = cluster_executor(cluster, tls_ca_file, tls_cert, tls_key, build_on_workers, arena)
    cluster = cluster or (arena.cluster.address if arena.cluster else None)
    page = start_live(live, f"arena {arena.name}", "arena", os.path.abspath(out or arena.out))
    progress = with_live(TerminalProgress(quiet=quiet), page)
    progress.note(f"arena {arena.name}: {len(arena.bots)} entrants" + (f", on the Dask cluster at {cluster}" if cluster
                                                                       else ""))
    for line in class_lines(arena, brief=True):
        progress.note(line)
    benchmarks = arena.grading is not None and arena.grading.by == "benchmarks"
    if not arena.contest:  # the file grades by benchmarks and asks for no contest: only the tests are played
        from referee.cli.benchmark_phase import graded_only  # here: the tests' arithmetic loads numpy

        graded_only(arena, out, jobs=jobs, resume=resume, fresh=fresh, progress=progress, pin=pin, factory=factory,
                    check_games=DEFAULT_CHECK_GAMES if check_games is None else check_games, html_report=html_report)
        return
    checks = _checks_beside(arena, check_games, jobs, progress)
    with sigterm_as_interrupt():
        run = run_arena(arena, out=out, jobs=jobs, resume=resume, fresh=fresh, progress=progress, pin=pin,
                        live=page, beside=checks.start, page_tapes=page_tapes(html_report),
                        **executor_kwargs(factory))
    doc = run.doc
    _standings(arena, run)
    end_live(page, complete=run.complete, standings=run.standings, games=doc.games,
             message=f"{doc.games} of {doc.games_planned} games in {run.wall_s:.1f} s; results in {run.out_dir}")
    graded = None
    if benchmarks and run.complete:  # grades against the benchmarks, once the contest is over
        from referee.cli.benchmark_phase import benchmark_phase  # here: the tests' arithmetic loads numpy

        graded = benchmark_phase(arena, run.out_dir, jobs=jobs, resume=resume, fresh=fresh, progress=progress,
                                 pin=pin, factory=factory)
    _bot_reports(arena, run, checks, progress, graded.written.grades if graded and graded.written else None)
    _similarity(arena, run, run.workers.count, progress)
    _collusion(arena, run, run.workers.count, progress)
    if html_report:
        write_html_report(run.out_dir, jobs=run.workers.count)  # the run's workers are gone: as many processes
    for line in fault_lines(run.faults, run.out_dir, order=run.standings.bots,
                            leave_out=[n.bot for n in run.never_started], report=html_report):
        click.echo(line, err=True)
    for line in warn_never_started(run.never_started):
        click.echo(line, err=True)
    if not run.complete:
        interrupted(games=f"{doc.games:,} of {doc.games_planned:,} games")


def _standings(arena: Arena, run: ArenaRun) -> None:
    """The run's line (games, seed, time), its standings table and where results.json is."""
    doc = run.doc
    state = "" if run.complete else " (unfinished)"
    rate = f", {run.played_now / run.wall_s:.1f} games/s" if run.played_now and run.wall_s > 0 else ""
    if not run.complete:
        click.echo("standings so far:", err=True)
    click.echo(f"{arena.name}: {doc.games} of {doc.games_planned} games{state}, seed {arena.seed}, "
               f"{run.wall_s:.1f} s{rate}")
    click.echo(text_table(run.standings))
    click.echo(f"results: {ResultsDir(run.out_dir).results}")


def _similarity(arena: Arena, run: ArenaRun, workers: int, progress: TerminalProgress) -> None:
    """The arena file's ``similarity:``, once the contest is complete, before the page (its matrix is read from
    similarity.csv)."""
    if arena.similarity is None:
        return
    if not run.complete:
        progress.note("similarity: the bots are compared once the contest is complete (--resume finishes it)")
        return
    from referee.cli.similar import similarity_after_run  # here: a run without it need not import it

    similarity_after_run(run.out_dir, points=arena.similarity.points, seed=arena.similarity.seed,
                         references=arena.similarity.references, jobs=workers,
                         note=progress.note)


def _collusion(arena: Arena, run: ArenaRun, workers: int, progress: TerminalProgress) -> None:
    """The arena file's ``collusion:``, once the contest is complete, before the page (its section is read from
    collusion.csv)."""
    option = arena.collusion
    if option is None:
        return
    if not run.complete:
        progress.note("collusion: the pairs are measured once the contest is complete (--resume finishes it)")
        return
    from referee.cli.collusion import collusion_after_run  # here: a run without it need not import it

    collusion_after_run(run.out_dir, reference=option.reference, most=option.games, alpha=option.alpha, jobs=workers,
                        note=progress.note)


def _arena_as_asked(file: str, out: str | None, sandbox_mode: str | None, clock: str | None, wall_ms: int | None,
                    records: bool, roster: str | None = None) -> Arena:
    """FILE's arena with the command line's clock, sandbox, records and roster; an ``InputError`` for an ``out:``
    that cannot be written (unless --out replaces it)."""
    arena = load_arena_file(file, roster)
    if clock is not None or wall_ms is not None:  # every bot's clock, as --sandbox sets every bot's walls
        arena = arena.with_bots([replace(b, spec=replace(b.spec, limits=with_clock(b.spec.limits, clock, wall_ms)))
                                 for b in arena.bots])
    arena = sandboxed(arena, sandbox_mode)
    if records:
        arena = dataclasses.replace(arena, records=True)
    if out is None and (trouble := out_dir_problem(arena.out)) is not None:
        raise InputError(f"{file}: out: {trouble}")
    return arena


def _checks_beside(arena: Arena, asked: int | None, jobs: int | None, progress: TerminalProgress) -> ChecksBeside:
    """The checks behind the bot reports, to start beside the games (``run_arena``'s ``beside``)."""
    from referee.check.beside import ChecksBeside  # here: the check package loads the protocol's schemas

    return ChecksBeside(_check_games(arena, asked), resolve_workers(jobs or arena.jobs).count, progress.note)


def _check_games(arena: Arena, asked: int | None) -> int:
    """The fuzz games of each bot's check for its report: as asked, else some for a class (its students read their
    reports) and none for a bench of known bots."""
    if asked is not None:
        return asked
    return DEFAULT_CHECK_GAMES if any(e.submission for e in arena.bots) else 0


def _bot_reports(arena: Arena, run: ArenaRun, checks: ChecksBeside, progress: TerminalProgress,
                 benchmark_grades: dict[str, Grade] | None = None) -> None:
    """Write OUT/bots/NAME.md for every entrant, with the checks of the bots as they played (begun beside the
    games; those of an unfinished contest are not waited for)."""
    found = checks.result(run.played or arena) if run.complete else {}
    grades, notes = _contest_grades(arena, run, progress, benchmark_grades)
    paths = write_bot_reports(run.out_dir, run.doc, run.games, arena.bots, run.left_out, found, grades=grades,
                              notes=notes)
    if paths:
        click.echo(f"reports per bot: {os.path.dirname(paths[-1])}")


def _contest_grades(arena: Arena, run: ArenaRun, progress: TerminalProgress,
                    benchmark_grades: dict[str, Grade] | None) -> tuple[dict[str, Grade], tuple[str, ...]]:
    """Grades by rank, rating or table once the contest is complete (grades.csv, and with a roster the platform's
    file), said in the terminal; each student's grade by bot and what the reports should say of the class."""
    grades: dict[str, Grade] = dict(benchmark_grades or {})
    if arena.grading is None or arena.grading.by == "benchmarks":
        return grades, ()
    if not run.complete:
        progress.note("grades.csv is written when the contest is complete: --resume finishes it")
        return grades, ()
    written = write_grades(run.out_dir, run.standings, arena.bots, arena.grading, arena.class_list)
    for note in written.notes:
        click.echo(f"note: {note}", err=True)
    for path in (written.path, *written.files):
        if path is not None:
            click.echo(f"grades: {path}")
    return written.grades, written.notes


#: The most of an arena's description ``validate`` shows: lines, and characters a line.
DESCRIPTION_LINES = 3
DESCRIPTION_WIDTH = 200


def _description(text: str) -> list[str]:
    """The description's first few lines, each cut short: a huge one must not flood the terminal."""
    lines = text.strip().splitlines()
    shown = [line if len(line) <= DESCRIPTION_WIDTH else f"{line[:DESCRIPTION_WIDTH]}... ({len(line):,} characters)"
             for line in lines[:DESCRIPTION_LINES]]
    if len(lines) > DESCRIPTION_LINES:
        shown.append(f"... ({len(lines) - DESCRIPTION_LINES:,} more lines)")
    return shown


def _show_path(path: str) -> str:
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel



@click.command("validate")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--build", "build", is_flag=True, help="Run the bots' build steps too (as the arena will), so the "
                                                     "planned games are exact rather than a range.")
@roster_option
def validate_cmd(file: str, build: bool = False, roster: str | None = None) -> None:
    """Check an arena FILE without playing: every mistake, with its key path and line; then a summary."""
    arena = load_arena_file(file, roster)
    click.echo(f"{file}: ok")
    for line in _description(arena.description):
        click.echo(f"  {line}")
    click.echo(f"  name {arena.name}, seed {arena.seed}, policy {arena.policy}, jobs {arena.jobs or 'auto'}, "
               f"out {_show_path(arena.out)}")
    kept, left = check_requires(arena.bots)
    click.echo(f"  bots ({len(arena.bots)}):")
    shown = arena.bots if len(arena.bots) <= SHOW_BOTS else arena.bots[:SHOW_BOTS - 2]
    for entry in shown:
        click.echo(_bot_line(entry))
    if len(shown) < len(arena.bots):
        click.echo(f"    ... and {len(arena.bots) - len(shown)} more: {arena.bots[-1].spec.name} is the last")
    builds = sum(1 for e in kept if e.build)
    if build and builds:  # the builds decide who plays: run them, and the count is exact
        with tempfile.TemporaryDirectory(prefix="lastcard-validate-") as logs:
            built, left = prepare_bots(arena, logs, resolve_workers(arena.jobs).count, Quiet())
        kept, builds = list(built.bots), 0
    if arena.contest:
        counts = stage_game_counts(arena, len(kept))
        for stage, n in zip(arena.stages, counts):
            extra = " (duplicate deals)" if stage.duplicate else ""
            entrants = f", top {stage.entrants}" if stage.entrants else ""
            click.echo(f"  stage {stage.name}: {stage.format.name}, {stage.ruleset}, {stage.seats} seats, games "
                       f"{stage.games}{extra}{entrants}: {n} games")
        click.echo(f"  total: {planned_games(arena, len(kept), builds)}")
    else:
        budget = arena.grading.games if arena.grading else 0
        click.echo(f"  no contest: only the benchmark tests ({arena.stages[0].ruleset})")
        click.echo(f"  total: at most {budget * len(kept):,} games ({budget} a student; each test stops as soon as "
                   "it is sure)")
    for line in _after_games(arena):
        click.echo(line)
    for line in class_lines(arena):
        click.echo(f"  {line}")
    for item in left:
        click.echo(f"  would be left out: {item.bot} ({item.reason})")
        for line in item.detail.splitlines():  # a failed build's first error lines: the cause, where it was
            click.echo(f"    {line}")


def class_lines(arena: Arena, brief: bool = False) -> list[str]:
    """What the submissions' patterns made of what they matched (each student's folder, what was unpacked or
    skipped, and why) and how the roster's students were matched; ``brief``: only what needs the teacher's eye
    (what was skipped, the students with no submission, the submissions on no roster row)."""
    out = []
    for key, intake in arena.intakes:
        platforms = ", ".join(PLATFORM_NAMES[p] for p in intake.platforms)
        said = [line for line in intake.lines() if not brief or line.startswith("skipped ")]
        if not brief and (said or intake.platforms != ("plain",)):
            out.append(f"{key}: {len(intake.arrivals)} submission(s), named as {platforms}")
        out += [("  " if not brief else "") + line for line in said]
    if arena.class_list is not None:
        missing = arena.grading.rounded(arena.grading.missing) if arena.grading is not None else None
        lines = arena.class_list.lines(missing)
        out += lines if not brief else [line for line in lines if not line.startswith("matched by")]
    return out


def _bot_line(entry: BotEntry) -> str:
    """An entrant as ``validate`` lists it: its name, its command and what it needs."""
    notes = []
    if entry.language:
        notes.append(entry.language)
    if entry.build:
        notes.append("build step")
    if entry.requires:
        notes.append("requires " + ", ".join(entry.requires))
    command = entry.spec.command if not entry.unusable else "(nothing to run: left out, see below)"
    return f"    {entry.spec.name}: {command}" + (f"  ({'; '.join(notes)})" if notes else "")


def _after_games(arena: Arena) -> list[str]:
    """What the arena writes after its games, besides the standings (grades, similarity and collusion figures), and
    what the bots are told of each other's names."""
    lines = []
    if arena.grading is not None:
        shape = arena.class_list.roster.shape if arena.class_list is not None else ""
        platform = {"canvas": ResultsDir.GRADES_CANVAS, "moodle": ResultsDir.GRADES_MOODLE,
                    "moodle-worksheet": ResultsDir.GRADES_MOODLE}.get(shape)
        lines.append(f"  grading: {arena.grading.summary()} -> {_show_path(arena.out)}/{ResultsDir.GRADES}"
                     + (f" and {platform}" if platform else ""))
    if arena.grading is not None and arena.grading.by == "benchmarks":
        from referee.benchmarks.classroom import benchmark_dir  # here: the tests' arithmetic loads numpy
        from referee.benchmarks.plan import BenchmarkPlan, fewest_pairs

        plan = BenchmarkPlan.of(arena)  # checked by load_arena_file already
        students = sum(1 for e in arena.bots if e.spec.builtin is None and not e.unusable)
        to_h1, to_h0 = fewest_pairs(plan.sprt, "H1"), fewest_pairs(plan.sprt, "H0")
        lines.append(f"  benchmark tests: {len(plan.bands)} bands, at most {plan.budget} games a student ({students} "
                     f"students); a verdict takes at least {2 * (to_h1 or 0)} games (H1) or {2 * (to_h0 or 0)} (H0) "
                     f"-> {_show_path(benchmark_dir(arena, arena.out))}")
    if arena.similarity is not None:
        points = arena.similarity.points
        asked = f"{points} decision points" if points else "the decision points of 12 stored seats"
        lines.append(f"  similarity: after the games, {asked} (seed {arena.similarity.seed}) -> "
                     f"{_show_path(arena.out)}/similarity.csv")
    if arena.collusion is not None:
        most = f"at most {arena.collusion.games} games a pair" if arena.collusion.games else "every game"
        lines.append(f"  collusion: after the games, {most} played again with one seat taken by "
                     f"{arena.collusion.reference} -> {_show_path(arena.out)}/collusion.csv")
    if arena.hide_names:
        lines.append("  seat names: hidden (the bots are told seat1, seat2...; the results keep the names)")
    return lines


def planned_games(arena: Arena, pool: int, builds: int) -> str:
    """The games the arena will plan with ``pool`` bots, as the run's banner states them: a range when build
    steps may leave bots out (each one that fails makes the plan smaller)."""
    total = sum(stage_game_counts(arena, pool))
    if not builds:
        return f"{total} games planned"
    seats = max(s.seats for s in arena.stages)
    fewest = pool - builds
    low = f"{sum(stage_game_counts(arena, fewest))}" if fewest >= seats else "none (too few bots to fill a table)"
    return (f"{total} games planned if all {builds} build step(s) succeed; from {low} if every one fails (a bot "
            "whose build fails is left out; `validate --build` runs them and gives the exact number)")


