"""One learner against bots: a Gymnasium environment whose other seats are played as in a match.

The opponents are bot specs, as on ``lastcard match``'s command line: ``builtin:hard``, or a command run
as a bot process (sandboxed, with its time limits and fault policy) through the referee's own ``Table``
and ``BotPool``. The learner's seat is one more seat of that table, so a game here is a referee game.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence, TypedDict

import gymnasium as gym
import numpy as np

from referee.bots.pool import BotPool
from referee.bots.spec import BotSpec, parse_bot, unique_names
from referee.engine.actions import Action
from referee.engine.game import Game
from referee.engine.rules import Ruleset, check_players
from referee.env.aec import check_reward, ruleset_of, spaces_for
from referee.env.view import Observer, place_rewards, round_rewards, table_text
from referee.protocol.faults import Fault
from referee.protocol.messages import ruleset_options
from referee.store.results import GameResult, SeatTimes
from referee.table.policy import FaultPolicy
from referee.table.table import Table, seat_for

LEARNER = "learner"


class SlotInfo(TypedDict, total=False):
    """What one table's ``info`` may hold (the vector environment batches them, a key and its ``_key`` mask)."""

    seat: int  # after a deal: the learner's seat
    seed: int  # after a deal: the game's referee seed
    result: dict[str, Any]  # at the end: the game's result (``GameResult.to_json``'s, without actions and wall_ms)
    illegal: str  # the episode ended on an illegal action: which, and the legal ones
    final_obs: dict[str, np.ndarray]  # SAME_STEP auto-reset: the ended episode's last observation
    final_info: SlotInfo  # SAME_STEP auto-reset: the ended episode's last info


def trimmed(result: GameResult) -> dict[str, Any]:
    """A result as the environments report it: its plain data without the actions and the wall time."""
    return {k: v for k, v in result.to_json().items() if k not in ("actions", "wall_ms")}


def result_info(game: Game, seed: int, game_id: str, names: list[str], decisions: int) -> dict[str, Any]:
    """The result a ``Table`` of built-in seats and the learner reports for ``game`` (no faults, no times), trimmed."""
    outcome = game.outcome
    assert outcome is not None
    n = game.n
    none: tuple[str | None, ...] = (None,) * n
    return trimmed(GameResult(
        game=game_id, seed=seed, ruleset=game.ruleset.house, options=ruleset_options(game.ruleset),
        seating=tuple(names), placements=tuple(outcome.placements), game_placements=outcome.placements,
        reason=outcome.reason.value, winner=outcome.winner, scores=outcome.scores, hand_points=outcome.points,
        rounds=outcome.rounds, decisions=decisions, moves=game.move, faults=(), forfeited=(),
        times=SeatTimes.zero(n), wall_ms=0.0, sandbox=none, clock=none))


class LearnerSeat:
    """The learner's place at the table: it plays the action the environment was given."""

    by = "learner"
    sandbox: str | None = None
    clock: str | None = None

    def __init__(self, name: str = LEARNER) -> None:
        self.name = name
        self.action: Action | None = None

    def begin(self, table: Table, index: int) -> None:
        pass

    def decide(self, table: Table, index: int, legal: list[Action]) -> tuple[Action, float | None]:
        assert self.action is not None and self.action in legal
        return self.action, None

    def warn(self, fault: Fault, note: str) -> None:  # pragma: no cover - the environment checks legality first
        pass

    def forfeit(self, fault: Fault) -> None:  # pragma: no cover
        pass

    def finish(self, table: Table, index: int) -> None:
        pass


class LearnerGame:
    """One learner's game at a referee table: the deal, the learner's action, the other seats' turns up to its
    next one, and its reward. ``SingleAgentEnv`` plays one; ``VectorSingleAgentEnv`` steps N (one each slot),
    so both play the same game from the same draws."""

    def __init__(self, ruleset: Ruleset, seats: int, seat: int | None, opponents: Sequence[BotSpec],
                 policy: FaultPolicy, reward_mode: str, illegal_reward: float, observer: Observer) -> None:
        self.ruleset = ruleset
        self.seats = seats
        self.seat = seat
        self.opponents = opponents
        self.policy = policy
        self.reward_mode = reward_mode
        self.illegal_reward = illegal_reward
        self.observer = observer
        self.pool = BotPool()
        self.table: Table | None = None
        self.learner = 0
        self.legal: dict[int, Action] = {}
        self.over = True
        self._seat = LearnerSeat()
        self._games = 0

    def deal(self, np_random: np.random.Generator, seed: int | None) -> tuple[float, SlotInfo]:
        """A new game: with ``seed``, the deal of a referee game with that seed; the learner's seat drawn from
        ``np_random`` when it is not fixed. The reward of the turns before the learner's first."""
        game_seed = seed if seed is not None else int(np_random.integers(2**63 - 1))
        self.learner = self.seat if self.seat is not None else int(np_random.integers(self.seats))
        others = iter(seat_for(spec, self.pool) for spec in self.opponents)
        seats = [self._seat if i == self.learner else next(others) for i in range(self.seats)]
        self._games += 1
        self.table = Table(self.ruleset, seats, game_seed, game_id=f"g{self._games}", policy=self.policy)
        game = self.table.start()
        self.over = False
        reward, info = self._advance(len(game.events), game.round)
        return reward, info | {"seat": self.learner, "seed": game_seed}

    def act(self, action: Any) -> tuple[float, SlotInfo]:
        """The learner plays ``action`` (an index of the action space), then the others up to its next turn or
        the end. An illegal one ends the game at once with ``illegal_reward`` (the learner loses it)."""
        chosen = self.legal.get(int(action)) if isinstance(action, (int, np.integer)) else None
        if chosen is None:
            self.over = True
            error = self.observer.illegal(action, self.legal, LEARNER)
            self.legal = {}
            return self.illegal_reward, {"illegal": str(error)}
        game = self.game
        mark, round_before = len(game.events), game.round
        self._seat.action = chosen
        self.game_table().step()
        return self._advance(mark, round_before)

    @property
    def game(self) -> Game:
        return self.game_table().game

    def game_table(self) -> Table:
        if self.table is None:
            raise RuntimeError("call reset() before using the environment")
        return self.table

    def _advance(self, mark: int, round_before: int) -> tuple[float, SlotInfo]:
        """Let the other seats play up to the learner's next turn or the end; the learner's reward meanwhile."""
        table = self.game_table()
        game, learner = table.game, self.learner
        while not game.over and game.current != learner:
            table.step()
        reward = 0.0
        info: SlotInfo = {}
        if self.reward_mode == "round" and (game.round != round_before or game.over):
            reward += round_rewards(game.events, mark, self.seats)[learner]
        if game.over:
            result: GameResult = table.finish()
            if self.reward_mode == "game":
                reward += place_rewards(result.placements)[learner]
            self.over = True
            self.legal = {}
            info["result"] = trimmed(result)
        else:
            self.legal = self.observer.legal(game)
        return reward, info


