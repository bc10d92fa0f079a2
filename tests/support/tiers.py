"""The fast tier (``pytest -m "not slow"``): what makes a test slow, and a watch that keeps the marks true.

A test is ``slow`` when it starts a process (a bot, a compiler, a worker, the ``lastcard`` command in a child, a
browser) or opens a network socket, itself or through a fixture. ``tests/conftest.py`` marks the users of a fixture
declared with :func:`starts_processes`, and fails a test that is not marked ``slow`` yet starts a process: the watch
below sees every process this interpreter starts, through Python's audit events (PEP 578) and the one call
multiprocessing's spawn and forkserver make without one.
"""

from __future__ import annotations

import _posixsubprocess
import os
import socket
import sys
from typing import Any, Callable, TypeVar

import pytest

F = TypeVar("F", bound=Callable[..., Any])

#: The audit events raised when this interpreter starts another program (os.fork covers multiprocessing's fork
#: workers and pexpect's pty.fork -> os.forkpty; subprocess.Popen covers asyncio's and os.popen's children).
PROCESS_EVENTS = frozenset({"subprocess.Popen", "os.fork", "os.forkpty", "os.posix_spawn", "os.spawn", "os.system",
                            "os.exec", "pty.spawn"})
#: The audit events of a socket that reaches a network (a Unix socket does not).
NETWORK_EVENTS = frozenset({"socket.bind", "socket.connect"})
NETWORK_FAMILIES = (socket.AF_INET, socket.AF_INET6)


def starts_processes(fixture: F) -> F:
    """Declare that a fixture starts a process (put it under ``@pytest.fixture``): every test using it is ``slow``."""
    fixture.starts_processes = True  # type: ignore[attr-defined]
    return fixture


def declared_slow(fixture_function: Any) -> bool:
    return bool(getattr(fixture_function, "starts_processes", False))


class Watch:
    """What the running test started, seen by this interpreter's audit hook."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.started: list[str] = []  # what the current test started, as "event: program" (conftest empties it)

    def install(self) -> None:
        """Hook the audit events, and the spawn that raises none (an audit hook cannot be removed: install once)."""
        sys.addaudithook(self._audit)
        fork_exec = _posixsubprocess.fork_exec

        def watched_fork_exec(*args: Any, **kwargs: Any) -> Any:
            self._note("fork_exec", args[0] if args else None)
            return fork_exec(*args, **kwargs)

        # subprocess raises "subprocess.Popen" first; multiprocessing's spawn and forkserver call this alone.
        _posixsubprocess.fork_exec = watched_fork_exec

    def _audit(self, event: str, args: tuple[Any, ...]) -> None:
        if event in PROCESS_EVENTS:
            self._note(event, args[1] if event == "subprocess.Popen" and len(args) > 1 else None)
        elif event in NETWORK_EVENTS and getattr(args[0], "family", None) in NETWORK_FAMILIES:
            self._note(event, args[1] if len(args) > 1 else None)

    def _note(self, event: str, what: Any) -> None:
        if os.getpid() != self.pid:  # a forked child's own children: the fork itself was noted in the parent
            return
        if isinstance(what, (list, tuple)) and what:
            what = what[0]
        if isinstance(what, bytes):
            what = what.decode(errors="replace")
        words = str(what).split() if what else []
        self.started.append(f"{event}: {os.path.basename(words[0])}" if words else event)


#: The whole collection before ``-m`` deselects (tests/conftest.py), for tests/project/test_fast_tier.py.
COLLECTED = pytest.StashKey[list[pytest.Item]]()
#: The fast tier's budget in seconds on 2 cores, collection included; bench/tier_bench.py measures it.
FAST_TIER_BUDGET = 120.0
