"""The benchmark tests in words: a line per student for the terminal, from the same grades as grades.csv."""

from __future__ import annotations

from typing import Mapping

from referee.grading.bands import BenchmarkOutcome
from referee.grading.grade import Grade
from referee.grading.rule import Grading


def student_line(outcome: BenchmarkOutcome, grading: Grading) -> str:
    """``stronger than easy, medium; not than hard (412 games)``, or where the tests stand."""
    passed = [t.benchmark for t in outcome.tests if t.verdict == "H1"]
    text = f"stronger than {', '.join(passed)}" if passed else "stronger than none"
    last = outcome.last
    if last is not None and last.verdict == "H0":
        text += f"; not than {last.benchmark}"
    elif last is not None and last.verdict is None:
        text += (f"; undecided against {last.benchmark} (Elo {last.elo_low:+.0f} to {last.elo_high:+.0f}, "
                 f"LLR {last.llr:.2f})")
    elif outcome.passed < len(grading.bands) and not outcome.decided(len(grading.bands)):
        text += "; the budget ran out before the next band"
    return f"{text} ({outcome.games} games)"


def summary_lines(outcomes: Mapping[str, BenchmarkOutcome], grades: Mapping[str, Grade], grading: Grading,
                  left: Mapping[str, str]) -> list[str]:
    """A line per student: the points, what the tests found, and a flag when the grade is not certain."""
    names = list(outcomes) + [n for n in left if n not in outcomes]
    width = max((len(n) for n in names), default=0)
    out = []
    for name in names:
        grade = grades.get(name)
        points = grade.points if grade is not None else "-"
        if name in outcomes:
            text = student_line(outcomes[name], grading)
        else:
            text = f"left out: {left[name]}"
        flag = "  [not certain]" if grade is not None and grade.flag else ""
        out.append(f"  {name:<{width}}  {points:>6}  {text}{flag}")
    return out
