"""Long runs at flat cost: the collecting process's peak memory and the bytes on disk per game, side by side.

Runs ``lastcard match --out`` between built-in players (no bot processes, so the referee itself is
what is measured; family single rounds, as in the issue) at each ``--games`` size, one after the
other, and prints a table:

    python bench/long_run_bench.py                      # 20,000 and 200,000 games
    python bench/long_run_bench.py --games 2000 20000 --jobs 2 --records

Each run is a fresh process (``python -m referee.cli.main match ...`` under a small wrapper that reports
its own ``ru_maxrss`` at exit), so the peak RSS is the referee's alone: the workers are separate
processes and not counted. The output folder is measured file by file and removed afterwards unless
``--keep``. The goal (issue 25): peak RSS at 200,000 games within 25% of 20,000, and at most 2 KB a
game in all without ``--records``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: Runs the command line in this process and prints the process's own peak RSS (kB) as its last stderr line.
WRAPPER = """
import atexit, resource, sys
sys.path.insert(0, {root!r})
atexit.register(lambda: print("PEAK_RSS_KB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr))
from referee.cli.main import cli
cli(sys.argv[1:], prog_name="lastcard")
"""

BOTS = ["builtin:easy", "builtin:easy", "builtin:medium", "builtin:random"]


def run_one(games: int, jobs: int, records: bool, out_dir: str, ruleset: str, options: list[str],
            report: bool = True) -> dict[str, object]:
    """One match of ``games`` games into ``out_dir``: wall time, peak RSS and disk use by file kind."""
    cmd = [sys.executable, "-c", WRAPPER.format(root=ROOT), "match", "-n", str(games), "--jobs", str(jobs),
           "--seed", "1", "--ruleset", ruleset, "--out", out_dir] + [a for o in options for a in ("-o", o)] + \
        (["--records"] if records else []) + ([] if report else ["--no-report"]) + BOTS
    t0 = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the referee and its workers (CPU time, any load)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if proc.returncode != 0:
        raise SystemExit(f"the run of {games} games failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    peak = next(int(line.split()[1]) for line in reversed(proc.stderr.splitlines()) if line.startswith("PEAK_RSS_KB"))
    sizes: dict[str, int] = {}
    for folder, _, files in os.walk(out_dir):
        for name in files:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, out_dir)
            kind = rel.split(os.sep)[0] if os.sep in rel else rel
            sizes[kind] = sizes.get(kind, 0) + os.path.getsize(path)
    total = sum(sizes.values())
    # The page is written last, right after timing.json: the time between the two is the page's.
    page, times = os.path.join(out_dir, "report.html"), os.path.join(out_dir, "timing.json")
    report_s = round(os.path.getmtime(page) - os.path.getmtime(times), 1) if os.path.exists(page) else None
    return {"games": games, "wall_s": round(wall, 1), "peak_rss_mb": round(peak / 1024, 1),
            "cpu_s": round(cpu, 1), "report_s": report_s,
            "bytes_per_game": round(total / games, 1), "total_mb": round(total / 1e6, 2),
            "by_file": {k: round(v / games, 1) for k, v in sorted(sizes.items(), key=lambda kv: -kv[1])}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[20_000, 200_000])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--records", action="store_true", help="keep every game's full record too")
    parser.add_argument("--no-report", action="store_true", help="leave out report.html")
    parser.add_argument("--ruleset", default="family")
    parser.add_argument("--option", "-o", action="append", default=None,
                        help="a ruleset option, as match -o takes it (default: target=round, single rounds)")
    parser.add_argument("--dir", help="where the output folders go (default: a temporary folder)")
    parser.add_argument("--keep", action="store_true", help="keep the output folders")
    parser.add_argument("--json", help="write the rows here too")
    args = parser.parse_args()
    base = args.dir or tempfile.mkdtemp(prefix="lastcard-long-run-")
    rows = []
    for games in args.games:
        out_dir = os.path.join(base, f"out-{games}")
        shutil.rmtree(out_dir, ignore_errors=True)
        row = run_one(games, args.jobs, args.records, out_dir, args.ruleset,
                      ["target=round"] if args.option is None else args.option, not args.no_report)
        rows.append(row)
        print(json.dumps(row), flush=True)
        if not args.keep:
            shutil.rmtree(out_dir, ignore_errors=True)
    print()
    print(f"{'games':>10} {'wall s':>8} {'CPU s':>8} {'report s':>9} {'peak RSS MB':>12} {'bytes/game':>11} "
          f"{'total MB':>9}")
    for row in rows:
        print(f"{row['games']:>10,} {row['wall_s']:>8} {row['cpu_s']:>8} {row['report_s'] or '-':>9} "
              f"{row['peak_rss_mb']:>12} {row['bytes_per_game']:>11} {row['total_mb']:>9}")
    if len(rows) > 1:
        print(f"peak RSS, largest vs smallest run: {rows[-1]['peak_rss_mb'] / rows[0]['peak_rss_mb']:.2f}x")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=2)
    if not args.keep and not args.dir:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
