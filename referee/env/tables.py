"""The vector environment's tables when every opponent is a built-in player: stepped and read in compiled loops.

``BuiltinTables`` plays, slot for slot, the games ``SingleAgentEnv`` plays through a referee ``Table`` (the
same seeds, the same draws from each slot's generator, the same result in the info), on
``referee.table.learner.LearnerTable``: no per-move records, the legal actions' catalogue indices kept
beside them, and a whole batch stepped (``play_all``) and gathered (``gather``) per call. Python runs per
table only where something happens: a deal, an episode's end, a round's end (``reward="round"``), an illegal
action. ``tests/env/test_vector.py`` compares every number with N single environments.
"""

from __future__ import annotations

import sys
from array import array
from typing import Any, Sequence

import numpy as np
from gymnasium.utils import seeding

from referee.botkit import OFFSETS, SIZE
from referee.bots.spec import BotSpec
from referee.engine.rules import Ruleset
from referee.env.single import LEARNER, SlotInfo, result_info
from referee.env.view import BATCH_FROM, Observer, place_rewards, round_rewards
from referee.table.learner import (
    AT_DRAW_PILE,
    AT_HANDS,
    AT_HELD,
    AT_LEGAL,
    AT_PENDING,
    AT_UNDER,
    ONE_HOTS,
    Catalogue,
    LearnerTable,
    Packer,
    gather,
    play_all,
    record_words,
)

_PENDING, _DRAW_PILE, _DISCARD_PILE = OFFSETS["pending"], OFFSETS["draw_pile"], OFFSETS["discard_pile"]
_HANDS, _SCORES, _MOVE = OFFSETS["hands"], OFFSETS["scores"], OFFSETS["move"]
_ONE = np.float32(1)


def words_of(words: list[int]) -> np.ndarray:
    """32-bit words as numpy ``uint32`` stored little end first (so that their bytes read in packing order)."""
    packed = array("I", words)  # "I": 4 bytes on every platform CPython supports
    if sys.byteorder == "big":
        packed.byteswap()
    return np.frombuffer(packed, dtype="<u4") if packed else np.zeros(0, dtype="<u4")


def unpack(packer: Packer) -> np.ndarray:
    """A ``Packer``'s values (numpy ``uint8``)."""
    count = packer.flush()
    return words_of(packer.words).view(np.uint8)[:count]


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
        self._by_size: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # ``_offsets`` by batch size

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
        """The batch's observations and masks: ``gather``'s numbers laid out with a few whole-batch operations."""
        tables = self.tables if which is None else [self.tables[i] for i in which]
        m, n, observer = len(tables), self.seats, self.observer
        actions = observer.actions
        if m < BATCH_FROM:  # the whole-batch operations cost more than they save: a table at a time
            return self._observe_each(tables)
        record: list[int] = []
        held = Packer([])
        legal = Packer([]) if actions <= 256 else None
        wide_legal: list[int] = []
        if not gather(tables, self._kind_of, observer.colour_slot, observer.phase_slot, record, held, legal,
                      wide_legal):  # pragma: no cover - a score or move past 2**32
            return self._observe_each(tables)
        words = words_of(record).reshape(m, record_words(n))
        numbers = words.view(np.uint8)  # each word's bytes, little end first
        row_starts, every = self._offsets(m)
        obs = np.zeros((m, SIZE), dtype=np.float32)
        flat = obs.reshape(-1)
        # The one-hot fields' 1s (an absent one on the pending entry, set below), then the cards in hand:
        # np.add.at adds once per position listed, so two copies of a card count 2 (a float32 one: its fast path
        # needs the array's own type).
        flat[numbers[:, :ONE_HOTS] + row_starts[:, None]] = 1
        np.add.at(flat, np.repeat(row_starts, numbers[:, AT_HELD]) + unpack(held), _ONE)
        obs[:, _PENDING] = numbers[:, AT_PENDING]
        obs[:, _DRAW_PILE] = numbers[:, AT_DRAW_PILE]
        obs[:, _DISCARD_PILE] = numbers[:, AT_UNDER]
        obs[:, _HANDS:_HANDS + n] = numbers[:, AT_HANDS:AT_HANDS + n]
        obs[:, _SCORES:_SCORES + n] = words[:, -n - 1:-1]
        obs[:, _MOVE] = words[:, -1]
        mask = np.zeros((m, actions), dtype=np.int8)
        cols = unpack(legal) if legal is not None else np.array(wide_legal, dtype=np.intp)
        mask[np.repeat(every, numbers[:, AT_LEGAL]), cols] = 1
        return {"observation": obs, "action_mask": mask}

    def _offsets(self, m: int) -> tuple[np.ndarray, np.ndarray]:
        """For a batch of ``m``: each row's start in the flat observations, and the row numbers (kept: the same
        every step)."""
        known = self._by_size.get(m)
        if known is None:
            known = self._by_size[m] = (np.arange(0, m * SIZE, SIZE, dtype=np.intp), np.arange(m, dtype=np.intp))
        return known

    def _observe_each(self, tables: list[LearnerTable]) -> dict[str, np.ndarray]:
        observer = self.observer
        obs = np.empty((len(tables), SIZE), dtype=np.float32)
        mask = np.zeros((len(tables), observer.actions), dtype=np.int8)
        for j, table in enumerate(tables):
            obs[j] = observer.observation(table.game, table.learner)
            for index in table.indices:
                mask[j, index] = 1
        return {"observation": obs, "action_mask": mask}

    def close(self) -> None:
        pass

    def _result(self, i: int) -> dict[str, Any]:
        table = self.tables[i]
        others = iter(spec.name for spec in self.opponents)
        names = [LEARNER if s == table.learner else next(others) for s in range(self.seats)]
        return result_info(table.game, table.seed, f"g{self._games[i]}", names, table.decisions)
