"""``lastcard play``: a person at the table, tested through a real terminal (pexpect) and a scripted reader."""

from __future__ import annotations

import io
import json
import os
import random
import sys
from types import SimpleNamespace

import pytest

from referee.engine.actions import PLAY
from referee.engine.game import Game
from referee.engine.rules import get_ruleset
from referee.table.human import HumanSeat, LeftTheGame, menu
from tests.conftest import PY, ROOT
from tests.support.procs import alive, children, wait_until

pexpect = pytest.importorskip("pexpect", reason="pexpect is not installed: pip install -e '.[test]'")

LASTCARD = os.path.join(os.path.dirname(sys.executable), "lastcard")
PROMPTS = [r"Your move \[1-(\d+), q to leave\]: ", r"Colour \[1-(\d+), q to leave\]: ", r"Call last card\?.*: ",
           r"Places: (.*)\.\r?\n", pexpect.EOF, r"Press Enter to (?:draw|pass) \(q to leave\): "]


def spawn(*args: str, colour: bool = False) -> pexpect.spawn:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    if not colour:
        env["NO_COLOR"] = "1"
    child = pexpect.spawn(LASTCARD, ["play", *args], env=env, encoding="utf-8", timeout=30, dimensions=(50, 200))
    child.logfile_read = io.StringIO()  # everything the player saw
    child.delaybeforesend = None  # pexpect waits 50 ms before each line by default: seconds over a whole game
    return child


def seen(child: pexpect.spawn) -> str:
    return child.logfile_read.getvalue()


def play_out(child: pexpect.spawn, pick=lambda count: 1) -> str:
    """Answer every prompt until the game ends; the places line."""
    for _ in range(2000):
        which = child.expect(PROMPTS)
        if which in (0, 1):
            child.sendline(str(pick(int(child.match.group(1)))))
        elif which == 2:
            child.sendline("y")
        elif which == 3:
            return child.match.group(1)
        elif which == 5:  # the only move: nothing to choose
            child.sendline("")
        else:
            raise AssertionError(f"the game ended without places: {child.before[-2000:]}")
    raise AssertionError("the game did not end")


@pytest.mark.slow
def test_a_whole_game_is_played_by_keys_and_saved_for_replay(tmp_path):
    saved = tmp_path / "game.jsonl"
    child = spawn("--ruleset", "family", "--option", "target=round", "--vs", "builtin:easy", "--vs", "builtin:random",
                  "--seed", "5", "--pace", "0", "--save", str(saved))
    chooser = random.Random(1)
    places = play_out(child, lambda count: chooser.randint(1, count))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert sorted(part.rsplit(" ", 1)[0] for part in places.split(", ")) == ["easy", "random", "you"]
    assert "Your hand: " in seen(child) and "\x1b[" not in seen(child)  # NO_COLOR: plain text
    # The saved record replays through the engine to the same game, event for event.
    from click.testing import CliRunner

    from referee.cli.main import cli

    out = CliRunner().invoke(cli, ["replay", str(saved), "--verify"])
    assert out.exit_code == 0 and "every recorded event" in out.output
    human = [e for e in map(json.loads, open(saved)) if e["t"] == "action" and e["by"] == "human"]
    assert human and all(entry["seat"] == 0 for entry in human)


@pytest.mark.slow
def test_bad_input_is_asked_again_with_the_reason():
    child = spawn("--ruleset", "compact", "--vs", "builtin:easy", "--seed", "2", "--pace", "0")
    child.expect(PROMPTS[0])
    count = int(child.match.group(1))
    child.sendline("seven")
    child.expect(r"'seven' is not a number: type the number of your choice, 1 to (\d+)")
    child.expect(PROMPTS[0])
    child.sendline(str(count + 1))
    child.expect(rf"{count + 1} is not one of the choices: type a number from 1 to {count}")
    child.expect(PROMPTS[0])
    child.sendline("q")
    child.expect("You left the game")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


@pytest.mark.slow
def test_the_banner_says_what_wins_and_a_forced_draw_is_said_not_asked():
    # Seed 8: at the person's first turn nothing in hand plays on the top card.
    child = spawn("--ruleset", "family", "--vs", "builtin:easy", "--seed", "8", "--pace", "0")
    child.expect(r"A match to 300 points: the winner of each round scores the points left in the other hands, "
                 r"and the first to reach 300 wins\.")
    child.expect(r"scores you 0, easy 0 \(the match is to 300\)")
    child.expect(r"Nothing in your hand plays on \S+ blue 4: you must draw\.")
    child.expect(PROMPTS[5])
    child.sendline("3")
    child.expect(r"'3': there is nothing to choose here; press Enter, or type q to leave")
    child.expect(PROMPTS[5])
    child.sendline("")
    child.expect(r"seat 0 \(you\) draws 1")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert "[1-1," not in seen(child)  # a menu of one is never offered


