"""Playing a comparison on the one run loop: twin pairs in, counted in planned order, stopped by the test.

The flow: ``CompareSettings`` -> pairs ``0, 1, 2, ...`` (each two ``GameJob``s, made when the executor
asks) -> ``RunLoop.play_jobs`` -> each result stored as it ends -> pairs counted strictly in order
(pair ``k`` once ``0 .. k-1`` are) -> the test's verdict, the ``--max-games`` cap or ``--games`` stops
the loop. So the verdict falls at the same pair whatever ``--jobs``, a cluster or ``--resume`` did.
Games that finished beyond the deciding pair (other workers' games) are not counted and, once the run
is complete, not kept: the output is the same bytes as a serial run's.

Memory does not grow with the run: each game goes to games.jsonl as it ends, the games counted become sums and
placements (a ``Collected``), and only the games finished ahead of the count wait in memory for their pair:
at most the lead the executor is given (``Lead``), however slow one game is.
"""

from __future__ import annotations

import os
import tempfile
import time
from array import array
from dataclasses import dataclass, field, replace
from itertools import count
from typing import Any, Callable, Iterator, Mapping, NotRequired, Protocol, TypeVar, cast

from referee.arena.model import Arena
from referee.arena.runner import NeverStarted, never_started
from referee.bots.spec import BotSpec
from referee.compare.candidates import CandidatesDescriptionJson
from referee.compare.sprt import PairTally, Sprt
from referee.compare.twins import CompareSettings, TwinsDescriptionJson, game_ids, is_pair_game, pair_of, twin_pair
from referee.live.state import LiveState
from referee.run.executor import Executor, ExecutorFactory, local_executor
from referee.run.jobs import GameJob
from referee.run.loop import RunLoop, following
from referee.run.workers import resolve_workers
from referee.standings.collect import Collected
from referee.standings.model import Standings
from referee.standings.ranking import standings_for
from referee.standings.ratings import warm_up
from referee.standings.report_files import timing, write_reports
from referee.standings.results_doc import ResultsDoc, order_rule, rating_info
from referee.store.record_file import keep_only
from referee.store.results import GameLine, GameResult, Slot
from referee.store.results_dir import ResultsDir
from referee.store.results_shapes import SprtBlockJson, SprtSettingsJson
from referee.store.run_store import GameStore

#: Bootstrap samples for the standings' rating interval (as ``match``).
BOOTSTRAP = 200
#: The slot's stage name in games.jsonl.
STAGE = "compare"
#: Games read ahead of the earliest one unfinished, per job (at least ``MIN_LEAD``): the most finished games
#: that wait in memory for their pair to be counted. Several batches per worker, so no worker waits for
#: the count unless one game holds it up for long (a slow bot); then the others stop, not the memory.
LEAD_PER_JOB = 256
MIN_LEAD = 1024


class Display(Protocol):
    """What a comparison tells the person watching it."""

    def note(self, text: str) -> None: ...
    def update(self, counter: Sprt | PairTally) -> None:
        """After every pair counted."""
    def stop(self) -> None: ...


class NoDisplay:
    def note(self, text: str) -> None:
        pass

    def update(self, counter: Sprt | PairTally) -> None:
        pass

    def stop(self) -> None:
        pass


@dataclass
class CompareRun:
    """What a comparison produced: the test (or the fixed-length tally), why it stopped, the games counted (as sums
    and placements)."""

    settings: CompareSettings
    counter: Sprt | PairTally
    complete: bool
    stopped: str
    """``H1``, ``H0``, ``max-games`` (the cap reached, inconclusive), ``games`` (fixed length) or ``interrupted``."""
    played_now: int
    wall_s: float
    collected: Collected | None = None
    out_dir: str | None = None
    doc: ResultsDoc | None = None
    never_started: list[NeverStarted] = field(default_factory=list)

    @property
    def sprt(self) -> Sprt | None:
        return self.counter if isinstance(self.counter, Sprt) else None

    @property
    def tally(self) -> PairTally:
        return self.counter.tally if isinstance(self.counter, Sprt) else self.counter

    @property
    def standings(self) -> Standings | None:
        return self.doc.standings if self.doc else None


class CompareDescriptionJson(TwinsDescriptionJson):
    """What decides which games a comparison plays, in arena.json."""

    new: Mapping[str, object]
    base: Mapping[str, object]
    field: list[Mapping[str, object]]
    """Each bot's ``BotSpec.to_json``."""
    sprt: SprtSettingsJson | None
    max_games: int | None
    games: int | None
    seat_names: NotRequired[str]
    """``hidden`` when the bots are told neutral seat labels (absent: the names)."""
    draw: NotRequired[int]
    """Seats of the field drawn for each pair (absent: the whole field sits)."""
    versus: NotRequired[str]
    """``field`` for a test against the field (absent: NEW against BASE)."""


