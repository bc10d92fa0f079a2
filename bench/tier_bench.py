"""The fast test tier against its budget: its tests, its time and its slowest tests (and the full suite's, to compare).

    .venv/bin/python bench/tier_bench.py                 # the fast tier, pytest -m "not slow", 3 runs
    .venv/bin/python bench/tier_bench.py --full --runs 1 # and the whole suite (the CI command), once

Each run is ``python -m pytest -q -p no:cacheprovider [-m "not slow"]`` in a child process, with this file as a
plugin that times every test (setup, call and teardown) in wall and CPU seconds. It prints, per run, the tests,
the wall time, the CPU time (the pytest process and every child it waited for) and the load average before and
after; then the medians and the tier's slowest tests by CPU (each test's median over the runs). The budget
(``FAST_TIER_BUDGET``, tests/support/tiers.py) is 120 s on 2 cores: one pytest process keeps one core busy, so on
an idle machine its wall time is its CPU time and some I/O; under load the wall time says more about the load
than the tests, which is why each figure comes with its load. Exit status 1 when the fast tier's median CPU time
is over the budget. The figures are in bench/README.md ("The fast test tier").
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
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# -- the plugin, loaded in the child by ``-p tier_bench`` (it records only when TIER_BENCH_OUT is set) ---------------
_OUT = os.environ.get("TIER_BENCH_OUT")
_TIMES: dict[str, Any] = {"tests": {}, "outcomes": {}}


def pytest_sessionstart(session: Any) -> None:
    _TIMES["start"] = (time.monotonic(), time.process_time())


def pytest_collection_finish(session: Any) -> None:
    wall, cpu = _TIMES["start"]
    _TIMES["collection"] = {"wall": time.monotonic() - wall, "cpu": time.process_time() - cpu,
                            "items": len(session.items)}


def pytest_runtest_protocol(item: Any, nextitem: Any) -> None:
    _TIMES["tests"][item.nodeid] = (time.monotonic(), time.process_time())


def pytest_runtest_logfinish(nodeid: str, location: Any) -> None:
    wall, cpu = _TIMES["tests"][nodeid]
    _TIMES["tests"][nodeid] = {"wall": time.monotonic() - wall, "cpu": time.process_time() - cpu}


def pytest_runtest_logreport(report: Any) -> None:
    if report.when == "call" or report.outcome != "passed":
        _TIMES["outcomes"][report.nodeid] = report.outcome


def pytest_sessionfinish(session: Any) -> None:
    if _OUT:
        Path(_OUT).write_text(json.dumps(_TIMES))


# -- the measuring ----------------------------------------------------------------------------------------------------
def one_run(fast: bool) -> dict[str, Any]:
    """One pytest run in a child: its tests' times, its wall and CPU time, the load before and after."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "times.json"
        env = {**os.environ, "TIER_BENCH_OUT": str(out),
               "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "bench"), os.environ.get("PYTHONPATH")]))}
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tier_bench"]
        if fast:
            command += ["-m", "not slow"]
        load_before = os.getloadavg()[0]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        wall = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times = json.loads(out.read_text()) if out.exists() else {"tests": {}, "outcomes": {}}
    outcomes = list(times["outcomes"].values())
    return {"wall": wall, "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
            "load": (load_before, os.getloadavg()[0]), "exit": done.returncode, "summary": done.stdout.strip()
            .splitlines()[-1:], "tests": len(times["tests"]), "failed": outcomes.count("failed"),
            "skipped": outcomes.count("skipped"), "collection": times.get("collection", {}), "per_test": times["tests"],
            "failures": sorted({nodeid for nodeid, outcome in times["outcomes"].items() if outcome == "failed"})}


def report(name: str, runs: list[dict[str, Any]], top: int) -> float:
    """Print the runs of one tier and its slowest tests; its median CPU seconds."""
    print(f"\n{name}")
    for i, run in enumerate(runs, 1):
        collection = run["collection"]
        print(f"  run {i}: {run['tests']} tests ({run['failed']} failed, {run['skipped']} skipped), "
              f"wall {run['wall']:.1f} s, CPU {run['cpu']:.1f} s, collection {collection.get('wall', 0):.1f} s wall "
              f"{collection.get('cpu', 0):.1f} s CPU, load {run['load'][0]:.2f} -> {run['load'][1]:.2f}, "
              f"exit {run['exit']} ({' '.join(run['summary'])})")
        for nodeid in run["failures"]:
            print(f"    failed: {nodeid}")
    wall = statistics.median(run["wall"] for run in runs)
    cpu = statistics.median(run["cpu"] for run in runs)
    print(f"  median of {len(runs)}: wall {wall:.1f} s, CPU {cpu:.1f} s")
    per_test: dict[str, list[float]] = {}
    for run in runs:
        for nodeid, figures in run["per_test"].items():
            if isinstance(figures, dict):
                per_test.setdefault(nodeid, []).append(figures["cpu"])
    slowest = sorted(((statistics.median(cpus), nodeid) for nodeid, cpus in per_test.items()), reverse=True)
    print(f"  the {top} slowest tests by CPU (median over the runs), {sum(c for c, _ in slowest[:top]):.1f} s of "
          f"{sum(c for c, _ in slowest):.1f} s in tests:")
    for seconds, nodeid in slowest[:top]:
        print(f"    {seconds:6.2f} s  {nodeid}")
    return cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each tier (the median is reported)")
    parser.add_argument("--full", action="store_true", help="also measure the whole suite, the CI command")
    parser.add_argument("--top", type=int, default=20, help="how many of the slowest tests to list")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from tests.support.tiers import FAST_TIER_BUDGET

    print(f"lastcard's test tiers, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}, {sys.executable}")
    cpu = report('fast tier: pytest -m "not slow"', [one_run(fast=True) for _ in range(args.runs)], args.top)
    if args.full:
        report("full suite: pytest", [one_run(fast=False) for _ in range(args.runs)], args.top)
    verdict = "within" if cpu <= FAST_TIER_BUDGET else "OVER"
    print(f"\nfast tier: median CPU {cpu:.1f} s, {verdict} its budget of {FAST_TIER_BUDGET:.0f} s on 2 cores")
    return 0 if cpu <= FAST_TIER_BUDGET else 1


if __name__ == "__main__":
    sys.exit(main())
