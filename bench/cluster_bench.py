"""Games per second of one arena on the local pool and on a loopback Dask cluster, side by side.

    python bench/cluster_bench.py [--games 48] [--workers 2]

Starts a scheduler and ``--workers`` one-thread workers (no nanny) on 127.0.0.1 as child processes, then
plays each arena twice, once with ``--workers`` local worker processes and once on the cluster, and
prints games/s, the executors' start-up (a fixed cost: forking the pool; connecting, shipping the bots
and checking them on every worker) and the cluster's overhead per game after it (in worker-ms: the extra
time one worker spends per game, whatever the number of workers).
The arenas: short games (arcade: single hands) and long
ones (family: matches to 300), with the two Python sample bots and two built-ins at a table of four,
so the per-game cost of the cluster (a task round trip through the scheduler) is seen against games
of very different length. The wall time includes starting the executor (forking the pool; shipping
the bots and checking them on every worker), as a person running an arena would see it. Each arena runs
``--repeat`` times on each: the first run (fresh workers: imports, bot start-ups) and the best are shown.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.arena import parse_arena, run_arena  # noqa: E402
from referee.arena.runner import local_executor  # noqa: E402
from referee.cluster.executor import ClusterOptions, cluster_factory  # noqa: E402

LOOPBACK = ["--host", "127.0.0.1", "--dashboard-address", "127.0.0.1:0"]

ARENA = """\
name: {name}
seed: 5
ruleset: {ruleset}
seats: 4
games: {games}
bootstrap: 0
bots:
  - {{name: strong-py, command: "{{python}} sample_bots/python/strong_bot.py"}}
  - {{name: random-py, command: "{{python}} sample_bots/python/random_bot.py"}}
  - builtin:hard
  - builtin:medium
"""


def start_cluster(folder: Path, workers: int, env: dict[str, str]) -> tuple[str, list[subprocess.Popen]]:
    """A scheduler and one-thread workers on 127.0.0.1; the address and the processes (to stop by PID)."""
    procs = []
    file = folder / "scheduler.json"
    log = open(folder / "cluster.log", "wb")
    procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", *LOOPBACK, "--port", "0",
                                   "--scheduler-file", str(file)],
                                  stdout=log, stderr=log, stdin=subprocess.DEVNULL, start_new_session=True))
    while not (file.exists() and file.stat().st_size):
        time.sleep(0.05)
    address = json.loads(file.read_text())["address"]
    for i in range(workers):
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                                       "--no-nanny", "--local-directory", str(folder / f"w{i}"), *LOOPBACK],
                                      stdout=log, stderr=log, stdin=subprocess.DEVNULL, start_new_session=True,
                                      env={**os.environ, **env}))
    from distributed import Client

    with Client(address, set_as_default=False) as client:
        client.wait_for_workers(workers, timeout=120)
    return address, procs


def stop(procs: list[subprocess.Popen]) -> None:
    for proc in reversed(procs):
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=48, help="games per arena (default 48)")
    parser.add_argument("--workers", type=int, default=2, help="local workers and cluster workers (default 2)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each arena on each executor: the first "
                                                              "(workers cold) and the best are shown (default 3)")
    parser.add_argument("--worker-env", action="append", default=[], metavar="KEY=VALUE",
                        help="an environment variable for the workers, e.g. "
                             "DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False (repeatable)")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="lastcard-cluster-bench-"))
    address, procs = start_cluster(tmp, args.workers, dict(item.split("=", 1) for item in args.worker_env))
    rows = []
    try:
        for label, ruleset in (("short (arcade)", "arcade"), ("long (family)", "family")):
            arena = parse_arena(ARENA.format(name=ruleset, ruleset=ruleset, games=args.games), base_dir=str(ROOT))
            results = {}
            for where in ("local", "cluster"):
                runs = []
                for attempt in range(args.repeat):
                    inner = local_executor if where == "local" else cluster_factory(ClusterOptions(address))
                    starts: list[float] = []
                    out = tmp / f"{ruleset}-{where}-{attempt}"
                    run = run_arena(arena, out=str(out), jobs=args.workers, executor_factory=timed(inner, starts))
                    assert run.complete
                    runs.append((run.played_now / run.wall_s, sum(starts), run.wall_s - sum(starts)))
                best = max(runs)
                results[where] = (runs[0], best, (out / "results.json").read_bytes())
            same = results["local"][2] == results["cluster"][2]
            for kind, k in (("first", 0), ("best", 1)):
                (local, local_start, local_games), (cluster, cluster_start, cluster_games) = \
                    results["local"][k], results["cluster"][k]
                per_game_ms = local_games / args.games * args.workers * 1000
                overhead_ms = (cluster_games - local_games) / args.games * args.workers * 1000
                rows.append((f"{label} {kind}", local, cluster, local_start, cluster_start, per_game_ms, overhead_ms,
                             same))
    finally:
        stop(procs)
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{args.games} games per arena; {args.workers} local workers vs {args.workers} one-thread Dask workers "
          f"on 127.0.0.1; {os.cpu_count()} CPUs")
    print(f"{'arena, run':<22} {'local g/s':>9} {'cluster g/s':>11} {'start local/cluster':>20} "
          f"{'game (worker-ms)':>17} {'overhead/game':>14}  same results.json")
    for label, local, cluster, local_start, cluster_start, per_game, overhead, same in rows:
        print(f"{label:<22} {local:>9.1f} {cluster:>11.1f} {local_start:>9.2f} s {cluster_start:>6.2f} s "
              f"{per_game:>17.0f} {overhead:>11.0f} ms  {same}")


def timed(factory, starts: list[float]):
    """``factory`` whose executors add the seconds their ``start`` took to ``starts`` (the fixed cost)."""
    def make(*args, **kwargs):
        executor = factory(*args, **kwargs)
        start = executor.start

        def timed_start() -> None:
            t0 = time.monotonic()
            start()
            starts.append(time.monotonic() - t0)
        executor.start = timed_start
        return executor
    return make


if __name__ == "__main__":
    main()
