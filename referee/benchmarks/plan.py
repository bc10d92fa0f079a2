"""The benchmark plan: a ``grading: by: benchmarks`` block made into twin pairs, and checked before any game.

A student's test against band ``b`` is ``lastcard compare STUDENT BENCHMARK`` with the block's seats (copies of
the benchmark fill the other seats), the arena's ruleset, policy and seed, and the block's test: pair ``k`` is
compare's pair ``k`` (the same deal and seats), its games renamed ``STUDENT:bB:pK{a,b}``. So a student's games
depend on the student, the band and the pair only: adding, removing or changing a classmate changes none of
them, and ``lastcard compare`` with the same seed replays any test. The API::

    plan = BenchmarkPlan.of(arena)          # ArenaFileError (key and line) for a band no bot can reach
    pair = plan.pair(student_spec, band, k)  # a compare TwinPair, its jobs renamed
    parse_id("ada:b2:p000007b")              # ("ada", 1, 6, "b")
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Mapping, TypedDict

from referee.arena.model import Arena
from referee.bots.spec import BotSpec
from referee.compare.sprt import Ptnml, SprtSettings
from referee.compare.twins import CompareSettings, TwinPair, twin_pair
from referee.engine.rules import Ruleset
from referee.grading.rule import Grading
from referee.inputs.problems import ArenaFileError, Problem
from referee.store.run_store import fingerprint
from referee.table.policy import FaultPolicy

_GAME_ID = re.compile(r"(.+):b(\d+):p(\d{6,})([ab])")


class BenchmarksDescriptionJson(TypedDict):
    """What decides a benchmark run's games, in arena.json (``--resume`` refuses another)."""

    kind: str
    seed: int
    ruleset: str
    options: Mapping[str, object]
    seats: int
    policy: str
    records: bool
    bands: list[Mapping[str, object]]
    """Each benchmark's ``BotSpec.to_json``."""
    students: list[Mapping[str, object]]
    sprt: Mapping[str, object]
    budget: int


def game_id(student: str, band: int, k: int, twin: str) -> str:
    """``ada:b1:p000001a``: ``student``'s twin ``twin`` of pair ``k`` against band ``band`` (both from 0)."""
    return f"{student}:b{band + 1}:p{k + 1:06d}{twin}"


def parse_id(text: str) -> tuple[str, int, int, str] | None:
    """The student, band, pair and twin of a benchmark game id (None for another id)."""
    m = _GAME_ID.fullmatch(text)
    if not m or int(m.group(2)) < 1 or int(m.group(3)) < 1:
        return None
    return m.group(1), int(m.group(2)) - 1, int(m.group(3)) - 1, m.group(4)