def description(settings: CompareSettings) -> CompareDescriptionJson:
    """What decides which games a comparison plays (arena.json; ``--resume`` refuses another)."""
    out: CompareDescriptionJson = {
        "kind": "compare", "seed": settings.seed, "ruleset": settings.rules.house,
        "options": dict(settings.rules.options), "seats": settings.seats, "policy": settings.policy.to_json(),
        "records": settings.record, "new": settings.new.to_json(), "base": settings.base.to_json(),
        "field": [s.to_json() for s in settings.field], "sprt": settings.sprt.to_json() if settings.sprt else None,
        "max_games": settings.max_games, "games": settings.games}
    # Only when used, so a folder written before these existed still resumes.
    if settings.hide_names:  # a comparison told the names keeps its fingerprint
        out["seat_names"] = "hidden"
    if settings.draw:
        out["draw"] = settings.draw
    if settings.versus != "each-other":
        out["versus"] = settings.versus
    return out


class _InOrder:
    """Counts pairs in planned order from the games finished in any order; says when the run is decided.

    A game waits in memory only until its pair is counted (then it is added to ``collected``, its sums and
    placements): what waits is the games finished ahead of the count, never more than the executor's lead.
    """

    def __init__(self, settings: CompareSettings, collected: Collected) -> None:
        self.settings = settings
        self.collected = collected
        self.waiting: dict[str, GameLine] = {}
        self.counter: Sprt | PairTally = Sprt(settings.sprt) if settings.sprt else PairTally()
        self.next = 0  # the first pair not yet counted
        self.finished = 0
        """Games finished, counted or not (resumed ones included)."""
        self.bot_ms = 0.0
        self.decisions = 0
        """The bots' time and decisions over every game finished (timing.json of an interrupted run)."""

    def offer(self, line: GameLine) -> None:
        """A game finished (its pair's order does not matter)."""
        self.waiting[line.game] = line
        self.finished += 1
        self.bot_ms += sum(line.result.times.total)
        self.decisions += sum(line.result.times.decisions)

    def __contains__(self, game_id: str) -> bool:
        """Whether a game of a pair not yet counted has finished (the pairs before ``next`` all have)."""
        return game_id in self.waiting

    @property
    def decided(self) -> str | None:
        """Why the run stops now, or None."""
        if isinstance(self.counter, Sprt) and self.counter.result:
            return self.counter.result
        cap = self.settings.max_pairs
        if cap is not None and self.next >= cap:
            return "games" if self.settings.games is not None else "max-games"
        return None

    def advance(self, display: Display) -> bool:
        """Count every pair whose twins have both finished, in order, until one decides; True once decided."""
        while self.decided is None:
            id_a, id_b = game_ids(self.next)
            if id_a not in self.waiting or id_b not in self.waiting:
                return False
            a, b = self.waiting.pop(id_a), self.waiting.pop(id_b)
            pair = twin_pair(self.settings, self.next)
            self.counter.add_pair(*pair.scores(a.placements, b.placements))
            self.collected.add(a)
            self.collected.add(b)
            self.next += 1
            display.update(self.counter)
        return True

    def resumed(self, line: GameLine) -> None:
        """A game read back from games.jsonl: counted silently (the block is drawn once, after "resuming")."""
        if is_pair_game(line.game):
            self.offer(line)
            self.advance(NoDisplay())

    def show(self, display: Display) -> None:
        display.update(self.counter)


