"""Several candidates against one base: ``lastcard compare BASE --candidate NEW [--candidate NEW ...]``.

Pure values and arithmetic, no I/O. Every candidate plays twin pairs against the base on the deals a single
``compare`` would play (deal ``k`` is ``game_seed(seed, k, "compare")`` with the same seats for every
candidate), each under its own GSPRT at the Bonferroni levels ``alpha / K`` and ``beta / K``: the chance that
any candidate no better than ``elo0`` is accepted is at most ``alpha``, the chance that any candidate at least
``elo1`` better is dropped at most ``beta`` (a union bound, whatever the dependence between the tests).

The pairs are played in **rounds**: round ``k`` is deal ``k`` for every candidate still running, candidates in
the order given. A candidate stops for good when its test decides (H1: accepted; H0: dropped), when it reaches
``--max-games``, or, once another has been accepted, when it **cannot catch up** with the best accepted one (its
mean pair score's 95% upper bound below that one's mean score). Stopping a sequential test early never makes
it accept a wrong hypothesis it would not have accepted: these stops keep both error bounds. Whether a
candidate plays round ``k`` depends only on the pairs of rounds before ``k``, counted in planned order: so
``--jobs``, a cluster and ``--resume`` play and count the same pairs as a serial run. The API::

    family = Family(settings)                # settings: CandidateSettings.build(...)
    for k, i in family.needed():             # the pairs of the round being counted
        family.add(i, score_a, score_b)      # in candidate order; the round ends by itself
    family.done, family.status, family.winner
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterator, Literal, Mapping, NotRequired, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from referee.bots.spec import BotSpec, parse_bot, unique_names
from referee.compare.alike import Alike
from referee.compare.gsprt import REGULARIZER
from referee.compare.sprt import Z95, Sprt, SprtSettings
from referee.compare.twins import (
    COMPACT,
    FILLER,
    CompareError,
    CompareSettings,
    TwinPair,
    TwinsDescriptionJson,
    twin_pair,
)
from referee.engine.rules import Ruleset
from referee.run.jobs import GameJob
from referee.store.results_shapes import SprtSettingsJson
from referee.table.policy import FaultPolicy

#: What a candidate's test ended with (``running`` until it does).
Status = Literal["running", "H1", "H0", "behind", "max-games"]
#: The most candidates one run takes (a table's bots are named apart; more is a gauntlet's job).
MAX_CANDIDATES = 16

_GAME_ID = re.compile(r"c(\d+)p(\d{6,})([ab])")


def game_ids(candidate: int, index: int) -> tuple[str, str]:
    """Candidate ``candidate``'s twins on deal ``index`` (both from 0): ``c1p000001a``, ``c1p000001b``."""
    return f"c{candidate + 1}p{index + 1:06d}a", f"c{candidate + 1}p{index + 1:06d}b"


def pair_of(game_id: str) -> tuple[int, int, str]:
    """The candidate, the deal and the twin of a game id (``c2p000007b`` -> ``(1, 6, "b")``)."""
    m = _GAME_ID.fullmatch(game_id)
    if not m or int(m.group(1)) < 1 or int(m.group(2)) < 1:
        raise ValueError(f"{game_id!r} is not a candidate game id such as 'c1p000001a'")
    return int(m.group(1)) - 1, int(m.group(2)) - 1, m.group(3)


