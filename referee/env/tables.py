"""The vector environment's tables when every opponent is a built-in player: stepped and read in compiled loops.

``BuiltinTables`` plays, slot for slot, the games ``SingleAgentEnv`` plays through a referee ``Table`` (the
same seeds, the same draws from each slot's generator, the same result in the info), on
``referee.table.learner.LearnerTable``: no per-move records, the legal actions' catalogue indices kept
beside them, and a whole batch stepped (``play_all``) and gathered (``gather``) per call. Python runs per
table only where something happens: a deal, an episode's end, a round's end (``reward="round"``), an illegal
action. ``tests/env/test_vector.py`` compares every number with N single environments.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from gymnasium.utils import seeding
from librt.strings import BytesWriter

from referee.bots.spec import BotSpec
from referee.engine.rules import Ruleset
from referee.env.single import LEARNER, SlotInfo, result_info
from referee.env.view import Observer, place_rewards, read_rows, round_rewards
from referee.table.learner import Catalogue, LearnerTable, gather, play_all

_I1 = np.dtype(np.int8)


def builtin_names(opponents: Sequence[BotSpec]) -> list[str] | None:
    """Each opponent's built-in player, or ``None`` when one of them is a bot process."""
    names = [spec.builtin for spec in opponents]
    return None if any(name is None for name in names) else [name for name in names if name is not None]


class BuiltinTables:
    """``num_envs`` learner games against built-in players (``VectorSingleAgentEnv``'s slots, fast)."""

    def __init__(self, num_envs: int, ruleset: Ruleset, seats: int, seat: int | None, opponents: Sequence[BotSpec],
                 reward_mode: str, illegal_reward: float, observer: Observer) -> None:
        builtins = builtin_names(opponents)
        assert builtins is not None
        self.num_envs = num_envs
        self.ruleset, self.seats, self.seat = ruleset, seats, seat
        self.opponents = list(opponents)
        self.reward_mode, self.illegal_reward, self.observer = reward_mode, illegal_reward, observer
        rounds = reward_mode == "round"  # the only reader of the events: a game keeps none otherwise
        # One for the batch: each key's index is looked up once.
        catalogue = Catalogue(observer.index_of, observer._index)
        self.tables = [LearnerTable(ruleset, seats, builtins, rounds, catalogue) for _ in range(num_envs)]
        self._np_random: list[np.random.Generator | None] = [None] * num_envs
        self._kind_of: list[int] = observer.kind_of.tolist()
        self._games = [0] * num_envs  # each slot's games so far (a result's ``game`` id, as LearnerGame counts)
        self._zero_mask = bytes(observer.actions)
        #: ``gather``'s output (observation rows, scores and moves, masks): emptied and written again each step.
        self._writers = (BytesWriter(), BytesWriter(), BytesWriter())

    @property
    def learners(self) -> list[int]:
        return [t.learner for t in self.tables]

    def over(self, i: int) -> bool:
        return self.tables[i].over

    def reset(self, i: int, seed: int | None) -> SlotInfo:
        """``SingleAgentEnv.reset`` for slot ``i``: the same draws from the same generator, so the same game."""
        rng = self._np_random[i]
        if seed is not None or rng is None:
            rng, _ = seeding.np_random(seed)
            self._np_random[i] = rng
        game_seed = seed if seed is not None else int(rng.integers(2**63 - 1))
        learner = self.seat if self.seat is not None else int(rng.integers(self.seats))
        self._games[i] += 1
        table = self.tables[i]
        table.deal(game_seed, learner)
        info: SlotInfo = {}
        if table.over:  # over before the learner's first turn
            info["result"] = self._result(i)
        info["seat"] = learner
        info["seed"] = game_seed
        return info

    def step(self, picked: list[Any], indices: list[int], rewards: np.ndarray, ended: np.ndarray
             ) -> dict[int, SlotInfo]:
        """Every slot still playing plays its action (``indices``: each one's catalogue index, -1 for one that is
        none); fills ``rewards`` and ``ended``; the infos of the slots that have one."""
        tables = self.tables
        illegal, attention = play_all(tables, indices, self.reward_mode == "round")
        infos: dict[int, SlotInfo] = {}
        observer = self.observer
        for i in illegal:
            table = tables[i]
            error = observer.illegal(picked[i], dict(zip(table.indices, table.legal)), LEARNER)
            table.end()
            rewards[i] = self.illegal_reward
            ended[i] = True
            infos[i] = {"illegal": str(error)}
        for i in attention:
            table = tables[i]
            game = table.game
            reward = 0.0
            if self.reward_mode == "round":
                reward += round_rewards(game.events, table.mark, self.seats)[table.learner]
            if table.over:
                if self.reward_mode == "game":
                    assert game.outcome is not None
                    reward += place_rewards(game.outcome.placements)[table.learner]
                ended[i] = True
                infos[i] = {"result": self._result(i)}
            rewards[i] = reward
        return infos

    def observe(self, which: Sequence[int] | None = None) -> dict[str, np.ndarray]:
        """The batch's observations and masks: ``gather`` writes their bytes, numpy reads them whole."""
        tables = self.tables if which is None else [self.tables[i] for i in which]
        m, actions = len(tables), self.observer.actions
        rows, wide, masks = self._writers
        for writer in self._writers:
            writer.truncate(0)  # kept from step to step: the same buffers, no new allocation
        gather(tables, self._kind_of, self.observer.colour_slot, self.observer.phase_slot, self._zero_mask, rows,
               wide, masks)
        # A copy of the mask: numpy's view of the bytes is read-only, and a user may write into what a step returns.
        mask = np.frombuffer(masks.getvalue(), _I1).reshape(m, actions).copy()
        return {"observation": read_rows(rows, wide, m), "action_mask": mask}

    def close(self) -> None:
        pass

    def _result(self, i: int) -> dict[str, Any]:
        table = self.tables[i]
        others = iter(spec.name for spec in self.opponents)
        names = [LEARNER if s == table.learner else next(others) for s in range(self.seats)]
        return result_info(table.game, table.seed, f"g{self._games[i]}", names, table.decisions)
