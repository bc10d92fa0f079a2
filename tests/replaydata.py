"""Results directories for replay and report tests: real games, stored the way the referee stores them."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Sequence

from referee.arena.report import head_to_head, standings_with_ratings
from referee.bots.pool import BotPool
from referee.bots.spec import TimeLimits, parse_bot
from referee.policy import FaultPolicy
from referee.replay import encode_actions
from referee.rules import get_ruleset
from referee.table import Recorder, Table
from tests.conftest import PY, ROOT

MISBEHAVE = ROOT / "tests" / "fault_bots" / "misbehave.py"
FAST = TimeLimits(startup_ms=5000, move_ms=2000, bank_ms=0, quit_ms=500)


def play_stored(ruleset: str, bots: Sequence[str], seed: int, game_id: str, pool: BotPool,
                policy: FaultPolicy = FaultPolicy(), options: dict | None = None) -> tuple[dict, list[dict]]:
    """One game: its games.jsonl line (with compact actions, stand-ins marked) and its full record."""
    specs = [parse_bot(b, FAST) for b in bots]
    recorder = Recorder()
    rules = get_ruleset(ruleset, options or {})
    result = Table(rules, [pool.seat(s) for s in specs], seed, game_id, policy, recorder).play()
    acted = [line for line in recorder.lines if line["t"] == "action"]
    stand_ins = [i for i, line in enumerate(acted) if line["by"] in ("replacement", "fallback")]
    line = {**result.to_json(), "options": rules.options, "actions": encode_actions(result.actions, stand_ins)}
    return json.loads(json.dumps(line)), recorder.lines


def write_results_dir(out: Path, lines: list[dict], *, records: dict[str, list[dict]] | None = None,
                      kind: str = "match") -> Path:
    """games.jsonl and results.json (standings, ratings, head to head) as ``lastcard match --out`` writes them."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "logs").mkdir(exist_ok=True)
    with open(out / "games.jsonl", "w") as fh:
        for line in lines:
            fh.write(json.dumps(line) + "\n")
    names = list(dict.fromkeys(n for line in lines for n in line["seating"]))
    standings = standings_with_ratings(lines, names, bootstrap=50, seed=1)
    first = lines[0]
    doc = {"format": "lastcard-results", "version": 2, "kind": kind, "ruleset": first["ruleset"],
           "options": first["options"], "seed": 1, "games": len(lines), "standings": standings,
           "head_to_head": head_to_head(lines, [r["bot"] for r in standings]), "complete": True}
    (out / "results.json").write_text(json.dumps(doc))
    for game_id, record in (records or {}).items():
        (out / "records").mkdir(exist_ok=True)
        with open(out / "records" / f"{game_id}.jsonl", "w") as fh:
            for entry in record:
                fh.write(json.dumps(entry) + "\n")
    return out


def small_results_dir(out: Path, *, faulty: bool = True) -> Path:
    """Six games of built-ins, plus (``faulty``) a bot that sends an illegal card and one struck twice."""
    lines, records = [], {}
    with BotPool(stderr_dir=str(out / "logs") if faulty else None) as pool:
        os.makedirs(out / "logs", exist_ok=True)
        for g in range(6):
            bots = ["builtin:hard", "builtin:random", "builtin:easy"][g % 3:] + ["builtin:hard", "builtin:random",
                                                                                 "builtin:easy"][:g % 3]
            line, record = play_stored(("compact", "family", "arcade")[g % 3], bots, 100 + g, f"g{g + 1:04d}", pool)
            lines.append(line)
            records[line["game"]] = record
        if faulty:
            bad = f"misbehave={PY} {MISBEHAVE} illegal"
            line, record = play_stored("family", [bad, "builtin:hard"], 7, "g0007", pool, options={"target": "round"})
            lines.append(line)
            records[line["game"]] = record
            line, record = play_stored("family", [bad, "builtin:easy"], 8, "g0008", pool, FaultPolicy.parse("strikes:2"),
                                       options={"target": "round"})
            lines.append(line)
    return write_results_dir(out, lines, records=records)
