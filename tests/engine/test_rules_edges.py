"""Edge cases a rewrite of the engine could get wrong while every ordinary game still looks right.

- a reshuffle really shuffles: the new draw pile is not the old discard in its old order;
- a two-player opening Reverse acts as a Skip (ruling 4) where openings act, and is only a card in arcade;
- a missed last-card call in a tender (arcade) game with nothing left to draw: the forfeit takes the card
  the play just covered (a reshuffle of one), and only the next draw, finding nothing, ends the game.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from referee.engine.outcome import EndReason
from tests.support.rulecases import act, find_opening, make_state, opening_top

UNDER = ["teal:2", "coral:3", "amber:4", "violet:5", "teal:6", "coral:7", "amber:8", "violet:9", "teal:10",
         "coral:2", "amber:3", "violet:4", "teal:5", "coral:6", "amber:7", "violet:8", "teal:9", "coral:10"]


def _reshuffled(seed: int) -> list[str]:
    """The draw pile made by the reshuffle a draw from an empty pile causes, in drawing order."""
    game = make_state("compact", hands=[["violet:2", "violet:3"], ["amber:9"]], top="teal:3", draw=[],
                      discard=UNDER)
    game.apply(act("draw"), random.Random(seed))
    assert [e["kind"] for e in game.events][:1] == ["reshuffle"]
    drawn = game.hands[0][-1].code
    # The engine draws from the end of its list: the drawn card was the new pile's first.
    return [drawn] + [c.code for c in reversed(game.draw_pile)]


@pytest.mark.parametrize("seed", range(5))
def test_a_reshuffle_really_shuffles(seed):
    pile = _reshuffled(seed)
    assert Counter(pile) == Counter(UNDER), "the reshuffle keeps exactly the cards under the top card"
    assert pile != UNDER and pile != UNDER[::-1], "the new draw pile is the old discard in order"


def test_a_reshuffle_depends_on_the_seed():
    assert len({tuple(_reshuffled(seed)) for seed in range(5)}) == 5


@pytest.mark.parametrize("house", ["compact", "family"])
def test_a_two_player_opening_reverse_skips_the_first_player(house):
    """Ruling 4, with the openings that act: the first player is skipped, the dealer plays, no direction change."""
    game = find_opening(house, 2, lambda g: opening_top(g).rank == "reverse",
                        options=None if house == "compact" else {"target": "round"})
    deal = game.events[0]
    first = deal["first"]
    assert first == (deal["dealer"] + 1) % 2
    kinds = [e["kind"] for e in game.events if e["kind"] not in ("deal", "bury")]
    assert kinds == ["skip"] and game.events[-1]["seat"] == first
    assert game.current == deal["dealer"] and game.direction == 1


def test_a_two_player_opening_reverse_is_only_a_card_in_arcade():
    game = find_opening("arcade", 2, lambda g: opening_top(g).rank == "reverse")
    deal = game.events[0]
    assert [e["kind"] for e in game.events if e["kind"] not in ("deal", "bury")] == []
    assert game.current == deal["first"] and game.direction == 1


def test_a_missed_call_in_tender_with_nothing_left_to_draw_takes_the_covered_card():
    """arcade, draw pile empty and nothing under the top card: the play stands, and the forfeit draw reshuffles
    the card it just covered and takes it, so the game goes on (it is not a draw that finds nothing)."""
    game = make_state("arcade", hands=[["red:5", "red:9"], ["blue:2", "green:3", "yellow:1"]], top="red:3",
                      draw=[], discard=[])
    game.apply(act("play red:5"), random.Random(0))
    kinds = [e["kind"] for e in game.events]
    assert kinds == ["play", "forfeit", "reshuffle", "draw"], kinds
    assert game.events[1]["seat"] == 0 and game.events[2]["count"] == 1
    assert game.events[3]["count"] == 1 and game.events[3]["secret"][0]["cards"] == ["red:3"]
    assert [c.code for c in game.hands[0]] == ["red:9", "red:3"]
    assert game.draw_pile == [] and [c.code for c in game.discard] == ["red:5"]
    assert not game.over and game.current == 1 and game.move == 1
    # The next draw really finds nothing, and in a tender game that ends it.
    game.apply(act("draw"), random.Random(0))
    end = game.events[-2]
    assert end["kind"] == "round_end" and end["reason"] == "nothing_to_draw" and end["points"] == [12, 6]
    assert game.over and game.outcome is not None
    assert game.outcome.reason is EndReason.TENDER and game.outcome.winner == 1
    assert game.outcome.placements == (2, 1)
    assert game.result == {"reason": "tender", "winner": 1, "placements": [2, 1], "scores": [0, 0],
                           "points": [12, 6], "rounds": 1}
