"""What keeping every game replayable costs, and how long report.html takes for a big arena.

    .venv/bin/python bench/report_bench.py --games 10000 --ruleset compact --out /tmp/bench10k
    .venv/bin/python bench/report_bench.py --dir results/sample        # time the report of an existing run

Without --dir it plays GAMES games of built-in players at random tables (a sampled league of eight
built-ins, SEATS a table) in this process, stores them as the referee does (games.jsonl with compact
actions, results.json with ratings), then measures: the compact actions' bytes per game and per action,
the time to rebuild a game through the engine, and the time and size of report.html.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from referee.bots.pool import BotPool  # noqa: E402
from referee.bots.spec import BotSpec  # noqa: E402
from referee.engine.notation import StoredGame, rebuild  # noqa: E402
from referee.engine.rules import get_ruleset  # noqa: E402
from referee.html_report import write_report  # noqa: E402
from referee.standings.ranking import standings_for  # noqa: E402
from referee.standings.results_doc import HeadToHead, ResultsDoc, rating_info  # noqa: E402
from referee.store.results import GameLine  # noqa: E402
from referee.table.table import Table, seat_for  # noqa: E402

BUILTINS = [f"builtin:{kind}" for kind in ("random", "easy", "medium", "hard")] * 2


def play(out: str, games: int, ruleset: str, seats: int, seed: int) -> None:
    """Play and store ``games`` games of built-ins at random tables."""
    os.makedirs(out, exist_ok=True)
    specs = [BotSpec(f"{cmd.split(':')[1]}-{i}", cmd) for i, cmd in enumerate(BUILTINS)]
    pick = random.Random(seed)
    rules = get_ruleset(ruleset)
    lines = []
    t0 = time.monotonic()
    with BotPool() as pool, open(os.path.join(out, "games.jsonl"), "w") as fh:
        for g in range(games):
            table = pick.sample(specs, seats)
            result = Table(rules, [seat_for(s, pool) for s in table], pick.getrandbits(63), f"g{g + 1:06d}").play()
            line = GameLine(result)
            fh.write(line.encode().decode())
            lines.append(line)
    print(f"played {games} {ruleset} games at tables of {seats}: {time.monotonic() - t0:.1f} s")
    names = [s.name for s in specs]
    standings = standings_for(lines, names, bootstrap=100, seed=seed, rank_by="rating", rule="by the rating")
    doc = ResultsDoc(kind="match", name="bench", complete=True, seed=seed, games=games, policy="forfeit",
                     rank_by="rating", standings=standings, head_to_head=HeadToHead.of(lines, standings.bots),
                     rating=rating_info(100, seed),
                     table={"ruleset": ruleset, "options": rules.options, "seats": seats})
    with open(os.path.join(out, "results.json"), "w") as fh:
        fh.write(doc.dumps())


def measure_games(out: str, sample: int) -> None:
    """Bytes of the compact actions, and the time to rebuild a game through the engine."""
    with open(os.path.join(out, "games.jsonl")) as fh:
        lines = [json.loads(line) for line in fh]
    sizes = [len(line["actions"]) for line in lines if "actions" in line]
    actions = [len(line["actions"].split()) for line in lines if "actions" in line]
    line_sizes = [len(json.dumps(line)) for line in lines]
    if not sizes:
        print("games.jsonl has no actions: nothing to replay")
        return
    print(f"games: {len(lines)}; actions per game: mean {statistics.mean(actions):.0f}, max {max(actions)}")
    print(f"compact actions: mean {statistics.mean(sizes):.0f} bytes a game, "
          f"{sum(sizes) / sum(actions):.2f} bytes an action; the whole games.jsonl line: "
          f"mean {statistics.mean(line_sizes):.0f} bytes")
    chosen = random.Random(1).sample(lines, min(sample, len(lines)))
    t0 = time.perf_counter()
    for line in chosen:
        rebuild(StoredGame.from_json(line))
    per_game = (time.perf_counter() - t0) / len(chosen) * 1000
    print(f"rebuild through the engine (every action checked): {per_game:.2f} ms a game over {len(chosen)} games")


def measure_report(out: str) -> None:
    t0 = time.perf_counter()
    path = write_report(out)
    elapsed = time.perf_counter() - t0
    size = os.path.getsize(path)
    print(f"report.html: {size / 1e6:.1f} MB, written in {elapsed:.1f} s ({path})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", help="measure an existing results directory instead of playing games")
    parser.add_argument("--out", default="/tmp/lastcard-report-bench")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--ruleset", default="compact")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sample", type=int, default=500, help="games timed for the rebuild")
    args = parser.parse_args()
    out = args.dir or args.out
    if not args.dir:
        play(out, args.games, args.ruleset, args.seats, args.seed)
    measure_games(out, args.sample)
    measure_report(out)


if __name__ == "__main__":
    main()
