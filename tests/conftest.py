"""Shared fixtures: paths, toolchain checks, a guard that no bot process outlives a test, and the fast tier's marks."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.procs import alive, children
from tests.support.tiers import COLLECTED, FAST_TIER_BUDGET, Watch, declared_slow

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_bots"
PY = sys.executable

# A shell starts a background job (`pytest ... &`, nohup) with Ctrl-C and SIGQUIT ignored, and every lastcard a test
# starts would inherit that (Python keeps an ignored SIGINT ignored): the tests of Ctrl-C would then fail or hang
# for the way the suite was started. The suite's own process takes them back.
for _sig, _handler in ((signal.SIGINT, signal.default_int_handler), (signal.SIGQUIT, signal.SIG_DFL)):
    if signal.getsignal(_sig) == signal.SIG_IGN:
        signal.signal(_sig, _handler)


def _children() -> set[int]:
    """Process ids whose parent is this test process (bots are started directly by the referee), zombies left out.

    Read where the kernel lists each thread's children: scanning all of /proc twice a test cost 2-10 ms a test on
    a busy machine, a tenth of the fast tier's time in tests/engine.
    """
    pids: set[int] = set()
    try:
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/children") as fh:
                pids.update(int(pid) for pid in fh.read().split())
    except OSError:  # a kernel without CONFIG_PROC_CHILDREN (or a thread gone meanwhile): the whole scan
        return set(children(os.getpid(), live=True))
    return {pid for pid in pids if alive(pid)}


@pytest.fixture(autouse=True, scope="session")
def build_cache_of_the_run(tmp_path_factory):
    """Builds are cached (referee/builds/cache.py): the tests' builds go to a cache of this run, never the
    user's, and start empty (a test of the cache itself gives its own); so do the folders made of platforms'
    downloads (referee/builds/arrivals.py)."""
    old = {name: os.environ.get(name) for name in ("LASTCARD_BUILD_CACHE", "LASTCARD_UNPACK_DIR")}
    os.environ["LASTCARD_BUILD_CACHE"] = str(tmp_path_factory.mktemp("build-cache"))
    os.environ["LASTCARD_UNPACK_DIR"] = str(tmp_path_factory.mktemp("unpacked-downloads"))  # builds/arrivals.py
    yield
    for name, value in old.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture(autouse=True)
def no_process_left_behind():
    """Every test must end with no bot process of ours still running."""
    before = _children()
    yield
    from referee.bots.reaper import reaper_pid

    left = _children() - before - {reaper_pid()}  # the watchdog lives as long as this process
    assert not left, f"bot processes left behind: {sorted(left)}"


def need(tool: str) -> str:
    """The tool's path, or skip the test saying which toolchain is missing."""
    path = shutil.which(tool)
    if path is None:
        pytest.skip(f"{tool} is not installed: install it (see .ci/run) to run this test")
    return path


_BUILT: dict[str, str] = {}


def c_bot(name: str = "bot") -> str:
    """Compile a C sample bot once per session into a temporary folder; its path."""
    if name not in _BUILT:
        need("gcc")
        out = Path(os.environ.get("PYTEST_TMP", "/tmp")) / f"lastcard-test-{os.getpid()}-{name}"
        subprocess.run(["gcc", "-O2", "-std=c99", "-o", str(out), str(SAMPLES / "c" / f"{name}.c")], check=True)
        _BUILT[name] = str(out)
    return _BUILT[name]


def sample_commands() -> dict[str, tuple[str | None, str]]:
    """Every sample bot: the toolchain it needs and the command that runs it."""
    return {
        "python-random": (None, f"{PY} {SAMPLES}/python/random_bot.py"),
        "python-strong": (None, f"{PY} {SAMPLES}/python/strong_bot.py"),
        "js": ("node", f"node {SAMPLES}/js/bot.js"),
        "c": ("gcc", "@c"),
        "java": ("java", f"java {SAMPLES}/java/Bot.java"),
    }


def resolve_sample(key: str) -> str:
    tool, command = sample_commands()[key]
    if tool:
        need(tool)
    return c_bot() if command == "@c" else command



