#!/usr/bin/env python3
"""``lastcard similar`` on a class of 30 with planted copies: its time, and the decision points it needs.

Run by hand (not part of the test suite; a few minutes on two cores)::

    nice python bench/similar_bench.py [--points 25 50 100 200 400] [--games 8] [--jobs 2] [--sandbox auto]

The class (made in a scratch folder, from ``tests/support/similar_class.py``):

* 24 honest bots: ``heavy``, ``hoarder`` and ``random`` (sample_bots' random bot, seeded by the game), and 21
  generated bots ``w01``... ``w21``, each scoring the legal answers by its own random weights of six features
  (a play, the largest weight: every student plays a card when one plays; cards laid, their points, a wild, an
  action card, the laid colour's share of the hand) plus a taste of its own on close calls (a hash of the
  position and its seed, up to 2): different ideas of a good move, some of them close, as a class's are;
* 3 planted copy pairs: ``strong`` and ``disguised`` (names changed, functions reordered); ``medium_py`` and
  ``medium_ren`` (its functions reordered, comments gone); ``w00`` and ``w00_copy`` (its weights rounded to one
  decimal, the variables renamed).

``lastcard arena`` plays a sampled league (``--games`` per bot, 4 seats), then ``lastcard similar --points N``
runs for each N and each of ``--seeds`` draws of the points, timed; the figure is the smallest N from which,
on every seed, every planted pair stands out and no honest pair does (with the weakest planted and the closest
honest kappa at each N, over the seeds).
"""

from __future__ import annotations

import argparse
import ast
import csv
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.similar_class import make_class  # noqa: E402

WEIGHTED = '''import hashlib

import botkit

W = {weights}
SEED = {seed}


def whim(a, hand):
    # This student's own taste on close calls: fixed for a position, different from everyone else's.
    key = f"{{SEED}}|{{a['type']}}|{{a.get('cards')}}|{{a.get('colour')}}|{{sorted(hand)}}"
    return int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) / 2 ** 31


def features(a, hand, legal_count, index):
    cards = a.get("cards") or []
    colours = [c.split(":")[0] for c in cards if ":" in c]
    colour = a.get("colour") or (colours[0] if colours else None)
    share = sum(1 for c in hand if c.split(":")[0] == colour) / max(1, len(hand)) if colour else 0.0
    points = sum(50 if ":" not in c else (int(c.split(":")[1]) if c.split(":")[1].isdigit() else 20) for c in cards)
    action = sum(1 for c in cards if ":" in c and not c.split(":")[1].isdigit())
    return [a["type"] == "play", len(cards), points / 50, any(":" not in c for c in cards), action, share]


def choose(turn):
    hand = list(getattr(turn, "hand", []) or [])
    scored = [(sum(w * f for w, f in zip(W, features(a, hand, len(turn.legal), i))) + whim(a, hand), -i)
              for i, a in enumerate(turn.legal)]
    return turn.legal[max(range(len(scored)), key=lambda i: scored[i])]


botkit.run(choose, name="{name}")
'''
#: ``w00_copy``: the same bot, weights rounded and renamed (a student who retyped it).
COPIED = '''import hashlib

import botkit

WEIGHTS = {weights}
SALT = {seed}


def taste(answer, my_cards):
    text = f"{{SALT}}|{{answer['type']}}|{{answer.get('cards')}}|{{answer.get('colour')}}|{{sorted(my_cards)}}"
    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16) / 2 ** 31


def describe(answer, my_cards, n, pos):
    laid = answer.get("cards") or []
    suits = [card.split(":")[0] for card in laid if ":" in card]
    suit = answer.get("colour") or (suits[0] if suits else None)
    frac = sum(1 for card in my_cards if card.split(":")[0] == suit) / max(1, len(my_cards)) if suit else 0.0
    worth = sum(50 if ":" not in card else (int(card.split(":")[1]) if card.split(":")[1].isdigit() else 20)
                for card in laid)
    special = sum(1 for card in laid if ":" in card and not card.split(":")[1].isdigit())
    return [answer["type"] == "play", len(laid), worth / 50, any(":" not in card for card in laid), special, frac]


def pick(turn):
    mine = list(getattr(turn, "hand", []) or [])
    best = None
    for pos, answer in enumerate(turn.legal):
        key = (sum(w * f for w, f in zip(WEIGHTS, describe(answer, mine, len(turn.legal), pos)))
               + taste(answer, mine), -pos)
        if best is None or key > best[0]:
            best = (key, answer)
    return best[1]


botkit.run(pick, name="copy")
'''
PLANTED = {("disguised", "strong"), ("medium_py", "medium_ren"), ("w00", "w00_copy")}


