"""The fast tier, ``pytest -m "not slow"`` (README): it starts no process, and it keeps the unit tests.

tests/conftest.py keeps the marks true in one direction: a test that starts a process (or opens a network socket)
without the ``slow`` mark fails, in every run. The first test here checks the other direction, that no unit test
module leaves the tier whole (a ``pytestmark`` added to it, a fixture of its declared ``@starts_processes``), so
the tier keeps every category of issue 46: the engine, the players, the protocol, the standings, the store and
the guarded readers. The others check the watch itself. The tier's time is measured by bench/tier_bench.py,
never asserted here.
"""

from __future__ import annotations

import multiprocessing.util
import os
import pty
import socket
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT, WATCH
from tests.support.tiers import COLLECTED, FAST_TIER_BUDGET

pytest_plugins = ["pytester"]

TESTS = ROOT / "tests"
#: The folders of unit tests that the fast tier must keep (``inputs``: the guarded readers, once they have tests).
UNIT_FOLDERS = ("engine", "players", "protocol", "standings", "store", "inputs")
#: Modules of those folders whose every test needs a real run, and why; the test below keeps this list exact.
WHOLLY_SLOW = {
    "standings/test_one_standings.py": "one arena of bot processes, its standings read on every surface",
}


def test_every_unit_test_module_has_tests_in_the_fast_tier(request):
    fast: dict[str, list[bool]] = {}
    for item in request.config.stash.get(COLLECTED, []):
        path = Path(item.path)
        if path.is_relative_to(TESTS):
            fast.setdefault(path.relative_to(TESTS).as_posix(), []).append(not item.get_closest_marker("slow"))
    modules = sorted(path.relative_to(TESTS).as_posix() for folder in UNIT_FOLDERS if (TESTS / folder).is_dir()
                     for path in (TESTS / folder).rglob("test_*.py"))
    if not set(modules) <= set(fast):
        pytest.skip("this run collected only part of tests/: the whole suite, or the whole fast tier, checks this")
    assert {"engine", "players", "protocol", "standings", "store"} <= {module.split("/")[0] for module in modules}
    left_out = [module for module in modules if not any(fast[module]) and module not in WHOLLY_SLOW]
    assert left_out == [], (f"{left_out}: every test of these unit modules is marked slow, so the fast tier lost "
                            "them; mark only the tests that start a process, or name the module in WHOLLY_SLOW")
    stale = [module for module in WHOLLY_SLOW if module not in fast or any(fast[module])]
    assert stale == [], f"{stale}: no longer wholly slow (or gone): take it out of WHOLLY_SLOW"


@pytest.mark.slow
def test_the_watch_sees_each_way_a_test_starts_a_process_or_reaches_a_network(tmp_path):
    def seen(action) -> list[str]:
        WATCH.started.clear()
        action()
        return list(dict.fromkeys(WATCH.started))

    def fork() -> None:
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)

    def forkpty() -> None:
        pid, fd = pty.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
        os.close(fd)

    def spawn() -> None:  # how multiprocessing's spawn and forkserver start a child: no audit event of its own
        os.waitpid(multiprocessing.util.spawnv_passfds(b"/bin/true", [b"true"], ()), 0)

    def bind(family: socket.AddressFamily, address: object) -> None:
        with socket.socket(family) as sock:
            sock.bind(address)

    assert seen(lambda: subprocess.run(["true"], check=True)) == ["subprocess.Popen: true"]
    assert seen(lambda: os.system("true")) == ["os.system"]
    assert seen(fork) == ["os.fork"]
    assert seen(forkpty) == ["os.forkpty"]
    assert seen(spawn) == ["fork_exec: true"]
    assert seen(lambda: bind(socket.AF_INET, ("127.0.0.1", 0))) == ["socket.bind: 127.0.0.1"]
    assert seen(lambda: bind(socket.AF_UNIX, str(tmp_path / "sock"))) == []  # not a network
    assert seen(lambda: (tmp_path / "file").write_text("x")) == []


TIER = '''
import subprocess

import pytest

from tests.support.tiers import starts_processes


@pytest.fixture(scope="module")
@starts_processes
def declared():
    subprocess.run(["true"], check=True)


@pytest.fixture(scope="module")
def undeclared():
    subprocess.run(["true"], check=True)


def test_pure():
    pass


def test_starts():
    subprocess.run(["true"], check=True)


@pytest.mark.slow
def test_starts_marked():
    subprocess.run(["true"], check=True)


def test_uses_declared(declared):
    pass


def test_uses_undeclared(undeclared):
    pass


def test_uses_undeclared_too(undeclared):
    pass
'''


@pytest.mark.slow  # runs pytest in a child
def test_a_test_that_starts_a_process_unmarked_fails_and_the_fast_tier_leaves_the_marked_ones_out(pytester,
                                                                                                   monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makeini("[pytest]\nmarkers =\n    slow: starts a process\n")
    pytester.makeconftest("from tests.conftest import *  # noqa: F403  (this project's hooks)\n")
    pytester.makepyfile(test_tier=TIER)

    full = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    full.assert_outcomes(passed=6, errors=3)  # each error at its teardown, naming the fix
    full.stdout.fnmatch_lines_random([
        "*test_tier.py::test_starts is not marked slow but started subprocess.Popen: true: mark it @pytest.mark.slow*",
        "*test_tier.py::test_uses_undeclared is not marked slow but uses the fixture 'undeclared', which started "
        "subprocess.Popen: true: declare the fixture @starts_processes*",
        "*test_tier.py::test_uses_undeclared_too is not marked slow but uses the fixture 'undeclared'*",
    ])
    assert "fast tier:" not in full.stdout.str()

    fast = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-m", "not slow")
    fast.assert_outcomes(passed=4, errors=3, deselected=2)  # test_starts_marked and test_uses_declared left out
    fast.stdout.fnmatch_lines([f"fast tier: 4 tests in * s (* s of CPU, load * on * cores); its budget is "
                               f"{FAST_TIER_BUDGET:.0f} s on 2 cores"])
