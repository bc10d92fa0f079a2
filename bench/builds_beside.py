#!/usr/bin/env python3
"""Builds beside the first games against builds first, from an empty build cache (issue 51).

    .venv/bin/python bench/builds_beside.py --jobs 1 --rounds 5            # the sample arena
    .venv/bin/python bench/builds_beside.py --jobs 2 --rounds 3 --class 30  # a generated class (bench/class_bench.py)

Each run is ``run_arena`` in a fresh process (``builds_beside`` true, then false, then false, true, ...: a neighbour's
load hits both alike) with a new empty ``LASTCARD_BUILD_CACHE``, timed from its start to its exit; the sample bots'
own build outputs are removed first. Printed: each run, the medians, their ratio and the load average. A class has one
broken submission in 30 (its build fails), so its games played beside the builds are played again without it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHILD = """
import sys
from referee.arena.config import load_arena
from referee.arena.runner import run_arena
run = run_arena(load_arena(sys.argv[1]), out=sys.argv[2], jobs=int(sys.argv[3]), fresh=True,
                builds_beside=sys.argv[4] == "1")
assert run.complete, "the arena did not finish"
"""


def one(arena: Path, out: Path, jobs: int, beside: bool, cache: Path) -> float:
    shutil.rmtree(ROOT / "sample_bots" / "java" / "classes", ignore_errors=True)
    (ROOT / "sample_bots" / "c" / "bot").unlink(missing_ok=True)
    shutil.rmtree(cache, ignore_errors=True)
    t0 = time.monotonic()
    subprocess.run([sys.executable, "-c", CHILD, str(arena), str(out), str(jobs), "1" if beside else "0"], cwd=ROOT,
                   check=True, env={**os.environ, "LASTCARD_BUILD_CACHE": str(cache),
                                    "PYTHONPATH": str(ROOT)}, stdout=subprocess.DEVNULL)
    return time.monotonic() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--class", dest="students", type=int, default=0,
                        help="a generated class of this many submissions instead of the sample arena")
    args = parser.parse_args()
    times: dict[bool, list[float]] = {True: [], False: []}
    with tempfile.TemporaryDirectory() as tmp:
        arena = ROOT / "arenas" / "sample.yaml"
        if args.students:
            sys.path.insert(0, str(ROOT / "bench"))
            from class_bench import ARENA, make_class

            make_class(Path(tmp), args.students)
            arena = Path(tmp) / "class.yaml"
            arena.write_text(ARENA.format(games=10, move_ms=500), encoding="utf-8")
        for r in range(args.rounds):
            for beside in ((True, False) if r % 2 == 0 else (False, True)):
                load = os.getloadavg()[0]
                took = one(arena, Path(tmp) / "out", args.jobs, beside, Path(tmp) / "cache")
                times[beside].append(took)
                print(f"round {r + 1} {'beside' if beside else 'first '}: {took:.2f} s (load {load:.2f})", flush=True)
    first, beside = statistics.median(times[False]), statistics.median(times[True])
    print(f"--jobs {args.jobs}, medians of {args.rounds}: built first {first:.2f} s, beside the games {beside:.2f} s: "
          f"{beside / first:.2f}x")


if __name__ == "__main__":
    main()
