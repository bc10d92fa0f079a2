"""``lastcard compare NEW BASE``: an A/B test of two versions of a bot on twin games, stopped by the GSPRT.

Bots, sandbox, time limits and fault policy as ``match`` takes them; the games are played on the one run
loop (``referee.compare.run``); ``--out`` writes what an arena writes plus results.json's ``sprt`` block.
Exit status 0 whatever the verdict; 1, 2 and 130 as every command (``common``).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace
from typing import Any, TextIO, TypedDict, cast

import click

from referee.arena.model import Arena
from referee.arena.runner import NeverStarted
from referee.bots.entry import BotEntry
from referee.bots.spec import BotSpec
from referee.cli.common import (
    RunError,
    cluster_executor,
    cluster_options,
    executor_kwargs,
    interrupted,
    sigterm_as_interrupt,
    warn_never_started,
)
from referee.cli.contest_option import TableOptions, contest_options, say_format, table_of
from referee.cli.live_option import end_live, live_option, start_live
from referee.cli.needs_option import bot_needs, named, needs_options
from referee.cli.options import (
    jobs_option,
    out_option,
    report_option,
    ruleset_options,
    seat_names_option,
    seed_option,
    time_options,
    write_html_report,
)
from referee.cli.redrawn import RedrawnBlock
from referee.cli.sandbox_option import announce, sandbox_option
from referee.compare.bounds import resolve_bounds
from referee.compare.candidates import CandidateSettings
from referee.compare.candidates_run import run_candidates
from referee.compare.display import (
    alike_lines,
    both_line,
    bounds_line,
    expected_line,
    family_lines,
    header_line,
    summary_lines,
    verdict_line,
    winner_line,
)
from referee.compare.run import CompareRun, run_compare
from referee.compare.sprt import MODELS, Model, PairTally, Sprt, SprtError, SprtSettings
from referee.compare.twins import CompareError, CompareSettings, Versus
from referee.live.address import LiveAddress
from referee.live.state import LiveState
from referee.standings.first_faults import fault_lines
from referee.store.results_dir import ResultsDir


class LiveDisplay(RedrawnBlock):
    """The fastchess block, redrawn as pairs are counted, with the test's expected length and the time left."""

    def __init__(self, header: str, stream: TextIO | None = None, quiet: bool = False) -> None:
        super().__init__(stream, quiet)
        self.header = header
        self.first: tuple[float, int] | None = None
        """When the first pair of this run was counted, and the games counted then (a resumed run's included)."""

    def lines(self, counter: Sprt | PairTally) -> list[str]:
        """The block now: fastchess's lines, then (with a test) what it is expected to take."""
        now = time.monotonic()
        if self.first is None:
            self.first = (now, counter.games)
        since, games = self.first
        rate = (counter.games - games) / (now - since) if now > since and counter.games > games else None
        extra = [expected_line(counter, rate)] if isinstance(counter, Sprt) else []
        return [self.header, *summary_lines(counter), *extra]

    def update(self, counter: Sprt | PairTally) -> None:
        if self.due():
            self.draw(self.lines(counter))