def run_compare(settings: CompareSettings, arena: Arena, *, out: str | None = None, jobs: int = 1,
                resume: bool = False, fresh: bool = False, display: Display | None = None,
                executor_factory: ExecutorFactory = local_executor, pin: bool | None = None,
                stop_after: int | None = None, lead: int | None = None, live: LiveState | None = None) -> CompareRun:
    """Play ``settings``' pairs until the test decides (or the cap, or ``--games``); with ``out``, write what
    an arena writes plus results.json's ``sprt`` block.

    ``arena`` carries the bots for the executor (a cluster ships them). Ctrl-C (``KeyboardInterrupt``) stops
    the workers and returns with ``complete`` false, every finished game stored; ``stop_after`` does the same
    after that many new games (tests). At most ``lead`` finished games wait for their pair to be counted
    (default ``MIN_LEAD``, or ``LEAD_PER_JOB`` per job). ``live``: the live page's state, given every game.
    """
    jobs = resolve_workers(jobs).count  # the one decision (run.workers); outputs say this number
    order = _InOrder(settings, _collected(settings))

    def pairs() -> Iterator[GameJob]:
        cap = settings.max_pairs
        for k in count(order.next):
            if cap is not None and k >= cap:
                return
            for job in twin_pair(settings, k).jobs:
                if job.game_id not in order:
                    yield job

    played = play_in_order(order, pairs, lambda game_id: pair_of(game_id)[0], description(settings),
                           [settings.new, settings.base, *settings.field], display or NoDisplay(),
                           arena=arena, out=out, jobs=jobs, resume=resume, fresh=fresh,
                           executor_factory=executor_factory, pin=pin, stop_after=stop_after, lead=lead, live=live)
    stopped = order.decided or "interrupted"
    complete = played.complete and stopped != "interrupted"
    counted = order.collected
    run = CompareRun(settings, order.counter, complete, stopped, played.played_now, played.wall_s, counted,
                     played.out_dir, never_started=played.never_started)
    if played.out_dir is not None:
        if complete:
            _keep_only(played.out_dir, played.out_dir, order.next)
        run.doc = results_doc(settings, order.counter, counted, stopped, complete)
        # The bots' time over the games kept: the pairs counted, or (interrupted) every game finished.
        write_reports(played.out_dir, run.doc, timing(run.doc.standings, counted if complete else order,
                                                      wall_s=played.wall_s, played_now=played.played_now, jobs=jobs))
    return run


class RunDisplay(Protocol):
    """What every comparison's display does (its ``update`` takes what its counting counts)."""

    def note(self, text: str) -> None: ...
    def stop(self) -> None: ...


D_contra = TypeVar("D_contra", bound=RunDisplay, contravariant=True)


class Counting(Protocol[D_contra]):
    """Games finished in any order, counted in planned order (one candidate's pairs, or a family's)."""

    finished: int
    collected: Collected

    def offer(self, line: GameLine) -> None: ...
    def __contains__(self, game_id: str) -> bool:
        """Whether a game not yet counted has finished."""
    def advance(self, display: D_contra) -> bool:
        """Count what can be counted, in order; True once the run is decided."""
    def resumed(self, line: GameLine) -> None:
        """A game read back by ``--resume`` (counted silently)."""
    def show(self, display: D_contra) -> None:
        """Draw the count once (after resuming)."""


@dataclass(frozen=True)
class PairsPlayed:
    """How a run of pairs went: whether it ran to its end, the games played now, its wall time, the bots that
    never started (with their own words), and its output folder."""

    complete: bool
    played_now: int
    wall_s: float
    never_started: list[NeverStarted]
    out_dir: str | None


def play_in_order(order: Counting[D_contra], pairs: Callable[[], Iterator[GameJob]], deal_of: Callable[[str], int],
                  described: CompareDescriptionJson | CandidatesDescriptionJson, specs: list[BotSpec],
                  display: D_contra, *, arena: Arena,
                  out: str | None, jobs: int, resume: bool, fresh: bool, executor_factory: ExecutorFactory,
                  pin: bool | None, stop_after: int | None, lead: int | None,
                  live: LiveState | None = None) -> PairsPlayed:
    """The run shared by ``compare`` and ``compare --candidate``: the output folder (``described`` in arena.json,
    ``--resume`` reading the games back into ``order``), the jobs of ``pairs`` on one run loop, each result stored
    and counted as it ends, until ``order`` is decided, Ctrl-C or ``stop_after`` new games; then the bots that
    never started. The bots' stderr is kept under ``out``, else in a scratch folder while the run lasts (a bot
    that never starts is shown with its own words either way). ``live``: the live page's state, given every game."""
    out_dir = os.path.abspath(out) if out else None
    store: GameStore | None = None
    if out_dir is not None:
        store = GameStore(out_dir)
        store.prepare(resume=resume, fresh=fresh)
        os.makedirs(ResultsDir(out_dir).logs, exist_ok=True)
        store.start(described, keep=order.resumed)  # counted as it is read: the file is never held whole
        if order.finished:
            display.note(f"resuming: {order.finished} games already played")
            order.show(display)
    played_now = 0
    t0 = time.monotonic()

    def on_result(job: GameJob, result: GameResult) -> bool:
        nonlocal played_now
        line = GameLine(result, Slot(STAGE, None, None, deal_of(job.game_id)))
        if store is not None:
            store.append(line)
        order.offer(line)
        played_now += 1
        if live is not None:
            live.game(line)
        if order.advance(display):
            return True
        if stop_after is not None and played_now >= stop_after:
            raise KeyboardInterrupt
        return False

    scratch = tempfile.TemporaryDirectory(prefix="lastcard-compare-") if out_dir is None else None
    log_dir = scratch.name if scratch is not None else ResultsDir(cast(str, out_dir)).logs

    def make() -> Executor:  # the run's one record file: every game with --records, else games with a fault
        return executor_factory(arena, jobs=jobs, stderr_dir=log_dir, records_dir=out_dir, pin=pin)

    complete = True
    try:
        follow = following(live.now.pick) if live is not None else None  # the live page's now-playing view
        with RunLoop(make, on_start=warm_up, follow=follow) as loop:
            try:
                if not order.advance(display):  # a resumed run may be decided already
                    complete = loop.play_jobs(pairs(), on_result, lead=lead or max(MIN_LEAD, LEAD_PER_JOB * jobs))
            finally:
                if store is not None:
                    store.close()
                display.stop()
            loop.close()
        never = never_started(order.collected, specs, log_dir)
    finally:
        if scratch is not None:
            scratch.cleanup()
    if scratch is not None:  # the logs went with the scratch folder: name no path that is gone
        never = [replace(n, log=None) for n in never]
    return PairsPlayed(complete, played_now, time.monotonic() - t0, never, out_dir)