class SingleAgentEnv(gym.Env):
    """A ``gymnasium.Env`` for one seat; ``opponents`` (one spec for all, or one per other seat) play the rest.

    Observations are the AEC environment's: ``{"observation": ..., "action_mask": ...}``. An illegal action
    ends the episode at once with ``illegal_reward`` (PettingZoo's ``TerminateIllegalWrapper`` does the
    same), and ``info["illegal"]`` names it. ``seat=None`` seats the learner at random each episode.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, ruleset: str | Ruleset = "family", seats: int = 4,
                 opponents: Sequence[str | BotSpec] = ("builtin:random",), seat: int | None = None,
                 options: Mapping[str, Any] | None = None, render_mode: str | None = None, reward: str = "game",
                 illegal_reward: float = -1.0, policy: FaultPolicy = FaultPolicy()) -> None:
        self.play = learner_game(ruleset, seats, opponents, seat, options, reward, illegal_reward, policy)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode={render_mode!r}: the modes are None and 'ansi'")
        self.render_mode = render_mode
        play = self.play
        self.ruleset, self.seats, self.seat, self.opponents = play.ruleset, seats, seat, play.opponents
        self.reward_mode, self.illegal_reward, self.policy = reward, play.illegal_reward, policy
        self.observer = self.play.observer
        self.observation_space, self.action_space = spaces_for(self.observer)

    @property
    def table(self) -> Table | None:
        return self.play.table

    @property
    def learner(self) -> int:
        return self.play.learner

    @property
    def pool(self) -> BotPool:
        return self.play.pool

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game: with ``seed``, the deal of a referee game with that seed (and, if random, the same seat)."""
        super().reset(seed=seed)
        _, info = self.play.deal(self.np_random, seed)
        return self._obs(), dict(info)  # Gymnasium's info: a plain dict

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        self.play.game_table()
        if self.play.over:
            raise RuntimeError("the episode is over: call reset() for a new game")
        reward, info = self.play.act(action)
        return self._obs(), reward, self.play.over, False, dict(info)

    def render(self) -> str | None:
        """The whole table as text (``ansi``), every hand shown."""
        if self.render_mode is None:
            return None
        table = self.play.game_table()
        return table_text(table.game, table.names)

    def close(self) -> None:
        """End every bot process (they are kept between episodes)."""
        self.play.pool.close()

    def _obs(self) -> dict[str, np.ndarray]:
        play = self.play
        mask = play.observer.mask(play.legal) if not play.over else np.zeros(play.observer.actions, dtype=np.int8)
        return {"observation": play.observer.observation(play.game, play.learner), "action_mask": mask}


def learner_game(ruleset: str | Ruleset, seats: int, opponents: Sequence[str | BotSpec], seat: int | None,
                 options: Mapping[str, Any] | None, reward: str, illegal_reward: float,
                 policy: FaultPolicy) -> LearnerGame:
    """The arguments both environments take, checked, as a ``LearnerGame``."""
    check_players(seats)
    check_reward(reward)
    if seat is not None and not 0 <= seat < seats:
        raise ValueError(f"seat={seat!r}: a table of {seats} has seats 0 to {seats - 1} (or None: at random)")
    specs = [o if isinstance(o, BotSpec) else parse_bot(o) for o in opponents]
    if len(specs) == 1:
        specs *= seats - 1
    if len(specs) != seats - 1:
        raise ValueError(f"{len(specs)} opponents for {seats} seats: give one spec for every other seat "
                         f"({seats - 1}), or a single one for all of them")
    rules = ruleset_of(ruleset, options)
    # Distinct names keep two copies of one command apart: one process each.
    others = unique_names([BotSpec(LEARNER, "builtin:random"), *specs])[1:]
    return LearnerGame(rules, seats, seat, others, policy, reward, float(illegal_reward), Observer(rules))
