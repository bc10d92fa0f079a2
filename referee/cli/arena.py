"""``lastcard arena FILE`` and ``lastcard validate FILE``: run or check a tournament described in YAML."""

from __future__ import annotations

import os
import signal
import sys
import time
from typing import Any, TextIO

import click

from ..arena.bot_reports import write_bot_reports
from ..arena.builds import check_requires
from ..arena.config import Arena, ArenaFileError, load_arena
from ..arena.executor import ExecutorError, default_jobs
from ..arena.runner import ArenaRun, Leader, run_arena
from ..arena.schedule import count_games, stage_game_counts
from ..arena.store import StoreError
from ..check.contest import run_contest_checks
from ..outdir import out_dir_problem
from ..standings import format_table
from .options import interrupt_on_sigterm, out_option, report_option, write_html_report
from .sandbox_option import sandbox_option, sandboxed


#: The most worker processes ``--jobs`` (and the file's ``jobs``) may ask for.
MAX_JOBS = 256
#: Bots listed one by one by ``validate``; beyond this, the first few and a count.
SHOW_BOTS = 24


class ArenaError(click.ClickException):
    """A mistake in the arena file or its output directory: a message and exit code 2, no traceback."""

    exit_code = 2

    def format_message(self) -> str:
        return self.message


def _load(path: str) -> Arena:
    try:
        return load_arena(path)
    except ArenaFileError as exc:
        raise ArenaError(str(exc)) from None


#: Fuzz games in the check each bot's report carries (a few: the contest's games are the real test).
DEFAULT_CHECK_GAMES = 4


@click.command("arena")
@click.argument("file", type=click.Path(dir_okay=False))
@out_option("Output directory (default: the file's out, or results/NAME).")
@click.option("--jobs", "-j", type=click.IntRange(1, MAX_JOBS), help="Worker processes (default: the file's jobs, or one per "
                                                           "core).")
@click.option("--resume", is_flag=True, help="Finish an interrupted arena in the same output directory.")
@click.option("--fresh", is_flag=True, help="Start over, discarding an unfinished arena in the output directory.")
@click.option("--pin/--no-pin", default=None, help="Pin each worker and its bots to a CPU (default: when there are "
                                                   "more CPUs than workers).")
@click.option("--quiet", "-q", is_flag=True, help="No progress display, only the final standings.")
@click.option("--cluster", metavar="tcp://HOST:PORT", help="Play the games on the Dask scheduler at this address "
                                                        "(needs the distributed extra; see docs/distributed.md).")
@click.option("--tls-ca-file", type=click.Path(dir_okay=False), help="With a tls:// --cluster: the CA certificate.")
@click.option("--tls-cert", type=click.Path(dir_okay=False), help="With a tls:// --cluster: this referee's certificate.")
@click.option("--tls-key", type=click.Path(dir_okay=False), help="With a tls:// --cluster: its private key.")
@click.option("--build-on-workers", is_flag=True, help="With --cluster: run the bots' build steps on each worker too "
                                                       "(for workers of another architecture).")
@click.option("--check-games", type=click.IntRange(0), default=None,
              help="After the games, each bot's report (OUT/bots/NAME.md) gets a lastcard check run as the contest "
                   f"runs it, with this many fuzz games (0: no check).  [default: {DEFAULT_CHECK_GAMES} for an arena "
                   "of submissions, else 0]")
