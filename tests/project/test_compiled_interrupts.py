"""A Ctrl-C that lands anywhere in a game stops it with ``KeyboardInterrupt``; it never aborts the process.

On the compiled build a product with a factor of 2**30 or more is CPython's long multiplication, which runs
pending signal handlers, and mypyc takes the exception raised there for a failed allocation ("fatal: out
of memory", SIGABRT). Three such products were on a game's path (a built-in seat's seed, the relay's cache
key, the cgroup's CPU reading); the first aborted these games within a quarter of a second. On the pure
build the same games run, and show that the script does what the compiled one is asked to survive.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee.bots import sandbox

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "support" / "interrupted_games.py"
GOOD_BOT = f"{sys.executable} {ROOT / 'tests' / 'support' / 'fault_bots' / 'misbehave.py'} good"


def _interrupted(*args: str) -> int:
    proc = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, f"exit status {proc.returncode} (-6: aborted):\n{proc.stderr[-3000:]}"
    found = re.fullmatch(r"interrupted (\d+) of (\d+)\n", proc.stdout)
    assert found, proc.stdout
    return int(found[1])


def test_built_in_games_cut_every_third_of_a_millisecond_never_abort():
    assert _interrupted("3000", "0.0003") >= 300  # the timer did land in games, many times


@pytest.mark.parametrize("mode", [
    pytest.param("none", id="none"),
    pytest.param("auto", id="sandboxed", marks=pytest.mark.skipif(not sandbox.machine().walls,
                                                                  reason="no sandbox walls here")),
])
@pytest.mark.parametrize("interval", ["0.0037", "0.011"])
def test_games_with_a_bot_process_cut_at_any_moment_never_abort(mode, interval):
    assert _interrupted("300", interval, GOOD_BOT, mode) >= 30