@pytest.mark.slow
@pytest.mark.parametrize("house, options, goal", [
    ("arcade", (), "A single game: the first to play their last card wins (if it stops first, the lowest hand wins)."),
    ("family", ("--option", "target=round"), "A single round: the first to play their last card wins."),
    ("compact", (), "A match to 500 points:"),
], ids=["tender", "one-round", "match"])
def test_the_banner_says_how_each_kind_of_game_is_won(house, options, goal):
    child = spawn("--ruleset", house, *options, "--vs", "builtin:easy", "--seed", "1", "--pace", "0")
    child.expect_exact(goal)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()


@pytest.mark.slow
def test_ctrl_c_leaves_cleanly_and_stops_the_bots():
    bot = f"{PY} {ROOT / 'sample_bots' / 'python' / 'random_bot.py'}"
    child = spawn("--ruleset", "compact", "--vs", bot, "--vs", "builtin:hard", "--seed", "4", "--pace", "0")
    child.expect(PROMPTS[0])
    bots = children(child.pid, live=True)
    assert bots, "the bot process should be running during the game"
    child.sendintr()
    child.expect("You left the game; the bots were stopped.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in seen(child)
    assert wait_until(lambda: not any(alive(pid) for pid in bots), within=5)


@pytest.mark.slow
def test_cards_carry_colour_and_shape_on_a_terminal():
    child = spawn("--ruleset", "family", "--vs", "builtin:easy", "--seed", "5", "--pace", "0", colour=True)
    child.expect(r"Your hand: (.*)\r?\n")
    hand = child.match.group(1)
    assert "\x1b[" in hand and any(mark in hand for mark in "●▲■◆✦")
    child.sendintr()
    child.expect(pexpect.EOF)


@pytest.mark.slow
def test_practice_mode_has_no_clock():
    # 0.3 s at its third turn, then quick: one move over the limit tells a clock from none (a bot slow at every
    # move made this test take 35 s in practice mode, where nothing cuts it short)
    slow = f"{PY} {ROOT / 'tests' / 'support' / 'fault_bots' / 'misbehave.py'} slow_once"
    args = ["--ruleset", "family", "--option", "target=round", "--vs", slow, "--seed", "9", "--pace", "0",
            "--move-ms", "100", "--clock", "wall"]  # wall: the bot sleeps, a CPU clock stops it only at its backstop
    timed = spawn(*args)
    play_out(timed)
    timed.expect(pexpect.EOF)
    assert "fault: misbehave (seat 1): timeout" in seen(timed)
    practice = spawn(*args, "--practice")
    play_out(practice)
    practice.expect(pexpect.EOF)
    assert "fault:" not in seen(practice) and "practice: no clocks" in seen(practice)


def arcade_position_with_a_call():
    """An arcade game at a turn where a play leaves one card: the legal forms carry the call."""
    for seed in range(200):
        rng = random.Random(seed)
        game = Game(get_ruleset("arcade"), 2, rng)
        pick = random.Random(seed)
        while not game.over:
            legal = game.legal_actions()
            if any(a.call for a in legal):
                return game, legal
            game.apply(pick.choice(legal), rng)
    raise AssertionError("no arcade position with a call in 200 games")


@pytest.mark.parametrize(("answer", "called"), [("y", True), ("n", False)])
def test_arcade_asks_whether_to_call(answer, called):
    game, legal = arcade_position_with_a_call()
    choices = menu(legal, False)
    number = next(i for i, c in enumerate(choices, 1) if c.forms[0].call)
    script = iter(["x", str(number), "1", "maybe", answer])
    out = io.StringIO()
    seat = HumanSeat("you", lambda prompt: next(script), out)
    table = SimpleNamespace(game=game, names=["you", "bot"], game_id="t", end_patch={})
    seat.begin(table, game.current)
    action, ms = seat.decide(table, game.current, legal)
    assert action.kind == PLAY and action.call is called and ms is None
    game.check(action, legal)  # calling or not, the play is legal
    assert "'maybe' is neither yes nor no" in out.getvalue()


def test_a_wild_is_listed_once_and_its_colour_asked():
    game = Game(get_ruleset("family"), 2, random.Random(0))
    legal = game.legal_actions()
    wilds = [a for a in legal if a.kind == PLAY and a.cards[0].is_wild]
    choices = menu(legal, False)
    assert len(choices) == len(legal) - len(wilds) + len({a.cards for a in wilds})
    if wilds:
        choice = next(c for c in choices if c.forms[0].cards[0].is_wild)
        assert [f.colour for f in choice.forms] == list(game.colours)


def test_end_of_input_leaves():
    game = Game(get_ruleset("compact"), 2, random.Random(0))

    def read(prompt):
        raise EOFError

    seat = HumanSeat("you", read, io.StringIO())
    table = SimpleNamespace(game=game, names=["you", "bot"], game_id="t", end_patch={})
    seat.begin(table, game.current)
    with pytest.raises(LeftTheGame):
        seat.decide(table, game.current, game.legal_actions())
