"""``lastcard match``: games between 2-6 bots at one table, seats rotating; a one-stage arena run in memory.

The games are played, stored and reported by the arena's runner, so ``match --out`` writes exactly
what ``lastcard arena`` writes (results.json, games.jsonl, standings, records, logs) and gains its
workers (``--jobs``), atomic writes and ``--resume``.
"""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import replace
from typing import Sequence

import click

from referee.arena.formats import RoundRobin
from referee.arena.model import Arena, Stage
from referee.arena.runner import ArenaRun, NeverStarted, run_arena
from referee.bots.entry import BotEntry
from referee.bots.spec import BotSpec, TimeLimits, parse_bot, unique_names
from referee.cli.common import (
    InputError,
    RunError,
    TerminalProgress,
    cluster_executor,
    cluster_options,
    executor_kwargs,
    interrupted,
    sigterm_as_interrupt,
    warn_never_started,
)
from referee.cli.live_option import end_live, live_option, start_live, with_live
from referee.cli.needs_option import needs_options, with_needs
from referee.cli.options import (
    build_ruleset,
    jobs_option,
    out_option,
    page_tapes,
    report_option,
    ruleset_options,
    seat_names_option,
    seed_option,
    time_options,
    with_clock,
    write_html_report,
)
from referee.cli.sandbox_option import sandbox_option, sandboxed
from referee.engine.rules import MAX_PLAYERS, MIN_PLAYERS, Ruleset
from referee.live.address import LiveAddress
from referee.standings.first_faults import fault_lines
from referee.standings.render import text_table
from referee.store.results_dir import ResultsDir
from referee.store.run_store import StoreError
from referee.table.policy import FaultPolicy

#: What a match calls the keys of arena.json that a resume compares.
MATCH_WORDS = {"stages": "--games, --ruleset or --option", "bots": "the BOTs or their time limits",
               "seed": "--seed", "policy": "--policy", "records": "--records", "sandbox": "--sandbox",
               "seat_names": "--seat-names"}
#: Bootstrap samples for the rating interval.
BOOTSTRAP = 200


@click.command("match")
@ruleset_options
@click.option("--games", "-n", type=click.IntRange(1), default=10, show_default=True, help="Games to play.")
@seed_option
@out_option("Write results.json, games.jsonl, the standings, report.html and logs here.")
@click.option("--policy", default="forfeit", show_default=True, metavar="forfeit|strikes:N",
              help="What a bot fault costs: the game, or a draw in its place up to N times a game.")
@click.option("--records", "record", is_flag=True,
              help=f"With --out, keep every game's full message record in {ResultsDir.RECORDS} (games with a fault "
                   f"keep theirs anyway; the rest are rebuilt from {ResultsDir.GAMES} when asked).")
@jobs_option(1, "Worker processes playing games side by side (results are the same whatever the number).")
@click.option("--resume", is_flag=True, help="Finish an interrupted match in the same --out directory.")
@click.option("--fresh", is_flag=True, help="Start over, discarding an unfinished match in --out.")
@click.option("--practice", is_flag=True, help="No clocks: a bot may think (or sit in a debugger) as long as it "
                                                 "likes. For debugging; an arena never runs this way.")
@cluster_options
@report_option
@time_options
@sandbox_option
@live_option
@seat_names_option
@needs_options
@click.argument("bots", nargs=-1, required=True, metavar="BOT BOT [BOT ...]")
def match_cmd(ruleset: str, options: tuple[str, ...], games: int, seed: int, out: str | None, policy: str,
              record: bool, jobs: int, resume: bool, fresh: bool, move_ms: int, bank_ms: int, startup_ms: int,
              sandbox_mode: str | None, bots: tuple[str, ...], html_report: bool = True,
              practice: bool = False, cluster: str | None = None, tls_ca_file: str | None = None,
              tls_cert: str | None = None, tls_key: str | None = None, clock: str | None = None,
              wall_ms: int | None = None, live: LiveAddress | None = None, seat_names: str = "shown",
              bot_env: tuple[str, ...] = (), bot_paths: tuple[str, ...] = ()) -> None:
    """Play GAMES games between BOTs, rotating the seats, and print the standings.

    A BOT is builtin:NAME (random, easy, medium, hard) or a command line in quotes, e.g.
    "python3 sample_bots/python/strong_bot.py"; NAME=COMMAND gives it a name.
    """
    rules = build_ruleset(ruleset, options)
    _check_args(bots, out, resume, fresh)
    try:
        fault_policy = FaultPolicy.parse(policy)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--policy") from None
    limits = with_clock(TimeLimits(startup_ms=startup_ms, move_ms=move_ms, bank_ms=bank_ms), clock, wall_ms)
    if practice:
        limits = limits.practice()
    try:
        specs = unique_names([parse_bot(b, limits) for b in bots])
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="BOT") from None
    specs = with_needs(specs, bot_env, bot_paths)
    arena = sandboxed(match_arena(rules, specs, games=games, seed=seed, policy=fault_policy,
                                  records=bool(out and record), hide_names=seat_names == "hidden"), sandbox_mode)
    factory = cluster_executor(cluster, tls_ca_file, tls_cert, tls_key, False, arena)
    state = start_live(live, f"match: {' vs '.join(s.name for s in specs)}", "match",
                       os.path.abspath(out) if out else None)
    progress = with_live(TerminalProgress(quiet=not sys.stderr.isatty()), state)
    scratch = None if out else tempfile.TemporaryDirectory(prefix="lastcard-match-")
    try:
        with sigterm_as_interrupt():
            run = run_arena(arena, out=out or (scratch.name if scratch else None), jobs=jobs, resume=resume,
                            fresh=fresh or scratch is not None, progress=progress, kind="match",
                            keep_games=scratch is None, live=state, page_tapes=page_tapes(bool(out) and html_report),
                            **executor_kwargs(factory))
    except StoreError as exc:
        if not exc.changed:
            raise
        raise InputError(f"--resume: the match in {out} was started with other settings ("
                         + ", ".join(MATCH_WORDS.get(k, k) for k in exc.changed) + "); give the same bots and "
                         "options as the first run, or --fresh to start over") from None
    finally:
        if scratch is not None:
            scratch.cleanup()
    end_live(state, complete=run.complete, standings=run.standings, games=run.doc.games,
             stopped=run.cannot_start is not None,
             message=(f"{run.cannot_start.bot} cannot start" if run.cannot_start is not None
                      else f"{run.doc.games} of {run.doc.games_planned} games in {run.wall_s:.1f} s"))
    if out and run.cannot_start is None:  # a one-stage arena writes what an arena writes: the reports per bot too
        from referee.arena.bot_reports import write_bot_reports  # here: a match without --out writes none

        write_bot_reports(run.out_dir, run.doc, run.games, arena.bots, run.left_out)
    _show(run, rules, len(specs), seed, out, html_report, jobs)


