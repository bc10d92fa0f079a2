"""The engine's speed tables: card indices, the situation tables of what plays, and the shared recurring events."""

from __future__ import annotations

import json
import random

import pytest

from referee.engine import game as engine
from referee.engine.actions import Action
from referee.engine.cards import _BY_CODE, ALL_COLOURS, CARD_KINDS, COMPACT_COLOURS, STANDARD_COLOURS, Card
from referee.engine.game import Game, event_for, plays_on
from referee.engine.rules import MAX_PLAYERS, get_ruleset
from referee.players import SeatView, make_player
from referee.protocol.messages import event_message
from referee.protocol.relay import PublicWire, Relay
from referee.replay.text import all_seeing_events


def test_every_card_has_its_own_index_and_a_card_made_elsewhere_has_none():
    assert [c.index for c in _BY_CODE.values()] == list(range(CARD_KINDS))
    assert Card("red", "5").index == -1
    assert Card.from_code("red:5").index == _BY_CODE["red:5"].index


@pytest.mark.parametrize("top", ["red:5", "teal:skip", "blue:draw2", "wild", "wild4"])
@pytest.mark.parametrize("wd4_ok", [False, True])
def test_the_table_by_top_card_is_the_matching_rule(top, wd4_ok):
    card = Card.from_code(top)
    palettes = [p for p in (COMPACT_COLOURS, STANDARD_COLOURS) if card.colour is None or card.colour in p]
    for colours in palettes:
        table = engine._playables(colours).on_top(card, wd4_ok, False)
        for other in _BY_CODE.values():
            plays = table[other.index]
            assert (plays is not None) == plays_on(other, card.colour, card.rank, wd4_ok), (top, other.code)
            if plays is not None:
                assert [a.colour for a in plays] == (list(colours) if other.is_wild else [None])


def _play_games(rules: str, seeds: range, players: int) -> list[Game]:
    games = []
    for seed in seeds:
        rng = random.Random(seed)
        game = Game(get_ruleset(rules), players, rng)
        bots = [make_player("random", seed * 8 + s) for s in range(players)]
        while not game.over:
            seat = game.current
            game.apply(bots[seat].choose(SeatView(game, seat), game.legal_actions()), rng)
        games.append(game)
    return games


def test_recurring_events_are_shared_plain_dicts_with_the_keys_in_wire_order():
    """A seat's one-card play, one-card draw, pass and skip come out as one shared dict, key order as before."""
    games = _play_games("family", range(3), 3)
    kinds = {}
    for ev in games[0].events + games[1].events:
        assert type(ev) is dict
        kinds.setdefault(ev["kind"], []).append(ev)
    draw = next(e for e in kinds["draw"] if e["reason"] == "turn" and e["count"] == 1)
    assert list(draw) == ["kind", "seat", "count", "reason", "secret"]
    assert draw["secret"] == {draw["seat"]: {"cards": [draw["secret"][draw["seat"]]["cards"][0]]}}
    play = kinds["play"][0]
    assert list(play) in (["kind", "seat", "cards", "colour", "call"],
                          ["kind", "seat", "cards", "colour", "call", "drawn"])
    # The same event in two games is one object: nothing is built for it again.
    again = [e for e in games[1].events if e == play]
    assert again and all(e is play for e in again)


