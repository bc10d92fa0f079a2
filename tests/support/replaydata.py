"""Results directories for replay and report tests: real games, stored the way the referee stores them."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Sequence

from referee.bots.pool import BotPool
from referee.bots.spec import TimeLimits, parse_bot
from referee.engine.rules import get_ruleset
from referee.standings.ranking import standings_for
from referee.standings.results_doc import HeadToHead, ResultsDoc, rating_info
from referee.store.results import GameLine
from referee.table.policy import FaultPolicy
from referee.table.table import Recorder, Table, seat_for
from tests.conftest import PY, ROOT

MISBEHAVE = ROOT / "tests" / "support" / "fault_bots" / "misbehave.py"
FAST = TimeLimits(startup_ms=5000, move_ms=2000, bank_ms=0, quit_ms=500)


def play_stored(ruleset: str, bots: Sequence[str], seed: int, game_id: str, pool: BotPool,
                policy: FaultPolicy = FaultPolicy(), options: dict | None = None) -> tuple[dict, list[dict]]:
    """One game: its games.jsonl line (with compact actions, stand-ins marked) and its full record."""
    specs = [parse_bot(b, FAST) for b in bots]
    recorder = Recorder()
    rules = get_ruleset(ruleset, options or {})
    result = Table(rules, [seat_for(s, pool) for s in specs], seed, game_id, policy, recorder).play()
    return json.loads(GameLine(result).encode()), recorder.lines


def write_results_dir(out: Path, lines: list[dict], *, records: dict[str, list[dict]] | None = None,
                      kind: str = "match") -> Path:
    """games.jsonl and results.json (standings, ratings, head to head) as ``lastcard match --out`` writes them."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "logs").mkdir(exist_ok=True)
    with open(out / "games.jsonl", "w") as fh:
        for line in lines:
            fh.write(json.dumps(line) + "\n")
    names = list(dict.fromkeys(n for line in lines for n in line["seating"]))
    games = [GameLine.from_json(line) for line in lines]
    standings = standings_for(games, names, bootstrap=50, seed=1, rank_by="rating", rule="by the rating")
    first = lines[0]
    doc = ResultsDoc(kind=kind, name="test", complete=True, seed=1, games=len(lines), policy="forfeit",
                     rank_by="rating", standings=standings, head_to_head=HeadToHead.of(games, standings.bots),
                     rating=rating_info(50, 1), table={"ruleset": first["ruleset"], "options": first["options"],
                                                       "seats": len(first["seating"])})
    (out / "results.json").write_text(doc.dumps())
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
            line, record = play_stored("family", [bad, "builtin:easy"], 8, "g0008", pool,
                                       FaultPolicy.parse("strikes:2"), options={"target": "round"})
            lines.append(line)
    return write_results_dir(out, lines, records=records)
