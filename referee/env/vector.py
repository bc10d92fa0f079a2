"""N tables in one process: a Gymnasium vector environment whose every slot is a ``SingleAgentEnv`` game.

Each slot plays what ``SingleAgentEnv`` plays (the learner's seat, the opponents as in a match, the same
seeds). With built-in opponents the slots are ``referee.env.tables.BuiltinTables``: compiled tables stepped
and read a whole batch at a time; with a bot process among them, ``TableSlots``: a referee ``Table`` each, a
slot at a time. ``tests/env/test_vector.py`` steps this beside N ``SingleAgentEnv``s with the same seeds and
actions and compares every number."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from referee.bots.spec import BotSpec
from referee.engine.rules import Ruleset
from referee.env.aec import spaces_for
from referee.env.single import LearnerGame, SlotInfo, learner_game
from referee.env.tables import BuiltinTables, builtin_names
from referee.table.policy import FaultPolicy


class VectorSlot(LearnerGame):
    """One table of the batch: ``SingleAgentEnv``'s game (a ``LearnerGame``) and its own generator; the batch
    builds the observations."""

    np_random: np.random.Generator | None = None

    def reset(self, seed: int | None) -> SlotInfo:
        """``SingleAgentEnv.reset``: the same draws from the same generator, so the same game and seat."""
        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
        _, info = self.deal(self.np_random, seed)
        return info


class TableSlots:
    """The batch's slots when an opponent is a bot process: each a referee ``Table`` (``SingleAgentEnv``'s game),
    a slot at a time. ``BuiltinTables`` is the same for built-in opponents, faster."""

    def __init__(self, num_envs: int, play: LearnerGame) -> None:
        self.seats = play.seats
        self.observer = play.observer
        self.slots = [VectorSlot(play.ruleset, play.seats, play.seat, play.opponents, play.policy, play.reward_mode,
                                 play.illegal_reward, play.observer) for _ in range(num_envs)]

    @property
    def learners(self) -> list[int]:
        return [s.learner for s in self.slots]

    def over(self, i: int) -> bool:
        return self.slots[i].over

    def reset(self, i: int, seed: int | None) -> SlotInfo:
        return self.slots[i].reset(seed)

    def step(self, picked: list[Any], indices: list[int], rewards: np.ndarray, ended: np.ndarray
             ) -> dict[int, SlotInfo]:
        """``SingleAgentEnv.step`` in every slot still playing; fills ``rewards`` and ``ended``; the infos."""
        infos: dict[int, SlotInfo] = {}
        for i, slot in enumerate(self.slots):
            if not slot.over:
                rewards[i], info = slot.act(picked[i])
                ended[i] = slot.over
                if info:
                    infos[i] = info
        return infos

    def observe(self, which: Sequence[int] | None = None) -> dict[str, np.ndarray]:
        slots = self.slots if which is None else [self.slots[i] for i in which]
        observation = self.observer.observations([s.game for s in slots], [s.learner for s in slots])
        return {"observation": observation, "action_mask": self.observer.masks([s.legal for s in slots])}

    def close(self) -> None:
        for slot in self.slots:
            slot.pool.close()


class VectorSingleAgentEnv(VectorEnv):
    """``num_envs`` ``SingleAgentEnv`` games stepped together, their results as numpy batches (Gymnasium's vector API).

    ``reset(seed=S)`` seeds slot i with ``S + i`` (or ``seed`` a list, one each), as ``SyncVectorEnv`` does;
    slot i then plays exactly what ``SingleAgentEnv`` does with that seed and those actions. Observations
    are ``{"observation": (N, SIZE) float32, "action_mask": (N, actions) int8}``. Auto-reset is Gymnasium's
    ``NEXT_STEP`` (the step after a slot's episode ends resets it, ignoring its action, reward 0) or
    ``SAME_STEP`` (reset at once; the ended episode's observation and info in ``info["final_obs"]`` and
    ``info["final_info"]``). Infos are batched as Gymnasium batches them (a key, and ``_key`` saying which
    slots have it): ``seat`` and ``seed`` after a reset, ``result`` at an episode's end, ``illegal``.
    """

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int, ruleset: str | Ruleset = "family", seats: int = 4,
                 opponents: Sequence[str | BotSpec] = ("builtin:random",), seat: int | None = None,
                 options: Mapping[str, Any] | None = None, reward: str = "game", illegal_reward: float = -1.0,
                 policy: FaultPolicy = FaultPolicy(),
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs={num_envs!r}: a batch has at least one table")
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        if self.autoreset_mode is AutoresetMode.DISABLED:
            raise ValueError("autoreset_mode=DISABLED is not supported: NEXT_STEP or SAME_STEP")
        play = learner_game(ruleset, seats, opponents, seat, options, reward, illegal_reward, policy)
        self.num_envs = num_envs
        self.ruleset, self.seats, self.seat = play.ruleset, seats, seat
        self.reward_mode, self.illegal_reward, self.policy = reward, play.illegal_reward, policy
        self.opponents = play.opponents
        self.observer = play.observer
        self.single_observation_space, self.single_action_space = spaces_for(self.observer)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.tables: BuiltinTables | TableSlots
        if builtin_names(play.opponents) is not None:
            self.tables = BuiltinTables(num_envs, play.ruleset, seats, seat, play.opponents, reward,
                                        play.illegal_reward, play.observer)
        else:
            self.tables = TableSlots(num_envs, play)
        self._dealing: list[int] = []  # the slots the next step deals again (NEXT_STEP; over before a first turn)

    @property
    def learners(self) -> np.ndarray:
        """Each slot's learner seat in its current game."""
        return np.array(self.tables.learners, dtype=np.int64)

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Every slot a new game: ``seed`` an int (slot i gets ``seed + i``), a list (one each) or ``None``."""
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, (int, np.integer)):
            seeds = [int(seed) + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"{len(seeds)} seeds for {self.num_envs} tables: give one each, an int or None")
        infos: dict[str, Any] = {}
        tables = self.tables
        for i, s in enumerate(seeds):
            infos = self._add_info(infos, dict(tables.reset(i, s)), i)
        # A game over before the learner's first turn is dealt again on the next step.
        self._dealing = [i for i in range(self.num_envs) if tables.over(i)]
        return tables.observe(), infos

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """One action per slot (an array of indices); batched observations, rewards, terminations, truncations."""
        given = np.asarray(actions)
        if given.shape != (self.num_envs,):
            raise ValueError(f"actions of shape {given.shape}: one action index per table, ({self.num_envs},)")
        if given.dtype.kind in "iu":  # Python ints read faster than numpy scalars
            picked: list[Any] = given.tolist()
            indices: list[int] = picked
        else:  # any other dtype stays as given: what is not a whole number is illegal (index -1: none)
            picked = list(given)
            indices = [int(a) if isinstance(a, (int, np.integer)) else -1 for a in picked]
        tables = self.tables
        dealing = self._dealing
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        done = np.zeros(self.num_envs, dtype=np.bool_)
        # The slots dealing are over, so they play nothing here; NEXT_STEP deals them below, their action ignored
        # and their reward 0, as Gymnasium's reset step (SingleAgentEnv.reset has none).
        own = tables.step(picked, indices, rewards, done)
        for i in dealing:
            own[i] = tables.reset(i, None)
        ended = np.flatnonzero(done).tolist()
        if self.autoreset_mode is AutoresetMode.SAME_STEP and ended:
            self._same_step_reset(ended, own)
        infos: dict[str, Any] = {}
        for i in sorted(own):
            infos = self._add_info(infos, dict(own[i]), i)
        self._dealing = [i for i in (*dealing, *ended) if tables.over(i)]
        return tables.observe(), rewards, done, np.zeros(self.num_envs, dtype=np.bool_), infos

    def _same_step_reset(self, ended: list[int], own: dict[int, SlotInfo]) -> None:
        """SAME_STEP: keep each ended game's last observation and info, then deal the slot's next game."""
        final = self.tables.observe(ended)
        for j, i in enumerate(ended):
            last = {key: value[j] for key, value in final.items()}
            info = self.tables.reset(i, None)
            info["final_obs"] = last
            info["final_info"] = own[i]
            own[i] = info

    def close_extras(self, **kwargs: Any) -> None:
        """End every bot process (each slot keeps its own between episodes)."""
        self.tables.close()
