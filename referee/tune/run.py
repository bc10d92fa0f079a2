"""Playing a tune on the one run loop: each iteration's twin pairs in, counted in planned order, theta stepped.

The flow: ``TuneSettings`` -> iteration ``k``'s ``Perturbation`` (a formula of the seed, ``k`` and theta) -> its pairs
(``compare.twins.twin_pair`` with the plus side as NEW and the minus side as BASE, pair numbers running on from
one iteration to the next) -> ``RunLoop.play_jobs`` -> the results taken in planned order, whatever order they
finished in -> ``spsa.step``. So the trajectory is the same whatever ``--jobs`` or a cluster did, and
``--resume`` rebuilds it from games.jsonl: a game already played is read back, not played again.
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import replace
from typing import Callable, Mapping, Protocol, Sequence

from referee.arena.model import Arena
from referee.arena.runner import never_started
from referee.compare.run import results_doc
from referee.compare.sprt import PairTally
from referee.compare.twins import CompareSettings, Versus, is_pair_game, pair_of
from referee.run.executor import Executor, ExecutorFactory, local_executor
from referee.run.jobs import GameJob
from referee.run.loop import RunLoop
from referee.run.workers import resolve_workers
from referee.standings.collect import Collected
from referee.standings.ratings import warm_up
from referee.standings.report_files import timing, write_reports
from referee.store.results import GameLine, GameResult, Slot
from referee.store.results_dir import ResultsDir
from referee.store.results_shapes import TuneBlockJson
from referee.store.run_store import GameStore
from referee.tune.convergence import trends
from referee.tune.model import STAGE, Step, TuneRun, TuneSettings
from referee.tune.outputs import write_tune
from referee.tune.spsa import iteration_rng, probe, step


class TuneDisplay(Protocol):
    """What a tune tells the person watching it."""

    def note(self, text: str) -> None: ...
    def update(self, settings: TuneSettings, steps: Sequence[Step]) -> None:
        """After every iteration."""
    def stop(self) -> None: ...


class NoTuneDisplay:
    def note(self, text: str) -> None:
        pass

    def update(self, settings: TuneSettings, steps: Sequence[Step]) -> None:
        pass

    def stop(self) -> None:
        pass


def run_tune(settings: TuneSettings, *, out: str | None = None, jobs: int = 1, resume: bool = False,
             fresh: bool = False, display: TuneDisplay | None = None,
             executor_factory: ExecutorFactory = local_executor, pin: bool | None = None,
             stop_after: int | None = None, arena: Arena | None = None) -> TuneRun:
    """Run every iteration (or until Ctrl-C); with ``out``, games.jsonl as it goes and, at the end, results.json,
    the standings, trajectory.csv and tuned.txt (``outputs.write_tune``).

    ``stop_after`` acts as a Ctrl-C after that many new games (tests of ``--resume``).
    """
    jobs = resolve_workers(jobs).count  # the one decision (run.workers); outputs say this number
    tuning = _Tuning(settings, display or NoTuneDisplay(), stop_after)
    out_dir = os.path.abspath(out) if out else None
    log_dir = tuning.open_store(out_dir, resume=resume, fresh=fresh) if out_dir else None
    arena = arena or settings.arena()
    t0 = time.monotonic()
    scratch = tempfile.TemporaryDirectory(prefix="lastcard-tune-") if log_dir is None else None
    logs = log_dir or (scratch.name if scratch else "")

    def make() -> Executor:
        return executor_factory(arena, jobs=jobs, stderr_dir=logs, records_dir=out_dir, pin=pin)

    try:
        complete = tuning.play(make)
    finally:
        if scratch is not None:
            scratch.cleanup()
    t = settings.table
    never = never_started(tuning.collected, [t.new, t.base, *t.field], logs)
    if scratch is not None:  # the logs went with the scratch folder: name no path that is gone
        never = [replace(n, log=None) for n in never]
    wall = time.monotonic() - t0
    run = TuneRun(settings, tuning.steps, complete, tuning.played_now, wall, tuning.between, tuning.collected,
                  tuning.tally, out_dir, never_started=never)
    if out_dir is not None:
        doc = results_doc(t, tuning.tally, tuning.collected, "games" if complete else "interrupted", complete)
        doc = replace(doc, kind="tune", name=f"tune {settings.bot.name}", blocks={"tune": tune_block(run)})
        write_reports(out_dir, doc, timing(doc.standings, tuning.collected, wall_s=wall,
                                           played_now=tuning.played_now, jobs=jobs))
        write_tune(out_dir, run)
    return run


class _Tuning:
    """The iterations of one run: each planned from theta, its games played (or read back), counted in planned
    order, theta stepped."""

    def __init__(self, settings: TuneSettings, display: TuneDisplay, stop_after: int | None) -> None:
        self.settings = settings
        self.display = display
        self.stop_after = stop_after
        t = settings.table
        self.collected = Collected([s.name for s in (t.new, t.base, *t.field)])
        self.tally = PairTally()
        self.store: GameStore | None = None
        self.earlier: dict[str, GameLine] = {}
        """Games read back from games.jsonl (``--resume``), until their iteration counts them."""
        self.steps: list[Step] = []
        self.played_now = 0
        self.between = 0.0
        """Seconds of the iterations outside ``play_jobs``: planning, counting, stepping (beyond the games)."""

    def open_store(self, out_dir: str, *, resume: bool, fresh: bool) -> str:
        """games.jsonl in ``out_dir``, its games read back when resuming; the bots' log folder."""
        self.store = GameStore(out_dir)
        self.store.prepare(resume=resume, fresh=fresh)
        log_dir = ResultsDir(out_dir).logs
        os.makedirs(log_dir, exist_ok=True)

        def resumed(line: GameLine) -> None:
            if is_pair_game(line.game):
                self.earlier[line.game] = line

        self.store.start(self.settings.description(), keep=resumed)
        if self.earlier:
            self.display.note(f"resuming: {len(self.earlier)} games already played")
        return log_dir

    def play(self, make: Callable[[], Executor]) -> bool:
        """Every iteration in turn on one run loop; False if Ctrl-C or a bot that cannot start stopped it."""
        complete = True
        with RunLoop(make, on_start=warm_up) as loop:
            try:
                theta = self.settings.starts
                for k in range(1, self.settings.spsa.iterations + 1):
                    theta_next = self.iteration(loop, k, theta)
                    if theta_next is None:
                        complete = False
                        break
                    theta = theta_next
            finally:
                if self.store is not None:
                    self.store.close()
                self.display.stop()
            loop.close()
            return complete and not loop.interrupted

    def iteration(self, loop: RunLoop, k: int, theta: tuple[float, ...]) -> tuple[float, ...] | None:
        """Iteration ``k``: its games played, counted in planned order, theta after it (None: stopped)."""
        settings = self.settings
        t_k, in_play = time.monotonic(), 0.0
        plan = probe(settings.params, theta, k, settings.spsa, iteration_rng(settings.seed, k))
        pairs = settings.pairs_of(plan)
        got: dict[str, GameResult] = {}
        todo = [job for pair in pairs for job in pair.jobs if job.game_id not in self.earlier]
        if todo:
            t1 = time.monotonic()
            finished = loop.play_jobs(todo, lambda job, result: self._on_result(job, result, got))
            in_play = time.monotonic() - t1
            if not finished or loop.cannot_start is not None:
                return None
        result = 0.0
        for pair in pairs:  # planned order, whatever order the games finished in
            a, b = (_line(job.game_id, got, self.earlier) for job in pair.jobs)
            scores = pair.scores(a.placements, b.placements)
            self.tally.add_pair(*scores)
            result += sum(2 * s - 1 for s in scores)
            self.collected.add(a)
            self.collected.add(b)
        theta = step(settings.params, theta, plan, result)
        self.steps.append(Step(plan, result, theta, pairs[0].index, len(pairs)))
        self.display.update(settings, self.steps)
        self.between += time.monotonic() - t_k - in_play
        return theta

    def _on_result(self, job: GameJob, result: GameResult, got: dict[str, GameResult]) -> bool:
        if self.store is not None:
            self.store.append(GameLine(result, Slot(STAGE, None, None, pair_of(job.game_id)[0])))
        got[job.game_id] = result
        self.played_now += 1
        if self.stop_after is not None and self.played_now >= self.stop_after:
            raise KeyboardInterrupt
        return False


