#!/usr/bin/env python3
"""How long each reader of a file a person hands in takes to refuse a hostile file, through the command line.

Run by hand (not part of the test suite)::

    python bench/hostile_inputs.py [--reps 5] [--timeout 30] [--only READER ...] [--json FILE]

Every hostile file of ``tests/support/hostile_files.py`` (binary, nested 5,000 levels of YAML or 100,000 of JSON,
30 MB, a YAML alias bomb, a gzip bomb of about a gigabyte in a megabyte, Latin-1 text, a directory) is handed to
each reader as a user types the command: ``lastcard arena FILE``, ``lastcard puzzles FILE BOT``, ``lastcard tune
BOT --params FILE``, ``lastcard replay FILE g0001``, ``lastcard ladder run ARENA --db FILE``. Each cell is the
median wall time and CPU time (the child's user and system time: steadier than the wall time on a shared
machine) of ``--reps`` runs of a fresh ``lastcard`` process (``python -m referee.cli.entry`` from this tree, or
from ``--tree DIR``; Python's start-up and the command's imports included: the start-up alone is printed first),
then the exit status and what ended it: ``message`` (a message and no traceback), ``TRACEBACK``, or ``>Ns`` (killed at
``--timeout``, not run again). A child may take at most 2 GiB of memory (``RLIMIT_AS``), so an alias bomb that
expands ends in a ``MemoryError`` rather than taking the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # the working tree's hostile files

from tests.support.hostile_files import NAMES, write  # noqa: E402

MEMORY = 2 << 30
ARENA = "name: bench\nseats: 2\nbots: [builtin:random, builtin:easy]\n"
#: Each reader's command line, FILE standing for the hostile file (and ARENA for a good arena file).
READERS: dict[str, list[str]] = {
    "arena": ["arena", "FILE", "--out", "OUT"],
    "puzzles": ["puzzles", "FILE", "builtin:random"],
    "tune --params": ["tune", "python3 bot.py {keep}", "--params", "FILE", "--out", "OUT"],
    "replay": ["replay", "FILE", "g0001"],
    "ladder run --db": ["ladder", "run", "ARENA", "--db", "FILE", "--out", "OUT"],
}


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(argv: list[str], cwd: Path, timeout: float, tree: Path) -> tuple[float, float, int | None, str]:
    """Wall seconds, CPU seconds, exit status (``None``: killed at the timeout) and the output of one command."""
    started, cpu = time.perf_counter(), _cpu()
    try:
        done = subprocess.run([sys.executable, "-m", "referee.cli.entry", *argv], cwd=cwd, capture_output=True,
                              timeout=timeout, preexec_fn=_limit, env={**os.environ, "PYTHONPATH": str(tree)})
    except subprocess.TimeoutExpired:  # killed and waited for: its CPU time is counted
        return time.perf_counter() - started, _cpu() - cpu, None, ""
    output = (done.stdout + done.stderr).decode("utf-8", "replace")
    return time.perf_counter() - started, _cpu() - cpu, done.returncode, output


def cell(argv: list[str], cwd: Path, reps: int, timeout: float, tree: Path) -> dict[str, object]:
    """The median wall and CPU times of ``reps`` runs, the exit status and how it ended (one run only when it
    times out)."""
    times, cpus, status, output = [], [], None, ""
    for _ in range(reps):
        seconds, cpu, status, output = run_once(argv, cwd, timeout, tree)
        times.append(seconds)
        cpus.append(cpu)
        if status is None:
            break
    ended = (f">{timeout:.0f}s" if status is None else "TRACEBACK" if "Traceback" in output
             else "message" if status == 2 else f"exit {status}")
    last = output.strip().splitlines()[-1][:160] if output.strip() else ""
    return {"seconds": statistics.median(times), "cpu": statistics.median(cpus), "status": status, "ended": ended,
            "last_line": last}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--only", nargs="*", default=None, help="readers to run (default: all)")
    parser.add_argument("--files", nargs="*", default=None, help="hostile files to try (default: all)")
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--verbose", "-v", action="store_true", help="print each cell's last line of output")
    parser.add_argument("--tree", type=Path, default=REPO, help="the tree whose referee/ is run (default: this one; "
                                                                 "an older tree for the figures before a change)")
    args = parser.parse_args()
    readers = [r for r in READERS if args.only is None or r in args.only]
    names = [n for n in NAMES if args.files is None or n in args.files]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "arena.yaml").write_text(ARENA)
        start = cell(["--version"], folder, args.reps, args.timeout, args.tree)
        print(f"lastcard --version (Python's start-up): {start['seconds']:.2f} s wall, {start['cpu']:.2f} s CPU, "
              f"median of {args.reps}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        results: dict[str, dict[str, dict[str, object]]] = {}
        for name in names:
            path = write(folder, name, "records.jsonl.gz" if name == "gzip-bomb" else "file")
            results[name] = {}
            for reader in readers:
                argv = [str(path) if w == "FILE" else str(folder / "arena.yaml") if w == "ARENA"
                        else str(folder / "out") if w == "OUT" else w for w in READERS[reader]]
                results[name][reader] = found = cell(argv, folder, args.reps, args.timeout, args.tree)
                if args.verbose:
                    print(f"  {name} / {reader}: {found['ended']} {found['seconds']:.2f}s: {found['last_line']}",
                          flush=True)
    print("\nwall seconds / CPU seconds (median), and how it ended")
    print(f"{'file':<12}" + "".join(f"{r:>26}" for r in readers))
    for name, row in results.items():
        print(f"{name:<12}" + "".join(f"{row[r]['seconds']:>9.2f} /{row[r]['cpu']:>5.2f} {row[r]['ended']:<9}"
                                      for r in readers))
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps({"startup_s": start["seconds"], "reps": args.reps,
                                               "results": results}, indent=1))


if __name__ == "__main__":
    main()
