#!/usr/bin/env python3
"""Engine throughput of lastcard, side by side with RLCard's UNO and OpenSpiel's crazy_eights.

Run by hand (not part of the test suite)::

    python bench/engine_bench.py [--seconds S] [--reps R] [--json FILE] [--only SUBSTR ...]

Every contender plays complete games between uniformly random players, driven from Python through the
engine's own API, on one pinned core. The measurements are interleaved: ``--reps`` passes, each giving
every contender one slice of ``S / R`` seconds (the slice always finishes the game in progress), in an
order that rotates from pass to pass; the table shows the median over the passes. Rates are per second of
this process's CPU time unless ``--clock wall``. See bench/README.md.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # benchmark the working tree, not whatever copy is installed

import referee  # noqa: E402
from referee.engine.actions import DRAW, PASS, Action  # noqa: E402
from referee.engine.game import Game  # noqa: E402
from referee.engine.rules import get_ruleset  # noqa: E402
from referee.players import SeatView, make_player  # noqa: E402

# A game that is still running after this many decisions is abandoned and counted as "capped".
# lastcard and OpenSpiel end by their own move limits long before; RLCard's UNO has none.
STEP_CAP = 20_000

# One game: (seed) -> (decisions, rounds, capped)
PlayOne = Callable[[int], tuple[int, int, bool]]


# ---------------------------------------------------------------------------------------------- lastcard
class PlayFirstRandom:
    """Supplementary policy, not a built-in: uniform among the plays (and colour namings) when there are any,
    otherwise draw or pass. That is RLCard UNO's legal set (draw only when nothing plays, a playable drawn card is
    played), so games last about as long as RLCard's; the built-in ``random`` also draws while it could play.

    Not a ``Player`` subclass: in a mypyc build (bench/README.md) ``Player`` is a native class."""

    name = "playfirst"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def reseed(self, seed: int) -> None:
        self.rng.seed(seed)

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        plays = [a for a in legal if a.kind != DRAW and a.kind != PASS]
        pool = plays or legal
        return pool[int(self.rng.random() * len(pool))]


def lastcard_factory(ruleset_name: str, overrides: dict[str, Any] | None, n: int,
                     policy: str = "random") -> PlayOne:
    ruleset = get_ruleset(ruleset_name, overrides)
    if policy == "random":
        players = [make_player("random", seat) for seat in range(n)]
    else:
        players = [PlayFirstRandom(seat) for seat in range(n)]

    def play(seed: int) -> tuple[int, int, bool]:
        rng = random.Random(seed)
        for seat, player in enumerate(players):
            player.reseed(seed * 8 + seat)
        game = Game(ruleset, n, rng)
        views = [SeatView(game, seat) for seat in range(n)]  # live views, one per seat, as the referee keeps
        decisions = 0
        # The referee's loop: legal actions, the seat's choice from its own view, apply.
        while not game.over:
            seat = game.current
            legal = game.legal_actions()
            action = players[seat].choose(views[seat], legal)
            game.apply(action, rng)
            decisions += 1
            if decisions >= STEP_CAP:
                return decisions, game.round, True
        return decisions, game.round, False

    return play


# ---------------------------------------------------------------------------------------------- the ceiling
NULL_GAME_DECISIONS = 760  # about a random family round's length, so the null row's games/s reads like one


class NullGame:
    """An engine that does nothing: a constant three-action legal list and an ``apply`` that only counts.

    Driven by the same loop and the same built-in ``random`` player, it measures what the Python loop alone
    costs: no engine written in Python, however fast, can play more decisions per second than this row."""

    __slots__ = ("over", "current", "moves", "n", "legal")

    def __init__(self, n: int) -> None:
        self.over, self.current, self.moves, self.n = False, 0, 0, n
        self.legal = [Action(DRAW), Action(PASS), Action(DRAW)]

    def legal_actions(self) -> list[Action]:
        return self.legal

    def apply(self, action: Action, rng: random.Random) -> None:
        self.moves += 1
        self.current = self.moves % self.n
        if self.moves >= NULL_GAME_DECISIONS:
            self.over = True


def null_factory(n: int) -> PlayOne:
    players = [make_player("random", seat) for seat in range(n)]
    # Views of a real game: the random player never looks, but a compiled build's ``choose`` takes only a SeatView.
    table = Game(get_ruleset("family"), n, random.Random(0))
    views = [SeatView(table, seat) for seat in range(n)]

    def play(seed: int) -> tuple[int, int, bool]:
        rng = random.Random(seed)
        for seat, player in enumerate(players):
            player.reseed(seed * 8 + seat)
        game = NullGame(n)
        decisions = 0
        while not game.over:
            seat = game.current
            legal = game.legal_actions()
            action = players[seat].choose(views[seat], legal)
            game.apply(action, rng)
            decisions += 1
        return decisions, 1, False

    return play


# ---------------------------------------------------------------------------------------------- RLCard
def rlcard_factory(n: int) -> PlayOne:
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=n)

    def play(seed: int) -> tuple[int, int, bool]:
        # init_game builds its Dealer, Players and Round on game.np_random.
        game.np_random = np.random.RandomState(seed % 2**32)
        pick = random.Random(seed)
        game.init_game()
        decisions = 0
        try:
            while not game.is_over():
                legal = game.get_legal_actions()
                game.step(legal[int(pick.random() * len(legal))])
                decisions += 1
                if decisions >= STEP_CAP:
                    return decisions, 1, True
        except IndexError:  # UnoRound pops an empty deck when every card is in a hand: abandon the game
            return decisions, 1, True
        return decisions, 1, False

    return play


# ---------------------------------------------------------------------------------------------- OpenSpiel
def openspiel_factory(n: int) -> PlayOne:
    import pyspiel

    game = pyspiel.load_game("crazy_eights", {"players": n})

    def play(seed: int) -> tuple[int, int, bool]:
        pick = random.Random(seed)
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                r = pick.random()
                for action, prob in outcomes:  # noqa: B007 - sample by the outcomes' probabilities: action is used below
                    r -= prob
                    if r < 0:
                        break
                state.apply_action(action)  # (falls back to the last outcome on rounding)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(pick.random() * len(legal))])
                decisions += 1
                if decisions >= STEP_CAP:
                    return decisions, 1, True
        return decisions, 1, False

    return play


# ---------------------------------------------------------------------------------------------- harness
@dataclass
class Contender:
    key: str          # stable id, e.g. "lastcard/family-round/4p"
    engine: str       # lastcard | rlcard | openspiel
    variant: str
    n: int
    note: str
    factory: Callable[[], PlayOne]
    play: PlayOne | None = None
    next_seed: int = 0
    samples: list[dict[str, float]] = field(default_factory=list)
    capped: int = 0

    def run_slice(self, seconds: float, use_cpu: bool) -> None:
        assert self.play is not None
        play = self.play
        games = decisions = rounds = 0
        gc.collect()
        wall, cpu = time.perf_counter, time.process_time
        clock = cpu if use_cpu else wall
        wall0, cpu0 = wall(), cpu()
        deadline = (cpu0 if use_cpu else wall0) + seconds
        while True:
            d, r, capped = play(self.next_seed)
            self.next_seed += 1
            games += 1
            decisions += d
            rounds += r
            self.capped += capped
            if clock() >= deadline:
                break
        wall_s, cpu_s = wall() - wall0, cpu() - cpu0
        elapsed = cpu_s if use_cpu else wall_s
        self.samples.append({"games": games, "decisions": decisions, "rounds": rounds,
                             "wall_seconds": wall_s, "cpu_seconds": cpu_s,
                             "games_per_s": games / elapsed, "decisions_per_s": decisions / elapsed,
                             "rounds_per_s": rounds / elapsed})

    def median(self, what: str) -> float:
        return statistics.median(s[what] for s in self.samples)

    def totals(self, what: str) -> float:
        return sum(s[what] for s in self.samples)


def build_contenders(players: list[int]) -> tuple[list[Contender], list[str]]:
    out: list[Contender] = []
    skipped: list[str] = []
    lastcard_variants = [
        ("compact", "compact", None, "match to 500 (compact has no single-round target): see rounds/s"),
        ("family", "family", None, "match to 300 points"),
        ("family-round", "family", {"target": "round"}, "one round, 108-card deck: the UNO comparison"),
        ("arcade", "arcade", None, "one tender game (multi-play, required call)"),
        ("family-round+playfirst", "family", {"target": "round"},
         "supplementary: one round, bench-only play-first random policy (RLCard-like game length)"),
    ]
    for n in players:
        for variant, name, overrides, note in lastcard_variants:
            policy = "playfirst" if variant.endswith("+playfirst") else "random"
            out.append(Contender(f"lastcard/{variant}/{n}p", "lastcard", variant, n, note,
                                 lambda name=name, overrides=overrides, n=n, policy=policy:
                                 lastcard_factory(name, overrides, n, policy)))
    for n in players:
        out.append(Contender(f"ceiling/null-engine/{n}p", "ceiling", "null-engine", n,
                             f"the loop and random player around a do-nothing engine, {NULL_GAME_DECISIONS} "
                             "decisions a game", lambda n=n: null_factory(n)))
    try:
        import rlcard.games.uno.game  # noqa: F401
    except Exception as exc:  # pragma: no cover - depends on the environment
        skipped.append(f"RLCard UNO: not importable ({type(exc).__name__}: {exc})")
    else:
        for n in players:
            out.append(Contender(f"rlcard/uno/{n}p", "rlcard", "uno", n, "UnoGame.init_game/step, one round",
                                 lambda n=n: rlcard_factory(n)))
    try:
        import pyspiel  # noqa: F401
    except Exception as exc:  # pragma: no cover
        skipped.append(f"OpenSpiel crazy_eights: not importable ({type(exc).__name__}: {exc})")
    else:
        for n in players:
            out.append(Contender(f"openspiel/crazy_eights/{n}p", "openspiel", "crazy_eights", n,
                                 "pyspiel states, chance sampled, one game",
                                 lambda n=n: openspiel_factory(n)))
    return out, skipped


# ---------------------------------------------------------------------------------------------- environment
def pin_core() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (os.sched_setaffinity unavailable)"
    allowed = os.sched_getaffinity(0)
    core = 0 if 0 in allowed else min(allowed)
    try:
        os.sched_setaffinity(0, {core})
    except OSError as exc:
        return f"not pinned ({exc})"
    return f"pinned to CPU {core} (of {len(allowed)} allowed)"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "Hardware", "Processor")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def package_version(dist: str) -> str:
    from importlib import metadata
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def git_revision() -> str:
    try:
        rev = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no",
                                "--", "referee"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (rev or "unknown") + (" (referee/ modified)" if dirty else "")


def environment(pinning: str) -> dict[str, Any]:
    return {
        "python": f"{platform.python_implementation()} {platform.python_version()} ({sys.executable})",
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "cpus": os.cpu_count(),
        "affinity": pinning,
        # The build: mypyc-compiled or pure (a tree from before the compiled build has no referee.build).
        "lastcard": f"{referee.__version__} ({getattr(referee, 'build', lambda: 'pure Python')()}) at {REPO} "
                    f"git {git_revision()}",
        "rlcard": package_version("rlcard"),
        "open_spiel": package_version("open_spiel"),
        "numpy": package_version("numpy"),
    }


# ---------------------------------------------------------------------------------------------- report
def fmt_rate(x: float) -> str:
    if x >= 100_000:
        return f"{x:,.0f}"
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:.1f}"


def paired_ratios(a: Contender, b: Contender, what: str) -> list[float]:
    """Per-pass ratios a/b: both ran in the same pass, so they saw the same machine conditions."""
    return [x[what] / y[what] for x, y in zip(a.samples, b.samples) if y[what]]


def report(contenders: list[Contender], players: list[int]) -> tuple[str, dict[str, Any]]:
    by_key = {c.key: c for c in contenders}
    lines: list[str] = []
    header = (f"{'engine / variant':<36} {'games/s':>9} {'rounds/s':>9} {'decisions/s':>12} {'dec/game':>9} "
              f"{'rounds/game':>11} {'games':>7} {'vs RLCard g/s':>14} {'vs OpenSpiel d/s':>17}")
    lines.append(header)
    lines.append("-" * len(header))
    ratios: dict[str, Any] = {}
    for n in players:
        rl = by_key.get(f"rlcard/uno/{n}p")
        osp = by_key.get(f"openspiel/crazy_eights/{n}p")
        for c in contenders:
            if c.n != n:
                continue
            g, r, d = c.median("games_per_s"), c.median("rounds_per_s"), c.median("decisions_per_s")
            games = c.totals("games")
            vs_rl = vs_os = ""
            if c.engine == "lastcard":
                if rl is not None:
                    ratio = g / rl.median("games_per_s")
                    vs_rl = f"{ratio:.2f}x"
                    ratios.setdefault(c.key, {})["vs_rlcard_games"] = ratio
                if osp is not None:
                    ratio = d / osp.median("decisions_per_s")
                    vs_os = f"{ratio:.2f}x"
                    ratios.setdefault(c.key, {})["vs_openspiel_decisions"] = ratio
            name = f"{c.engine}/{c.variant} {n}p"
            lines.append(f"{name:<36} {fmt_rate(g):>9} {fmt_rate(r):>9} {fmt_rate(d):>12} "
                         f"{c.totals('decisions') / games:>9.1f} {c.totals('rounds') / games:>11.2f} "
                         f"{games:>7,} {vs_rl:>14} {vs_os:>17}")
        lines.append("")
    lines.append("medians over the passes; dec/game, rounds/game and games are totals over all passes;")
    lines.append("vs RLCard = lastcard games/s / RLCard UNO games/s, vs OpenSpiel = lastcard decisions/s / "
                 "OpenSpiel crazy_eights decisions/s, same player count.")
    capped = [f"{c.key}: {c.capped}" for c in contenders if c.capped]
    if capped:
        lines.append(f"games abandoned (at {STEP_CAP} decisions, or RLCard's empty-deck IndexError), counted as "
                     "played: " + ", ".join(capped))

    lines.append("")
    lines.append("Targets (issue 23: the engine's decisions/s >= 2x OpenSpiel's C++ crazy_eights, random players; "
                 "the whole `lastcard match` >= 3x RLCard is bench/match_bench.py's):")
    checks: list[dict[str, Any]] = []
    for n in players:
        lc = by_key.get(f"lastcard/family-round/{n}p")
        rl = by_key.get(f"rlcard/uno/{n}p")
        osp = by_key.get(f"openspiel/crazy_eights/{n}p")
        if lc is None:
            continue
        if rl is not None:
            ratio = lc.median("games_per_s") / rl.median("games_per_s")
            pr = paired_ratios(lc, rl, "games_per_s")
            # No target: unequal games (drawing is always legal here, so random games last 650 decisions).
            lines.append(f"  {n}p  (information) family-round games/s vs RLCard UNO, random players: {ratio:.2f}x   "
                         f"per-pass range {min(pr):.2f}-{max(pr):.2f}x")
        else:
            lines.append(f"  {n}p  RLCard UNO not measured")
        if osp is not None:
            ratio = lc.median("decisions_per_s") / osp.median("decisions_per_s")
            pr = paired_ratios(lc, osp, "decisions_per_s")
            ok = ratio >= 2.0
            checks.append({"players": n, "target": "decisions/s >= 2x OpenSpiel crazy_eights", "ratio": ratio,
                           "met": ok})
            lines.append(f"  {n}p  family-round decisions/s vs OpenSpiel:    {ratio:6.2f}x  (target >= 2x)   "
                         f"{'MET' if ok else 'NOT MET'}   per-pass range {min(pr):.2f}-{max(pr):.2f}x")
        else:
            lines.append(f"  {n}p  OpenSpiel crazy_eights not measured")
        pf = by_key.get(f"lastcard/family-round+playfirst/{n}p")
        if pf is not None and rl is not None:
            ratio = pf.median("games_per_s") / rl.median("games_per_s")
            lines.append(f"  {n}p  (information) family-round+playfirst games/s vs RLCard UNO: {ratio:.2f}x "
                         f"-- same engine, RLCard-like policy, {pf.totals('decisions') / pf.totals('games'):.0f} "
                         f"vs {rl.totals('decisions') / rl.totals('games'):.0f} decisions/game")
        null = by_key.get(f"ceiling/null-engine/{n}p")
        if null is not None and rl is not None:
            per_game = lc.totals("decisions") / lc.totals("games")
            ceiling = null.median("decisions_per_s") / per_game / rl.median("games_per_s")
            ratios.setdefault(null.key, {})["ceiling_vs_rlcard_games"] = ceiling
            lines.append(f"  {n}p  (ceiling) a do-nothing engine in the same loop, at family-round's {per_game:.0f} "
                         f"decisions/game: {ceiling:.2f}x RLCard UNO games/s")
    return "\n".join(lines), {"ratios": ratios, "targets": checks}


# ---------------------------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=5.0,
                    help="measured time per contender, split over the passes (default 5; 16 contenders at 2 and 4 "
                         "players)")
    ap.add_argument("--reps", type=int, default=5, help="interleaved passes; the table shows medians (default 5)")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 4], help="table sizes (default 2 4)")
    ap.add_argument("--warmup", type=float, default=0.2, help="untimed seconds per contender before the passes")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="time base of the rates: this process's CPU time (default; robust when other programs "
                         "share the core) or wall-clock time")
    ap.add_argument("--only", nargs="+", metavar="SUBSTR", help="keep contenders whose key contains one of these")
    ap.add_argument("--json", metavar="FILE", help="also write environment, samples and ratios as JSON")
    args = ap.parse_args(argv)
    if args.reps < 1 or args.seconds <= 0:
        ap.error("--reps must be >= 1 and --seconds > 0")

    pinning = pin_core()
    env = environment(pinning)
    print("Environment")
    for k, v in env.items():
        print(f"  {k:<11} {v}")

    contenders, skipped = build_contenders(args.players)
    if args.only:
        contenders = [c for c in contenders if any(s in c.key for s in args.only)]
    for s in skipped:
        print(f"  skipped: {s}")
    slice_s = args.seconds / args.reps
    print(f"\n{len(contenders)} contenders x {args.reps} interleaved passes x {slice_s:.2f} s "
          f"(about {len(contenders) * (args.seconds + args.warmup):.0f} s)\n", flush=True)

    for c in contenders:  # build once (imports, game objects) and warm up caches, untimed
        c.play = c.factory()
        c.next_seed = 1_000_000  # warm-up games use other seeds than the measured ones
        deadline = time.perf_counter() + args.warmup
        while True:
            c.play(c.next_seed)
            c.next_seed += 1
            if time.perf_counter() >= deadline:
                break
        c.next_seed = 0

    t0 = time.perf_counter()
    for rep in range(args.reps):
        k = rep % len(contenders)
        order = contenders[k:] + contenders[:k]  # rotate so no contender always runs first or after another
        if rep % 2:
            order.reverse()
        for c in order:
            c.run_slice(slice_s, args.clock == "cpu")
        print(f"  pass {rep + 1}/{args.reps} done ({time.perf_counter() - t0:.0f} s)", flush=True)
    print()

    table, summary = report(contenders, args.players)
    print(table)
    wall_total = sum(c.totals("wall_seconds") for c in contenders)
    cpu_total = sum(c.totals("cpu_seconds") for c in contenders)
    share = cpu_total / wall_total if wall_total else 0.0
    print(f"\nclock: {'CPU time of this process (time.process_time)' if args.clock == 'cpu' else 'wall clock'}; "
          f"measured {cpu_total:.0f} s CPU in {wall_total:.0f} s wall = {share:.0%} of the pinned core"
          + (("\n  other programs competed for the core: CPU-time rates hold up, but caches were shared; "
              "confirm on a quiet machine" if args.clock == "cpu" else
              "\n  other programs competed for the core: wall-clock rates are understated, use --clock cpu")
             if share < 0.9 else ""))
    summary["cpu_share"] = share

    if args.json:
        data = {
            "environment": env,
            "settings": {"seconds": args.seconds, "reps": args.reps, "players": args.players, "clock": args.clock,
                         "warmup": args.warmup, "step_cap": STEP_CAP},
            "skipped": skipped,
            "results": {c.key: {"engine": c.engine, "variant": c.variant, "players": c.n, "note": c.note,
                                "median_games_per_s": c.median("games_per_s"),
                                "median_rounds_per_s": c.median("rounds_per_s"),
                                "median_decisions_per_s": c.median("decisions_per_s"),
                                "capped": c.capped, "samples": c.samples} for c in contenders},
            **summary,
        }
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n")
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
