"""referee.env.VectorSingleAgentEnv: a true batch of SingleAgentEnvs, number for number, across auto-resets.

Needs the ``rl`` extra (PettingZoo, Gymnasium); without it every test here is skipped with the reason.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="Gymnasium is not installed: pip install -e '.[rl]' (the rl extra)")
pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install -e '.[rl]' (the rl extra)")

from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402

from referee.env import SingleAgentEnv, VectorSingleAgentEnv  # noqa: E402


def picks(masks: np.ndarray, rng: np.random.Generator, illegal: float) -> np.ndarray:
    """A random legal index per row (the first for an all-zero row); now and then, with ``illegal``, an illegal one."""
    out = np.zeros(len(masks), dtype=np.int64)
    for i, mask in enumerate(masks):
        legal = np.flatnonzero(mask)
        if rng.random() < illegal:
            out[i] = int(np.flatnonzero(mask == 0)[0])
        elif len(legal):
            out[i] = int(rng.choice(legal))
    return out


def singles_step(singles: list[SingleAgentEnv], over: list[bool], actions: np.ndarray) -> tuple[list, ...]:
    """What Gymnasium's ``SyncVectorEnv`` does with NEXT_STEP auto-reset, over N single environments."""
    obs, rewards, dones, infos = [], [], [], []
    for i, env in enumerate(singles):
        if over[i]:
            o, info = env.reset()
            r, d = 0.0, False
        else:
            o, r, d, _, info = env.step(int(actions[i]))
        over[i] = env.play.over
        obs.append(o)
        rewards.append(r)
        dones.append(d)
        infos.append(info)
    return obs, rewards, dones, infos


def same(batch: dict[str, np.ndarray], obs: list[dict[str, np.ndarray]]) -> None:
    for key in ("observation", "action_mask"):
        expected = np.stack([o[key] for o in obs])
        assert batch[key].dtype == expected.dtype
        np.testing.assert_array_equal(batch[key], expected, err_msg=key)


CASES = [
    pytest.param("family", 4, None, "game", id="family-4-random-seat"),
    pytest.param("family", 2, 0, "round", id="family-2-round-rewards"),
    pytest.param("compact", 6, 3, "game", id="compact-6"),
    pytest.param("arcade", 3, None, "round", id="arcade-3"),
    pytest.param("arcade", 5, None, "game", id="arcade-5"),
]


@pytest.mark.parametrize(("ruleset", "seats", "seat", "reward"), CASES)
def test_the_batch_plays_exactly_the_games_of_n_single_environments(ruleset: str, seats: int, seat: int | None,
                                                                    reward: str) -> None:
    n, steps = 6, 400
    options = {"target": "round"} if ruleset != "compact" else {}
    kwargs = dict(ruleset=ruleset, seats=seats, seat=seat, options=options, reward=reward,
                  opponents=["builtin:random"] if seats % 2 else ["builtin:easy"])
    vec = VectorSingleAgentEnv(n, **kwargs)
    singles = [SingleAgentEnv(**kwargs) for _ in range(n)]
    assert isinstance(vec, VectorEnv) and vec.single_observation_space == singles[0].observation_space
    batch, infos = vec.reset(seed=11)
    obs = [env.reset(seed=11 + i)[0] for i, env in enumerate(singles)]
    same(batch, obs)
    assert list(infos["seed"]) == [11 + i for i in range(n)]
    assert list(infos["seat"]) == [env.learner for env in singles]
    over = [env.play.over for env in singles]
    rng = np.random.default_rng(5)
    ends = 0
    for _ in range(steps):
        actions = picks(batch["action_mask"], rng, illegal=0.01)
        batch, rewards, terminated, truncated, infos = vec.step(actions)
        obs, single_rewards, dones, single_infos = singles_step(singles, over, actions)
        same(batch, obs)
        assert vec.observation_space.contains(batch)
        np.testing.assert_array_equal(rewards, np.array(single_rewards))
        np.testing.assert_array_equal(terminated, np.array(dones))
        assert not truncated.any()
        for key in ("result", "illegal", "seed", "seat"):
            assert list(infos.get(f"_{key}", np.zeros(n, bool))) == [key in info for info in single_infos], key
        for i in np.flatnonzero(infos.get("_result", [])):
            assert infos["result"]["placements"][i] == single_infos[i]["result"]["placements"]
            assert infos["result"]["scores"][i] == single_infos[i]["result"]["scores"]
        for i in np.flatnonzero(infos.get("_seed", [])):
            assert infos["seed"][i] == single_infos[i]["seed"]
        ends += int(terminated.sum())
    assert ends > 3 * n  # several auto-resets in every slot


def test_same_step_auto_reset_returns_the_next_game_and_keeps_the_last_observation() -> None:
    n = 4
    vec = VectorSingleAgentEnv(n, "family", 2, seat=0, options={"target": "round"}, autoreset_mode="SameStep")
    single = SingleAgentEnv("family", 2, seat=0, options={"target": "round"})
    batch, _ = vec.reset(seed=3)
    first, _ = single.reset(seed=3)
    rng = np.random.default_rng(0)
    while True:
        actions = picks(batch["action_mask"], rng, illegal=0.0)
        batch, _, terminated, _, infos = vec.step(actions)
        last, _, done, _, _ = single.step(int(actions[0]))
        if terminated[0]:
            break
        np.testing.assert_array_equal(batch["observation"][0], last["observation"])
    assert done and infos["_final_obs"][0]
    np.testing.assert_array_equal(infos["final_obs"][0]["observation"], last["observation"])
    assert infos["final_info"]["_result"][0]
    nxt, _ = single.reset()  # the next game of slot 0: drawn from its generator, as SingleAgentEnv draws it
    np.testing.assert_array_equal(batch["observation"][0], nxt["observation"])
    np.testing.assert_array_equal(batch["action_mask"][0], nxt["action_mask"])
    assert vec.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP


def test_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="num_envs=0"):
        VectorSingleAgentEnv(0)
    with pytest.raises(ValueError, match="2 opponents for 4 seats"):
        VectorSingleAgentEnv(2, seats=4, opponents=["builtin:random", "builtin:easy"])
    vec = VectorSingleAgentEnv(2)
    with pytest.raises(ValueError, match="3 seeds for 2 tables"):
        vec.reset(seed=[1, 2, 3])
    vec.reset(seed=[1, None])
    with pytest.raises(ValueError, match="one action index per table"):
        vec.step(np.zeros(3, dtype=np.int64))
    vec.close()
