"""A finished game's ``Outcome``: a frozen record whose ``to_json()`` is the ``game_end`` event and ``game.result``."""

from __future__ import annotations

import dataclasses
import random

import pytest

from referee.engine.game import Game
from referee.engine.outcome import EndReason, Outcome
from referee.engine.rules import get_ruleset
from referee.players import SeatView, make_player


def _play(house: str, options: dict, players: int, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(get_ruleset(house, options), players, rng)
    seats = [make_player("easy", seed + i) for i in range(players)]
    views = [SeatView(game, i) for i in range(players)]
    while not game.over:
        game.apply(seats[game.current].choose(views[game.current], game.legal_actions()), rng)
    return game


@pytest.mark.parametrize("house,options", [("compact", {"target": 100}), ("family", {"target": "round"}),
                                           ("arcade", {}), ("arcade", {"move_limit": 10})])
@pytest.mark.parametrize("seed", range(3))
def test_the_outcome_is_the_game_end_event(house, options, seed):
    game = _play(house, options, 2 + seed, seed)
    outcome = game.outcome
    assert isinstance(outcome, Outcome) and isinstance(outcome.reason, EndReason)
    end = game.events[-1]
    assert end == {"kind": "game_end", **outcome.to_json()} and game.result == outcome.to_json()
    assert type(end["reason"]) is str, "events are plain wire data"
    assert outcome.moves == game.move and outcome.rounds == game.round
    assert list(outcome.scores) == game.scores and list(outcome.points) == game.hand_totals()
    assert sorted(outcome.placements)[0] == 1 and len(outcome.placements) == game.n
    with pytest.raises(dataclasses.FrozenInstanceError):
        outcome.winner = 0  # type: ignore[misc]


def test_an_unfinished_game_has_no_outcome():
    game = Game(get_ruleset("family"), 3, random.Random(1))
    assert game.outcome is None and game.result is None
