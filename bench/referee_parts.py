"""Where a referee decision's time goes: the per-part microseconds of games between trivial C bots.

    .venv/bin/python bench/referee_parts.py [--decisions 20000] [--seats 4] [--cpus 0] [--sandbox none]

Plays family single rounds between ``--seats`` copies of sample_bots/c/trivial.c (pinned to ``--cpus``,
the bots inheriting it), with the parts of the per-decision path wrapped in counters: the turn line,
a seat's catch-up, the engine's legal list and apply, and inside ``BotClient.request`` the early-answer
poll, the write, the wait and read (the bot's think time and the two context switches are in there),
the CPU clock's readings. Each wrapper's own cost (measured on an empty function) is taken off.
Prints microseconds per decision, and the raw C pipe round trip (bench/pingpong.c) for scale.

A compiled module's functions call each other natively, so a wrapper set on them from here is never
called: on the compiled build (``referee.compiled()``) the parts so hidden print as ``n/a`` and the
engine, the turn line and the catch-up are timed instead in the same games played without processes
(each seat answering its first legal action, as trivial.c does): ``offline`` rows, on both builds.
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee import compiled  # noqa: E402
from referee.bots.pipes import client as client_module  # noqa: E402
from referee.bots.pipes import transport as transport_module  # noqa: E402
from referee.bots.pool import BotPool  # noqa: E402
from referee.bots.sandbox import SandboxSettings, parse_mode  # noqa: E402
from referee.bots.spec import parse_bot  # noqa: E402
from referee.engine.game import Game  # noqa: E402
from referee.engine.rules import get_ruleset  # noqa: E402
from referee.protocol.relay import PublicWire, Relay  # noqa: E402
from referee.protocol.turns import turn_line  # noqa: E402
from referee.table import table as table_module  # noqa: E402
from referee.table.table import play_game, seat_for  # noqa: E402

spent: dict[str, int] = defaultdict(int)
calls: dict[str, int] = defaultdict(int)


def counted(owner: object, attr: str, label: str) -> None:
    """Wrap ``owner.attr`` in a counter (a compiled class takes no wrapper: the part is then ``n/a``)."""
    inner = getattr(owner, attr)
    clock = time.perf_counter_ns
    calls[label] += 0

    @functools.wraps(inner)
    def wrapper(*a, **k):  # type: ignore[no-untyped-def]
        t0 = clock()
        try:
            return inner(*a, **k)
        finally:
            spent[label] += clock() - t0
            calls[label] += 1
    try:
        setattr(owner, attr, wrapper)
    except (TypeError, AttributeError):  # a compiled (native) class
        pass


def offline_parts(seats: int, decisions: int) -> dict[str, float]:
    """Microseconds a decision of the engine, the turn line and a seat's catch-up, in family single rounds
    played in-process (each seat plays its first legal action), timed from here: on both builds."""
    clock = time.perf_counter_ns
    rules = get_ruleset("family", {"target": "round"})
    names = [f"t{i}" for i in range(seats)]
    parts = {"offline: engine legal list": 0, "offline: engine apply": 0, "offline: turn line": 0,
             "offline: seat catch-up (Relay.lines)": 0}
    done = seed = 0
    while done < decisions:
        rng = random.Random(seed)
        game = Game(rules, seats, rng)
        wire = PublicWire()
        relays = [Relay(i, "g1", names, scores=[0] * seats) for i in range(seats)]
        rid = 0
        while not game.over:
            seat = game.current
            rid += 1
            t0 = clock()
            legal = game.legal_actions()
            t1 = clock()
            relays[seat].lines(game, wire)
            t2 = clock()
            turn_line(game, seat, legal, rid, 1000, 0)
            t3 = clock()
            game.apply(legal[0], rng)
            t4 = clock()
            parts["offline: engine legal list"] += t1 - t0
            parts["offline: seat catch-up (Relay.lines)"] += t2 - t1
            parts["offline: turn line"] += t3 - t2
            parts["offline: engine apply"] += t4 - t3
            done += 1
        seed += 1
    return {label: ns / done / 1000 for label, ns in parts.items()}


def wrapper_cost_ns() -> float:
    class Box:
        def f(self) -> None:
            pass
    counted(Box, "f", "_empty")
    box = Box()
    n = 200_000
    t0 = time.perf_counter_ns()
    for _ in range(n):
        box.f()
    total = time.perf_counter_ns() - t0
    # The empty call itself: what the wrapped function would have cost unwrapped is tiny; the rest is the wrapper.
    spent.pop("_empty"), calls.pop("_empty")
    return total / n


def _wrap_parts() -> None:
    """Wrap the parts of the per-decision path in counters (those a compiled caller reaches print as n/a)."""
    counted(table_module, "turn_line", "turn line (fields, legal list, orjson)")
    counted(Relay, "lines", "seat catch-up (Relay.lines)")
    counted(Game, "legal_actions", "engine: legal list")
    counted(Game, "apply", "engine: apply")
    counted(client_module.BotClient, "request", "BotClient.request, whole round trip")
    counted(transport_module.PipeTransport, "pending", "  early-answer poll (poll 0)")
    counted(transport_module.PipeTransport, "write", "  write")
    counted(client_module, "read_line", "  wait + read (poll, read; the bot's turn)")
    counted(client_module.BotClient, "_start_clock", "  CPU clock at the request")
    counted(client_module.BotClient, "_answered", "  CPU clock at the answer, bank")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--decisions", type=int, default=20000)
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--cpus", default="0")
    ap.add_argument("--sandbox", default="none")
    ap.add_argument("--plain", action="store_true",
                    help="only the games: no wrappers, no raw pipe, no offline parts (for an instruction count of "
                         "the referee process under valgrind: --decisions N against --decisions 0, README)")
    args = ap.parse_args()
    os.sched_setaffinity(0, {int(c) for c in args.cpus.split(",")})
    per_call = 1.0
    offline: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        exe = {}
        for name, src in (("trivial", "sample_bots/c/trivial.c"), ("pingpong", "bench/pingpong.c")):
            exe[name] = os.path.join(tmp, name)
            subprocess.run(["gcc", "-O2", "-std=gnu99", "-o", exe[name], str(ROOT / src)], check=True)
        size = 700
        raw = float(subprocess.run([exe["pingpong"], "20000", str(size)], capture_output=True, text=True,
                                   check=True).stdout)
        if not args.plain:
            per_call = wrapper_cost_ns()
            offline = offline_parts(args.seats, args.decisions)  # before the wrappers: they would count its calls
            _wrap_parts()
        mode = SandboxSettings(mode=parse_mode(args.sandbox))
        specs = [replace(parse_bot(f"t{i}={exe['trivial']}"), sandbox=mode) for i in range(args.seats)]
        rules = get_ruleset("family", {"target": "round"})
        done = seed = 0
        with BotPool() as pool:
            play_game(rules, [seat_for(s, pool) for s in specs], 10**6)  # start the bots outside the count
            for label in calls:  # zeroed, not cleared: a part never called (compiled) prints as n/a
                spent[label] = calls[label] = 0
            t0 = time.perf_counter_ns()
            cpu0 = time.process_time_ns()
            times0 = os.times()
            while done < args.decisions:
                result = play_game(rules, [seat_for(s, pool) for s in specs], seed)
                done += result["decisions"]
                seed += 1
            wall = (time.perf_counter_ns() - t0) / max(done, 1) / 1000
            cpu = (time.process_time_ns() - cpu0) / max(done, 1) / 1000
            times1 = os.times()
            user = (times1.user - times0.user) / max(done, 1) * 1e6
            system = (times1.system - times0.system) / max(done, 1) * 1e6
    if args.plain:
        print(f"{done} decisions, {seed} games; raw pipe {raw:.2f} us; the referee process's CPU {cpu:.2f} us a "
              f"decision (user {user:.1f}, system {system:.1f}), wall {wall:.2f} us ({wall / raw:.1f}x raw); "
              f"load {os.getloadavg()[0]:.2f}")
        return
    build = "compiled (mypyc)" if compiled() else "pure Python"
    print(f"python {sys.version.split()[0]}, {build}, {args.seats} trivial C bots, sandbox {args.sandbox}, CPUs "
          f"{args.cpus}, {done} decisions, load {os.getloadavg()[0]:.2f}; wrapper cost {per_call / 1000:.2f} us a "
          "call, taken off")
    print(f"{'raw C pipe round trip':48s} {raw:7.2f} us")
    print(f"{'whole referee per decision (wall)':48s} {wall:7.2f} us  {wall / raw:5.1f}x raw")
    print(f"{'  the referee process CPU per decision':48s} {cpu:7.2f} us  (user {user:.1f}, system {system:.1f})")
    for label in calls:
        if not calls[label]:
            print(f"{label:48s}     n/a  (compiled: called natively, not through the wrapper)")
            continue
        us = (spent[label] - calls[label] * per_call) / done / 1000
        print(f"{label:48s} {us:7.2f} us  ({calls[label] / done:.2f} calls a decision)")
    for label, us in offline.items():
        print(f"{label:48s} {us:7.2f} us")


if __name__ == "__main__":
    main()
