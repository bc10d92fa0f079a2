"""N tables in one process: a Gymnasium vector environment whose every slot is a ``SingleAgentEnv`` game.

Each slot plays what ``SingleAgentEnv`` plays (the referee's ``Table``, the learner's seat, the opponents as
in a match, the same seeds), and the batch's observations and masks are built from all the games at once
(``Observer.observations``, ``Observer.masks``) instead of a vector at a time. ``tests/env/test_vector.py``
steps this beside N ``SingleAgentEnv``s with the same seeds and actions and compares every number.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from referee.bots.pool import BotPool
from referee.bots.spec import BotSpec, parse_bot, unique_names
from referee.engine.actions import Action
from referee.engine.game import Game
from referee.engine.rules import Ruleset, check_players
from referee.env.aec import check_reward, ruleset_of, spaces_for
from referee.env.single import LEARNER, LearnerSeat
from referee.env.view import Observer, place_rewards, round_rewards
from referee.table.policy import FaultPolicy
from referee.table.table import Table, seat_for


class VectorSlot:
    """One table of the batch: ``SingleAgentEnv``'s game without its observation (the batch builds those)."""

    def __init__(self, env: VectorSingleAgentEnv) -> None:
        self.env = env
        self.pool = BotPool()
        self.seat = LearnerSeat()
        self.table: Table | None = None
        self.learner = 0
        self.legal: dict[int, Action] = {}
        self.over = True
        self.games = 0
        self.np_random: np.random.Generator | None = None

    @property
    def game(self) -> Game:
        assert self.table is not None
        return self.table.game

    def reset(self, seed: int | None) -> tuple[float, dict[str, Any]]:
        """``SingleAgentEnv.reset``: the same draws from the same generator, so the same game and seat."""
        env = self.env
        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(2**63 - 1))
        self.learner = env.seat if env.seat is not None else int(self.np_random.integers(env.seats))
        others = iter(seat_for(spec, self.pool) for spec in env.opponents)
        seats = [self.seat if i == self.learner else next(others) for i in range(env.seats)]
        self.games += 1
        self.table = Table(env.ruleset, seats, game_seed, game_id=f"g{self.games}", policy=env.policy)
        game = self.table.start()
        self.over = False
        reward, info = self.advance(len(game.events), game.round)
        return reward, info | {"seat": self.learner, "seed": game_seed}

    def step(self, action: Any) -> tuple[float, dict[str, Any]]:
        """``SingleAgentEnv.step``: the learner's action, then the others up to its next turn or the end."""
        chosen = self.legal.get(int(action)) if isinstance(action, (int, np.integer)) else None
        if chosen is None:
            self.over = True  # as SingleAgentEnv: the game is abandoned and the learner loses it
            error = self.env.observer.illegal(action, self.legal, LEARNER)
            self.legal = {}
            return self.env.illegal_reward, {"illegal": str(error)}
        assert self.table is not None
        game = self.table.game
        mark, round_before = len(game.events), game.round
        self.seat.action = chosen
        self.table.step()
        return self.advance(mark, round_before)

    def advance(self, mark: int, round_before: int) -> tuple[float, dict[str, Any]]:
        """Let the other seats play up to the learner's next turn or the end; the learner's reward meanwhile."""
        table = self.table
        assert table is not None
        game, learner, mode = table.game, self.learner, self.env.reward_mode
        while not game.over and game.current != learner:
            table.step()
        reward = 0.0
        info: dict[str, Any] = {}
        if mode == "round" and (game.round != round_before or game.over):
            reward += round_rewards(game.events, mark, len(game.hands))[learner]
        if game.over:
            result = table.finish()
            if mode == "game":
                reward += place_rewards(result.placements)[learner]
            self.over = True
            self.legal = {}
            info["result"] = {k: v for k, v in result.to_json().items() if k not in ("actions", "wall_ms")}
        else:
            self.legal = self.env.observer.legal(game)
        return reward, info


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
        check_players(seats)
        check_reward(reward)
        if num_envs < 1:
            raise ValueError(f"num_envs={num_envs!r}: a batch has at least one table")
        if seat is not None and not 0 <= seat < seats:
            raise ValueError(f"seat={seat!r}: a table of {seats} has seats 0 to {seats - 1} (or None: at random)")
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        if self.autoreset_mode is AutoresetMode.DISABLED:
            raise ValueError("autoreset_mode=DISABLED is not supported: NEXT_STEP or SAME_STEP")
        specs = [o if isinstance(o, BotSpec) else parse_bot(o) for o in opponents]
        if len(specs) == 1:
            specs *= seats - 1
        if len(specs) != seats - 1:
            raise ValueError(f"{len(specs)} opponents for {seats} seats: give one spec for every other seat "
                             f"({seats - 1}), or a single one for all of them")
        self.num_envs = num_envs
        self.ruleset = ruleset_of(ruleset, options)
        self.seats = seats
        self.seat = seat
        self.reward_mode = reward
        self.illegal_reward = float(illegal_reward)
        self.policy = policy
        self.opponents = unique_names([BotSpec(LEARNER, "builtin:random"), *specs])[1:]
        self.observer = Observer(self.ruleset)
        self.single_observation_space, self.single_action_space = spaces_for(self.observer)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.slots = [VectorSlot(self) for _ in range(num_envs)]
        self._autoreset = [False] * num_envs  # which slots the next step deals again (NEXT_STEP)

    @property
    def learners(self) -> np.ndarray:
        """Each slot's learner seat in its current game."""
        return np.array([s.learner for s in self.slots], dtype=np.int64)

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
        for i, (slot, s) in enumerate(zip(self.slots, seeds)):
            _, info = slot.reset(s)
            infos = self._add_info(infos, info, i)
            self._autoreset[i] = slot.over  # a game over before the learner's first turn: dealt again next step
        return self._observe(), infos

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """One action per slot (an array of indices); batched observations, rewards, terminations, truncations."""
        given = np.asarray(actions)
        if given.shape != (self.num_envs,):
            raise ValueError(f"actions of shape {given.shape}: one action index per table, ({self.num_envs},)")
        # Python ints read faster than numpy scalars; any other dtype stays as given (and is judged illegal).
        picked = given.tolist() if given.dtype.kind in "iu" else list(given)
        rewards = [0.0] * self.num_envs
        ended = [False] * self.num_envs
        own: list[dict[str, Any]] = []
        for i, (slot, dealing) in enumerate(zip(self.slots, self._autoreset)):
            if dealing:  # NEXT_STEP: this step deals the slot's next game; its action is ignored
                _, info = slot.reset(None)  # reward 0, as Gymnasium's reset step (SingleAgentEnv.reset has none)
            else:
                rewards[i], info = slot.step(picked[i])
                ended[i] = slot.over
            own.append(info)
        done = np.array(ended, dtype=np.bool_)
        if self.autoreset_mode is AutoresetMode.SAME_STEP and done.any():
            self._same_step_reset(np.flatnonzero(done).tolist(), own)
        infos: dict[str, Any] = {}
        for i, info in enumerate(own):
            if info:
                infos = self._add_info(infos, info, i)
        self._autoreset = [s.over for s in self.slots]
        return (self._observe(), np.array(rewards, dtype=np.float64), done, np.zeros(self.num_envs, dtype=np.bool_),
                infos)

    def _same_step_reset(self, ended: list[int], own: list[dict[str, Any]]) -> None:
        """SAME_STEP: keep each ended game's last observation and info, then deal the slot's next game."""
        final = self._observe(ended)
        for j, i in enumerate(ended):
            last = {key: value[j] for key, value in final.items()}
            _, info = self.slots[i].reset(None)
            own[i] = info | {"final_obs": last, "final_info": own[i]}

    def close_extras(self, **kwargs: Any) -> None:
        """End every bot process (each slot keeps its own between episodes)."""
        for slot in self.slots:
            slot.pool.close()

    def _observe(self, which: Sequence[int] | None = None) -> dict[str, np.ndarray]:
        slots = self.slots if which is None else [self.slots[i] for i in which]
        observation = self.observer.observations([s.game for s in slots], [s.learner for s in slots])
        return {"observation": observation, "action_mask": self.observer.masks([s.legal for s in slots])}