def reordered(source: str) -> str:
    """The program with its top-level functions in reverse order and its comments gone."""
    tree = ast.parse(source)
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    first = next(i for i, n in enumerate(tree.body) if isinstance(n, ast.FunctionDef))
    others = [n for n in tree.body if not isinstance(n, ast.FunctionDef)]
    tree.body = others[:first] + functions[::-1] + others[first:]
    return ast.unparse(tree)


def make(folder: Path) -> dict[str, str]:
    commands = make_class(folder, with_js=False)
    for gone in ("coin", "tuned"):
        commands.pop(gone)
    rng = random.Random(36)

    def bot(name: str, text: str) -> None:
        (folder / name).mkdir()
        (folder / name / "bot.py").write_text(text)
        (folder / name / "botkit.py").write_text((folder / "strong" / "botkit.py").read_text())
        commands[name] = f"python3 {folder / name / 'bot.py'}"

    bot("medium_ren", reordered((folder / "medium_py" / "bot.py").read_text()))
    for i in range(22):
        # Every student plays a card when one plays (a bot that would rather draw is no honest attempt); the rest
        # of their idea of a good move is their own.
        weights = [round(3 + abs(rng.gauss(0, 1)), 3)] + [round(rng.gauss(0, 1), 3) for _ in range(5)]
        bot(f"w{i:02d}", WEIGHTED.format(weights=weights, name=f"w{i:02d}", seed=i))
        if i == 0:
            bot("w00_copy", COPIED.format(weights=[round(w, 1) for w in weights], seed=i))
    return commands


def lastcard(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee.cli.entry", *args], cwd=cwd, capture_output=True,
                          text=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--points", type=int, nargs="+", default=[25, 50, 100, 200, 400])
    ap.add_argument("--games", type=int, default=8, help="games per bot in the sampled league")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--sandbox", default="auto")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3], help="draws of the points, each run")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="similar-bench-") as scratch:
        here = Path(scratch)
        commands = make(here / "bots")
        bots = "\n".join(f"  - {{name: {n}, command: '{c}'}}" for n, c in commands.items())
        (here / "class.yaml").write_text(f"name: class\nseed: 7\nruleset: family\nseats: 4\nformat: sampled\n"
                                         f"games: {args.games}\nbootstrap: 0\nbots:\n{bots}\n")
        t0 = time.monotonic()
        res = lastcard(here, "arena", "class.yaml", "--out", "out", "--quiet", "--no-report", "--jobs",
                       str(args.jobs), "--sandbox", args.sandbox)
        if res.returncode:
            sys.exit(res.stderr)
        honest = len(commands) - 2 * len(PLANTED)
        print(f"class of {len(commands)} ({honest} honest, {len(PLANTED)} planted pairs); arena "
              f"{time.monotonic() - t0:.1f} s; load {os.getloadavg()[0]:.1f}")
        print(f"{'points':>6} {'similar_s':>9} {'planted min kappa':>18} {'honest max kappa':>24} "
              f"{'separated':>10}")
        separated: dict[int, bool] = {}
        for n in args.points:
            took, planted, honest, ok = [], [], [], 0
            for seed in args.seeds:
                t1 = time.monotonic()
                res = lastcard(here, "similar", "out", "--points", str(n), "--seed", str(seed), "--jobs",
                               str(args.jobs))
                took.append(time.monotonic() - t1)
                if res.returncode:
                    sys.exit(res.stderr)
                rows = list(csv.DictReader((here / "out" / "similarity.csv").open()))
                pair = {tuple(sorted((r["bot_a"], r["bot_b"]))): r for r in rows}
                planted += [float(pair[p]["kappa"]) if p in pair else float("nan") for p in sorted(PLANTED)]
                honest += [(float(r["kappa"]), "/".join(k)) for k, r in pair.items() if k not in PLANTED]
                ok += (all(p in pair and pair[p]["stands_out"] == "yes" for p in PLANTED)
                       and not any(r["stands_out"] == "yes" for k, r in pair.items() if k not in PLANTED))
            separated[n] = ok == len(args.seeds)
            worst = max(honest)
            print(f"{n:>6} {statistics.median(took):>9.1f} {min(planted):>18.2f} {worst[0]:>10.2f} {worst[1]:>13} "
                  f"{ok:>6}/{len(args.seeds)}")
        # The smallest number of points from which every seed separates the pairs, at it and at every larger one.
        steady = [n for n in args.points if all(separated[m] for m in args.points if m >= n)]
        print(f"planted pairs separated on every seed from {min(steady) if steady else 'none'} points on "
              f"(similar's time is the median over the seeds); load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
