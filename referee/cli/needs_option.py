"""``--bot-env [BOT:]NAME=VALUE`` and ``--bot-path [BOT:]PATH`` for the commands that run bots from the command line
(``match``, ``compare``, ``check``): what an arena file's ``env:`` and ``paths:`` give a bot
(``referee.bots.needs``)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

import click

from referee.bots.needs import BotNeeds, NeedsError
from referee.bots.spec import BotSpec, parse_bot

F = Callable[..., Any]


def needs_options(f: F) -> F:
    """The two options; ``bot_env`` and ``bot_paths`` (tuples of their values) in the command's arguments."""
    f = click.option("--bot-path", "bot_paths", multiple=True, metavar="[BOT:]PATH",
                     help="A file or folder the sandboxed bots may read (read-only; a model's weights, a library's "
                          "folder), or only bot BOT (repeatable). An arena file's paths:.")(f)
    return click.option("--bot-env", "bot_env", multiple=True, metavar="[BOT:]NAME=VALUE",
                        help="An environment variable for every program bot, or only bot BOT (repeatable). An arena "
                             "file's env:.")(f)


def bot_needs(env: Sequence[str], paths: Sequence[str], names: Sequence[str]) -> BotNeeds:
    """The options' values for a run of the bots ``names`` (a usage error naming the value and the fix)."""
    try:
        return BotNeeds.parse(env, paths, names)
    except NeedsError as exc:
        raise click.BadParameter(str(exc), param_hint=exc.option) from None


def with_needs(specs: Sequence[BotSpec], env: Sequence[str], paths: Sequence[str]) -> list[BotSpec]:
    """``specs`` given what ``--bot-env`` and ``--bot-path`` say."""
    needs = bot_needs(env, paths, [s.name for s in specs if s.builtin is None])
    return [needs.apply(s) for s in specs]


def named(*bots: str | None) -> list[str]:
    """The names of the program bots among the commands ``bots`` (one that does not parse is left to its own
    option's error)."""
    out = []
    for text in bots:
        try:
            spec = parse_bot(text) if text else None
        except ValueError:
            continue
        if spec is not None and spec.builtin is None:
            out.append(spec.name)
    return out
