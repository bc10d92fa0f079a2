"""Last Card as a PettingZoo AEC environment, shaped like PettingZoo's classic games (chess, connect four).

``raw_env`` is the game itself: an illegal action raises ``IllegalActionError``. ``env`` wraps it as the
classic games are wrapped: an illegal action ends the game with -1 for the seat that made it and 0 for the
others (``TerminateIllegalWrapper``), an index outside the space is an assertion, and the calls must come
in order. The encoding, the rewards and the action catalogue are in docs/rl.md.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from referee.engine.actions import Action
from referee.engine.game import Game
from referee.engine.rules import Ruleset, check_players, get_ruleset
from referee.env.view import REWARD_MODES, Observer, place_rewards, round_rewards, table_text
from referee.env.wrappers import AssertOutOfBounds, OrderEnforcing, TerminateIllegal


def ruleset_of(ruleset: str | Ruleset, options: Mapping[str, Any] | None) -> Ruleset:
    """A ``Ruleset`` from a preset name and option overrides (or one given whole)."""
    if isinstance(ruleset, Ruleset):
        return ruleset.with_options(options or {})
    return get_ruleset(ruleset, options)


def check_reward(reward: str) -> None:
    if reward not in REWARD_MODES:
        raise ValueError(f"reward={reward!r}: rewards come per 'game' or per 'round'")


def spaces_for(observer: Observer) -> tuple[spaces.Dict, spaces.Discrete]:
    """The observation space (the vector and the action mask) and the action space of one seat."""
    obs = spaces.Dict({
        "observation": spaces.Box(low=0.0, high=observer.high, dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(observer.actions,), dtype=np.int8),
    })
    return obs, spaces.Discrete(observer.actions)


def env(**kwargs: Any) -> AECEnv:
    """The environment as PettingZoo's classic games come: an illegal action loses the game (-1), in order."""
    wrapped: AECEnv = raw_env(**kwargs)
    # PettingZoo's wrappers, each reading the state in one step (referee.env.wrappers says why).
    wrapped = TerminateIllegal(wrapped, illegal_reward=-1)
    wrapped = AssertOutOfBounds(wrapped)
    return OrderEnforcing(wrapped)


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """Every seat an agent (``player_0`` ... ``player_N-1``, by seat), over the referee's own engine."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "lastcard_v0", "is_parallelizable": False}

    def __init__(self, ruleset: str | Ruleset = "family", seats: int = 4, options: Mapping[str, Any] | None = None,
                 render_mode: str | None = None, reward: str = "game") -> None:
        super().__init__()
        check_players(seats)
        check_reward(reward)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode={render_mode!r}: the modes are None and 'ansi'")
        self.ruleset = ruleset_of(ruleset, options)
        self.seats = seats
        self.render_mode = render_mode
        self.reward_mode = reward
        self.observer = Observer(self.ruleset)
        self.possible_agents = [f"player_{i}" for i in range(seats)]
        obs_space, action_space = spaces_for(self.observer)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: action_space for a in self.possible_agents}
        self._seeds = random.Random()  # the next game's seed when reset() is given none
        self.game_seed: int | None = None  # the referee seed of the game being played
        self.game: Game | None = None
        self._legal: dict[int, Action] = {}

    def __str__(self) -> str:
        name: str = self.metadata["name"]
        return name

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: with ``seed``, the very deal a referee game with that seed gets."""
        if seed is not None:
            self._seeds.seed(seed)  # later seedless resets follow from it, reproducibly
            game_seed = seed
        else:
            game_seed = self._seeds.getrandbits(63)
        self.game_seed = game_seed
        self.rng = random.Random(game_seed)  # as Table: one generator for the deal and every shuffle after
        self.game = Game(self.ruleset, self.seats, self.rng)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._legal = self.observer.legal(self.game)
        self.agent_selection = self.agents[self.game.current]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self._game()
        seat = self.possible_agents.index(agent)
        acting = seat == game.current and not game.over
        mask = self.observer.mask(self._legal) if acting else np.zeros(self.observer.actions, dtype=np.int8)
        return {"observation": self.observer.observation(game, seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game()
        chosen = self._legal.get(int(action)) if isinstance(action, (int, np.integer)) else None
        if chosen is None:
            raise self.observer.illegal(action, self._legal, agent)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        mark, round_before = len(game.events), game.round
        game.apply(chosen, self.rng)
        if self.reward_mode == "round" and (game.round != round_before or game.over):
            self._reward(round_rewards(game.events, mark, self.seats))
        if game.over:
            assert game.outcome is not None
            if self.reward_mode == "game":
                self._reward(place_rewards(game.outcome.placements))
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {a: {"outcome": game.result} for a in self.agents}
            self._legal = {}
        else:
            self._legal = self.observer.legal(game)
            self.agent_selection = self.agents[game.current]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The whole table as text (``ansi``), every hand shown; ``None`` without a render mode."""
        if self.render_mode is None:
            return None
        return table_text(self._game(), self.possible_agents)

    def close(self) -> None:
        pass

    def _reward(self, values: list[float]) -> None:
        for agent, value in zip(self.possible_agents, values):
            self.rewards[agent] += value

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game