def _line(game_id: str, got: Mapping[str, GameResult], earlier: dict[str, GameLine]) -> GameLine:
    if game_id in got:
        return GameLine(got[game_id], Slot(STAGE, None, None, pair_of(game_id)[0]))
    return earlier.pop(game_id)


#: Points of each parameter's trajectory kept in results.json (a long run is thinned to about this many).
MAX_POINTS = 500


def tune_block(run: TuneRun) -> TuneBlockJson:
    """results.json's ``tune`` block: the parameters, the schedule, start and tuned values, the thinned trajectory."""
    s = run.settings
    every = max(1, -(-len(run.steps) // MAX_POINTS))
    kept = [st for i, st in enumerate(run.steps) if i % every == 0 or i == len(run.steps) - 1]
    return {"bot": s.bot.name, "command": s.bot.command, "tuned_command": s.command(run.theta),
            "params": [{"name": p.name, "kind": p.kind, "start": p.start, "min": p.min, "max": p.max,
                        "c_end": p.c_end, "r_end": p.r_end} for p in s.params],
            "spsa": s.spsa.to_json(), "iterations_done": len(run.steps), "games": run.games,
            "independent": s.independent, "tuned": run.tuned,
            "given": {p.name: p.shown(v) for p, v in zip(s.params, run.theta)},
            "convergence": [t.to_json() for t in trends(s.params, s.starts, run.steps)],
            "trajectory": {"iteration": [0] + [st.plan.k for st in kept],
                           "values": {p.name: [p.start] + [st.theta[i] for st in kept]
                                      for i, p in enumerate(s.params)}}}


def verify_settings(settings: TuneSettings, theta: Sequence[float], games: int,
                    versus: Versus = "each-other") -> CompareSettings:
    """``--verify N``: the tuned values (NEW) against the start (BASE) on the tune's table, a fixed ``games``;
    ``versus="field"``: their results against the tune's field instead (``--vs-field``)."""
    t = settings.table
    name = settings.bot.name
    tuned = replace(settings.bot, name=f"{name}-tuned", command=settings.command(theta))
    start = replace(settings.bot, name=f"{name}-start", command=settings.command(settings.starts))
    field = [s for s in t.field if s.name not in t.fillers]
    # Another seed than the tune's: the verdict is on deals the tune never saw.
    return CompareSettings.build(tuned, start, field, seats=t.seats, seed=t.seed + 1, rules=t.rules,
                                 policy=t.policy, record=t.record, sprt=None, games=games, draw=bool(t.draw),
                                 versus=versus)