class PageDisplay:
    """The terminal's block (``inner``) and the live page's: the same lines, and the LLR trace against the
    bounds, given to the page at most every ``EVERY`` s."""

    EVERY = 0.2

    def __init__(self, inner: LiveDisplay, state: LiveState, header: str, total: int) -> None:
        self.inner = inner
        self.state = state
        self.header = header
        self.total = total
        self.sent = 0.0

    def note(self, text: str) -> None:
        self.inner.note(text)
        self.state.note(text)

    def update(self, counter: Sprt | PairTally) -> None:
        self.inner.update(counter)
        if time.monotonic() - self.sent >= self.EVERY:
            self.show(counter)

    def show(self, counter: Sprt | PairTally) -> None:
        """The page's block now."""
        self.sent = time.monotonic()
        self.state.progress(counter.games, self.total)  # 0: no cap, the test decides
        sprt = counter if isinstance(counter, Sprt) else None
        self.state.compare(self.inner.lines(counter), sprt.llr_trace if sprt else [],
                           sprt.settings.lower if sprt else None, sprt.settings.upper if sprt else None)

    def stop(self) -> None:
        self.inner.stop()

    @staticmethod
    def ended(display: LiveDisplay | PageDisplay, run: CompareRun) -> None:
        """The run ended: its last block, the verdict and the final standings on the page (if there is one)."""
        if isinstance(display, PageDisplay):
            display.end(run)

    def end(self, run: CompareRun) -> None:
        """The run ended: its last block, the verdict and the final standings on the page."""
        self.show(run.counter)  # the last pair counted, whatever the throttle skipped
        decided = run.sprt is not None and run.complete
        end_live(self.state, complete=run.complete, standings=run.standings, games=run.tally.games,
                 message=verdict_line(run.sprt.result, run.sprt.games) if run.sprt is not None and decided
                 else f"{run.tally.games} games counted")


def _displays(live: LiveAddress | None, settings: CompareSettings, header: str, quiet: bool,
              out: str | None) -> tuple[LiveDisplay | PageDisplay, LiveState | None]:
    """The terminal's display, and with ``--live`` the page's around it (and its state)."""
    state = start_live(live, f"compare {settings.new.name} vs {settings.base.name}", "compare",
                       os.path.abspath(out) if out else None)
    terminal = LiveDisplay(header, quiet=quiet)
    if state is None:
        return terminal, None
    return PageDisplay(terminal, state, header, 2 * (settings.max_pairs or 0)), state


def _usage(exc: CompareError | SprtError) -> click.BadParameter:
    return click.BadParameter(str(exc), param_hint=f"--{exc.option}")


@click.command("compare")
@click.argument("new", metavar="NEW")
@click.argument("base", metavar="BASE", required=False)
@click.option("--candidate", "candidates", multiple=True, metavar="BOT",
              help="Several candidates against one base: `compare BASE --candidate NEW --candidate NEW2 ...` "
                   "(repeatable; each its own test, alpha and beta family-wise by Bonferroni).")
@click.option("--field", "field_bots", multiple=True, metavar="BOT",
              help="Another bot at the table (repeatable): 3-6 seats, NEW and BASE swap seats, the field stays.")
@click.option("--seats", type=int, default=None, help="Players per game (default 2 plus the field; the rest "
                                                      "filled with builtin:medium).")
@contest_options
@click.option("--vs-field", is_flag=True,
              help="Then a second test: NEW's results against the field (the contest's bots, or --field) against "
                   "BASE's, on the same deals and seats. Did my rating in the contest move?")
@ruleset_options
@click.option("--elo0", type=float, default=None, help="H0: NEW is this much stronger (Elo).  [default: 0]")
@click.option("--elo1", type=float, default=None,
              help="H1: NEW is this much stronger (Elo).  [default: the table's, so that +30 Elo is accepted at least "
                   "95% of the time: 30 or 35 nElo (30 Elo logistic); docs/compare.md]")
@click.option("--alpha", type=float, default=0.05, show_default=True, help="The chance of accepting H1 under H0.")
@click.option("--beta", type=float, default=0.05, show_default=True, help="The chance of accepting H0 under H1.")
@click.option("--model", type=click.Choice(MODELS), default="normalized", show_default=True,
              help="The Elo of the bounds: normalized (as fastchess) or logistic.")
@click.option("--max-games", type=int, default=None, help="Stop the test after this many games (even): "
                                                          "inconclusive if no bound was reached.")
@click.option("--games", "-n", "fixed_games", type=int, default=None,
              help="Play exactly this many games (even), no test: the estimates only.")
@seed_option
@click.option("--policy", default="forfeit", show_default=True, metavar="forfeit|strikes:N",
              help="What a bot fault costs: the game, or a draw in its place up to N times a game.")
