#!/usr/bin/env python3
"""``lastcard collusion`` and ``lastcard similar`` on a class with planted cheats and honest look-alikes: where each
ranks, the false positives of an honest class over many seeds, and the cost in games and time.

Run by hand (not part of the test suite; some minutes on two cores)::

    nice python bench/collusion_bench.py [--games 24] [--seeds 20] [--jobs 2]

The class (a scratch folder; 4-seat ``family`` tables of one round, a sampled league, names shown so that the
colluders can find each other), eleven programs and ``builtin:medium`` and ``builtin:hard``:

* planted colluders ``pal_a`` and ``pal_b`` (tests/support/collusion_bots/pal.py: each spares the other the
  cards that hurt the next seat, having read its name);
* planted copies: ``heavy`` and ``heavy_ren`` (renamed), ``heavy`` and ``heavy_js`` (translated into JavaScript);
* honest look-alikes: ``kit_a`` and ``kit_b`` (the Python kit, sample_bots/python/strong_bot.py, unedited, handed in
  by two students), ``aggro`` and ``hitter`` (one simple strategy, the colluders' own, written apart in Python and
  JavaScript), and ``hoarder``.

Part 1 plays the class once and prints where every planted pair ranks in ``collusion`` and ``similar`` (with the
reference policies and the text), and their cost. Part 2 plays an honest class (the colluders replaced by two
honest copies of their program, friends of nobody) on ``--seeds`` seeds and counts the seeds on which
``collusion`` names any pair (Holm's family-wise error rate at 5%: expected at most 5% of the seeds). Part 2 runs
the bots without walls (``sandbox: none``): its figure is about the test, and the walls only cost time.
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.collusion_class import PAL  # noqa: E402
from tests.support.similar_class import HEAVY, HOARDER, SAMPLES  # noqa: E402

BOTS = ROOT / "tests" / "support" / "collusion_bots"


def lastcard(cwd: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    t0 = time.monotonic()
    res = subprocess.run([sys.executable, "-m", "referee.cli.entry", *args], cwd=cwd, capture_output=True, text=True,
                         timeout=3600)
    if res.returncode != 0:
        raise SystemExit(f"lastcard {' '.join(args)} failed:\n{res.stderr[-3000:]}")
    return res, time.monotonic() - t0


def python_bot(folder: Path, name: str, text: str) -> str:
    (folder / name).mkdir(parents=True)
    (folder / name / "bot.py").write_text(text)
    shutil.copy(SAMPLES / "python" / "botkit.py", folder / name / "botkit.py")
    return f"{sys.executable} {folder / name / 'bot.py'}"


def the_class(folder: Path, *, honest: bool) -> dict[str, str]:
    strong = (SAMPLES / "python" / "strong_bot.py").read_text()
    renamed = HEAVY.replace("weight", "value").replace("(a)", "(act)").replace(" a[", " act[")
    renamed = renamed.replace("in a.", "in act.")
    commands = {"heavy": python_bot(folder, "heavy", HEAVY), "heavy_ren": python_bot(folder, "heavy_ren", renamed),
                "heavy_js": f"node {BOTS / 'heavy.js'}", "kit_a": python_bot(folder, "kit_a", strong),
                "kit_b": python_bot(folder, "kit_b", strong), "aggro": f"{sys.executable} {PAL}",
                "hitter": f"node {BOTS / 'hitter.js'}", "hoarder": python_bot(folder, "hoarder", HOARDER)}
    if honest:
        commands |= {"pal_a": f"{sys.executable} {PAL} nobody_a", "pal_b": f"{sys.executable} {PAL} nobody_b"}
    else:
        commands |= {"pal_a": f"{sys.executable} {PAL} pal_b", "pal_b": f"{sys.executable} {PAL} pal_a"}
    return commands


def arena_file(folder: Path, commands: dict[str, str], seed: int, games: int, sandbox: str | None) -> Path:
    bots = "\n".join(f"  - {{name: {n}, command: '{c}'}}" for n, c in commands.items())
    walls = f"sandbox: {{mode: {sandbox}}}\n" if sandbox else ""
    path = folder / "class.yaml"
    path.write_text(f"name: class\nseed: {seed}\nruleset: family\noptions: {{target: round}}\nseats: 4\n"
                    f"seat_names: shown\nbootstrap: 0\nformat: sampled\ngames: {games}\n{walls}"
                    f"bots:\n{bots}\n  - builtin:medium\n  - builtin:hard\n")
    return path


def ranked(rows: list[dict[str, str]], pair: tuple[str, str]) -> str:
    for i, r in enumerate(rows, 1):
        if {r["bot_a"], r["bot_b"]} == set(pair):
            return f"{i}/{len(rows)}"
    return "-"


def part1(games: int, jobs: int) -> None:
    with tempfile.TemporaryDirectory(prefix="lastcard-collusion-bench-") as tmp:
        folder = Path(tmp)
        path = arena_file(folder, the_class(folder / "bots", honest=False), 3, games, None)
        _, t_arena = lastcard(folder, "arena", str(path), "--out", "out", "--no-report", "--jobs", str(jobs))
        res, t_coll = lastcard(folder, "collusion", "out", "--jobs", str(jobs))
        _, t_sim = lastcard(folder, "similar", "out", "--jobs", str(jobs))
        coll = list(csv.DictReader((folder / "out" / "collusion.csv").open()))
        sim = list(csv.DictReader((folder / "out" / "similarity.csv").open()))
        texts = {frozenset((t["a"], t["b"])): t["similarity"]
                 for t in json.loads((folder / "out" / "text_matches.json").read_text())["pairs"]}
        stored = sum(1 for _ in (folder / "out" / "games.jsonl").open())
        print(f"class of 11 programs + medium + hard, {games} games a bot: {stored} games, arena {t_arena:.1f} s")
        print(res.stdout.splitlines()[0])
        print(f"collusion {t_coll:.1f} s, similar {t_sim:.1f} s on {jobs} workers")
        print(f"{'pair':<22} {'what':<34} {'collusion rank':>15} {'named':>6} {'similar':>22} {'text':>6}")
        for pair, what in ((("pal_a", "pal_b"), "planted colluders"), (("heavy", "heavy_ren"), "planted copy, renamed"),
                           (("heavy", "heavy_js"), "planted copy, translated"),
                           (("kit_a", "kit_b"), "honest: one kit, unedited"),
                           (("aggro", "hitter"), "honest: one simple strategy"),
                           (("aggro", "pal_a"), "honest look-alike of a colluder")):
            c = next(r for r in coll if {r["bot_a"], r["bot_b"]} == set(pair))
            s = next(r for r in sim if {r["bot_a"], r["bot_b"]} == set(pair))
            said = ("stands out" if s["stands_out"] == "yes" else f"plays {s['reference']}"
                    if s["plays_reference"] == "yes" else "no")
            print(f"{' / '.join(pair):<22} {what:<34} {ranked(coll, pair):>15} {c['look']:>6} "
                  f"{said + ' k=' + format(float(s['kappa']), '.2f'):>22} {texts.get(frozenset(pair), 0):>6.2f}")
        named = [f"{r['bot_a']}/{r['bot_b']}" for r in coll if r["look"] == "yes"]
        standing = [f"{r['bot_a']}/{r['bot_b']}" for r in sim if r["stands_out"] == "yes"]
        print(f"collusion names: {', '.join(named) or 'none'}; similar: stand out {', '.join(standing) or 'none'}")


def part2(games: int, seeds: int, jobs: int) -> None:
    flagged = 0
    games_again = 0
    spent = 0.0
    for seed in range(1, seeds + 1):
        with tempfile.TemporaryDirectory(prefix="lastcard-collusion-fp-") as tmp:
            folder = Path(tmp)
            path = arena_file(folder, the_class(folder / "bots", honest=True), seed, games, "none")
            lastcard(folder, "arena", str(path), "--out", "out", "--no-report", "--jobs", str(jobs))
            res, took = lastcard(folder, "collusion", "out", "--jobs", str(jobs))
            spent += took
            games_again += int(res.stdout.split(" played again")[0].rsplit(",", 1)[1].split()[0])
            rows = list(csv.DictReader((folder / "out" / "collusion.csv").open()))
            named = [f"{r['bot_a']}/{r['bot_b']}" for r in rows if r["look"] == "yes"]
            flagged += bool(named)
            print(f"seed {seed}: {'named ' + ', '.join(named) if named else 'no pair named'} "
                  f"(smallest adjusted p {min(float(r['p_adjusted']) for r in rows if r['p_adjusted']):.3f})")
    print(f"honest class: a pair named on {flagged} of {seeds} seeds ({flagged / seeds:.0%}; Holm's bound 5%); "
          f"{games_again / seeds:.0f} games played again and {spent / seeds:.1f} s a seed on {jobs} workers, no walls")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=24, help="games per bot in the league")
    ap.add_argument("--seeds", type=int, default=20, help="seeds of the honest class")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--part", choices=("1", "2", "both"), default="both")
    args = ap.parse_args()
    if args.part in ("1", "both"):
        part1(args.games, args.jobs)
    if args.part in ("2", "both"):
        part2(args.games, args.seeds, args.jobs)


if __name__ == "__main__":
    main()
