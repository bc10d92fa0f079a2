"""``lastcard ladder``: a ladder kept in one SQLite file (run it again after late or changed submissions)."""

from __future__ import annotations

import os
import shlex
import sys
from typing import Callable

import click

from referee.arena.similarity_option import SimilarityOption
from referee.cli.benchmark_phase import show_benchmarks
from referee.cli.common import (
    INTERRUPTED,
    InputError,
    TerminalProgress,
    cluster_executor,
    cluster_options,
    executor_kwargs,
    load_arena_file,
    sigterm_as_interrupt,
    warn_never_started,
)
from referee.cli.live_option import end_live, live_option, start_live, with_live
from referee.cli.options import jobs_option, roster_option
from referee.ladder.history import history_md
from referee.ladder.live_report import live_report
from referee.ladder.run import DEFAULT_BATCH, DEFAULT_SHARE, LadderOptions, default_out, run_ladder
from referee.ladder.shapes import LadderRunRow
from referee.ladder.store import open_ladder
from referee.live.address import LiveAddress
from referee.standings.first_faults import fault_lines
from referee.standings.model import LeftOutEntry, StandingRow, Standings
from referee.standings.render import text_table
from referee.store.results_dir import ResultsDir

DB_HELP = "The ladder file (SQLite; created when missing)."


@click.group("ladder")
def ladder_cmd() -> None:
    """A ladder that keeps its games in one SQLite file (see docs/ladder.md).

    `run` plays only what new or changed submissions need and where the order is least certain;
    `standings` and `history` read the file.
    """


@ladder_cmd.command("run")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--db", required=True, type=click.Path(dir_okay=False), help=DB_HELP)
@click.option("--budget", type=click.IntRange(1), help="Play at most this many games in this run.")
@click.option("--target-separation", "target", type=click.IntRange(1), metavar="K",
              help="Keep playing (within --budget) until the top K places' 95% rating intervals no longer overlap.")
@click.option("--games-per-bot", "share", type=click.IntRange(1), default=DEFAULT_SHARE, show_default=True,
              help="Every bot's share of kept games, played first (a new or changed bot starts at none).")
@click.option("--batch", type=click.IntRange(1), default=DEFAULT_BATCH, show_default=True,
              help="Games planned at a time from the same standings.")
@click.option("--out", type=click.Path(file_okay=False), help="Report directory (default: beside the ladder file, "
                                                                "NAME-report/).")
@jobs_option(None, "Worker processes (default: the file's jobs, or one per core).")
@click.option("--pin/--no-pin", default=None, help="Pin each worker and its bots to a CPU.")
@click.option("--quiet", "-q", is_flag=True, help="No progress display, only the final standings.")
@cluster_options
@live_option
@roster_option
def run_cmd(file: str, db: str, budget: int | None, target: int | None, share: int, batch: int, out: str | None,
            jobs: int | None, pin: bool | None, quiet: bool, cluster: str | None = None,
            tls_ca_file: str | None = None, tls_cert: str | None = None, tls_key: str | None = None,
            live: LiveAddress | None = None, roster: str | None = None) -> None:
    """Bring the ladder in --db up to date with the bots of arena FILE, then play until a stop rule.

    Without --budget or --target-separation a run stops when every bot has its share of games.
    """
    arena = load_arena_file(file, roster)
    factory = cluster_executor(cluster, tls_ca_file, tls_cert, tls_key, False, arena)
    state = start_live(live, f"ladder {arena.name}", "ladder",
                       report=live_report(db, os.path.abspath(out or default_out(db))))
    progress = with_live(TerminalProgress(quiet=quiet), state)
    with sigterm_as_interrupt():
        result = run_ladder(arena, db, out=out, jobs=jobs, progress=progress, pin=pin, live=state,
                            options=LadderOptions(budget=budget, target=target, share=share, batch=batch),
                            **executor_kwargs(factory))
    rate = f", {result.played_now / result.wall_s:.1f} games/s" if result.played_now and result.wall_s > 0 else ""
    click.echo(f"{arena.name}, run {result.run}: {result.stop_reason}. {result.played_now} games played{rate}, "
               f"{result.retired} retired, {result.kept} kept")
    end_live(state, complete=result.status == "finished", standings=result.standings, games=result.kept,
             message=f"run {result.run}: {result.stop_reason}; {result.played_now} games played, {result.kept} kept",
             resume=shlex.join(["lastcard", *click.get_current_context().find_root().meta.get("lastcard.argv", [])]))
    click.echo(f"order: {result.standings.rule}")
    click.echo(text_table(result.standings))
    click.echo(f"reports: {os.path.dirname(result.paths[0]) if result.paths else '-'}")
    if result.paths:
        _similarity(os.path.dirname(result.paths[0]), arena.similarity if result.status == "finished" else None,
                    result.workers.count, progress.note)
    for path in result.paths:
        if os.path.basename(path) in (ResultsDir.GRADES, ResultsDir.GRADES_CANVAS, ResultsDir.GRADES_MOODLE):
            click.echo(f"grades: {path}")
    for note in result.grade_notes:
        click.echo(f"note: {note}", err=True)
    if result.benchmarks is not None:
        show_benchmarks(result.benchmarks, arena)
    for line in fault_lines(result.faults, os.path.dirname(result.paths[0]) if result.paths else None,
                            order=result.standings.bots, leave_out=[n.bot for n in result.never_started]):
        click.echo(line, err=True)
    for line in warn_never_started(result.never_started):
        click.echo(line, err=True)
    if result.status != "finished":
        sys.exit(INTERRUPTED)