def test_shared_events_hold_what_a_new_event_would():
    """Every shared event still reads as freshly built, after games were relayed, replayed and recorded."""
    for rules, players in (("family", 2), ("arcade", 4), ("compact", 6)):
        for game in _play_games(rules, range(4), players):
            wire = PublicWire()
            for seat in range(players):
                Relay(seat, "g1", [f"p{s}" for s in range(players)]).lines(game, wire)
                for ev in game.events:
                    event_message(ev, seat)
                    event_for(ev, seat)
            all_seeing_events(game.events)
            json.dumps(game.events)
    for seat in range(MAX_PLAYERS):
        shared, fresh = engine._SEAT_EVENTS[seat], engine._SeatEvents(seat)
        assert shared.skip == fresh.skip and shared.passes == fresh.passes and shared.calls == fresh.calls
        for colour, ev in shared.colours.items():
            assert ev == fresh.colour(colour)
        for card in _BY_CODE.values():
            if shared.draws[card.index] is not None:
                assert shared.draws[card.index] == fresh.draw(card)
            for drawn in (False, True):
                for call in (False, True):
                    if not card.is_wild and shared.plays[2 * drawn + call][card.index] is not None:
                        assert shared.play(card, card.colour, call, drawn) == fresh.play(card, card.colour, call, drawn)
        for variant, table in enumerate(shared.wilds):
            card = _BY_CODE["wild4" if variant % 2 else "wild"]
            for colour, ev in table.items():
                assert ev == fresh.play(card, colour, bool(variant & 2), bool(variant & 4))


def test_the_random_player_draws_from_its_generator_even_a_replaced_one():
    """Its kept ``random`` is the current generator's: the same picks as ``legal[int(rng.random() * len)]``."""
    game = Game(get_ruleset("family"), 2, random.Random(1))
    legal = [Action("colour", colour=c) for c in ALL_COLOURS[:7]]
    player = make_player("random", 5)
    mirror = random.Random(5)
    assert [player.choose(SeatView(game, 0), legal) for _ in range(50)] == \
        [legal[int(mirror.random() * len(legal))] for _ in range(50)]
    player.rng = random.Random(9)
    mirror = random.Random(9)
    assert [player.choose(SeatView(game, 0), legal) for _ in range(50)] == \
        [legal[int(mirror.random() * len(legal))] for _ in range(50)]
    player.reseed(3)
    mirror = random.Random(3)
    assert player.choose(SeatView(game, 0), legal) == legal[int(mirror.random() * len(legal))]


def test_a_play_removes_the_first_copy_of_its_card_and_a_missing_card_is_an_error():
    hand = [_BY_CODE["red:5"], _BY_CODE["blue:5"], _BY_CODE["red:5"]]
    engine._remove(hand, _BY_CODE["red:5"])
    assert [c.code for c in hand] == ["blue:5", "red:5"]
    with pytest.raises(ValueError):
        engine._remove(hand, _BY_CODE["wild"])
    assert engine._holds(hand, _BY_CODE["red:5"]) and not engine._holds(hand, _BY_CODE["red:6"])


def test_a_card_made_outside_the_deck_gets_no_shared_slot():
    """``Card.index`` -1 never reads another card's table slot or shared event."""
    stray = Card("red", "5")
    shared = engine._SeatEvents(0)
    assert shared.draw(stray) == shared.draw(_BY_CODE["red:5"])
    assert shared.play(stray, "red", False, False) == shared.play(_BY_CODE["red:5"], "red", False, False)
    assert shared.draws[_BY_CODE["wild4"].index] is None
    palette = engine._Palette(STANDARD_COLOURS)
    assert palette.on_top(stray, True, False) == palette.on_top(_BY_CODE["red:5"], True, False)
    assert palette.on_top(stray, True, False)[stray.index] is None


def test_the_players_choice_draws_as_random_choice_does():
    """``players.base.choice``: the same pick and the same generator state after, as ``Random.choice``."""
    from referee.players.base import choice

    options = [Action("colour", colour=c) for c in ALL_COLOURS]
    for seed in range(20):
        mine, theirs = random.Random(seed), random.Random(seed)
        for n in (1, 2, 3, 4, 5, 7, 8):
            assert choice(mine, options[:n]) is theirs.choice(options[:n])
        assert mine.getstate() == theirs.getstate()
    with pytest.raises(IndexError):
        choice(random.Random(0), [])


