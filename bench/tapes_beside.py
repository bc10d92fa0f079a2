#!/usr/bin/env python3
"""The report's tapes made beside the games against made after them, the sample arena (issue 51).

    .venv/bin/python bench/tapes_beside.py --jobs 1 --rounds 5
    .venv/bin/python bench/tapes_beside.py --jobs 2 --rounds 5

Each run is ``run_arena`` then ``write_report`` (as ``lastcard arena`` runs them, with as many report processes as
workers) in a fresh process, tapes beside the games, then after, then after, beside, ... (a neighbour's load hits both
alike), the bots built from the cache. Printed: each run (the whole, the games, the page after them), the medians,
their ratios and the load average. The pages of both ways are the same game for game (tests/html_report).
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

ROOT = Path(__file__).resolve().parent.parent
CHILD = """
import json, sys, time
from referee.arena.config import load_arena
from referee.arena.runner import run_arena
from referee.html_report import write_report
from referee.html_report.tapes_beside import TapesBeside
run = run_arena(load_arena(sys.argv[1]), out=sys.argv[2], jobs=int(sys.argv[3]), fresh=True, page_tapes=TapesBeside,
                tapes_beside=sys.argv[4] == "1")
assert run.complete, "the arena did not finish"
t0 = time.monotonic()
write_report(sys.argv[2], jobs=run.workers.count)
print(json.dumps({"games_s": run.wall_s, "page_s": time.monotonic() - t0}))
"""


def one(arena: Path, out: Path, jobs: int, beside: bool) -> tuple[float, float, float]:
    """(whole, games, page) seconds of one run."""
    t0 = time.monotonic()
    done = subprocess.run([sys.executable, "-c", CHILD, str(arena), str(out), str(jobs), "1" if beside else "0"],
                          cwd=ROOT, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                          text=True)
    whole = time.monotonic() - t0
    times = json.loads(done.stdout.strip().splitlines()[-1])
    return whole, times["games_s"], times["page_s"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    times: dict[bool, list[tuple[float, float, float]]] = {True: [], False: []}
    arena = ROOT / "arenas" / "sample.yaml"
    with tempfile.TemporaryDirectory() as tmp:
        one(arena, Path(tmp) / "out", args.jobs, False)  # the builds' cache filled, the page cache warm
        for r in range(args.rounds):
            for beside in ((True, False) if r % 2 == 0 else (False, True)):
                load = os.getloadavg()[0]
                whole, games, page = one(arena, Path(tmp) / "out", args.jobs, beside)
                times[beside].append((whole, games, page))
                print(f"round {r + 1} {'beside' if beside else 'after '}: {whole:.2f} s, games {games:.2f} s, "
                      f"page {page:.3f} s (load {load:.2f})", flush=True)
    print(f"--jobs {args.jobs}, medians of {args.rounds}:")
    for i, what in enumerate(("whole", "games", "page")):
        after, beside = (statistics.median(t[i] for t in times[way]) for way in (False, True))
        print(f"  {what:5}: after {after:.3f} s, beside {beside:.3f} s: {beside / after:.2f}x")


if __name__ == "__main__":
    main()
