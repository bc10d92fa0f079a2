"""Table generation for each format: counts, balance, seat rotation; duplicate deals; the schedule's ids and seeds."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.arena.config import parse_arena
from referee.arena.formats import (
    gauntlet,
    knockout_sizes,
    knockout_tables,
    round_robin,
    sampled,
    sampled_table_count,
    seating,
)
from referee.arena.schedule import Planner, count_games
from referee.engine.game import Game
from referee.engine.rules import get_ruleset
from referee.run.seeds import game_seed
from referee.store.results import GameLine, GameResult

NAMES = [f"b{i}" for i in range(10)]


def seat_counts(orders):
    counts: dict[str, Counter] = {}
    for order in orders:
        for seat, name in enumerate(order):
            counts.setdefault(name, Counter())[seat] += 1
    return counts


def arena(text: str, tmp_path, bots: int = 6):
    entries = "".join(f"  - {{name: b{i}, command: builtin:random}}\n" for i in range(bots))
    return parse_arena(text + "bots:\n" + entries, base_dir=str(tmp_path))


def plan_all(a, order=None):
    """Every round of an arena, with made-up results (seat 0 wins, then seat order) where needed."""
    names = [b.spec.name for b in a.bots]
    planner = Planner(a, names, order or (lambda games, names: sorted(names)))
    games, rounds = [], []
    current = planner.first()
    while current is not None:
        rounds.append(current)
        for p in current.games:
            games.append(GameLine(GameResult.from_json({
                "game": p.game_id, "seed": p.seed, "ruleset": "compact", "seating": list(p.seating),
                "placements": list(range(1, len(p.seating) + 1))}), p.slot))
        current = planner.next(current, games)
    return planner, rounds, games


# ----------------------------------------------------------------------------------- round robin

@pytest.mark.parametrize("n, k", [(4, 2), (5, 3), (6, 4), (7, 4), (6, 6)])
def test_round_robin_is_every_table_once(n, k):
    tables = round_robin(NAMES[:n], k)
    assert len(tables) == math.comb(n, k)
    assert len({frozenset(t) for t in tables}) == len(tables)
    per_bot = Counter(b for t in tables for b in t)
    assert set(per_bot.values()) == {math.comb(n - 1, k - 1)}


@pytest.mark.parametrize("k, games", [(2, 2), (3, 3), (4, 8), (4, 4)])
def test_round_robin_rotates_every_bot_through_every_seat(tmp_path, k, games):
    a = arena(f"seats: {k}\ngames: {games}\n", tmp_path)
    _, (rnd,), _ = plan_all(a)
    assert len(rnd.games) == math.comb(6, k) * games
    for t, table in enumerate(rnd.tables):
        orders = [p.seating for p in rnd.games if p.table == t]
        assert len(orders) == games and all(sorted(o) == sorted(table) for o in orders)
        for name, seats in seat_counts(orders).items():
            assert set(seats.values()) == {games // k} and len(seats) == k, (name, seats)


def test_one_game_per_table_still_spreads_the_seats(tmp_path):
    a = arena("seats: 3\ngames: 1\n", tmp_path, bots=7)
    _, (rnd,), _ = plan_all(a)
    counts = seat_counts(p.seating for p in rnd.games)
    for name, seats in counts.items():  # 15 games each over 3 seats
        assert max(seats.values()) - min(seats[s] for s in range(3)) <= 1, (name, seats)


def test_a_second_cycle_plays_the_reverse_direction():
    table = ("a", "b", "c", "d")
    first = [seating(table, j, 0, False) for j in range(4)]
    second = [seating(table, j, 0, False) for j in range(4, 8)]
    assert first[0] == ("a", "b", "c", "d") and first[1] == ("b", "c", "d", "a")
    assert second[0] == ("d", "c", "b", "a")  # who follows whom is reversed too
    assert {o.index("a") for o in second} == {0, 1, 2, 3}


# ----------------------------------------------------------------------------------- gauntlet

def test_gauntlet_puts_one_challenger_against_every_group_of_the_field(tmp_path):
    tables = gauntlet(["x", "y"], ["f1", "f2", "f3", "f4"], 3)
    assert len(tables) == 2 * math.comb(4, 2)
    assert all(sum(b in ("x", "y") for b in t) == 1 for t in tables)
    a = arena("seats: 3\ngames: 3\nformat: gauntlet\nchallengers: [b0, b5]\n", tmp_path)
    _, (rnd,), _ = plan_all(a)
    assert len(rnd.games) == count_games(a, 6) == 2 * math.comb(4, 2) * 3
    assert Counter(b for p in rnd.games for b in p.seating)["b0"] == 18
    for name, seats in seat_counts(p.seating for p in rnd.games if "b0" in p.seating).items():
        if name == "b0":
            assert set(seats.values()) == {6}


# ----------------------------------------------------------------------------------- sampled

@pytest.mark.parametrize("n, k, games", [(10, 4, 12), (30, 4, 10), (25, 3, 7), (300, 4, 20), (9, 6, 5)])
def test_sampled_tables_are_balanced_and_mixed(n, k, games):
    pool = [f"s{i}" for i in range(n)]
    tables = sampled(pool, k, sampled_table_count(n, k, games), random.Random(1))
    played = Counter(b for t in tables for b in t)
    assert set(played) == set(pool)
    assert max(played.values()) - min(played.values()) <= 1
    assert min(played.values()) >= games
    assert all(len(set(t)) == k for t in tables)
    # A mix of opponents: nobody meets the same bot much more than the pool size allows.
    met = Counter((a, b) for t in tables for a, b in itertools.permutations(t, 2))
    expected = games * (k - 1) / (n - 1)
    assert max(met.values()) <= max(2, math.ceil(expected) + 1)


def test_sampled_tables_depend_on_the_seed_only():
    pool = [f"s{i}" for i in range(20)]
    assert sampled(pool, 4, 30, random.Random(7)) == sampled(pool, 4, 30, random.Random(7))
    assert sampled(pool, 4, 30, random.Random(7)) != sampled(pool, 4, 30, random.Random(8))


def test_sampled_seats_are_balanced_over_the_stage(tmp_path):
    a = arena("seats: 4\nformat: sampled\ngames: 40\n", tmp_path, bots=10)
    _, (rnd,), _ = plan_all(a)
    assert len(rnd.games) == count_games(a, 10) == 100
    for name, seats in seat_counts(p.seating for p in rnd.games).items():
        assert max(seats.values()) - min(seats[s] for s in range(4)) <= 2, (name, seats)


# ----------------------------------------------------------------------------------- knockout

def test_knockout_tables_snake_seed_and_leave_nobody_alone_when_they_can():
    tables = knockout_tables([f"r{i}" for i in range(1, 17)], 4)
    assert tables == [("r1", "r8", "r9", "r16"), ("r2", "r7", "r10", "r15"), ("r3", "r6", "r11", "r14"),
                      ("r4", "r5", "r12", "r13")]
    assert sorted(len(t) for t in knockout_tables([f"r{i}" for i in range(10)], 4)) == [3, 3, 4]
    assert knockout_sizes(16, 4, 2) == [[4, 4, 4, 4], [4, 4], [4]]
    assert knockout_sizes(10, 4, 2) == [[4, 3, 3], [3, 3], [4]]
    assert knockout_sizes(3, 2, 1) == [[2, 1], [2]]  # a bye


def test_knockout_rounds_advance_the_top_places_to_a_final(tmp_path):
    a = arena("seats: 4\nformat: knockout\ngames: 4\nadvance: 2\nfinal_games: 8\n", tmp_path, bots=16)
    planner, rounds, games = plan_all(a)
    assert [len(r.tables) for r in rounds] == [4, 2, 1]
    assert [r.label for r in rounds] == ["round 1", "round 2", "final"]
    assert len(games) == count_games(a, 16) == 4 * 4 + 2 * 4 + 8
    # Made-up results: each game's seat order is its placing, and the seats rotate, so every table
    # is a tie on average place broken by the ranking; exactly 2 per table go through.
    entered = [set(b for t in r.tables for b in t) for r in rounds]
    assert [len(e) for e in entered] == [16, 8, 4]
    assert entered[2] <= entered[1] <= entered[0]
    order = planner.final_order(games)
    assert set(order[:4]) == entered[2] and set(order[4:8]) == entered[1] - entered[2]
    for _name, seats in seat_counts(p.seating for p in rounds[0].games).items():
        assert set(seats.values()) == {1}


def test_a_later_stage_takes_the_top_entrants(tmp_path):
    a = arena("seats: 3\nstages:\n  - {name: league, format: sampled, games: 3}\n"
              "  - {name: cup, format: knockout, entrants: 6, games: 3, advance: 1}\n", tmp_path, bots=9)
    planner, rounds, games = plan_all(a, order=lambda games, names: list(names))  # file order is the ranking
    assert rounds[1].stage.name == "cup"
    assert set(b for t in rounds[1].tables for b in t) == {f"b{i}" for i in range(6)}
    assert len(games) == count_games(a, 9)
    assert planner.final_order(games)[-3:] == ["b6", "b7", "b8"]  # out after the league


# ----------------------------------------------------------------------------------- duplicate deals

def test_duplicate_deals_replay_each_deal_once_per_seat(tmp_path):
    a = arena("seats: 4\ngames: 8\nduplicate: true\n", tmp_path, bots=5)
    _, (rnd,), _ = plan_all(a)
    by_deal: dict[int, list] = {}
    for p in rnd.games:
        by_deal.setdefault(p.deal, []).append(p)
    assert len(by_deal) == math.comb(5, 4) * 2
    for deal, games in by_deal.items():
        assert len(games) == 4 and len({p.seed for p in games}) == 1 and len({p.table for p in games}) == 1
        assert games[0].seed == game_seed(a.seed, deal)
        for name in games[0].seating:  # every bot plays every seat's hand of the deal once
            assert sorted(p.seating.index(name) for p in games) == [0, 1, 2, 3]


def test_the_same_seed_deals_the_same_hands_to_the_same_seats():
    rules = get_ruleset("compact")
    seed = game_seed(3, 11)
    hands = [[c.code for c in h] for h in Game(rules, 4, random.Random(seed)).hands]
    assert hands == [[c.code for c in h] for h in Game(rules, 4, random.Random(seed)).hands]
    assert hands != [[c.code for c in h] for h in Game(rules, 4, random.Random(seed + 1)).hands]


def test_duplicate_sampled_tables_are_whole_deals(tmp_path):
    a = arena("seats: 3\nformat: sampled\ngames: 6\nduplicate: true\n", tmp_path, bots=7)
    _, (rnd,), _ = plan_all(a)
    assert len(rnd.games) == count_games(a, 7)
    assert all(c == 3 for c in Counter(p.deal for p in rnd.games).values())


# ----------------------------------------------------------------------------------- ids and seeds

def test_games_are_numbered_in_order_with_seeds_from_their_deal(tmp_path):
    a = arena("seats: 2\ngames: 2\nstages:\n  - {name: a}\n  - {name: b, ruleset: arcade}\n", tmp_path, bots=3)
    _, rounds, games = plan_all(a)
    ids = [p.game_id for r in rounds for p in r.games]
    assert ids == [f"g{i:06d}" for i in range(1, 13)] == sorted(ids)
    planned = [p for r in rounds for p in r.games]
    assert [p.deal for p in planned] == list(range(12))
    assert all(p.seed == game_seed(a.seed, p.deal) for p in planned)
    # Game j of every table comes before game j + 1 of any: a stopped round is spread evenly.
    assert [p.table for p in rounds[0].games] == [0, 1, 2, 0, 1, 2]


# ----------------------------------------------------------------------------------- formats as objects

def test_every_format_the_schema_allows_is_an_object_and_owns_its_keys():
    from referee.arena.formats import FORMATS
    from referee.arena.schema import arena_schema

    schema = arena_schema()
    assert list(FORMATS) == schema["$defs"]["format"]["enum"]
    owned = {key: name for name, f in FORMATS.items() for key in f.keys()}  # noqa: SIM118 - a format's own keys()
    assert owned == {"challengers": "gauntlet", "advance": "knockout", "final_games": "knockout"}
    assert all(f.name == name for name, f in FORMATS.items())


@settings(max_examples=120, deadline=None)
@given(fmt=st.sampled_from(["round_robin", "gauntlet", "sampled", "knockout"]), seats=st.integers(2, 5),
       bots=st.integers(2, 11), games=st.integers(1, 9), duplicate=st.booleans(), advance=st.integers(1, 4),
       second=st.booleans())
def test_each_format_plans_exactly_the_games_it_counts(fmt, seats, bots, games, duplicate, advance, second):
    import tempfile

    from referee.arena.config import ArenaFileError

    if duplicate and fmt != "sampled":
        games = max(1, games // seats) * seats
    extra = {"gauntlet": "challengers: [b0]\n", "knockout": f"advance: {min(advance, seats - 1)}\n"}.get(fmt, "")
    stage = f"format: {fmt}\nseats: {seats}\ngames: {games}\nduplicate: {str(duplicate).lower()}\n{extra}"
    if second:  # a league first, so the stage under test takes the top entrants of a ranking
        stage = (f"seats: {seats}\nstages:\n  - {{name: league, format: sampled, games: 2}}\n"
                 f"  - {{name: s, entrants: {max(seats, bots - 1)}, " + ", ".join(
                     line.replace(": ", ": ", 1) for line in stage.strip().splitlines()) + "}\n")
    try:
        with tempfile.TemporaryDirectory() as tmp:
            a = arena(stage, tmp, bots=bots)
    except ArenaFileError:
        return  # more seats than bots, a field too small: refused, nothing to plan
    planner, rounds, played = plan_all(a)
    assert len(played) == count_games(a, bots) == planner.total
    assert len({g.game for g in played}) == len(played)


@pytest.mark.parametrize("text,extra", [
    ("seats: 3\ngames: 3\nformat: round_robin\n", {}),
    ("seats: 3\ngames: 3\nformat: sampled\n", {}),
    ("seats: 3\ngames: 3\nformat: gauntlet\nchallengers: [b0, b5]\n", {"challengers": ["b0", "b5"]}),
    ("seats: 4\nformat: knockout\ngames: 4\nadvance: 2\nfinal_games: 8\n", {"advance": 2, "final_games": 8}),
    ("seats: 4\nformat: knockout\ngames: 4\n", {"advance": 2, "final_games": 4}),  # the defaults
])
def test_a_stage_shows_the_settings_of_its_own_format_only(tmp_path, text, extra):
    stage = arena(text, tmp_path, bots=16).stages[0]
    shown = stage.to_json()
    assert list(shown)[:7] == ["name", "format", "ruleset", "options", "seats", "games", "duplicate"]
    assert {k: v for k, v in shown.items() if k in ("challengers", "advance", "final_games")} == extra
