#!/usr/bin/env python3
"""``lastcard match`` between built-ins, end to end, side by side with RLCard's raw UNO engine.

    python bench/match_bench.py [--games 5000] [--rounds 3] [--rlcard-seconds 3]

Each round runs, one after the other: RLCard's UNO (2 players, uniformly random among its legal
actions, which play a card whenever one plays; ``engine_bench.rlcard_factory``) for a few seconds in
this process, then ``lastcard match builtin:easy builtin:easy -r family -o target=round -n GAMES`` as
a command (a fresh process: start-up, workers, ratings and the written results included) with
``--jobs 1`` and ``--jobs 2``. ``easy`` plays a card whenever one plays, like RLCard's players. The
table shows medians over the rounds and the ratio of each command to RLCard in the same run, and the
command's games phase alone (its ``timing.json``). Needs the bench extra (``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

from engine_bench import rlcard_factory  # noqa: E402


def rlcard_games_per_s(seconds: float) -> float:
    play = rlcard_factory(2)
    games, seed = 0, 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        play(seed)
        seed += 1
        games += 1
    return games / (time.perf_counter() - t0)


def match_games_per_s(games: int, jobs: int, out: str, repo: Path = REPO) -> tuple[float, float]:
    """End-to-end games/s of the command (run from the checkout ``repo``), and games/s of its games phase."""
    cmd = [sys.executable, "-m", "referee.cli.main", "match", "builtin:easy", "builtin:easy", "-r", "family",
           "-o", "target=round", "-n", str(games), "--jobs", str(jobs), "--out", out, "--fresh", "--no-record",
           "--no-report"]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=repo)
    wall = time.perf_counter() - t0
    phases = json.loads(Path(out, "timing.json").read_text())["phases"]
    return games / wall, games / phases["games_s"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--rlcard-seconds", type=float, default=3.0)
    ap.add_argument("--compare", metavar="CHECKOUT", help="another checkout of lastcard (a git worktree of an "
                    "older commit, say) whose match is measured in the same rounds, for before/after")
    args = ap.parse_args()
    trees = {"": REPO} | ({"before ": Path(args.compare).resolve()} if args.compare else {})
    rows: dict[str, list[float]] = {"rlcard": []}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.rounds):
            rows["rlcard"].append(rlcard_games_per_s(args.rlcard_seconds))
            for label, repo in trees.items():
                for jobs in (1, 2):
                    end_to_end, phase = match_games_per_s(args.games, jobs, os.path.join(tmp, f"j{jobs}"), repo)
                    rows.setdefault(f"{label}j{jobs}", []).append(end_to_end)
                    rows.setdefault(f"{label}j{jobs}_games", []).append(phase)
    med = {k: statistics.median(v) for k, v in rows.items()}
    rl = med["rlcard"]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {args.rounds} rounds, medians; "
          f"{args.games} family single-round games, 2 seats")
    print(f"RLCard UNO raw engine, 2 players, one core   {rl:8.0f} games/s")
    for label in trees:
        for jobs in (1, 2):
            key = f"{label}j{jobs}"
            print(f"{label + 'lastcard match':22s} --jobs {jobs}, end to end {med[key]:8.0f} games/s  "
                  f"{med[key] / rl:.2f}x RLCard   (games phase {med[key + '_games']:.0f} games/s, "
                  f"{med[key + '_games'] / rl:.2f}x)")


if __name__ == "__main__":
    main()
