"""Without the rl extra's packages, ``import referee.env`` says how to install them without swapping the referee's
build: the two packages themselves, not ``pip install -e '.[rl]'`` (which reinstalls the referee as pure Python)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # every test here starts a process


def test_the_missing_rl_packages_are_named_with_an_install_that_keeps_the_build():
    # None in sys.modules makes the import fail as a missing package does
    code = "import sys; sys.modules['gymnasium'] = None; import referee.env"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert res.returncode == 1
    last = res.stderr.strip().splitlines()[-1]
    assert last.startswith("ModuleNotFoundError: referee.env needs PettingZoo and Gymnasium")
    assert "pip install 'pettingzoo>=1.24' 'gymnasium>=1.0'" in last and "-e" not in last
