"""The pure and the compiled build (setup.py, mypyc) behave alike at the engine's public entry points.

A compiled function checks its arguments' types at the call, so each entry point that takes outside data
(wire, YAML, a command line) checks it itself first: bad input gets the same clear error on both builds.
CI runs this file on both (``LASTCARD_EXPECT_BUILD`` says which build the run must be on).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

import referee
from referee.engine.actions import PLAY, Action, InvalidActionError
from referee.engine.cards import Card, InvalidCardError
from referee.engine.game import Game, shuffle
from referee.engine.rules import RulesetError, check_players, get_ruleset
from referee.players import Player, SeatView, make_player


def test_the_build_in_use_is_the_one_expected():
    """``LASTCARD_EXPECT_BUILD=compiled|pure`` (CI) makes a silent fallback to the other build a failure."""
    expected = os.environ.get("LASTCARD_EXPECT_BUILD")
    if expected is None:
        pytest.skip("LASTCARD_EXPECT_BUILD is not set (CI sets it)")
    assert expected in ("compiled", "pure")
    assert referee.compiled() is (expected == "compiled"), f"running the {referee.build()} build"


@pytest.mark.slow
def test_lastcard_version_names_the_build():
    out = subprocess.run([sys.executable, "-m", "referee.cli.entry", "--version"], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == f"lastcard, version {referee.__version__} ({referee.build()})"
    assert referee.build() == ("compiled with mypyc" if referee.compiled() else "pure Python")


def test_a_tree_compiled_in_place_holds_its_modules_bytecode():
    """``LASTCARD_COMPILE=1 pip install -e .`` byte-compiles the interpreted modules beside their sources, checked
    against the source's hash: where PYTHONDONTWRITEBYTECODE is set, Python would otherwise compile each one at
    every start-up, and an edited source is still compiled afresh (the check), never run stale."""
    import importlib.util

    from referee.arena import config

    package = os.path.dirname(os.path.abspath(referee.__file__))
    if not referee.compiled() or os.path.basename(os.path.dirname(package)) in ("site-packages", "dist-packages"):
        pytest.skip("not a tree compiled in place (a wheel's install byte-compiles it; a pure tree is not built)")
    cached = importlib.util.cache_from_source(config.__file__)
    assert os.path.exists(cached), f"no {cached}: re-run LASTCARD_COMPILE=1 pip install -e ."
    with open(cached, "rb") as pyc:
        flags = int.from_bytes(pyc.read(8)[4:8], "little")
    assert flags == 0b11, "a hash-based .pyc, checked against its source at each import (PEP 552)"


def test_the_per_decision_path_is_compiled_with_the_engine():
    """The referee's side of a move (the events told, the turn line, the bot client, the pipes) is in the
    compiled set."""
    from referee.bots.pipes import client, lines, transport
    from referee.protocol import messages, relay

    for module in (relay, messages, client, lines, transport):
        assert (module.__file__ or "").endswith(".py") is not referee.compiled(), module.__name__


def test_the_reports_tape_of_a_game_is_compiled():
    """The report makes a tape of every game of its page (most of its time): compiled with the engine it replays."""
    from referee.html_report import tape

    assert (tape.__file__ or "").endswith(".py") is not referee.compiled()


def test_a_bad_answer_line_gets_the_same_fault_on_both_builds():
    """A line that is not one message is judged by the same words whichever build reads it."""
    from referee.bots.pipes.lines import Mistake, judge

    problem = judge(b'{"type": "draw", "id": 1}{"type": "pass", "id": 1}', "python")
    assert not isinstance(problem, dict) and problem.mistake is Mistake.SEVERAL
    assert problem.message.startswith("2 JSON messages on one line; the referee reads one message per line: ")


@pytest.mark.parametrize("code", [None, 7, 7.0, b"red:7", ["red:7"], {"red": 7}], ids=repr)
def test_a_card_code_of_another_type_is_an_invalid_card(code):
    with pytest.raises(InvalidCardError, match=r"invalid card code .*expected 'colour:rank'"):
        Card.from_code(code)


@pytest.mark.parametrize("msg", [None, "play", ["play"], 3], ids=repr)
def test_an_answer_that_is_not_an_object_is_an_invalid_action(msg):
    with pytest.raises(InvalidActionError, match="an action is a JSON object, got"):
        Action.from_wire(msg)


def test_an_answer_with_cards_of_another_type_is_an_invalid_action():
    with pytest.raises(InvalidActionError, match=r"invalid card code 7"):
        Action.from_wire({"type": "play", "cards": [7]})


def test_an_action_takes_its_kind_as_a_string():
    action = Action("play", (Card.from_code("red:7"),))
    assert action.kind is PLAY and action == Action(PLAY, (Card.from_code("red:7"),))
    with pytest.raises(ValueError, match="'jump' is not a valid ActionKind"):
        Action("jump")


@pytest.mark.parametrize("name", [None, 3, ["family"]], ids=repr)
def test_a_ruleset_name_of_another_type_is_an_unknown_ruleset(name):
    with pytest.raises(RulesetError, match=r"unknown ruleset .*; the rulesets are: compact, family, arcade"):
        get_ruleset(name)


@pytest.mark.parametrize("key", [1, None, ("stacking",)], ids=repr)
def test_an_option_name_of_another_type_is_an_unknown_option(key):
    with pytest.raises(RulesetError, match=r"unknown option .*; the options are: deck, "):
        get_ruleset("family", {key: True})


@pytest.mark.parametrize("n", ["4", 4.0, None, True], ids=repr)
def test_a_table_size_that_is_not_a_whole_number_is_refused(n):
    with pytest.raises(RulesetError, match="the number of players is a whole number from 2 to 6"):
        check_players(n)


def test_a_table_size_out_of_range_is_refused():
    with pytest.raises(RulesetError, match="7 players: Last Card is played by 2 to 6 players"):
        check_players(7)


@pytest.mark.parametrize("name", [None, 1, ["easy"]], ids=repr)
def test_a_player_name_of_another_type_is_an_unknown_built_in(name):
    with pytest.raises(ValueError, match=r"unknown built-in player .*; built-ins: random, easy, medium, hard"):
        make_player(name)


@pytest.mark.parametrize("seed", ["1", 1.5, None, False], ids=repr)
def test_a_player_seed_that_is_not_a_whole_number_is_refused(seed):
    with pytest.raises(ValueError, match="a built-in player's seed is a whole number, got"):
        make_player("easy", seed)


def test_shuffle_takes_a_list_of_anything():
    ours, theirs = random.Random(5), random.Random(5)
    a, b = list("abcdefgh"), list("abcdefgh")
    shuffle(a, ours)
    theirs.shuffle(b)
    assert a == b


class Cautious(Player):
    """A player written in Python on the built-in base (a compiled Player must allow it)."""

    name = "cautious"

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        plays = [a for a in legal if a.kind is PLAY]
        return self.rng.choice(plays or legal)


def test_a_python_subclass_of_player_plays_a_game():
    rng = random.Random(3)
    game = Game(get_ruleset("family", {"target": "round"}), 3, rng)
    players = [Cautious(1), make_player("easy", 2), Cautious(3)]
    while not game.over:
        seat = game.current
        legal = game.legal_actions()
        action = players[seat].choose(SeatView(game, seat), legal)
        assert action in legal
        game.apply(action, rng)
    assert sorted(game.outcome.placements)[0] == 1 and players[0].name == "cautious"
