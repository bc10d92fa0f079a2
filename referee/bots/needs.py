"""What a bot needs besides its command, given on the command line: ``--bot-env`` and ``--bot-path``.

``NAME=VALUE`` (an environment variable) and ``PATH`` (a file or folder the walls show, read-only) go to every
program bot of the run; ``BOT:NAME=VALUE`` and ``BOT:PATH`` to the bot of that name only. An arena file says the
same with a bot's ``env:`` and ``paths:`` keys. Nothing here starts a process: the values are checked (a variable's
name, a path that exists and shows no one else's files) and put in the bots' specs.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from typing import Sequence

from referee.bots.sandbox import checked_paths
from referee.bots.spec import BotSpec

#: A variable's name as a shell accepts it.
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class NeedsError(ValueError):
    """A ``--bot-env`` or ``--bot-path`` value that cannot be used; ``option`` says which."""

    def __init__(self, message: str, option: str) -> None:
        super().__init__(message)
        self.option = option


@dataclass(frozen=True)
class BotNeeds:
    """The ``--bot-env`` and ``--bot-path`` values, each for a bot (its name) or for all (``None``)."""

    env: tuple[tuple[str | None, str, str], ...] = ()
    paths: tuple[tuple[str | None, str], ...] = ()

    @classmethod
    def parse(cls, env: Sequence[str], paths: Sequence[str], names: Sequence[str], base: str = ".") -> BotNeeds:
        """The options' values for a run of the bots ``names``; ``NeedsError`` naming the value and the fix."""
        given = []
        for text in paths:
            bot, path = _path(text, names, base)
            try:
                given.append((bot, checked_paths([path], base)[0]))
            except ValueError as exc:
                raise NeedsError(f"--bot-path {text!r}: {exc}", "--bot-path") from None
        return cls(tuple(_env(text, names) for text in env), tuple(given))

    def apply(self, spec: BotSpec) -> BotSpec:
        """``spec`` with what it was given (a built-in player needs nothing)."""
        if spec.builtin is not None or (not self.env and not self.paths):
            return spec
        env = dict(spec.env)
        env.update({name: value for bot, name, value in self.env if bot in (None, spec.name)})
        extra = [path for bot, path in self.paths if bot in (None, spec.name) and path not in spec.sandbox.paths]
        return replace(spec, env=tuple(sorted(env.items())),
                       sandbox=replace(spec.sandbox, paths=spec.sandbox.paths + tuple(extra)))


def _env(text: str, names: Sequence[str]) -> tuple[str | None, str, str]:
    """``[BOT:]NAME=VALUE`` as (bot, name, value)."""
    head, sep, value = text.partition("=")
    if not sep:
        raise NeedsError(f"--bot-env {text!r} is not NAME=VALUE (or BOT:NAME=VALUE for one bot), e.g. "
                         "OMP_NUM_THREADS=1", "--bot-env")
    bot, colon, name = head.rpartition(":")
    if colon and bot not in names:
        raise NeedsError(f"--bot-env {text!r}: no bot of this run is called {bot!r}; its bots are "
                         f"{', '.join(names) or 'none'} (or leave out {bot + ':'!r} for every bot)", "--bot-env")
    if not _NAME.fullmatch(name):
        raise NeedsError(f"--bot-env {text!r}: {name!r} is not a variable's name (letters, digits and _, not "
                         "starting with a digit)", "--bot-env")
    return (bot if colon else None), name, value


def _path(text: str, names: Sequence[str], base: str) -> tuple[str | None, str]:
    """``[BOT:]PATH`` as (bot, path): a prefix that names a bot of the run and is no existing path's start."""
    bot, colon, path = text.partition(":")
    if colon and bot in names and not os.path.exists(os.path.join(base, text)):
        return bot, path
    if colon and "/" not in bot and not os.path.exists(os.path.join(base, os.path.expanduser(text))):
        raise NeedsError(f"--bot-path {text!r}: no bot of this run is called {bot!r} and no such path exists; its "
                         f"bots are {', '.join(names) or 'none'}", "--bot-path")
    return None, text
