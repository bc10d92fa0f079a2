#!/usr/bin/env python3
"""Every row of issue 23's speed table, measured in one run, side by side (and against another tree).

    python bench/speed_table.py [--rounds 2] [--games 10000] [--compare CHECKOUT] [--only ROW ...]

Rows (each a ratio of two things measured in the same round, so the machine's load hits both):
  match     ``lastcard match`` between four ``builtin:easy`` players, family single rounds, pinned to one
            core (``taskset -c 0``), the whole command; games/s from the slope between 1 and ``--games``
            games, against RLCard's raw UNO engine (4 players, play-first, engine_bench's loop) on the
            same core. Both on the wall clock and on CPU time (the command's and its children's).
  out       the same command with ``--out`` (records kept) against without: the cost of writing, on the wall
            clock and in CPU time (and the CPU time it adds a game).
  referee   the referee per decision: 4-seat family rounds between four trivial C bots, one core,
            ``--sandbox none`` and the default, against the raw C pipe round trip (bench/pingpong.c);
            beside them the floor: the referee's own system calls on the same bots with the same bytes,
            replayed from C with no work between them (bench/referee_floor.py, .c; needs strace), and the
            referee against the floor (issue 40's goal: within 2x), the median of each round's ratio.
  arena     the sample arena (arenas/sample.yaml), ``--jobs 2`` against ``--jobs 1``, whole command, beside
            the machine's own two-core gain for it (two pinned ``--jobs 1`` copies at once against one alone);
            and its fixed seconds: the whole command's wall time less its games' (the phase stamps of
            bench/arena_scaling.py's ``--child``), against the games' wall time.
  command   ``lastcard match`` between four trivial C bots, family single rounds, ``--sandbox none``, pinned to
            one core, the whole command per decision (the slope between 1 and ``--command-games`` games), against
            the referee's own loop on the same bots (the referee row's measure, ``--sandbox none``) in the same
            round (issue 51's goal: within 1.4x).
  latency   a one-game ``lastcard match`` of the same bots, unpinned, from exec to its exit (the standings
            printed), against the interpreter's own start-up (``python -c pass``) in the same round (goal < 0.25 s).
  engine    bench/engine_bench.py --seconds 3 --reps 3 (one core): decisions/s against OpenSpiel's
            crazy_eights with random players, and play-first games/s against RLCard.
  env       bench/env_bench.py (one core): the RL environments' steps/s against RLCard's ``rlcard.make("uno")``
            in the same run (raw_env, env(), SingleAgentEnv, the vector env by batch size).
  install   ``pip wheel --no-deps .`` of a copy of the tree, as the README's ``pip install .`` builds it (build
            isolation: pip fetches setuptools and mypy), on every core; the compiled build's install time.
            Measured once, not per round (it needs the package registry).

``--builds`` measures the tree twice, side by side in the same rounds: a pure copy and a copy compiled in place
(``LASTCARD_COMPILE=1 setup.py build_ext --inplace``), both made from the files git tracks, as they are on disk.

``--compare CHECKOUT`` measures another tree (a git worktree of main, say) in the same rounds, for
before/after. Needs the bench extra (rlcard, open_spiel), gcc and strace for the referee row, taskset. Medians
over the rounds are shown; quote them with the load the run reports.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import arena_scaling  # bench/, beside this file
import referee_floor

HERE = Path(__file__).resolve()
REPO = HERE.parent.parent
ROWS = ("match", "out", "referee", "arena", "command", "latency", "engine", "env", "install")
#: How ``--measure-referee ... --marks`` labels what it writes to /dev/null for bench/referee_floor.py.
MARK = "lastcard-floor:"


def timed(cmd: list[str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system of the command and everything it started)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def tree_build(tree: Path) -> str:
    """The tree's build: compiled with mypyc or pure Python (README, "Compiled build")."""
    code = "import referee; print(getattr(referee, 'build', lambda: 'pure Python')())"
    return subprocess.run([sys.executable, "-c", code], cwd=tree, capture_output=True, text=True).stdout.strip()


