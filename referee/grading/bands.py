"""A student's benchmark tests as plain data, and the grade they give under ``by: benchmarks``.

``referee.benchmarks`` plays the tests and hands each student's over as a ``BenchmarkOutcome`` (the tests as
they ended: verdicts, games, the LLR after every pair, the Elo interval against the benchmark); this module turns
one into points, a row of grades.csv and the sentences that explain it. Nothing here depends on another student.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from referee.grading.rule import Grading, points_text

#: grades.csv's columns after the id and the points, for ``by: benchmarks``.
BENCHMARK_COLUMNS = ("band", "decided", "games", "faults", "tested", "elo", "elo_low", "elo_high", "left_out")
#: The LLR trace's values shown in a report (the rest are in results.json).
TRACE_SHOWN = 60


@dataclass(frozen=True)
class BandTest:
    """One benchmark test as it ended: "is the student stronger than ``benchmark``?"."""

    benchmark: str
    """The benchmark's name (in the games)."""
    bot: str
    """The benchmark as the band gives it (``builtin:medium``)."""
    points: float
    verdict: str | None
    """``H1`` (stronger: the band is reached), ``H0`` (not stronger) or None (undecided when the test stopped)."""
    games: int
    llr: float
    lower: float
    upper: float
    elo: float
    elo_low: float
    elo_high: float
    """The student's logistic Elo against the benchmark, with its 95% interval (from the pairs)."""
    llr_trace: tuple[float, ...] = ()
    faults: int = 0
    """The student's faults in this test's games."""

    @property
    def answer(self) -> str:
        return {"H1": "yes", "H0": "no"}.get(self.verdict or "", "undecided")


@dataclass(frozen=True)
class BenchmarkOutcome:
    """A student's tests, the lowest band first, as far as they went."""

    student: str
    tests: tuple[BandTest, ...]
    complete: bool = True
    """False: the run stopped (interrupted) before the tests did."""

    @property
    def passed(self) -> int:
        """The bands reached: the tests accepted H1 in a row from the first."""
        n = 0
        for t in self.tests:
            if t.verdict != "H1":
                break
            n += 1
        return n

    @property
    def games(self) -> int:
        return sum(t.games for t in self.tests)

    @property
    def faults(self) -> int:
        return sum(t.faults for t in self.tests)

    def decided(self, bands: int) -> bool:
        """Whether the grade is certain: every band reached, or a test found the student not stronger."""
        return self.passed == bands or any(t.verdict == "H0" for t in self.tests)

    @property
    def last(self) -> BandTest | None:
        """The test the student stopped at (the one that decided the grade, or was undecided)."""
        return self.tests[-1] if self.tests else None


@dataclass(frozen=True)
class BenchmarkGrade:
    """The points, the cells of grades.csv, a flag when the grade is not certain, and the explanation."""

    points: float
    cells: tuple[str, ...]
    flag: str
    why: tuple[str, ...]
    section: tuple[str, ...]


def benchmark_grade(outcome: BenchmarkOutcome, grading: Grading) -> BenchmarkGrade:
    """The grade of one student's tests under ``grading`` (``by: benchmarks``)."""
    passed = outcome.passed
    bands = grading.bands
    raw = grading.band_points(passed)
    cost = grading.faults.cost(outcome.faults) if grading.faults else 0.0
    points = max(0.0, raw - cost)
    decided = outcome.decided(len(bands))
    band = bands[passed - 1].bot if passed else "below"
    last = outcome.last
    flag = "" if decided else _undecided(outcome, grading, band)
    cells = (band, "yes" if decided else "no", str(outcome.games), str(outcome.faults),
             last.benchmark if last else "", _elo(last.elo if last else None), _elo(last.elo_low if last else None),
             _elo(last.elo_high if last else None), "")
    why = [f"how: {grading.describe(0)}",
           f"yours: stronger than {passed} of {len(bands)} benchmark{'s' if len(bands) != 1 else ''} "
           f"({band if passed else 'none'}): {points_text(raw)}"]
    if grading.faults and outcome.faults:
        why.append(f"faults: {outcome.faults} in these games; {grading.faults.describe()}: -{points_text(cost)}")
    if flag:
        why.append(f"**not certain**: {flag}")
    return BenchmarkGrade(points, cells, flag, tuple(why), tuple(benchmark_section(outcome, grading)))


def _undecided(outcome: BenchmarkOutcome, grading: Grading, band: str) -> str:
    last = outcome.last
    if last is None:
        return "no test was played (the run stopped first): --resume finishes it"
    why = (f"the budget of {grading.games} games a student ran out" if outcome.complete
           else "the run stopped before the test did (--resume finishes it)")
    if last.verdict == "H1":
        nxt = grading.bands[len(outcome.tests)].bot if len(outcome.tests) < len(grading.bands) else "the next band"
        return (f"stronger than {last.benchmark}, but {why} before the test against {nxt} could start; graded at "
                f"{band}")
    return (f"undecided against {last.benchmark} after {last.games} games ({why}): Elo {last.elo_low:+.0f} to "
            f"{last.elo_high:+.0f} against it (95%), LLR {last.llr:.2f} between {last.lower:.2f} and {last.upper:.2f}; "
            f"graded at the band below it ({band})")


def benchmark_section(outcome: BenchmarkOutcome, grading: Grading) -> list[str]:
    """The student's report section: each test, whether and when it was decided, and its LLR trace."""
    out = ["## Benchmark tests", "",
           f"Each test asks whether your bot is stronger than a benchmark, on twin games (you and the benchmark swap "
           f"seats on the same deal) at {grading.seats} seats; it stops as soon as the evidence is enough "
           f"(H1: stronger by {grading.test.elo1:g} Elo or more; H0: not stronger than {grading.test.elo0:g}; "
           f"error rates {grading.test.alpha:g} and {grading.test.beta:g}).", "",
           "| band | benchmark | points | stronger? | games | LLR (bounds) | Elo vs it (95%) |",
           "| --- | --- | ---: | --- | ---: | --- | --- |"]
    tested = {i: t for i, t in enumerate(outcome.tests)}
    for i, band in enumerate(grading.bands):
        t = tested.get(i)
        if t is None:
            out.append(f"| {i + 1} | `{band.bot}` | {points_text(band.points)} | not tested (a band below it was not "
                       "reached) | 0 | | |")
            continue
        out.append(f"| {i + 1} | `{band.bot}` | {points_text(band.points)} | {t.answer} | {t.games} | "
                   f"{t.llr:.2f} ({t.lower:.2f}, {t.upper:.2f}) | "
                   f"{t.elo:+.0f} ({t.elo_low:+.0f} to {t.elo_high:+.0f}) |")
    for t in outcome.tests:
        how = {"H1": "decided: stronger", "H0": "decided: not stronger"}.get(t.verdict or "", "undecided")
        out += ["", f"{t.benchmark}: {how} after {t.games} games. LLR after each pair:", "",
                "    " + trace_text(t.llr_trace)]
    return out


def trace_text(trace: Sequence[float]) -> str:
    """The LLR after each pair, two decimals, the first ``TRACE_SHOWN`` and the last few when longer."""
    values = [f"{x:.2f}" for x in trace]
    if len(values) <= TRACE_SHOWN:
        return " ".join(values) or "(no pair)"
    head, tail = values[:TRACE_SHOWN - 10], values[-10:]
    return " ".join(head) + f" ... ({len(values) - TRACE_SHOWN} more) ... " + " ".join(tail)


def _elo(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"
