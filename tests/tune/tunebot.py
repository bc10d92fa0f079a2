"""The peaked test bot as ``tune`` settings: its command with placeholders, and small seeded runs of it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Sequence

from referee.bots.sandbox import Mode, SandboxSettings
from referee.bots.spec import BotSpec, parse_bot
from referee.engine.rules import get_ruleset
from referee.tune.model import TuneSettings
from referee.tune.params import Param, parse_option
from referee.tune.spsa import SpsaSettings

ROOT = Path(__file__).resolve().parents[2]
PEAKED = ROOT / "tests" / "support" / "tune_bots" / "peaked.py"
#: One round of the family house: a game of a few hundred decisions, not a match of thousands.
RULES = get_ruleset("family", {"target": "round"})
#: Where the peaked bot is strongest (its docstring).
OPTIMUM = {"x": 30.0, "y": 70.0}


def peaked(command_tail: str = "--x {x} --y 70 --z {z}") -> BotSpec:
    spec = parse_bot(f"{sys.executable} {PEAKED} {command_tail}")
    return BotSpec(spec.name, spec.command, sandbox=SandboxSettings(mode=Mode.NONE))


def settings(params: Sequence[str] = ("x=80,0,100,10,0.04", "z=50,0,100,10,0.04"), *, iterations: int = 3,
             pairs: int = 2, seed: int = 1, field: Sequence[BotSpec] = (), seats: int | None = None,
             independent: bool = False, bot: BotSpec | None = None) -> TuneSettings:
    parsed: list[Param] = [parse_option(p) for p in params]
    return TuneSettings.build(bot or peaked(), parsed, SpsaSettings(iterations, pairs), field, seats=seats,
                              seed=seed, rules=RULES, independent=independent)
