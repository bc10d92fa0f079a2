"""The matching rule stated once (``referee.engine.game.plays_on``), and the fast paths agreeing with it."""

from __future__ import annotations

import random

import pytest

from referee.engine.actions import DRAW, PLAY
from referee.engine.cards import Card
from referee.engine.game import PHASE_DRAWN, PHASE_PLAY, Game, plays_on
from referee.engine.rules import get_ruleset
from referee.players import SeatView, make_player


@pytest.mark.parametrize("card, colour, rank, wd4_ok, plays", [
    ("red:7", "red", "3", True, True),
    ("blue:3", "red", "3", True, True),
    ("blue:7", "red", "3", True, False),
    ("wild", "red", "3", False, True),
    ("wild4", "red", "3", True, True),
    ("wild4", "red", "3", False, False),
    ("blue:skip", None, "skip", True, True),
    ("red:skip", None, "draw2", True, False),
], ids=["same-colour", "same-rank", "neither", "a-wild-always", "a-wild-draw-four-when-allowed",
        "a-wild-draw-four-when-not", "no-colour-in-play-rank-only", "no-colour-in-play-other-rank"])
def test_a_card_plays_on_the_colour_the_rank_or_as_a_wild(card: str, colour: str | None, rank: str, wd4_ok: bool,
                                                           plays: bool) -> None:
    assert plays_on(Card.from_code(card), colour, rank, wd4_ok) is plays


@pytest.mark.parametrize("house, options", [
    ("family", {}), ("compact", {"draw_until_playable": True}), ("arcade", {}),
    ("family", {"wild_draw_four": "restricted"}),
])
def test_legal_plays_and_drawn_cards_follow_the_one_rule(house: str, options: dict) -> None:
    """In seeded playouts: every normal turn's single plays are exactly the hand's cards the rule accepts,
    and a drawn card is offered exactly when the rule accepts it."""
    rules = get_ruleset(house, options)
    checked = drawn = 0
    for seed in range(12):
        rng = random.Random(seed)
        game = Game(rules, 3, rng)
        players = [make_player("random", seed * 10 + s) for s in range(3)]
        while not game.over:
            legal = game.legal_actions()
            seat = game.current
            facing = (game.colour, game.top.rank) if game.phase is PHASE_PLAY and not game.pending else None
            if facing is not None:
                ok = game._wild_draw_four_allowed()
                expected = {c for c in game.hands[seat] if plays_on(c, *facing, ok)}
                assert {a.cards[0] for a in legal if a.kind == PLAY and len(a.cards) == 1} == expected
                checked += 1
            size = len(game.hands[seat])
            action = players[seat].choose(SeatView(game, seat), legal)
            game.apply(action, rng)
            if action.kind == DRAW and facing is not None and not game.over and len(game.hands[seat]) == size + 1:
                hand = game.hands[seat]
                card = hand[-1]  # one card drawn: offered exactly when it plays
                # (the turn may have passed on, so the Wild Draw Four's condition is read off the drawer's hand)
                ok = rules.wild_draw_four != "restricted" or all(c.colour != facing[0] for c in hand)
                assert (game.phase is PHASE_DRAWN) is plays_on(card, *facing, ok)
                drawn += 1
    assert checked > 100 and drawn > 10