@report_option
@sandbox_option
def arena_cmd(file: str, out: str | None, jobs: int | None, resume: bool, fresh: bool, pin: bool | None,
              quiet: bool, cluster: str | None = None, tls_ca_file: str | None = None, tls_cert: str | None = None,
              tls_key: str | None = None, build_on_workers: bool = False,
              sandbox_mode: str | None = None, check_games: int | None = None, html_report: bool = True) -> None:
    """Run the tournament described in FILE (YAML; see docs/arena.md) and print its standings.

    Results are written as each game ends; Ctrl-C stops cleanly and --resume finishes the arena
    with exactly the results an uninterrupted run gives.
    """
    if resume and fresh:
        raise click.UsageError("--resume and --fresh contradict each other: pick one")
    arena = sandboxed(_load(file), sandbox_mode)
    if out is None and (trouble := out_dir_problem(arena.out)) is not None:
        raise ArenaError(f"{file}: out: {trouble}")
    factory = cluster_executor(cluster, tls_ca_file, tls_cert, tls_key, build_on_workers, arena)
    cluster = cluster or (arena.cluster.address if arena.cluster else None)
    progress = TerminalProgress(sys.stderr, quiet=quiet)
    workers = jobs or arena.jobs or default_jobs()
    where = f"on the Dask cluster at {cluster}" if cluster else f"{workers} worker{'s' if workers != 1 else ''}"
    progress.note(f"arena {arena.name}: {len(arena.bots)} bots, {len(arena.stages)} stage"
                  f"{'s' if len(arena.stages) != 1 else ''}, {count_games(arena, len(arena.bots))} games, {where}")
    previous = signal.signal(signal.SIGTERM, interrupt_on_sigterm)  # `kill` stops as cleanly as Ctrl-C
    try:
        run = run_arena(arena, out=out, jobs=jobs, resume=resume, fresh=fresh, progress=progress, pin=pin,
                        **({"executor_factory": factory} if factory else {}))
    except ArenaFileError as exc:
        raise ArenaError(str(exc)) from None
    except StoreError as exc:
        raise ArenaError(str(exc)) from None
    except ExecutorError as exc:
        raise click.ClickException(f"{exc}\nthe games finished so far are saved; --resume continues") from None
    finally:
        signal.signal(signal.SIGTERM, previous)
    doc = run.doc
    state = "" if run.complete else " (unfinished)"
    rate = f", {run.played_now / run.wall_s:.1f} games/s" if run.played_now and run.wall_s > 0 else ""
    if not run.complete:
        click.echo("standings so far:", err=True)
    click.echo(f"{arena.name}: {doc['games']} of {doc['games_planned']} games{state}, seed {arena.seed}, "
               f"{run.wall_s:.1f} s{rate}")
    click.echo(format_table(run.standings))
    for item in run.left_out:
        click.echo(f"left out: {item.bot} ({item.reason})")
    click.echo(f"results: {os.path.join(run.out_dir, 'results.json')}")
    _bot_reports(arena, run, check_games, workers, progress)
    if html_report:
        write_html_report(run.out_dir)
    if not run.complete:
        click.echo(f"resume with: lastcard arena {file} --resume" + (f" --out {out}" if out else ""), err=True)
        sys.exit(130)


def cluster_executor(cluster: str | None, ca: str | None, cert: str | None, key: str | None,
                     build_on_workers: bool, arena: Arena) -> Any:
    """The executor factory for ``--cluster`` or the file's ``executor:`` (None for the local pool; Dask is
    imported only then)."""
    if not cluster:
        if ca or cert or key or build_on_workers:
            raise click.UsageError("--tls-ca-file, --tls-cert, --tls-key and --build-on-workers need --cluster")
        if arena.cluster is None:
            return None
    from ..arena.cluster import ClusterOptions, cluster_factory

    options = ClusterOptions(cluster, ca, cert, key, build_on_workers) if cluster else arena.cluster
    try:
        return cluster_factory(options)
    except ExecutorError as exc:
        raise click.UsageError(str(exc)) from None


