#!/usr/bin/env python3
"""What twin pairs buy ``lastcard compare``, and how fast it plays.

    python bench/compare_bench.py [--runs 15] [--elo1 20] [--cap 6000] [--pairs-games 400] [--skip-speed]

1. **Variance reduction.** The same sequential test (logistic bounds ``[0, elo1]``, alpha = beta = 0.05,
   hard as NEW against medium as BASE) on twin pairs (both games on one deal, NEW and BASE swapped: what
   ``compare`` plays) and on independent games (the second game of each "pair" on a deal of its own, NEW
   and BASE still swapped), at 2 and 4 seats (4: two builtin:medium fillers). Logistic bounds mean the
   same expected score in both designs (the pairs only change the noise), so games to a decision compare
   fairly. Each design runs ``--runs`` tests on seeds 1000, 1001, ...; the table shows the median games to
   a decision, the verdicts, and the per-pair variance of the score (what the pairing removes). Played in
   this process (``jobs.run_job``), the games identical to those ``compare`` plays for the twin design.
2. **Speed.** ``lastcard compare`` as a command, ``--games N`` (fixed length) and with the test,
   ``--jobs 1`` and ``2``: pairs per second between built-ins (hard vs medium) and between the C sample bots
   (``bot.c`` vs ``trivial.c``, built with gcc into a temporary folder; skipped without gcc), sandbox
   ``auto`` (what this machine offers).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from referee.bots.pool import BotPool  # noqa: E402
from referee.bots.spec import parse_bot  # noqa: E402
from referee.compare.sprt import Sprt, SprtSettings  # noqa: E402
from referee.compare.twins import CompareSettings, twin_pair  # noqa: E402
from referee.run.jobs import run_job  # noqa: E402
from referee.run.seeds import game_seed  # noqa: E402

LASTCARD = [sys.executable, "-m", "referee.cli.main"]


def one_test(seats: int, seed: int, twin: bool, sprt: SprtSettings, cap_pairs: int, pool: BotPool
             ) -> tuple[int, str, float]:
    """Games to a decision, the verdict (``H0``, ``H1`` or ``-`` at the cap) and the per-pair score variance."""
    settings = CompareSettings.build(parse_bot("new=builtin:hard"), parse_bot("base=builtin:medium"),
                                     seats=seats, seed=seed, sprt=sprt)
    test = Sprt(sprt)
    scores = []
    for k in range(cap_pairs):
        pair = twin_pair(settings, k)
        job_a, job_b = pair.jobs
        if not twin:  # the same swap, on a deal of its own
            job_b = replace(job_b, seed=game_seed(seed, k, "compare-independent"))
        res_a, _ = run_job(job_a, pool)
        res_b, _ = run_job(job_b, pool)
        a, b = pair.scores(res_a.placements, res_b.placements)
        scores.append((a + b) / 2)
        if test.add_pair(a, b):
            break
    return test.games, test.result or "-", statistics.pvariance(scores) if len(scores) > 1 else 0.0


def variance_table(runs: int, elo1: float, cap: int) -> None:
    sprt = SprtSettings(0, elo1, model="logistic")
    pool = BotPool()
    print(f"hard (NEW) vs medium (BASE), logistic [0, {elo1:g}], alpha = beta = 0.05, cap {cap} games, "
          f"{runs} runs each (seeds 1000..{999 + runs})")
    print(f"{'seats':>5}  {'design':<12} {'median games':>12} {'quartiles':>14}  {'H1':>3} {'H0':>3} {'cap':>3}  "
          f"{'pair var':>8}  {'s':>5}")
    for seats in (2, 4):
        medians = {}
        for twin in (True, False):
            t0 = time.monotonic()
            out = [one_test(seats, 1000 + r, twin, sprt, cap // 2, pool) for r in range(runs)]
            games = sorted(g for g, _, _ in out)
            q = statistics.quantiles(games, n=4) if len(games) > 1 else [games[0]] * 3
            medians[twin] = statistics.median(games)
            verdicts = [v for _, v, _ in out]
            print(f"{seats:>5}  {'twin pairs' if twin else 'independent':<12} {medians[twin]:>12.0f} "
                  f"{q[0]:>6.0f}-{q[2]:<7.0f}  {verdicts.count('H1'):>3} {verdicts.count('H0'):>3} "
                  f"{verdicts.count('-'):>3}  {statistics.median(v for _, _, v in out):>8.4f}  "
                  f"{time.monotonic() - t0:>5.0f}")
        print(f"{'':>5}  independent / twin: {medians[False] / medians[True]:.2f}x the games")


def pairs_per_s(args: list[str]) -> float:
    """Run ``lastcard compare ARGS -q`` and read the pairs/s it reports."""
    res = subprocess.run(LASTCARD + ["compare", *args, "-q"], capture_output=True, text=True, cwd=REPO)
    if res.returncode != 0:
        raise SystemExit(f"lastcard compare {' '.join(args)} failed:\n{res.stdout}{res.stderr}")
    m = re.search(r"\(([\d.]+) pairs/s\)", res.stderr)
    assert m, res.stderr
    return float(m.group(1))


def speed_table(games: int, rounds: int) -> None:
    contenders = [("built-ins hard vs medium", ["builtin:hard", "builtin:medium"])]
    tmp = tempfile.mkdtemp(prefix="compare-bench-")
    try:
        if shutil.which("gcc"):
            for name in ("bot", "trivial"):
                subprocess.run(["gcc", "-O2", "-std=c99", "-o", os.path.join(tmp, name),
                                str(REPO / "sample_bots" / "c" / f"{name}.c")], check=True)
            contenders.append(("C bot.c vs trivial.c", [f"bot={tmp}/bot", f"trivial={tmp}/trivial"]))
        else:
            print("gcc not found: the C sample bots are not measured")
        print(f"\npairs/s of `lastcard compare` (median of {rounds} rounds, interleaved)")
        modes = [("--games", ["--games", str(games)]),
                 ("test [0, 5] nElo", ["--max-games", str(games)])]
        for label, bots in contenders:
            for jobs in (1, 2):
                rates: dict[str, list[float]] = {m: [] for m, _ in modes}
                for _ in range(rounds):
                    for mode, extra in modes:
                        rates[mode].append(pairs_per_s([*bots, *extra, "--jobs", str(jobs)]))
                print(f"  {label:<26} --jobs {jobs}: " + ", ".join(
                    f"{statistics.median(v):.1f} pairs/s ({m})" for m, v in rates.items()))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--elo1", type=float, default=20.0)
    parser.add_argument("--cap", type=int, default=6000, help="games at most per test")
    parser.add_argument("--pairs-games", type=int, default=400, help="games per speed run")
    parser.add_argument("--rounds", type=int, default=3, help="speed rounds")
    parser.add_argument("--skip-variance", action="store_true")
    parser.add_argument("--skip-speed", action="store_true")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start")
    if not args.skip_variance:
        variance_table(args.runs, args.elo1, args.cap)
    if not args.skip_speed:
        speed_table(args.pairs_games, args.rounds)


if __name__ == "__main__":
    main()
