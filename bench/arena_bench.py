#!/usr/bin/env python3
"""Arena throughput: games per second with 4-seat tables, for --jobs 1 and --jobs 2, and how much of
the wall time is spent outside the bots.

Run by hand (not part of the test suite)::

    python bench/arena_bench.py [--games N] [--reps R] [--ruleset NAME] [--json FILE]

Two line-ups, each one table of four copies of the same player, played through the whole arena
pipeline (schedule, worker processes, games.jsonl, standings; ``bootstrap: 0``):

* ``c``: the C sample bot (``sample_bots/c/bot.c``, compiled here with gcc), four bot processes
  per worker kept alive between games;
* ``random``: ``builtin:random``, in-process players (the engine and referee alone).

Figures per run: games/s of wall time; the speed-up from 1 to 2 jobs; CPU seconds per game (all
processes: referee, workers, bots; independent of other load on the machine); the share of worker
time spent outside the bots: ``1 - sum(time_ms.total) / (wall * jobs)``, where ``time_ms.total`` is
the referee's measure of each seat's waits for bot answers (so the rest is engine, referee, protocol
encoding, the executor and the store); and the share of worker time outside ``play_game`` (the
executor's own overhead: ``1 - sum(wall_ms) / (wall * jobs)``). Runs are interleaved and each figure
is the median over ``--reps``. ``choix`` (for the ratings) is imported before timing starts, as it
is early in any long arena. The load average is printed: another busy process on the machine
makes the 2-job speed-up look worse than it is.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # benchmark the working tree

import choix  # noqa: E402,F401 - imported once up front: the arena imports it for the ratings, a one-off second of CPU

from referee.arena import parse_arena, run_arena  # noqa: E402


def lineup(kind: str, games: int, ruleset: str, bot: str | None) -> dict:
    if kind == "c":
        bots = [{"name": f"c{i}", "command": bot} for i in range(1, 5)]
    else:
        bots = [{"name": f"random{i}", "command": "builtin:random"} for i in range(1, 5)]
    return {"name": f"bench-{kind}", "seed": 1, "ruleset": ruleset, "seats": 4, "format": "round_robin",
            "games": games, "bootstrap": 0, "bots": bots}


def cpu_seconds() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)  # workers, and the bots they waited for
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def measure(data: dict, jobs: int, workdir: Path) -> dict:
    arena = parse_arena(data, source=f"<{data['name']}>", base_dir=str(workdir))
    out = workdir / f"{data['name']}-j{jobs}"
    cpu0 = cpu_seconds()
    run = run_arena(arena, out=str(out), jobs=jobs, fresh=True)
    cpu = cpu_seconds() - cpu0
    games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    bot_ms = sum(sum(g["time_ms"]["total"]) for g in games)
    worker_ms = run.wall_s * 1000 * jobs
    game_ms = sum(g.get("wall_ms") or 0.0 for g in games)
    return {"games": len(games), "wall_s": run.wall_s, "games_per_s": len(games) / run.wall_s,
            "cpu_per_game_ms": 1000 * cpu / len(games), "outside_bots": 1 - bot_ms / worker_ms,
            "outside_play_game": 1 - game_ms / worker_ms if game_ms else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=160, help="games per run (one table of 4)")
    parser.add_argument("--reps", type=int, default=3, help="interleaved repetitions; the median is shown")
    parser.add_argument("--ruleset", default="compact", choices=["compact", "family", "arcade"])
    parser.add_argument("--only", nargs="*", default=["c", "random"], help="line-ups: c, random")
    parser.add_argument("--json", help="also write every sample here")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="lastcard-arena-bench-"))
    bot = None
    if "c" in args.only:
        if shutil.which("gcc") is None:
            print("gcc not found: skipping the C line-up", file=sys.stderr)
            args.only = [k for k in args.only if k != "c"]
        else:
            bot = str(workdir / "cbot")
            subprocess.run(["gcc", "-O2", "-std=c99", "-o", bot, str(REPO / "sample_bots" / "c" / "bot.c")], check=True)
    load0 = os.getloadavg()
    print(f"python {platform.python_version()}, {os.cpu_count()} cpus, load average {load0[0]:.2f} "
          f"{load0[1]:.2f} {load0[2]:.2f}; {args.games} games per run, {args.ruleset}, {args.reps} reps",
          flush=True)
    samples: dict[tuple[str, int], list[dict]] = {}
    try:
        for rep in range(args.reps):
            configs = [(k, j) for k in args.only for j in (1, 2)]
            if rep % 2:
                configs.reverse()
            for kind, jobs in configs:
                result = measure(lineup(kind, args.games, args.ruleset, bot), jobs, workdir)
                samples.setdefault((kind, jobs), []).append(result)
                print(f"  rep {rep + 1} {kind:<6} jobs {jobs}: {result['games_per_s']:7.1f} games/s, "
                      f"{result['cpu_per_game_ms']:6.1f} ms CPU/game, "
                      f"outside bots {100 * result['outside_bots']:5.1f}%", flush=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    load1 = os.getloadavg()
    print()
    print(f"{'line-up':<8} {'jobs':>4} {'games/s':>9} {'speed-up':>9} {'CPU ms/game':>12} {'outside bots':>13} "
          f"{'outside games':>14}")
    table = {}
    for kind in args.only:
        base = None
        for jobs in (1, 2):
            rows = samples[(kind, jobs)]
            rate = statistics.median(r["games_per_s"] for r in rows)
            cpu = statistics.median(r["cpu_per_game_ms"] for r in rows)
            outside = statistics.median(r["outside_bots"] for r in rows)
            executor = statistics.median(r["outside_play_game"] for r in rows)
            base = rate if jobs == 1 else base
            speed = rate / base if base else float("nan")
            table[f"{kind}-j{jobs}"] = {"games_per_s": rate, "speedup": speed, "cpu_ms_per_game": cpu,
                                        "outside_bots": outside, "outside_play_game": executor}
            print(f"{kind:<8} {jobs:>4} {rate:>9.1f} {speed:>8.2f}x {cpu:>12.1f} {100 * outside:>12.1f}% "
                  f"{100 * executor:>13.1f}%")
    print(f"\nload average after: {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"args": vars(args), "load_before": load0, "load_after": load1, "medians": table,
                       "samples": {f"{k}-j{j}": v for (k, j), v in samples.items()}}, fh, indent=2)


if __name__ == "__main__":
    main()