@ladder_cmd.command("standings")
@click.option("--db", required=True, type=click.Path(dir_okay=False), help="The ladder file.")
@click.option("--run", "run_id", type=int, help="A past run's standings (default: the latest run with standings).")
def standings_cmd(db: str, run_id: int | None) -> None:
    """Print the standings a run stored (reads the file; works while a run is going on)."""
    runs = _runs(db)
    with_rows = [r for r in runs if r.get("standings") and (run_id is None or r["id"] == run_id)]
    if not with_rows:
        what = f"--run {run_id}" if run_id is not None else "any run"
        raise InputError(f"{db}: no standings stored for {what} yet; `lastcard ladder history --db {db}` lists the "
                         "runs")
    run = with_rows[-1]
    click.echo(f"run {run['id']} ({run['status']}, {run.get('finished') or 'unfinished'}): "
               f"{run.get('stop_reason') or '-'}; {run.get('kept')} games counted")
    click.echo(text_table(stored_standings(run)))


def _similarity(out_dir: str, option: SimilarityOption | None, jobs: int, note: Callable[[str], None]) -> None:
    """The arena file's ``similarity:``: the report folder's bots (their versions whose games count) compared on
    its games, then its page written again with the matrix. Without it (or after an unfinished run), figures
    left from an earlier run are removed: they are of other games."""
    from referee.html_report import write_report

    folder = ResultsDir(out_dir)
    if option is None:
        stale = [p for p in (folder.file(ResultsDir.SIMILARITY), folder.file(ResultsDir.SIMILARITY_BOTS))
                 if os.path.exists(p)]
        for path in stale:
            os.remove(path)
        if stale:
            write_report(out_dir, jobs=jobs)
        return
    from referee.cli.similar import similarity_after_run  # here: a run without it need not import it

    similarity_after_run(out_dir, points=option.points, seed=option.seed, references=option.references, jobs=jobs,
                         note=note)
    write_report(out_dir, jobs=jobs)


def stored_standings(run: LadderRunRow) -> Standings:
    """A run's standings as the ladder file stored them (rows with their rank ranges, the bots left out)."""
    return Standings(tuple(StandingRow.from_json(row) for row in run["standings"] or ()),
                     tuple(LeftOutEntry(x["bot"], x["reason"]) for x in run.get("left_out") or ()))


@ladder_cmd.command("history")
@click.option("--db", required=True, type=click.Path(dir_okay=False), help="The ladder file.")
def history_cmd(db: str) -> None:
    """Print every run: games played, retired and kept, why it stopped, and each bot's rank by run (Markdown)."""
    click.echo(history_md(_runs(db)), nl=False)


def _runs(db: str) -> list[LadderRunRow]:
    with open_ladder(db, write=False, create=False) as store:
        return store.runs()
