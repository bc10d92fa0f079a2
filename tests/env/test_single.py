"""referee.env.SingleAgentEnv: Gymnasium's check_env, referee deals, bot-process opponents, illegal actions.

Needs the ``rl`` extra (PettingZoo, Gymnasium); without it every test here is skipped with the reason.
"""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium", reason="Gymnasium is not installed: pip install -e '.[rl]' (the rl extra)")
pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install -e '.[rl]' (the rl extra)")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from referee.bots.spec import parse_bot  # noqa: E402
from referee.engine.game import Game  # noqa: E402
from referee.env import GYM_ID, SingleAgentEnv  # noqa: E402
from referee.table.table import BuiltinSeat, Table  # noqa: E402
from tests.conftest import PY, SAMPLES  # noqa: E402

RANDOM_BOT = f"{PY} {SAMPLES}/python/random_bot.py"


def play(env: SingleAgentEnv, seed: int, picks: random.Random) -> tuple[float, dict, int]:
    """One episode with random legal picks: the summed reward, the last info, the learner's decisions."""
    obs, info = env.reset(seed=seed)
    total, done, steps = 0.0, False, 0
    while not done:
        assert env.observation_space.contains(obs)
        obs, reward, done, truncated, info = env.step(int(picks.choice(np.flatnonzero(obs["action_mask"]))))
        assert not truncated
        total += reward
        steps += 1
    return total, info, steps


@pytest.mark.parametrize("ruleset, seats, opponent", [
    ("compact", 2, "builtin:hard"), ("family", 4, "builtin:random"), ("arcade", 6, "builtin:medium")])
def test_gymnasium_check_env(ruleset: str, seats: int, opponent: str) -> None:
    env = gym.make(GYM_ID, ruleset=ruleset, seats=seats, opponents=[opponent], render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "environment is wrapped": gym.make adds its checker
        check_env(env.unwrapped)
    env.close()


def test_reset_with_a_seed_deals_as_the_referee_and_the_game_is_a_referee_game() -> None:
    """The learner playing what a built-in player would: the same game as the referee's with that player."""
    env = SingleAgentEnv("family", 3, opponents=["builtin:hard", "builtin:easy"], seat=1,
                         options={"target": "round"})
    obs, info = env.reset(seed=77)
    game = Game(env.ruleset, 3, random.Random(77))
    assert env.table.game.events[0] == game.events[0] and info == {"seat": 1, "seed": 77}  # the deal, every hand
    table = Table(env.ruleset, [BuiltinSeat(parse_bot(s)) for s in ("builtin:hard", "builtin:random",
                                                                      "builtin:easy")], seed=77)
    table.play()
    learner_moves = [a for a, s in zip(table.actions, seats_of(table)) if s == 1]
    for action in learner_moves:
        obs, reward, done, _, info = env.step(env.observer.index_of(action))
    assert done and env.table.game.events == table.game.events


def seats_of(table: Table) -> list[int]:
    """Which seat took each of a finished table's actions (replayed on a fresh engine)."""
    rng = random.Random(table.seed)
    game = Game(table.ruleset, len(table.seats), rng)
    out = []
    for action in table.actions:
        out.append(game.current)
        game.apply(action, rng)
    return out


def test_random_seat_is_reproducible_and_varies() -> None:
    env = SingleAgentEnv("compact", 4, opponents=["builtin:random"], options={"target": 100})
    seats = [env.reset(seed=s)[1]["seat"] for s in range(12)]
    assert seats == [env.reset(seed=s)[1]["seat"] for s in range(12)] and len(set(seats)) > 1


@pytest.mark.slow
def test_a_bot_process_opponent_plays_sandboxed_and_ends_with_close() -> None:
    env = SingleAgentEnv("arcade", 3, opponents=[RANDOM_BOT, "builtin:hard"])
    picks = random.Random(4)
    for seed in range(3):  # one process serves every episode
        _, info, steps = play(env, seed, picks)
        assert steps > 0 and info["result"]["faults"] == []
        assert info["result"]["sandbox"][info["result"]["seating"].index("random_bot")] != "none"
    assert len(env.pool.clients) == 1
    env.close()  # the autouse fixture checks no bot process is left


@pytest.mark.slow
def test_two_copies_of_one_command_get_a_process_each() -> None:
    env = SingleAgentEnv("family", 3, opponents=[RANDOM_BOT], options={"target": "round"})
    _, info, _ = play(env, 1, random.Random(1))
    assert info["result"]["faults"] == [] and len(env.pool.clients) == 2
    env.close()


def test_an_illegal_action_ends_the_episode_with_the_penalty() -> None:
    env = SingleAgentEnv("family", 2, opponents=["builtin:random"], illegal_reward=-3)
    obs, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, done, truncated, info = env.step(illegal)
    assert (reward, done, truncated) == (-3, True, False) and f"chose action {illegal}" in info["illegal"]
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


def test_game_reward_is_the_placement_and_round_rewards_add_up_per_round() -> None:
    game_env = SingleAgentEnv("compact", 3, opponents=["builtin:easy"], seat=0, options={"target": 100})
    total, info, _ = play(game_env, 9, random.Random(9))
    place = info["result"]["placements"][0]
    assert total == pytest.approx(1 - (place - 1))  # 3 seats: +1, 0, -1
    round_env = SingleAgentEnv("compact", 3, opponents=["builtin:easy"], seat=0, options={"target": 100},
                               reward="round")
    total, info, _ = play(round_env, 9, random.Random(9))
    assert info["result"]["rounds"] > 1 and -info["result"]["rounds"] <= total <= info["result"]["rounds"]


@pytest.mark.parametrize("kwargs, message", [
    ({"opponents": ["builtin:random"] * 2, "seats": 4}, "2 opponents for 4 seats"),
    ({"seat": 4, "seats": 4}, "seat=4"),
    ({"opponents": ["builtin:nobody"]}, "unknown built-in player 'nobody'"),
])
def test_bad_arguments_are_named(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SingleAgentEnv(**kwargs)
