#!/usr/bin/env python3
"""How long can a turn's ``legal`` list get? The exact worst case, and the sizes seen in play.

Run by hand (not part of the test suite; protocol/PROTOCOL.md quotes its output)::

    python bench/legal_size.py [--games N] [--json FILE]

**Worst case.** ``Game.legal_actions`` is a sum of independent parts: for each distinct wild in
the hand, one play per colour; for each number or symbol (a *rank group*), the single plays of its
playable cards and, with ``multi_play``, every distinct (first, middle multiset, last) stack of the
group; plus one ``draw`` (or ``pass``). So the longest list for a hand of exactly k cards is a
knapsack over the rank groups: each group chooses how many copies of each colour it holds (within
what the deck has left after the top card), each choice costs that many cards and is worth the
entries the real engine lists for it. The one part that is not additive, the restricted Wild Draw
Four (legal only while the hand holds no card of the colour in play), is handled by solving twice:
once with the Wild Draw Four worth nothing, once with that colour's cards forbidden. Every top card
(one colour stands for all four: the rules are symmetric in colours) and, with ``stacking``, every
pending penalty is tried. The result is checked against the engine on the argmax hand itself.

**In play.** Seeded games between built-in players (``random`` and ``hard``), with the length of
every ``legal`` list and of every ``turn`` line in bytes.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # measure the working tree, not whatever copy is installed

from referee.engine.actions import DRAW, PASS  # noqa: E402
from referee.engine.cards import DECK_COLOURS, DECKS, WILD_RANKS, Card  # noqa: E402
from referee.engine.game import PHASE_PLAY, Game  # noqa: E402
from referee.engine.rules import Ruleset, get_ruleset  # noqa: E402
from referee.players import SeatView, make_player  # noqa: E402
from referee.protocol.messages import turn_request  # noqa: E402
from referee.protocol.wire import encode  # noqa: E402


def position(rs: Ruleset, players: int, hand: list[Card], top: Card, colour: str,
             pending: int = 0, pending_rank: str | None = None) -> Game:
    """A game where seat 0 holds ``hand`` and must act on ``top`` (``colour`` in play); a card to draw."""
    game = Game(rs, players, random.Random(0), dealer=players - 1)
    game.hands = [list(hand)] + [[top] for _ in range(players - 1)]
    game.draw_pile = [top]
    game.discard = [top]
    game.top, game.colour = top, colour
    game.current, game.direction, game.phase = 0, 1, PHASE_PLAY
    game.pending, game.pending_rank, game.drawn = pending, pending_rank, None
    game.events.clear()
    return game


def entries(game: Game) -> int:
    """Length of the legal list without its draw/pass entry."""
    return sum(1 for a in game.legal_actions() if a.kind not in (DRAW, PASS))


def worst_case(rs: Ruleset, players: int) -> dict[str, Any]:
    """The longest legal list for each hand size, over every top card (and pending penalty)."""
    deck = Counter(DECKS[rs.deck](players))
    colours = DECK_COLOURS[rs.deck]
    c0 = colours[0]  # colour symmetry: the colour in play is always the first one
    ranks = sorted({c.rank for c in deck if not c.is_wild}, key=lambda r: (not r.isdigit(), r.zfill(2)))
    situations: list[tuple[Card, str, int, str | None]] = []
    for rank in ranks:
        situations.append((Card.from_code(f"{c0}:{rank}"), c0, 0, None))
    for w in WILD_RANKS:
        situations.append((Card.from_code(w), c0, 0, None))
    if rs.stacking:
        situations.append((Card.from_code(f"{c0}:draw2"), c0, 2, "draw2"))
        situations.append((Card.from_code("wild4"), c0, 4, "wild4"))
    best: dict[int, tuple[int, list[Card], tuple]] = {}
    for top, colour, pending, pending_rank in situations:
        pool = Counter(deck)
        pool[top] -= 1
        cap = sum(pool.values()) - (players - 1)  # every other seat holds at least one card

        def value(cards: list[Card]) -> int:
            return entries(position(rs, players, cards, top, colour, pending, pending_rank))  # noqa: B023 - called at once, in this iteration

        def options(rank: str, forbid_colour: bool) -> list[tuple[int, int, list[Card]]]:
            """(cost, value, cards) for every choice of copies of one rank."""
            kinds = [Card.from_code(f"{c}:{rank}") for c in colours]
            out = []
            for counts in itertools.product(*(range(pool[k] + 1) for k in kinds)):  # noqa: B023 - called at once, in this iteration
                if forbid_colour and counts[0]:
                    continue
                cards = [k for k, n in zip(kinds, counts) for _ in range(n)]
                out.append((len(cards), value(cards) if cards else 0, cards))
            return out

        for forbid in (False, True) if rs.wild_draw_four == "restricted" else (False,):
            groups = [options(r, forbid) for r in ranks]
            for w in WILD_RANKS:
                card = Card.from_code(w)
                worth = value([card])
                if w == "wild4" and rs.wild_draw_four == "restricted" and not forbid:
                    worth = 0  # counted only in the pass where the colour in play is forbidden
                groups.append([(n, worth if n else 0, [card] * n) for n in range(pool[card] + 1)])
            # dp[k] = (best value with exactly k cards, choice per group)
            dp: dict[int, tuple[int, tuple]] = {0: (0, ())}
            for opts in groups:
                nxt: dict[int, tuple[int, tuple]] = {}
                for k, (v, picks) in dp.items():
                    for i, (cost, val, _) in enumerate(opts):
                        kk = k + cost
                        if kk > cap:
                            continue
                        if kk not in nxt or nxt[kk][0] < v + val:
                            nxt[kk] = (v + val, picks + (i,))
                dp = nxt
            for k, (v, picks) in dp.items():
                hand = [c for opts, i in zip(groups, picks) for c in opts[i][2]]
                if k not in best or best[k][0] < v:
                    best[k] = (v, hand, (top, colour, pending, pending_rank))
    # One draw (or pass) entry joins every list; check the top result against the engine itself.
    sizes = {k: v + 1 for k, (v, _, _) in sorted(best.items()) if k > 0}
    k_max = max(sizes, key=lambda k: (sizes[k], -k))
    v, hand, (top, colour, pending, pending_rank) = best[k_max]
    game = position(rs, players, hand, top, colour, pending, pending_rank)
    legal = game.legal_actions()
    assert len(legal) == sizes[k_max], (len(legal), sizes[k_max])
    line = encode(turn_request(game, 0, legal, 99999, 1000, 0))
    return {"sizes": sizes, "max": sizes[k_max], "at_hand_size": k_max, "top": top.code, "colour": colour,
            "pending": pending, "hand": sorted(c.code for c in hand), "turn_line_bytes": len(line) - 1}


def in_play(rs: Ruleset, players: int, games: int, who: str) -> dict[str, Any]:
    """Legal-list lengths and turn-line sizes over seeded games between built-in players."""
    lengths: list[int] = []
    line_bytes: list[int] = []
    hands: list[int] = []
    for seed in range(games):
        rng = random.Random(seed)
        ps = [make_player(who, seed * 10 + s) for s in range(players)]
        game = Game(rs, players, rng)
        req = 0
        while not game.over:
            s = game.current
            legal = game.legal_actions()
            req += 1
            lengths.append(len(legal))
            hands.append(len(game.hands[s]))
            if req % 7 == 0:  # the line size is sampled (encoding every turn is the slow part)
                line_bytes.append(len(encode(turn_request(game, s, legal, req, 1000, 0))) - 1)
            game.apply(ps[s].choose(SeatView(game, s), legal), rng)

    def q(xs: list[int], p: float) -> int:
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(p * len(xs)))]

    return {"turns": len(lengths), "median": statistics.median(lengths), "p99": q(lengths, 0.99),
            "p999": q(lengths, 0.999), "max": max(lengths), "max_hand": max(hands),
            "line_median": statistics.median(line_bytes), "line_p99": q(line_bytes, 0.99),
            "line_max": max(line_bytes)}


CONFIGS: list[tuple[str, str, dict[str, Any], int]] = [
    ("compact (2-4 players)", "compact", {}, 2),
    ("compact (5-6 players, two decks)", "compact", {}, 5),
    ("family", "family", {}, 2),
    ("family + stacking", "family", {"stacking": True}, 2),
    ("arcade", "arcade", {}, 2),
    ("arcade + stacking", "arcade", {"stacking": True}, 2),
    ("compact + multi_play (5-6 players)", "compact", {"multi_play": True, "wild_draw_four": "any"}, 5),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300, help="games per ruleset and player for the in-play sizes")
    ap.add_argument("--json", help="also write everything as JSON here")
    args = ap.parse_args()
    report: dict[str, Any] = {}
    print("worst case (exact): longest legal list, by hand size")
    for label, house, opts, players in CONFIGS:
        rs = get_ruleset(house, opts)
        w = worst_case(rs, players)
        report[label] = {"worst": w}
        at = {k: w["sizes"][k] for k in (1, 2, 3, 5, 7, 10, 15, 20, 30) if k in w["sizes"]}
        print(f"  {label:36s} max {w['max']:5d} (hand of {w['at_hand_size']}, top {w['top']}, "
              f"turn line {w['turn_line_bytes']:,} bytes)")
        print("      by hand size: " + ", ".join(f"{k}: {v}" for k, v in at.items()))
    print(f"\nin play: {args.games} seeded games per row")
    for house in ("compact", "family", "arcade"):
        rs = get_ruleset(house, {"target": "round"} if house == "family" else {})
        for players in (2, 4):
            for who in ("random", "hard"):
                r = in_play(rs, players, args.games, who)
                report.setdefault(f"{house} in play", {})[f"{players}p {who}"] = r
                print(f"  {house:8s} {players}p {who:6s} turns {r['turns']:7d}  legal median {r['median']:4}  "
                      f"p99 {r['p99']:4d}  p99.9 {r['p999']:4d}  max {r['max']:4d}  (largest hand {r['max_hand']:3d});"
                      f"  turn line median {r['line_median']:,.0f} B, p99 {r['line_p99']:,} B, max {r['line_max']:,} B")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(report, fh, indent=1)


if __name__ == "__main__":
    main()
