"""Twin-game planning for ``lastcard compare``: one deal per pair, NEW and BASE swapped, the field fixed,
seats rotating evenly, any pair computed alone; scoring by placements; the settings' checks."""

from __future__ import annotations

from collections import Counter

import pytest

from referee.bots.spec import parse_bot
from referee.compare import twins
from referee.compare.sprt import SprtSettings
from referee.compare.twins import (
    CompareError,
    CompareSettings,
    game_ids,
    game_score,
    pair_of,
    rotation,
    twin_jobs,
    twin_pair,
)
from referee.engine.rules import get_ruleset
from referee.run.jobs import GameJob
from referee.run.seeds import game_seed
from referee.table.policy import FaultPolicy

NEW, BASE = parse_bot("new=builtin:hard"), parse_bot("base=builtin:medium")
FIELD = [parse_bot("builtin:easy"), parse_bot("builtin:random"), parse_bot("builtin:easy"), parse_bot("builtin:hard")]


def settings(seats: int, **kw) -> CompareSettings:
    return CompareSettings.build(NEW, BASE, FIELD[:seats - 2], seed=7, **kw)


def names(job: GameJob) -> list[str]:
    return [s.name for s in job.seats]


@pytest.mark.parametrize("seats", range(2, 7))
def test_twins_share_the_deal_and_the_field_and_swap_new_and_base(seats):
    s = settings(seats)
    for k in [0, 1, 5, 17, 123]:
        pair = twin_pair(s, k)
        a, b = pair.jobs
        assert a.seed == b.seed == pair.seed == game_seed(7, k, "compare")
        assert names(a)[pair.new_seat] == names(b)[pair.base_seat] == "new"
        assert names(a)[pair.base_seat] == names(b)[pair.new_seat] == "base"
        others = [i for i in range(seats) if i not in (pair.new_seat, pair.base_seat)]
        assert [names(a)[i] for i in others] == [names(b)[i] for i in others] == [f.name for f in s.field]
        assert len(set(names(a))) == seats


def test_pairs_have_different_deals():
    s = settings(2)
    assert len({twin_pair(s, k).seed for k in range(200)}) == 200
    assert twin_pair(s, 3).seed != twin_pair(CompareSettings.build(NEW, BASE, seed=8), 3).seed


@pytest.mark.parametrize("seats", range(2, 7))
def test_every_block_of_seats_pairs_puts_new_and_base_at_every_seat_twice(seats):
    s = settings(seats)
    for block in range(3 * (seats - 1)):
        new_at, base_at = Counter(), Counter()
        for k in range(block * seats, (block + 1) * seats):
            for job in twin_jobs(s, k):
                new_at[names(job).index("new")] += 1
                base_at[names(job).index("base")] += 1
        assert new_at == base_at == Counter({i: 2 for i in range(seats)}), block


@pytest.mark.parametrize("seats", range(3, 7))
def test_the_distance_from_new_to_base_rotates_evenly(seats):
    cycle = seats * (seats - 1)
    distances = Counter((b - a) % seats for a, b in (rotation(seats, k) for k in range(2 * cycle)))
    assert distances == Counter({d: 2 * seats for d in range(1, seats)})


