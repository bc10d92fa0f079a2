"""referee.env.VectorSingleAgentEnv: a true batch of SingleAgentEnvs, number for number, across auto-resets.

Needs the ``rl`` extra (PettingZoo, Gymnasium); without it every test here is skipped with the reason.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="Gymnasium is not installed: pip install -e '.[rl]' (the rl extra)")
pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install -e '.[rl]' (the rl extra)")

from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402

from referee.env import SingleAgentEnv, VectorSingleAgentEnv  # noqa: E402
from tests.conftest import PY, SAMPLES  # noqa: E402

RANDOM_BOT = f"{PY} {SAMPLES}/python/random_bot.py"


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


def singles_step(singles: list[SingleAgentEnv], over: list[bool], actions: np.ndarray,
                 same_step: bool = False) -> tuple[list, ...]:
    """What Gymnasium's ``SyncVectorEnv`` does over N single environments: NEXT_STEP auto-reset (a slot whose
    episode ended is dealt again on the next step, its action ignored), or SAME_STEP (dealt again at once, the
    ended episode's last observation and info in the info)."""
    obs, rewards, dones, infos = [], [], [], []
    for i, env in enumerate(singles):
        if over[i]:  # also in SAME_STEP: a game over before the learner's first turn is dealt on the next step
            o, info = env.reset()
            r, d = 0.0, False
        else:
            o, r, d, _, info = env.step(int(actions[i]))
            if same_step and d:
                last, last_info = o, info
                o, info = env.reset()
                info = info | {"final_obs": last, "final_info": last_info}
        over[i] = env.play.over
        obs.append(o)
        rewards.append(r)
        dones.append(d)
        infos.append(info)
    return obs, rewards, dones, infos


def unbatch(infos: dict, i: int) -> dict:
    """Slot ``i``'s own info out of Gymnasium's batched infos (each key with its ``_key`` mask)."""
    return {key: unbatch(value, i) if isinstance(value, dict) and key != "final_obs" else value[i]
            for key, value in infos.items() if not key.startswith("_") and infos[f"_{key}"][i]}


def same_info(batched: dict, i: int, expected: dict, timed: bool = False) -> None:
    """Slot ``i``'s info is ``expected``, number for number (but the answer times of bot processes: ``timed``)."""
    got = unbatch(batched, i)
    if timed:
        for info in (got, expected, got.get("final_info", {}), expected.get("final_info", {})):
            info.get("result", {}).pop("time_ms", None)
    final, want = got.pop("final_obs", None), expected.pop("final_obs", None)
    assert (final is None) == (want is None)
    if final is not None:
        same(final, [want])
    assert got == expected


def same(batch: dict[str, np.ndarray], obs: list[dict[str, np.ndarray]]) -> None:
    for key in ("observation", "action_mask"):
        expected = np.stack([o[key] for o in obs])
        got = np.asarray(batch[key]).reshape(expected.shape)
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected, err_msg=key)


CASES = [
    pytest.param("family", 4, None, "game", 6, AutoresetMode.NEXT_STEP, id="family-4-random-seat"),
    pytest.param("family", 2, 0, "round", 6, AutoresetMode.NEXT_STEP, id="family-2-round-rewards"),
    pytest.param("compact", 6, 3, "game", 6, AutoresetMode.NEXT_STEP, id="compact-6"),
    pytest.param("arcade", 3, None, "round", 6, AutoresetMode.NEXT_STEP, id="arcade-3"),
    pytest.param("arcade", 5, None, "game", 6, AutoresetMode.NEXT_STEP, id="arcade-5"),
    pytest.param("family", 2, None, "game", 48, AutoresetMode.NEXT_STEP, id="family-2-48-tables"),
    # Batches laid out whole (8 tables or more) in the other rulesets: multi-plays, stacked penalties, six seats.
    pytest.param("arcade", 4, None, "game", 16, AutoresetMode.NEXT_STEP, id="arcade-4-16-tables"),
    pytest.param("compact", 6, None, "round", 12, AutoresetMode.SAME_STEP, id="compact-6-12-tables-same-step"),
    pytest.param("family", 3, None, "round", 24, AutoresetMode.SAME_STEP, id="family-3-same-step"),
    pytest.param("family", 2, 1, "game", 48, AutoresetMode.SAME_STEP, id="family-2-48-tables-same-step"),
]


@pytest.mark.parametrize(("ruleset", "seats", "seat", "reward", "n", "mode"), CASES)
def test_the_batch_plays_exactly_the_games_of_n_single_environments(ruleset: str, seats: int, seat: int | None,
                                                                    reward: str, n: int, mode: AutoresetMode) -> None:
    options = {"target": "round"} if ruleset != "compact" else {}
    kwargs = dict(ruleset=ruleset, seats=seats, seat=seat, options=options, reward=reward,
                  opponents=["builtin:random"] if seats % 2 else ["builtin:easy"])
    vec = VectorSingleAgentEnv(n, **kwargs, autoreset_mode=mode)
    singles = [SingleAgentEnv(**kwargs) for _ in range(n)]
    ends = run_side_by_side(vec, singles, 400, mode, illegal=0.01)
    assert ends > 3 * n  # several auto-resets in every slot


