"""Referee round trip per decision with a trivial C bot, against a raw C pipe ping-pong, in one run.

    python bench/referee_bench.py [--rounds 5] [--decisions 20000]
    python bench/referee_bench.py --clock [--sandbox auto]   # the cost of reading the bot's CPU time

Measures, alternating the contenders over several rounds and reporting medians:
  raw        C parent <-> C child over two pipes, one line each way (bench/pingpong.c), request of the
             same size as a typical turn request;
  client     the referee's BotClient.request() round trip with a fixed turn request, against
             sample_bots/c/trivial.c (framing, deadlines, JSON decode, schema check);
  per-move   whole 2-seat arcade games between two trivial C bots: wall time / decisions (also
             building the turn request, legality, the engine, and events to every seat);
and games/s of 4-seat family single-round games with the C sample bot (sample_bots/c/bot.c).

With ``--clock``: the client round trip and the per-decision time with the bot's CPU time read at every
request (as ``clock: cpu`` and the records do) and without it (the meter dropped), alternating, and the
smallest non-zero CPU time step seen; ``--sandbox none`` reads the process clocks, ``auto`` the cgroup.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.bots.pipes.client import BotClient  # noqa: E402
from referee.bots.pool import BotPool  # noqa: E402
from referee.bots.spec import parse_bot  # noqa: E402
from referee.engine.rules import get_ruleset  # noqa: E402
from referee.table.table import play_game, seat_for  # noqa: E402

#: The sandbox the bots run in: ``none`` measures the referee alone (set by --sandbox).
SANDBOX = "none"


def _spec(text: str):  # type: ignore[no-untyped-def]
    """A bot spec under the chosen sandbox mode."""
    from dataclasses import replace

    from referee.bots.sandbox import SandboxSettings, parse_mode

    return replace(parse_bot(text), sandbox=SandboxSettings(mode=parse_mode(SANDBOX)))


def _build() -> str:
    """Which build of the referee is measured."""
    from referee import compiled

    return "compiled (mypyc)" if compiled() else "pure Python"


def build(tmp: str) -> dict[str, str]:
    out = {}
    for name, src in (("pingpong", ROOT / "bench" / "pingpong.c"), ("trivial", ROOT / "sample_bots/c/trivial.c"),
                      ("bot", ROOT / "sample_bots/c/bot.c")):
        exe = os.path.join(tmp, name)
        subprocess.run(["gcc", "-O2", "-std=gnu99", "-o", exe, str(src)], check=True)
        out[name] = exe
    return out


TURN = {"type": "turn", "id": 0, "hand": ["red:7", "blue:7", "green:draw2", "yellow:draw2", "blue:4", "wild"],
        "top": "green:7", "colour": "green", "direction": 1, "hands": [6, 5, 7, 4], "scores": [0, 0, 0, 0],
        "draw_pile": 60, "pending": 0, "move": 9, "time_left_ms": 1000, "bank_ms": 0, "has_drawn": False,
        "drawn": None, "phase": "play"}


def turn(i: int) -> dict:
    legal = [{"type": "play", "id": i, "cards": ["red:7"]}, {"type": "play", "id": i, "cards": ["blue:7"]},
             {"type": "play", "id": i, "cards": ["wild"], "colour": "red"}, {"type": "draw", "id": i}]
    return {**TURN, "id": i, "legal": legal}


def raw_us(exe: str, n: int) -> float:
    size = len(__import__("orjson").dumps(turn(1))) + 1
    return float(subprocess.run([exe, str(n), str(size)], capture_output=True, text=True, check=True).stdout)


def client_us(trivial: str, n: int) -> float:
    client = BotClient(_spec(trivial))
    _start(client)
    times = []
    try:
        for i in range(1, n + 1):
            t0 = time.perf_counter()
            client.request(turn(i))
            times.append((time.perf_counter() - t0) * 1e6)
    finally:
        client.quit()
    return statistics.median(times)


def per_move_us(trivial: str, decisions: int, seats: int = 2) -> tuple[float, float]:
    """Wall and referee-process CPU microseconds a decision: 2-seat arcade games, or family single rounds
    with more seats (the issue's setting: 4), between trivial C bots started before the clock starts."""
    specs = [_spec(f"t{i}={trivial}") for i in range(seats)]
    rules = get_ruleset("arcade") if seats == 2 else get_ruleset("family", {"target": "round"})
    done = 0
    with BotPool() as pool:
        for spec in specs:
            _start(pool.client(spec))
        t0 = time.perf_counter()
        c0 = time.process_time()
        seed = 0
        while done < decisions:
            result = play_game(rules, [seat_for(spec, pool) for spec in specs], seed)
            done += result["decisions"]
            seed += 1
        elapsed = time.perf_counter() - t0
        cpu = time.process_time() - c0
    return elapsed / done * 1e6, cpu / done * 1e6


def c_games_per_s(bot: str, seconds: float) -> tuple[float, float]:
    specs = [_spec(f"c{i}={bot}") for i in range(4)]
    rules = get_ruleset("family", {"target": "round"})
    games = 0
    inside = 0.0
    t0 = time.perf_counter()
    with BotPool() as pool:
        while time.perf_counter() - t0 < seconds:
            k = games % 4
            result = play_game(rules, [seat_for(s, pool) for s in specs[k:] + specs[:k]], games)
            inside += sum(result["time_ms"]["total"]) / 1000
            games += 1
        wall = time.perf_counter() - t0
    return games / wall, 1 - inside / wall


#: Whether the bots' CPU time is read at every request (``--clock`` compares both).
METERED = True


def _start(client: BotClient) -> None:
    """Start the bot; without ``METERED``, drop its CPU meter: requests then read no clock (the "without"
    side). An attribute set on the client, not a patched method: a compiled ``BotClient`` takes no patches."""
    client.start()
    if not METERED:
        client._meter = None


def metered(on: bool) -> None:
    """Read the bots' CPU time at every request (``on``), or not."""
    global METERED
    METERED = on


def granularity_us(trivial: str, n: int) -> tuple[float, str, float]:
    """The smallest non-zero CPU time a request was charged (us), how the meter read it, and one read (us)."""
    metered(True)
    client = BotClient(_spec(trivial))
    _start(client)
    steps = []
    try:
        for i in range(1, n + 1):
            client.request(turn(i))
            if client.last_cpu_ms:
                steps.append(client.last_cpu_ms * 1000)
        source = client.clock_source or "?"
        meter = client._meter
        assert meter is not None
        reads = 100_000
        t0 = time.perf_counter()
        for _ in range(reads):
            meter.read_ns()
        read = (time.perf_counter() - t0) / reads * 1e6
    finally:
        client.quit()
    return (min(steps) if steps else 0.0), source, read


def clock_main(exe: dict[str, str], args: argparse.Namespace) -> None:
    rows: dict[str, list[float]] = {"client_on": [], "client_off": [], "move_on": [], "move_off": []}
    for _ in range(args.rounds):
        for on in (True, False):
            metered(on)
            key = "on" if on else "off"
            rows[f"client_{key}"].append(client_us(exe["trivial"], args.decisions // 2))
            rows[f"move_{key}"].append(per_move_us(exe["trivial"], args.decisions // 2, args.seats)[0])
    metered(True)
    step, source, read = granularity_us(exe["trivial"], 2000)
    med = {k: statistics.median(v) for k, v in rows.items()}
    print(f"python {sys.version.split()[0]}, sandbox {SANDBOX} (clock source {source}), {args.rounds} rounds "
          "alternating, medians")
    for what, on, off in (("BotClient.request round trip", "client_on", "client_off"),
                          ("whole referee per decision", "move_on", "move_off")):
        print(f"{what:32s} with CPU clock {med[on]:7.1f} us, without {med[off]:7.1f} us, "
              f"difference {med[on] - med[off]:+6.2f} us ({med[on] / med[off]:.3f}x)")
    print(f"one reading of the CPU time: {read:.2f} us (two per decision); smallest CPU time charged to a "
          f"request: {step:.1f} us")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--decisions", type=int, default=20000)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--cpus", default="0",
                    help="CPUs for the referee and its bots (children inherit it), e.g. 0 or 0,1. One CPU "
                         "measures the pipe path without the cost of waking an idle CPU on every move, which "
                         "on a VM can dwarf the rest (see the README)")
    ap.add_argument("--sandbox", default="none", help="auto | strict | none: the bots' walls (none: the referee alone)")
    ap.add_argument("--seats", type=int, default=2,
                    help="trivial C bots in the whole-referee games: 2 (arcade games) or more (family single "
                         "rounds; 4 is issue 23's setting)")
    ap.add_argument("--clock", action="store_true", help="Compare reading the bots' CPU time at every request with "
                                                         "not reading it")
    args = ap.parse_args()
    global SANDBOX
    SANDBOX = args.sandbox
    cpus = {int(c) for c in args.cpus.split(",")}
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, cpus)
    with tempfile.TemporaryDirectory() as tmp:
        exe = build(tmp)
        if args.clock:
            clock_main(exe, args)
            return
        rows: dict[str, list[float]] = {"raw": [], "client": [], "per_move": [], "cpu": [], "games_s": [],
                                        "outside": []}
        for _ in range(args.rounds):
            rows["raw"].append(raw_us(exe["pingpong"], args.decisions))
            rows["client"].append(client_us(exe["trivial"], args.decisions // 2))
            wall, cpu = per_move_us(exe["trivial"], args.decisions // 2, args.seats)
            rows["per_move"].append(wall)
            rows["cpu"].append(cpu)
            g, out = c_games_per_s(exe["bot"], args.seconds)
            rows["games_s"].append(g)
            rows["outside"].append(out)
        med = {k: statistics.median(v) for k, v in rows.items()}
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, pinned to CPUs {sorted(cpus)}, "
              f"{args.rounds} rounds alternating, medians; {_build()}; load {os.getloadavg()[0]:.2f}")
        print(f"raw C pipe ping-pong round trip      {med['raw']:8.1f} us")
        print(f"BotClient.request round trip          {med['client']:8.1f} us   {med['client'] / med['raw']:.2f}x raw")
        print(f"whole referee per decision ({args.seats} C bots) {med['per_move']:8.1f} us   "
              f"{med['per_move'] / med['raw']:.2f}x raw")
        print(f"  of which the referee process's CPU  {med['cpu']:8.1f} us   {med['cpu'] / med['raw']:.2f}x raw")
        print(f"4-seat family rounds, C sample bot    {med['games_s']:8.1f} games/s (1 job); "
              f"{100 * med['outside']:.0f}% of wall time outside the bots' answers")


if __name__ == "__main__":
    main()
