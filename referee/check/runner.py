"""One ``lastcard check`` run: the scripted suite, then the fuzz games, into one ``Report``."""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, replace
from typing import Callable

from referee.bots.cpuclock import Clock
from referee.bots.sandbox import SandboxSettings, parse_mode
from referee.bots.spec import DEFAULT_CLOCK, BotSpec, TimeLimits, parse_bot
from referee.check.fuzz import Contest, run_fuzz
from referee.check.probe import Probe
from referee.check.report import Report, Status
from referee.check.suite import Settings, Suite, check_names
from referee.check.timing import MoveTimes
from referee.engine.rules import PRESETS
from referee.table.policy import FaultPolicy


@dataclass(frozen=True)
class CheckConfig:
    """What to check and with which limits (the command-line options, as data)."""

    rulesets: tuple[str, ...] = tuple(PRESETS)
    games: int = 50
    seed: int = 1
    move_ms: int = 1000
    startup_ms: int = 10_000
    quiet_ms: int = 200
    quit_ms: int = 2000
    #: The contest's house options: fuzz games use exactly these instead of rotating through variants.
    options: tuple[tuple[str, object], ...] | None = None
    #: The contest's table size for fuzz games (default: 2 to 4 seats in turn).
    seats: int | None = None
    #: The fault policy in force (``forfeit`` or ``strikes:N``): what a fault costs, in games and words.
    policy: str = "forfeit"
    #: Where failing fuzz games' records go, for ``lastcard replay`` (default: a new temporary folder).
    records_dir: str | None = None
    sandbox: str = "auto"  # auto | strict | none: docs/security.md
    clock: Clock = DEFAULT_CLOCK
    wall_ms: int | None = None

    def sandbox_settings(self) -> SandboxSettings:
        """The walls the checked bot runs in (the default limits, this mode)."""
        return SandboxSettings(mode=parse_mode(self.sandbox))

    def limits(self) -> TimeLimits:
        return TimeLimits(startup_ms=self.startup_ms, move_ms=self.move_ms, bank_ms=0, quit_ms=self.quit_ms,
                          clock=self.clock, wall_ms=self.wall_ms)


Progress = Callable[[str], None]


def run_check(command: str, config: CheckConfig = CheckConfig(), *, progress: Progress | None = None) -> Report:
    """Check the bot started by ``command``; never raises for anything the bot does."""
    if not config.rulesets:
        raise ValueError("no ruleset to check; choose from " + ", ".join(PRESETS))
    for house in config.rulesets:
        if house not in PRESETS:
            raise ValueError(f"unknown ruleset {house!r}; the rulesets are: {', '.join(PRESETS)}")
    spec = replace(parse_bot(command, config.limits()), sandbox=config.sandbox_settings())
    return run_check_spec(spec, config, progress=progress)


def run_check_spec(spec: BotSpec, config: CheckConfig = CheckConfig(), *, progress: Progress | None = None) -> Report:
    """Check the bot ``spec`` starts (its working directory, environment and limits as given)."""
    command = spec.command
    if not config.rulesets:
        raise ValueError("no ruleset to check; choose from " + ", ".join(PRESETS))
    if spec.builtin is not None:
        raise ValueError(f"{command!r} is a built-in player, not a bot program to check")
    rulesets = list(config.rulesets)
    report = new_report(spec.name, command, config)
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="lastcard-check-") as tmp:
        probe = Probe(spec, stderr_path=f"{tmp}/scripted.stderr.log")
        suite = Suite(probe, report, settings(config))
        if progress:
            progress("scripted situations")
        try:
            suite.run(rulesets)
        finally:
            probe.close()
        skip = f"not run: the scripted suite stopped ({suite.stopped})" if suite.stopped else None
        if progress and skip is None and config.games:
            progress(f"{config.games} fuzz games")
        times = MoveTimes()
        run_fuzz(spec, rulesets, config.games, config.seed, report, stderr_dir=tmp, skip_reason=skip,
                 progress=(lambda n, total: progress(f"fuzz game {n}/{total}")) if progress else None,
                 contest=Contest(config.options, config.seats, FaultPolicy.parse(config.policy), config.records_dir),
                 times=times)
        if config.games and skip is None:
            report.checks.append(times.check(spec.limits))
    report.elapsed_s = time.monotonic() - t0
    return report


def new_report(bot: str, command: str, config: CheckConfig) -> Report:
    """A report with every scripted check listed (as not run yet), in running order."""
    report = Report(bot, command, list(config.rulesets), settings={
        "games": config.games, "seed": config.seed, "move_ms": config.move_ms, "startup_ms": config.startup_ms,
        "quiet_ms": config.quiet_ms, "quit_ms": config.quit_ms, "policy": config.policy,
        "clock": Clock(config.clock).value}
        | ({"wall_ms": config.wall_ms} if config.wall_ms is not None else {})
        | ({"options": dict(config.options)} if config.options is not None else {})
        | ({"seats": config.seats} if config.seats is not None else {}))
    for name, group in check_names(report.rulesets):
        report.add(name, group).status = Status.SKIPPED
    return report


def settings(config: CheckConfig) -> Settings:
    return Settings(move_ms=config.move_ms, quiet_ms=config.quiet_ms, quit_ms=config.quit_ms, seed=config.seed,
                    policy=config.policy)
