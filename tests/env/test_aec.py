"""referee.env: PettingZoo's own API and seed tests, the engine agreeing with the referee, masks = legal lists.

Needs the ``rl`` extra (PettingZoo, Gymnasium); without it every test here is skipped with the reason.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install -e '.[rl]' (the rl extra)")
pytest.importorskip("gymnasium", reason="Gymnasium is not installed: pip install -e '.[rl]' (the rl extra)")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from referee.botkit import FIELDS, OFFSETS, Encoding  # noqa: E402
from referee.bots.spec import parse_bot  # noqa: E402
from referee.engine.actions import Action, IllegalActionError  # noqa: E402
from referee.engine.game import Game  # noqa: E402
from referee.engine.rules import PRESETS, get_ruleset, option_grid  # noqa: E402
from referee.env import env, place_rewards, raw_env  # noqa: E402
from referee.env.view import round_places  # noqa: E402
from referee.table.table import BuiltinSeat, Table  # noqa: E402

RULESETS = list(PRESETS)
SEATS = [2, 3, 4, 5, 6]


def short(house: str) -> dict[str, Any]:
    """Options that keep a game short: single rounds where the house allows, else the lowest target."""
    return {"compact": {"target": 100}, "family": {"target": "round"}, "arcade": {}}[house]


# ---------------------------------------------------------------------------------------- PettingZoo's tests
@pytest.mark.parametrize("seats", [2, 4, 6])
@pytest.mark.parametrize("house", RULESETS)
def test_pettingzoo_api_test(house: str, seats: int) -> None:
    with warnings.catch_warnings():
        # Dict observations draw "probably should be a Box" notes for any env not on PettingZoo's own list.
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(ruleset=house, seats=seats), num_cycles=300)


@pytest.mark.parametrize("house", RULESETS)
def test_pettingzoo_seed_test(house: str) -> None:
    seed_test(lambda: env(ruleset=house, seats=4, options=short(house)), num_cycles=300)


def test_pettingzoo_api_test_with_round_rewards() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(ruleset="compact", seats=3, options={"target": 100}, reward="round"), num_cycles=400)


# ---------------------------------------------------------------------------------------- the same game as the referee
class ScriptSeat:
    """A seat that plays given actions in order (the referee's Seat protocol)."""

    by = "builtin"
    sandbox = None

    def __init__(self, name: str, actions: list[Action]) -> None:
        self.name = name
        self.actions = actions

    def begin(self, table: Table, index: int) -> None:
        pass

    def decide(self, table: Table, index: int, legal: list[Action]) -> tuple[Action, float | None]:
        action = self.actions.pop(0)
        assert action in legal
        return action, None

    def finish(self, table: Table, index: int) -> None:
        pass


def play_env(house: str, seats: int, seed: int, options: dict[str, Any] | None = None) -> tuple[raw_env, list]:
    """A whole env game with seeded random choices; the env and each seat's actions."""
    e = raw_env(ruleset=house, seats=seats, options=short(house) if options is None else options)
    e.reset(seed=seed)
    picks = random.Random(seed)
    by_seat: list[list[Action]] = [[] for _ in range(seats)]
    while not e.game.over:
        index = picks.choice(sorted(e._legal))
        by_seat[e.game.current].append(e._legal[index])
        e.step(index)
    return e, by_seat


@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.parametrize("house", RULESETS)
def test_env_game_is_the_referee_game_with_the_same_seed_and_actions(house: str, seats: int) -> None:
    for seed in (7, 8):
        e, by_seat = play_env(house, seats, seed)
        table = Table(e.ruleset, [ScriptSeat(f"s{i}", acts) for i, acts in enumerate(by_seat)], seed)
        result = table.play()
        assert table.game.events == e.game.events
        assert list(result.placements) == list(e.game.outcome.placements)


@pytest.mark.parametrize("seats", [2, 4, 6])
@pytest.mark.parametrize("house", RULESETS)
def test_referee_game_replays_in_the_env_by_index(house: str, seats: int) -> None:
    """A referee game between built-in players, its actions fed to the env as indices: the same events."""
    rules = get_ruleset(house, short(house))
    specs = ["builtin:hard", "builtin:random", "builtin:medium", "builtin:easy", "builtin:hard", "builtin:random"]
    table = Table(rules, [BuiltinSeat(parse_bot(s)) for s in specs[:seats]], seed=31)
    table.play()
    e = raw_env(ruleset=rules, seats=seats)
    e.reset(seed=31)
    for action in table.actions:
        index = e.observer.index_of(action)
        assert e.observe(e.agent_selection)["action_mask"][index] == 1
        e.step(index)
    assert e.game.events == table.game.events and e.terminations == dict.fromkeys(e.agents, True)


def test_reset_with_a_seed_deals_as_the_referee() -> None:
    e = raw_env(ruleset="arcade", seats=5)
    e.reset(seed=123)
    game = Game(e.ruleset, 5, random.Random(123))
    assert e.game.hands == game.hands and e.game.top is game.top and e.game.current == game.current


def test_seedless_resets_follow_from_the_last_seed() -> None:
    a, b = raw_env(), raw_env()
    a.reset(seed=5)
    b.reset(seed=5)
    a.reset()
    b.reset()
    assert a.game_seed == b.game_seed and a.game.hands == b.game.hands and a.game_seed != 5


# ---------------------------------------------------------------------------------------- masks and the catalogue
def grid_cases() -> list[tuple[str, dict[str, Any], int]]:
    """Every option set of the grid, the table sizes taken in turn."""
    return [(house, opts, SEATS[i % len(SEATS)]) for i, (house, opts) in enumerate(option_grid())]


def check_masks(e: raw_env) -> list[int]:
    """The mask of the seat to act is exactly its legal list, one index each, naming that action; others' are 0."""
    legal = e.game.legal_actions()
    mask = e.observe(e.agent_selection)["action_mask"]
    indices = [e.observer.index_of(a) for a in legal]
    assert len(set(indices)) == len(legal), legal  # one index per legal action
    assert sorted(np.flatnonzero(mask)) == sorted(indices)
    for a, index in zip(legal, indices):  # and each index names that very action
        assert Action.from_wire(e.observer.encoding.answers[index]).key == a.key
    for agent in e.agents:  # nobody else may act
        if agent != e.agent_selection:
            assert not e.observe(agent)["action_mask"].any()
    return indices


def test_masks_are_exactly_the_legal_lists_over_every_option_set() -> None:
    decisions = 0
    for i, (house, opts, seats) in enumerate(grid_cases()):
        e = raw_env(ruleset=house, seats=seats, options={**opts, "move_limit": 200})
        e.reset(seed=i)
        picks = random.Random(i)
        while not e.game.over:
            e.step(picks.choice(check_masks(e)))
            decisions += 1
    assert decisions > 10_000


@pytest.mark.parametrize("house", RULESETS)
@pytest.mark.parametrize("seats", SEATS)
def test_masks_in_seeded_playouts_of_every_ruleset_and_table_size(house: str, seats: int) -> None:
    for seed in range(4):
        e = raw_env(ruleset=house, seats=seats, options=short(house))
        e.reset(seed=seed + 100)
        picks = random.Random(seed)
        while not e.game.over:
            e.step(picks.choice(check_masks(e)))


@pytest.mark.parametrize("house", RULESETS)
def test_every_index_maps_back_to_itself(house: str) -> None:
    for opts in ({}, {"multi_play": True}, {"opening": "family"}, {"deck": "compact", "multi_play": True}):
        encoding = Encoding.for_options(get_ruleset(house, opts).options)
        for index, answer in enumerate(encoding.answers):
            action = Action.from_wire(answer)
            assert encoding.index_of(action.to_wire()) == index
            assert encoding.index_of(Action(action.kind, action.cards, action.colour, True).to_wire()) == index


@pytest.mark.parametrize("house, size", [("compact", 2 + 48 + 8), ("family", 2 + 4 + 52 + 8),
                                         ("arcade", 2 + 52 + 8 + 48 + 12 * 540)])
def test_catalogue_size_is_what_the_deck_allows(house: str, size: int) -> None:
    """Draw, pass, colours (family opening), one per card, wilds by colour, and arcade's stacks of one rank.

    A stack is its first card, its last and the cards between as a multiset: of a rank with two copies per
    colour there are 540 (48 of the standard deck's 0s, one per colour).
    """
    assert raw_env(ruleset=house).action_space("player_0").n == size


# ---------------------------------------------------------------------------------------- what a seat sees
def test_observation_ignores_what_the_seat_may_not_see() -> None:
    """Other hands and the draw pile's order can change (same counts) without changing seat 0's observation."""
    e = raw_env(ruleset="family", seats=4)
    e.reset(seed=3)
    for _ in range(9):
        e.step(sorted(e._legal)[0])
    before = {a: e.observe(a)["observation"] for a in e.agents}
    game = e.game
    pool = game.hands[1] + game.hands[2] + game.draw_pile
    random.Random(0).shuffle(pool)
    sizes = len(game.hands[1]), len(game.hands[2])
    game.hands[1], game.hands[2], game.draw_pile = pool[:sizes[0]], pool[sizes[0]:sum(sizes)], pool[sum(sizes):]
    assert np.array_equal(e.observe("player_0")["observation"], before["player_0"])
    assert np.array_equal(e.observe("player_3")["observation"], before["player_3"])
    assert not np.array_equal(e.observe("player_1")["observation"], before["player_1"])


def test_a_drawn_card_is_seen_by_its_drawer_only() -> None:
    e = raw_env(ruleset="compact", seats=3)
    for seed in range(200):
        e.reset(seed=seed)
        for _ in range(60):
            if e.game.drawn is not None or e.game.over:
                break
            legal = e._legal
            e.step(0 if 0 in legal else sorted(legal)[0])  # index 0: draw
        if e.game.drawn is not None:
            break
    drawn = OFFSETS["drawn"]
    size = dict(FIELDS)["drawn"]
    for agent in e.agents:
        part = e.observe(agent)["observation"][drawn:drawn + size]
        assert part.sum() == (1 if agent == e.agent_selection else 0)


# ---------------------------------------------------------------------------------------- rewards, illegal actions
@pytest.mark.parametrize("places, rewards", [
    pytest.param([1, 2], [1.0, -1.0], id="two"),
    pytest.param([2, 1, 3, 4], [1 / 3, 1.0, -1 / 3, -1.0], id="four"),
    pytest.param([1, 1, 3], [1.0, 1.0, -1.0], id="shared-first"),
])
def test_place_rewards(places: list[int], rewards: list[float]) -> None:
    assert place_rewards(places) == pytest.approx(rewards)


def run_rewards(reward: str) -> tuple[raw_env, list[list[float]]]:
    e = raw_env(ruleset="compact", seats=3, options={"target": 200}, reward=reward)
    e.reset(seed=11)
    picks = random.Random(11)
    seen = []
    while not e.game.over:
        e.step(picks.choice(sorted(e._legal)))
        if any(e.rewards.values()):
            seen.append([e.rewards[a] for a in e.possible_agents])
    return e, seen


def test_game_rewards_come_once_by_the_final_placements() -> None:
    e, seen = run_rewards("game")
    assert seen == [place_rewards(e.game.outcome.placements)] and e.game.round > 1


def test_round_rewards_come_at_every_round_end() -> None:
    e, seen = run_rewards("round")
    ends = [ev for ev in e.game.events if ev["kind"] == "round_end"]
    assert len(ends) > 1 and seen == [place_rewards(round_places(ev)) for ev in ends]


def test_raw_env_refuses_an_illegal_action_and_names_the_legal_ones() -> None:
    e = raw_env(ruleset="family", seats=2)
    e.reset(seed=1)
    illegal = next(i for i in range(e.observer.actions) if i not in e._legal)
    with pytest.raises(IllegalActionError, match=rf"player_\d chose action {illegal} .* legal: "):
        e.step(illegal)
    assert e.game.move == 0  # nothing happened


def test_wrapped_env_ends_the_game_with_a_penalty_for_an_illegal_action() -> None:
    e = env(ruleset="family", seats=3)
    e.reset(seed=1)
    offender = e.agent_selection
    mask = e.observe(offender)["action_mask"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # PettingZoo warns about the illegal move it punishes
        e.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(e.terminations.values())
    assert e.rewards[offender] == -1 and all(r == 0 for a, r in e.rewards.items() if a != offender)


def test_render_ansi_shows_the_table_with_card_faces() -> None:
    e = raw_env(ruleset="family", seats=2, render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    assert "family, 2 seats, round 1" in text and any(mark in text for mark in "●▲■◆")
    assert f"> player_{e.game.current} (7 cards, score 0): " in text


@pytest.mark.parametrize("kwargs, message", [
    ({"seats": 7}, "7 players"),
    ({"ruleset": "uno"}, "unknown ruleset 'uno'"),
    ({"options": {"stacking": "maybe"}}, "stacking='maybe'"),
    ({"reward": "move"}, "reward='move'"),
    ({"render_mode": "human"}, "render_mode='human'"),
])
def test_bad_arguments_are_named(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        raw_env(**kwargs)
