#!/usr/bin/env python3
"""A profile of the whole ``lastcard match`` command, per game: the referee's process and its worker's.

    python bench/command_profile.py [--games 1500] [--top 25] [--jobs 1] [--sandbox none] [--clock cpu|wall]

Plays ``lastcard match`` between four trivial C bots (sample_bots/c/trivial.c, compiled here), family single
rounds, pinned to one core, in this process under ``cProfile``; the worker the executor forks is profiled too
(its loop wrapped before the fork). Prints each process's functions by time of their own and inclusive, per
game, and the split: the worker's games (``run_job``: the turns and a game's start and end), the worker's
hand-off around them, and the referee's own work per game (receiving, storing, the standings).
cProfile slows Python code several times over and C calls not at all: read the shares, not the microseconds.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
REPO = HERE.parent.parent


def build_trivial(tmp: str) -> str:
    exe = os.path.join(tmp, "trivial")
    subprocess.run(["gcc", "-O2", "-std=gnu99", "-o", exe, str(REPO / "sample_bots/c/trivial.c")], check=True)
    return exe


def profiler(clock: str) -> cProfile.Profile:
    """A profiler on the wall clock, or on the process's CPU time (what a process spends, not what it waits)."""
    return cProfile.Profile(time.process_time) if clock == "cpu" else cProfile.Profile()


def profiled_worker(dump_dir: str, clock: str) -> None:
    """Wrap the executor's worker loop so that each forked worker writes its own profile to ``dump_dir``."""
    from referee.run import executor

    inner = executor._play

    def play(*args: object) -> None:
        prof = profiler(clock)
        prof.enable()
        try:
            inner(*args)  # type: ignore[arg-type]
        finally:
            prof.disable()
            prof.dump_stats(os.path.join(dump_dir, f"worker-{os.getpid()}.prof"))

    executor._play = play  # type: ignore[assignment]


def show(stats: pstats.Stats, title: str, games: int, top: int) -> None:
    """The top functions by own time and by inclusive time, in microseconds a game."""
    for key, label in (("tottime", "own time"), ("cumulative", "inclusive")):
        out = io.StringIO()
        stats.stream = out  # type: ignore[attr-defined]
        stats.sort_stats(key).print_stats(top)
        print(f"\n== {title}: top {top} by {label} (seconds over {games} games; x 1e6 / {games} for us a game)")
        lines = out.getvalue().splitlines()
        start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls")), 0)
        print("\n".join(lines[start:]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--sandbox", default="none")
    ap.add_argument("--trivial", help="the trivial bot, already compiled")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="profile on each process's CPU time (default: its waits are not counted) or the wall clock")
    args = ap.parse_args()
    sys.path.insert(0, str(REPO))
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    except (AttributeError, OSError):
        pass
    with tempfile.TemporaryDirectory() as tmp:
        exe = args.trivial or build_trivial(tmp)
        profiled_worker(tmp, args.clock)
        from referee.cli.main import cli

        argv = ["match", *[f"t{i}={exe}" for i in range(4)], "-r", "family", "-o", "target=round",
                "-n", str(args.games), "--jobs", str(args.jobs), "--sandbox", args.sandbox, "--no-report"]
        prof = profiler(args.clock)
        prof.enable()
        try:
            cli.main(argv, prog_name="lastcard", standalone_mode=False)
        finally:
            prof.disable()
        show(pstats.Stats(prof), "the referee's process", args.games, args.top)
        for dump in sorted(Path(tmp).glob("worker-*.prof")):
            show(pstats.Stats(str(dump)), f"worker {dump.stem}", args.games, args.top)


if __name__ == "__main__":
    main()
