"""The desk of ``lastcard play --browser`` without a browser: the page's moves checked against the moves the
referee offered (a stale turn, a number out of range, a colour a Wild cannot name, a call that is not a
boolean), the arcade call declined, the wait for the person's answer from another thread, and leaving."""

from __future__ import annotations

import json
import threading

import pytest

from referee.engine.actions import DRAW, PLAY, Action
from referee.engine.cards import Card
from referee.play.desk import Desk, MoveError, Question, pick
from referee.play.seat import options
from referee.table.human import LeftTheGame

RED7 = Card.from_code("red:7")
WILD = Card.from_code("wild")
COLOURS = ("red", "yellow", "green", "blue")
#: A turn's legal moves as the referee lists them: a red 7 (with the arcade call), a Wild in four colours, a draw.
LEGAL = [Action(PLAY, (RED7,), None, True), *(Action(PLAY, (WILD,), c) for c in COLOURS), Action(DRAW)]


def question(turn: int = 12) -> Question:
    return Question(turn, options(LEGAL))


def test_a_wild_is_listed_once_with_its_colours_and_the_call_is_asked():
    offered = options(LEGAL)
    assert [o.kind for o in offered] == ["play", "play", "draw"]
    assert offered[1].colours == list(COLOURS) and offered[0].colours == []
    assert offered[0].calls and not offered[1].calls
    assert offered[1].to_json() == {"text": "play ✦ Wild", "kind": "play", "cards": ["wild"],
                                    "colours": list(COLOURS), "call": False}


def test_a_move_names_one_of_the_moves_offered_and_its_colour():
    q = question()
    assert pick(q, 12, 1, "green", True) == Action(PLAY, (WILD,), "green")
    assert pick(q, 12, 2, None, True) == Action(DRAW)
    assert pick(q, 12, 0, None, True) == Action(PLAY, (RED7,), None, True)


def test_declining_the_call_plays_without_it():
    assert pick(question(), 12, 0, None, False) == Action(PLAY, (RED7,), None, False)


@pytest.mark.parametrize(("turn", "choice", "colour", "call", "says", "stale"), [
    (11, 0, None, True, "this move was for turn 11, and the game is at turn 12: choose again", True),
    (True, 0, None, True, "this move was for turn True", True),
    (12, 3, None, True, "move 3 is not one of the 3 moves offered: give a number from 0 to 2", False),
    (12, -1, None, True, "move -1 is not one of the 3 moves offered", False),
    (12, "0", None, True, "move '0' is not one of the 3 moves offered", False),
    (12, 1, "purple", True, "'purple' is not a colour it can name; name one of red, yellow, green, blue", False),
    (12, 1, None, True, "None is not a colour it can name", False),
    (12, 0, None, "yes", "call must be true or false, not 'yes'", False),
])
def test_a_move_that_is_not_offered_is_refused_saying_why(turn, choice, colour, call, says, stale):
    with pytest.raises(MoveError) as caught:
        pick(question(), turn, choice, colour, call)
    assert says in str(caught.value) and caught.value.stale is stale


def test_the_seat_waits_for_the_answer_from_the_servers_thread():
    desk = Desk(token="t0k")
    got: list[Action] = []
    seat = threading.Thread(target=lambda: got.append(desk.ask(question(), {"phase": "your_turn"})))
    seat.start()
    version, body = desk.snapshot(0, wait_s=5)
    state = json.loads(body)
    assert state["phase"] == "your_turn" and state["token"] == "t0k" and state["question"]["turn"] == 12
    with pytest.raises(MoveError, match="for turn 3"):
        desk.answer(3, 0)
    desk.answer(12, 1, "blue")
    seat.join(5)
    assert got == [Action(PLAY, (WILD,), "blue")]
    _, after = desk.snapshot(version, wait_s=5)
    assert json.loads(after)["question"] is None
    with pytest.raises(MoveError, match="it is not your turn") as caught:
        desk.answer(12, 1, "blue")  # a second click
    assert caught.value.stale


def test_leaving_from_the_page_ends_the_wait():
    desk = Desk()
    failed: list[BaseException] = []

    def wait() -> None:
        try:
            desk.ask(question(), {"phase": "your_turn"})
        except LeftTheGame as exc:
            failed.append(exc)

    seat = threading.Thread(target=wait)
    seat.start()
    desk.snapshot(0, wait_s=5)
    desk.leave()
    seat.join(5)
    assert len(failed) == 1 and desk.left
    assert json.loads(desk.snapshot()[1])["phase"] == "left"


def test_what_a_bot_names_is_data_in_the_state():
    desk = Desk()
    desk.show({"seats": [{"name": "<script>alert(1)</script>"}]})
    state = json.loads(desk.snapshot()[1])
    assert state["seats"][0]["name"] == "<script>alert(1)</script>"  # the page draws it with textContent
