"""Deterministic protocol tests over a scripted fake transport: no processes, no real clocks."""

from __future__ import annotations

import pytest

from referee.bots.pipes.client import BotClient
from referee.bots.pipes.transport import FakeTransport
from referee.bots.pool import BotPool
from referee.bots.spec import TimeLimits, parse_bot
from referee.engine.rules import get_ruleset
from referee.protocol.faults import BotFault
from referee.protocol.wire import encode
from referee.table.policy import FaultPolicy
from referee.table.table import Table, play_game, seat_for


def first_legal(msg: dict) -> list:
    """A well-behaved scripted bot."""
    if msg["type"] == "hello":
        return [encode({"type": "ready", "name": "fake"})]
    if msg["type"] == "turn":
        return [encode(msg["legal"][0])]
    return []


def fake_pool(script, sent: list | None = None) -> BotPool:
    def factory(spec):
        t = FakeTransport(script)
        if sent is not None:
            sent.append(t)
        return t
    return BotPool(transport_factory=factory)


def spec():
    return parse_bot("fake=./fake", TimeLimits(startup_ms=1000, move_ms=50))


def _game(script, policy=FaultPolicy(), ruleset="family", sent=None, seed=3):
    with fake_pool(script, sent) as pool:
        seats = [seat_for(spec(), pool), seat_for(parse_bot("builtin:random"), pool)]
        return play_game(get_ruleset(ruleset, {"target": "round"} if ruleset == "family" else {}), seats, seed)


def test_conversation_order_and_ids():
    transports: list[FakeTransport] = []
    result = _game(first_legal, sent=transports)
    assert result["faults"] == []
    msgs = transports[0].sent
    types = [m["type"] for m in msgs]
    assert types[0] == "hello" and types[1] == "start"
    assert types[-2:] == ["game_end", "quit"] and "round_end" in types
    # Only requests carry an id, and ids grow.
    ids = [m["id"] for m in msgs if "id" in m]
    assert all(m["type"] == "turn" for m in msgs if "id" in m)
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    # Every turn's legal answers echo the turn's id.
    for m in msgs:
        if m["type"] == "turn":
            assert {a["id"] for a in m["legal"]} == {m["id"]}


def test_drawn_cards_only_reach_their_drawer():
    transports: list[FakeTransport] = []
    _game(first_legal, sent=transports)
    for m in transports[0].sent:
        if m["type"] == "event" and m["kind"] == "draw":
            assert ("cards" in m) == (m["seat"] == 0)
            assert m["count"] == len(m.get("cards", [None] * m["count"]))


def test_log_lines_are_skipped_and_kept_at_their_turn():
    def chatty(msg):
        out = first_legal(msg)
        if msg["type"] == "turn":
            return [encode({"type": "log", "text": f"hmm {msg['id']}"}), *out]
        return out
    with fake_pool(chatty) as pool:
        seats = [seat_for(spec(), pool), seat_for(parse_bot("builtin:random"), pool)]
        result = Table(get_ruleset("arcade"), seats, 1).play()
    assert result.faults == ()
    assert result.notes is not None
    logs = [(n.seat, n.source, n.text) for n in result.notes.notes]
    assert logs[:2] == [(0, "log", "hmm 1"), (0, "log", "hmm 2")]
    turns = [n.turn for n in result.notes.notes]
    assert turns == sorted(turns) and len(set(turns)) == len(turns)  # one a request, each at its own turn
    assert all(n.turn is not None for n in result.notes.notes)


def test_late_answer_is_recognised_not_taken_for_the_current_request():
    state = {"n": 0}

    def late(msg):
        if msg["type"] != "turn":
            return first_legal(msg)
        state["n"] += 1
        if state["n"] == 2:
            state["old"], state["old_id"] = msg["legal"][0], msg["id"]
            return [1.0]  # stall past the deadline: this request times out
        if state["n"] == 3:
            # The answer to request 2 arrives now, then the answer to request 3.
            return [encode({**state["old"], "id": state["old_id"]}), encode(msg["legal"][0])]
        return first_legal(msg)

    with fake_pool(late) as pool:
        seats = [seat_for(spec(), pool), seat_for(parse_bot("builtin:random"), pool)]
        result = play_game(get_ruleset("arcade"), seats, 1, policy=FaultPolicy("strikes", 3))
        client = seats[0].client
        assert client.late_answers == 1
    assert [f["kind"] for f in result["faults"]] == ["timeout"]


