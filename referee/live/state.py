"""What the live page shows, as one thread-safe snapshot: the run writes it as games end, the server reads it.

The run's thread only stores small values here (a counter, the last games and faults in bounded queues);
everything the page needs in another form is made when a browser asks (``snapshot``, in the server's
thread). The standings are the one exception: they are computed from the run's own collector, which only
the run's thread may read, so ``refresh`` computes them there, and only when someone is watching, at most
every ``REFRESH_MIN_S`` and never taking more than ``DUTY`` of the run's time.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from referee.live.now import NowPlaying
from referee.live.snapshot import GameSeenJson, LiveStandingsJson, LiveStateJson, RoundSeenJson
from referee.standings.model import Standings
from referee.standings.render import column_notes, columns
from referee.store.ranking_shapes import RoundJson
from referee.store.results import GameLine


class RunPhase:
    """Where the run is (the page's banner)."""

    STARTING = "starting"
    RUNNING = "running"
    FINISHED = "finished"
    INTERRUPTED = "interrupted"
    STOPPED = "stopped"
    """Ended early for another reason than Ctrl-C (a bot that cannot start)."""

    ENDED = (FINISHED, INTERRUPTED, STOPPED)


@dataclass(frozen=True, slots=True)
class FaultSeen:
    """A fault as it happened: the game, the bot, its kind and message (the bot's words: text, never HTML)."""

    game: str
    bot: str
    kind: str
    message: str


@dataclass(frozen=True, slots=True)
class GameSeen:
    """A game as it ended: its id, where it was planned, who sat where and the places."""

    game: str
    stage: str | None
    round: int | None
    table: int | None
    seating: tuple[str, ...]
    placements: tuple[int, ...]
    faults: int
    at: float


@dataclass
class TableSeen:
    """A table of a knockout round as it fills: its players, games played, and each player's places summed."""

    players: tuple[str, ...]
    planned: int
    played: int = 0
    place_sums: dict[str, int] = field(default_factory=dict)


@dataclass
class RoundSeen:
    """A round of a knockout stage: its label, tables, and who went through (once decided)."""

    stage: str
    number: int
    label: str
    tables: list[TableSeen]
    advanced: list[str] | None = None


@dataclass(frozen=True, slots=True)
class Comparison:
    """A compare's test as the terminal prints it, with the LLR after every pair and its bounds."""

    lines: tuple[str, ...]
    trace: Sequence[float]
    """The run's own list (appended as pairs are counted): read up to ``pairs`` by the server."""
    pairs: int
    lower: float | None
    upper: float | None


class LiveState:
    """The live page's data, written by the run's thread and read by the server's (under one lock)."""

    MAX_GAMES = 25
    MAX_FAULTS = 60
    MAX_NOTES = 40
    #: Standings are recomputed at most this often, and (with ``DUTY``) never for more than 5% of the time
    #: (the run thread's CPU time: a fit of 200 bootstrap samples over 180 games takes about 0.1 s).
    REFRESH_MIN_S = 0.5
    DUTY = 0.05
    #: Someone is watching when the page asked for the state this recently, or holds an event stream open.
    WATCHED_S = 10.0

    def __init__(self, title: str, kind: str) -> None:
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self.title = title
        self.kind = kind
        self.version = 0
        self.changed_at = time.time()
        self.phase = RunPhase.STARTING
        self.message = ""
        self.resume = ""
        self.notes: deque[str] = deque(maxlen=self.MAX_NOTES)
        self.total = 0
        self.done = 0
        self.base = 0
        self.t0: float | None = None
        self.t_end: float | None = None
        self.games: deque[GameSeen] = deque(maxlen=self.MAX_GAMES)
        self.faults: deque[FaultSeen] = deque(maxlen=self.MAX_FAULTS)
        self.fault_count = 0
        self.standings: Standings | None = None
        self.standings_games = 0
        self.rounds: list[RoundSeen] = []
        self.comparison: Comparison | None = None
        self.replay = False
        """Whether the server can open a game in the report's replay viewer (the run keeps its games)."""
        self.now = NowPlaying(None)
        """The game followed turn by turn for the now-playing view (a folder given: ``NowPlaying(folder)``)."""
        self.staying = False
        """The run has ended and the page stays up (until Ctrl-C in the terminal)."""
        self.watchers = 0
        self.watched_at = 0.0
        self._next_refresh = 0.0
        self._rendered: tuple[Standings, LiveStandingsJson] | None = None
        self.refresh_s = 0.0
        """The CPU time the last standings refresh took (for the duty rule; reported in the state)."""

    # ------------------------------------------------------------------ written by the run
    def _bump(self) -> None:
        """Called under the lock: a new version for the pages waiting on the event stream."""
        self.version += 1
        self.changed_at = time.time()
        self._changed.notify_all()

    def note(self, text: str) -> None:
        """A line the terminal printed (builds, bots left out, resuming, interrupted)."""
        with self._lock:
            self.notes.append(text)
            self._bump()

    def start(self, total: int, done: int) -> None:
        """The games begin: ``done`` of ``total`` were played before (a resumed run)."""
        with self._lock:
            self.phase = RunPhase.RUNNING
            self.total, self.done, self.base = total, done, done
            self.t0 = time.monotonic()
            self._bump()

    def progress(self, done: int, total: int) -> None:
        with self._lock:
            if self.t0 is None:
                self.t0, self.base = time.monotonic(), done
            self.phase = RunPhase.RUNNING if self.phase == RunPhase.STARTING else self.phase
            self.done, self.total = done, total
            self._bump()

    def game(self, line: GameLine) -> None:
        """A game ended: keep it among the latest, and its faults (with their messages)."""
        result, slot = line.result, line.slot
        seen = GameSeen(result.game, slot.stage, slot.round, slot.table, result.seating, result.placements,
                        len(result.faults), time.time())
        self.now.ended(result.game, result.actions, result.placements)
        with self._lock:
            self.games.append(seen)
            for fault in result.faults:
                bot = fault.bot if fault.bot is not None else (
                    result.seating[fault.seat] if fault.seat is not None and fault.seat < len(result.seating) else "?")
                self.faults.append(FaultSeen(result.game, bot, fault.kind.value, fault.message))
                self.fault_count += 1
            if slot.table is not None and self.rounds:
                current = self.rounds[-1]
                if current.stage == slot.stage and current.number == slot.round and slot.table < len(current.tables):
                    table = current.tables[slot.table]
                    table.played += 1
                    for name, place in zip(result.seating, result.placements):
                        table.place_sums[name] = table.place_sums.get(name, 0) + place
            self._bump()

    def watched(self) -> bool:
        return self.watchers > 0 or time.monotonic() - self.watched_at < self.WATCHED_S

    def refresh(self, standings: Callable[[], Standings], games: int) -> None:
        """Recompute the standings over ``games`` games with ``standings`` (on the run's thread) when someone
        watches and it is due; a no-op otherwise."""
        now = time.monotonic()
        if now < self._next_refresh or not self.watched():
            return
        # The CPU this thread spends, not the wall time: on a busy machine a fit waits for a core as long
        # as it computes, and the duty rule is about what the run gives up.
        cpu = time.thread_time()
        made = standings()
        spent = time.thread_time() - cpu
        self.refresh_s = spent
        self._next_refresh = now + max(self.REFRESH_MIN_S, spent / self.DUTY)
        self.set_standings(made, games)

    def set_standings(self, standings: Standings, games: int) -> None:
        with self._lock:
            self.standings, self.standings_games = standings, games
            self._bump()

    def knockout_round(self, stage: str, number: int, label: str, tables: Iterable[Sequence[str]],
                       planned: Iterable[int], finished: Sequence[RoundJson] = ()) -> None:
        """A knockout round begins (its tables and games planned each); ``finished``: the stage's rounds before
        it as the planner records them (``advanced`` once a round is decided)."""
        with self._lock:
            for info in finished:  # who went through, for the rounds already shown
                for r in self.rounds:
                    if r.stage == stage and r.number == info.get("round") and info.get("advanced") is not None:
                        r.advanced = list(info["advanced"])
            self.rounds = [r for r in self.rounds if not (r.stage == stage and r.number == number)]
            self.rounds.append(RoundSeen(stage, number, label,
                                         [TableSeen(tuple(t), n) for t, n in zip(tables, planned)]))
            self._bump()

    def compare(self, lines: Sequence[str], trace: Sequence[float], lower: float | None,
                upper: float | None) -> None:
        """The comparison's block after a pair was counted (``trace`` is the test's own list, not copied)."""
        with self._lock:
            self.comparison = Comparison(tuple(lines), trace, len(trace), lower, upper)
            self._bump()

    def stay(self) -> None:
        """The run has ended and its page stays up until Ctrl-C (the page says so)."""
        with self._lock:
            self.staying = True
            self._bump()

    def finish(self, phase: str, message: str, standings: Standings | None = None, games: int | None = None,
               resume: str = "") -> None:
        """The run ended (``RunPhase.ENDED``): what to say, the final standings, how to resume after Ctrl-C."""
        with self._lock:
            self.phase, self.message, self.resume = phase, message, resume
            self.t_end = time.monotonic()
            if standings is not None:
                self.standings = standings
                self.standings_games = games if games is not None else self.done
            self._bump()

    # ------------------------------------------------------------------ read by the server
    def wait(self, seen: int, timeout: float) -> int:
        """Block until the version is past ``seen`` (or ``timeout`` s passed); the version now."""
        with self._lock:
            if self.version <= seen:
                self._changed.wait(timeout)
            return self.version

    def wake(self) -> None:
        """Wake every page's stream (the server is closing)."""
        with self._lock:
            self._changed.notify_all()

    def watching(self, delta: int) -> None:
        """An event stream opened (+1) or closed (-1)."""
        with self._lock:
            self.watchers += delta
            self.watched_at = time.monotonic()

    def snapshot(self) -> LiveStateJson:
        """The state as plain data (copied under the lock; the standings are rendered after, outside it)."""
        now = time.monotonic()
        with self._lock:
            self.watched_at = now
            end = self.t_end if self.t_end is not None else now
            elapsed = end - self.t0 if self.t0 is not None else 0.0
            played = self.done - self.base
            rate = played / elapsed if elapsed > 0 and played > 0 else None
            left = max(0, self.total - self.done)
            eta = left / rate if rate and left and self.phase not in RunPhase.ENDED else None
            comparison = self.comparison
            trace = list(comparison.trace[:comparison.pairs]) if comparison is not None else []
            out: LiveStateJson = {
                "version": self.version, "changed_at": self.changed_at, "title": self.title, "kind": self.kind,
                "phase": self.phase, "message": self.message, "resume": self.resume, "notes": list(self.notes),
                "progress": {"done": self.done, "total": self.total, "elapsed_s": round(elapsed, 2),
                             "rate": None if rate is None else round(rate, 2),
                             "eta_s": None if eta is None else round(eta, 1)},
                "games": [_game_json(g) for g in reversed(self.games)],
                "faults": [{"game": f.game, "bot": f.bot, "kind": f.kind, "message": f.message}
                           for f in reversed(self.faults)],
                "fault_count": self.fault_count,
                "rounds": [_round_json(r) for r in self.rounds],
                "comparison": None if comparison is None else {
                    "lines": list(comparison.lines), "trace": trace, "lower": comparison.lower,
                    "upper": comparison.upper},
                "replay": self.replay, "staying": self.staying,
                "following": self.now.folder is not None, "refresh_s": round(self.refresh_s, 4),
                "standings_games": self.standings_games, "standings": None}
            standings = self.standings
        out["standings"] = None if standings is None else self._standings_json(standings)
        return out

    def _standings_json(self, standings: Standings) -> LiveStandingsJson:
        """``standings_json``, made once per standings (many events share one refresh)."""
        made = self._rendered
        if made is None or made[0] is not standings:
            made = self._rendered = (standings, standings_json(standings))
        return made[1]


def _game_json(g: GameSeen) -> GameSeenJson:
    return {"game": g.game, "stage": g.stage, "round": g.round, "table": g.table, "seating": list(g.seating),
            "placements": list(g.placements), "faults": g.faults}


def _round_json(r: RoundSeen) -> RoundSeenJson:
    return {"stage": r.stage, "round": r.number, "label": r.label, "advanced": r.advanced,
            "tables": [{"players": list(t.players), "planned": t.planned, "played": t.played,
                        "avg_place": {n: round(s / t.played, 2) for n, s in t.place_sums.items()} if t.played else {}}
                       for t in r.tables]}


def standings_json(standings: Standings) -> LiveStandingsJson:
    """The standings as the page draws them: the columns and cells every surface shows (``columns``), the
    bots left out with their reasons, the rule of the order and the legend."""
    cols = columns(standings)
    return {"columns": [{"header": c.header, "left": c.left} for c in cols],
            "rows": [{"bot": r.bot, "cells": [c.cell(r) for c in cols]} for r in standings.rows],
            "left_out": [{"bot": x.bot, "reason": x.reason} for x in standings.left_out],
            "rule": standings.rule, "complete": standings.complete, "notes": column_notes(standings)}
