"""One student's ladder of band tests, counted pair by pair in planned order.

The student is tested against the weakest benchmark first. When the test accepts H1 (stronger) the next band's
test starts from its pair 0; when it accepts H0 (not stronger) the student is done (a student who loses to
``easy`` never plays ``hard``); when the student's pairs reach the budget, the test running is undecided and the
student done. Pair ``k`` of a band is counted only once pairs ``0 .. k-1`` of it are, so the verdict falls at the
same pair whatever order the games finished in (``--jobs``, a cluster, ``--resume``). The API::

    tests = StudentTests(plan, student_spec)
    while (nxt := tests.next_pair()) is not None:        # (band, k): the pair to count next
        tests.add(band, k, line_a, line_b)               # the twins' games, in any order they finished
    tests.outcome()                                      # grading.bands.BenchmarkOutcome
"""

from __future__ import annotations

from referee.benchmarks.plan import BenchmarkPlan
from referee.bots.spec import BotSpec
from referee.compare.sprt import Sprt
from referee.grading.bands import BandTest, BenchmarkOutcome
from referee.store.results import GameLine


class StudentTests:
    """A student's tests: the band being tested, one ``Sprt`` per band started, the pairs counted."""

    def __init__(self, plan: BenchmarkPlan, student: BotSpec) -> None:
        self.plan = plan
        self.student = student
        self.band = 0
        self.tests: list[Sprt] = [Sprt(plan.sprt)]
        self.faults: list[int] = [0]
        self.pairs = 0
        """Pairs counted over every band."""
        self.done = not plan.bands or plan.max_pairs < 1

    @property
    def counted(self) -> int:
        """Pairs counted in the band being tested (its next pair's index)."""
        return self.tests[self.band].pairs

    def next_pair(self) -> tuple[int, int] | None:
        """The (band, pair) to count next, or None when the student is done."""
        return None if self.done else (self.band, self.counted)

    def room(self) -> int:
        """Pairs the band being tested may still count (within the budget)."""
        return 0 if self.done else self.plan.max_pairs - self.pairs

    def add(self, band: int, k: int, a: GameLine, b: GameLine) -> None:
        """Count the band's pair ``k`` from its twins (it must be the next in order)."""
        if self.next_pair() != (band, k):
            raise ValueError(f"{self.student.name}: pair {k + 1} of band {band + 1} is not the next to count "
                             f"(that is {self.next_pair()})")
        pair = self.plan.pair(self.student, band, k)
        verdict = self.tests[band].add_pair(*pair.scores(a.placements, b.placements))
        name = a.seating[pair.new_seat]  # the student's name at the table (compare tells apart a namesake)
        self.faults[band] += _faults_of(name, a) + _faults_of(name, b)
        self.pairs += 1
        if verdict == "H1" and band + 1 < len(self.plan.bands) and self.pairs < self.plan.max_pairs:
            self.band += 1
            self.tests.append(Sprt(self.plan.sprt))
            self.faults.append(0)
        elif verdict is not None or self.pairs >= self.plan.max_pairs:
            self.done = True

    def plays(self, band: int, k: int) -> bool:
        """Whether the band's pair ``k`` is counted, or may still be."""
        if band < self.band:
            return k < self.tests[band].pairs
        if band > self.band or self.done:
            return band == self.band and k < self.counted
        return k < self.counted + self.room()

    def outcome(self, complete: bool = True) -> BenchmarkOutcome:
        """The tests as far as they went (``complete`` false: the run stopped before the student was done)."""
        tests = []
        for i, sprt in enumerate(self.tests):
            if sprt.pairs == 0 and i == len(self.tests) - 1 and i > 0 and not self.done:
                continue  # a band just started: nothing counted yet
            est = sprt.estimates()
            band = self.plan.grading.bands[i]
            tests.append(BandTest(self.plan.bands[i].name, band.bot, band.points, sprt.result, sprt.games, sprt.llr,
                                  self.plan.sprt.lower, self.plan.sprt.upper, est.elo, est.elo_low, est.elo_high,
                                  tuple(round(x, 6) for x in sprt.llr_trace), self.faults[i]))
        return BenchmarkOutcome(self.student.name, tuple(tests), complete and self.done)


def _faults_of(name: str, line: GameLine) -> int:
    """The faults of the bot called ``name`` in one game."""
    seating = line.seating
    return sum(1 for f in line.result.faults
               if (f.bot if f.bot is not None else (seating[f.seat] if f.seat is not None else None)) == name)