@jobs_option(1, "Worker processes playing games side by side (the verdict is the same whatever the number).")
@cluster_options
@out_option("Write results.json (with the sprt block), games.jsonl, records, logs and report.html here.")
@click.option("--records", "record", is_flag=True,
              help=f"With --out, keep every game's full message record in {ResultsDir.RECORDS} (games with a fault "
                   f"keep theirs anyway; the rest are rebuilt from {ResultsDir.GAMES} when asked).")
@click.option("--resume", is_flag=True, help="Finish an interrupted comparison in the same --out directory.")
@click.option("--fresh", is_flag=True, help="Start over, discarding an unfinished comparison in --out.")
@click.option("--quiet", "-q", is_flag=True, help="No live display: the result only.")
@report_option
@time_options
@sandbox_option
@live_option
@seat_names_option
@needs_options
@click.pass_context
def compare_cmd(ctx: click.Context, /, new: str, base: str | None, candidates: tuple[str, ...],
                field_bots: tuple[str, ...], seats: int | None, arena_file: str | None, stage: str | None,
                vs_field: bool, ruleset: str, options: tuple[str, ...], elo0: float | None, elo1: float | None,
                alpha: float, beta: float, model: str, max_games: int | None, fixed_games: int | None, seed: int,
                policy: str, jobs: int, cluster: str | None, tls_ca_file: str | None, tls_cert: str | None,
                tls_key: str | None, out: str | None, record: bool, resume: bool, fresh: bool, quiet: bool,
                html_report: bool, sandbox_mode: str | None, clock: str | None = None, wall_ms: int | None = None,
                live: LiveAddress | None = None, seat_names: str = "shown", bot_env: tuple[str, ...] = (),
                bot_paths: tuple[str, ...] = (), **time_limits: Any) -> None:
    """Is NEW stronger than BASE? Play twin games (one deal, NEW and BASE swapping seats) until a sequential
    test (GSPRT) decides, and print the estimates as fastchess does.

    NEW and BASE are bots as `match` takes them: builtin:NAME or a command line in quotes; NAME=COMMAND
    names one (with --arena, a name of the contest's bots is that bot). The last line is "H1 accepted" (NEW
    is at least --elo1 stronger), "H0 accepted" (at most --elo0) or "inconclusive after N games". Exit
    status 0 whatever the verdict. See docs/compare.md.

    `compare BASE --candidate NEW [--candidate NEW ...]` tests several candidates at once on shared deals:
    each candidate's block and status (accepted, dropped, stopped, inconclusive), then the winner.
    """
    _check_arguments(new, base, candidates, fixed_games, out=out, resume=resume, fresh=fresh, live=live,
                     vs_field=vs_field)
    table = table_of(ctx, arena_file, stage, ruleset=ruleset, options=options, seats=seats, policy=policy,
                     sandbox_mode=sandbox_mode, clock=clock, wall_ms=wall_ms, time_limits=time_limits)
    table = replace(table, needs=bot_needs(bot_env, bot_paths, named(new, base, *candidates, *field_bots)))
    test = _Test(elo0, elo1, alpha, beta, model)
    if candidates:
        _candidates(new, candidates, table, field_bots, test, seed=seed, record=bool(out and record),
                    max_games=max_games, jobs=jobs, out=out, resume=resume, fresh=fresh, quiet=quiet,
                    html_report=html_report, cluster=(cluster, tls_ca_file, tls_cert, tls_key))
        return
    assert base is not None
    own = [table.bot(new, "NEW"), table.bot(base, "BASE")]
    field, draw = table.field(field_bots, own)
    hide_names = seat_names == "hidden" or (table.contest is not None and table.contest.arena.hide_names)
    settings, defaults = _settings(own, field, table, test, seed=seed, record=bool(out and record), draw=draw,
                                   max_games=max_games, fixed_games=fixed_games, hide_names=hide_names)
    say_format(table.played(settings.seats, own, [s.name for s in settings.field], settings.draw),
               self_play=not settings.field and not vs_field, field_given=bool(field_bots))
    _say_test(settings, table, defaults)
    kwargs: _RunOptions = {"jobs": jobs, "resume": resume, "fresh": fresh, "quiet": quiet, "html_report": html_report,
                           "cluster": (cluster, tls_ca_file, tls_cert, tls_key)}
    run = _one_test(settings, out=out, live=live, **kwargs)
    if vs_field and run.complete and not run.never_started:
        against, defaults = _settings(own, field, table, test, seed=seed, record=bool(out and record), draw=draw,
                                      max_games=max_games, fixed_games=fixed_games, versus="field",
                                      hide_names=hide_names)
        click.echo(f"\nagainst the field ({against.describe().split(': ', 1)[-1]}): each deal played by NEW, then by "
                   f"BASE in its seat; a pair scores NEW's place against BASE's", err=True)
        _say_test(against, table, defaults)
        field_run = _one_test(against, out=os.path.join(out, VS_FIELD) if out else None, live=None, **kwargs)
        click.echo(both_line(run, field_run))


