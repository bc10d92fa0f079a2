"""``--arena FILE [--stage NAME]`` for the bot author's tools (``compare``, ``tune``, ``puzzles``, ``replay --ask``,
``play``): the contest's format, each option given on the command line over it, and the one line that says
what a run plays (``referee.arena.contest``).

Without ``--arena`` the commands keep their defaults (compact, 2 seats, 1000 ms, no field), and say so.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping, Sequence, TypeVar

import click
from click.core import ParameterSource

from referee.arena.contest import ContestError, ContestStage, PlayedFormat
from referee.bots.entry import BotEntry
from referee.bots.needs import BotNeeds
from referee.bots.spec import BotSpec, TimeLimits, parse_bot
from referee.builds.steps import check_requires, run_builds
from referee.cli.common import load_arena_file
from referee.cli.options import build_ruleset, with_clock
from referee.cli.sandbox_option import with_mode
from referee.engine.rules import Ruleset, RulesetError, get_ruleset, parse_option
from referee.table.policy import FaultPolicy

F = TypeVar("F", bound=Callable[..., object])

#: The time options a contest's limits answer (``time_options``' TimeLimits fields).
LIMIT_OPTIONS = ("move_ms", "bank_ms", "startup_ms")


def contest_options(f: F) -> F:
    """``--arena FILE.yaml`` and ``--stage NAME``."""
    f = click.option("--stage", metavar="NAME",
                     help="With --arena: the stage whose format to play (default: the first).")(f)
    f = click.option("--arena", "arena_file", type=click.Path(dir_okay=False), metavar="FILE.yaml",
                     help="Play a contest's format: the rules, seats, limits, policy and sandbox of this arena file, "
                          "and its other bots as the field (any option given here overrides it, with a warning).")(f)
    return f


def given(ctx: click.Context, name: str) -> bool:
    """Whether the person gave option ``name`` (on the command line or in the environment), not its default."""
    return ctx.get_parameter_source(name) in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)


def load_contest(arena_file: str | None, stage: str | None) -> ContestStage | None:
    """The contest of ``--arena`` (``--stage``'s stage), or None; bad input is a usage error naming the option."""
    if arena_file is None:
        if stage is not None:
            raise click.UsageError("--stage picks a stage of the --arena file: give --arena FILE.yaml too")
        return None
    arena = load_arena_file(arena_file)
    try:
        return ContestStage.of(arena, stage)
    except ContestError as exc:
        raise click.BadParameter(str(exc), param_hint=f"--{exc.option}") from None


def contest_rules(ctx: click.Context, contest: ContestStage | None, ruleset: str, options: tuple[str, ...]) -> Ruleset:
    """The rules: ``--ruleset``/``--option`` as given, over the contest's (its house and options) where it has one."""
    if contest is None or given(ctx, "ruleset"):
        return build_ruleset(ruleset, options)
    try:
        return get_ruleset(contest.rules.house, {**contest.rules.options, **dict(parse_option(o) for o in options)})
    except RulesetError as exc:
        raise click.BadParameter(str(exc), param_hint="--option") from None


def contest_limits(ctx: click.Context, contest: ContestStage | None, clock: str | None, wall_ms: int | None,
                   time_limits: Mapping[str, Any]) -> TimeLimits:
    """The time limits: the contest's (else the defaults), each time option given on the command line over them."""
    if contest is None:
        return with_clock(TimeLimits(**time_limits), clock, wall_ms)
    mine = {k: v for k, v in time_limits.items() if k in LIMIT_OPTIONS and given(ctx, k)}
    return with_clock(replace(contest.limits, **mine), clock, wall_ms)


def build_field(entries: Sequence[BotEntry]) -> list[BotSpec]:
    """The contest's bots, ready to play: those whose tools are missing or whose build fails are left out, each
    said on stderr (as ``check --arena`` does)."""
    kept, left = check_requires(entries)
    if any(e.build for e in kept):
        kept, failed = run_builds(kept, None, 1)
        left += failed
    for item in left:
        click.echo(f"note: the contest's bot {item.bot} is left out of the field: {item.reason}", err=True)
    return [e.spec for e in kept]


@dataclass(frozen=True)
class TableOptions:
    """``compare``'s and ``tune``'s table: the rules, seats, limits, policy and sandbox of the contest where one is
    given, with each option the person gave over it; how the author's bots are run."""

    rules: Ruleset
    seats: int | None
    limits: TimeLimits
    policy: FaultPolicy
    sandbox_mode: str | None
    contest: ContestStage | None = None
    limits_given: bool = False
    """Whether a time option was given (then it applies to a contest's own bot too; else that bot keeps its own)."""
    needs: BotNeeds = BotNeeds()
    """``--bot-env`` and ``--bot-path``: given to every program bot of the run (or the one they name)."""

    def bot(self, text: str, hint: str) -> BotSpec:
        """A bot the author names (a contest's own by its name, else a command line), or a usage error."""
        try:
            if self.contest is not None:
                spec = self.contest.spec(text, self.limits if self.limits_given else None)
            else:
                spec = parse_bot(text, self.limits)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint=hint) from None
        return self.needs.apply(with_mode(spec, self.sandbox_mode))

    def field(self, given_bots: Sequence[str], own: Sequence[BotSpec]) -> tuple[list[BotSpec], bool]:
        """The field: the ``--field`` bots as given, else the contest's other bots (built, drawn for each table when
        there are more than its seats); and whether it is drawn."""
        if given_bots or self.contest is None:
            return [self.bot(b, "--field") for b in given_bots], False
        return [self.needs.apply(with_mode(s, self.sandbox_mode)) for s in build_field(self.contest.field(own))], True

    def played(self, seats: int, own: Sequence[BotSpec], field: Sequence[str], drawn: int) -> PlayedFormat:
        """What the run plays, for its first line."""
        mode = next((s.sandbox.mode.value for s in own if s.builtin is None), None)
        return PlayedFormat(self.rules, seats, self.limits, self.policy, mode, tuple(field), drawn, self.contest)