def test_a_deck_is_a_new_list_each_time():
    from referee.engine.cards import compact_deck, standard_deck

    assert standard_deck() is not standard_deck() and standard_deck() == standard_deck()
    assert len(standard_deck()) == 108 and len(compact_deck(4)) == 54 and compact_deck(6) == compact_deck(4) * 2


@pytest.mark.parametrize("name", ["random", "easy", "medium", "hard"])
def test_making_a_built_in_player_seeds_one_generator_and_leaves_none_behind(name):
    """Compiled, a player class without its own ``__init__`` ran ``Player.__init__`` twice and leaked a generator."""
    import gc

    def generators() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if type(o) is random.Random)

    before = generators()
    players = [make_player(name, seed) for seed in range(200)]
    assert generators() - before == 200
    del players
    assert generators() - before == 0


def test_the_colour_held_most_is_counted_as_a_counter_would_and_ties_go_to_deck_order():
    from collections import Counter

    from referee.players.heuristic import _best_colour, _colour_counts

    for seed in range(30):
        game = Game(get_ruleset("family"), 3, random.Random(seed))
        for seat in range(3):
            view = SeatView(game, seat)
            counts = Counter(c.colour for c in view.hand if c.colour is not None)
            assert _colour_counts(view) == dict(counts)
            assert _best_colour(view) == max(view.colours, key=lambda c: counts[c])
    game = Game(get_ruleset("family"), 2, random.Random(0))
    game.hands[0] = [Card.from_code(c) for c in ("blue:1", "green:2", "wild")]
    assert _best_colour(SeatView(game, 0)) == "green"  # green and blue tie: green comes first in the deck


SEEDS = [0, 1, 7, -5, 2**31, 2**63 - 1, 6254789123456789123 * 7 + 3, 2**100]


def test_seeding_without_random_py_gives_the_generator_random_random_gives():
    """``game.seeded``: what ``Random(seed)`` and ``rng.seed(seed)`` give (state, ``gauss_next``), without random.py."""
    from referee.engine.game import seeded

    for seed in SEEDS:
        theirs = random.Random(seed)
        made = seeded(None, seed)
        assert type(made) is random.Random
        assert made.getstate() == theirs.getstate() and vars(made) == vars(theirs)
        used = random.Random(99)
        used.gauss(0.0, 1.0)  # leaves a Gaussian pending: seeding clears it
        assert seeded(used, seed) is used
        assert used.getstate() == theirs.getstate() and vars(used) == vars(theirs)
        assert [made.random() for _ in range(5)] == [theirs.random() for _ in range(5)]


def test_a_generator_subclass_is_seeded_its_own_way():
    from referee.engine.game import randbelow, seeded

    class Counting(random.Random):
        seeds: list[object] = []

        def seed(self, a=None, version=2):  # noqa: D401 - random.Random's signature
            Counting.seeds.append(a)
            super().seed(a, version)

        def randrange(self, *args, **kwargs):
            return 0

    rng = Counting(1)
    assert seeded(rng, 5) is rng and Counting.seeds[-1] == 5
    assert randbelow(rng, 10) == 0


def test_randbelow_draws_as_randrange_does():
    """``game.randbelow`` (the first dealer, a buried card's place): the same number and generator state after."""
    from referee.engine.game import randbelow

    for seed in range(10):
        mine, theirs = random.Random(seed), random.Random(seed)
        for n in (1, 2, 3, 4, 6, 7, 8, 107, 108, 1000):
            assert randbelow(mine, n) == theirs.randrange(n)
        assert mine.getstate() == theirs.getstate()


def test_a_reseeded_player_draws_as_a_new_one():
    for name in ("random", "easy"):
        player = make_player(name, 3)
        player.rng.random()
        player.reseed(12345)
        assert player.rng.getstate() == random.Random(12345).getstate()
        assert player.rng.getstate() == make_player(name, 12345).rng.getstate()


