"""Fuzz games: the bot plays whole games against built-in players, as in an arena, and every fault is a check.

The games are the arena's own (``table.play_game`` with a ``BotPool``), so what fails here fails there.
Table sizes (2-4 seats), the bot's seat, the opponents and house options (stacking, draw until
playable, short matches) rotate from game to game; seeds come from ``jobs.game_seed``.
"""

from __future__ import annotations

import os
import shlex
import tempfile
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from referee.bots.logs import stderr_log
from referee.bots.pool import BotPool
from referee.bots.spec import BotSpec, TimeLimits
from referee.check.report import CheckResult, Report
from referee.check.timing import MoveTimes
from referee.engine.notation import StoredGame
from referee.engine.rules import RuleOptions, get_ruleset
from referee.protocol.faults import FaultJson
from referee.protocol.wire import JSONDecodeError, loads
from referee.replay.locate import seat_faults
from referee.replay.requests import ask_command
from referee.run.seeds import game_seed
from referee.store.game_source import SourceGame
from referee.store.jsonl import write_jsonl
from referee.table.policy import FaultPolicy
from referee.table.table import Recorder, play_game, seat_for

OPPONENTS = ("random", "easy", "medium", "hard")

#: House options the games rotate through, per ruleset.
VARIANTS: dict[str, tuple[RuleOptions, ...]] = {
    "compact": ({}, {"draw_until_playable": True}, {"target": 100}),
    "family": ({}, {"stacking": True}, {"draw_until_playable": True},
               {"stacking": True, "draw_until_playable": True, "target": "round"}),
    "arcade": ({}, {"stacking": True}),
}

#: What each fault means for the author, as the ``expected`` of its check.
EXPECTED = {
    "timeout": "an answer within the move limit",
    "crash": "the process keeps running from hello to quit",
    "non_json": "only protocol JSON lines on stdout: debug output goes to stderr or a log message",
    "schema": "an answer that matches protocol/schemas/answer.json: one element of the turn's legal list",
    "illegal": "one element of the turn's legal list, written back unchanged",
    "stale_id": "the answer echoes the id of the request it answers",
    "missing_id": "the answer echoes the id of the request it answers",
    "line_too_long": "lines shorter than the line limit",
    "startup": "a ready within the startup limit",
    "early": "each answer written after its request is read, never ahead of it",
}
#: Faults after which more games would only wait on a hung bot: the fuzz stops.
STOP_KINDS = frozenset({"timeout", "startup"})
#: Faulted games after which the fuzz stops (the report has enough to go on).
MAX_FAULTED_GAMES = 5


@dataclass(frozen=True)
class FuzzGame:
    """One planned game: plain data."""

    house: str
    index: int
    seed: int
    seats: int
    bot_seat: int
    opponents: tuple[str, ...]
    options: tuple[tuple[str, object], ...]

    @property
    def game_id(self) -> str:
        return f"fuzz-{self.house}-{self.index + 1:03d}"

    def describe(self) -> str:
        defaults: dict[str, object] = dict(get_ruleset(self.house).options)
        opts = ", ".join(f"{k}={v}" for k, v in self.options if defaults.get(k) != v) or "defaults"
        return (f"game {self.game_id} (seed {self.seed}, {self.seats} seats, the bot in seat {self.bot_seat}, "
                f"against {', '.join(self.opponents)}; {opts})")


def split_games(total: int, houses: list[str]) -> dict[str, int]:
    """``total`` games spread over ``houses`` as evenly as possible, the first houses taking the remainder."""
    base, extra = divmod(total, len(houses))
    return {h: base + (1 if i < extra else 0) for i, h in enumerate(houses)}


@dataclass(frozen=True)
class Contest:
    """The contest a check stands in for: its house options and table size (None: rotate through the
    variants), the fault policy in force, and where failing games' records go."""

    options: tuple[tuple[str, object], ...] | None = None
    seats: int | None = None
    policy: FaultPolicy = FaultPolicy()
    records_dir: str | None = None


