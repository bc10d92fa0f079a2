"""A digest of many seeded games: the same digest before and after an engine change means the same games.

    .venv/bin/python bench/game_digest.py            # 3 rulesets x 64 option sets x 2 seeds, 2-6 seats
    .venv/bin/python bench/game_digest.py --seeds 5  # more games

Every ruleset is played with each combination of the six options that change play (Wild Draw Four rule,
multi-play, stacking, draw until playable, last-card call, match or tender), the opening and the deck
taken in turn, at every table size from 2 to 6, by a mix of the built-in players. The sha256 covers,
for every decision, the legal list in its wire form and the action taken, then every event and the
result of the game. Only the ``drawn`` flag of a ``play`` event (a protocol v1 addition) is left out,
so a digest taken before that field existed still compares.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.engine.game import Game  # noqa: E402
from referee.engine.rules import Ruleset, get_ruleset, option_grid  # noqa: E402
from referee.players import SeatView, make_player  # noqa: E402

_MIXES = (("random",) * 6, ("easy", "medium", "hard", "random", "hard", "medium"), ("hard",) * 6)


def option_sets() -> list[tuple[str, dict[str, Any]]]:
    """Every ruleset with every combination of the options that change play, each with its own move limit."""
    return [(house, {**opts, "move_limit": 150 + 50 * (i % 4)})
            for i, (house, opts) in enumerate(option_grid())]


def _plain(event: dict[str, Any]) -> dict[str, Any]:
    if event["kind"] == "play" and "drawn" in event:
        return {k: v for k, v in event.items() if k != "drawn"}
    return event


def play(rules: Ruleset, seats: int, seed: int, mix: tuple[str, ...]) -> tuple[bytes, int]:
    """One game's digest input and its number of decisions."""
    rng = random.Random(seed)
    game = Game(rules, seats, rng)
    players = [make_player(mix[i], seed * 7 + i) for i in range(seats)]
    views = [SeatView(game, i) for i in range(seats)]
    trace = []
    while not game.over:
        seat = game.current
        legal = game.legal_actions()
        action = players[seat].choose(views[seat], legal)
        trace.append((seat, [a.to_wire() for a in legal], action.to_wire()))
        game.apply(action, rng)
    outcome = game.result
    body = {"trace": trace, "events": [_plain(e) for e in game.events], "result": outcome}
    return json.dumps(body, sort_keys=True, default=str).encode(), len(trace)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=2, help="games per option set and table size")
    ap.add_argument("--sizes", type=int, nargs="+", default=[2, 3, 4, 5, 6])
    args = ap.parse_args()
    digest = hashlib.sha256()
    games = decisions = 0
    for k, (house, opts) in enumerate(option_sets()):
        rules = get_ruleset(house, opts)
        for n in args.sizes:
            for s in range(args.seeds):
                seed = 1000 * k + 10 * n + s
                data, d = play(rules, n, seed, _MIXES[(k + n + s) % len(_MIXES)])
                digest.update(data)
                games += 1
                decisions += d
    print(f"{games} games, {decisions} decisions, sha256 {digest.hexdigest()}")


if __name__ == "__main__":
    main()
