"""referee.botkit: the conversation it holds, its observation equal to the env's, its copy beside the sample bots.

The observation test feeds each seat's bot kit the very bytes the referee would send it (``Relay`` for the
events, ``turn_line`` for the requests) and compares with the environment's observation of that seat.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee import botkit
from referee.bots.spec import parse_bot
from referee.engine.actions import Action
from referee.engine.cards import DECK_COLOURS, DECKS
from referee.engine.rules import PRESETS, get_ruleset
from referee.protocol.messages import hello_message
from referee.protocol.relay import PublicWire, Relay
from referee.protocol.turns import turn_line
from tests.conftest import ROOT, SAMPLES

HELLO = {"type": "hello", "protocol": 1, "versions": [1], "name": "kit", "seat": 1,
         "limits": {"startup_ms": 1000, "move_ms": 1000, "bank_ms": 0, "line_bytes": 65536}}
START = {"type": "start", "game": "g1", "round": 1, "ruleset": "family", "options": dict(PRESETS["family"].options),
         "seats": [{"seat": 0, "name": "a"}, {"seat": 1, "name": "kit"}], "you": 1, "dealer": 0,
         "hand": ["red:1", "wild"], "top": "red:5", "colour": "red", "direction": 1, "scores": [0, 0]}
TURN = {"type": "turn", "id": 3, "hand": ["red:1", "wild"], "top": "red:5", "colour": "red", "direction": 1,
        "hands": [7, 2], "scores": [0, 0], "draw_pile": 80, "discard_pile": 3, "pending": 0, "pending_kind": None,
        "move": 4, "time_left_ms": 1000, "bank_ms": 0, "has_drawn": False, "drawn": None, "phase": "play",
        "legal": [{"type": "play", "id": 3, "cards": ["red:1"]},
                  {"type": "play", "id": 3, "cards": ["wild"], "colour": "blue"},
                  {"type": "draw", "id": 3}]}


def talk(lines: list[Any], choose: botkit.Choose, **kw: Any) -> tuple[list[dict], str]:
    """Run the bot kit over these input lines (dicts are encoded); what it wrote on stdout and stderr."""
    text = "".join((json.dumps(x) if isinstance(x, dict) else x) + "\n" for x in lines)
    out, err = io.StringIO(), io.StringIO()
    botkit.run(choose, "kit", stdin=io.StringIO(text), stdout=out, stderr=err, **kw)
    return [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


# ---------------------------------------------------------------------------------------- the conversation
def test_the_whole_conversation() -> None:
    seen: list[botkit.Turn] = []

    def choose(turn: botkit.Turn) -> dict:
        seen.append(turn)
        return turn.legal[1]

    out, err = talk([HELLO, START, {"type": "event", "kind": "skip", "seat": 0}, TURN, {"type": "quit"}, TURN],
                    choose, ready={"author": "me"})
    assert out == [{"type": "ready", "name": "kit", "author": "me"}, TURN["legal"][1]]
    assert err == "" and len(seen) == 1  # nothing is read after quit
    turn = seen[0]
    assert (turn.you, turn.hand, turn.phase) == (1, ["red:1", "wild"], "play")
    assert [m["type"] for m in turn.table.history] == ["start", "event"]


def test_noise_and_faults_go_to_stderr_and_the_bot_goes_on() -> None:
    out, err = talk([HELLO, "not json", "", "[1]", {"type": "error", "fault": "illegal", "message": "no"}, START,
                     TURN], lambda turn: turn.legal[0])
    assert out[1] == TURN["legal"][0]
    assert "not JSON: 'not json'" in err and "not an object" in err and "fault (illegal): no" in err


@pytest.mark.parametrize("choose, why", [
    pytest.param(lambda turn: 1 / 0, "choose() raised", id="raises"),
    pytest.param(lambda turn: {"type": "play", "id": 3, "cards": ["wild"]}, "not an element of turn.legal",
                 id="not-legal"),
])
def test_a_broken_choose_answers_legal_0_and_says_why(choose: Any, why: str) -> None:
    out, err = talk([HELLO, START, TURN], choose)
    assert out[1] == TURN["legal"][0] and why in err


def test_end_of_input_ends_the_bot() -> None:
    out, _ = talk([HELLO], lambda turn: turn.legal[0])
    assert out == [{"type": "ready", "name": "kit"}]


def test_a_newer_referee_is_asked_for_protocol_1() -> None:
    out, _ = talk([{**HELLO, "protocol": 2, "versions": [1, 2]}], lambda turn: turn.legal[0])
    assert out == [{"type": "ready", "name": "kit", "protocol": 1}]


def test_answer_for_and_index_of() -> None:
    out, _ = talk([HELLO, START, TURN], lambda turn: turn.answer_for(turn.index_of(turn.legal[2])))
    assert out[1] == {"type": "draw", "id": 3}
    session = botkit.Session(lambda turn: turn.legal[0], "kit")
    session.receive(START)
    turn = botkit.Turn(TURN, session.table)
    assert sum(turn.action_mask) == 3 and turn.encoding.describe(turn.index_of(TURN["legal"][1])) == "play wild (blue)"
    with pytest.raises(ValueError, match=r"action 5 is not legal in this turn; the legal indices are \[\d+, \d+, 0\]"):
        turn.answer_for(5)


# ---------------------------------------------------------------------------------------- the env's observation
def conversation(house: str, seats: int, seed: int, options: dict[str, Any]) -> int:
    """Play a seeded game; each seat's bot kit gets the referee's bytes and must see what the env shows."""
    env_mod = pytest.importorskip("referee.env", reason="the rl extra (PettingZoo, Gymnasium) is not installed")
    e = env_mod.raw_env(ruleset=house, seats=seats, options=options)
    e.reset(seed=seed)
    game = e.game
    names = [f"bot{i}" for i in range(seats)]
    wire = PublicWire()
    relays = [Relay(s, "g1", names, scores=[0] * seats) for s in range(seats)]
    checked = [0]
    expected: dict[str, Any] = {}

    def choose(turn: botkit.Turn) -> dict:
        obs = e.observe(expected["agent"])
        assert turn.observation == obs["observation"].astype(int).tolist()
        assert turn.action_mask == obs["action_mask"].tolist()
        checked[0] += 1
        return turn.answer_for(expected["index"])

    sessions = [botkit.Session(choose, names[s]) for s in range(seats)]
    spec = parse_bot("builtin:random")
    for s, session in enumerate(sessions):
        session.receive(hello_message(spec, s))
    picks = random.Random(seed)
    request = 0
    while not game.over:
        seat = game.current
        legal = game.legal_actions()
        for line in relays[seat].lines(game, wire).splitlines():
            assert sessions[seat].receive(json.loads(line)) == []
        request += 1
        turn, _ = turn_line(game, seat, legal, request, 1000, 0)
        expected.update(agent=e.agent_selection, index=picks.choice(sorted(e._legal)))
        [answer] = sessions[seat].receive(json.loads(turn))
        action = Action.from_wire(answer)
        assert e._legal[expected["index"]].key == action.key
        e.step(expected["index"])
    return checked[0]


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("house", list(PRESETS))
def test_botkit_observation_is_the_env_observation(house: str, seats: int) -> None:
    options = {"compact": {"target": 100}, "family": {"target": 200}, "arcade": {}}[house]
    assert conversation(house, seats, seed=seats * 10, options=options) > 20


@pytest.mark.parametrize("options", [
    pytest.param({"stacking": True, "draw_until_playable": True}, id="stacking"),
    pytest.param({"opening": "family", "deck": "compact", "multi_play": True, "last_card_call": "required"},
                 id="compact-deck-stacks"),
])
def test_botkit_observation_is_the_env_observation_with_options(options: dict[str, Any]) -> None:
    assert conversation("family", 4, seed=5, options={"target": "round", **options}) > 10


# ---------------------------------------------------------------------------------------- what botkit knows of decks
@pytest.mark.parametrize("deck", list(DECKS))
def test_botkit_decks_are_the_referees(deck: str) -> None:
    colours, ranks, copies = botkit.DECKS[deck]
    cards = DECKS[deck](6)  # the largest deck
    assert colours == DECK_COLOURS[deck]
    coloured = [c for c in cards if not c.is_wild]
    assert set(ranks) == {c.rank for c in coloured}
    assert all(coloured.count(c) == copies(c.rank) for c in coloured)


def test_an_answer_outside_the_catalogue_is_named() -> None:
    encoding = botkit.Encoding.for_options(get_ruleset("compact").options)
    with pytest.raises(ValueError, match="'red:7'.* is no action of this ruleset's catalogue"):
        encoding.index_of({"type": "play", "cards": ["red:7"]})


# ---------------------------------------------------------------------------------------- the copy bots carry
def test_the_sample_bots_copy_is_referee_botkit() -> None:
    assert (SAMPLES / "python" / "botkit.py").read_bytes() == (ROOT / "referee" / "botkit.py").read_bytes(), (
        "sample_bots/python/botkit.py differs from referee/botkit.py: refresh it with "
        "`python -m referee.botkit sample_bots/python`")


@pytest.mark.slow
def test_python_m_referee_botkit_copies_it(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "referee.botkit", str(tmp_path / "mybot")], capture_output=True,
                         text=True, cwd=ROOT)
    assert run.returncode == 0 and (tmp_path / "mybot" / "botkit.py").read_bytes() == Path(botkit.__file__).read_bytes()
    usage = subprocess.run([sys.executable, "-m", "referee.botkit"], capture_output=True, text=True, cwd=ROOT)
    assert usage.returncode == 2 and "usage: python -m referee.botkit BOT_FOLDER" in usage.stderr


@pytest.mark.slow
def test_a_botkit_bot_needs_nothing_installed(tmp_path: Path) -> None:
    """A bot folder with botkit.py beside it needs no package: Python without site-packages (-S) plays."""
    botkit.copy_to(str(tmp_path))
    (tmp_path / "bot.py").write_text("import importlib.util\nassert importlib.util.find_spec('referee') is None\n"
                                     "import botkit\nbotkit.run(lambda turn: turn.answer_for(0) "
                                     "if turn.action_mask[0] else turn.legal[-1], 'draws')\n")
    lines = "".join(json.dumps(m) + "\n" for m in (HELLO, START, TURN, {"type": "quit"}))
    run = subprocess.run([sys.executable, "-S", str(tmp_path / "bot.py")], input=lines, capture_output=True,
                         text=True, cwd=tmp_path, timeout=30)
    assert run.returncode == 0, run.stderr
    assert [json.loads(x) for x in run.stdout.splitlines()][1] == {"type": "draw", "id": 3}
