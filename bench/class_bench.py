#!/usr/bin/env python3
"""A class contest at scale: time to first standings and games/s for a generated class.

Run by hand (not part of the test suite)::

    python bench/class_bench.py [--students 30 300] [--games 10] [--jobs 2] [--json FILE]
    python bench/class_bench.py --students 30 --clocks wall cpu --move-ms 20   # timeouts per clock

For each class size, a folder of generated submissions is made from the sample class in
``arenas/students`` (Python, JavaScript, C, Java, shell ``run``, a ``lastcard.yaml`` manifest), each
copy made distinct by a comment line; one in 30 is the broken C bot and one in 30 an empty folder,
as in a real class. ``lastcard arena`` then runs a sampled league (``--games`` games per bot, 4-seat
tables, compact, ``bootstrap: 200``), as ``classroom.yaml`` does, in a subprocess, and the figures are:

* ``standings_s``: from the command's start to the standings printed (builds, games, ratings, reports
  files), i.e. what a teacher waits for; ``--check-games 0`` so per-bot checks are not counted;
* ``builds_s`` and ``games_s`` from ``timing.json``'s phases; ``games_per_s`` = games / games phase;
* ``reports_s``: the extra time the per-bot reports take with their check (``--check-games 2``),
  measured by a second run of the same arena (its games are played again).

With ``--clocks``, the same class runs once per clock (``lastcard arena --clock``), and each row also
has the timeouts of the run, the bots that had one, and the largest per-bot average wall and CPU time
per answer (``--move-ms`` sets the class's move limit, 500 ms otherwise).

The load average is printed: the machine is shared, and a busy one makes every figure worse.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "arenas" / "students"
#: The mix of a generated class, by sample folder, repeated in this order (30 long: one broken, one empty).
MIX = (["ada", "zoé martin", "gus"] * 4 + ["bob"] * 5 + ["eve"] * 3 + ["cy"] * 3 + ["dee"] * 1
       + ["ada", "bob", "zoé martin", "eve"] + ["fred", "hal"])
#: A comment line in each kind of file, to make every copy distinct.
COMMENT = {".py": "# {}", ".js": "// {}", ".c": "/* {} */", ".java": "// {}", "": "# {}", ".yaml": "# {}"}

ARENA = """\
name: bench-class
seed: 7
ruleset: compact
seats: 4
policy: strikes:3
limits: {{move_ms: {move_ms}, startup_ms: 10000}}
bootstrap: 200
format: sampled
games: {games}
bots:
  - submissions: {{path: "students/*", build_timeout_s: 120}}
  - builtin:medium
  - builtin:hard
"""


def make_class(folder: Path, students: int) -> None:
    """``students`` submission folders made from the sample class, each one distinct."""
    for i in range(students):
        source = SAMPLE / MIX[i % len(MIX)]
        target = folder / "students" / f"s{i:03d} {source.name}"
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("bot", "*.class"))  # build outputs
        for path in target.iterdir():
            if path.name == "NOTES.txt" or path.suffix not in COMMENT:
                continue
            mark = COMMENT[path.suffix].format(f"submission {i}") + "\n"
            text = path.read_text(encoding="utf-8")
            head, text = ((text.split("\n", 1)[0] + "\n", text.split("\n", 1)[1]) if text.startswith("#!")
                          else ("", text))
            path.write_text(head + mark + text, encoding="utf-8")


def run(arena: Path, out: Path, jobs: int, check_games: int, clock: str | None = None) -> tuple[float, dict]:
    """Run the arena; (seconds until the command ended, timing.json)."""
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "referee.cli.main", "arena", str(arena), "--out", str(out),
                           "--jobs", str(jobs), "--quiet", "--fresh", "--check-games", str(check_games)]
                          + (["--clock", clock] if clock else []), cwd=ROOT, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if proc.returncode != 0:
        raise SystemExit(f"arena failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return wall, json.loads((out / "timing.json").read_text())


def timeouts(out: Path) -> dict[str, int]:
    """The run's timeout faults, and how many bots had one (from games.jsonl)."""
    count, bots = 0, set()
    for line in (out / "games.jsonl").read_text(encoding="utf-8").splitlines():
        for fault in json.loads(line)["faults"]:
            if fault["kind"] == "timeout":
                count += 1
                bots.add(fault.get("bot"))
    return {"timeouts": count, "bots_timed_out": len(bots)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, nargs="+", default=[30, 300])
    parser.add_argument("--games", type=int, default=10, help="games per bot in the sampled league")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--reports", action="store_true", help="also time the per-bot reports with their check")
    parser.add_argument("--json", help="write the figures here too")
    parser.add_argument("--clocks", nargs="+", choices=["cpu", "wall"], default=[None],
                        help="run the class once per clock and count the timeouts")
    parser.add_argument("--move-ms", type=int, default=500, help="the class's move limit")
    args = parser.parse_args()
    rows = []
    for n, clock in [(n, c) for n in args.students for c in args.clocks]:
        with tempfile.TemporaryDirectory(prefix="lastcard-class-") as tmp:
            folder = Path(tmp)
            make_class(folder, n)
            arena = folder / "class.yaml"
            arena.write_text(ARENA.format(games=args.games, move_ms=args.move_ms), encoding="utf-8")
            load = os.getloadavg()[0]
            wall, timing = run(arena, folder / "out", args.jobs, 0, clock)
            results = json.loads((folder / "out" / "results.json").read_text())
            phases = timing.get("phases", {})
            games = results["games"]
            row = {"students": n, "playing": len(results["bots"]), "left_out": len(results["left_out"]),
                   "games": games, "standings_s": round(wall, 1), "builds_s": round(phases.get("builds_s", 0), 1),
                   "games_s": round(phases.get("games_s", 0), 1),
                   "games_per_s": round(games / phases["games_s"], 2) if phases.get("games_s") else None}
            if clock is not None:
                row.update(clock=clock, move_ms=args.move_ms, load_before=round(load, 1), **timeouts(folder / "out"))
                per_bot = timing.get("bots", {}).values()
                row["worst_avg_wall_ms"] = max((b["avg_ms"] or 0 for b in per_bot), default=None)
                row["worst_avg_cpu_ms"] = max((b.get("cpu_avg_ms") or 0 for b in per_bot), default=None)
                row["worst_max_wall_ms"] = max((b["max_ms"] or 0 for b in per_bot), default=None)
                row["worst_max_cpu_ms"] = max((b.get("cpu_max_ms") or 0 for b in per_bot), default=None)
                row["clocks_seen"] = sorted({c for cs in results.get("clock_levels", {}).values() for c in cs})
            if args.reports:
                wall2, _ = run(arena, folder / "out2", args.jobs, 2)
                row["reports_s"] = round(wall2 - wall, 1)
            rows.append(row)
            print(json.dumps(row), flush=True)
    env = {"python": sys.version.split()[0], "cpus": os.cpu_count(), "load": os.getloadavg(), "jobs": args.jobs,
           "games_per_bot": args.games}
    print(json.dumps({"env": env}))
    if args.json:
        Path(args.json).write_text(json.dumps({"env": env, "rows": rows}, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
