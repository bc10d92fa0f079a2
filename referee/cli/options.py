"""Options shared by several commands, as reusable decorators."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable

import click

from referee.bots.cpuclock import WALL_FACTOR, Clock
from referee.bots.spec import TimeLimits
from referee.engine.rules import PRESETS, Ruleset, RulesetError, get_ruleset, parse_option
from referee.run.workers import JOBS_PER_CPU, max_jobs
from referee.store.outdir import out_dir_problem
from referee.store.results_dir import ResultsDir

if TYPE_CHECKING:
    from referee.arena.runner import TapeMaker

F = Callable[..., Any]


def ruleset_options(f: F) -> F:
    """``--ruleset NAME`` and repeatable ``--option KEY=VALUE``."""
    f = click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
                     help="Override one ruleset option (repeatable); `lastcard rules NAME` lists them.")(f)
    f = click.option("--ruleset", "-r", default="compact", show_default=True,
                     type=click.Choice(list(PRESETS)), help="The house rules to play.")(f)
    return f


def build_ruleset(name: str, options: tuple[str, ...]) -> Ruleset:
    """The ruleset from command-line values; errors become usage errors that name the fix."""
    try:
        return get_ruleset(name, dict(parse_option(o) for o in options))
    except RulesetError as exc:
        raise click.BadParameter(str(exc), param_hint="--option") from None


def whole_number(value: Any) -> int | None:
    """``value`` as a whole number in base 10 (an int, or text around one), or None when it is not one."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    try:
        return int(str(value).strip(), 10)
    except ValueError:
        return None


class SeedType(click.ParamType):
    """A base seed: a whole number, 0 or more (every game's seed and the rating bootstrap derive from it)."""

    name = "integer"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        number = whole_number(value)
        if number is None:
            self.fail(f"{value!r} is not a whole number; give a seed such as 1 or 2024", param, ctx)
        if number < 0:
            self.fail(f"{number} is negative; a seed is a whole number, 0 or more (try {-number})", param, ctx)
        return number


class JobsType(click.ParamType):
    """A number of worker processes: 1 or more; beyond ``max_jobs()`` (a few per CPU) it is cut down, with a note."""

    name = "integer"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        top = max_jobs()
        span = f"give 1 to {top} ({JOBS_PER_CPU} per CPU, {top // JOBS_PER_CPU} CPUs here)"
        number = whole_number(value)
        if number is None:
            self.fail(f"{value!r} is not a whole number of worker processes; {span}", param, ctx)
        if number < 1:
            self.fail(f"{number} worker processes: {span}", param, ctx)
        if number > top:
            click.echo(f"note: --jobs {number:,} is more than this machine's maximum, {top} ({JOBS_PER_CPU} per CPU): "
                       f"using {top}", err=True)
            return top
        return number


def jobs_option(default: int | None, help: str) -> Callable[[F], F]:
    """``--jobs N`` / ``-j N``: worker processes, 1 to ``max_jobs()`` (more is cut down with a note)."""
    return click.option("--jobs", "-j", type=JobsType(), default=default, show_default=default is not None,
                        help=f"{help} At most {JOBS_PER_CPU} per CPU; more is cut down, with a note.")


def seed_option(f: F) -> F:
    """``--seed N``: the base seed, a whole number 0 or more."""
    return click.option("--seed", type=SeedType(), default=1, show_default=True,
                        help="Base seed: the same seed, bots and moves give the same games.")(f)


def check_out_dir(ctx: click.Context | None, param: click.Parameter | None, value: str | None) -> str | None:
    """A click callback for ``--out``: refuses a file, a path under a file, /proc and the like, or no write access."""
    if value is None:
        return None
    problem = out_dir_problem(value)
    if problem is not None:
        raise click.BadParameter(problem, ctx=ctx, param=param)
    return value


def out_option(help: str) -> Callable[[F], F]:
    """``--out DIR``, checked by ``check_out_dir`` before anything runs."""
    return click.option("--out", type=click.Path(), metavar="DIR", callback=check_out_dir, help=help)


