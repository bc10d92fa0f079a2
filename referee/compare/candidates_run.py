"""Playing several candidates against one base on the one run loop, counted in planned order (``Family``).

As ``run.py`` for one candidate: the pairs as lazy jobs, each result stored as it ends, pairs counted strictly
in planned order (round by round, candidates in the order given), so the tests stop at the same pairs whatever
``--jobs``, a cluster or ``--resume`` did. The executor is fed ahead of the count: a candidate not yet known to
be stopped gets its next rounds' games, and those a stop then makes useless (at most the lead) are not counted
and, once the run is complete, not kept: the directory is what a serial run leaves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import count
from typing import Any, Iterator, Protocol, cast

from referee.arena.model import Arena
from referee.arena.runner import NeverStarted
from referee.compare.candidates import CandidateSettings, Family, game_ids, pair_of, status_text
from referee.compare.run import BOOTSTRAP, play_in_order
from referee.run.executor import ExecutorFactory, local_executor
from referee.run.jobs import GameJob
from referee.run.workers import resolve_workers
from referee.standings.collect import Collected
from referee.standings.ranking import standings_for
from referee.standings.report_files import timing, write_reports
from referee.standings.results_doc import ResultsDoc, order_rule, rating_info
from referee.store.record_file import keep_only
from referee.store.results import GameLine
from referee.store.results_dir import ResultsDir
from referee.store.results_shapes import CandidatesBlockJson, CandidateTestJson


class FamilyView(Protocol):
    """What a candidates run tells: a note, the family after each round, the end."""

    def note(self, text: str) -> None: ...

    def update(self, family: Family) -> None: ...

    def stop(self) -> None: ...


class FamilyDisplay:
    """What a candidates run tells the person watching it (the CLI's is live; this one is silent)."""

    def note(self, text: str) -> None:
        pass

    def update(self, family: Family) -> None:
        pass

    def stop(self) -> None:
        pass


@dataclass
class CandidatesRun:
    settings: CandidateSettings
    family: Family
    complete: bool
    played_now: int
    wall_s: float
    collected: Collected
    out_dir: str | None = None
    doc: ResultsDoc | None = None
    never_started: list[NeverStarted] = field(default_factory=list)

    @property
    def stopped(self) -> str:
        return "done" if self.family.done else "interrupted"


class _FamilyInOrder:
    """The games finished in any order, counted into the family in planned order."""

    def __init__(self, settings: CandidateSettings) -> None:
        self.settings = settings
        self.family = Family(settings)
        self.collected = Collected([s.name for s in (settings.base, *settings.candidates, *settings.field)])
        self.waiting: dict[str, GameLine] = {}
        self.finished = 0
        self.bot_ms = 0.0
        self.decisions = 0

    def offer(self, line: GameLine) -> None:
        i, k, _ = pair_of(line.game)
        self.finished += 1
        self.bot_ms += sum(line.result.times.total)
        self.decisions += sum(line.result.times.decisions)
        if self.family.plays(i, k):  # else a game a stop made useless: never counted
            self.waiting[line.game] = line

    def __contains__(self, game_id: str) -> bool:
        return game_id in self.waiting

    def resumed(self, line: GameLine) -> None:
        """A game read back from games.jsonl: counted silently (the block is drawn once, after "resuming")."""
        if _is_candidate_game(line.game):
            self.offer(line)
            self.advance(FamilyDisplay())

    def show(self, display: FamilyView) -> None:
        display.update(self.family)

    def advance(self, display: FamilyView) -> bool:
        """Count every pair whose twins have finished, in order; True once the run is done."""
        family = self.family
        while (nxt := family.next_pair()) is not None:
            i, k = nxt
            id_a, id_b = game_ids(i, k)
            if id_a not in self.waiting or id_b not in self.waiting:
                return False
            a, b = self.waiting.pop(id_a), self.waiting.pop(id_b)
            before = list(family.status)
            family.add(i, *self.settings.pair(i, k).scores(a.placements, b.placements),
                       actions=(a.result.actions, b.result.actions))
            self.collected.add(a)
            self.collected.add(b)
            if family.status != before:  # some test stopped: its games read ahead are useless
                for game in [g for g in self.waiting if not family.plays(*pair_of(g)[:2])]:
                    del self.waiting[game]
            display.update(family)
        return True


def run_candidates(settings: CandidateSettings, arena: Arena, *, out: str | None = None, jobs: int = 1,
                   resume: bool = False, fresh: bool = False, display: FamilyView | None = None,
                   executor_factory: ExecutorFactory = local_executor, pin: bool | None = None,
                   stop_after: int | None = None, lead: int | None = None) -> CandidatesRun:
    """Play the candidates' pairs until every test has stopped (or the cap); with ``out``, write what an arena
    writes plus results.json's ``candidates`` block. Ctrl-C returns with ``complete`` false, every game stored;
    ``stop_after`` does the same after that many new games (tests)."""
    jobs = resolve_workers(jobs).count  # the one decision (run.workers); outputs say this number
    order = _FamilyInOrder(settings)
    family = order.family

    def pairs() -> Iterator[GameJob]:
        cap = settings.max_pairs
        start = family.round
        for k in count(start):
            if family.done or (cap is not None and k >= cap):
                return
            for i in range(len(settings.candidates)):
                if k == start and (i not in family.playing or i in family.counted):
                    continue
                if k > start and not family.plays(i, k):
                    continue
                for job in settings.jobs(i, k):
                    if job.game_id not in order:
                        yield job

    specs = [settings.base, *settings.candidates, *settings.field]
    played = play_in_order(order, pairs, lambda game_id: pair_of(game_id)[1], settings.to_json(), specs,
                           display or FamilyDisplay(), arena=arena, out=out, jobs=jobs, resume=resume, fresh=fresh,
                           executor_factory=executor_factory, pin=pin, stop_after=stop_after, lead=lead)
    complete = played.complete and family.done
    run = CandidatesRun(settings, family, complete, played.played_now, played.wall_s, order.collected, played.out_dir,
                        never_started=played.never_started)
    if played.out_dir is not None:
        if complete:
            _keep_only(played.out_dir, played.out_dir, family)
        run.doc = results_doc(settings, family, order.collected, complete)
        write_reports(played.out_dir, run.doc, timing(run.doc.standings, order.collected if complete else order,
                                                      wall_s=played.wall_s, played_now=played.played_now, jobs=jobs))
    return run


def _is_candidate_game(game_id: str) -> bool:
    try:
        pair_of(game_id)
    except ValueError:
        return False
    return True


class _CountedIds:
    """The ids of the games counted: candidate ``i``'s first ``pairs`` deals."""

    def __init__(self, family: Family) -> None:
        self.pairs = [t.pairs for t in family.tests]

    def __contains__(self, game_id: object) -> bool:
        if not isinstance(game_id, str) or not _is_candidate_game(game_id):
            return False
        i, k, _ = pair_of(game_id)
        return i < len(self.pairs) and k < self.pairs[i]


def _keep_only(out_dir: str, records_dir: str | None, family: Family) -> None:
    """games.jsonl (and records) of the pairs counted only, in planned order (deal by deal, candidates in order)."""
    counted = _CountedIds(family)
    log = ResultsDir(out_dir).games_log
    offsets: dict[tuple[int, int, str], int] = {}
    for game, at in log.ids():
        if game in counted:
            i, k, twin = pair_of(game)
            offsets[(k, i, twin)] = at
    log.keep_only(offsets[key] for key in sorted(offsets))
    if records_dir is not None:
        keep_only(records_dir, counted)


def candidates_block(settings: CandidateSettings, family: Family) -> CandidatesBlockJson:
    """results.json's ``candidates`` block: the family's settings, the winner, and each candidate's ``sprt`` block."""
    tests: list[CandidateTestJson] = []
    for i, spec in enumerate(settings.candidates):
        test = family.tests[i]
        stopped = family.status[i] if family.status[i] != "running" else "interrupted"
        tests.append({"new": spec.name, "base": settings.base.name, "field": [s.name for s in settings.field],
                      "fillers": list(settings.fillers), "stopped": stopped,
                      "status": status_text(family, i),
                      "behind": (settings.candidates[family.behind_of[i]].name if i in family.behind_of else None),
                      **test.to_json()})
    winner = family.winner
    names = [c.name for c in settings.candidates]
    return {"base": settings.base.name, "correction": "bonferroni", "alpha": float(settings.sprt.alpha),
            "beta": float(settings.sprt.beta), "games": family.games,
            "winner": None if winner is None else names[winner],
            "accepted": [names[i] for i in family.accepted], "tests": tests,
            "equals": [names[i] for i in family.equals] if len(family.equals) > 1 else [],
            "alike": [{"candidates": [names[x.a], names[x.b]], "deals": x.shared, "same": x.same,
                       "identical": x.identical} for x in family.alike.pairs()]}


def results_doc(settings: CandidateSettings, family: Family, games: Collected, complete: bool) -> ResultsDoc:
    """results.json: the arena's format over the counted games, the table, and the ``candidates`` block."""
    specs = [settings.base, *settings.candidates, *settings.field]
    names = [s.name for s in specs]
    standings = standings_for(cast(Any, games), names, bootstrap=BOOTSTRAP, seed=settings.seed, rank_by="rating",
                              rule=order_rule([], "rating", complete=complete), complete=complete,
                              rulesets=[settings.rules])
    return ResultsDoc(kind="compare", name=f"{len(settings.candidates)} candidates vs {settings.base.name}",
                      complete=complete, seed=settings.seed, games=len(games), policy=settings.policy.to_json(),
                      rank_by="rating", standings=standings, head_to_head=games.head_to_head(standings.bots),
                      rating=rating_info(BOOTSTRAP, settings.seed), bots=tuple(s.to_json() for s in specs),
                      sandbox_levels=games.sandbox_levels(), clock_levels=games.clock_levels(),
                      table={"ruleset": settings.rules.house, "options": dict(settings.rules.options),
                             "seats": settings.seats},
                      blocks={"candidates": candidates_block(settings, family)})