# The fast tier, `pytest -m "not slow"` (README): the tests that start no process and open no network socket.
# A test that starts one is marked `slow` where it is written (`@pytest.mark.slow`, or `pytestmark =
# pytest.mark.slow` at the top of a module whose every test does); a fixture that starts one is declared
# `@starts_processes` once, and the hook below marks every test using it. The watch (tests/support/tiers.py) sees
# every process this interpreter starts, so a test that starts one without the mark fails in every run, CI's full
# suite included: the fast tier cannot quietly gain a process. tests/project/test_fast_tier.py checks that it
# keeps the unit tests, and bench/tier_bench.py measures it against its budget.

WATCH = Watch()
_PROCESS_FIXTURES: dict[object, list[str]] = {}  # a fixture's definition -> what its setup started
_SESSION_START = pytest.StashKey[tuple[float, float]]()  # wall and CPU clocks


def pytest_configure(config):
    WATCH.install()


def _fixtures(item) -> dict[str, object]:
    """The definition of each fixture the test uses (directly or through another fixture)."""
    info = getattr(item, "_fixtureinfo", None)  # a doctest has none
    return {name: defs[-1] for name, defs in info.name2fixturedefs.items() if defs} if info else {}


@pytest.hookimpl(tryfirst=True)  # before -m deselects
def pytest_collection_modifyitems(config, items):
    for item in items:
        if any(declared_slow(fixture.func) for fixture in _fixtures(item).values()):
            item.add_marker(pytest.mark.slow)
    config.stash[COLLECTED] = list(items)


@pytest.hookimpl(tryfirst=True)  # before the test's fixtures are set up
def pytest_runtest_setup(item):
    WATCH.started.clear()


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(fixturedef, request):
    before = len(WATCH.started)
    try:
        return (yield)
    finally:
        if len(WATCH.started) > before:
            _PROCESS_FIXTURES[fixturedef] = WATCH.started[before:]


@pytest.hookimpl(trylast=True)  # after the test's fixtures are torn down
def pytest_runtest_teardown(item):
    """Fail a test that is not marked slow yet started a process, or used a fixture that did (in this run)."""
    if item.get_closest_marker("slow"):
        return
    for name, fixture in _fixtures(item).items():
        if fixture in _PROCESS_FIXTURES:
            pytest.fail(f"{item.nodeid} is not marked slow but uses the fixture {name!r}, which started "
                        f"{_listed(_PROCESS_FIXTURES[fixture])}: declare the fixture @starts_processes (from "
                        "tests.support.tiers) under its @pytest.fixture, and every test using it is slow",
                        pytrace=False)
    if WATCH.started:
        pytest.fail(f"{item.nodeid} is not marked slow but started {_listed(WATCH.started)}: mark it @pytest.mark.slow "
                    "(a module whose every test does: `pytestmark = pytest.mark.slow` at its top); the fast tier, "
                    'pytest -m "not slow", starts no process', pytrace=False)


def _listed(started: list[str]) -> str:
    return ", ".join(dict.fromkeys(started))


def pytest_sessionstart(session):
    session.config.stash[_SESSION_START] = (time.monotonic(), time.process_time())


@pytest.hookimpl(trylast=True)  # after the other summaries (hypothesis's imports hypothesis)
def pytest_terminal_summary(terminalreporter, config):
    """After a run of the fast tier, its time against its budget, so that a tier grown past it says so on every run.

    Its CPU time is its own cost; its wall time counts as well when the machine is not busy (a load average below
    its cores, this run keeping one of them busy).
    """
    if "not slow" not in (config.option.markexpr or ""):
        return
    wall_start, cpu_start = config.stash[_SESSION_START]
    wall, cpu = time.monotonic() - wall_start, time.process_time() - cpu_start
    load, cores = os.getloadavg()[0], os.cpu_count() or 1
    ran = sum(len(terminalreporter.stats.get(outcome, ())) for outcome in ("passed", "failed", "skipped"))
    over = cpu > FAST_TIER_BUDGET or (wall > FAST_TIER_BUDGET and load < cores)
    line = (f"fast tier: {ran} tests in {wall:.0f} s ({cpu:.0f} s of CPU, load {load:.1f} on {cores} cores); "
            f"its budget is {FAST_TIER_BUDGET:.0f} s on 2 cores")
    if over:
        line += " -- over it: --durations=20 names the slowest (bench/README.md)"
    terminalreporter.write_line(line, yellow=over, bold=over)
