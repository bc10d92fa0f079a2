"""The built-in players: the family document's difficulties really differ in strength, and each
player sees only what its seat may see."""

from __future__ import annotations

import random

import pytest

from referee.engine.cards import Card
from referee.engine.game import Game, Phase
from referee.engine.rules import get_ruleset
from referee.players import SeatView, make_player

SHORT = {"compact": {"target": 500}, "family": {"target": "round"}, "arcade": {}}


def average_places(ruleset: str, games: int) -> dict[str, float]:
    """Four difficulties at one table, seats rotating, fixed seeds."""
    names = ["hard", "medium", "easy", "random"]
    total = dict.fromkeys(names, 0)
    rules = get_ruleset(ruleset, SHORT[ruleset])
    for seed in range(games):
        k = seed % 4
        seating = names[k:] + names[:k]
        rng = random.Random(seed)
        game = Game(rules, 4, rng)
        players = [make_player(n, seed * 10 + i) for i, n in enumerate(seating)]
        while not game.over:
            s = game.current
            action = players[s].choose(SeatView(game, s), game.legal_actions())
            game.apply(action, rng)
        for seat, name in enumerate(seating):
            total[name] += game.result["placements"][seat]
    return {n: t / games for n, t in total.items()}


@pytest.mark.parametrize("ruleset", ["compact", "family", "arcade"])
def test_difficulties_are_ordered(ruleset):
    places = average_places(ruleset, 120)
    # Every difficulty beats random play clearly, and hard beats easy.
    assert places["random"] > max(places["easy"], places["medium"], places["hard"]) + 0.5, places
    assert places["hard"] < places["easy"], places


def test_hard_keeps_its_wild_until_nothing_else_plays_and_names_its_commonest_colour():
    game = Game(get_ruleset("family"), 2, random.Random(1))
    game.top, game.colour, game.phase = Card.from_code("green:7"), "green", Phase.PLAY
    hard = make_player("hard")
    game.hands[game.current] = [Card.from_code(c) for c in ("wild", "blue:3", "blue:5", "green:9", "red:2")]
    action = hard.choose(SeatView(game, game.current), game.legal_actions())
    assert action.cards == (Card.from_code("green:9"),)  # a coloured card plays: the wild is kept
    game.hands[game.current] = [Card.from_code(c) for c in ("wild", "blue:3", "blue:5", "blue:9", "red:2")]
    action = hard.choose(SeatView(game, game.current), game.legal_actions())
    assert action.cards == (Card.from_code("wild"),) and action.colour == "blue"


def test_seat_view_shows_only_the_seat_s_own_hand():
    game = Game(get_ruleset("compact"), 3, random.Random(4))
    view = SeatView(game, 1)
    assert view.hand == game.hands[1] and view.hand is not game.hands[1]
    assert view.hand_sizes == [len(h) for h in game.hands]
    assert not hasattr(view, "hands") and not hasattr(view, "draw_pile_cards")
    assert isinstance(view.draw_pile, int)
