"""The conversation with a bot stated line by line, both ways (python-chess's ``MockTransport.expect`` and
``assert_done``): what the referee writes, in order, and what the bot answers. No processes, virtual time."""

from __future__ import annotations

import pytest

from referee.bots.pipes.client import BotClient
from referee.bots.pipes.transport import FakeTransport
from referee.bots.spec import TimeLimits, parse_bot
from referee.protocol.faults import BotFault, FaultKind

TURN = {"type": "turn", "legal": [{"type": "draw"}]}  # as much of a turn as the client looks at


def client_with(fake: FakeTransport) -> BotClient:
    spec = parse_bot("talker=./talker", TimeLimits(startup_ms=1000, move_ms=50))
    return BotClient(spec, transport_factory=lambda _: fake)


def hello(fake: FakeTransport) -> FakeTransport:
    return fake.expect({"type": "hello", "protocol": 1, "name": "talker", "seat": 0},
                       ['{"type":"log","text":"warming up"}', '{"type":"ready","name":"talker"}'])


def test_handshake_one_turn_and_quit():
    fake = hello(FakeTransport())
    fake.expect('{"type":"turn","legal":[{"type":"draw"}],"id":1}', ['{"type":"draw","id":1}'])
    fake.expect('{"type":"quit"}')
    client = client_with(fake)
    assert client.start(0)["name"] == "talker"
    answer, _ = client.request({**TURN, "id": client.new_request_id()})
    assert answer == {"type": "draw", "id": 1}
    client.quit()
    fake.assert_done()


def test_a_late_answer_after_a_timeout_is_skipped_once():
    """Request 1 times out; its answer comes before request 2's and is skipped, counted once."""
    fake = hello(FakeTransport())
    fake.expect({"type": "turn", "id": 1}, [0.2])  # thinks past the 50 ms limit: a timeout
    fake.expect({"type": "turn", "id": 2}, ['{"type":"draw","id":1}', '{"type":"draw","id":2}'])
    fake.expect({"type": "quit"})
    client = client_with(fake)
    client.start(0)
    with pytest.raises(BotFault) as fault:
        client.request({**TURN, "id": client.new_request_id()})
    assert fault.value.fault.kind is FaultKind.TIMEOUT
    answer, _ = client.request({**TURN, "id": client.new_request_id()})
    assert answer["id"] == 2 and client.late_answers == 1
    client.quit()
    fake.assert_done()


def test_an_answer_echoing_the_wrong_id_is_stale():
    fake = hello(FakeTransport())
    fake.expect({"type": "turn", "id": 1}, ['{"type":"draw","id":7}'])
    client = client_with(fake)
    client.start(0)
    with pytest.raises(BotFault) as fault:
        client.request({**TURN, "id": client.new_request_id()})
    assert fault.value.fault.kind is FaultKind.STALE_ID and "7" in fault.value.fault.message
    fake.assert_done()


def test_assert_done_names_a_line_off_script_and_a_line_never_written():
    off = FakeTransport().expect({"type": "hello", "seat": 3}, ['{"type":"ready","name":"x"}'])
    with pytest.raises(BotFault):  # the referee wrote seat 0: off script, the fake bot dies
        client_with(off).start(0)
    with pytest.raises(AssertionError, match=r"expected a message with \{'type': 'hello', 'seat': 3\}"):
        off.assert_done()
    short = hello(FakeTransport()).expect({"type": "quit"})
    client_with(short).start(0)
    with pytest.raises(AssertionError, match=r"never wrote \{'type': 'quit'\}"):
        short.assert_done()