#: The folder of the test against the field, under --out.
VS_FIELD = "vs-field"


class _RunOptions(TypedDict):
    jobs: int
    resume: bool
    fresh: bool
    quiet: bool
    html_report: bool
    cluster: tuple[str | None, str | None, str | None, str | None]


@dataclass(frozen=True)
class _Test:
    """The test's options as given (a bound not given is the table's default, decided once the table is known)."""

    elo0: float | None
    elo1: float | None
    alpha: float
    beta: float
    model: str

    def settings(self, house: str, seats: int) -> tuple[SprtSettings, bool]:
        """The test, and whether its bounds are the table's defaults."""
        model = cast(Model, self.model)  # click.Choice checked it
        elo0, elo1, defaults = resolve_bounds(self.elo0, self.elo1, house, seats, model)
        return SprtSettings(elo0, elo1, self.alpha, self.beta, model), defaults


def _settings(own: list[BotSpec], field: list[BotSpec], table: TableOptions, test: _Test, *, seed: int, record: bool,
              draw: bool, max_games: int | None, fixed_games: int | None,
              versus: Versus = "each-other", hide_names: bool = False) -> tuple[CompareSettings, bool]:
    """The comparison's settings (or the test against the field's), and whether its bounds are the table's
    defaults; usage errors named."""
    try:
        probe = CompareSettings.build(own[0], own[1], field, seats=table.seats, seed=seed, rules=table.rules,
                                      policy=table.policy, sprt=None, games=2, draw=draw, versus=versus,
                                      hide_names=hide_names)
        sprt, defaults = test.settings(table.rules.house, probe.seats)
        settings = CompareSettings.build(own[0], own[1], field, seats=table.seats, seed=seed, rules=table.rules,
                                         policy=table.policy, record=record,
                                         sprt=None if fixed_games is not None else sprt, max_games=max_games,
                                         games=fixed_games, draw=draw, versus=versus, hide_names=hide_names)
    except (CompareError, SprtError) as exc:
        raise _usage(exc) from None
    if versus == "each-other":
        for warning in settings.warnings:
            click.echo(f"note: {warning}", err=True)
    return settings, defaults


def _say_test(settings: CompareSettings, table: TableOptions, defaults: bool) -> None:
    """The test's bounds and what they cost, before it starts."""
    if settings.sprt is not None:
        click.echo(bounds_line(settings.sprt, table.rules.house, settings.seats, defaults), err=True)


