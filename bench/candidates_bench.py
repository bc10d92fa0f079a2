#!/usr/bin/env python3
"""Several candidates at once (``lastcard compare BASE --candidate ...``): error rates and games, simulated.

    python bench/candidates_bench.py [--runs 1000] [--model logistic] [--elo1 60] [--seed 1]

Pure numbers (``referee.compare.simulate``): pairs drawn from known pentanomial distributions, four
candidates per run, the four truths of issue 39 (Elo in units of ``elo1``). For each: the family-wise
type I error (some candidate no better than ``elo0`` accepted) and type II error (some candidate at least
``elo1`` better dropped) of the family run, each with the ceiling that ``runs`` runs allow at a true rate of
alpha (one-in-a-million tail), and the mean games of the family run against the four candidates as single
comparisons one after the other, at the full alpha and beta each (today's practice, whose family-wise
error is up to four times larger) and at the Bonferroni levels (the same guarantee).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.compare.simulate import BEHIND, H0, H1, SCENARIOS, binomial_ceiling, scenario_row  # noqa: E402
from referee.compare.sprt import SprtSettings  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--model", default="logistic")
    ap.add_argument("--elo1", type=float, default=60.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    sprt = SprtSettings(0, args.elo1, args.alpha, args.alpha, args.model)
    ceil = binomial_ceiling(args.runs, args.alpha)
    print(f"{args.model} [0, {args.elo1:g}], family alpha = beta = {args.alpha}, 4 candidates "
          f"(each test at {args.alpha / 4:g}), {args.runs} runs, seed {args.seed}; "
          f"error ceiling {ceil - 1}/{args.runs} ({(ceil - 1) / args.runs:.3f})")
    print("| truths (elo1 units) | FWE I (family) | FWE II (family) | FWE I / II (singles, full alpha) | "
          "games: family | singles | singles, Bonferroni | saved vs singles | saved vs Bonferroni singles | "
          "accepted / dropped / behind per candidate |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for i, sc in enumerate(SCENARIOS):
        t0 = time.monotonic()
        row = scenario_row(sc, sprt, args.runs, args.seed + 10 * i)
        f, s = row.family, row.sequential
        outcome = " ; ".join(f"{a:.3f}/{d:.3f}/{b:.3f}" for a, d, b in zip(f.share(H1), f.share(H0), f.share(BEHIND)))
        print(f"| {', '.join(f'{e:g}' for e in sc.elos)} | {f.type1_errors(row.elos, 0) / f.runs:.3f} | "
              f"{f.type2_errors(row.elos, args.elo1) / f.runs:.3f} | "
              f"{s.type1_errors(row.elos, 0) / s.runs:.3f} / {s.type2_errors(row.elos, args.elo1) / s.runs:.3f} | "
              f"{f.mean_games:.0f} | {s.mean_games:.0f} | {row.sequential_bonferroni.mean_games:.0f} | "
              f"{100 * row.saved:.0f}% | {100 * row.saved_bonferroni:.0f}% | {outcome} |", flush=True)
        print(f"  ({time.monotonic() - t0:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
