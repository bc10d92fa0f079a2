#!/usr/bin/env python3
"""Grading against benchmarks on a class of known strength, against grading by rank.

    python bench/benchmark_grading_bench.py [--rates 0,0.1,0.25,0.5] [--seeds 5] [--truth-pairs 600]
                                            [--budget 2000] [--jobs 2] [--rank-games 24]

The class: ``builtin:hard`` weakened by blunders, ``p`` the chance of a uniformly random legal answer instead of
hard's (``BlunderPlayer``, in this process: the same decisions a bot process would make, at in-process speed).

1. **Truth.** Each rate's logistic Elo against easy, medium and hard, from ``--truth-pairs`` twin pairs each (the
   games ``lastcard compare`` plays, seed 99): the band a student deserves. A band is *owed* when the Elo's 95%
   interval is above ``elo1``, *refused* when it is at or below ``elo0`` (a student that plays as the benchmark
   does is no stronger); in between either answer is right.
2. **Benchmark grading.** The class graded by ``arenas/graded.yaml``'s bands and test (``[0, 30]`` logistic,
   alpha = beta = 0.05) with ``--budget`` games a student, on ``--seeds`` seeds (1, 2, ...): games per student
   until its grade is decided, undecided students, misgrades (a band refused but given, or owed but not given),
   and the wall time on ``--jobs`` workers.
3. **Rank grading.** The same class with ``builtin:medium`` and ``builtin:hard`` (as ``arenas/classroom.yaml``
   seats them) in a sampled league of 4 seats, ``--rank-games`` games a bot, graded ``by: rank`` (best 100,
   worst 60, ``shared_rank: best``) on the same seeds: the students sharing a rank range, the points given,
   and how often two students of different strength get the same points.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import tempfile
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from referee.arena.config import parse_arena  # noqa: E402
from referee.benchmarks.run import run_benchmarks  # noqa: E402
from referee.bots.entry import BotEntry  # noqa: E402
from referee.bots.pool import BotPool  # noqa: E402
from referee.bots.spec import BotSpec, parse_bot  # noqa: E402
from referee.compare.sprt import PairTally  # noqa: E402
from referee.compare.twins import CompareSettings, twin_pair  # noqa: E402
from referee.grading.bands import benchmark_grade  # noqa: E402
from referee.grading.grades import grade_students  # noqa: E402
from referee.grading.rule import Grading  # noqa: E402
from referee.players import BUILTINS  # noqa: E402
from referee.players.base import choice  # noqa: E402
from referee.players.heuristic import HardPlayer  # noqa: E402
from referee.run.jobs import run_job  # noqa: E402

BANDS = ("easy", "medium", "hard")


def blunder_class(rate: float) -> type[HardPlayer]:
    """A player that answers as hard does, but with a uniformly random legal answer at the chance ``rate``."""

    class BlunderPlayer(HardPlayer):
        name = f"blunder{round(rate * 100):02d}"

        def choose(self, view: Any, legal: list[Any]) -> Any:
            if len(legal) > 1 and self.rng.random() < rate:
                return choice(self.rng, legal)
            return super().choose(view, legal)

    return BlunderPlayer


def register(rates: list[float]) -> list[BotSpec]:
    """Each rate's player, registered as ``builtin:blunderNN`` (before the workers fork), as a student ``pNN``."""
    specs = []
    for rate in rates:
        cls = blunder_class(rate)
        BUILTINS[cls.name] = cls
        specs.append(parse_bot(f"p{round(rate * 100):02d}=builtin:{cls.name}"))
    return specs


#: Each student's measured pentanomial against each benchmark (``truth``), for the simulated seeds.
PTNML: dict[tuple[str, str], tuple[int, ...]] = {}


def truth(student: BotSpec, bench: str, pairs: int) -> tuple[float, float, float]:
    """Logistic Elo of ``student`` against ``builtin:bench`` with its 95% interval, from ``pairs`` twin pairs (the
    pair counts kept in ``PTNML``)."""
    settings = CompareSettings.build(student, parse_bot(f"builtin:{bench}"), seats=2, seed=99, sprt=None,
                                     games=2 * pairs)
    tally = PairTally()
    pool = BotPool()
    for k in range(pairs):
        pair = twin_pair(settings, k)
        (a, _), (b, _) = (run_job(job, pool) for job in pair.jobs)
        tally.add_pair(*pair.scores(a.placements, b.placements))
    pool.close()
    PTNML[(student.name, bench)] = tally.ptnml.counts
    est = tally.estimates()
    return est.elo, est.elo_low, est.elo_high