def _one_test(settings: CompareSettings, *, out: str | None, live: LiveAddress | None, jobs: int, resume: bool,
              fresh: bool, quiet: bool, html_report: bool,
              cluster: tuple[str | None, str | None, str | None, str | None]) -> CompareRun:
    """Play one comparison to its end and print it (faults, the bots that never started, an interrupt)."""
    specs = [settings.new, settings.base, *settings.field]
    announce(specs)
    arena = compare_arena(settings)
    factory = cluster_executor(*cluster, False, arena)
    header = header_line(settings.new.name, settings.base.name, settings.describe())
    display, state = _displays(live, settings, header, quiet, out)
    with sigterm_as_interrupt():
        run = run_compare(settings, arena, out=out, jobs=jobs, resume=resume, fresh=fresh, display=display,
                          live=state, **executor_kwargs(factory))
    PageDisplay.ended(display, run)
    print_result(run, header)
    if out and run.out_dir:
        click.echo(f"results: {ResultsDir(run.out_dir).results}")
        if html_report:
            write_html_report(run.out_dir)
    if run.collected is not None:
        for line in fault_lines(run.collected.faults, run.out_dir if out else None,
                                order=[s.name for s in specs], leave_out=[n.bot for n in run.never_started],
                                report=html_report):
            click.echo(line, err=True)
    _stop_if_never_started(run.never_started)
    if not run.complete:
        interrupted(games=f"{run.tally.games} games counted")
    return run


def _stop_if_never_started(never: list[NeverStarted]) -> None:
    """The bots that never started, each with its own words, as a warning; then exit status 1 (as ``match``)."""
    if never:
        lines = warn_never_started(never)
        click.echo("\n".join(lines[:-1]), err=True)
        raise RunError(f"{', '.join(n.bot for n in never)} never started: {lines[-1]}")



def _check_arguments(new: str, base: str | None, candidates: tuple[str, ...], fixed_games: int | None, *,
                     out: str | None, resume: bool, fresh: bool, live: LiveAddress | None = None,
                     vs_field: bool = False) -> None:
    """Refuse the combinations of arguments that make no comparison, saying which and what to give instead."""
    if candidates and vs_field:
        raise click.UsageError("--vs-field tests one NEW against BASE: compare the winning candidate with "
                               "`compare NEW BASE --vs-field`")
    if candidates and base is not None:
        raise click.UsageError(f"with --candidate, give BASE alone: `compare {new} --candidate ...` "
                               f"(not NEW and BASE {new!r} {base!r})")
    if not candidates and base is None:
        raise click.UsageError("give NEW and BASE (`compare NEW BASE`), or BASE and candidates "
                               "(`compare BASE --candidate NEW ...`)")
    if candidates and fixed_games is not None:
        raise click.BadParameter("--games plays a fixed number without a test; candidates are stopped by "
                                 "their tests: use --max-games", param_hint="--games")
    if candidates and live is not None:
        raise click.UsageError("--live does not show a run of --candidate yet: drop --live, or compare one "
                               "candidate at a time (`compare NEW BASE --live PORT`)")
    if resume and fresh:
        raise click.UsageError("--resume and --fresh contradict each other: pick one")
    if resume and not out:
        raise click.UsageError("--resume finishes the comparison stored in --out: give the same --out as the "
                               "first run")

def compare_arena(settings: CompareSettings) -> Arena:
    """The bots as an arena, for the executor (a cluster ships them from it); no stages: compare plans the games."""
    return Arena(name="compare", source="lastcard compare", base_dir=os.getcwd(), out=os.getcwd(), seed=settings.seed,
                 stages=(), bots=tuple(BotEntry(s, "compare") for s in (settings.new, settings.base, *settings.field)),
                 policy=settings.policy, records=settings.record)