def test_a_built_in_seat_plays_the_same_through_the_table_as_through_the_protocol():
    """``Table._turn`` calls a ``BuiltinSeat`` natively; another seat (here the same player behind a protocol seat)
    plays the same game, card for card."""
    from referee.bots.spec import parse_bot
    from referee.table.table import BuiltinSeat, Table

    class Wrapped:  # any Seat that is not a BuiltinSeat takes the protocol path
        def __init__(self, inner: BuiltinSeat) -> None:
            self.inner, self.name, self.by, self.sandbox, self.clock = inner, inner.name, "builtin", None, None

        def begin(self, table, index):
            self.inner.begin(table, index)

        def decide(self, table, index, legal):
            return self.inner.decide(table, index, legal)

        def finish(self, table, index):
            pass

    rules = get_ruleset("family", {"target": "round"})
    for seed in range(8):
        specs = [parse_bot(f"builtin:{n}") for n in ("easy", "medium", "hard", "random")]
        native = Table(rules, [BuiltinSeat(s) for s in specs], seed).play()
        wrapped = Table(rules, [Wrapped(BuiltinSeat(s)) for s in specs], seed).play()
        assert native.actions == wrapped.actions and native.placements == wrapped.placements
        assert native.to_json() | {"wall_ms": 0} == wrapped.to_json() | {"wall_ms": 0}


@pytest.mark.parametrize("house,options", [("family", {"target": "round"}), ("family", {}), ("compact", {}),
                                           ("arcade", {})])
def test_a_game_that_logs_no_events_plays_the_same_game(house, options):
    """``Game(log_events=False)``: the same legal moves, outcome and generator state, and no events kept."""
    rules = get_ruleset(house, options)
    for seed in range(12):
        n = 2 + seed % 5
        mine, theirs = random.Random(seed), random.Random(seed)
        logged, quiet = Game(rules, n, theirs), Game(rules, n, mine, log_events=False)
        players = [make_player("random", seed * 10 + i) for i in range(n)]
        while not logged.over:
            legal = logged.legal_actions()
            assert quiet.legal_actions() == legal and quiet.current == logged.current
            action = players[logged.current].choose(SeatView(logged, logged.current), legal)
            logged.apply(action, theirs)
            quiet.apply(action, mine)
        assert quiet.over and quiet.outcome == logged.outcome and mine.getstate() == theirs.getstate()
        assert logged.events and quiet.events == []


def test_a_job_of_built_in_seats_logs_no_events_and_a_recorder_gets_them(monkeypatch):
    """``run_job``: no events for built-in seats alone (nobody reads them: their record, if kept, is rebuilt
    from games.jsonl when read), the same result; a table with a recorder logs them."""
    from referee.bots.pool import BotPool
    from referee.bots.spec import parse_bot
    from referee.run import jobs
    from referee.table.table import BuiltinSeat, Recorder, Table

    made = []

    def spy(*args, **kwargs):
        made.append(Table(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(jobs, "Table", spy)
    rules = get_ruleset("family", {"target": "round"})
    specs = tuple(parse_bot(f"builtin:{n}") for n in ("easy", "medium", "hard", "random"))
    for seed in range(5):
        quiet, _ = jobs.run_job(jobs.GameJob(f"g{seed}", seed, rules, specs), BotPool())
        assert made[-1].game.events == []
        recorded, lines = jobs.run_job(jobs.GameJob(f"g{seed}", seed, rules, specs, record=True), BotPool())
        assert lines is None and made[-1].game.events == [] and recorded.actions
        recorder = Recorder()
        table = Table(rules, [BuiltinSeat(s) for s in specs], seed, f"g{seed}", recorder=recorder)
        logged = table.play()
        assert table.game.events and any(line["t"] == "events" and line["events"] for line in recorder.lines)
        untimed = {"wall_ms": 0}
        assert quiet.to_json() | untimed == recorded.to_json() | untimed == logged.to_json() | untimed
