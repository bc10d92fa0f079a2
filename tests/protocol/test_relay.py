"""What a seat is told: the relay's shared-line fast path against the messages built one event at a time."""

from __future__ import annotations

import random
from typing import Any

import pytest

from referee.engine.game import Game
from referee.engine.rules import get_ruleset, option_grid
from referee.players import SeatView, make_player
from referee.protocol.messages import event_message, start_message, turn_request
from referee.protocol.relay import PublicWire, Relay
from referee.protocol.turns import turn_line
from referee.protocol.wire import encode


class _Reference:
    """The messages for one seat, each built from its event as the protocol states it (no caches)."""

    def __init__(self, seat: int, game_id: str, names: list[str]) -> None:
        self.seat, self.game_id, self.names = seat, game_id, names
        self.told = 0
        self.scores: list[int] = [0] * len(names)

    def lines(self, game: Game, end: dict[str, Any] | None) -> bytes:
        out = []
        for ev in game.events[self.told:]:
            if ev["kind"] == "deal":
                msg = start_message(game, ev, self.seat, self.game_id, self.names)
                msg["scores"] = list(self.scores)
            elif ev["kind"] == "round_end":
                self.scores = ev["scores"]
                msg = event_message(ev, self.seat)
            elif ev["kind"] == "game_end":
                msg = {**event_message(ev, self.seat), **(end or {})}
            else:  # the event, with the seat's own secret (a drawn card) merged in and others' left out
                msg = event_message(ev, self.seat)
            out.append(encode(msg))
        self.told = len(game.events)
        return b"".join(out)


#: Every house, with options that change what happens (stacking, draw until playable, tender, matches).
CASES = [(house, opts) for i, (house, opts) in enumerate(option_grid()) if i % 9 == 0]


@pytest.mark.parametrize("house,opts", CASES, ids=[f"{h}-{i}" for i, (h, _) in enumerate(CASES)])
@pytest.mark.parametrize("seats", [2, 4])
def test_each_seat_reads_what_the_events_say_whenever_it_is_told(house, opts, seats):
    rules = get_ruleset(house, {**opts, "move_limit": 200})
    for seed in range(3):
        rng = random.Random(seed)
        game = Game(rules, seats, rng)
        names = [f"s{i}" for i in range(seats)]
        wire = PublicWire()
        fast = [Relay(i, "g1", names, scores=[0] * seats) for i in range(seats)]
        slow = [_Reference(i, "g1", names) for i in range(seats)]
        players = [make_player("medium", seed * 7 + i) for i in range(seats)]
        views = [SeatView(game, i) for i in range(seats)]
        ask = random.Random(seed + 100)  # seats are told at irregular moments, not only at their turns
        told = 0
        while not game.over:
            for i in range(seats):
                if i == game.current or ask.random() < 0.2:
                    assert fast[i].lines(game, wire) == slow[i].lines(game, None)
                    told += 1
            seat = game.current
            game.apply(players[seat].choose(views[seat], game.legal_actions()), rng)
        end = {"placements": game.outcome.placements, "forfeited": []}
        for i in range(seats):
            tail = fast[i].lines(game, wire, end)
            assert tail == slow[i].lines(game, end)
            assert b'"type":"game_end"' in tail
            assert fast[i].lines(game, wire, end) == b""  # told once
        assert told > seats


def test_a_drawn_card_is_told_to_its_seat_only():
    rules = get_ruleset("family", {"target": "round"})
    rng = random.Random(5)
    game = Game(rules, 3, rng)
    wire = PublicWire()
    relays = [Relay(i, "g1", ["a", "b", "c"], scores=[0, 0, 0]) for i in range(3)]
    while not any(ev["kind"] == "draw" for ev in game.events):
        legal = game.legal_actions()
        draw = [a for a in legal if a.kind == "draw"]
        game.apply(draw[0] if draw else legal[0], rng)
    drawer = next(ev for ev in game.events if ev["kind"] == "draw")["seat"]
    seen = {i: relays[i].lines(game, wire) for i in range(3)}
    for i, data in seen.items():
        draws = [line for line in data.splitlines() if b'"kind":"draw"' in line]
        assert draws
        assert all((b'"cards":' in line) == (i == drawer) for line in draws), (i, drawer, draws)


def test_the_game_end_line_follows_the_placements_each_seat_is_told_with():
    """The game_end line is made once for every seat told with the same end, and again for another."""
    rules = get_ruleset("family", {"target": "round"})
    rng = random.Random(5)
    game = Game(rules, 3, rng)
    names = ["a", "b", "c"]
    while not game.over:
        game.apply(game.legal_actions()[0], rng)
    wire = PublicWire()
    relays = [Relay(i, "g1", names, scores=[0] * 3) for i in range(3)]
    slow = [_Reference(i, "g1", names) for i in range(3)]
    ends = [{"placements": [0, 1, 2], "forfeited": []}, {"placements": [0, 1, 2], "forfeited": []},
            {"placements": [2, 0, 1], "forfeited": [2]}]
    for i in (0, 2, 1):
        tail = relays[i].lines(game, wire, ends[i])
        assert tail == slow[i].lines(game, ends[i])
        assert tail.endswith(encode({**event_message(game.events[-1], i), **ends[i]}))


def test_the_turn_line_is_the_turn_request_encoded():
    """``turn_line`` writes the line out itself: byte for byte what orjson makes of ``turn_request``, at every
    decision of every house (a drawn card, a wild on top with no colour yet, penalties pending)."""
    seen = set()
    for house, opts in CASES:
        rules = get_ruleset(house, {**opts, "move_limit": 200})
        for seed in range(2):
            rng = random.Random(seed)
            game = Game(rules, 3, rng)
            players = [make_player("medium", seed * 7 + i) for i in range(3)]
            rid = 0
            while not game.over:
                seat = game.current
                legal = game.legal_actions()
                rid += 999_983
                line, known = turn_line(game, seat, legal, rid, 1000 + rid % 7, rid % 3)
                assert line == encode(turn_request(game, seat, legal, rid, 1000 + rid % 7, rid % 3))
                assert [known.get(encode(a.to_wire(rid))[:-1]) for a in legal] == legal
                assert known.get(line) is None and known.get(b"") is None
                seen.add((game.phase.value, game.drawn is not None, game.pending_rank, game.colour))
                game.apply(players[seat].choose(SeatView(game, seat), legal), rng)
    family = get_ruleset("family")
    for seed in range(300):  # a deal's first turn: now and then an opening Wild, its colour to name
        game = Game(family, 3, random.Random(seed))
        legal = game.legal_actions()
        seat = game.current
        assert turn_line(game, seat, legal, 7, 0, 0)[0] == encode(turn_request(game, seat, legal, 7, 0, 0))
        seen.add((game.phase.value, False, None, game.colour))
    assert {phase for phase, *_ in seen} == {"play", "drawn", "colour"}
    assert {rank for *_, rank, _ in seen} >= {None, "draw2", "wild4"} and None in {c for *_, c in seen}
