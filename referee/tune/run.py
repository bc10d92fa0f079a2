"""Playing a tune on the one run loop: each iteration's twin pairs in, counted in planned order, theta stepped.

The flow: ``TuneSettings`` -> iteration ``k``'s ``Probe`` (a formula of the seed, ``k`` and theta) -> its pairs
(``compare.twins.twin_pair`` with the plus side as NEW and the minus side as BASE, pair numbers running on from
one iteration to the next) -> ``RunLoop.play_jobs`` -> the results taken in planned order, whatever order they
finished in -> ``spsa.step``. So the trajectory is the same whatever ``--jobs`` or a cluster did, and
``--resume`` rebuilds it from games.jsonl: a game already played is read back, not played again.
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Protocol, Sequence

from referee.arena.collect import Collected
from referee.arena.model import Arena, BotEntry
from referee.arena.report import timing, write_reports
from referee.arena.runner import NeverStarted, never_started
from referee.bots.spec import BotSpec
from referee.compare.run import results_doc
from referee.compare.sprt import PairTally
from referee.compare.twins import CompareSettings, TwinPair, pair_of, twin_pair
from referee.engine.rules import Ruleset
from referee.errors import OptionError
from referee.run.executor import Executor, ExecutorFactory, local_executor
from referee.run.jobs import GameJob, game_seed
from referee.run.loop import RunLoop
from referee.standings.ratings import warm_up
from referee.store.results import GameLine, GameResult, Slot
from referee.store.results_dir import ResultsDir
from referee.store.run_store import GameStore
from referee.table.policy import FaultPolicy
from referee.tune.params import Param, check_command, check_names, fill
from referee.tune.spsa import Probe, SpsaSettings, iteration_rng, probe, step

#: The slot's stage name in games.jsonl.
STAGE = "tune"
#: The salt of the second game's deal when twins are turned off (``independent``).
INDEPENDENT_SALT = "tune-independent"


class TuneError(OptionError, ValueError):
    """Settings that make no tune; ``option`` names the command-line option at fault."""


@dataclass(frozen=True)
class TuneSettings:
    """A tune, checked once: the bot's command with placeholders, its parameters, the schedule and the table.

    ``table`` is a comparison's settings whose NEW and BASE are the plus and minus sides (commands still with
    their placeholders); each iteration fills them in. ``independent`` plays the second game of a pair on
    another deal (no twins: for measuring what twins save).
    """

    bot: BotSpec
    params: tuple[Param, ...]
    spsa: SpsaSettings
    table: CompareSettings
    independent: bool = False

    @classmethod
    def build(cls, bot: BotSpec, params: Sequence[Param], spsa: SpsaSettings, field: Sequence[BotSpec] = (), *,
              seats: int | None = None, seed: int = 1, rules: Ruleset | None = None,
              policy: FaultPolicy = FaultPolicy(), record: bool = False, independent: bool = False) -> TuneSettings:
        check_names(params)
        if bot.builtin is not None:
            raise TuneError(f"{bot.command!r} is a built-in player: tune a bot command with placeholders, such as "
                            "\"python3 bot.py --keep {keep}\"", "param")
        check_command(bot.command, params)
        if spsa.iterations < 1:
            raise TuneError(f"{spsa.iterations} iterations: give --iterations 1 or more (or a --games budget of at "
                            f"least {2 * spsa.pairs})", "iterations")
        if spsa.pairs < 1:
            raise TuneError(f"--pairs {spsa.pairs}: an iteration plays 1 or more twin pairs", "pairs")
        plus, minus = replace(bot, name=f"{bot.name}+"), replace(bot, name=f"{bot.name}-")
        table = CompareSettings.build(plus, minus, field, seats=seats, seed=seed, rules=rules, policy=policy,
                                      record=record, sprt=None, games=2 * spsa.pairs * spsa.iterations)
        return cls(bot, tuple(params), spsa, table, independent)

    @property
    def seed(self) -> int:
        return self.table.seed

    @property
    def starts(self) -> tuple[float, ...]:
        return tuple(float(p.start) for p in self.params)

    def command(self, values: Sequence[float]) -> str:
        """The bot's command with ``values`` filled in."""
        return fill(self.bot.command, self.params, values)

    def pairs_of(self, plan: Probe) -> list[TwinPair]:
        """Iteration ``plan.k``'s twin pairs: plus as NEW, minus as BASE, on the run's pair numbers."""
        settings = replace(self.table, new=replace(self.table.new, command=self.command(plan.plus)),
                           base=replace(self.table.base, command=self.command(plan.minus)))
        first = (plan.k - 1) * self.spsa.pairs
        pairs = [twin_pair(settings, first + j) for j in range(self.spsa.pairs)]
        if self.independent:
            pairs = [replace(p, jobs=(p.jobs[0], replace(p.jobs[1], seed=game_seed(self.seed, p.index,
                                                                                    INDEPENDENT_SALT))))
                     for p in pairs]
        return pairs

    def arena(self) -> Arena:
        """The bots as an arena for the executor; the tuned bot as its template (a cluster ships its folder)."""
        specs = (self.table.new, self.table.base, *self.table.field)
        return Arena(name="tune", source="lastcard tune", base_dir=os.getcwd(), out=os.getcwd(), seed=self.seed,
                     stages=(), bots=tuple(BotEntry(s, "tune") for s in specs), policy=self.table.policy,
                     records=self.table.record)

    def description(self) -> dict[str, Any]:
        """What decides the games of a tune (arena.json; ``--resume`` refuses another)."""
        t = self.table
        return {"kind": "tune", "seed": t.seed, "ruleset": t.rules.house, "options": dict(t.rules.options),
                "seats": t.seats, "policy": t.policy.to_json(), "records": t.record, "bot": self.bot.to_json(),
                "params": [p.line() for p in self.params], "spsa": self.spsa.to_json(),
                "field": [s.to_json() for s in t.field], "independent": self.independent}


