"""A tune as values: its settings checked once, each iteration's step, and what the run produced."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import Mapping, NotRequired, Sequence

from referee.arena.model import Arena
from referee.arena.runner import NeverStarted
from referee.bots.entry import BotEntry
from referee.bots.spec import BotSpec
from referee.compare.sprt import PairTally
from referee.compare.twins import CompareSettings, TwinPair, TwinsDescriptionJson, twin_pair
from referee.engine.rules import Ruleset
from referee.errors import OptionError
from referee.run.seeds import game_seed
from referee.standings.collect import Collected
from referee.table.policy import FaultPolicy
from referee.tune.params import Param, check_command, check_names, fill
from referee.tune.spsa import Perturbation, SpsaSettings

#: The slot's stage name in games.jsonl.
STAGE = "tune"
#: The salt of the second game's deal when twins are turned off (``independent``).
INDEPENDENT_SALT = "tune-independent"
#: What the plus and minus sides are called after the bot's name: not bots but mixtures (every iteration's own
#: values, a random sign per parameter), so the standings say so where they list them.
PLUS, MINUS = "+ (mixture)", "- (mixture)"


class TuneDescriptionJson(TwinsDescriptionJson):
    """What decides the games of a tune, in arena.json."""

    bot: Mapping[str, object]
    """``BotSpec.to_json`` (as the ``field``'s)."""
    params: list[str]
    spsa: dict[str, float | int]
    field: list[Mapping[str, object]]
    independent: bool
    draw: NotRequired[int]


class TuneError(OptionError, ValueError):
    """Settings that make no tune; ``option`` names the command-line option at fault."""


@dataclass(frozen=True)
class TuneSettings:
    """A tune, checked once: the bot's command with placeholders, its parameters, the schedule and the table.

    ``table`` is a comparison's settings whose NEW and BASE are the plus and minus sides (commands still with
    their placeholders); each iteration fills them in. ``independent`` plays the second game of a pair on
    another deal (no twins: for measuring what twins save).
    """

    bot: BotSpec
    params: tuple[Param, ...]
    spsa: SpsaSettings
    table: CompareSettings
    independent: bool = False

    @classmethod
    def build(cls, bot: BotSpec, params: Sequence[Param], spsa: SpsaSettings, field: Sequence[BotSpec] = (), *,
              seats: int | None = None, seed: int = 1, rules: Ruleset | None = None,
              policy: FaultPolicy = FaultPolicy(), record: bool = False, independent: bool = False,
              draw: bool = False) -> TuneSettings:
        """Check and complete a tune; ``draw``: a field larger than its seats is drawn for each pair (a contest's)."""
        check_names(params)
        if bot.builtin is not None:
            raise TuneError(f"{bot.command!r} is a built-in player: tune a bot command with placeholders, such as "
                            "\"python3 bot.py --keep {keep}\"", "param")
        check_command(bot.command, params)
        if spsa.iterations < 1:
            raise TuneError(f"{spsa.iterations} iterations: give --iterations 1 or more (or a --games budget of at "
                            f"least {2 * spsa.pairs})", "iterations")
        if spsa.pairs < 1:
            raise TuneError(f"--pairs {spsa.pairs}: an iteration plays 1 or more twin pairs", "pairs")
        plus, minus = replace(bot, name=f"{bot.name}{PLUS}"), replace(bot, name=f"{bot.name}{MINUS}")
        table = CompareSettings.build(plus, minus, field, seats=seats, seed=seed, rules=rules, policy=policy,
                                      record=record, sprt=None, games=2 * spsa.pairs * spsa.iterations, draw=draw)
        return cls(bot, tuple(params), spsa, table, independent)

    @property
    def seed(self) -> int:
        return self.table.seed

    @property
    def starts(self) -> tuple[float, ...]:
        return tuple(float(p.start) for p in self.params)

    def command(self, values: Sequence[float]) -> str:
        """The bot's command with ``values`` filled in."""
        return fill(self.bot.command, self.params, values)

    def pairs_of(self, plan: Perturbation) -> list[TwinPair]:
        """Iteration ``plan.k``'s twin pairs: plus as NEW, minus as BASE, on the run's pair numbers."""
        settings = replace(self.table, new=replace(self.table.new, command=self.command(plan.plus)),
                           base=replace(self.table.base, command=self.command(plan.minus)))
        first = (plan.k - 1) * self.spsa.pairs
        pairs = [twin_pair(settings, first + j) for j in range(self.spsa.pairs)]
        if self.independent:
            pairs = [replace(p, jobs=(p.jobs[0], replace(p.jobs[1], seed=game_seed(self.seed, p.index,
                                                                                    INDEPENDENT_SALT))))
                     for p in pairs]
        return pairs

    def arena(self) -> Arena:
        """The bots as an arena for the executor; the tuned bot as its template (a cluster ships its folder)."""
        specs = (self.table.new, self.table.base, *self.table.field)
        return Arena(name="tune", source="lastcard tune", base_dir=os.getcwd(), out=os.getcwd(), seed=self.seed,
                     stages=(), bots=tuple(BotEntry(s, "tune") for s in specs), policy=self.table.policy,
                     records=self.table.record)

    def description(self) -> TuneDescriptionJson:
        """What decides the games of a tune (arena.json; ``--resume`` refuses another)."""
        t = self.table
        out: TuneDescriptionJson = {
            "kind": "tune", "seed": t.seed, "ruleset": t.rules.house, "options": dict(t.rules.options),
            "seats": t.seats, "policy": t.policy.to_json(), "records": t.record, "bot": self.bot.to_json(),
            "params": [p.line() for p in self.params], "spsa": self.spsa.to_json(),
            "field": [s.to_json() for s in t.field], "independent": self.independent}
        if t.draw:  # only when used: a folder written before it existed still resumes
            out["draw"] = t.draw
        return out


@dataclass(frozen=True)
class Step:
    """One iteration done: its probe, the plus side's wins less losses, theta after, its games."""

    plan: Perturbation
    result: float
    theta: tuple[float, ...]
    first_pair: int
    pairs: int


@dataclass
class TuneRun:
    """What a tune produced: every iteration's step, whether it ran to the end, the games counted."""

    settings: TuneSettings
    steps: list[Step]
    complete: bool
    played_now: int
    wall_s: float
    loop_s: float
    """The iterations' time outside ``play_jobs``: planning, counting, stepping (the referee's cost beyond the
    games; starting the executor and the final reports are not in it)."""
    collected: Collected
    tally: PairTally
    out_dir: str | None = None
    never_started: list[NeverStarted] = field(default_factory=list)

    @property
    def theta(self) -> tuple[float, ...]:
        return self.steps[-1].theta if self.steps else self.settings.starts

    @property
    def tuned(self) -> dict[str, float]:
        return {p.name: v for p, v in zip(self.settings.params, self.theta)}

    @property
    def games(self) -> int:
        return 2 * sum(s.pairs for s in self.steps)
