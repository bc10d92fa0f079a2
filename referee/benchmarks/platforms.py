"""A submission's grade in the formats course platforms read: Gradescope's and PrairieLearn's results.json, JUnit
XML for CI, and lastcard's own JSON (``protocol/schemas/grade.schema.json``).

- **Gradescope** (its autograder specification, "Output format"): ``score`` (it overrides the tests' total),
  ``execution_time``, ``output`` with ``output_format``, ``tests[]`` (``name``, ``score``, ``max_score``,
  ``status`` passed or failed, ``output``, ``visibility``) and ``leaderboard[]`` of ``{name, value, order}``.
- **PrairieLearn** (its external grading docs, "Grading results"): ``gradable``, ``score`` in [0, 1], ``message``,
  ``output`` and ``tests[]`` (``name``, ``description``, ``points``, ``max_points``, ``message``, ``output``); a
  submission that cannot be run is ``gradable: false`` with ``format_errors``.
"""

from __future__ import annotations

import json
from typing import Any
from xml.etree import ElementTree

from referee.benchmarks.submission import SubmissionGrade, TestItem

FORMATS = ("gradescope", "prairielearn", "junit", "json")
#: PrairieLearn's limit on results.json (its docs: 1 MB); a test's output is cut to keep well inside it.
OUTPUT_LIMIT = 20_000


def render(grade: SubmissionGrade, fmt: str) -> str:
    """The grade as ``fmt`` (one of ``FORMATS``), as text ending in a newline."""
    if fmt == "junit":
        return junit(grade)
    data = {"gradescope": gradescope, "prairielearn": prairielearn, "json": own_json}[fmt](grade)
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _cut(text: str) -> str:
    return text if len(text) <= OUTPUT_LIMIT else text[:OUTPUT_LIMIT] + f"\n... ({len(text):,} characters in all)"


def _number(value: float) -> float | int:
    """A whole number as an int (``60``, not ``60.0``), else rounded to 4 places."""
    return int(value) if float(value).is_integer() else round(value, 4)


def gradescope(grade: SubmissionGrade) -> dict[str, Any]:
    """Gradescope's results.json."""
    tests = [{"name": t.name, "score": _number(t.score), "max_score": _number(t.max_score),
              "status": "passed" if t.passed else "failed", "output": _cut(t.output), "visibility": "visible"}
             for t in grade.tests]
    leaderboard: list[dict[str, Any]] = [{"name": "Points", "value": _number(grade.score), "order": "desc"}]
    if grade.rating is not None:
        leaderboard.insert(0, {"name": "Rating", "value": grade.rating, "order": "desc"})
    return {"score": _number(grade.score), "execution_time": round(grade.seconds), "output": grade.summary(),
            "output_format": "text", "visibility": "visible", "stdout_visibility": "hidden", "tests": tests,
            "leaderboard": leaderboard}


def prairielearn(grade: SubmissionGrade) -> dict[str, Any]:
    """PrairieLearn's results.json (``score`` a fraction of the points)."""
    if not grade.gradable:
        return {"gradable": False, "format_errors": list(grade.problems), "message": grade.summary()}
    fraction = 0.0 if grade.max_score <= 0 else min(1.0, max(0.0, grade.score / grade.max_score))
    tests = [{"name": t.name, "description": t.description, "points": _number(t.score),
              "max_points": _number(t.max_score), "message": "passed" if t.passed else "failed",
              "output": _cut(t.output)} for t in grade.tests]
    return {"gradable": True, "score": round(fraction, 6), "message": grade.summary(),
            "output": grade.summary(), "tests": tests}


def own_json(grade: SubmissionGrade) -> dict[str, Any]:
    """lastcard's grade document (``protocol/schemas/grade.schema.json``)."""
    outcome = grade.outcome
    return {"format": "lastcard-grade", "version": 1, "student": grade.student, "gradable": grade.gradable,
            "score": _number(grade.score), "max_score": _number(grade.max_score), "ok": grade.ok,
            "certain": not grade.flag, "flag": grade.flag, "problems": list(grade.problems), "rating": grade.rating,
            "tests": [_test(t) for t in grade.tests],
            "benchmarks": None if outcome is None else [
                {"benchmark": t.benchmark, "bot": t.bot, "verdict": t.verdict, "games": t.games, "llr": t.llr,
                 "lower": t.lower, "upper": t.upper, "elo": t.elo, "elo_low": t.elo_low, "elo_high": t.elo_high,
                 "llr_trace": list(t.llr_trace)} for t in outcome.tests],
            "work": grade.work}


def _test(t: TestItem) -> dict[str, Any]:
    return {"name": t.name, "score": _number(t.score), "max_score": _number(t.max_score), "passed": t.passed,
            "output": _cut(t.output)}


def junit(grade: SubmissionGrade) -> str:
    """JUnit XML: one test suite, a test case per test, a failure for each failed one."""
    failed = [t for t in grade.tests if not t.passed]
    suite = ElementTree.Element("testsuite", name=f"lastcard grade: {grade.student}", tests=str(len(grade.tests)),
                                failures=str(len(failed)), errors="0", time=f"{grade.seconds:.3f}")
    props = ElementTree.SubElement(suite, "properties")
    for key, value in (("score", grade.score), ("max_score", grade.max_score)):
        ElementTree.SubElement(props, "property", name=key, value=str(_number(value)))
    for t in grade.tests:
        case = ElementTree.SubElement(suite, "testcase", classname=f"lastcard.grade.{grade.student}", name=t.name)
        out = ElementTree.SubElement(case, "system-out")
        out.text = f"score {_number(t.score)} of {_number(t.max_score)}\n{_cut(t.output)}"
        if not t.passed:
            failure = ElementTree.SubElement(case, "failure", message=f"{t.name}: {_number(t.score)} of "
                                                                      f"{_number(t.max_score)}", type="grade")
            failure.text = _cut(t.output)
    root = ElementTree.Element("testsuites")
    root.append(suite)
    return ElementTree.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