def roster_option(f: F) -> F:
    """``--roster FILE``: the class roster, in place of the arena file's ``roster:``."""
    return click.option("--roster", type=click.Path(dir_okay=False), metavar="FILE",
                        help="The class roster (a Canvas gradebook export, a Moodle grading worksheet or gradebook "
                             "export, or a CSV of id, name, email), in place of the file's roster: (docs/grading.md, "
                             "\"Rosters and gradebooks\").")(f)


def clock_options(f: F) -> F:
    """``--clock cpu|wall`` and ``--wall-ms N`` (``None`` when not given: the file's, else the default)."""
    f = click.option("--wall-ms", type=click.IntRange(1), default=None, metavar="MS",
                     help=f"With --clock cpu: the most wall time a move may take (a bot that sleeps or blocks uses "
                          f"no CPU).  [default: {WALL_FACTOR} x the move's CPU limit]")(f)
    f = click.option("--clock", type=click.Choice([c.value for c in Clock]), default=None,
                     help="What the move limit and time bank measure: cpu (the CPU time the bot's processes used; "
                          "fair on a busy machine) or wall (time passed). See docs/security.md.  [default: cpu]")(f)
    return f


def with_clock(limits: TimeLimits, clock: str | None, wall_ms: int | None) -> TimeLimits:
    """``limits`` with ``--clock`` and ``--wall-ms`` applied where given."""
    if clock is not None:
        limits = replace(limits, clock=Clock(clock))
    if wall_ms is not None:
        limits = replace(limits, wall_ms=wall_ms)
    return limits


def time_options(f: F) -> F:
    """Per-move limit, time bank and startup limit, in milliseconds; the clock they are measured on."""
    f = clock_options(f)
    f = click.option("--startup-ms", type=click.IntRange(1), default=10_000, show_default=True,
                     help="Time a bot has to answer hello.")(f)
    f = click.option("--bank-ms", type=click.IntRange(0), default=0, show_default=True,
                     help="Extra time per game a bot may draw on when a move runs over.")(f)
    f = click.option("--move-ms", type=click.IntRange(1), default=1_000, show_default=True,
                     help="Time limit per move.")(f)
    return f


def seat_names_option(f: F) -> F:
    """``--seat-names shown|hidden``: what the bots are told each seat is called (``hide_names``: hidden)."""
    return click.option("--seat-names", "seat_names", type=click.Choice(["shown", "hidden"]), default="shown",
                        show_default=True,
                        help="What the bots are told each seat is called: its bot's name, or a neutral label "
                             "(seat1, seat2...) so that no bot can recognise another. Results keep the names.")(f)


def report_option(f: F) -> F:
    """``--report/--no-report``: write OUT/report.html (on by default)."""
    return click.option("--report/--no-report", "html_report", default=True, show_default=True,
                        help="Write report.html: standings, head-to-head, faults and a replay viewer for every "
                             "game (see docs/replay.md).")(f)


def page_tapes(page: bool) -> Callable[[str], TapeMaker] | None:
    """What makes a run's page's tapes beside its games (``run_arena`` decides whether that pays), if a ``page`` is
    written after them."""
    if not page:
        return None
    from referee.html_report.tapes_beside import TapesBeside  # here: a run without a page need not import it

    return TapesBeside


def write_html_report(out_dir: str, jobs: int = 1) -> None:
    """Write OUT/report.html (its games replayed by ``jobs`` processes) and say where; a report that cannot be
    written is said, never fatal."""
    from referee.html_report import ReportError, write_report

    try:
        click.echo(f"report: {write_report(out_dir, jobs=jobs)}")
    except ReportError as exc:
        click.echo(f"report.html not written: {exc}", err=True)
    except OSError as exc:  # a full disk, say: the path and the cause
        where = exc.filename or ResultsDir(out_dir).report
        click.echo(f"report.html not written: {where}: {exc.strerror or exc}", err=True)
