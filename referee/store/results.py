"""A game's result as a typed record, and its line of games.jsonl (the result and its place in the schedule).

Everything after the table passes these objects along: the store writes a ``GameLine`` once (one
JSON encoding, every key), and readers build it back with ``GameLine.from_json``, so no consumer
re-derives a key another one wrote.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Mapping, NotRequired, Protocol, TypedDict, cast

from referee.engine.jsondata import JsonObject
from referee.engine.rules import RuleOptions
from referee.protocol.faults import Fault, FaultJson, FaultKind
from referee.store.jsonl import encode_line
from referee.store.notes import GameNotes


class _Clock(Protocol):
    decisions: int
    total_ms: float
    max_ms: float
    cpu_decisions: int
    cpu_total_ms: float
    cpu_max_ms: float


class SeatTimesJson(TypedDict):
    """``SeatTimes.to_json``: the ``time_ms`` of a games.jsonl line (the CPU lists only when a CPU time was read)."""

    decisions: list[int]
    total: list[float]
    max: list[float]
    cpu_decisions: NotRequired[list[int]]
    cpu_total: NotRequired[list[float]]
    cpu_max: NotRequired[list[float]]


@dataclass(frozen=True, slots=True)
class SeatTimes:
    """Each seat's answers in a game: how many were timed, their total and their longest wall time (ms); and
    of those whose CPU time was read, how many, its total and its longest (ms)."""

    decisions: tuple[int, ...]
    total: tuple[float, ...]
    max: tuple[float, ...]
    cpu_decisions: tuple[int, ...] = ()
    cpu_total: tuple[float, ...] = ()
    cpu_max: tuple[float, ...] = ()

    @classmethod
    def of(cls, clocks: Iterable[_Clock]) -> SeatTimes:
        clocks = list(clocks)
        cpu = any(c.cpu_decisions for c in clocks)
        return cls(tuple(c.decisions for c in clocks), tuple(round(c.total_ms, 3) for c in clocks),
                   tuple(round(c.max_ms, 3) for c in clocks),
                   tuple(c.cpu_decisions for c in clocks) if cpu else (),
                   tuple(round(c.cpu_total_ms, 3) for c in clocks) if cpu else (),
                   tuple(round(c.cpu_max_ms, 3) for c in clocks) if cpu else ())

    @classmethod
    def zero(cls, seats: int) -> SeatTimes:
        """No timed answer at any seat."""
        return cls((0,) * seats, (0.0,) * seats, (0.0,) * seats)

    def to_json(self) -> SeatTimesJson:
        out: SeatTimesJson = {"decisions": list(self.decisions), "total": list(self.total), "max": list(self.max)}
        if self.cpu_decisions:
            out["cpu_decisions"] = list(self.cpu_decisions)
            out["cpu_total"] = list(self.cpu_total)
            out["cpu_max"] = list(self.cpu_max)
        return out

    @classmethod
    def from_json(cls, data: SeatTimesJson | None, seats: int) -> SeatTimes:
        if not data:
            return cls.zero(seats)
        return cls(tuple(data["decisions"]), tuple(data["total"]), tuple(data["max"]),
                   tuple(data.get("cpu_decisions") or ()), tuple(data.get("cpu_total") or ()),
                   tuple(data.get("cpu_max") or ()))


def fault_from_json(data: FaultJson) -> Fault:
    """A ``Fault`` from its ``to_json`` form (the request is kept as its id and type, as games.jsonl has it)."""
    request = None
    if "request_id" in data or "request_type" in data:
        request = {"id": data.get("request_id"), "type": data.get("request_type")}
    return Fault(FaultKind(data["kind"]), data.get("message", ""), data.get("line"), request, data.get("elapsed_ms"),
                 data.get("seat"), data.get("bot"))


class GameResultJson(TypedDict):
    """``GameResult.to_json``: a game's result as plain data (the result's keys of a games.jsonl line)."""

    game: str
    seed: int
    ruleset: str
    options: RuleOptions
    seating: list[str]
    placements: list[int]
    game_placements: list[int]
    reason: str
    winner: int | None
    scores: list[int]
    hand_points: list[int]
    rounds: int
    decisions: int
    moves: int
    faults: list[FaultJson]
    forfeited: list[int]
    time_ms: SeatTimesJson
    wall_ms: float
    sandbox: list[str | None]
    clock: list[str | None]
    actions: str
    seat_names: NotRequired[str]
    """``hidden`` when the bots were told neutral labels, not the seats' names (absent: the names were told)."""


