"""The compact action format: exact round trips, readable codes, clear errors, and games rebuilt from it."""

from __future__ import annotations

import random

import pytest

from referee.bots.pool import BotPool
from referee.bots.spec import BotSpec
from referee.engine.actions import COLOUR, DRAW_ACTION, PASS_ACTION, PLAY, Action
from referee.engine.cards import Card
from referee.engine.game import Game
from referee.engine.notation import (
    InvalidReplayError,
    StoredGame,
    decode_action,
    decode_actions,
    encode_action,
    encode_actions,
    rebuild,
    stand_in_turns,
)
from referee.engine.rules import get_ruleset
from referee.table.table import Table, seat_for

C = Card.from_code

# Rulesets whose games between them meet every kind of action: opening colours, stacks, multi-plays, calls.
RULESETS = [
    pytest.param("compact", {}, id="compact"),
    pytest.param("family", {}, id="family"),
    pytest.param("arcade", {}, id="arcade"),
    pytest.param("family", {"stacking": True, "draw_until_playable": True, "target": "round"}, id="family-stacking"),
    pytest.param("arcade", {"stacking": True}, id="arcade-stacking"),
]


def random_game_actions(ruleset: str, options: dict, seed: int, players: int) -> list[Action]:
    """A seeded random playout straight on the engine, picking any legal action (bots never reach some)."""
    pick = random.Random(seed ^ 0x5EED)
    rng = random.Random(seed)
    game = Game(get_ruleset(ruleset, options), players, rng)
    actions = []
    while not game.over:
        action = pick.choice(game.legal_actions())
        actions.append(action)
        game.apply(action, rng)
    return actions


@pytest.mark.parametrize(("ruleset", "options"), RULESETS)
def test_every_action_of_random_games_round_trips_exactly(ruleset, options):
    seen_kinds = set()
    for seed in range(12):
        actions = random_game_actions(ruleset, options, seed, 2 + seed % 5)
        text = encode_actions(actions)
        assert decode_actions(text) == actions
        assert encode_actions(decode_actions(text)) == text
        seen_kinds |= {(a.kind, len(a.cards) > 1, a.colour is not None, a.call) for a in actions}
    assert ("play", False, False, False) in seen_kinds and ("draw", False, False, False) in seen_kinds
    if ruleset == "arcade":  # multi-card plays and the last-card call are really exercised
        assert ("play", True, False, True) in seen_kinds or ("play", True, False, False) in seen_kinds
        assert any(kind == "play" and call for kind, _, _, call in seen_kinds)


@pytest.mark.parametrize(("code", "action"), [
    pytest.param("d", DRAW_ACTION, id="draw"),
    pytest.param("p", PASS_ACTION, id="pass"),
    pytest.param("@g", Action(COLOUR, colour="green"), id="name-colour"),
    pytest.param("t7", Action(PLAY, (C("teal:7"),)), id="number"),
    pytest.param("r10", Action(PLAY, (C("red:10"),)), id="ten"),
    pytest.param("c0", Action(PLAY, (C("coral:0"),)), id="coral-zero-not-colour"),
    pytest.param("as", Action(PLAY, (C("amber:skip"),)), id="skip"),
    pytest.param("vr", Action(PLAY, (C("violet:reverse"),)), id="reverse"),
    pytest.param("yd", Action(PLAY, (C("yellow:draw2"),)), id="draw-two"),
    pytest.param("wr", Action(PLAY, (C("wild"),), "red"), id="wild-naming-red"),
    pytest.param("w4b", Action(PLAY, (C("wild4"),), "blue"), id="wild4-naming-blue"),
    pytest.param("w", Action(PLAY, (C("wild"),)), id="wild-without-colour"),
    pytest.param("w4", Action(PLAY, (C("wild4"),)), id="wild4-without-colour"),
    pytest.param("g7.b7.r7+", Action(PLAY, (C("green:7"), C("blue:7"), C("red:7")), None, True), id="multi-call"),
    pytest.param("g5=g", Action(PLAY, (C("green:5"),), "green"), id="colour-on-coloured-card"),
    pytest.param("r1+", Action(PLAY, (C("red:1"),), None, True), id="call"),
])
def test_codes_read_as_documented(code, action):
    assert decode_action(code) == action
    assert encode_action(action) == code


@pytest.mark.parametrize("bad", ["x7", "t", "t11", "q", "@", "@x", "@rr", "wz", "t7..t7", "r7=", "w44", "D"])
def test_bad_codes_are_refused_naming_the_code_and_its_place(bad):
    with pytest.raises(InvalidReplayError) as err:
        decode_actions(f"d {bad} p")
    assert "action 1" in str(err.value) and repr(bad) in str(err.value)


def test_stand_in_marks_change_nothing_but_are_found():
    actions = random_game_actions("compact", {}, 3, 3)[:10]
    text = encode_actions(actions, stand_ins={2, 7})
    assert decode_actions(text) == actions
    assert stand_in_turns(text) == [2, 7]
    assert text.split()[2].endswith("!") and not text.split()[3].endswith("!")


def play(ruleset: str, options: dict, names: list[str], seed: int):
    with BotPool() as pool:
        seats = [seat_for(BotSpec(f"{n}#{i}", f"builtin:{n}"), pool) for i, n in enumerate(names)]
        return Table(get_ruleset(ruleset, options), seats, seed, "g7").play()


@pytest.mark.parametrize(("ruleset", "options"), RULESETS)
def test_a_played_game_is_rebuilt_from_its_compact_form(ruleset, options):
    result = play(ruleset, options, ["hard", "random", "medium", "easy"], 11)
    stored = StoredGame.from_json(result.to_json())
    game, frames = rebuild(stored, frames=True)
    assert game.over
    assert game.outcome.placements == result.game_placements
    assert game.outcome.scores == result.scores
    assert game.move == result.moves
    assert [f.action for f in frames[:-1]] == decode_actions(result.actions)
    assert frames[-1].seat is None and frames[0].turn == 0 and frames[0].events[0]["kind"] == "deal"
    # Every card is somewhere in every frame (hands + piles is the deck size).
    deck = sum(map(len, frames[0].hands)) + frames[0].draw_pile
    assert all(sum(map(len, f.hands)) + f.draw_pile <= deck for f in frames)


def test_rebuild_refuses_an_illegal_action_naming_it():
    actions = random_game_actions("compact", {}, 5, 2)
    bad = encode_actions(actions[:3]) + " r5"  # red is not a colour of the compact deck: in no hand
    with pytest.raises(InvalidReplayError, match=r"action 3 .* is not legal"):
        rebuild(StoredGame("g1", 5, "compact", {}, ("a", "b"), bad))


def test_a_full_record_gives_the_same_stored_game_as_the_result():
    from referee.table.table import Recorder

    recorder = Recorder()
    with BotPool() as pool:
        seats = [seat_for(BotSpec(n, f"builtin:{n}"), pool) for n in ("easy", "random", "hard")]
        result = Table(get_ruleset("arcade"), seats, 4, "g2", recorder=recorder).play()
    stored = StoredGame.from_record(recorder.lines)
    assert stored == StoredGame.from_json(result.to_json())


def test_a_result_without_actions_says_why_it_cannot_be_replayed():
    with pytest.raises(InvalidReplayError, match="no actions"):
        StoredGame.from_json({"game": "g3", "seed": 1, "ruleset": "compact", "seating": ["a", "b"]})
