"""The code checks CI runs before the tests, each clean: mypy (the types, ``--strict``), ruff (the lint rules) and
lint-imports (the packages' layers). Their configuration is in pyproject.toml; the README's test command runs them
through this file. A check whose tool is not installed is skipped with the reason (the ``test`` extra has them all).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

#: Each check: the module that must be importable, and the command (run from the top of the tree).
CHECKS = {
    "mypy": ("mypy", [sys.executable, "-m", "mypy"]),
    "ruff": ("ruff", [sys.executable, "-m", "ruff", "check", "--no-cache"]),
    "lint-imports": ("importlinter", [sys.executable, "-c",
                                      "import sys; from importlinter.cli import lint_imports_command;"
                                      " sys.exit(lint_imports_command())", "--no-cache"]),
}


@pytest.mark.parametrize("name", list(CHECKS))
def test_the_code_check_passes(name: str) -> None:
    module, command = CHECKS[name]
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[test]' installs it)")
    if name == "mypy" and importlib.util.find_spec("gymnasium") is None:
        # referee.env is checked against Gymnasium's types: without them mypy reports the missing module
        pytest.skip("mypy checks referee.env against gymnasium, which is not installed (pip install -e '.[rl]')")
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, f"{name} found problems:\n{done.stdout}{done.stderr}"
