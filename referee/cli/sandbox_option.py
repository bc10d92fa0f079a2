"""``--sandbox auto|strict|none`` for the commands that start bots, and saying once what ``auto`` lacks."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Iterable, TypeVar

import click

from ..arena.config import Arena
from ..bots import sandbox
from ..bots.sandbox import Mode, SandboxUnavailable
from ..bots.spec import BotSpec

F = TypeVar("F", bound=Callable[..., object])


def sandbox_option(f: F) -> F:
    """The ``--sandbox`` option (``None`` when not given: the arena file's, else ``auto``)."""
    return click.option("--sandbox", "sandbox_mode", type=click.Choice([m.value for m in Mode]), default=None,
                        help="Walls around each bot: auto (what this machine offers, the default), strict "
                             "(refuse to run without them) or none (trusted bots, fastest). See docs/security.md.")(f)


def with_mode(spec: BotSpec, mode: str | None) -> BotSpec:
    """``spec`` with its sandbox mode replaced by ``--sandbox`` (its limits kept)."""
    if mode is None or spec.builtin is not None:
        return spec
    return replace(spec, sandbox=replace(spec.sandbox, mode=Mode(mode)))


def announce(specs: Iterable[BotSpec], echo: Callable[[str], None] | None = None) -> None:
    """Refuse ``strict`` on a machine without walls (exit 2); say once what ``auto`` goes without."""
    echo = echo or (lambda text: click.echo(text, err=True))
    said = False
    for spec in specs:
        if spec.builtin is not None:
            continue
        try:
            sandbox.effective_level(spec.sandbox)
        except SandboxUnavailable as exc:
            raise click.UsageError(f"bot {spec.name!r}: {exc}") from None
        short = sandbox.shortfall(spec.sandbox)
        if short and not said:
            echo(f"note: {short}")
            said = True



def sandboxed(arena: Arena, mode: str | None) -> Arena:
    """The arena with ``--sandbox`` applied to every bot, after refusing ``strict`` or noting what ``auto`` lacks."""
    if mode is not None:
        arena = arena.with_bots([replace(b, spec=with_mode(b.spec, mode)) for b in arena.bots])
    announce(b.spec for b in arena.bots)
    return arena
