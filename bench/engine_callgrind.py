"""A fixed engine workload for instruction counts: repeatable where wall-clock timing is not.

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out python bench/engine_callgrind.py
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.0 python bench/engine_callgrind.py --games 0

The difference of the two "I refs" totals is the engine's share (the second run is interpreter start-up
and imports). Run the script once without valgrind first: a run that has to compile the modules (no
``__pycache__`` yet) counts the compiling too, which skews whichever run comes first.
The same code gives the same count on a busy machine, so two versions of the engine can
be compared to within a fraction of a percent (fix PYTHONHASHSEED: string hashing is salted per
process, which moves the count by about 1%); the printed decision count and digest show that both
played the same games.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.engine.game import Game  # noqa: E402
from referee.engine.rules import get_ruleset  # noqa: E402
from referee.players import SeatView, make_player  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--ruleset", default="family")
    args = ap.parse_args()
    rules = get_ruleset(args.ruleset, {"target": "round"} if args.ruleset == "family" else {})
    decisions = 0
    digest = hashlib.sha256()
    for seed in range(args.games):
        n = 2 + seed % 3
        rng = random.Random(seed)
        game = Game(rules, n, rng)
        players = [make_player("random", seed * 7 + i) for i in range(n)]
        views = [SeatView(game, i) for i in range(n)]
        while not game.over:
            seat = game.current
            game.apply(players[seat].choose(views[seat], game.legal_actions()), rng)
            decisions += 1
        digest.update(repr(game.result).encode())
    print(f"{decisions} decisions, games digest {digest.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