def _bot_reports(arena: Arena, run: ArenaRun, check_games: int | None, jobs: int,
                 progress: TerminalProgress) -> None:
    """Write OUT/bots/NAME.md for every entrant, after checking the bots that played (if asked)."""
    gone = {x.bot for x in run.left_out}
    played = [e for e in arena.bots if e.spec.builtin is None and e.spec.name not in gone]
    if check_games is None:  # a class is checked for its students' reports; a bench of known bots is not
        check_games = DEFAULT_CHECK_GAMES if any(e.submission for e in arena.bots) else 0
    checks: dict[str, dict[str, Any]] = {}
    if check_games and played and run.complete:
        progress.note(f"checking {len(played)} bot(s) for their reports ({check_games} fuzz games each)...")
        checks = run_contest_checks(arena, played, games=check_games, jobs=jobs)
    paths = write_bot_reports(run.out_dir, run.doc, run.games, arena.bots, run.left_out, checks)
    if paths:
        click.echo(f"reports per bot: {os.path.dirname(paths[-1])}")


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
def validate_cmd(file: str) -> None:
    """Check an arena FILE without playing: every mistake, with its key path and line; then a summary."""
    arena = _load(file)
    click.echo(f"{file}: ok")
    for line in _description(arena.description):
        click.echo(f"  {line}")
    click.echo(f"  name {arena.name}, seed {arena.seed}, policy {arena.policy}, jobs {arena.jobs or 'auto'}, "
               f"out {_show_path(arena.out)}")
    kept, left = check_requires(arena.bots)
    click.echo(f"  bots ({len(arena.bots)}):")
    shown = arena.bots if len(arena.bots) <= SHOW_BOTS else arena.bots[:SHOW_BOTS - 2]
    for entry in shown:
        notes = []
        if entry.language:
            notes.append(entry.language)
        if entry.build:
            notes.append("build step")
        if entry.requires:
            notes.append("requires " + ", ".join(entry.requires))
        command = entry.spec.command if not entry.unusable else "(nothing to run: left out, see below)"
        click.echo(f"    {entry.spec.name}: {command}" + (f"  ({'; '.join(notes)})" if notes else ""))
    if len(shown) < len(arena.bots):
        click.echo(f"    ... and {len(arena.bots) - len(shown)} more: {arena.bots[-1].spec.name} is the last")
    counts = stage_game_counts(arena, len(kept))
    for stage, n in zip(arena.stages, counts):
        extra = " (duplicate deals)" if stage.duplicate else ""
        entrants = f", top {stage.entrants}" if stage.entrants else ""
        click.echo(f"  stage {stage.name}: {stage.format}, {stage.ruleset}, {stage.seats} seats, games {stage.games}"
                   f"{extra}{entrants}: {n} games")
    click.echo(f"  total: {sum(counts)} games")
    for item in left:
        click.echo(f"  would be left out: {item.bot} ({item.reason})")
    if any(e.build for e in arena.bots):
        click.echo("  (build steps run when the arena starts; a bot whose build fails is left out)")


class TerminalProgress:
    """A progress bar on a terminal, a plain line every few seconds otherwise."""

    BAR = 28
    TTY_EVERY = 0.1
    LINE_EVERY = 10.0

    def __init__(self, stream: TextIO, quiet: bool = False) -> None:
        self.stream = stream
        self.quiet = quiet
        self.tty = stream.isatty()
        self.t0 = time.monotonic()
        self.base = 0
        self.last = 0.0
        self.drawn = False

    def note(self, text: str) -> None:
        if self.drawn:
            self._clear()
        click.echo(text, err=True)

    def start(self, total: int, done: int) -> None:
        self.t0 = time.monotonic()
        self.base = done
        self.last = self.t0

    def update(self, done: int, total: int, leader: Leader) -> None:
        if self.quiet:
            return
        now = time.monotonic()
        finished = done >= total
        if now - self.last < (self.TTY_EVERY if self.tty else self.LINE_EVERY) and not (finished and self.tty):
            return
        self.last = now
        elapsed = now - self.t0
        rate = (done - self.base) / elapsed if elapsed > 0 else 0.0
        eta = (total - done) / rate if rate > 0 else None
        eta_text = _duration(eta) if eta is not None else "?"
        if callable(leader):  # found only now: the fit is not paid for lines never drawn
            leader = leader()
        lead = f"  leader {leader}" if leader else ""
        if self.tty:
            filled = int(self.BAR * done / total) if total else self.BAR
            bar = "#" * filled + "." * (self.BAR - filled)
            self.stream.write(f"\r[{bar}] {done}/{total} games  {rate:.1f}/s  ETA {eta_text}{lead}\x1b[K")
            self.stream.flush()
            self.drawn = True
        else:
            click.echo(f"{done}/{total} games, {rate:.1f} games/s, ETA {eta_text}{lead}", err=True)

    def stop(self) -> None:
        if self.drawn:
            self._clear()

    def _clear(self) -> None:
        self.stream.write("\r\x1b[K")
        self.stream.flush()
        self.drawn = False


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}:{secs:02d}"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"