def match_cmd(games: int, out: str | None) -> list[str]:
    cmd = ["taskset", "-c", "0", sys.executable, "-m", "referee.cli.main", "match", *["builtin:easy"] * 4,
           "-r", "family", "-o", "target=round", "-n", str(games), "--jobs", "1", "--no-report"]
    return cmd + (["--out", out, "--fresh", "--records"] if out else [])


def slope(tree: Path, games: int, out: str | None) -> tuple[float, float]:
    """games/s from the slope between 1 and ``games`` games: (wall, CPU)."""
    w1, c1 = timed(match_cmd(1, out), tree)
    wn, cn = timed(match_cmd(games, out), tree)
    return (games - 1) / max(1e-9, wn - w1), (games - 1) / max(1e-9, cn - c1)


def rlcard_rate(seconds: float) -> tuple[float, float]:
    """RLCard raw UNO, 4 players, play-first, pinned to core 0 in a fresh process: games/s (wall, CPU)."""
    code = ("import sys,time,json; sys.path.insert(0, %r); from engine_bench import rlcard_factory\n"  # noqa: UP031
            "play = rlcard_factory(4); n = 0; w = time.perf_counter(); c = time.process_time()\n"
            "while time.perf_counter() - w < %r:\n    play(n); n += 1\n"
            "print(json.dumps([n / (time.perf_counter() - w), n / (time.process_time() - c)]))"
            % (str(HERE.parent), seconds))
    out = subprocess.run(["taskset", "-c", "0", sys.executable, "-c", code], check=True, capture_output=True,
                         text=True).stdout
    wall, cpu = json.loads(out)
    return wall, cpu


def referee_row(tree: Path, decisions: int, sandbox: str, exe: dict[str, str]) -> tuple[float, float, float]:
    """Microseconds per decision of the referee with four trivial C bots, measured in ``tree``: the wall clock,
    the referee process's CPU and the bots' CPU (``nan`` under a sandbox, where their clocks are not read)."""
    out = subprocess.run(["taskset", "-c", "0", sys.executable, str(HERE), "--measure-referee", str(tree),
                          exe["trivial"], str(decisions), sandbox], check=True, capture_output=True, text=True)
    lines = out.stdout.strip().splitlines()
    cpu = lines[-2].split() if len(lines) > 1 and lines[-2].startswith("cpu ") else ["cpu", "nan", "nan"]
    return float(lines[-1]), float(cpu[1]), float(cpu[2])


def measure_referee(tree: str, trivial: str, decisions: int, sandbox: str, marks: bool = False) -> None:
    """In a fresh process, with ``tree`` first on the path: us per decision of 4-seat family rounds.

    With ``marks``, writes to /dev/null say which descriptors and process each seat's bot has, and where
    the timed games start and end: bench/referee_floor.py finds them in an ``strace`` of this process.
    """
    sys.path.insert(0, tree)
    from dataclasses import replace

    from referee.bots.pool import BotPool
    from referee.bots.sandbox import SandboxSettings, parse_mode
    from referee.bots.spec import parse_bot
    from referee.engine.rules import get_ruleset
    from referee.table.table import play_game, seat_for

    specs = [replace(parse_bot(f"c{i}={trivial}"), sandbox=SandboxSettings(mode=parse_mode(sandbox)))
             for i in range(4)]
    rules = get_ruleset("family", {"target": "round"})
    with BotPool() as pool:
        play_game(rules, [seat_for(s, pool) for s in specs], 0)  # the bots started, outside the timing
        # Without a sandbox each bot is the process started: its CPU clock (cpuclock.process_clock_id) is its own.
        pids = [pool.clients[s].transport.proc.pid for s in specs] if sandbox == "none" else []  # type: ignore
        done, seed = 0, 1
        b0 = _cpu_ns(pids)  # before the timing mark: outside what the floor times
        mark = os.open(os.devnull, os.O_WRONLY) if marks else -1
        if marks:
            for i, spec in enumerate(specs):
                proc = pool.clients[spec].transport.proc  # type: ignore[union-attr]
                os.write(mark, f"{MARK}seat {i} {proc.stdin.fileno()} {proc.stdout.fileno()} {proc.pid}".encode())
            os.write(mark, f"{MARK}timed".encode())
        c0 = time.process_time()
        t0 = time.perf_counter()
        while done < decisions:
            done += play_game(rules, [seat_for(s, pool) for s in specs], seed)["decisions"]
            seed += 1
        elapsed = time.perf_counter() - t0
        cpu = time.process_time() - c0
        if marks:
            os.write(mark, f"{MARK}end {done}".encode())
            os.close(mark)
        bots = (_cpu_ns(pids) - b0) / 1e3 / done if pids else float("nan")
    print(f"cpu {cpu / done * 1e6} {bots}")
    print(elapsed / done * 1e6)