@dataclass(frozen=True)
class Step:
    """One iteration done: its probe, the plus side's wins less losses, theta after, its games."""

    plan: Probe
    result: float
    theta: tuple[float, ...]
    first_pair: int
    pairs: int


class Display(Protocol):
    """What a tune tells the person watching it."""

    def note(self, text: str) -> None: ...
    def update(self, settings: TuneSettings, steps: Sequence[Step]) -> None:
        """After every iteration."""
    def stop(self) -> None: ...


class NoDisplay:
    def note(self, text: str) -> None:
        pass

    def update(self, settings: TuneSettings, steps: Sequence[Step]) -> None:
        pass

    def stop(self) -> None:
        pass


@dataclass
class TuneRun:
    """What a tune produced: every iteration's step, whether it ran to the end, the games counted."""

    settings: TuneSettings
    steps: list[Step]
    complete: bool
    played_now: int
    wall_s: float
    loop_s: float
    """The iterations' time outside ``play_jobs``: planning, counting, stepping (the referee's cost beyond the
    games; starting the executor and the final reports are not in it)."""
    collected: Collected
    tally: PairTally
    out_dir: str | None = None
    never_started: list[NeverStarted] = field(default_factory=list)

    @property
    def theta(self) -> tuple[float, ...]:
        return self.steps[-1].theta if self.steps else self.settings.starts

    @property
    def tuned(self) -> dict[str, float]:
        return {p.name: v for p, v in zip(self.settings.params, self.theta)}

    @property
    def games(self) -> int:
        return 2 * sum(s.pairs for s in self.steps)


