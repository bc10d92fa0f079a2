"""The cost of the sandbox: bot start-up time and the sample arena's games/s, ``none`` against the default.

    .venv/bin/python bench/sandbox_bench.py                  # start-ups, then the sample arena twice
    .venv/bin/python bench/sandbox_bench.py --no-arena --reps 21 --json out/sandbox.json

Start-up is the time from starting the process to its ``ready`` line, for each sample bot whose
toolchain is installed; the modes alternate within each repetition so that the machine's load hits
both alike. The arena is ``arenas/sample.yaml`` run in this process with every bot's sandbox set to
the mode, into a temporary folder; games/s is its games over the wall time of the whole run (builds
included, which are the same for both).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.bots import sandbox  # noqa: E402
from referee.bots.pipes.transport import PipeTransport  # noqa: E402
from referee.bots.sandbox import Mode, SandboxSettings  # noqa: E402
from referee.bots.spec import parse_bot  # noqa: E402

MODES = {"none": SandboxSettings(mode=Mode.NONE), "default": SandboxSettings()}


def _bots(build_dir: str) -> dict[str, tuple[str, str | None]]:
    """Sample bots whose toolchain is here: name -> (command, cwd)."""
    samples = ROOT / "sample_bots"
    bots: dict[str, tuple[str, str | None]] = {"python": (f"{sys.executable} {samples}/python/random_bot.py", None)}
    if shutil.which("node"):
        bots["node"] = (f"node {samples}/js/bot.js", None)
    if shutil.which("java"):
        bots["java"] = ("java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC Bot.java", str(samples / "java"))
    if shutil.which("gcc"):
        binary = os.path.join(build_dir, "bot")
        if os.system(f"gcc -O2 -std=c99 -o {binary} {samples}/c/bot.c") == 0:
            bots["c"] = (binary, None)
    return bots


def startup_ms(command: str, cwd: str | None, settings: SandboxSettings) -> float:
    """Milliseconds from launch to the bot's ready line."""
    spec = parse_bot(command)
    t0 = time.perf_counter()
    t = PipeTransport(spec.argv, cwd=cwd, sandbox=settings)
    try:
        t.write(b'{"type":"hello","protocol":1,"seat":0,"id":1}\n', time.monotonic() + 60)
        line = t.read_line(time.monotonic() + 60)
        elapsed = (time.perf_counter() - t0) * 1000
        if b'"ready"' not in line:
            raise RuntimeError(f"{command}: expected ready, got {line[:100]!r}")
        return elapsed
    finally:
        t.close(0)


def arena_games_per_s(settings: SandboxSettings, jobs: int | None) -> tuple[int, float]:
    """Games and wall seconds of the sample arena with every bot under ``settings``."""
    from referee.arena.config import load_arena
    from referee.arena.runner import run_arena

    config = load_arena(str(ROOT / "arenas" / "sample.yaml"))
    config = with_sandbox(config, settings)
    with tempfile.TemporaryDirectory(prefix="lastcard-sandbox-bench-") as out:
        t0 = time.perf_counter()
        run = run_arena(config, out=out, **({"jobs": jobs} if jobs else {}))
        wall = time.perf_counter() - t0
        games = sum(1 for _ in open(os.path.join(out, "games.jsonl")))
    if not run.complete:
        raise RuntimeError("the sample arena did not complete")
    return games, wall


def with_sandbox(config, settings: SandboxSettings):  # type: ignore[no-untyped-def]
    """The arena with every bot's sandbox replaced (built-in players have none to replace)."""
    return config.with_bots([replace(b, spec=replace(b.spec, sandbox=settings)) for b in config.bots])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=11, help="start-ups per bot and mode (default 11)")
    parser.add_argument("--no-arena", action="store_true", help="skip the sample arena")
    parser.add_argument("--jobs", type=int, default=None, help="arena workers (default: the arena's)")
    parser.add_argument("--json", help="also write every sample and the medians here")
    args = parser.parse_args()

    m = sandbox.machine()
    print(f"machine: level {sandbox.effective_level(SandboxSettings()).value}; "
          f"missing: {'; '.join(m.problems) or 'nothing'}; load {os.getloadavg()[0]:.1f}")
    report: dict = {"level": sandbox.effective_level(SandboxSettings()).value, "load": os.getloadavg(),
                    "startup_ms": {}, "arena": {}}
    with tempfile.TemporaryDirectory() as build:
        bots = _bots(build)
        samples: dict[str, dict[str, list[float]]] = {b: {m: [] for m in MODES} for b in bots}
        for _ in range(args.reps):
            for bot, (command, cwd) in bots.items():
                for mode, settings in MODES.items():
                    samples[bot][mode].append(startup_ms(command, cwd, settings))
    print(f"\nstart-up to ready, median of {args.reps} (ms)")
    print(f"{'bot':8} {'none':>9} {'default':>9} {'ratio':>7} {'added':>8}")
    for bot, by_mode in samples.items():
        none, walled = statistics.median(by_mode["none"]), statistics.median(by_mode["default"])
        print(f"{bot:8} {none:9.1f} {walled:9.1f} {walled / none:7.2f} {walled - none:8.1f}")
        report["startup_ms"][bot] = {"samples": by_mode, "none": none, "default": walled}

    if not args.no_arena:
        print("\nsample arena (arenas/sample.yaml), one run per mode")
        for mode, settings in MODES.items():
            games, wall = arena_games_per_s(settings, args.jobs)
            report["arena"][mode] = {"games": games, "wall_s": wall, "games_per_s": games / wall}
            print(f"{mode:8} {games} games in {wall:6.1f} s: {games / wall:6.2f} games/s")
        ratio = report["arena"]["default"]["games_per_s"] / report["arena"]["none"]["games_per_s"]
        print(f"default / none: {ratio:.2f}")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