def _cpu_ns(pids: list[int]) -> int:
    """The CPU nanoseconds the processes ``pids`` have used (their clocks, as referee/bots/cpuclock.py reads them)."""
    return sum(time.clock_gettime_ns(((~pid) << 3) | 2) for pid in pids)


def raw_pipe_us(exe: dict[str, str], n: int) -> tuple[float, float]:
    """bench/pingpong.c's median round trip in microseconds, and the CPU of both its processes a round trip."""
    size = 700  # about a 4-seat turn request
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = float(subprocess.run(["taskset", "-c", "0", exe["pingpong"], str(n), str(size)], capture_output=True,
                                text=True, check=True).stdout)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) / n * 1e6


def arena_wall(tree: Path, jobs: int, out: str) -> tuple[float, float]:
    """The sample arena's whole command (``--no-report``): its wall seconds and its games' (the ``play`` phase of
    bench/arena_scaling.py's stamps, when the tree has them; else ``nan``)."""
    stamped = tree / "bench" / "arena_scaling.py"
    argv = ["arena", "arenas/sample.yaml", "--jobs", str(jobs), "--fresh", "--no-report", "-q", "--out", out]
    if not stamped.exists():
        return timed([sys.executable, "-m", "referee.cli.main", *argv], tree)[0], float("nan")
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, str(stamped), "--child", *argv], cwd=tree, check=True,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    marks = json.loads(done.stderr.strip().splitlines()[-1])
    return wall, arena_scaling.phases(marks)["play"][0]


def command_cmd(trivial: str, games: int) -> list[str]:
    """``lastcard match`` between four trivial C bots, family single rounds, no sandbox (the command row), started as
    the installed ``lastcard`` starts it (``cli/entry.py``: its exit included)."""
    return [sys.executable, "-m", "referee.cli.entry", "match", *[f"t{i}={trivial}" for i in range(4)], "-r", "family",
            "-o", "target=round", "-n", str(games), "--jobs", "1", "--sandbox", "none", "--no-report"]


def command_decisions(tree: Path, trivial: str, games: int, tmp: str) -> int:
    """The decisions in the command row's ``games`` games (played once, untimed, with ``--out``)."""
    out = os.path.join(tmp, "command-count")
    subprocess.run([*command_cmd(trivial, games), "--out", out, "--fresh"], cwd=tree, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(out, "games.jsonl"), encoding="utf-8") as fh:
        return sum(json.loads(line)["decisions"] for line in fh)


def command_us(tree: Path, trivial: str, games: int, decisions: int) -> tuple[float, float]:
    """The whole command's microseconds a decision, from the slope between 1 and ``games`` games, pinned to core 0:
    wall, and CPU of every process (the referee, its worker, the bots)."""
    pin = ["taskset", "-c", "0"]
    w1, c1 = timed(pin + command_cmd(trivial, 1), tree)
    wn, cn = timed(pin + command_cmd(trivial, games), tree)
    return (wn - w1) / decisions * 1e6, (cn - c1) / decisions * 1e6


def latency_s(tree: Path, trivial: str) -> tuple[float, float, float]:
    """A one-game match's wall seconds (unpinned, as a person runs it) and CPU seconds (every process's: on a
    loaded machine the wall clock mostly measures the neighbours), and the interpreter's bare start-up's wall."""
    wall, cpu = timed(command_cmd(trivial, 1), tree)
    return wall, cpu, timed([sys.executable, "-c", "pass"], tree)[0]


