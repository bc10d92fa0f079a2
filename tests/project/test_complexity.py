"""No function in ``referee/`` above cyclomatic complexity 25 (radon's measure, as ``radon cc`` prints it).

Issue 19's cap: a function past it is split before it grows further. Skipped when radon is not installed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

radon_complexity = pytest.importorskip("radon.complexity", reason="radon is not installed (pip install -e '.[test]')")

CAP = 25
REFEREE = Path(__file__).resolve().parents[2] / "referee"


def _functions(blocks: list[Any]) -> Iterator[Any]:
    """Every function, method and nested function in radon's blocks (a class's own score is not a function's)."""
    for block in blocks:
        if hasattr(block, "methods"):  # a radon Class
            yield from _functions(block.methods)
            yield from _functions(block.inner_classes)
        else:
            yield block
            yield from _functions(block.closures)


def test_no_function_above_the_cap() -> None:
    files = sorted(REFEREE.rglob("*.py"))
    assert len(files) > 50, f"found only {len(files)} modules under {REFEREE}"
    over = sorted({f"{path.relative_to(REFEREE.parent)}:{fn.lineno} {fn.fullname} ({fn.complexity})"
            for path in files
            for fn in _functions(radon_complexity.cc_visit(path.read_text(encoding="utf-8")))
            if fn.complexity > CAP})
    assert not over, f"functions above cyclomatic complexity {CAP}: split them: " + "; ".join(over)


def test_the_measure_sees_a_complex_function() -> None:
    """The walk reaches methods and nested functions, so the cap is not passed by hiding code in them."""
    branches = "\n".join(f"            if x == {i}:\n                return {i}" for i in range(CAP + 1))
    source = f"class K:\n    def m(self, x):\n        def inner(x):\n{branches}\n        return inner(x)\n"
    scores = {fn.fullname: fn.complexity for fn in _functions(radon_complexity.cc_visit(source))}
    assert scores["inner"] > CAP, scores