@dataclass(frozen=True)
class BenchmarkPlan:
    """The bands' benchmarks, the table and the test, as one student's tests need them."""

    grading: Grading
    bands: tuple[BotSpec, ...]
    sprt: SprtSettings
    seats: int
    rules: Ruleset
    policy: FaultPolicy
    seed: int
    record: bool = False

    @classmethod
    def of(cls, arena: Arena) -> BenchmarkPlan:
        """The plan of ``arena``'s grading block; ``ArenaFileError`` when a band cannot be reached in the budget."""
        grading = arena.grading
        if grading is None or grading.by != "benchmarks":
            raise ValueError(f"{arena.source} does not grade by benchmarks")
        t = grading.test
        sprt = SprtSettings(elo0=t.elo0, elo1=t.elo1, alpha=t.alpha, beta=t.beta,
                            model="normalized" if t.model == "normalized" else "logistic")
        plan = cls(grading, arena.benchmarks, sprt, grading.seats, arena.stages[0].rules, arena.policy, arena.seed,
                   arena.records)
        problems = plan.problems()
        if problems:
            raise ArenaFileError(arena.source, problems)
        return plan

    @property
    def budget(self) -> int:
        """The most games one student plays over all its tests."""
        return self.grading.games

    @property
    def max_pairs(self) -> int:
        return self.budget // 2

    def settings(self, student: BotSpec, band: int) -> CompareSettings:
        """The student against band ``band``'s benchmark, as ``lastcard compare`` would run it."""
        bench = self.bands[band]
        return CompareSettings.build(student, bench, [bench] * (self.seats - 2), seats=self.seats, seed=self.seed,
                                     rules=self.rules, policy=self.policy, record=self.record, sprt=self.sprt)

    def pair(self, student: BotSpec, band: int, k: int) -> TwinPair:
        """Pair ``k`` of the student's test against band ``band``: compare's pair ``k``, its games renamed."""
        pair = twin_pair(self.settings(student, band), k)
        a, b = pair.jobs
        return replace(pair, jobs=(replace(a, game_id=game_id(student.name, band, k, "a")),
                                   replace(b, game_id=game_id(student.name, band, k, "b"))))

    def problems(self) -> list[Problem]:
        """A band no bot can reach within the budget, or a budget too small to decide anything."""
        grading = self.grading
        cap = self.max_pairs
        to_h1 = fewest_pairs(self.sprt, "H1", cap)
        to_h0 = fewest_pairs(self.sprt, "H0", cap)
        path, line = grading.locate("games")
        if to_h1 is None and to_h0 is None:
            least = min(p for p in (fewest_pairs(self.sprt, "H1"), fewest_pairs(self.sprt, "H0")) if p is not None)
            return [Problem(path, f"a budget of {grading.games} games decides no test: even a student who wins (or "
                                  f"loses) every game needs {2 * least} games for a verdict against one benchmark; "
                                  f"give games: {max(2 * least, 2 * len(self.bands) * least)} or more, or ease the "
                                  "test (a larger elo1, alpha or beta)", line)]
        one = to_h1 if to_h1 is not None else fewest_pairs(self.sprt, "H1")
        assert one is not None
        out = []
        for j, band in enumerate(grading.bands):
            need = (j + 1) * one
            if need > cap:
                where, at = grading.locate("bands", j)
                out.append(Problem(where, f"no bot can reach this band ({band.bot}: {band.points:g}) within the "
                                          "budget: "
                                          f"passing the {j + 1} band{'s' if j else ''} up to it takes at least "
                                          f"{2 * need} games ({one} pairs each, every pair won twice) and games is "
                                          f"{grading.games} (line {line}); give games: {2 * need} or more, or ease the "
                                          "test (a larger elo1 or alpha)", at))
                break
        return out

    def to_json(self, students: list[BotSpec]) -> BenchmarksDescriptionJson:
        """What decides the games (arena.json)."""
        return {"kind": "benchmarks", "seed": self.seed, "ruleset": self.rules.house,
                "options": dict(self.rules.options), "seats": self.seats, "policy": self.policy.to_json(),
                "records": self.record, "bands": [b.to_json() for b in self.bands],
                "students": [s.to_json() for s in students], "sprt": dict(self.sprt.to_json()),
                "budget": self.budget}


def benchmark_key(plan: BenchmarkPlan) -> str:
    """What makes two runs' benchmark games interchangeable, as a short hash: the bands, the test, the table and the
    seed (not the students, each kept apart, nor the budget: a larger one goes on from the games kept)."""
    described = dict(plan.to_json([]))
    for key in ("students", "budget", "records"):
        described.pop(key, None)
    return fingerprint(described)


def fewest_pairs(sprt: SprtSettings, verdict: str, cap: int | None = None) -> int | None:
    """The fewest pairs that reach ``verdict`` (every pair won twice for H1, lost twice for H0), or None when more
    than ``cap`` (default: ``MAX_SEARCH``) would be needed."""
    return _fewest(sprt, verdict, MAX_SEARCH if cap is None else cap)


#: The most pairs ``fewest_pairs`` looks through.
MAX_SEARCH = 1 << 20


@lru_cache(maxsize=256)
def _fewest(sprt: SprtSettings, verdict: str, cap: int) -> int | None:
    def reached(n: int) -> bool:
        counts = (0, 0, 0, 0, n) if verdict == "H1" else (n, 0, 0, 0, 0)
        return sprt.verdict(sprt.llr(Ptnml(counts))) == verdict

    if cap < 1 or not reached(cap):
        return None
    lo, hi = 1, cap  # the LLR of one-bin counts grows with the pairs: the first n that reaches the bound
    while lo < hi:
        mid = (lo + hi) // 2
        if reached(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo
