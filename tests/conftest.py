"""Shared fixtures: paths, toolchain checks, and a guard that no bot process outlives a test."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.procs import children

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_bots"
PY = sys.executable


def _children() -> set[int]:
    """Process ids whose parent is this test process (bots are started directly by the referee)."""
    return set(children(os.getpid(), live=True))


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