def test_error_message_tells_the_bot_its_fault():
    transports: list[FakeTransport] = []

    def wrong(msg):
        if msg["type"] == "turn":
            return [encode({"type": "pass", "id": msg["id"]})] if "pass" not in [a["type"] for a in msg["legal"]] \
                else first_legal(msg)
        return first_legal(msg)
    result = _game(wrong, sent=transports)
    assert result["faults"][0]["kind"] == "illegal"
    errors = [m for m in transports[0].sent if m["type"] == "error"]
    assert errors and errors[0]["fault"] == "illegal" and "not allowed" in errors[0]["message"]
    end = [m for m in transports[0].sent if m["type"] == "game_end"][0]
    assert end["forfeited"] == [0] and end["placements"][0] == 2


def test_version_refused_names_supported_versions():
    transports: list[FakeTransport] = []

    def v2(msg):
        return [encode({"type": "ready", "name": "x", "protocol": 2})] if msg["type"] == "hello" else []
    client = BotClient(spec(), transport_factory=lambda s: transports.append(FakeTransport(v2)) or transports[-1])
    with pytest.raises(BotFault) as info:
        client.start()
    assert info.value.fault.kind.value == "startup"
    assert "this referee speaks 1" in info.value.fault.message
    assert transports[0].sent[-1]["type"] == "error"
    client.quit()


def test_crlf_answers_are_accepted():
    def crlf(msg):
        return [line.rstrip(b"\n") + b"\r" for line in first_legal(msg)]
    assert _game(crlf)["faults"] == []


def test_an_answer_sent_before_its_request_is_the_fault_early():
    transports: list[FakeTransport] = []

    def predicts(msg):
        if msg["type"] == "turn":  # answers, then answers the next request before it is sent
            return [encode(msg["legal"][0]), encode({"type": "draw", "id": msg["id"] + 1})]
        return first_legal(msg)
    result = _game(predicts, sent=transports)
    fault = result["faults"][0]
    assert fault["kind"] == "early" and fault["request_id"] == 2
    assert "before request 2 was sent" in fault["message"]
    # The pre-empted request was never written: the bot saw one turn, then the error naming it.
    turns = [m["id"] for m in transports[0].sent if m["type"] == "turn"]
    assert turns == [1]
    assert [m for m in transports[0].sent if m["type"] == "error"][0]["fault"] == "early"


def test_logs_and_late_answers_before_a_request_are_not_early():
    state = {"n": 0}

    def late_then_logs(msg):
        if msg["type"] != "turn":
            return first_legal(msg)
        state["n"] += 1
        if state["n"] == 2:  # times out, and its answer is already waiting when request 3 is written
            return [1.0, encode(msg["legal"][0])]
        return [encode(msg["legal"][0]), encode({"type": "log", "text": "after"})]

    with fake_pool(late_then_logs) as pool:
        seats = [seat_for(spec(), pool), seat_for(parse_bot("builtin:random"), pool)]
        table = Table(get_ruleset("arcade"), seats, 1, policy=FaultPolicy("strikes", 3))
        result = table.play()
        assert seats[0].client.late_answers == 1
    assert result.notes is not None and "after" in [n.text for n in result.notes.notes]
    assert [f.kind.value for f in result.faults] == ["timeout"]


def test_an_id_that_is_not_a_number_is_stale_not_a_referee_error():
    def list_id(msg):
        if msg["type"] == "turn":
            return [encode({"type": "draw", "id": [msg["id"]]})]
        return first_legal(msg)
    fault = _game(list_id)["faults"][0]
    assert fault["kind"] == "stale_id" and "[1]" in fault["message"]


def test_stray_answers_between_games_restart_the_bot_for_a_clean_game():
    started: list[FakeTransport] = []

    def trailing(msg):
        if msg["type"] == "game_end":  # a copy of an answer nobody asked for, after the game
            return [encode({"type": "draw", "id": 1})]
        return first_legal(msg)
    with fake_pool(trailing, started) as pool:
        for g in range(2):
            seats = [seat_for(spec(), pool), seat_for(parse_bot("builtin:random"), pool)]
            result = play_game(get_ruleset("arcade"), seats, g, f"g{g}")
            assert result["faults"] == [], f"game {g}"
    assert len(started) == 2 and [m["type"] for m in started[1].sent][:2] == ["hello", "start"]


def test_transport_errors_share_one_base():
    from referee.bots.pipes import transport as t

    for cls in (t.ReadTimeout, t.WriteTimeout, t.LineTooLong, t.Closed):
        assert issubclass(cls, t.TransportError)
    assert not issubclass(t.WriteTimeout, t.ReadTimeout) and issubclass(t.WriteTimeout, t.TransportTimeout)