GRADED = """\
name: bench
seed: {seed}
ruleset: compact
bots: [builtin:random]
grading:
  by: benchmarks
  bands:
    - {{bot: "builtin:easy", points: 60}}
    - {{bot: "builtin:medium", points: 80}}
    - {{bot: "builtin:hard", points: 100}}
  below: 40
  test: {{elo0: 0, elo1: 30, alpha: 0.05, beta: 0.05}}
  games: {budget}
"""

RANKED = """\
name: rank
seed: {seed}
ruleset: compact
seats: 4
format: sampled
games: {games}
bots: [builtin:random, builtin:easy, builtin:medium, builtin:hard]
"""


def deserved(truths: dict[str, tuple[float, float, float]], elo0: float, elo1: float) -> set[int]:
    """The bands a student may rightly be given: 0..3 bands passed, those its truths allow."""
    ok = set()
    for passed in range(len(BANDS) + 1):
        fine = True
        for i, bench in enumerate(BANDS):
            _, low, high = truths[bench]
            if i < passed and high <= elo0 + 0.5:  # (a copy of the benchmark: 0, up to the estimate's regularization)
                fine = False  # given a band it is surely not stronger than
            if i == passed and low > elo1:
                fine = False  # denied a band it is surely elo1 stronger than
        if fine:
            ok.add(passed)
    return ok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rates", default="0,0.1,0.25,0.5")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--truth-pairs", type=int, default=600)
    ap.add_argument("--budget", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rank-games", default="24,240", help="games a bot in the league, a list: each a run")
    ap.add_argument("--skip-truth", action="store_true")
    args = ap.parse_args()
    rates = [float(x) for x in args.rates.split(",")]
    students = register(rates)

    print(f"## Truth ({args.truth_pairs} twin pairs a benchmark, seed 99)\n")
    print("| student | blunder rate | Elo vs easy | vs medium | vs hard | bands it may be given |")
    print("| --- | ---: | --- | --- | --- | --- |")
    truths: dict[str, dict[str, tuple[float, float, float]]] = {}
    for spec, rate in zip(students, rates):
        t0 = time.monotonic()
        truths[spec.name] = {b: truth(spec, b, args.truth_pairs) for b in BANDS} if not args.skip_truth else {
            b: (0.0, -math.inf, math.inf) for b in BANDS}
        cells = " | ".join(f"{e:+.0f} ({lo:+.0f} to {hi:+.0f})" for e, lo, hi in truths[spec.name].values())
        ok = sorted(deserved(truths[spec.name], 0, 30))
        print(f"| {spec.name} | {rate:.2f} | {cells} | {', '.join(str(40 + 20 * p) for p in ok)} |"
              f"  <!-- {time.monotonic() - t0:.0f} s -->", flush=True)

    simulated(students, truths, args.budget)

    print(f"\n## Benchmark grading ({args.seeds} seeds, budget {args.budget} games, {args.jobs} jobs)\n")
    games: dict[str, list[int]] = {s.name: [] for s in students}
    points: dict[str, list[float]] = {s.name: [] for s in students}
    undecided: dict[str, int] = {s.name: 0 for s in students}
    wrong: dict[str, int] = {s.name: 0 for s in students}
    walls = []
    for seed in range(1, args.seeds + 1):
        arena = parse_arena(GRADED.format(seed=seed, budget=args.budget))
        grading = arena.grading
        assert grading is not None
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.monotonic()
            run = run_benchmarks(arena, students, out=tmp, jobs=args.jobs)
            walls.append(time.monotonic() - t0)
        for name, outcome in run.outcomes().items():
            games[name].append(outcome.games)
            points[name].append(benchmark_grade(outcome, grading).points)
            undecided[name] += not outcome.decided(len(BANDS))
            wrong[name] += outcome.passed not in deserved(truths[name], 0, 30)
        print(f"seed {seed}: {walls[-1]:.0f} s, {len(run.collected)} games counted, {run.played_now} played",
              file=sys.stderr, flush=True)
    print("| student | points given (per seed) | games to a decided grade: median (max) | undecided | misgraded |")
    print("| --- | --- | --- | ---: | ---: |")
    for s in students:
        pts = ", ".join(f"{p:g}" for p in points[s.name])
        print(f"| {s.name} | {pts} | {statistics.median(games[s.name]):.0f} ({max(games[s.name])}) | "
              f"{undecided[s.name]} of {args.seeds} | {wrong[s.name]} of {args.seeds} |")
    print(f"\nWall time a class ({len(students)} students): median {statistics.median(walls):.0f} s, max "
          f"{max(walls):.0f} s on {args.jobs} jobs; {sum(sum(g) for g in games.values()) / args.seeds:.0f} games "
          "counted a class on average.")

    for rank_games in (int(x) for x in args.rank_games.split(",")):
        rank_grading(students, args.seeds, rank_games, args.jobs)


def simulated(students: list[BotSpec], truths: dict[str, dict[str, tuple[float, float, float]]], budget: int,
              runs: int = 1000) -> None:
    """Misgrades over many seeds: each student's pairs drawn from its measured pentanomials (``simulate_ladder``,
    the rules of the real tests), ``runs`` simulated students each."""
    if not PTNML:
        return
    from referee.benchmarks.simulate import simulate_ladder
    from referee.compare.sprt import SprtSettings

    sprt = SprtSettings(0, 30, model="logistic")
    print(f"\n## Misgrades over {runs} simulated seeds (pairs drawn from each student's measured pair counts)\n")
    print("| student | points given: share of runs (40 / 60 / 80 / 100) | undecided | misgraded | games: mean "
          "(95th percentile) |")
    print("| --- | --- | ---: | ---: | --- |")
    for spec in students:
        dists = [[c / sum(PTNML[(spec.name, b)]) for c in PTNML[(spec.name, b)]] for b in BANDS]
        sim = simulate_ladder(dists, sprt, budget // 2, runs, seed=17)
        ok = deserved(truths[spec.name], 0, 30)
        shares = " / ".join(f"{(sim.passed == k).mean():.3f}" for k in range(len(BANDS) + 1))
        wrong = sum(1 for p in sim.passed if int(p) not in ok)
        games = sorted(int(g) for g in sim.games)
        print(f"| {spec.name} | {shares} | {(~sim.decided).mean():.3f} | {wrong / runs:.3f} | "
              f"{statistics.mean(games):.0f} ({games[int(0.95 * (runs - 1))]}) |")


def rank_grading(students: list[BotSpec], seeds: int, rank_games: int, jobs: int) -> None:
    """The class in a sampled league with medium and hard, graded by rank, on seeds 1..``seeds``."""
    from referee.arena.runner import run_arena

    print(f"\n## Rank grading (sampled league, 4 seats, {rank_games} games a bot, with medium and hard)\n")
    print("| seed | games | " + " | ".join(s.name for s in students) + " |")
    print("| ---: | ---: |" + " ---: |" * len(students))
    rank = Grading(by="rank", best=100, worst=60, shared_rank="best")
    entries = [BotEntry(BotSpec(name=s.name, command="python3 stand-in.py"), "bench") for s in students]
    shared_counts, distinct, same_points, rank_walls = [], [], 0, []
    pairs_total = 0
    for seed in range(1, seeds + 1):
        arena = parse_arena(RANKED.format(seed=seed, games=rank_games))
        arena = arena.with_bots([BotEntry(s, "bench") for s in students]
                                + [BotEntry(parse_bot("builtin:medium"), "bench"),
                                   BotEntry(parse_bot("builtin:hard"), "bench")])
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.monotonic()
            ran = run_arena(arena, out=tmp, jobs=jobs)
            rank_walls.append(time.monotonic() - t0)
        given = {g.bot: g for g in grade_students(ran.standings, entries, rank)}
        shared_counts.append(sum(1 for g in given.values() if g.flag))
        distinct.append(len({g.points for g in given.values()}))
        for i, a in enumerate(students):
            for b in students[i + 1:]:
                pairs_total += 1
                same_points += given[a.name].points == given[b.name].points
        print(f"| {seed} | {ran.doc.games} | " + " | ".join(f"{given[s.name].points}{'*' if given[s.name].flag else ''}"
                                                          for s in students) + " |")
    print(f"\n(* a shared rank range: the points came from shared_rank.) Students holding a shared range: median "
          f"{statistics.median(shared_counts)} of {len(students)}; distinct point values: median "
          f"{statistics.median(distinct)} for {len(students)} students of different strengths; pairs of different "
          f"strength given the same points: {same_points} of {pairs_total}; wall time a run: median "
          f"{statistics.median(rank_walls):.0f} s on {jobs} jobs.")


if __name__ == "__main__":
    main()
