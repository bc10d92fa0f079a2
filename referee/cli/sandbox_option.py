"""``--sandbox auto|strict|none`` for the commands that start bots, and saying once what ``auto`` lacks (and how
``clock: cpu`` is read where no cgroup counts a bot's CPU time)."""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Callable, Iterable, TypeVar

import click

from referee.arena.model import Arena
from referee.bots import sandbox
from referee.bots.cpuclock import Clock, process_meter
from referee.bots.sandbox import Mode, SandboxUnavailable
from referee.bots.spec import BotSpec

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
    clock_said = False
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
        short = clock_shortfall(spec)
        if short and not clock_said:
            echo(f"note: {short}")
            clock_said = True


def clock_shortfall(spec: BotSpec) -> str | None:
    """For ``clock: cpu``: one sentence on how this machine reads a bot's CPU time when no cgroup counts it;
    ``None`` when its cgroup does (or the clock is the wall's)."""
    if spec.limits.clock is not Clock.CPU:
        return None
    if spec.sandbox.mode is not Mode.NONE:
        hierarchy = sandbox.machine().hierarchy
        if hierarchy is not None and hierarchy.counts_cpu:
            return None
        why = "no cgroup counts a bot's CPU time here"
    else:
        why = "sandbox: none gives a bot no cgroup"
    meter = process_meter(os.getpid())
    if meter is None:
        return f"clock: cpu, but {why} and no process's CPU clock can be read: moves are timed on the wall clock"
    meter.close()
    return (f"clock: cpu, but {why}: a bot's CPU time is summed over its processes (a child that ends during a "
            "move is not counted)")



def sandboxed(arena: Arena, mode: str | None) -> Arena:
    """The arena with ``--sandbox`` applied to every bot, after refusing ``strict`` or noting what ``auto`` lacks."""
    if mode is not None:
        arena = replace(arena.with_bots([replace(b, spec=with_mode(b.spec, mode)) for b in arena.bots]),
                        benchmarks=tuple(with_mode(s, mode) for s in arena.benchmarks))
    announce([*(b.spec for b in arena.bots), *arena.benchmarks])
    return arena
