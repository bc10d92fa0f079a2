"""A game as a job: everything needed to play it (seed, seating, ruleset, bot specs), runnable by any executor.

A job travels between processes and machines as ``to_json()``; ``from_json`` parses its ruleset and
policy through a small cache, so a worker checks each distinct ruleset once, not once per game.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping, NotRequired, TypedDict

from referee.bots.pool import BotPool
from referee.bots.spec import BotSpec, BotSpecJson
from referee.engine.rules import Ruleset, get_ruleset
from referee.run.follow import FollowFile
from referee.store.results import GameResult
from referee.table.held_record import HeldRecorder
from referee.table.policy import FaultPolicy
from referee.table.table import BuiltinSeat, Recorder, Seat, Table, seat_for


@lru_cache(maxsize=64)
def _ruleset(house: str, options: tuple[tuple[str, Any], ...]) -> Ruleset:
    return get_ruleset(house, dict(options))


@lru_cache(maxsize=16)
def _policy(text: str) -> FaultPolicy:
    return FaultPolicy.parse(text)


class GameJobJson(TypedDict):
    """``GameJob.to_json``: a job as it travels to a worker process or a cluster."""

    game: str
    seed: int
    ruleset: str
    options: Mapping[str, object]
    """``Ruleset.options``."""
    seats: list[BotSpecJson]
    """Each seat's ``BotSpec.to_json``, read back by ``BotSpec.from_json`` (the bots' package owns its shape)."""
    policy: str
    record: bool
    faults_only: bool
    actions: NotRequired[bool]
    hide_names: NotRequired[bool]
    follow: NotRequired[str]


@dataclass(frozen=True)
class GameJob:
    """Everything needed to play one game, and nothing else."""

    game_id: str
    seed: int
    rules: Ruleset
    seats: tuple[BotSpec, ...]
    policy: FaultPolicy = FaultPolicy()
    record: bool = False
    faults_only: bool = False
    """With ``record``: keep the record only when the game has a fault (a run that did not ask for records)."""
    actions: bool = True
    """False: the result's ``actions`` is left empty (a run that writes no games.jsonl, where nothing reads it)."""
    hide_names: bool = False
    """The bots are told neutral seat labels, not names (``seat_names: hidden``)."""
    follow: str | None = None
    """A file the game's actions are appended to as they are played (the live page's "now playing"), or None."""

    def to_json(self) -> GameJobJson:
        data: GameJobJson = {"game": self.game_id, "seed": self.seed, "ruleset": self.rules.house,
                             "options": self.rules.options, "seats": [_spec_json(s) for s in self.seats],
                             "policy": self.policy.to_json(), "record": self.record, "faults_only": self.faults_only}
        if not self.actions:  # only then: a job's message is otherwise what it was
            data["actions"] = False
        if self.hide_names:
            data["hide_names"] = True
        if self.follow is not None:
            data["follow"] = self.follow
        return data

    def keeps(self, result: GameResult) -> bool:
        """Whether this game's record is written, now that it is over."""
        return self.record and (not self.faults_only or bool(result.faults))

    @property
    def rebuilds_record(self) -> bool:
        """Whether this game's record is kept as an index entry, rebuilt from games.jsonl when read
        (``record_file``): a game between built-in players only, whose record holds nothing games.jsonl does
        not give back byte for byte (no bot wrote a byte, no answer was timed, nothing can fault)."""
        return self.record and all(s.builtin is not None for s in self.seats)

    @classmethod
    def from_json(cls, data: GameJobJson, read: dict[int, tuple[BotSpecJson, BotSpec]] | None = None) -> GameJob:
        """The job ``data`` describes. ``read``: the specs already read from the same message (by the seat's
        object: the jobs of one message share their seats' objects, see ``_spec_json``), one dict a message."""
        seats = tuple(BotSpec.from_json(s) if read is None else _spec_read(s, read) for s in data["seats"])
        return cls(data["game"], data["seed"], _ruleset(data["ruleset"], tuple(sorted(data["options"].items()))),
                   seats, _policy(data.get("policy", "forfeit")),
                   data.get("record", False), data.get("faults_only", False), data.get("actions", True),
                   data.get("hide_names", False), data.get("follow"))