class GameLineJson(GameResultJson):
    """``GameLine.to_json``: a line of games.jsonl, the result and where the game sat in its run's schedule."""

    stage: str | None
    round: int | None
    table: int | None
    deal: int | None


@dataclass(frozen=True, slots=True)
class GameResult:
    """How one game went: who sat where, the places (after forfeits) and the engine's own, faults, times."""

    game: str
    seed: int
    ruleset: str
    options: RuleOptions
    seating: tuple[str, ...]
    placements: tuple[int, ...]
    """Places after forfeits: every forfeited seat shares the last place."""
    game_placements: tuple[int, ...]
    """Places as the game itself ended."""
    reason: str
    winner: int | None
    scores: tuple[int, ...]
    """Each seat's final match score (a single round scores nothing)."""
    hand_points: tuple[int, ...]
    """The points of the cards left in each hand when the game ended."""
    rounds: int
    decisions: int
    """Actions played in the whole game (every round): the replay's number of turns."""
    moves: int
    """The engine's move counter of the last round."""
    faults: tuple[Fault, ...]
    forfeited: tuple[int, ...]
    times: SeatTimes
    wall_ms: float
    actions: str = ""
    """Every action played, as the compact code of ``replay.encode_actions`` (fault stand-ins marked ``!``):
    with the seed, seating and options, enough to replay the game."""
    sandbox: tuple[str | None, ...] = ()
    """Each seat's sandbox level (``full``, ``walls``, ``limits``, ``none``; ``None`` for a built-in player)."""
    clock: tuple[str | None, ...] = ()
    """The clock each seat's moves were timed on (``cpu``: its cgroup's CPU time, ``cpu-process``: its
    processes' CPU clocks, ``wall``; ``None`` for a built-in player)."""
    hidden_names: bool = False
    """The bots were told each seat by a neutral label (``seat1``...), not its name (``seat_names: hidden``)."""
    notes: GameNotes | None = None
    """What the bots wrote (stderr, log messages) at each turn: kept in the notes file, not in games.jsonl."""

    def to_json(self) -> GameResultJson:
        """The plain-data form (the result's keys of games.jsonl, and ``play_game``'s result)."""
        out: GameResultJson = {
            "game": self.game, "seed": self.seed, "ruleset": self.ruleset, "options": self.options,
            "seating": list(self.seating), "placements": list(self.placements),
            "game_placements": list(self.game_placements), "reason": self.reason, "winner": self.winner,
            "scores": list(self.scores), "hand_points": list(self.hand_points), "rounds": self.rounds,
            "decisions": self.decisions, "moves": self.moves, "faults": [f.to_json() for f in self.faults],
            "forfeited": list(self.forfeited), "time_ms": self.times.to_json(), "wall_ms": self.wall_ms,
            "sandbox": list(self.sandbox), "clock": list(self.clock), "actions": self.actions,
        }
        if self.hidden_names:  # only then: a game told the names keeps the line it always had
            out["seat_names"] = "hidden"
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> GameResult:
        """The result of ``to_json`` (or of a games.jsonl line, whose extra keys are ignored).

        Lines written before results were typed lack ``options`` and ``game_placements`` and call the
        hand points ``points``; they read back with ``{}``, the placements and ``points``.
        """
        data = cast(JsonObject, data)  # as read: each key is checked as it is taken
        seating = tuple(data["seating"])
        placements = tuple(data["placements"])
        n = len(seating)
        actions = data.get("actions") or ""
        if not isinstance(actions, str):  # a result from before actions were kept compact
            from referee.engine.actions import Action
            from referee.engine.notation import encode_actions

            actions = encode_actions([Action.from_wire(a) for a in actions])
        return cls(
            game=str(data["game"]), seed=int(data["seed"]), ruleset=str(data["ruleset"]),
            options=cast(RuleOptions, dict(data.get("options") or {})), seating=seating, placements=placements,
            game_placements=tuple(data.get("game_placements") or placements), reason=str(data.get("reason", "")),
            winner=data.get("winner"), scores=tuple(data.get("scores") or (0,) * n),
            hand_points=tuple(data.get("hand_points") or data.get("points") or (0,) * n),
            rounds=int(data.get("rounds") or 0), decisions=int(data.get("decisions") or 0),
            moves=int(data.get("moves") or 0), faults=tuple(fault_from_json(f) for f in data.get("faults") or ()),
            forfeited=tuple(data.get("forfeited") or ()), times=SeatTimes.from_json(data.get("time_ms"), n),
            wall_ms=float(data.get("wall_ms") or 0.0), actions=actions,
            sandbox=tuple(data.get("sandbox") or (None,) * n), clock=tuple(data.get("clock") or (None,) * n),
            hidden_names=data.get("seat_names") == "hidden")

    def faults_of(self, seat: int) -> list[Fault]:
        """The faults charged to ``seat``."""
        return [f for f in self.faults if f.seat == seat]


