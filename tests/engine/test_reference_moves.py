"""``legal_actions()`` against the reference generator (tests/support/reference_moves.py) at every step of seeded games.

Every ruleset with every combination of the options that change what is legal (Wild Draw Four rule,
multi-card plays, stacking, draw until playable, last-card call, match or tender), the opening and the
deck taken in turn, 2 to 6 seats. CI plays one game per option set with short move limits (a few seconds);
``LASTCARD_SOAK=1`` plays every table size, several seeds each, at the rulesets' own move limits.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from referee.engine.game import Game
from referee.engine.rules import get_ruleset, option_grid
from referee.players import SeatView, make_player
from tests.support.reference_moves import engine_moves, reference_moves

SOAK = os.environ.get("LASTCARD_SOAK") == "1"
_MIXES = (("random",) * 6, ("easy", "medium", "hard", "random", "hard", "medium"), ("hard",) * 6)


OPTION_SETS = option_grid()


def _label(house: str, opts: dict[str, Any]) -> str:
    flags = [k for k in ("multi_play", "stacking", "draw_until_playable") if opts[k]]
    return "-".join([house, opts["wild_draw_four"], opts["last_card_call"], opts["end"], opts["opening"],
                     opts["deck"], *flags])


def check_game(house: str, opts: dict[str, Any], players: int, seed: int, move_limit: int | None) -> int:
    """Play one seeded game, comparing the legal list with the reference at every decision; returns decisions."""
    if move_limit is not None:
        opts = {**opts, "move_limit": move_limit}
    rng = random.Random(seed)
    game = Game(get_ruleset(house, opts), players, rng)
    mix = _MIXES[seed % len(_MIXES)]
    seats = [make_player(mix[i], seed * 11 + i) for i in range(players)]
    views = [SeatView(game, i) for i in range(players)]
    decisions = 0
    while not game.over:
        legal = game.legal_actions()
        got = engine_moves(legal)
        want = reference_moves(game)
        assert len(got) == len(set(got)), f"duplicates in legal_actions(): {got}"
        if set(got) != want:
            raise AssertionError(
                f"{house} {opts} seed {seed}, decision {decisions}, phase {game.phase}, hand "
                f"{[c.code for c in game.hands[game.current]]}, top {game.top.code}, colour {game.colour}, "
                f"pending {game.pending}: engine only {sorted(set(got) - want, key=str)}, "
                f"reference only {sorted(want - set(got), key=str)}")
        seat = game.current
        game.apply(seats[seat].choose(views[seat], legal), rng)
        decisions += 1
    assert reference_moves(game) == set() and game.legal_actions() == []
    return decisions


@pytest.mark.parametrize("index", range(len(OPTION_SETS)), ids=[_label(*o) for o in OPTION_SETS])
def test_legal_actions_match_the_reference(index):
    house, opts = OPTION_SETS[index]
    players = 2 + index % 5
    # Short games reach every phase often; a longer one every few sets reaches reshuffles and empty piles.
    decisions = check_game(house, opts, players, seed=index, move_limit=(40, 80, 300)[index % 3])
    assert decisions > 0


@pytest.mark.soak
@pytest.mark.skipif(not SOAK, reason="the full reference comparison runs with LASTCARD_SOAK=1")
@pytest.mark.parametrize("index", range(len(OPTION_SETS)), ids=[_label(*o) for o in OPTION_SETS])
def test_legal_actions_match_the_reference_soak(index):
    house, opts = OPTION_SETS[index]
    for players in range(2, 7):
        for seed in range(4):
            check_game(house, opts, players, seed=10_000 + 100 * index + 10 * players + seed, move_limit=None)