def run_side_by_side(vec: VectorSingleAgentEnv, singles: list[SingleAgentEnv], steps: int, mode: AutoresetMode,
                     illegal: float, timed: bool = False) -> int:
    """Step the batch and the single environments with the same seeds and actions, comparing every number
    (observations, masks, rewards, terminations, each slot's whole info); the episodes ended."""
    assert isinstance(vec, VectorEnv) and vec.single_observation_space == singles[0].observation_space
    batch, infos = vec.reset(seed=11)
    obs = []
    for i, env in enumerate(singles):
        o, info = env.reset(seed=11 + i)
        obs.append(o)
        same_info(infos, i, info, timed)
    same(batch, obs)
    over = [env.play.over for env in singles]
    rng = np.random.default_rng(5)
    ends = 0
    for _ in range(steps):
        actions = picks(batch["action_mask"], rng, illegal=illegal)
        batch, rewards, terminated, truncated, infos = vec.step(actions)
        obs, single_rewards, dones, single_infos = singles_step(singles, over, actions,
                                                                mode is AutoresetMode.SAME_STEP)
        same(batch, obs)
        assert vec.observation_space.contains(batch)
        np.testing.assert_array_equal(rewards, np.array(single_rewards))
        np.testing.assert_array_equal(terminated, np.array(dones))
        assert not truncated.any()
        for i, info in enumerate(single_infos):
            same_info(infos, i, info, timed)
        assert np.array_equal(vec.learners, [env.learner for env in singles])
        ends += int(terminated.sum())
    return ends


@pytest.mark.slow
def test_bot_process_opponents_play_the_same_games_in_the_batch() -> None:
    """A command among the opponents: each table a referee Table with its own process (the slow path)."""
    kwargs = dict(ruleset="family", seats=3, options={"target": "round"}, opponents=[RANDOM_BOT, "builtin:hard"])
    vec = VectorSingleAgentEnv(2, **kwargs)
    singles = [SingleAgentEnv(**kwargs) for _ in range(2)]
    try:
        assert run_side_by_side(vec, singles, 40, AutoresetMode.NEXT_STEP, illegal=0.0, timed=True) >= 2
    finally:
        vec.close()
        for env in singles:
            env.close()


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


def test_the_arrays_a_step_returns_are_the_callers_own() -> None:
    """The numbers are written in a buffer the env keeps and reuses: what a step returns must be writable and stay
    the caller's, so that writing into it changes neither the next step nor what an untouched twin returns."""
    scribbled, twin = (VectorSingleAgentEnv(9, "family", 3, opponents=["builtin:random"] * 2) for _ in range(2))
    obs, _ = scribbled.reset(seed=5)
    same(twin.reset(seed=5)[0], [{key: value[i] for key, value in obs.items()} for i in range(9)])
    rng = np.random.default_rng(0)
    for _ in range(40):
        actions = picks(obs["action_mask"], rng, 0.0)
        kept = {key: value.copy() for key, value in obs.items()}
        for value in obs.values():
            assert value.flags.writeable
            value[...] = 7  # the caller's to change
        obs = scribbled.step(actions)[0]
        expected = twin.step(actions)[0]
        same(obs, [{key: value[i] for key, value in expected.items()} for i in range(9)])
        assert not any(np.shares_memory(obs[key], kept[key]) for key in obs)


def test_scores_past_four_billion_are_observed_exactly() -> None:
    """Scores and the move are written as 64-bit integers, not bytes: a match that somehow runs into billions of
    points is still seen as it is, in a batch as in a single observation."""
    from referee.botkit import OFFSETS

    vec = VectorSingleAgentEnv(8, "family", 2, opponents=["builtin:random"], seat=0)
    vec.reset(seed=3)
    games = [table.game for table in vec.tables.tables]
    for i, game in enumerate(games):
        game.scores[1] = 5_000_000_000 + 1024 * i
        game.move = 4_300_000_000
    batch = vec.tables.observe()["observation"]
    at = OFFSETS["scores"] + 1  # seat 1's score, seen from seat 0 (at two seats the next either way)
    for i, game in enumerate(games):
        single = vec.observer.observation(game, 0)
        np.testing.assert_array_equal(batch[i], single)
        assert single[at] == np.float32(5_000_000_000 + 1024 * i)
        assert single[OFFSETS["move"]] == np.float32(4_300_000_000)


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


@pytest.mark.slow
def test_the_instruction_count_workload_steps_the_same_numbers_every_run():
    """bench/vector_callgrind.py's digest is what makes two versions' instruction counts comparable."""
    script = Path(__file__).resolve().parents[2] / "bench" / "vector_callgrind.py"

    def digest(steps: int) -> str:
        command = [sys.executable, str(script), "--tables", "8", "--steps", str(steps), "--digest"]
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        assert f"{steps} steps of 8 tables" in out
        return out.split("digest ")[1].strip()

    assert digest(20) == digest(20) != digest(21)