#: Each spec's ``to_json``, by the spec's identity (the spec kept, so that its id is not reused while listed): a run's
#: jobs seat the same few specs game after game, and the jobs of one message to a worker then share their seats'
#: objects, which pickle sends once and the worker reads once (``from_json``'s ``read``). A job's JSON is read,
#: never changed, by whoever receives it.
_SPEC_JSON: dict[int, tuple[BotSpec, BotSpecJson]] = {}
_SPEC_JSON_KEPT = 256


def _spec_json(spec: BotSpec) -> BotSpecJson:
    kept = _SPEC_JSON.get(id(spec))
    if kept is not None and kept[0] is spec:
        return kept[1]
    if len(_SPEC_JSON) >= _SPEC_JSON_KEPT:
        _SPEC_JSON.clear()
    data = spec.to_json()
    _SPEC_JSON[id(spec)] = (spec, data)
    return data


def _spec_read(data: BotSpecJson, read: dict[int, tuple[BotSpecJson, BotSpec]]) -> BotSpec:
    """``BotSpec.from_json(data)``, once for each seat object of a message (``read`` keeps the object alive)."""
    kept = read.get(id(data))
    if kept is not None and kept[0] is data:
        return kept[1]
    spec = BotSpec.from_json(data)
    read[id(data)] = (data, spec)
    return spec


#: The built-in seats ``run_job`` played last, by place, name and command, per thread: a seat begins each
#: game afresh (its player reseeded for the game), so one serves game after game and its player is made
#: once, not per game (making one cost more than seeding it). A thread plays one game at a time (``run_job``
#: returns at the game's end), and a cluster worker's threads each play their own: per thread, no two games
#: share a seat.
_LOCAL = threading.local()
_SEATS_KEPT = 64


def _kept_seats() -> dict[tuple[int, str, str], BuiltinSeat]:
    kept: dict[tuple[int, str, str], BuiltinSeat] | None = getattr(_LOCAL, "seats", None)
    if kept is None:
        kept = _LOCAL.seats = {}
    return kept


def _seats(specs: tuple[BotSpec, ...], pool: BotPool) -> list[Seat]:
    """The job's seats: built-in ones reused from this thread's last games (``_LOCAL``), the others from
    ``pool``."""
    kept = _kept_seats()
    seats: list[Seat] = []
    for index, spec in enumerate(specs):
        if spec.builtin is None:
            seats.append(seat_for(spec, pool))
            continue
        key = (index, spec.name, spec.command)
        seat = kept.get(key)
        if seat is None:
            if len(kept) >= _SEATS_KEPT:  # a ladder of many built-ins: keep the memory bounded
                kept.clear()
            seat = kept[key] = BuiltinSeat(spec)
        seats.append(seat)
    return seats


def run_job(job: GameJob, pool: BotPool) -> tuple[GameResult, list[dict[str, Any]] | None]:
    """Play ``job`` with bot processes from ``pool``; the result and the game record if it is kept
    (``GameJob.keeps``; ``None`` for a record rebuilt when read, ``GameJob.rebuilds_record``: recording it cost a
    built-in game a third of its time). A record kept only on a fault is held, and written out only then."""
    recorder: Recorder | None = None
    if job.record and not job.rebuilds_record:
        recorder = HeldRecorder() if job.faults_only else Recorder()
    seats = _seats(job.seats, pool)
    # Only a record and a bot's relay read the game's events: built-in seats alone, unrecorded, log none.
    log_events = recorder is not None or not all(isinstance(seat, BuiltinSeat) for seat in seats)
    actions = job.actions or job.record  # a record, stored or rebuilt from games.jsonl, needs them
    table = Table(job.rules, seats, job.seed, job.game_id, job.policy, recorder, log_events, actions, job.hide_names)
    if job.follow is None:
        result = table.play()
    else:
        with FollowFile(job.follow) as follow:
            table.follow = follow.write
            result = table.play()
    return result, recorder.written() if recorder is not None and job.keeps(result) else None