def _show(run: ArenaRun, rules: Ruleset, seats: int, seed: int, out: str | None, html_report: bool, jobs: int) -> None:
    """What a match prints once played (or interrupted): the standings, where the results are, the bots that
    never started; the exit status of a match that could not be played or was cut short."""
    if run.cannot_start is not None:
        if out and html_report:
            write_html_report(run.out_dir)
        raise RunError((run.cannot_start if out else replace(run.cannot_start, log=None)).text())
    if not run.complete:
        click.echo(f"interrupted after {run.doc.games} games; standings so far:", err=True)
    click.echo(f"{rules.house}, {run.doc.games} games, {seats} seats, seed {seed}, {run.wall_s:.1f} s")
    click.echo(text_table(run.standings))
    if out:
        click.echo(f"results: {ResultsDir(run.out_dir).results}")
        if html_report:
            write_html_report(run.out_dir, jobs=jobs)
    for line in fault_lines(run.faults, run.out_dir if out else None, order=run.standings.bots,
                            leave_out=[n.bot for n in run.never_started], report=html_report):
        click.echo(line, err=True)
    if run.never_started:
        _never_started(run.never_started, logs_kept=out is not None)
    if not run.complete:
        interrupted(games=f"{run.doc.games:,} of {run.doc.games_planned:,} games")


def _check_args(bots: Sequence[str], out: str | None, resume: bool, fresh: bool) -> None:
    """Usage errors no single option can see: the table's size, --resume with --fresh or without --out."""
    if not MIN_PLAYERS <= len(bots) <= MAX_PLAYERS:
        raise click.UsageError(f"{len(bots)} bots given: a table seats {MIN_PLAYERS} to {MAX_PLAYERS}")
    if resume and fresh:
        raise click.UsageError("--resume and --fresh contradict each other: pick one")
    if resume and not out:
        raise click.UsageError("--resume finishes the match stored in --out: give the same --out as the first run")


def _never_started(never: Sequence[NeverStarted], *, logs_kept: bool) -> None:
    """The warning block, each bot with its own words, then exit status 1: a match without a bot is no match."""
    if not logs_kept:  # the logs went with the scratch folder: name no path that is gone
        never = [replace(n, log=None) for n in never]
    lines = warn_never_started(list(never))
    click.echo("\n".join(lines[:-1]), err=True)
    raise RunError(f"{', '.join(n.bot for n in never)} never started: {lines[-1]}")


def match_arena(rules: Ruleset, specs: Sequence[BotSpec], *, games: int, seed: int, policy: FaultPolicy,
                records: bool, hide_names: bool = False) -> Arena:
    """A one-stage arena: every bot at one table for ``games`` games, the seats rotating (``hide_names``: told
    neutral seat labels, not names)."""
    stage = Stage(name=rules.house, rules=rules, seats=len(specs), format=RoundRobin(), games=games)
    return Arena(name="match", source="lastcard match", base_dir=os.getcwd(),
                 out=os.path.join(os.getcwd(), "results", "match"), seed=seed, stages=(stage,),
                 bots=tuple(BotEntry(spec, f"BOT {i + 1}") for i, spec in enumerate(specs)), policy=policy,
                 records=records, bootstrap=BOOTSTRAP, hide_names=hide_names)