def score_bounds(counts: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Per row of pentanomial counts (any leading shape), the mean pair score and its 95% upper bound.

    As ``Estimates.of``: counts with fewer than two bins used are regularized (a zero bin is 1e-3), so a
    candidate whose pairs all fell in one bin still has a finite, positive spread.
    """
    c = np.asarray(counts, dtype=float)
    spread = (c > 0).sum(axis=-1, keepdims=True) >= 2
    reg = np.where((c == 0) & ~spread, REGULARIZER, c)
    n = reg.sum(axis=-1)
    a = np.arange(5) / 4
    score = (reg @ a) / n
    var = (reg * (a - score[..., None]) ** 2).sum(axis=-1) / n
    return score, score + Z95 * np.sqrt(var / n)


def behind(counts: ArrayLike, running: ArrayLike, accepted: ArrayLike) -> NDArray[np.bool_]:
    """Which running candidates cannot catch up with the best accepted one (per run on the leading axes).

    ``counts`` is ``(..., K, 5)``, ``running`` and ``accepted`` ``(..., K)`` masks. A running candidate is
    behind when its mean pair score's 95% upper bound is below the best accepted candidate's mean score;
    with none accepted, none is behind. The same rule in the real run (one row) and in the simulations.
    """
    score, high = score_bounds(counts)
    acc = np.asarray(accepted, dtype=bool)
    best = np.where(acc, score, -np.inf).max(axis=-1, keepdims=True)
    still: NDArray[np.bool_] = np.asarray(running, dtype=bool) & acc.any(axis=-1, keepdims=True) & (high < best)
    return still


class CandidatesDescriptionJson(TwinsDescriptionJson):
    """What decides which games a candidates family plays, in arena.json."""

    base: Mapping[str, object]
    candidates: list[Mapping[str, object]]
    field: list[Mapping[str, object]]
    """Each bot's ``BotSpec.to_json``."""
    sprt: SprtSettingsJson
    max_games: int | None
    draw: NotRequired[int]


@dataclass(frozen=True)
class CandidateSettings:
    """The candidates, the base, the table, the rules, the seed, the family's error rates and the cap, checked once.

    ``sprt`` holds the family-wise ``alpha`` and ``beta``; each candidate's test runs at ``per_test`` (Bonferroni).
    ``max_games`` caps each candidate's games (as a single ``compare``), not their sum.
    """

    candidates: tuple[BotSpec, ...]
    base: BotSpec
    field: tuple[BotSpec, ...]
    seed: int
    rules: Ruleset = COMPACT
    policy: FaultPolicy = FaultPolicy()
    record: bool = False
    sprt: SprtSettings = SprtSettings()
    max_games: int | None = None
    fillers: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    draw: int = 0
    """Seats of the field per game, drawn for each deal from a larger field (0: the whole field sits)."""

    @classmethod
    def build(cls, candidates: Sequence[BotSpec], base: BotSpec, field: Sequence[BotSpec] = (), *,
              seats: int | None = None, seed: int = 1, rules: Ruleset | None = None,
              policy: FaultPolicy = FaultPolicy(), record: bool = False, sprt: SprtSettings = SprtSettings(),
              max_games: int | None = None, draw: bool = False) -> CandidateSettings:
        """Check and complete: at least one candidate, the seats and fillers, every name told apart."""
        if not candidates:
            raise CompareError("give at least one --candidate (or compare NEW BASE for one)", "candidate")
        if len(candidates) > MAX_CANDIDATES:
            raise CompareError(f"{len(candidates)} candidates: one run takes at most {MAX_CANDIDATES}; split them "
                               f"into runs of {MAX_CANDIDATES} or fewer", "candidate")
        # A single comparison's checks (seats, field, the cap), on the first candidate.
        one = CompareSettings.build(candidates[0], base, field, seats=seats, seed=seed, rules=rules, policy=policy,
                                    record=record, sprt=sprt, max_games=max_games, draw=draw)
        fill = [parse_bot(FILLER) for _ in range(len(one.fillers))]
        warnings = []
        commands = [c.command for c in candidates]
        for spec in candidates:
            if spec.command == base.command:
                warnings.append(f"candidate {spec.name} is BASE's command ({spec.command!r}): a test of the test "
                                f"(it should be dropped or stop undecided, never accepted)")
        for command in sorted({c for c in commands if commands.count(c) > 1}):
            warnings.append(f"{commands.count(command)} candidates are the same command ({command!r}): they play "
                            f"the same deals, and are named apart")
        # The base keeps its name; candidates, field and fillers are suffixed where they repeat it.
        named = unique_names([base, *candidates, *field, *fill])
        k = len(candidates)
        return cls(tuple(named[1:1 + k]), named[0], tuple(named[1 + k:]), seed, one.rules, policy, record, sprt,
                   max_games, tuple(s.name for s in named[1 + k + len(field):]), tuple(warnings), one.draw)

    @property
    def seats(self) -> int:
        return 2 + (self.draw or len(self.field))

    @property
    def max_pairs(self) -> int | None:
        return None if self.max_games is None else self.max_games // 2

    @property
    def per_test(self) -> SprtSettings:
        """Each candidate's test: ``alpha / K`` and ``beta / K`` (Bonferroni), the same Elo bounds and model."""
        k = len(self.candidates)
        return replace(self.sprt, alpha=self.sprt.alpha / k, beta=self.sprt.beta / k)

    def single(self, i: int) -> CompareSettings:
        """Candidate ``i`` against the base as a single comparison (its deals, seats and jobs; its test's levels)."""
        return CompareSettings(self.candidates[i], self.base, self.field, self.seed, self.rules, self.policy,
                               self.record, self.per_test, self.max_games, None, self.fillers, draw=self.draw)

    def pair(self, i: int, k: int) -> TwinPair:
        """Candidate ``i``'s twin pair on deal ``k``: a single comparison's pair ``k``, its games renamed."""
        pair = twin_pair(self.single(i), k)
        id_a, id_b = game_ids(i, k)
        return replace(pair, jobs=(replace(pair.jobs[0], game_id=id_a), replace(pair.jobs[1], game_id=id_b)))

    def jobs(self, i: int, k: int) -> tuple[GameJob, GameJob]:
        return self.pair(i, k).jobs

    def describe(self) -> str:
        return self.single(0).describe()

    def to_json(self) -> CandidatesDescriptionJson:
        """What decides which games the run plays (arena.json; ``--resume`` refuses another)."""
        out: CandidatesDescriptionJson = {
            "kind": "compare-candidates", "seed": self.seed, "ruleset": self.rules.house,
            "options": dict(self.rules.options), "seats": self.seats, "policy": self.policy.to_json(),
            "records": self.record, "base": self.base.to_json(), "candidates": [c.to_json() for c in self.candidates],
            "field": [s.to_json() for s in self.field], "sprt": self.sprt.to_json(), "max_games": self.max_games}
        if self.draw:  # only when used, so a folder written before it existed still resumes
            out["draw"] = self.draw
        return out


class Family:
    """The candidates' tests counted round by round in planned order, with the stops between rounds."""

    def __init__(self, settings: CandidateSettings) -> None:
        self.settings = settings
        k = len(settings.candidates)
        self.tests = [Sprt(settings.per_test) for _ in range(k)]
        self.status: list[Status] = ["running"] * k
        self.round = 0
        """The deal being counted."""
        self.playing: tuple[int, ...] = tuple(range(k))
        """The candidates that play ``round`` (decided by the rounds before it)."""
        self.counted: list[int] = []
        """Of ``playing``, those whose pair of ``round`` is counted."""
        self.behind_of: dict[int, int] = {}
        """A candidate stopped behind -> the accepted candidate it could not catch up with."""
        self.behind_by: dict[int, tuple[float, float]] = {}
        """A candidate stopped behind -> its mean pair score's 95% upper bound then, and the leader's mean score."""
        self.alike = Alike(k)
        """The candidates' games deal by deal: who played alike (``add`` with the games' actions)."""
        self.total_pairs = 0
        self._check_cap()

    @property
    def done(self) -> bool:
        return not self.playing

    def needed(self) -> Iterator[tuple[int, int]]:
        """(candidate, deal) of the pairs of this round not yet counted, in the order they count."""
        for i in self.playing[len(self.counted):]:
            yield i, self.round

    def next_pair(self) -> tuple[int, int] | None:
        """The pair to count next, or None when the run is done."""
        return next(self.needed(), None)

    def add(self, i: int, score_a: float, score_b: float, actions: tuple[str, str] | None = None) -> None:
        """Count candidate ``i``'s pair of this round (it must be the next in order); ``actions``: its twins' moves,
        for telling candidates that play alike."""
        if self.next_pair() != (i, self.round):
            raise ValueError(f"candidate {i + 1}'s pair on deal {self.round + 1} is not the next to count "
                             f"(that is {self.next_pair()})")
        if actions is not None:
            self.alike.add(i, self.round, *actions)
        verdict = self.tests[i].add_pair(score_a, score_b)
        if verdict is not None:
            self.status[i] = verdict
        self.counted.append(i)
        self.total_pairs += 1
        if len(self.counted) == len(self.playing):
            self._end_round()

    def _end_round(self) -> None:
        running = np.array([s == "running" for s in self.status])
        accepted = np.array([s == "H1" for s in self.status])
        counts = np.array([t.tally.ptnml.counts for t in self.tests], dtype=float)
        late = behind(counts, running, accepted)
        if late.any():
            score, high = score_bounds(counts)
            best = max((i for i in range(len(self.status)) if accepted[i]), key=lambda i: score[i])
            for i in np.flatnonzero(late):
                self.status[i] = "behind"
                self.behind_of[int(i)] = best
                self.behind_by[int(i)] = (float(high[i]), float(score[best]))
        self.round += 1
        self.counted = []
        self._check_cap()

    def _check_cap(self) -> None:
        cap = self.settings.max_pairs
        if cap is not None and self.round >= cap:
            self.status = ["max-games" if s == "running" else s for s in self.status]
        self.playing = tuple(i for i, s in enumerate(self.status) if s == "running")

    def plays(self, i: int, k: int) -> bool:
        """Whether candidate ``i``'s pair on deal ``k`` is, or may still be, counted."""
        if k < self.round:
            return k < self.tests[i].pairs
        if k == self.round:
            return i in self.playing
        return self.status[i] == "running"

    @property
    def accepted(self) -> list[int]:
        """The accepted candidates, the highest estimated score first (an estimate: their order is not tested)."""
        return sorted((i for i, s in enumerate(self.status) if s == "H1"),
                      key=lambda i: (-self.tests[i].estimates().score, i))

    @property
    def winner(self) -> int | None:
        """The accepted candidate with the highest estimated score; None with none accepted, or when it played alike
        with another accepted candidate (no winner between equals: ``equals``)."""
        return self.accepted[0] if self.accepted and len(self.equals) < 2 else None

    @property
    def equals(self) -> list[int]:
        """The best accepted candidate and the accepted candidates that played alike with it (one: no equal)."""
        if not self.accepted:
            return []
        best = self.accepted[0]
        return [i for i in self.alike.group_of(best) if self.status[i] == "H1"]

    @property
    def games(self) -> int:
        return 2 * self.total_pairs


def status_text(family: Family, i: int) -> str:
    """``running``, ``accepted after N games``, ``dropped after N games``, ``stopped after N games: cannot
    catch up with NAME`` or ``inconclusive after N games``."""
    status, games = family.status[i], family.tests[i].games
    names = family.settings.candidates
    if status == "H1":
        return f"accepted after {games} games (H1)"
    if status == "H0":
        return f"dropped after {games} games (H0)"
    if status == "behind":
        leader = names[family.behind_of[i]].name
        high, best = family.behind_by.get(i, (float("nan"), float("nan")))
        return (f"stopped after {games} games: cannot catch up with {leader} (its mean pair score is at most "
                f"{high:.3f} at 95%, below {leader}'s {best:.3f}: the test cannot end above it)")
    if status == "max-games":
        return f"inconclusive after {games} games"
    return f"running ({games} games)"
