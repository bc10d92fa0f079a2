"""``lastcard check --arena``: check a bot as a contest would run it (its ruleset, options, seats, limits,
policy, and the bot's own command, folder and environment)."""

from __future__ import annotations

import difflib
from typing import Sequence

from referee.arena.model import Arena
from referee.bots.cpuclock import Clock
from referee.bots.entry import BotEntry
from referee.check.runner import CheckConfig, run_check_spec
from referee.engine.rules import get_ruleset
from referee.run.side_by_side import map_side_by_side


def contest_bots(arena: Arena, name: str | None = None) -> list[BotEntry]:
    """The bots of ``arena`` a check can run (every program, or the one called ``name``)."""
    programs = [e for e in arena.bots if e.spec.builtin is None]
    if name is None:
        if not programs:
            raise ValueError(f"{arena.source}: every bot is a built-in player; there is no bot program to check")
        return programs
    for entry in programs:
        if entry.spec.name == name:
            return [entry]
    if any(e.spec.name == name for e in arena.bots):
        raise ValueError(f"{name!r} is a built-in player in {arena.source}, not a bot program to check")
    names = [e.spec.name for e in programs]
    close = difflib.get_close_matches(name, names, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ValueError(f"no bot {name!r} in {arena.source}{hint}; its bots are: {', '.join(names)}")


def contest_config(arena: Arena, entry: BotEntry, *, games: int, seed: int, quiet_ms: int = 200,
                   records_dir: str | None = None) -> CheckConfig:
    """The check settings that match the contest: each stage's ruleset once (the first stage that uses
    it gives the options and seats), the bot's own limits and the arena's fault policy."""
    rulesets: list[str] = []
    for stage in arena.stages:
        if stage.ruleset not in rulesets:
            rulesets.append(stage.ruleset)
    first = arena.stages[0]
    limits = entry.spec.limits
    return CheckConfig(rulesets=tuple(rulesets), games=games, seed=seed, move_ms=limits.move_ms,
                       startup_ms=limits.startup_ms, quiet_ms=quiet_ms, quit_ms=limits.quit_ms,
                       options=first.options, seats=first.seats, policy=arena.policy.to_json(), records_dir=records_dir,
                       clock=limits.clock, wall_ms=limits.wall_ms)


def describe_contest(arena: Arena, config: CheckConfig) -> str:
    """One line saying which contest settings a check used (so a student sees it matches)."""
    defaults = get_ruleset(config.rulesets[0]).options if config.rulesets else {}
    changed = [f"{k}={v}" for k, v in (config.options or ()) if defaults.get(k) != v]
    opts = ", ".join(changed) or "its default options"
    return (f"as in {arena.source}: {', '.join(config.rulesets)} ({opts}), {config.seats} seats, "
            f"move limit {config.move_ms} ms ({Clock(config.clock).value} time), startup {config.startup_ms} ms, "
            f"policy {config.policy}")


def names(entries: Sequence[BotEntry]) -> list[str]:
    """The entries' names."""
    return [e.spec.name for e in entries]


def run_contest_checks(arena: Arena, entries: Sequence[BotEntry], *, games: int, jobs: int = 1,
                       seed: int | None = None) -> dict[str, dict[str, object]]:
    """Check each (already built) bot as the contest ran it, ``jobs`` at a time: name -> report JSON.

    Bounded: few fuzz games, and a hung bot stops its check at the first timeout.
    """
    def one(entry: BotEntry) -> tuple[str, dict[str, object]]:
        config = contest_config(arena, entry, games=games, seed=arena.seed if seed is None else seed)
        return entry.spec.name, run_check_spec(entry.spec, config).to_json()

    programs = [e for e in entries if e.spec.builtin is None and not e.unusable]
    return dict(map_side_by_side(one, programs, jobs))
