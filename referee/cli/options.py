"""Options shared by several commands, as reusable decorators."""

from __future__ import annotations

from typing import Any, Callable

import click

from ..rules import PRESETS, Ruleset, RulesetError, get_ruleset, parse_option

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


def seed_option(f: F) -> F:
    return click.option("--seed", type=int, default=1, show_default=True,
                        help="Base seed: the same seed, bots and moves give the same games.")(f)


def time_options(f: F) -> F:
    """Per-move limit, time bank and startup limit, in milliseconds."""
    f = click.option("--startup-ms", type=click.IntRange(1), default=10_000, show_default=True,
                     help="Time a bot has to answer hello.")(f)
    f = click.option("--bank-ms", type=click.IntRange(0), default=0, show_default=True,
                     help="Extra time per game a bot may draw on when a move runs over.")(f)
    f = click.option("--move-ms", type=click.IntRange(1), default=1_000, show_default=True,
                     help="Time limit per move.")(f)
    return f


def interrupt_on_sigterm(signum: int, frame: object) -> None:
    """A SIGTERM handler: stop as cleanly as Ctrl-C does (bots killed, standings so far printed)."""
    raise KeyboardInterrupt
