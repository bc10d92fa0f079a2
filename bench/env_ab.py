#!/usr/bin/env python3
"""Two trees' vector env side by side: interleaved runs, the median of the pairs' ratios.

    python bench/env_ab.py BASE_TREE NEW_TREE [--tables 256] [--pairs 6] [--seconds 1.5]

Each pair runs one process in each tree (``VectorSingleAgentEnv``, family, 2 seats, ``builtin:random``
opponents, seeded, the picks of ``bench/env_bench.py``), one after the other, pinned to core 0 and timed
by the process's CPU time after 100 warm-up steps; the order alternates from pair to pair. On a shared
machine a single run's rate moves by 10% or more with the neighbours' load, while the two runs of a pair
share it: the median of the pairs' ratios is the figure to read, with the pairs themselves for the
spread. Either tree may be pure or compiled in place (each is imported from its own folder).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path


def child(tables: int, seconds: float) -> None:
    """In the tree on ``sys.path``: step the batch for ``seconds`` of CPU time; print steps/s."""
    import numpy as np

    from referee.env import VectorSingleAgentEnv

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {0})
    env = VectorSingleAgentEnv(tables, "family", 2, opponents=["builtin:random"], seat=0)
    obs, _ = env.reset(seed=0)
    picks = np.random.default_rng(0)

    def run(steps: int) -> None:
        nonlocal obs
        for _ in range(steps):
            mask = obs["action_mask"]
            obs, _, _, _, _ = env.step(np.argmax(picks.random(mask.shape, dtype=np.float32) + mask, axis=1))

    run(100)
    steps = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        run(10)
        steps += 10 * tables
    print(steps / (time.process_time() - t0))


def rate(tree: Path, tables: int, seconds: float) -> float:
    code = (f"import sys; sys.path.insert(0, {str(tree)!r}); sys.path.insert(0, {str(Path(__file__).parent)!r}); "
            f"import env_ab; env_ab.child({tables}, {seconds})")
    out = subprocess.run([sys.executable, "-c", code], cwd=tree, check=True, capture_output=True, text=True)
    return float(out.stdout.split()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--tables", type=int, default=256)
    ap.add_argument("--pairs", type=int, default=6)
    ap.add_argument("--seconds", type=float, default=1.5, help="CPU seconds of each run")
    args = ap.parse_args()
    pairs = []
    for k in range(args.pairs):
        if k % 2 == 0:
            base = rate(args.base.resolve(), args.tables, args.seconds)
            new = rate(args.new.resolve(), args.tables, args.seconds)
        else:
            new = rate(args.new.resolve(), args.tables, args.seconds)
            base = rate(args.base.resolve(), args.tables, args.seconds)
        pairs.append((base, new))
        print(f"pair {k + 1}: base {base:12,.0f}  new {new:12,.0f}  steps/s  ratio {new / base:.3f}", flush=True)
    print(f"{args.tables} tables, {args.pairs} pairs: base median {statistics.median(b for b, _ in pairs):,.0f}, "
          f"new median {statistics.median(n for _, n in pairs):,.0f} steps/s; median of the pairs' ratios "
          f"{statistics.median(n / b for b, n in pairs):.3f}")


if __name__ == "__main__":
    main()
