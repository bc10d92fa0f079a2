"""One class per name across ``referee/``: a name that means two things (four ``Table``s once) misleads a reader.

The walk covers every class statement, nested and private ones included; a module-level alias kept for
compatibility (``botkit.Table``) is not a class statement and is not counted.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

REFEREE = Path(__file__).resolve().parents[2] / "referee"


def class_definitions(root: Path) -> dict[str, list[str]]:
    """Every class name under ``root``, with where each class of that name is defined (``path:line``)."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.ClassDef):
                found[node.name].append(f"{path.relative_to(root.parent)}:{node.lineno}")
    return found


def test_no_two_classes_share_a_name() -> None:
    found = class_definitions(REFEREE)
    assert len(found) > 100, f"found only {len(found)} classes under {REFEREE}"
    shared = {name: places for name, places in found.items() if len(places) > 1}
    assert not shared, "classes that share a name (rename each to what it is): " + "; ".join(
        f"{name} at {', '.join(places)}" for name, places in sorted(shared.items()))


def test_the_walk_sees_a_nested_duplicate(tmp_path: Path) -> None:
    package = tmp_path / "referee"
    package.mkdir()
    (package / "a.py").write_text("class Table:\n    pass\n")
    (package / "b.py").write_text("def f():\n    class Table:\n        pass\n")
    assert len(class_definitions(package)["Table"]) == 2