@dataclass(frozen=True, slots=True)
class Slot:
    """Where a game sat in its run's schedule (``None`` where the run has no such level, e.g. a ladder's tables)."""

    stage: str | None = None
    round: int | None = None
    table: int | None = None
    deal: int | None = None


class LineDefaults(TypedDict):
    """What a stage (or a match: ``""``) gives the games.jsonl lines of older files that lack them."""

    ruleset: str
    options: RuleOptions


def complete_line(line: JsonObject, defaults: Mapping[str, LineDefaults]) -> JsonObject:
    """A games.jsonl line with the ruleset and options its stage (or match: ``""``) says, where the line has none
    (lines of older files); ``defaults`` as ``ResultsDir.line_defaults`` gives them. The one filler of a line."""
    if "ruleset" in line and "options" in line:
        return line
    base: Mapping[str, object] = defaults.get(line.get("stage") or "") or defaults.get("") or {}
    return {**base, **{k: v for k, v in line.items() if v is not None}}


#: games.jsonl keys, in order: the game, where it sat in the schedule, then its result.
LINE_KEYS = ("game", "stage", "round", "table", "deal", "seed", "ruleset", "options", "seating", "placements",
             "game_placements", "scores", "hand_points", "reason", "winner", "rounds", "moves", "decisions",
             "faults", "forfeited", "time_ms", "wall_ms", "sandbox", "clock", "actions")


@dataclass(frozen=True, slots=True)
class GameLine:
    """One line of games.jsonl: a game's result and its place in the schedule."""

    result: GameResult
    slot: Slot = Slot()

    @property
    def game(self) -> str:
        return self.result.game

    @property
    def seed(self) -> int:
        return self.result.seed

    @property
    def seating(self) -> tuple[str, ...]:
        return self.result.seating

    @property
    def placements(self) -> tuple[int, ...]:
        return self.result.placements

    @property
    def stage(self) -> str | None:
        return self.slot.stage

    def to_json(self) -> GameLineJson:
        """Every key of ``LINE_KEYS``, in that order."""
        data: dict[str, object] = dict(self.result.to_json())
        slot = self.slot
        data.update(stage=slot.stage, round=slot.round, table=slot.table, deal=slot.deal)
        line = {k: data[k] for k in LINE_KEYS}
        if "seat_names" in data:
            line["seat_names"] = data["seat_names"]
        return cast(GameLineJson, line)

    def encode(self) -> bytes:
        """The line as written to games.jsonl (newline included): the one encoding of a game."""
        return encode_line(self.to_json())

    @classmethod
    def from_json(cls, data: JsonObject, defaults: Mapping[str, LineDefaults] | None = None) -> GameLine:
        """A line read back; ``defaults`` (``ResultsDir.line_defaults``) fills what lines of older files lack."""
        if defaults:
            data = complete_line(data, defaults)
        return cls(GameResult.from_json(data),
                   Slot(data.get("stage"), data.get("round"), data.get("table"), data.get("deal")))

    def with_result(self, result: GameResult) -> GameLine:
        return replace(self, result=result)
