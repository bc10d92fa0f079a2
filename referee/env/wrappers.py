"""PettingZoo's three classic-game wrappers, each reading the environment's state in one step.

``env()`` wraps ``raw_env`` as PettingZoo's classic games are wrapped (``TerminateIllegalWrapper``,
``AssertOutOfBoundsWrapper``, ``OrderEnforcingWrapper``). Those reach ``agent_selection``,
``terminations`` and the rest through ``BaseWrapper.__getattr__``, one Python call per layer and read, and
check an action with ``Discrete.contains`` (numpy scalars): together they cost more than a step of the game.
The subclasses here behave the same (they are those classes, so ``isinstance`` holds, and every check and
error is theirs) but read the unwrapped environment's attributes directly and pass a plain in-range int
without numpy.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers


class _Direct:
    """Properties reading the unwrapped environment (``_raw``): no ``__getattr__`` chain through the layers."""

    _raw: Any

    @property
    def agent_selection(self) -> str:
        value: str = self._raw.agent_selection
        return value

    @property
    def agents(self) -> list[str]:
        value: list[str] = self._raw.agents
        return value

    @property
    def terminations(self) -> dict[str, bool]:
        value: dict[str, bool] = self._raw.terminations
        return value

    @property
    def truncations(self) -> dict[str, bool]:
        value: dict[str, bool] = self._raw.truncations
        return value

    @property
    def rewards(self) -> dict[str, float]:
        value: dict[str, float] = self._raw.rewards
        return value

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        value: dict[str, dict[str, Any]] = self._raw.infos
        return value

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        value: dict[str, float] = self._raw._cumulative_rewards
        return value


class TerminateIllegal(_Direct, wrappers.TerminateIllegalWrapper):
    """``TerminateIllegalWrapper``: an illegal action ends the game, ``illegal_reward`` for the seat that made it."""

    def __init__(self, env: AECEnv, illegal_reward: float) -> None:
        super().__init__(env, illegal_reward)
        self._raw = env.unwrapped


class AssertOutOfBounds(_Direct, wrappers.AssertOutOfBoundsWrapper):
    """``AssertOutOfBoundsWrapper``: an index outside the action space is an assertion."""

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._raw = env.unwrapped
        self._actions = int(self._raw.observer.actions)

    def step(self, action: Any) -> None:
        if action.__class__ is int and 0 <= action < self._actions:  # what Discrete.contains says, without numpy
            self.env.step(action)
        else:
            super().step(action)


class OrderEnforcing(_Direct, wrappers.OrderEnforcingWrapper):
    """``OrderEnforcingWrapper``: the state cannot be read, nor the game stepped or observed, before ``reset``."""

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._raw = env.unwrapped

    def _ready(self, name: str) -> None:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")

    @property
    def agent_selection(self) -> str:
        self._ready("agent_selection")
        return super().agent_selection

    @property
    def agents(self) -> list[str]:
        self._ready("agents")
        return super().agents

    @property
    def terminations(self) -> dict[str, bool]:
        self._ready("terminations")
        return super().terminations

    @property
    def truncations(self) -> dict[str, bool]:
        self._ready("truncations")
        return super().truncations

    @property
    def rewards(self) -> dict[str, float]:
        self._ready("rewards")
        return super().rewards

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        self._ready("infos")
        return super().infos
