#!/usr/bin/env python3
"""Environment steps per second: referee.env beside RLCard's ``rlcard.make("uno")``, in one run, on one core.

    taskset -c 0 .venv/bin/python bench/env_bench.py [--seconds 2] [--rounds 3] [--clock cpu|wall]

A step is one decision with its observation: RLCard's ``env.step(action)`` returns the next player's
state encoded its own way (``obs`` planes and ``legal_actions``); here ``step(index)`` then ``observe``
of the seat to act (the vector and the action mask), as PettingZoo's ``last()`` does. Every side
picks uniformly among the legal actions with a seeded generator and plays whole games, dealing again
as each ends. Each round runs every side for ``--seconds`` of this process's CPU time (``--clock wall``: of
the wall clock), one after the other; the table shows the
medians over the rounds and each side's ratio to RLCard within its round. RLCard's UNO is 2 players
only, so the comparable row is ``family`` at 2 seats. Needs the bench and rl extras
(``pip install -e '.[bench,rl]'``). The process pins itself to ``--cpu`` (both sides share the core).
``VectorSingleAgentEnv xN`` counts N learner steps per ``step`` call (one per table), the random legal
picks made with numpy over the batch's masks; the last column is each side's ratio to ``SingleAgentEnv``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.env import SingleAgentEnv, VectorSingleAgentEnv, env, raw_env  # noqa: E402

Side = Callable[[float], float]  # seconds -> steps per second
#: The clock every side is timed on: this process's CPU time (``--clock cpu``, the default: on a shared machine the
#: time another process holds the core is not counted against either side) or the wall clock.
clock: Callable[[], float] = time.process_time


def rlcard_side() -> Side:
    import rlcard

    uno = rlcard.make("uno", config={"seed": 0})
    picks = random.Random(0)

    def run(seconds: float) -> float:
        steps = 0
        t0 = clock()
        while clock() - t0 < seconds:
            state, _ = uno.reset()
            while not uno.is_over():
                state, _ = uno.step(picks.choice(list(state["legal_actions"])))
                steps += 1
        return steps / (clock() - t0)
    return run


def aec_side(ruleset: str, seats: int, wrapped: bool) -> Side:
    game = (env if wrapped else raw_env)(ruleset=ruleset, seats=seats)
    picks = random.Random(0)

    def run(seconds: float) -> float:
        steps, seed = 0, 0
        t0 = clock()
        while clock() - t0 < seconds:
            game.reset(seed=seed)
            seed += 1
            obs = game.observe(game.agent_selection)
            while not game.terminations[game.agent_selection]:
                game.step(int(picks.choice(np.flatnonzero(obs["action_mask"]))))
                obs = game.observe(game.agent_selection)
                steps += 1
        return steps / (clock() - t0)
    return run


def single_side(ruleset: str, seats: int) -> Side:
    """SingleAgentEnv against builtin:random: learner steps (the opponents' moves happen inside each)."""
    game = SingleAgentEnv(ruleset, seats, opponents=["builtin:random"], seat=0)
    picks = random.Random(0)

    def run(seconds: float) -> float:
        steps, seed = 0, 0
        t0 = clock()
        while clock() - t0 < seconds:
            obs, _ = game.reset(seed=seed)
            seed += 1
            done = False
            while not done:
                obs, _, done, _, _ = game.step(int(picks.choice(np.flatnonzero(obs["action_mask"]))))
                steps += 1
        return steps / (clock() - t0)
    return run


def vector_side(ruleset: str, seats: int, batch: int) -> Side:
    """VectorSingleAgentEnv against builtin:random: learner steps, ``batch`` of them a call (auto-reset)."""
    game = VectorSingleAgentEnv(batch, ruleset, seats, opponents=["builtin:random"], seat=0)
    obs, _ = game.reset(seed=0)
    picks = np.random.default_rng(0)

    def run(seconds: float) -> float:
        nonlocal obs
        steps = 0
        t0 = clock()
        while clock() - t0 < seconds:
            # A uniformly random legal index per row: a legal entry scores 1 to 2, an illegal one 0 to 1, so the
            # highest is the legal one with the highest draw (an all-zero row: any). float32 draws cost half.
            mask = obs["action_mask"]
            obs, _, _, _, _ = game.step(np.argmax(picks.random(mask.shape, dtype=np.float32) + mask, axis=1))
            steps += batch
        return steps / (clock() - t0)
    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cpu", type=int, default=0, help="the core to pin this process to (-1: leave it)")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="time by this process's CPU time (default) or by the wall clock")
    ap.add_argument("--batches", default="1,16,256,512,4096", help="VectorSingleAgentEnv batch sizes (comma-separated)")
    ap.add_argument("--json", metavar="FILE", help="also write each environment's medians (bench/speed_table.py)")
    args = ap.parse_args()
    global clock
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    if args.cpu >= 0 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    sides: dict[str, Side] = {
        "rlcard uno, 2 players": rlcard_side(),
        "raw_env family, 2 seats": aec_side("family", 2, wrapped=False),
        "env() family, 2 seats (wrapped)": aec_side("family", 2, wrapped=True),
        "raw_env family, 4 seats": aec_side("family", 4, wrapped=False),
        "raw_env arcade, 4 seats": aec_side("arcade", 4, wrapped=False),
        "SingleAgentEnv family, 2 seats": single_side("family", 2),
    }
    for batch in (int(b) for b in args.batches.split(",") if b):
        sides[f"VectorSingleAgentEnv x{batch}, family 2"] = vector_side("family", 2, batch)
    rates: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(args.rounds):
        for name, side in sides.items():
            rates[name].append(side(args.seconds))
    base = rates["rlcard uno, 2 players"]
    single = rates["SingleAgentEnv family, 2 seats"]
    print(f"{'environment':38} {'steps/s':>10} {'x rlcard':>9} {'x single':>9}   (median of {args.rounds} rounds of "
          f"{args.seconds:g} s each, cpu {args.cpu}, {args.clock} clock)")
    table = {}
    for name, values in rates.items():
        ratio = statistics.median(v / b for v, b in zip(values, base))
        to_single = statistics.median(v / b for v, b in zip(values, single))
        print(f"{name:38} {statistics.median(values):10,.0f} {ratio:9.2f} {to_single:9.2f}")
        table[name] = {"steps_per_s": statistics.median(values), "x_rlcard": ratio, "x_single": to_single}
    if args.json:
        Path(args.json).write_text(json.dumps({"seconds": args.seconds, "rounds": args.rounds, "clock": args.clock,
                                                "environments": table}))


if __name__ == "__main__":
    main()