def _collected(settings: CompareSettings) -> Collected:
    """The collector of the counted games (sums, placements; sandbox levels, clocks, start-up failures)."""
    return Collected([s.name for s in (settings.new, settings.base, *settings.field)])


class _Counted:
    """The ids of the games of the first ``pairs`` pairs, as a container (no set of every id)."""

    def __init__(self, pairs: int) -> None:
        self.pairs = pairs

    def __contains__(self, game_id: object) -> bool:
        try:
            return isinstance(game_id, str) and pair_of(game_id)[0] < self.pairs
        except ValueError:
            return False


def _keep_only(out_dir: str, records_dir: str | None, pairs: int) -> None:
    """games.jsonl (and records) of the first ``pairs`` pairs only, in planned order: games other workers finished
    past the deciding pair are dropped, so the directory is what a serial run leaves. Read and written a line at
    a time (an offset a game in memory)."""
    log = ResultsDir(out_dir).games_log
    offsets = array("q", [-1]) * (2 * pairs)
    for game, at in log.ids():
        if is_pair_game(game):
            k, twin = pair_of(game)
            if k < pairs:
                offsets[2 * k + (twin == "b")] = at
    log.keep_only(offset for offset in offsets if offset >= 0)
    if records_dir is not None:  # also the records of games abandoned in play, never reported back
        keep_only(records_dir, _Counted(pairs))


def sprt_block(settings: CompareSettings, counter: Sprt | PairTally, stopped: str) -> SprtBlockJson:
    """results.json's ``sprt`` block: the test's settings, counts, estimates and LLR trace (nulls without a test)."""
    new, base, field, fillers = settings.new.name, settings.base.name, [s.name for s in settings.field], \
        list(settings.fillers)
    if isinstance(counter, Sprt):
        return {"new": new, "base": base, "field": field, "fillers": fillers, "stopped": stopped, **counter.to_json()}
    return {"new": new, "base": base, "field": field, "fillers": fillers, "stopped": stopped, "elo0": None,
            "elo1": None, "alpha": None, "beta": None, "model": None, "lower": None, "upper": None, "llr": None,
            "result": None, **counter.to_json(), "llr_trace": []}


def results_doc(settings: CompareSettings, counter: Sprt | PairTally, games: Collected, stopped: str,
                complete: bool) -> ResultsDoc:
    """results.json of a comparison: the arena's format (standings, head-to-head over the counted games) with
    the table and the ``sprt`` block."""
    specs = [settings.new, settings.base, *settings.field]
    names = [s.name for s in specs]
    # The collector's sums and placements pass for the games (as an arena's do).
    standings = standings_for(cast(Any, games), names, bootstrap=BOOTSTRAP, seed=settings.seed, rank_by="rating",
                              rule=order_rule([], "rating", complete=complete), complete=complete,
                              rulesets=[settings.rules])
    return ResultsDoc(kind="compare", name=f"{settings.new.name} vs {settings.base.name}", complete=complete,
                      seed=settings.seed, games=len(games), policy=settings.policy.to_json(), rank_by="rating",
                      standings=standings, head_to_head=games.head_to_head(standings.bots),
                      rating=rating_info(BOOTSTRAP, settings.seed), bots=tuple(s.to_json() for s in specs),
                      sandbox_levels=games.sandbox_levels(), clock_levels=games.clock_levels(),
                      table={"ruleset": settings.rules.house, "options": dict(settings.rules.options),
                             "seats": settings.seats},
                      blocks={"sprt": sprt_block(settings, counter, stopped)})
