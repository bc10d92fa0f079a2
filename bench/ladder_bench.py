#!/usr/bin/env python3
"""Ladder benchmark: a generated class of submissions, the first run, and a re-run after one changes.

Run by hand (not part of the test suite)::

    python bench/ladder_bench.py [--size 30] [--share 24] [--seats 4] [--jobs 2] [--ruleset arcade] [--json FILE]

The class: ``--size`` folders ``students/sNNN/bot.py``, alternately copies of
``sample_bots/python/random_bot.py`` and ``strong_bot.py``, each with its own first line (so every
submission has its own hash), run as ``{python} bot.py``. Three ladder runs through the whole
pipeline (hashes, SQLite store, worker processes with the bots kept alive, ratings with 200
bootstrap samples, reports):

1. **first**: a fresh ladder file until every bot has ``--share`` games: the time to the first
   standings (the command's whole run, builds and reports included) and games/s;
2. **one changed**: one submission edited, the same file run again: games retired and played;
3. **full re-run**: a fresh file with the changed class: the games a ladder without memory plays.

The load average is printed: other busy processes on the machine slow every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # benchmark the working tree

from referee.arena import load_arena  # noqa: E402
from referee.ladder.run import LadderOptions, run_ladder  # noqa: E402


def make_class(folder: Path, size: int, ruleset: str, seats: int) -> Path:
    """``size`` submissions (random and strong sample bots, each with its own first line) and the arena file."""
    samples = [REPO / "sample_bots" / "python" / "random_bot.py", REPO / "sample_bots" / "python" / "strong_bot.py"]
    for i in range(size):
        sub = folder / "students" / f"s{i:03d}"
        sub.mkdir(parents=True)
        source = samples[i % 2].read_text()
        (sub / "bot.py").write_text(f"# student {i:03d}\n" + source)
    arena = folder / "class.yaml"
    arena.write_text(f"name: bench-class\nseed: 5\nruleset: {ruleset}\nseats: {seats}\nbootstrap: 200\n"
                     "bots:\n  - submissions: {path: 'students/*', command: '{python} bot.py'}\n")
    return arena


def timed(arena_path: Path, db: Path, options: LadderOptions, jobs: int) -> dict:
    t0 = time.monotonic()
    run = run_ladder(load_arena(str(arena_path)), str(db), jobs=jobs, options=options)
    wall = time.monotonic() - t0
    return {"wall_s": round(wall, 2), "played": run.played_now, "retired": run.retired, "kept": run.kept,
            "games_per_s": round(run.played_now / run.wall_s, 2) if run.wall_s > 0 else None,
            "stop": run.stop_reason}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=30)
    parser.add_argument("--share", type=int, default=24)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ruleset", default="arcade")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    options = LadderOptions(share=args.share)
    work = Path(tempfile.mkdtemp(prefix="ladder-bench-"))
    try:
        arena = make_class(work / "class", args.size, args.ruleset, args.seats)
        first = timed(arena, work / "ladder.sqlite", options, args.jobs)
        with (work / "class" / "students" / "s001" / "bot.py").open("a") as fh:
            fh.write("# a late fix\n")
        changed = timed(arena, work / "ladder.sqlite", options, args.jobs)
        full = timed(arena, work / "fresh.sqlite", options, args.jobs)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    figures = {"size": args.size, "share": args.share, "seats": args.seats, "jobs": args.jobs,
               "ruleset": args.ruleset, "python": platform.python_version(), "cpus": os.cpu_count(),
               "load_before_and_after": os.getloadavg(), "first": first, "one_changed": changed, "full_rerun": full}
    print(f"class of {args.size} ({args.ruleset}, {args.seats} seats, share {args.share}, {args.jobs} jobs; "
          f"load {os.getloadavg()[0]:.1f})")
    print(f"  first standings: {first['wall_s']} s, {first['played']} games, {first['games_per_s']} games/s")
    print(f"  one submission changed: {changed['played']} games played ({changed['retired']} retired), "
          f"{changed['wall_s']} s")
    print(f"  full re-run:            {full['played']} games played, {full['wall_s']} s")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
