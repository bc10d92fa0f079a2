"""Lazy rounds (``schedule.LazyGames``) plan exactly the games the listed rounds plan, and a plan of
millions of games is neither held nor refused where a format can plan it lazily."""

from __future__ import annotations

import os

import pytest

from referee.arena import schedule
from referee.arena.config import MAX_GAMES, ArenaFileError, parse_arena
from referee.arena.schedule import LazyGames, Planner
from referee.arena.tables import rotations, seating, seatings
from referee.bots.spec import parse_bot
from referee.cli.match import match_arena
from referee.engine.rules import get_ruleset
from referee.table.policy import FaultPolicy
from tests.support.plans import all_plans


def _listed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every round listed whole, as the planner did before rounds were lazy."""
    monkeypatch.setattr(schedule.LazyGames, "fits", staticmethod(lambda tables, counts, duplicate: False))


def test_every_test_arena_plans_the_same_games_lazily_as_listed(monkeypatch):
    lazy = all_plans()
    _listed(monkeypatch)
    listed = all_plans()
    assert lazy.keys() == listed.keys()
    for name in lazy:  # ids, seeds, deals, tables and seatings of every game, round by round
        assert lazy[name] == listed[name], name


@pytest.mark.parametrize("bots, seats, games, duplicate", [
    (2, 2, 1, False), (2, 2, 7, False), (3, 3, 10, False), (4, 2, 5, False), (5, 3, 6, True), (4, 4, 9, False),
    (6, 4, 8, True), (6, 6, 13, False),
])
def test_a_match_or_round_robin_game_by_game_lazy_equals_listed(monkeypatch, bots, seats, games, duplicate):
    text = (f"seats: {seats}\ngames: {games}\nduplicate: {str(duplicate).lower()}\nseed: 11\nbots: ["
            + ", ".join(f"{{name: b{i}, command: 'builtin:random'}}" for i in range(bots)) + "]\n")
    arena = parse_arena(text, source="<test>", base_dir=os.getcwd())
    lazy_round = Planner(arena, [b.spec.name for b in arena.bots], lambda g, n: list(n)).first()
    assert isinstance(lazy_round.games, LazyGames)
    _listed(monkeypatch)
    listed_round = Planner(arena, [b.spec.name for b in arena.bots], lambda g, n: list(n)).first()
    assert isinstance(listed_round.games, tuple)
    assert list(lazy_round.games) == list(listed_round.games)
    assert [lazy_round.games[k] for k in range(len(lazy_round.games) - 1, -1, -1)] == list(listed_round.games)[::-1]


def test_rotations_in_closed_form_match_the_game_by_game_choice():
    """The closed form of ``rotations`` chooses as the cost over every game would (the old ``seatings``)."""
    tables = [("a", "b", "c"), ("a", "c", "d"), ("b", "d"), ("a", "b", "c", "d")]
    for games in ([5, 7, 2, 9], [3, 6, 4, 8], [1, 1, 1, 1], [0, 4, 3, 11]):
        counts_fast: dict[str, list[int]] = {}
        fast = rotations(tables, games, counts_fast)
        counts_slow: dict[str, list[int]] = {}
        slow = []
        for table, g in zip(tables, games):  # the cost summed over every game, as seatings once did
            for name in table:
                counts_slow.setdefault(name, [0] * 6)
            options = [(sum(counts_slow[n][s] for j in range(g) for s, n in enumerate(seating(table, j, o, r))), o, r)
                       for r in ((False, True) if len(table) > 2 else (False,)) for o in range(len(table))]
            best = min(options, key=lambda x: x[0])  # the first of the cheapest, as the planner picks
            slow.append((best[1], best[2]))
            for j in range(g):
                for s, n in enumerate(seating(table, j, best[1], best[2])):
                    counts_slow[n][s] += 1
        assert fast == slow and counts_fast == counts_slow
        assert seatings(tables, games) == [[seating(t, j, *rot) for j in range(g)]
                                           for t, g, rot in zip(tables, games, slow)]


def test_a_match_of_two_million_games_is_planned_without_holding_it():
    specs = [parse_bot("builtin:easy"), parse_bot("builtin:random")]
    arena = match_arena(get_ruleset("family"), specs, games=2_000_000, seed=3, policy=FaultPolicy(), records=False)
    planner = Planner(arena, [s.name for s in specs], lambda g, n: list(n), id_digits=4)
    first = planner.first()
    assert isinstance(first.games, LazyGames) and len(first.games) == 2_000_000 > MAX_GAMES
    last = first.games[-1]
    assert last.game_id == "g2000000" and last.index == 2_000_000 and last.deal == 1_999_999
    assert first.games[0].seating != first.games[1].seating  # the seats rotate
    assert planner.is_planned("g2000000") and not planner.is_planned("g2000001")


def test_the_cap_names_the_format_that_must_hold_its_games_and_the_alternative():
    bots = "bots: [builtin:random, builtin:easy]\nseats: 2\n"
    parse_arena(bots + "games: 2000000\n", source="<t>", base_dir=os.getcwd())  # a round robin: lazy, accepted
    with pytest.raises(ArenaFileError) as exc:
        parse_arena(bots + "format: sampled\ngames: 2000000\n", source="<t>", base_dir=os.getcwd())
    assert "format sampled plans all its games at once, at most 1,000,000" in str(exc.value)
    assert "use format: round_robin" in str(exc.value)
    with pytest.raises(ArenaFileError) as exc:
        parse_arena(bots + "format: knockout\ngames: 2000000\n", source="<t>", base_dir=os.getcwd())
    assert "format knockout plans all its games at once" in str(exc.value)