def plan(houses: list[str], total: int, seed: int, contest: Contest = Contest()) -> list[FuzzGame]:
    """The fuzz games to play, in order: each house's games together."""
    games = []
    for house, count in split_games(total, houses).items():
        variants: Sequence[Mapping[str, object]] = VARIANTS[house] if contest.options is None \
            else (dict(contest.options),)
        for i in range(count):
            seats = contest.seats or 2 + i % 3
            bot_seat = (i // 3) % seats
            opponents = tuple(OPPONENTS[(i + k) % len(OPPONENTS)] for k in range(seats - 1))
            options = tuple(variants[i % len(variants)].items())
            games.append(FuzzGame(house, i, game_seed(seed, i, f"check:{house}"), seats, bot_seat, opponents, options))
    return games


def fuzz_check_name(house: str, kind: str | None = None) -> str:
    return f"fuzz {house}: {kind}" if kind else f"fuzz {house}: no faults"


def run_fuzz(spec: BotSpec, houses: list[str], total: int, seed: int, report: Report, *,
             stderr_dir: str | None = None, skip_reason: str | None = None,
             progress: Callable[[int, int], None] | None = None, contest: Contest = Contest(),
             times: MoveTimes | None = None) -> None:
    """Play the fuzz games and add their checks to ``report``: one per house without faults, else one per
    (house, fault kind), naming the first offending exchange and every game it happened in."""
    if skip_reason is not None or total == 0:
        for house in houses:
            report.add(fuzz_check_name(house), "fuzz").skip(skip_reason or "not run: --games 0")
        return
    tally = _Tally(houses, contest.records_dir)
    games = plan(houses, total, seed, contest)
    with BotPool(stderr_dir=stderr_dir) as pool:
        bot = seat_for(spec, pool)
        for n, fg in enumerate(games):
            if tally.stopped:
                break
            rules = get_ruleset(fg.house, dict(fg.options))
            names = iter(fg.opponents)
            seats = [bot if s == fg.bot_seat else seat_for(_builtin(next(names), spec.limits), pool)
                     for s in range(fg.seats)]
            recorder = Recorder()
            result = play_game(rules, seats, fg.seed, fg.game_id, contest.policy, recorder)
            tally.played[fg.house] += 1
            if times is not None:
                times.add(result, fg.bot_seat)
            if progress is not None:
                progress(n + 1, len(games))
            faults = [f for f in result["faults"] if f.get("seat") == fg.bot_seat]
            if faults:
                tally.add_faults(fg, faults, recorder, spec, bot.name, stderr_dir)
    counts = split_games(total, houses) if houses else {}
    for house in houses:  # the checks go into the report house by house
        report.checks += tally.house_checks(house, counts[house], total)


class _Tally:
    """What the fuzz games found so far: one check per (house, fault kind), the games played and faulted per
    house, and why the fuzz stopped early (None while it goes on)."""

    def __init__(self, houses: list[str], records_dir: str | None) -> None:
        self.found: dict[tuple[str, str], CheckResult] = {}
        self.faulted: dict[str, int] = {h: 0 for h in houses}
        self.played: dict[str, int] = {h: 0 for h in houses}
        self.stopped: str | None = None
        self.faulted_games = 0
        self.records_dir = records_dir
        self.houses = len(houses)

    def add_faults(self, fg: FuzzGame, faults: list[FaultJson], recorder: Recorder, spec: BotSpec, bot_name: str,
                   stderr_dir: str | None) -> None:
        """Note one game's faults by the bot: its record saved for replay, each kind's first exchange kept."""
        self.faulted[fg.house] += 1
        self.faulted_games += 1
        if self.records_dir is None:
            self.records_dir = tempfile.mkdtemp(prefix="lastcard-check-")
        record = save_record(self.records_dir, fg.game_id, recorder.lines)
        replay = f"lastcard replay {shlex.quote(record)}"
        for fault, at in zip(faults, _fault_turns(recorder, fg.bot_seat)):
            turn = None if fault["kind"] == "startup" else at  # a failed start: ask from the hello on
            kind = fault["kind"]
            request = _request_line(recorder, fg.bot_seat, fault.get("request_id"))
            check = self.found.get((fg.house, kind))
            if check is None:
                check = self.found[(fg.house, kind)] = CheckResult(fuzz_check_name(fg.house, kind), "fuzz")
                check.fail(fault["message"], sent=request, received=fault.get("line"),
                           expected=EXPECTED.get(kind), elapsed_ms=fault.get("elapsed_ms"))
                if kind in ("crash", "startup") and stderr_dir:
                    check.details += [f"stderr: {line}" for line in _tail(stderr_dir, bot_name)]
            ask = ask_command(record, None, fg.bot_seat, turn, None if spec.cwd else spec.command)
            check.note(f"{fg.describe()}{_at_move(request)}: {fault['message']}; replay: {replay} "
                       f"(ask your bot of today the same: {ask})")
            if kind in STOP_KINDS:
                self.stopped = f"stopped after a {kind} fault"
        if self.faulted_games >= MAX_FAULTED_GAMES and not self.stopped:
            self.stopped = f"stopped after {MAX_FAULTED_GAMES} games with faults"

    def house_checks(self, house: str, planned: int, total: int) -> list[CheckResult]:
        """The checks one house adds to the report: its faults, or one check saying it had none (or why not)."""
        played = self.played[house]
        not_played = planned - played
        mine = [c for (h, _), c in self.found.items() if h == house]
        for check in mine:
            check.problem = f"{self.faulted[house]} of {played} {house} games had a fault; the first: {check.problem}"
            if not_played:
                check.note(f"{self.stopped}: {not_played} {house} games not played")
        if mine:
            return mine
        check = CheckResult(fuzz_check_name(house), "fuzz")
        if planned == 0:
            check.skip(f"no {house} games: {total} games spread over {self.houses} rulesets")
        elif played == 0:
            check.skip(f"not run: {self.stopped}")
        else:
            check.details.append(f"{played} games against built-in players, no faults"
                                 + (f" ({self.stopped}: {not_played} not played)" if not_played else ""))
        return [check]


def save_record(folder: str, game_id: str, lines: Sequence[Mapping[str, object]]) -> str:
    """Write a game's record as ``lastcard replay`` reads it; its path."""
    return write_jsonl(os.path.join(folder, f"{game_id}.jsonl"), lines)


def _fault_turns(recorder: Recorder, seat: int) -> list[int | None]:
    """The turn (action index) of each of the seat's faults, in the order the game recorded them."""
    lines = recorder.lines
    result: Mapping[str, object] = next((entry for entry in reversed(lines) if entry.get("t") == "result"), {})
    source = SourceGame(StoredGame.from_record(lines), {k: v for k, v in result.items() if k != "t"}, None, None, "")
    return seat_faults(source, seat)


def _builtin(name: str, limits: TimeLimits) -> BotSpec:
    return BotSpec(f"{name} (built-in)", f"builtin:{name}", limits=limits)


def _request_line(recorder: Recorder, seat: int, request_id: object) -> str | None:
    """The turn request a fault answered, found in the game record."""
    if request_id is None:
        return None
    needle = f'"id":{request_id},'
    for entry in reversed(recorder.lines):
        if entry.get("t") == "out" and entry.get("seat") == seat:
            line = entry.get("line", "")
            if line.startswith('{"type":"turn"') and needle in line:
                return str(line)
    return None


def _at_move(request: str | None) -> str:
    if request is None:
        return ""
    try:
        msg = loads(request)
        return f", request {msg['id']} (move {msg['move']} of its round)"
    except (JSONDecodeError, KeyError, TypeError):
        return ""


def _tail(stderr_dir: str, name: str, lines: int = 12) -> list[str]:
    path = stderr_log(stderr_dir, name)
    if not os.path.exists(path):
        return []
    with open(path, "rb") as fh:
        text = fh.read()[-8192:].decode("utf-8", "replace")
    return [line for line in text.splitlines() if line.strip()][-lines:]
