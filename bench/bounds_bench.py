#!/usr/bin/env python3
"""Bounds made for this game: the per-pair variance of twin pairs, the default SPRT bounds it gives, and how long
tests on those bounds take (the published formula against simulated and real tests).

    python bench/bounds_bench.py [--pairs 3000] [--runs 2000] [--real 10] [--skip-variance] [--skip-sim] [--skip-real]

1. **Variance.** Twin pairs between the built-ins (hard vs medium, medium vs easy, hard vs easy) in each ruleset at
   2 to 6 seats (3+ seats: ``builtin:medium`` fillers), ``--pairs`` pairs each on seed 500, played in this process
   (``jobs.run_job``: the games ``compare`` plays). Per table: the largest per-pair variance of the score, the
   normalized Elo a +30 Elo change is at that variance, and the default bound ``elo1`` it gives
   (``compare.bounds.derive_elo1``); the table in ``referee/compare/bounds.py`` should match.
2. **Simulation.** For each ruleset at 2 and 4 seats, ``--runs`` tests on the default bounds with pairs drawn from
   the measured hard-vs-medium pentanomial tilted to no change and to +30 Elo (``simulate.pentanomial_at``): the
   verdicts and the mean games, against the formula (``compare.expected``).
3. **Real tests.** ``lastcard compare`` on the default bounds, ``--real`` seeds each, ``--jobs 1``: no change with
   real noise (the random sample bot against itself on another seed, ``LASTCARD_SEED``: equal strength, different
   moves, in arcade; a bot against an exact copy of itself plays mirrored twins, every pair even, which is no
   test of the noise) and a change of about +30 Elo (``builtin:hard`` against ``builtin:medium`` in family at 2
   seats, +34 Elo by part 1).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from referee.bots.pool import BotPool  # noqa: E402
from referee.bots.spec import parse_bot  # noqa: E402
from referee.compare.bounds import TARGET_ELO, default_settings, derive_elo1  # noqa: E402
from referee.compare.expected import expected_pairs, nelo_of_logistic, pass_probability  # noqa: E402
from referee.compare.gsprt import SCORES  # noqa: E402
from referee.compare.simulate import H0, H1, pentanomial_at, simulate_family  # noqa: E402
from referee.compare.sprt import pair_bin  # noqa: E402
from referee.compare.twins import CompareSettings, twin_pair  # noqa: E402
from referee.engine.rules import get_ruleset  # noqa: E402
from referee.run.jobs import run_job  # noqa: E402

LASTCARD = [sys.executable, "-m", "referee.cli.main"]
HOUSES = ("compact", "family", "arcade")
MATCHUPS = (("hard", "medium"), ("medium", "easy"), ("hard", "easy"))
#: The random sample bot on a seed of its own: the same strength as on any other, different moves.
RANDOM = f"env LASTCARD_SEED={{}} {sys.executable} sample_bots/python/random_bot.py"


def measure(house: str, seats: int, new: str, base: str, pairs: int, pool: BotPool) -> list[int]:
    """Pentanomial counts of ``pairs`` twin pairs of ``new`` against ``base`` (seed 500)."""
    settings = CompareSettings.build(parse_bot(f"new=builtin:{new}"), parse_bot(f"base=builtin:{base}"), seats=seats,
                                     seed=500, rules=get_ruleset(house), sprt=None, games=2 * pairs)
    counts = [0] * 5
    for k in range(pairs):
        pair = twin_pair(settings, k)
        res_a, _ = run_job(pair.jobs[0], pool)
        res_b, _ = run_job(pair.jobs[1], pool)
        counts[pair_bin(*pair.scores(res_a.placements, res_b.placements))] += 1
    return counts


def moments(counts: list[int]) -> tuple[float, float]:
    p = np.asarray(counts, dtype=float) / sum(counts)
    mean = float(p @ SCORES)
    return mean, float(p @ (SCORES - mean) ** 2)


def variance_table(pairs: int) -> dict[str, list[int]]:
    """Part 1; the hard-vs-medium counts of each ruleset at 2 and 4 seats (part 2's shapes)."""
    pool = BotPool()
    shapes: dict[str, list[int]] = {}
    print(f"per-pair variance of twin pairs between the built-ins, {pairs} pairs each, seed 500")
    print(f"{'ruleset':<8} {'seats':>5}  " + "  ".join(f"{n + '-' + b:>18}" for n, b in MATCHUPS)
          + f"  {'largest':>8} {'nElo(+30)':>9} {'elo1':>5}")
    for house in HOUSES:
        for seats in range(2, 7):
            cells, variances = [], []
            for new, base in MATCHUPS:
                counts = measure(house, seats, new, base, pairs, pool)
                mean, var = moments(counts)
                cells.append(f"{var:.4f} (s {mean:.3f})")
                variances.append(var)
                if (new, base) == ("hard", "medium"):
                    shapes[f"{house}/{seats}"] = counts
            top = max(variances)
            print(f"{house:<8} {seats:>5}  " + "  ".join(f"{c:>18}" for c in cells)
                  + f"  {top:>8.4f} {nelo_of_logistic(TARGET_ELO, top):>9.1f} {derive_elo1(top):>5.0f}", flush=True)
    return shapes


def simulation_table(shapes: dict[str, list[int]], runs: int) -> None:
    """Part 2: the default bounds' tests simulated at no change and at +30 Elo, against the formula."""
    print(f"\ndefault bounds simulated: {runs} tests each on the measured hard-medium pentanomial tilted to the truth")
    print(f"{'table':<10} {'bounds':>10}  {'truth':>8}  {'formula games':>13} {'P(H1)':>6}  {'simulated games':>15} "
          f"{'P(H1)':>6}  {'H0':>5} {'H1':>5}")
    for key, counts in shapes.items():
        house, seats = key.split("/")
        settings = default_settings(house, int(seats))
        shape = [max(c, 1) / sum(counts) for c in counts]
        _, var = moments(counts)
        for label, logistic in (("0", 0.0), ("+30 Elo", TARGET_ELO)):
            elo = nelo_of_logistic(logistic, var) if settings.model == "normalized" else logistic
            truth = pentanomial_at(settings.model, elo, shape)
            _, true_var = moments(list(truth * 1e9))
            sim = simulate_family([truth], settings, runs=runs, seed=11, catch_up=False, bonferroni=False)
            games = 2 * sim.pairs[:, 0]
            se = games.std() / np.sqrt(runs)
            formula = 2 * expected_pairs(settings, true_var, elo)
            print(f"{key:<10} [{settings.elo0:g}, {settings.elo1:g}]{'':>2}  {label:>8}  "
                  f"{formula:>13.0f} {pass_probability(settings, true_var, elo):>6.3f}"
                  f"  {games.mean():>9.0f} ± {se:<3.0f} {(sim.status[:, 0] == H1).mean():>6.3f}  "
                  f"{int((sim.status[:, 0] == H0).sum()):>5} {int((sim.status[:, 0] == H1).sum()):>5}", flush=True)


def compare_games(args: list[str]) -> tuple[int, str, float]:
    """``lastcard compare ARGS -q``: games to the verdict, the verdict, the seconds."""
    t0 = time.monotonic()
    res = subprocess.run(LASTCARD + ["compare", *args, "-q", "--no-report"], capture_output=True, text=True, cwd=REPO)
    if res.returncode != 0:
        raise SystemExit(f"lastcard compare {' '.join(args)} failed:\n{res.stdout}{res.stderr}")
    games = int(re.search(r"Games: (\d+)", res.stdout).group(1))  # type: ignore[union-attr]
    last = res.stdout.strip().splitlines()[-1]
    return games, last, time.monotonic() - t0


def real_table(seeds: int) -> None:
    """Part 3: real tests on the default bounds."""
    # --sandbox none: the count of games does not depend on the walls, and the loaded machine is slow enough
    # arcade: a game is one round (compact's matches to 500 take random bots a long while: the count of games to a
    # verdict is what is measured, and arcade's 2-seat bounds are compact's, [0, 30])
    cases = [("no change: random_bot.py on seed 1 vs on seed 2, arcade, 2 seats",
              [f"new={RANDOM.format(1)}", f"base={RANDOM.format(2)}", "-r", "arcade", "--sandbox", "none"]),
             ("+34 Elo: hard vs medium, family, 2 seats", ["builtin:hard", "builtin:medium", "-r", "family"])]
    print(f"\nreal tests on the default bounds, seeds 1..{seeds}, --jobs 1")
    for label, args in cases:
        out = [compare_games([*args, "--seed", str(seed)]) for seed in range(1, seeds + 1)]
        games = [g for g, _, _ in out]
        verdicts = [v for _, v, _ in out]
        print(f"  {label}: median {statistics.median(games):.0f} games (quartiles "
              f"{'-'.join(f'{q:.0f}' for q in statistics.quantiles(games, n=4))}), "
              + ", ".join(f"{verdicts.count(v)} {v}" for v in sorted(set(verdicts)))
              + f", median {statistics.median(s for _, _, s in out):.1f} s a test", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--real", type=int, default=10)
    parser.add_argument("--shapes", help="a JSON file of part 1's shapes (written by a run of part 1)")
    parser.add_argument("--skip-variance", action="store_true")
    parser.add_argument("--skip-sim", action="store_true")
    parser.add_argument("--skip-real", action="store_true")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start")
    shapes: dict[str, list[int]] = {}
    if args.shapes and os.path.exists(args.shapes):
        shapes = json.loads(Path(args.shapes).read_text())
    if not args.skip_variance:
        shapes = variance_table(args.pairs)
        if args.shapes:
            Path(args.shapes).write_text(json.dumps(shapes))
    if not args.skip_sim and shapes:
        simulation_table({k: v for k, v in shapes.items() if k.endswith(("/2", "/4"))}, args.runs)
    if not args.skip_real:
        real_table(args.real)


if __name__ == "__main__":
    main()