def engine_ratios(tree: Path, tmp: str) -> dict[str, float]:
    path = os.path.join(tmp, "engine.json")
    subprocess.run([sys.executable, "bench/engine_bench.py", "--seconds", "3", "--reps", "3", "--only",
                    "family-round", "rlcard", "openspiel", "--json", path], check=True, cwd=tree,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    res = json.loads(Path(path).read_text())["results"]
    out = {}
    for n in (2, 4):
        lc = res[f"lastcard/family-round/{n}p"]["median_decisions_per_s"]
        pf = res[f"lastcard/family-round+playfirst/{n}p"]["median_games_per_s"]
        out[f"{n}p vs OpenSpiel d/s"] = lc / res[f"openspiel/crazy_eights/{n}p"]["median_decisions_per_s"]
        out[f"{n}p play-first vs RLCard g/s"] = pf / res[f"rlcard/uno/{n}p"]["median_games_per_s"]
    return out


def env_rates(tree: Path, tmp: str, seconds: float) -> dict[str, dict[str, float]]:
    """bench/env_bench.py run in ``tree`` (one round, pinned to core 0): each environment's steps/s and ratios."""
    path = os.path.join(tmp, "env.json")
    subprocess.run([sys.executable, "bench/env_bench.py", "--seconds", str(seconds), "--rounds", "1", "--cpu", "0",
                    "--json", path], check=True, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rates: dict[str, dict[str, float]] = json.loads(Path(path).read_text())["environments"]
    return rates


def copy_tree(source: Path, dest: Path) -> Path:
    """The files git tracks in ``source``, as they are on disk (edits included), copied to ``dest``."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=source, check=True, capture_output=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        src = source / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


def build_trees(tmp: str) -> dict[str, Path]:
    """A pure copy and a compiled copy of this tree (``--builds``), the compile timed and said."""
    pure = copy_tree(REPO, Path(tmp) / "pure")
    compiled = copy_tree(REPO, Path(tmp) / "compiled")
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=compiled, check=True,
                   env={**os.environ, "LASTCARD_COMPILE": "1"}, stdout=subprocess.DEVNULL)
    print(f"compiled a copy in place in {time.perf_counter() - t0:.0f} s (build_ext --inplace, every core)",
          file=sys.stderr)
    return {"pure": pure, "compiled": compiled}


def install_seconds(tmp: str) -> float:
    """Wall seconds of ``pip wheel --no-deps`` on a fresh copy of the tree: the README's install, its build part."""
    tree = copy_tree(REPO, Path(tmp) / "wheel-src")
    wheels = Path(tmp) / "wheels"
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(tree)],
                   check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - t0
    built = [w.name for w in wheels.glob("*.whl")]
    if not any("none-any" not in name for name in built):  # a pure wheel means the compile fell back
        print(f"pip built {built}: not the compiled build (no C compiler?)", file=sys.stderr)
    return seconds


def floor_replay(tmp: str, exe: dict[str, str], decisions: int) -> Path | None:
    """The referee row's games captured for bench/referee_floor.c (``None``, said, without strace)."""
    if shutil.which("strace") is None:
        print("no strace: the referee row is shown without its floor", file=sys.stderr)
        return None
    replay = Path(tmp) / "floor.replay"
    try:
        referee_floor.capture(REPO, exe["trivial"], decisions, replay)
    except (subprocess.CalledProcessError, SystemExit) as exc:  # strace not allowed to trace here, say
        print(f"the floor's capture failed ({exc}): the referee row is shown without its floor", file=sys.stderr)
        return None
    return replay


def print_floor(med: dict[str, float], label: str) -> None:
    """The floor's variants against the raw pipe, and the referee (``sandbox none``) against the floor."""
    raw, referee = med["raw pipe us"], med[f"{label} referee none us"]
    print("  the floor, the referee's system calls alone (bench/referee_floor.c: its bytes, the same bots, no work):")
    for name, what in referee_floor.VARIANTS.items():
        us = med[f"floor {name} us"]
        print(f"    {name} ({what}): {us:.1f} us, {us / raw:.1f}x the raw pipe; the referee {referee / us:.2f}x it")
    raw_cpu, floor_cpu = med["raw pipe cpu us"], med["floor full cpu us"]
    referee_cpu = med[f"{label} referee none cpu us"]
    print(f"  CPU a decision, all processes (the load moves it less than the wall clock): raw pipe {raw_cpu:.1f} us;\n"
          f"    the floor (full) {floor_cpu:.1f} us, {floor_cpu / raw_cpu:.1f}x the raw pipe; the referee (none) "
          f"{referee_cpu:.1f} us, {referee_cpu / raw_cpu:.1f}x the raw pipe, {referee_cpu / floor_cpu:.2f}x the floor")


def print_envs(runs: list[dict[str, dict[str, float]]]) -> None:
    """The env row: each environment's median steps/s over the rounds, its ratio to RLCard and to SingleAgentEnv."""
    print("RL environments, one core (bench/env_bench.py)   goals: the vector env >= 10x RLCard, env() >= 1x")
    for name in runs[0]:
        rate = statistics.median(run[name]["steps_per_s"] for run in runs)
        to_rlcard = statistics.median(run[name]["x_rlcard"] for run in runs)
        to_single = statistics.median(run[name]["x_single"] for run in runs)
        print(f"  {name:38} {rate:12,.0f} steps/s {to_rlcard:8.2f}x RLCard {to_single:8.2f}x single")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--measure-referee":
        measure_referee(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], "--marks" in sys.argv[6:])
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--decisions", type=int, default=20_000)
    ap.add_argument("--rlcard-seconds", type=float, default=3.0)
    ap.add_argument("--compare", metavar="CHECKOUT", help="another tree measured in the same rounds (before)")
    ap.add_argument("--builds", action="store_true", help="this tree twice: a pure copy and a compiled copy")
    ap.add_argument("--env-seconds", type=float, default=1.0, help="seconds per environment and round (env row)")
    ap.add_argument("--command-games", type=int, default=1500, help="games of the command row's long run")
    ap.add_argument("--latency-runs", type=int, default=5, help="one-game matches a round (the latency row)")
    ap.add_argument("--only", nargs="+", choices=ROWS, default=list(ROWS))
    args = ap.parse_args()
    rows: dict[str, list[float]] = {}
    envs: dict[str, list[dict[str, dict[str, float]]]] = {}

    def add(key: str, value: float) -> None:
        rows.setdefault(key, []).append(value)

    load0 = os.getloadavg()[0]
    floor_round = (float("nan"), float("nan"))  # the floor (full) of the round under way: wall, CPU
    with tempfile.TemporaryDirectory() as tmp:
        trees = build_trees(tmp) if args.builds else {"now": REPO}
        trees |= {"before": Path(args.compare).resolve()} if args.compare else {}
        first = next(iter(trees))
        if "install" in args.only:
            add("install s", install_seconds(tmp))
        exe = referee_floor.build(tmp) if {"referee", "command", "latency"} & set(args.only) else {}
        counted = command_decisions(REPO, exe["trivial"], args.command_games, tmp) if "command" in args.only else 0
        replay = floor_replay(tmp, exe, args.decisions) if "referee" in args.only else None
        for _ in range(args.rounds):
            if "match" in args.only or "out" in args.only:
                rw, rc = rlcard_rate(args.rlcard_seconds)
                add("rlcard wall", rw)
                add("rlcard cpu", rc)
            for label, tree in trees.items():
                if "match" in args.only:
                    w, c = slope(tree, args.games, None)
                    add(f"{label} match wall", w)
                    add(f"{label} match cpu", c)
                if "out" in args.only:
                    wn, cn = timed(match_cmd(args.games, None), tree)
                    wo, co = timed(match_cmd(args.games, os.path.join(tmp, "out")), tree)
                    add(f"{label} out cost", wo / wn - 1)
                    add(f"{label} out cpu cost", co / cn - 1)
                    add(f"{label} out us a game", 1e6 * (co - cn) / args.games)
                if "referee" in args.only:
                    raw_wall, raw_cpu = raw_pipe_us(exe, args.decisions)
                    add("raw pipe us", raw_wall)
                    add("raw pipe cpu us", raw_cpu)
                    if replay is not None and label == first:  # the floor does not depend on the tree
                        for name, run in referee_floor.floor_runs(exe, replay).items():
                            add(f"floor {name} us", run.wall)
                            add(f"floor {name} cpu us", run.cpu + run.bots_cpu)
                        floor_round = rows["floor full us"][-1], rows["floor full cpu us"][-1]
                    for sandbox in ("none", "auto"):
                        wall, cpu, bots = referee_row(tree, args.decisions, sandbox, exe)
                        add(f"{label} referee {sandbox} us", wall)
                        add(f"{label} referee {sandbox} cpu us", cpu + bots)
                        if sandbox == "none" and replay is not None:  # this round's ratio: the load hits both
                            add(f"{label} referee/floor wall", wall / floor_round[0])
                            add(f"{label} referee/floor cpu", (cpu + bots) / floor_round[1])
                if "command" in args.only:
                    cw, cc = command_us(tree, exe["trivial"], args.command_games, counted)
                    lw, lc, lb = referee_row(tree, args.decisions, "none", exe)
                    add(f"{label} command us", cw)
                    add(f"{label} command cpu us", cc)
                    add(f"{label} loop us", lw)
                    add(f"{label} loop cpu us", lc + lb)
                    add(f"{label} command/loop wall", cw / lw)
                    add(f"{label} command/loop cpu", cc / (lc + lb))
                if "latency" in args.only:
                    for _ in range(args.latency_runs):
                        one, one_cpu, bare = latency_s(tree, exe["trivial"])
                        add(f"{label} latency s", one)
                        add(f"{label} latency cpu s", one_cpu)
                        add(f"{label} python s", bare)
                if "arena" in args.only:
                    w1, g1 = arena_wall(tree, 1, os.path.join(tmp, "a1"))
                    w2, g2 = arena_wall(tree, 2, os.path.join(tmp, "a2"))
                    add(f"{label} arena j1 s", w1)
                    add(f"{label} arena j2 s", w2)
                    add(f"{label} arena ratio", w1 / w2)
                    add(f"{label} arena j1 fixed s", w1 - g1)
                    add(f"{label} arena j2 fixed s", w2 - g2)
                    add(f"{label} arena j1 fixed/games", (w1 - g1) / g1)
                    add(f"{label} arena j2 fixed/games", (w2 - g2) / g2)
                    if label == first:  # the machine's gain does not depend on the tree
                        add("machine gain", arena_scaling.machine_gain(0, os.path.join(tmp, "m"), report=False))
                if "engine" in args.only:
                    for key, value in engine_ratios(tree, tmp).items():
                        add(f"{label} engine {key}", value)
                if "env" in args.only:
                    envs.setdefault(label, []).append(env_rates(tree, tmp, args.env_seconds))
        builds = {label: tree_build(tree) for label, tree in trees.items()}  # before the copies are gone
    med = {k: statistics.median(v) for k, v in rows.items()}
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {args.rounds} rounds, medians; load average "
          f"{load0:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
    if "install" in args.only:
        print(f"installing the compiled build (pip wheel --no-deps ., {os.cpu_count()} cores, build isolation): "
              f"{med['install s']:.0f} s   goal <= 60 s")
    for label in trees:
        print(f"\n[{label}: {trees[label]}, {builds[label]}]")
        if "match" in args.only:
            print(f"match, 4 x builtin:easy, one core, slope 1..{args.games}: "
                  f"{med[f'{label} match wall']:,.0f} games/s "
                  f"wall ({med[f'{label} match wall'] / med['rlcard wall']:.2f}x RLCard {med['rlcard wall']:,.0f}); "
                  f"{med[f'{label} match cpu']:,.0f} games/s CPU ({med[f'{label} match cpu'] / med['rlcard cpu']:.2f}x "
                  f"RLCard {med['rlcard cpu']:,.0f})   goal >= 3x")
        if "out" in args.only:
            print(f"--out with records, {args.games} games: {100 * med[f'{label} out cost']:+.0f}% wall, "
                  f"{100 * med[f'{label} out cpu cost']:+.0f}% CPU "
                  f"({med[f'{label} out us a game']:+.0f} us of CPU a game)"
                  "   goal <= 10%")
        if "referee" in args.only:
            raw = med["raw pipe us"]
            for sandbox in ("none", "auto"):
                us = med[f"{label} referee {sandbox} us"]
                print(f"referee per decision, 4 trivial C bots, one core, sandbox {sandbox}: {us:.1f} us, "
                      f"{us / raw:.1f}x the raw pipe ({raw:.1f} us)")
            print(f"  the default sandbox against none: "
                  f"{med[f'{label} referee auto us'] / med[f'{label} referee none us']:.2f}x   goal < 1.2x "
                  "(goal for none: <= 3x the raw pipe)")
            if "floor full us" in med:
                print_floor(med, label)
                walls = ", ".join(f"{r:.2f}" for r in rows[f"{label} referee/floor wall"])
                print(f"  THE REFEREE AGAINST ITS FLOOR (sandbox none / floor full, each round's pair): wall "
                      f"{med[f'{label} referee/floor wall']:.2f}x (rounds {walls}), CPU of all processes "
                      f"{med[f'{label} referee/floor cpu']:.2f}x   goal <= 2x")
        if "arena" in args.only:
            print(f"sample arena whole command: --jobs 1 {med[f'{label} arena j1 s']:.1f} s, --jobs 2 "
                  f"{med[f'{label} arena j2 s']:.1f} s: {med[f'{label} arena ratio']:.2f}x   goal >= 1.85x")
            gain = med["machine gain"]
            print(f"  the machine's own two-core gain for the command (two pinned --jobs 1 copies at once against "
                  f"one alone): {gain:.2f}x; the arena gets {med[f'{label} arena ratio'] / gain:.0%} of it")
            print(f"  its fixed seconds (the whole command less its games, wall): --jobs 1 "
                  f"{med[f'{label} arena j1 fixed s']:.2f} s ({med[f'{label} arena j1 fixed/games']:.2f}x the games'), "
                  f"--jobs 2 {med[f'{label} arena j2 fixed s']:.2f} s ({med[f'{label} arena j2 fixed/games']:.2f}x)")
        if "command" in args.only:
            print(f"whole command per decision, 4 trivial C bots, --sandbox none, one core, slope 1.."
                  f"{args.command_games} ({counted:,} decisions): {med[f'{label} command us']:.1f} us wall, "
                  f"{med[f'{label} command cpu us']:.1f} us CPU; the loop {med[f'{label} loop us']:.1f} / "
                  f"{med[f'{label} loop cpu us']:.1f} us: {med[f'{label} command/loop wall']:.2f}x wall, "
                  f"{med[f'{label} command/loop cpu']:.2f}x CPU (each round's pair)   goal <= 1.4x")
        if "latency" in args.only:
            one, bare = med[f"{label} latency s"], med[f"{label} python s"]
            print(f"one-game match, exec to exit: {one:.3f} s ({med[f'{label} latency cpu s']:.3f} s CPU; "
                  f"{args.latency_runs} a round); the interpreter's start-up {bare:.3f} s: {one / bare:.1f}x; the "
                  f"command's own {one - bare:.3f} s   goal < 0.25 s")
        if "engine" in args.only:
            for n in (2, 4):
                print(f"engine {n}p: {med[f'{label} engine {n}p vs OpenSpiel d/s']:.2f}x OpenSpiel decisions/s "
                      f"(goal >= 2x); play-first {med[f'{label} engine {n}p play-first vs RLCard g/s']:.2f}x "
                      "RLCard games/s")
        if label in envs:
            print_envs(envs[label])


if __name__ == "__main__":
    main()
