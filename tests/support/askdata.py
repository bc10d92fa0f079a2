"""A results folder for ``replay --ask`` and ``--from`` tests: bot games of every ruleset, with faults,
stacking and multi-card plays, recorded as ``match --out`` records them (one bot pool, so request ids
run on from game to game), with an ``arena.json`` that names each bot's command and limits."""

from __future__ import annotations

import json
from pathlib import Path

from referee.bots.pool import BotPool
from referee.bots.spec import parse_bot
from referee.table.policy import FaultPolicy
from tests.conftest import PY, ROOT
from tests.support.replaydata import FAST, MISBEHAVE, play_stored, write_results_dir

TAPE = ROOT / "tests" / "support" / "ask_bots" / "tape.py"
GOOD = f"good={PY} {MISBEHAVE} good"


def bad(mode: str) -> str:
    return f"bad-{mode}={PY} {MISBEHAVE} {mode}"


#: (game id, ruleset, options, seats, seed, policy): what each game is there to cover.
GAMES = [
    ("g0001", "compact", {}, [GOOD, "builtin:hard", "builtin:random"], 11, "forfeit"),
    ("g0002", "family", {"stacking": True}, [GOOD, "builtin:hard"], 12, "forfeit"),
    ("g0003", "arcade", {"stacking": True}, ["builtin:medium", GOOD], 13, "forfeit"),
    ("g0004", "family", {"target": "round"}, [bad("illegal"), "builtin:hard"], 14, "forfeit"),  # forfeits, listens on
    ("g0005", "family", {"target": "round"}, [bad("schema"), "builtin:easy"], 15, "strikes:2"),  # 2 strikes, then out
    ("g0006", "compact", {}, ["builtin:easy", bad("crash")], 16, "forfeit"),  # dies: told nothing more
    ("g0007", "arcade", {}, [bad("non_json"), "builtin:hard"], 17, "strikes:1"),  # a strike, then stopped
    ("g0008", "family", {"target": "round"}, [bad("startup_crash"), "builtin:easy"], 18, "forfeit"),
    ("g0009", "compact", {}, [bad("early"), "builtin:hard"], 19, "strikes:2"),  # a request never sent, a strike
]


def ask_results_dir(out: Path) -> Path:
    lines, records = [], {}
    (out / "logs").mkdir(parents=True, exist_ok=True)
    with BotPool(stderr_dir=str(out / "logs")) as pool:
        for game_id, ruleset, options, bots, seed, policy in GAMES:
            line, record = play_stored(ruleset, bots, seed, game_id, pool, FaultPolicy.parse(policy), options)
            line["policy"] = policy  # several policies in one folder: each game says its own
            lines.append(line)
            records[game_id] = record
    write_results_dir(out, lines, records=records)
    specs = {s.name: s for g in GAMES for s in (parse_bot(b, FAST) for b in g[3]) if s.builtin is None}
    (out / "arena.json").write_text(json.dumps({"arena": {"bots": [s.to_json() for s in specs.values()]}}))
    return out