def table_of(ctx: click.Context, arena_file: str | None, stage: str | None, *, ruleset: str,
             options: tuple[str, ...], seats: int | None, policy: str, sandbox_mode: str | None, clock: str | None,
             wall_ms: int | None, time_limits: Mapping[str, Any]) -> TableOptions:
    """The table of a ``compare`` or ``tune``: the contest's (``--arena``) with each option given over it."""
    contest = load_contest(arena_file, stage)
    rules = contest_rules(ctx, contest, ruleset, options)
    limits = contest_limits(ctx, contest, clock, wall_ms, time_limits)
    if contest is not None and not given(ctx, "policy"):
        fault_policy = contest.policy
    else:
        try:
            fault_policy = FaultPolicy.parse(policy)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--policy") from None
    table_seats = seats if seats is not None or contest is None else contest.seats
    limits_given = any(given(ctx, k) for k in (*LIMIT_OPTIONS, "clock", "wall_ms"))
    return TableOptions(rules, table_seats, limits, fault_policy, sandbox_mode, contest, limits_given)


def say_format(played: PlayedFormat, *, self_play: bool = False, field_given: bool = False,
               fix: str | None = None) -> None:
    """The run's format on stderr, then its warnings (``fix``: what to do where it is not the contest's)."""
    for line in format_lines(played, self_play=self_play, field_given=field_given, fix=fix):
        click.echo(line, err=True)


def format_lines(played: PlayedFormat, *, self_play: bool = False, field_given: bool = False,
                 fix: str | None = None) -> list[str]:
    """``format: ...`` and a ``warning: ...`` per warning (a ``--json`` output carries them in its object)."""
    extra = {"fix": fix} if fix else {}
    return [played.line()] + [f"warning: {w}" for w in played.warnings(self_play=self_play,
                                                                       field_given=field_given, **extra)]
