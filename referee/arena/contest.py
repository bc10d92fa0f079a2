"""A contest's format for the bot author's tools: ``--arena FILE [--stage NAME]`` on ``compare``, ``tune``,
``puzzles``, ``replay --ask`` and ``play``.

Pure values, no process. ``ContestStage`` is one stage of an arena file seen from a bot author's side: its rules and
table, its fault policy, how it would run a bot it does not list (the file's ``limits:`` and ``sandbox:``), and
its bots, the field the author's bot will meet. ``PlayedFormat`` is what a run of those tools plays, said in one
line at its start, with the warnings when it is not the contest's or when it is pure self-play::

    contest = ContestStage.of(load_arena("contest.yaml"), stage=None)
    spec = contest.spec("mine", limits)             # the contest's own bot of that name, else a command line
    field = contest.field([new, base])              # every other bot of the contest
    fmt = PlayedFormat(rules, seats, limits, policy, "auto", field_names, contest=contest)
    fmt.line(), fmt.warnings(self_play=False)
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, replace
from typing import Sequence

from referee.arena.model import Arena, Stage
from referee.bots.entry import BotEntry
from referee.bots.sandbox import SandboxSettings
from referee.bots.spec import BotSpec, TimeLimits, parse_bot
from referee.engine.rules import Ruleset, get_ruleset
from referee.errors import OptionError
from referee.table.policy import FaultPolicy


class ContestError(OptionError, ValueError):
    """An ``--arena`` / ``--stage`` that names no usable contest; ``option`` names the option at fault."""


@dataclass(frozen=True)
class ContestStage:
    """One stage of an arena file, as the author's tools play it."""

    arena: Arena
    stage: Stage

    @classmethod
    def of(cls, arena: Arena, stage: str | None = None) -> ContestStage:
        """The stage called ``stage`` (default: the first, where every bot plays)."""
        if stage is None:
            return cls(arena, arena.stages[0])
        for s in arena.stages:
            if s.name == stage:
                return cls(arena, s)
        names = [s.name for s in arena.stages]
        close = difflib.get_close_matches(stage, names, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ContestError(f"no stage {stage!r} in {arena.source}{hint}; its stages are: {', '.join(names)}", "stage")

    @property
    def source(self) -> str:
        return self.arena.source

    @property
    def rules(self) -> Ruleset:
        return self.stage.rules

    @property
    def seats(self) -> int:
        return self.stage.seats

    @property
    def policy(self) -> FaultPolicy:
        return self.arena.policy

    @property
    def limits(self) -> TimeLimits:
        """The limits the file gives a bot it does not name otherwise."""
        return self.arena.limits

    @property
    def sandbox(self) -> SandboxSettings:
        return self.arena.sandbox

    def entry(self, name: str) -> BotEntry | None:
        """The contest's bot called ``name``, if it has one."""
        return next((e for e in self.arena.bots if e.spec.name == name), None)

    def spec(self, text: str, limits: TimeLimits | None = None) -> BotSpec:
        """A bot the author names: the contest's own bot of that name, as the contest runs it; else a command line
        (``builtin:NAME``, ``NAME=COMMAND``) run as the contest runs a bot it does not list. ``limits`` (the command
        line's, when it gave some) replace the contest's."""
        entry = self.entry(text)
        if entry is not None:
            return entry.spec if limits is None else replace(entry.spec, limits=limits)
        spec = parse_bot(text, limits or self.limits)
        return spec if spec.builtin is not None else replace(spec, sandbox=self.sandbox)

    def field(self, own: Sequence[BotSpec]) -> list[BotEntry]:
        """The contest's other bots: every usable one but the author's own (by name, or by command line)."""
        names = {s.name for s in own}
        commands = {s.command for s in own if s.builtin is None}
        return [e for e in self.arena.bots if e.unusable is None and e.spec.name not in names
                and not (e.spec.builtin is None and e.spec.command in commands)]

    def describe(self) -> str:
        """``arenas/family.yaml, stage family (round_robin)``."""
        return f"{self.source}, stage {self.stage.name} ({self.stage.format.name})"


def rules_text(rules: Ruleset) -> str:
    """``family`` or ``family (stacking=true)``: the house and the options it changes."""
    preset = get_ruleset(rules.house).options
    changed = [f"{k}={v}" for k, v in rules.options.items() if preset.get(k) != v]
    return rules.house + (f" ({', '.join(changed)})" if changed else "")


def limits_text(limits: TimeLimits) -> str:
    """``move 1000 ms cpu, startup 10000 ms`` (the bank when there is one)."""
    bank = f", bank {limits.bank_ms} ms" if limits.bank_ms else ""
    return f"move {limits.move_ms} ms {limits.clock.value}{bank}, startup {limits.startup_ms} ms"


@dataclass(frozen=True)
class PlayedFormat:
    """The format a run plays: what decides its games besides the author's bot. ``field`` is the names of the
    bots it meets (``None`` where a run has no field: a position suite); ``drawn`` the field's seats in a game
    when they are drawn from a larger field; ``sandbox`` the mode the author's bot runs in (``None``: built-in)."""

    rules: Ruleset
    seats: int | None
    limits: TimeLimits
    policy: FaultPolicy | None
    sandbox: str | None
    field: tuple[str, ...] | None = None
    drawn: int = 0
    contest: ContestStage | None = None

    def line(self) -> str:
        """``format: family, 3 seats, move 500 ms cpu, startup 10000 ms, policy forfeit, sandbox auto; field: ...;
        as in FILE, stage NAME`` or ``...; this command's defaults (--arena FILE plays a contest's format)``."""
        parts = [rules_text(self.rules)]
        if self.seats is not None:
            parts.append(f"{self.seats} seats")
        parts.append(limits_text(self.limits))
        if self.policy is not None:
            parts.append(f"policy {self.policy.to_json()}")
        parts.append(f"sandbox {self.sandbox}" if self.sandbox else "built-in players only")
        text = "format: " + ", ".join(parts)
        if self.field is not None:
            text += "; " + (f"field: {self.drawn} a game, drawn from " if self.drawn else "field: ") + \
                (", ".join(self.field) if self.field else "none")
        if self.contest is not None:
            return f"{text}; as in {self.contest.describe()}"
        return f"{text}; this command's defaults (--arena FILE plays a contest's format)"

    def differences(self) -> list[str]:
        """Where this run is not the contest's format: ``2 seats (the contest: 4)``."""
        c = self.contest
        if c is None:
            return []
        out = []
        if self.rules != c.rules:
            out.append(f"{rules_text(self.rules)} (the contest: {rules_text(c.rules)})")
        if self.seats is not None and self.seats != c.seats:
            out.append(f"{self.seats} seats (the contest: {c.seats})")
        if (self.limits.move_ms, self.limits.clock, self.limits.bank_ms) != (c.limits.move_ms, c.limits.clock,
                                                                              c.limits.bank_ms):
            out.append(f"{limits_text(self.limits)} (the contest: {limits_text(c.limits)})")
        if self.policy is not None and self.policy != c.policy:
            out.append(f"policy {self.policy.to_json()} (the contest: {c.policy.to_json()})")
        if self.sandbox is not None and self.sandbox != c.sandbox.mode.value:
            out.append(f"sandbox {self.sandbox} (the contest: {c.sandbox.mode.value})")
        return out

    def warnings(self, *, self_play: bool = False, field_given: bool = False,
                 fix: str = "drop those options to play its format") -> list[str]:
        """What to say before the run: where it is not the contest's format (and ``fix``), and pure self-play."""
        out = []
        differ = self.differences()
        if field_given and self.contest is not None:
            differ.append("the field given with --field (the contest's: its other bots)")
        if differ:
            out.append(f"this run is not the contest's format: {'; '.join(differ)}. A result here may not hold in "
                       f"the contest; {fix}")
        if self_play:
            out.append("pure self-play: your bot only meets versions of itself, so a gain here is a gain against "
                       "itself, which need not be a gain against other bots; give --field BOT (or --arena FILE: a "
                       "contest's bots)")
        return out
