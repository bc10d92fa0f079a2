#!/usr/bin/env python3
"""The blunder finder's time on a results folder of N games (issue 52): ``lastcard blunders DIR --bot NAME``.

Run by hand (not part of the test suite)::

    python bench/blunders_bench.py [--games 200] [--reps 5] [--ruleset family]

Plays one match (the Python sample bot ``strong_bot`` against ``builtin:hard``, ``medium`` and ``easy``, 4 seats),
then times, each ``--reps`` times, interleaved, as a user runs it (a ``lastcard`` process, its start-up included):

* ``rules``: ``--rule all`` (the patterns read from the positions alone);
* ``hard``: the default, every rule and ``--against builtin:hard`` (the built-in asked at every turn, in process);
* ``self-j1``, ``self-j2``: ``--against`` the bot's own command (a process started per game, sandboxed, asked
  every request), with 1 and 2 games side by side, once each: it flags no turn, which checks that the requests
  line up with the stored answers.

Each figure is the median of the runs, in seconds, with the number of turns flagged.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LASTCARD = [sys.executable, "-m", "referee.cli.main"]


def _run(args: list[str], cwd: Path) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run([*LASTCARD, *args], cwd=cwd, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, done.stdout.splitlines()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--ruleset", default="family")
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="blunders-bench-") as tmp:
        work = Path(tmp)
        (work / "bot").mkdir()
        for name in ("strong_bot.py", "botkit.py"):
            shutil.copy(ROOT / "sample_bots" / "python" / name, work / "bot")
        subprocess.run([*LASTCARD, "match", "{python} bot/strong_bot.py", "builtin:hard", "builtin:medium",
                        "builtin:easy", "-r", opts.ruleset, "-n", str(opts.games), "--out", "out"], cwd=work,
                       capture_output=True, check=True)
        base = ["blunders", "out", "--bot", "strong_bot", "-n", "0"]
        modes = {"rules": [*base, "--rule", "all"], "hard": base}
        times: dict[str, list[float]] = {m: [] for m in modes}
        said: dict[str, str] = {}
        for _ in range(opts.reps):
            for mode, args in modes.items():
                seconds, said[mode] = _run(args, work)
                times[mode].append(seconds)
        for jobs in ("1", "2"):
            seconds, said[f"self-j{jobs}"] = _run([*base, "--against", "{python} bot/strong_bot.py", "-j", jobs], work)
            times[f"self-j{jobs}"] = [seconds]
    print(f"{opts.games} games, {opts.ruleset}, 4 seats; median of {opts.reps} runs (self: 1 run each)")
    for mode, runs in times.items():
        print(f"  {mode:7}  {statistics.median(runs):6.2f} s   {said[mode]}")


if __name__ == "__main__":
    main()
