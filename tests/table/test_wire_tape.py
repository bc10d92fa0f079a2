"""What the bots read, byte for byte: every byte the referee wrote to each seat over whole games, hashed.

The protocol is a contract, so the referee's fast paths (the turn line written out, shared catch-up lines)
must not change one byte a bot reads. The digest below was recorded before them; a change to what bots
read (a new field, another key order) changes it on purpose, and is then recorded again here, said in the
commit. The scripted bots answer in every way the referee reads differently: an echo of a legal element
(matched by its bytes), the same answer written another way (parsed), a log line, and an illegal move
(a fault: a strike, an ``error`` line and a replacement).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from referee.bots.pipes.transport import FakeTransport
from referee.bots.pool import BotPool
from referee.bots.spec import parse_bot
from referee.engine.rules import get_ruleset
from referee.protocol.wire import dumps, encode
from referee.table.policy import FaultPolicy
from referee.table.table import play_game, seat_for


class TapeTransport:
    """A scripted bot that keeps every byte written to it, in order (a ``FakeTransport`` inside: a compiled class
    takes no Python subclass)."""

    def __init__(self) -> None:
        self.fake = FakeTransport(self._answer)
        self.tape = bytearray()

    def write(self, data: bytes, deadline: float) -> None:
        self.tape += data
        self.fake.write(data, deadline)

    def write_some(self, data: bytes) -> int:
        self.write(data, 0.0)
        return len(data)

    def __getattr__(self, name: str) -> Any:  # alive, pid, read_line, pending, partial, close, ...
        return getattr(self.fake, name)

    @staticmethod
    def _answer(msg: dict[str, Any]) -> list[bytes]:
        if msg["type"] == "hello":
            return [encode({"type": "ready", "name": msg["name"]})]
        if msg["type"] != "turn":
            return []
        rid, legal = msg["id"], msg["legal"]
        pick = legal[(rid * 7 + msg["move"]) % len(legal)]
        if rid % 23 == 5:  # a card not in the hand: illegal (a strike, an error line, a replacement)
            return [encode({"type": "play", "id": rid, "cards": ["wild4", "wild4", "wild4"]})]
        if rid % 7 == 3:  # the same answer written another way: parsed, not matched by its bytes
            return [b'{"type":"log","text":"thinking"}\n', json.dumps(pick, indent=None).encode() + b"\n"]
        return [dumps(pick) + b"\n"]


#: (house, options, seats): each house, family at every table size the game allows.
CASES = [("family", {"target": "round"}, n) for n in (2, 3, 4, 6)] + [
    ("family", {}, 4), ("compact", {"target": 100}, 3), ("arcade", {}, 2), ("arcade", {}, 5)]


def _tapes(house: str, options: dict[str, Any], seats: int) -> str:
    tapes: list[TapeTransport] = []

    def factory(spec: object) -> TapeTransport:
        tapes.append(TapeTransport())
        return tapes[-1]

    specs = [parse_bot(f"t{i}=./t{i}") for i in range(seats)]
    digest = hashlib.sha256()
    with BotPool(transport_factory=factory) as pool:  # type: ignore[arg-type]
        for seed in range(4):  # the same processes game after game: ids grow, each game starts afresh
            result = play_game(get_ruleset(house, options), [seat_for(s, pool) for s in specs], seed,
                               game_id=f"g{seed}", policy=FaultPolicy("strikes", 1000))
            digest.update(dumps(result["placements"]))
    for tape in tapes:
        digest.update(hashlib.sha256(tape.tape).digest())
    return digest.hexdigest()


#: Recorded on main at af0d89c, before the referee's per-decision path was trimmed (issue 40, item 3).
DIGESTS = {
    'family-{"target": "round"}-2': "2ce29af63338f3d915f475116b9db2a43b6dd227fa484a9c933a6d96515b4078",
    'family-{"target": "round"}-3': "eaf0329fc6cb40ca1ff51a6b3a41c3dda37c2797bdb553e89b8eb9c9abde7415",
    'family-{"target": "round"}-4': "ee4cba3719796aea0f44e025ed0c36c469ee276c7552822908992ff00e2fd762",
    'family-{"target": "round"}-6': "20e77f3b46638c6f6a959cd0ec1573317bd6801076e2d15959c9a7d8948aa0ba",
    'family-{}-4': "688b4fc1340db5a694e567485b290181e753fd81eae0f522ab22811a945459b3",
    'compact-{"target": 100}-3': "29873c3923ba3f195de6d01293d07eb58ef2c3bbfefdbb9ffec1a6ed02c52e2f",
    'arcade-{}-2': "e475e18ab593fee1119ecb49c1a385c99227bc13c9aaccbddc32a335135d939d",
    'arcade-{}-5': "ce882018b2e87d5e4927bc0dad107af3b7713752b7fec25f507862a15da7c6f2",
}


@pytest.mark.parametrize("house,options,seats", CASES, ids=[f"{h}-{n}-{i}" for i, (h, _, n) in enumerate(CASES)])
def test_the_bytes_every_bot_reads_are_unchanged(house, options, seats):
    key = f"{house}-{json.dumps(options, sort_keys=True)}-{seats}"
    assert _tapes(house, options, seats) == DIGESTS[key]
