"""``lastcard tune BOT --param NAME=START,MIN,MAX,C_END[,R_END] ...``: SPSA over a bot's numbers on twin games.

The bot's command carries a placeholder per parameter; each iteration plays ``--pairs`` twin pairs of the plus
side against the minus side (``referee.tune.run``) and steps the values as OpenBench does. See docs/tune.md.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any, Sequence

import click

from referee.cli.common import (
    RunError,
    cluster_executor,
    cluster_options,
    executor_kwargs,
    interrupted,
    sigterm_as_interrupt,
    warn_never_started,
)
from referee.cli.compare import LiveDisplay, compare_arena, print_result
from referee.cli.contest_option import contest_options, say_format, table_of
from referee.cli.options import (
    jobs_option,
    out_option,
    report_option,
    ruleset_options,
    seed_option,
    time_options,
    write_html_report,
)
from referee.cli.redrawn import RedrawnBlock
from referee.cli.sandbox_option import announce, sandbox_option
from referee.compare.display import both_line, header_line
from referee.compare.run import CompareRun, run_compare
from referee.compare.twins import CompareError, Versus
from referee.store.results_dir import ResultsDir
from referee.tune.model import Step, TuneError, TuneRun, TuneSettings
from referee.tune.outputs import live_lines, result_lines
from referee.tune.params import Param, ParamError, parse_option, read_file
from referee.tune.run import run_tune, verify_settings
from referee.tune.spsa import A_RATIO, ALPHA, GAMMA, SpsaSettings

#: An iteration's pairs are planned as a list: beyond this an iteration is a comparison, not a step of SPSA.
MAX_PAIRS = 10_000
MAX_ITERATIONS = 10**9
DEFAULT_ITERATIONS = 200


class LiveTuneDisplay(RedrawnBlock):
    """Each parameter's value and trend, redrawn as iterations end; the last iteration's block stays."""

    def update(self, settings: TuneSettings, steps: Sequence[Step]) -> None:
        last = len(steps) == settings.spsa.iterations
        if self.due(force=last):
            self.draw(live_lines(settings, steps, self.last - self.t0), keep=last)


def _params(given: tuple[str, ...], files: tuple[str, ...]) -> list[Param]:
    params = [param for path in files for param in read_file(path)]
    return params + [parse_option(text) for text in given]


@click.command("tune")
@click.argument("bot", metavar="BOT")
@click.option("--param", "param_texts", multiple=True, metavar="NAME=START,MIN,MAX,C_END[,R_END]",
              help="A parameter to tune (repeatable): {NAME} in BOT's command is replaced by its value. An int "
                   "unless a number has a decimal point; R_END defaults to 0.002.")
@click.option("--params", "param_files", multiple=True, type=click.Path(dir_okay=False), metavar="FILE",
              help="Parameters as OpenBench's pasted lines: NAME, int|float, START, MIN, MAX, C_END, R_END.")
@click.option("--field", "field_bots", multiple=True, metavar="BOT",
              help="Another bot at the table (repeatable): the plus and minus sides swap seats, the field stays.")
@click.option("--seats", type=int, default=None, help="Players per game (default 2 plus the field; the rest "
                                                      "filled with builtin:medium).")
@contest_options
@ruleset_options
@click.option("--iterations", type=click.IntRange(1, MAX_ITERATIONS), default=None,
              help="SPSA iterations (default 200, or what --games allows).")
@click.option("--games", "-n", "budget", type=click.IntRange(2), default=None,
              help="A game budget instead of --iterations: iterations = games / (2 * pairs).")
@click.option("--pairs", type=click.IntRange(1, MAX_PAIRS), default=8, show_default=True,
              help="Twin pairs per iteration (OpenBench's pairs-per).")
@click.option("--alpha", type=click.FloatRange(0, min_open=True), default=ALPHA, show_default=True,
              help="The step's decay exponent: a_k = a / (A + k)^alpha.")
@click.option("--gamma", type=click.FloatRange(0, min_open=True), default=GAMMA, show_default=True,
              help="The perturbation's decay exponent: c_k = c / k^gamma.")
@click.option("--a-ratio", type=click.FloatRange(0), default=A_RATIO, show_default=True,
              help="A as a fraction of the iterations.")
@click.option("--independent", is_flag=True,
              help="Play a pair's second game on another deal (no twins): to measure what twin games save.")
@seed_option
@click.option("--policy", default="forfeit", show_default=True, metavar="forfeit|strikes:N",
              help="What a bot fault costs: the game, or a draw in its place up to N times a game.")
@click.option("--verify", type=click.IntRange(2), default=None, metavar="GAMES",
              help="At the end, compare the tuned values against the start over this many games (even).")
@click.option("--vs-field", is_flag=True,
              help="With --verify: also compare the tuned values' results against the field (the contest's bots, or "
                   "--field) with the start's, over as many games. Did my rating in the contest move?")
@jobs_option(1, "Worker processes playing games side by side (the trajectory is the same whatever the number).")
@cluster_options
@out_option("Write games.jsonl, results.json, trajectory.csv, tuned.txt, logs and report.html here.")
@click.option("--resume", is_flag=True, help="Finish an interrupted tune in the same --out directory.")
@click.option("--fresh", is_flag=True, help="Start over, discarding an unfinished tune in --out.")
@click.option("--quiet", "-q", is_flag=True, help="No live display: the result only.")
@report_option
@time_options
@sandbox_option
@click.pass_context
def tune_cmd(ctx: click.Context, /, bot: str, param_texts: tuple[str, ...], param_files: tuple[str, ...],
             field_bots: tuple[str, ...], seats: int | None, arena_file: str | None, stage: str | None, ruleset: str,
             options: tuple[str, ...], iterations: int | None, budget: int | None, pairs: int, alpha: float,
             gamma: float, a_ratio: float, independent: bool, seed: int, policy: str, verify: int | None,
             vs_field: bool, jobs: int, cluster: str | None, tls_ca_file: str | None, tls_cert: str | None,
             tls_key: str | None, out: str | None, resume: bool, fresh: bool, quiet: bool, html_report: bool,
             sandbox_mode: str | None, clock: str | None = None, wall_ms: int | None = None,
             **time_limits: Any) -> None:
    """Tune BOT's numbers with SPSA: every iteration plays twin games of the values nudged up against the values
    nudged down, then moves them towards the side that won (OpenBench's schedule and conventions).

    BOT is a command line in quotes with a placeholder per parameter, e.g.
    "python3 bot.py --keep {keep} --aggr {aggr}" (NAME=COMMAND names it). At the end: the tuned values as a
    command line and as a parameter file; with --out, trajectory.csv and a chart in report.html.
    See docs/tune.md.
    """
    iterations = _length(iterations, budget, pairs, verify=verify, out=out, resume=resume, fresh=fresh)
    if vs_field and verify is None:
        raise click.UsageError("--vs-field is part of --verify: give --verify GAMES too")
    table = table_of(ctx, arena_file, stage, ruleset=ruleset, options=options, seats=seats, policy=policy,
                     sandbox_mode=sandbox_mode, clock=clock, wall_ms=wall_ms, time_limits=time_limits)
    # The folder it was started in, written down: a cluster's worker runs it from the same place in its copy.
    tuned = table.bot(bot, "BOT")
    tuned = replace(tuned, cwd=tuned.cwd or os.getcwd())
    field, draw = table.field(field_bots, [tuned])
    try:
        settings = TuneSettings.build(tuned, _params(param_texts, param_files),
                                      SpsaSettings(iterations, pairs, alpha, gamma, a_ratio), field,
                                      seats=table.seats, seed=seed, rules=table.rules, policy=table.policy,
                                      independent=independent, draw=draw)
    except (ParamError, TuneError, CompareError) as exc:
        raise click.BadParameter(str(exc), param_hint=f"--{exc.option}") from None
    t = settings.table
    say_format(table.played(t.seats, [tuned], [s.name for s in t.field], t.draw), self_play=not t.field,
               field_given=bool(field_bots))
    announce([t.new, t.base, *t.field])
    arena = settings.arena()
    factory = cluster_executor(cluster, tls_ca_file, tls_cert, tls_key, False, arena)
    display = LiveTuneDisplay(quiet=quiet)
    with sigterm_as_interrupt():
        run = run_tune(settings, out=out, jobs=jobs, resume=resume, fresh=fresh, display=display, arena=arena,
                       **executor_kwargs(factory))
    _end(run, out, html_report)
    if verify:
        runs = [_verify(settings, run.theta, verify, jobs=jobs, out=out, quiet=quiet, html_report=html_report,
                        cluster=(cluster, tls_ca_file, tls_cert, tls_key))]
        if vs_field:
            runs.append(_verify(settings, run.theta, verify, jobs=jobs, out=out, quiet=quiet, html_report=html_report,
                                cluster=(cluster, tls_ca_file, tls_cert, tls_key), versus="field"))
            click.echo(both_line(runs[0], runs[1]))


def _length(iterations: int | None, budget: int | None, pairs: int, *, verify: int | None, out: str | None,
            resume: bool, fresh: bool) -> int:
    """The iterations asked for (``--iterations``, or ``--games`` as whole iterations, else 200), once the
    options that contradict each other are refused."""
    if resume and fresh:
        raise click.UsageError("--resume and --fresh contradict each other: pick one")
    if resume and not out:
        raise click.UsageError("--resume finishes the tune stored in --out: give the same --out as the first run")
    if iterations is not None and budget is not None:
        raise click.UsageError(f"--iterations {iterations} and --games {budget} both set the length: pick one")
    if verify is not None and verify % 2:
        raise click.BadParameter(f"{verify}: compare plays twin pairs, so give an even number (e.g. {verify + 1})",
                                 param_hint="--verify")
    if budget is None:
        return iterations or DEFAULT_ITERATIONS
    if budget < 2 * pairs:
        raise click.BadParameter(f"{budget} games do not make one iteration of {pairs} twin pairs: give at least "
                                 f"{2 * pairs}, or fewer --pairs", param_hint="--games")
    return min(budget // (2 * pairs), MAX_ITERATIONS)


def _end(run: TuneRun, out: str | None, html_report: bool) -> None:
    """The tuned values, the report, and the exit for a bot that never started or a run cut short."""
    rate = run.played_now / run.wall_s if run.wall_s > 0 else 0.0
    click.echo(f"{run.played_now} games played in {run.wall_s:.1f} s ({rate:.1f} games/s; {run.loop_s:.2f} s "
               f"between the iterations' games), seed {run.settings.seed}", err=True)
    for line in result_lines(run):
        click.echo(line)
    if out and run.out_dir:
        click.echo(f"results: {ResultsDir(run.out_dir).results}")
        if html_report:
            write_html_report(run.out_dir)
    if run.never_started:
        lines = warn_never_started(run.never_started)
        click.echo("\n".join(lines[:-1]), err=True)
        raise RunError(f"{', '.join(n.bot for n in run.never_started)} never started: {lines[-1]}")
    if not run.complete:
        interrupted(games=f"{len(run.steps)} of {run.settings.spsa.iterations} iterations")


def _verify(settings: TuneSettings, theta: Sequence[float], games: int, *, jobs: int, out: str | None, quiet: bool,
            html_report: bool, cluster: tuple[str | None, str | None, str | None, str | None],
            versus: Versus = "each-other") -> CompareRun:
    """``--verify N``: a fixed-length compare of the tuned values against the start, its block printed (against
    the field: their results against the tune's field, in ``verify-vs-field``)."""
    try:
        compare = verify_settings(settings, theta, games, versus)
    except CompareError as exc:
        raise click.BadParameter(str(exc), param_hint=f"--{exc.option}") from None
    arena = compare_arena(compare)
    factory = cluster_executor(*cluster, False, arena)
    header = header_line(compare.new.name, compare.base.name, compare.describe())
    against = " against the field, by their places in the same seat on the same deals" if versus == "field" else ""
    click.echo(f"verifying: {compare.new.name} ({compare.new.command}) against {compare.base.name} "
               f"({compare.base.command}){against}, {games} games", err=True)
    folder = "verify" if versus == "each-other" else "verify-vs-field"
    verify_out = f"{out}/{folder}" if out else None
    with sigterm_as_interrupt():
        run = run_compare(compare, arena, out=verify_out, jobs=jobs, fresh=True,
                          display=LiveDisplay(header, quiet=quiet), **executor_kwargs(factory))
    print_result(run, header)
    if verify_out and run.out_dir and html_report:
        write_html_report(run.out_dir)
    if not run.complete:
        interrupted(games=f"{run.tally.games} verify games counted")
    return run