def print_result(run: CompareRun, header: str) -> None:
    """The final block and verdict on stdout (how long it took on stderr, before it)."""
    rate = run.played_now / 2 / run.wall_s if run.wall_s > 0 else 0.0
    click.echo(f"{run.played_now} games played in {run.wall_s:.1f} s ({rate:.1f} pairs/s), seed {run.settings.seed}",
               err=True)
    click.echo(header)
    for line in summary_lines(run.counter):
        click.echo(line)
    if run.sprt is not None and run.complete:
        click.echo(verdict_line(run.sprt.result, run.sprt.games))
    elif run.complete:
        click.echo(f"{run.tally.games} games played (--games: no test)")


class FamilyLive(LiveDisplay):
    """Every candidate's block and status, redrawn as pairs come in."""

    def update(self, family: Any) -> None:
        if self.due():
            self.draw(family_lines(family, self.header))


def _candidates(base: str, candidates: tuple[str, ...], table: TableOptions, field_bots: tuple[str, ...],
                test: _Test, *, seed: int, record: bool, max_games: int | None, jobs: int, out: str | None,
                resume: bool, fresh: bool, quiet: bool, html_report: bool,
                cluster: tuple[str | None, str | None, str | None, str | None]) -> None:
    """``compare BASE --candidate NEW ...``: the family of tests, its blocks and statuses, the winner."""
    named = [table.bot(c, "--candidate") for c in candidates]
    own = [table.bot(base, "BASE"), *named]
    field, draw = table.field(field_bots, own)
    try:
        probe = CompareSettings.build(named[0], own[0], field, seats=table.seats, seed=seed, rules=table.rules,
                                      sprt=None, games=2, draw=draw)
        sprt, defaults = test.settings(table.rules.house, probe.seats)
        settings = CandidateSettings.build(named, own[0], field, seats=table.seats, seed=seed, rules=table.rules,
                                           policy=table.policy, record=record, sprt=sprt, max_games=max_games,
                                           draw=draw)
    except (CompareError, SprtError) as exc:
        raise _usage(exc) from None
    for warning in settings.warnings:
        click.echo(f"note: {warning}", err=True)
    say_format(table.played(settings.seats, own, [s.name for s in settings.field], settings.draw),
               self_play=not settings.field, field_given=bool(field_bots))
    click.echo(bounds_line(settings.per_test, table.rules.house, settings.seats, defaults) + " (each candidate's)",
               err=True)
    specs = [settings.base, *settings.candidates, *settings.field]
    announce(specs)
    arena = Arena(name="compare", source="lastcard compare", base_dir=os.getcwd(), out=os.getcwd(), seed=seed,
                  stages=(), bots=tuple(BotEntry(s, "compare") for s in specs), policy=table.policy, records=record)
    factory = cluster_executor(*cluster, False, arena)
    detail = settings.describe()
    display = FamilyLive(detail, quiet=quiet)
    with sigterm_as_interrupt():
        run = run_candidates(settings, arena, out=out, jobs=jobs, resume=resume, fresh=fresh, display=display,
                             **executor_kwargs(factory))
    rate = run.played_now / 2 / run.wall_s if run.wall_s > 0 else 0.0
    per = settings.per_test
    click.echo(f"{run.played_now} games played in {run.wall_s:.1f} s ({rate:.1f} pairs/s), seed {seed}; "
               f"{len(candidates)} candidates, each test at alpha {per.alpha:g}, beta {per.beta:g} (Bonferroni)",
               err=True)
    for line in family_lines(run.family, detail):
        click.echo(line)
    if run.complete:
        click.echo(f"{run.family.games} games in all")
        for line in alike_lines(run.family):
            click.echo(line)
        click.echo(winner_line(run.family))
    if out and run.out_dir:
        click.echo(f"results: {ResultsDir(run.out_dir).results}")
        if html_report:
            write_html_report(run.out_dir)
    for line in fault_lines(run.collected.faults, run.out_dir if out else None, order=[s.name for s in specs],
                            leave_out=[n.bot for n in run.never_started], report=html_report):
        click.echo(line, err=True)
    _stop_if_never_started(run.never_started)
    if not run.complete:
        interrupted(games=f"{run.family.games} games counted")