def test_a_pair_far_away_is_computed_alone(monkeypatch):
    calls = []

    def spy(base_seed, index, salt=""):
        calls.append(index)
        return game_seed(base_seed, index, salt)

    monkeypatch.setattr(twins, "game_seed", spy)
    s = settings(4)
    k = 10**9
    pair = twin_pair(s, k)
    assert calls == [k]  # one seed computed: no other pair planned on the way
    assert (pair.new_seat, pair.base_seat) == rotation(4, k) == (k % 4, (k % 4 + 1 + (k // 4) % 3) % 4)
    assert [j.game_id for j in pair.jobs] == ["p1000000001a", "p1000000001b"]


def test_jobs_carry_the_rules_the_policy_and_the_record_flag_and_round_trip():
    rules = get_ruleset("family", {"stacking": True})
    s = CompareSettings.build(NEW, BASE, [FIELD[0]], seed=3, rules=rules, policy=FaultPolicy.parse("strikes:2"),
                              record=True)
    for job in twin_jobs(s, 4):
        assert (job.rules, job.policy.to_json(), job.record) == (rules, "strikes:2", True)
        assert GameJob.from_json(job.to_json()) == job


@pytest.mark.parametrize("k", [0, 1, 41, 999_999, 10**7])
def test_game_ids_lead_back_to_their_pair(k):
    a, b = game_ids(k)
    assert (pair_of(a), pair_of(b)) == ((k, "a"), (k, "b"))


@pytest.mark.parametrize("game_id", ["g000001", "p000000a", "p1a", "p000001c", "p000001ab"])
def test_a_game_id_from_elsewhere_is_refused(game_id):
    with pytest.raises(ValueError, match="is not a compare game id"):
        pair_of(game_id)


@pytest.mark.parametrize("placements, new_seat, base_seat, score", [
    pytest.param((1, 2), 0, 1, 1.0, id="new-first"),
    pytest.param((2, 1), 0, 1, 0.0, id="base-first"),
    pytest.param((1, 1), 0, 1, 0.5, id="shared-first"),
    pytest.param((3, 1, 2, 4), 0, 2, 0.0, id="both-behind-the-field-new-last"),
    pytest.param((2, 4, 1, 3), 3, 1, 1.0, id="neither-wins-new-ahead"),
    pytest.param((1, 4, 2, 4), 1, 3, 0.5, id="both-forfeit-share-last"),
])
def test_a_game_scores_by_where_new_placed_against_base(placements, new_seat, base_seat, score):
    assert game_score(placements, new_seat, base_seat) == score


def test_a_pair_scores_each_twin_at_its_own_seats():
    pair = twin_pair(settings(3), 1)
    places = [2, 2, 2]
    places[pair.new_seat], places[pair.base_seat] = 1, 3
    # The same places by seat in both twins (the deal won it): NEW wins twin a and loses twin b, a WL pair.
    assert pair.scores(places, places) == (1.0, 0.0)
    swapped = list(places)
    swapped[pair.new_seat], swapped[pair.base_seat] = 3, 1
    assert pair.scores(places, swapped) == (1.0, 1.0)  # NEW ahead in both: WW


def test_the_field_fills_with_named_built_ins_and_names_are_told_apart():
    s = CompareSettings.build(parse_bot("builtin:hard"), parse_bot("builtin:hard"), [parse_bot("builtin:medium")],
                              seats=5)
    assert (s.new.name, s.base.name) == ("hard#new", "hard#base")
    assert [f.name for f in s.field] == ["medium", "medium#2", "medium#3"] and s.fillers == ("medium#2", "medium#3")
    assert s.describe() == "compact, 5 seats, field: medium, medium#2 (filled), medium#3 (filled)"
    assert s.warnings == ("NEW and BASE are the same command ('builtin:hard'): named hard#new and hard#base; "
                          "NAME=COMMAND names them",)
    assert CompareSettings.build(NEW, BASE).warnings == ()


def test_the_stop_rule_settings():
    assert settings(2).sprt == SprtSettings() and settings(2).max_pairs is None
    assert settings(2, max_games=100).max_pairs == 50
    fixed = settings(2, games=20, sprt=SprtSettings(0, 10))
    assert fixed.sprt is None and fixed.max_pairs == 10


@pytest.mark.parametrize("kwargs, option, message", [
    pytest.param({"seats": 7}, "seats", "--seats 7: a table of Last Card seats 2 to 6", id="seats-high"),
    pytest.param({"seats": 1}, "seats", "--seats 1", id="seats-low"),
    pytest.param({"field": FIELD, "seats": 4}, "field", "a field of 4 does not fit 4 seats with NEW and BASE: give "
                 "at most 2 --field bots, or --seats 6", id="field-too-big"),
    pytest.param({"field": FIELD * 2}, "field", "a field of 8 makes 10 seats with NEW and BASE; a table of Last Card "
                 "seats 2 to 6: give at most 4 --field bots", id="field-beyond-six"),
    pytest.param({"games": 7}, "games", "--games 7: compare plays twin pairs, so give an even number of games, "
                 "2 or more (e.g. 8)", id="odd-games"),
    pytest.param({"max_games": 0}, "max-games", "--max-games 0", id="no-games"),
    pytest.param({"games": 10, "max_games": 20}, "games", "contradict", id="games-and-cap"),
])
def test_settings_that_make_no_comparison_are_refused_naming_the_option(kwargs, option, message):
    with pytest.raises(CompareError, match=message.replace("(", r"\(").replace(")", r"\)")) as info:
        CompareSettings.build(NEW, BASE, **kwargs)
    assert info.value.option == option


# ---------------------------------------------------------------- a contest's field, drawn; the test against it
POOL = [parse_bot(f"b{i}=builtin:{kind}") for i, kind in enumerate(["easy", "random", "medium", "hard", "easy"])]


def test_a_field_larger_than_its_seats_is_refused_unless_drawn():
    with pytest.raises(CompareError, match="does not fit 4 seats"):
        CompareSettings.build(NEW, BASE, POOL, seats=4)
    s = CompareSettings.build(NEW, BASE, POOL, seats=4, seed=3, draw=True)
    assert (s.seats, s.draw, s.fillers) == (4, 2, ())
    assert "2 a pair, drawn from b0, b1, b2, b3, b4" in s.describe()


def test_each_pair_draws_its_field_the_same_in_both_twins_and_every_bot_sits():
    s = CompareSettings.build(NEW, BASE, POOL, seats=4, seed=3, draw=True)
    seen: Counter[str] = Counter()
    for k in range(200):
        pair = twin_pair(s, k)
        a, b = (names(j) for j in pair.jobs)
        mine = {pair.new_seat, pair.base_seat}
        field_a = [n for i, n in enumerate(a) if i not in mine]
        assert field_a == [n for i, n in enumerate(b) if i not in mine] == [f.name for f in s.field_of(k)]
        assert len(set(field_a)) == 2 and set(field_a) <= {p.name for p in POOL}
        assert twin_pair(s, k) == pair  # a formula of the seed and k
        seen.update(field_a)
    assert set(seen) == {p.name for p in POOL} and min(seen.values()) > 200 * 2 / 5 / 2


def test_a_duel_has_no_seat_for_a_contests_field():
    s = CompareSettings.build(NEW, BASE, POOL, seats=2, draw=True)
    assert (s.seats, s.field) == (2, ())


def test_the_test_against_the_field_puts_new_then_base_in_one_seat_among_the_same_bots():
    s = CompareSettings.build(NEW, BASE, POOL, seats=3, seed=5, draw=True, versus="field")
    assert (s.seats, s.draw) == (3, 2) and "against the field" in s.describe()
    seats_used = set()
    for k in range(12):
        pair = twin_pair(s, k)
        a, b = (names(j) for j in pair.jobs)
        m = pair.new_seat
        seats_used.add(m)
        assert pair.base_seat == m and a[m] == "new" and b[m] == "base"
        assert "base" not in a and "new" not in b
        assert [n for i, n in enumerate(a) if i != m] == [n for i, n in enumerate(b) if i != m]
        assert pair.jobs[0].seed == pair.jobs[1].seed
    assert seats_used == {0, 1, 2}


@pytest.mark.parametrize("place_new, place_base, score", [(1, 2, 1.0), (2, 2, 0.5), (3, 1, 0.0)])
def test_against_the_field_a_pair_scores_news_place_against_bases(place_new, place_base, score):
    s = CompareSettings.build(NEW, BASE, POOL[:2], seed=5, versus="field")
    pair = twin_pair(s, 0)
    m = pair.new_seat
    placements_a, placements_b = [2, 3, 1], [3, 1, 2]
    placements_a[m], placements_b[m] = place_new, place_base
    assert pair.scores(placements_a, placements_b) == (score, score)


def test_a_test_against_the_field_needs_one():
    with pytest.raises(CompareError, match="needs a field") as err:
        CompareSettings.build(NEW, BASE, versus="field")
    assert err.value.option == "vs-field"