def run_tune(settings: TuneSettings, *, out: str | None = None, jobs: int = 1, resume: bool = False,
             fresh: bool = False, display: Display | None = None, executor_factory: ExecutorFactory = local_executor,
             pin: bool | None = None, stop_after: int | None = None, arena: Arena | None = None) -> TuneRun:
    """Run every iteration (or until Ctrl-C); with ``out``, games.jsonl as it goes and, at the end, results.json,
    the standings, trajectory.csv and tuned.txt (``outputs.write_tune``).

    ``stop_after`` acts as a Ctrl-C after that many new games (tests of ``--resume``).
    """
    from referee.tune.outputs import write_tune  # the outputs import this module's types

    display = display or NoDisplay()
    out_dir = os.path.abspath(out) if out else None
    arena = arena or settings.arena()
    t = settings.table
    collected = Collected([s.name for s in (t.new, t.base, *t.field)])
    tally = PairTally()
    store: GameStore | None = None
    log_dir = records_dir = None
    earlier: dict[str, GameLine] = {}
    if out_dir is not None:
        store = GameStore(out_dir)
        store.prepare(resume=resume, fresh=fresh)
        log_dir = ResultsDir(out_dir).logs
        os.makedirs(log_dir, exist_ok=True)
        records_dir = out_dir

        def resumed(line: GameLine) -> None:
            if _is_pair_game(line.game):
                earlier[line.game] = line

        store.start(settings.description(), keep=resumed)
        if earlier:
            display.note(f"resuming: {len(earlier)} games already played")
    scratch = tempfile.TemporaryDirectory(prefix="lastcard-tune-") if log_dir is None else None
    if scratch is not None:
        log_dir = scratch.name
    assert log_dir is not None
    played_now = 0
    steps: list[Step] = []
    t0 = time.monotonic()
    between = 0.0  # seconds of the iterations outside play_jobs: planning, counting, stepping (beyond the games)

    def make() -> Executor:
        return executor_factory(arena, jobs=jobs, stderr_dir=log_dir, records_dir=records_dir, pin=pin)

    complete = True
    try:
        with RunLoop(make, on_start=warm_up) as loop:
            try:
                theta = settings.starts
                for k in range(1, settings.spsa.iterations + 1):
                    t_k, in_play = time.monotonic(), 0.0
                    plan = probe(settings.params, theta, k, settings.spsa, iteration_rng(settings.seed, k))
                    pairs = settings.pairs_of(plan)
                    got: dict[str, GameResult] = {}

                    def on_result(job: GameJob, result: GameResult, got: dict[str, GameResult] = got) -> bool:
                        nonlocal played_now
                        if store is not None:
                            store.append(GameLine(result, Slot(STAGE, None, None, pair_of(job.game_id)[0])))
                        got[job.game_id] = result
                        played_now += 1
                        if stop_after is not None and played_now >= stop_after:
                            raise KeyboardInterrupt
                        return False

                    todo = [job for pair in pairs for job in pair.jobs if job.game_id not in earlier]
                    if todo:
                        t1 = time.monotonic()
                        finished = loop.play_jobs(todo, on_result)
                        in_play = time.monotonic() - t1
                        if not finished or loop.cannot_start is not None:
                            complete = False
                            break
                    result = 0.0
                    for pair in pairs:  # planned order, whatever order the games finished in
                        a, b = (_line(job.game_id, got, earlier) for job in pair.jobs)
                        scores = pair.scores(a.placements, b.placements)
                        tally.add_pair(*scores)
                        result += sum(2 * s - 1 for s in scores)
                        collected.add(a)
                        collected.add(b)
                    theta = step(settings.params, theta, plan, result)
                    steps.append(Step(plan, result, theta, pairs[0].index, len(pairs)))
                    display.update(settings, steps)
                    between += time.monotonic() - t_k - in_play
            finally:
                if store is not None:
                    store.close()
                display.stop()
            loop.close()
            if loop.interrupted:
                complete = False
    finally:
        if scratch is not None:
            scratch.cleanup()
    never = never_started(collected, [t.new, t.base, *t.field], log_dir)
    if scratch is not None:
        never = [replace(n, log=None) for n in never]
    wall = time.monotonic() - t0
    run = TuneRun(settings, steps, complete, played_now, wall, between, collected, tally, out_dir,
                  never_started=never)
    if out_dir is not None:
        doc = results_doc(t, tally, collected, "games" if complete else "interrupted", complete)
        doc = replace(doc, kind="tune", name=f"tune {settings.bot.name}", blocks={"tune": tune_block(run)})
        write_reports(out_dir, doc, timing(doc.standings, collected, wall_s=wall, played_now=played_now, jobs=jobs))
        write_tune(out_dir, run)
    return run


def _line(game_id: str, got: Mapping[str, GameResult], earlier: dict[str, GameLine]) -> GameLine:
    if game_id in got:
        return GameLine(got[game_id], Slot(STAGE, None, None, pair_of(game_id)[0]))
    return earlier.pop(game_id)


def _is_pair_game(game_id: str) -> bool:
    try:
        pair_of(game_id)
    except ValueError:
        return False
    return True


#: Points of each parameter's trajectory kept in results.json (a long run is thinned to about this many).
MAX_POINTS = 500


def tune_block(run: TuneRun) -> dict[str, Any]:
    """results.json's ``tune`` block: the parameters, the schedule, start and tuned values, the thinned trajectory."""
    s = run.settings
    every = max(1, -(-len(run.steps) // MAX_POINTS))
    kept = [st for i, st in enumerate(run.steps) if i % every == 0 or i == len(run.steps) - 1]
    return {"bot": s.bot.name, "command": s.bot.command, "tuned_command": s.command(run.theta),
            "params": [{"name": p.name, "kind": p.kind, "start": p.start, "min": p.min, "max": p.max,
                        "c_end": p.c_end, "r_end": p.r_end} for p in s.params],
            "spsa": s.spsa.to_json(), "iterations_done": len(run.steps), "games": run.games,
            "independent": s.independent, "tuned": run.tuned,
            "trajectory": {"iteration": [0] + [st.plan.k for st in kept],
                           "values": {p.name: [p.start] + [st.theta[i] for st in kept]
                                      for i, p in enumerate(s.params)}}}


def verify_settings(settings: TuneSettings, theta: Sequence[float], games: int,
                    compare: Callable[..., CompareSettings] = CompareSettings.build) -> CompareSettings:
    """``--verify N``: the tuned values (NEW) against the start (BASE) on the tune's table, a fixed ``games``."""
    t = settings.table
    name = settings.bot.name
    tuned = replace(settings.bot, name=f"{name}-tuned", command=settings.command(theta))
    start = replace(settings.bot, name=f"{name}-start", command=settings.command(settings.starts))
    field = [s for s in t.field if s.name not in t.fillers]
    return compare(tuned, start, field, seats=t.seats, seed=t.seed + 1, rules=t.rules, policy=t.policy,
                   record=t.record, sprt=None, games=games)
