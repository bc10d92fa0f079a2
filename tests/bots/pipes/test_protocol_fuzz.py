"""Property tests: whatever a bot writes, the referee reads it as an answer or names a fault, never crashes."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.bots.pipes.transport import FakeTransport
from referee.bots.pool import BotPool
from referee.bots.spec import TimeLimits, parse_bot
from referee.engine.rules import get_ruleset
from referee.protocol.faults import FaultKind
from referee.protocol.wire import encode
from referee.table.policy import FaultPolicy
from referee.table.table import play_game, seat_for

KINDS = {k.value for k in FaultKind}
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)


def _mutate(legal: dict, data: st.DataObject) -> bytes:
    """One way of answering: the legal answer bent a little, any JSON, or any bytes."""
    how = data.draw(st.sampled_from(["drop", "set", "json", "bytes", "echo"]))
    answer = dict(legal)
    if how == "drop" and answer:
        answer.pop(data.draw(st.sampled_from(sorted(answer))))
    elif how == "set":
        answer[data.draw(st.sampled_from(["id", "type", "cards", "colour", "call", "x"]))] = data.draw(JSON_VALUES)
    elif how == "json":
        return json.dumps(data.draw(JSON_VALUES)).encode() + b"\n"
    elif how == "bytes":
        return data.draw(st.binary(max_size=200)).replace(b"\n", b"") + b"\n"
    # The standard library writes integers of any size (orjson refuses past 64 bits), as a bot may.
    return json.dumps(answer).encode() + b"\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), house=st.sampled_from(["compact", "family", "arcade"]))
def test_any_answer_is_an_action_or_a_named_fault(data, house):
    def script(msg: dict) -> list:
        if msg["type"] == "hello":
            return [encode({"type": "ready", "name": "fuzzed"})]
        if msg["type"] == "turn":
            return [_mutate(msg["legal"][0], data)]
        return []

    pool = BotPool(transport_factory=lambda spec: FakeTransport(script))
    with pool:
        spec = parse_bot("fuzzed=./fuzzed", TimeLimits(startup_ms=1000, move_ms=50))
        seats = [seat_for(spec, pool), seat_for(parse_bot("builtin:random"), pool)]
        options = {"family": {"target": "round"}, "compact": {"target": 100}}.get(house, {})
        result = play_game(get_ruleset(house, options), seats, 7, policy=FaultPolicy("strikes", 3))
    assert {f["kind"] for f in result["faults"]} <= KINDS
    assert sorted(result["placements"]) in ([1, 2], [1, 1])
    if result["faults"] and result["forfeited"]:
        assert result["placements"][0] == 2  # the fuzzed bot, forfeited, is placed last


def test_an_id_past_64_bits_is_a_named_fault():
    """orjson reads such an id as a float: the answer is a stale id, not a crash of the referee."""
    def script(msg: dict) -> list:
        if msg["type"] == "hello":
            return [encode({"type": "ready", "name": "huge"})]
        if msg["type"] == "turn":
            return [json.dumps({**msg["legal"][0], "id": -2**63 - 1}).encode() + b"\n"]
        return []

    with BotPool(transport_factory=lambda spec: FakeTransport(script)) as pool:
        seats = [seat_for(parse_bot("huge=./huge", TimeLimits(startup_ms=1000, move_ms=50)), pool),
                 seat_for(parse_bot("builtin:random"), pool)]
        result = play_game(get_ruleset("arcade"), seats, 3)
    assert [f["kind"] for f in result["faults"]] == ["stale_id"]
    assert result["forfeited"] == [0]
