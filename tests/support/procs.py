"""What /proc says about processes, for the tests that check nothing is left running."""

from __future__ import annotations

import os
import time
from typing import Callable, TypeVar

T = TypeVar("T")


def _stat(pid: int | str) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name: state, ppid, pgid, ...; None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _pids() -> list[int]:
    return [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]


def alive(pid: int) -> bool:
    """Running (not gone, not a zombie)."""
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z"


def pid_alive(pid: int) -> bool:
    """Whether a process id still exists, a zombie included (signal 0 reaches it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def children(pid: int, *, live: bool = False) -> list[int]:
    """The processes whose parent is ``pid`` (``live``: leaving out zombies)."""
    out = []
    for p in _pids():
        stat = _stat(p)
        if stat is not None and int(stat[1]) == pid and not (live and stat[0] == "Z"):
            out.append(p)
    return out


def group_members(pgid: int) -> list[int]:
    """The running processes (not zombies) in process group ``pgid``."""
    out = []
    for p in _pids():
        stat = _stat(p)
        if stat is not None and int(stat[2]) == pgid and stat[0] != "Z":
            out.append(p)
    return out


def cmdline(pid: int) -> bytes:
    """The raw command line (empty if the process is gone)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read()
    except OSError:
        return b""


def descends_from(pid: int, ancestor: int) -> bool:
    """Whether ``ancestor`` is ``pid``'s parent, grandparent, ... (following the chain in /proc)."""
    for _ in range(64):
        stat = _stat(pid)
        if stat is None:
            return False
        pid = int(stat[1])
        if pid == ancestor:
            return True
        if pid <= 1:
            return False
    return False


def groups_running(marker: bytes, *, unless: bytes | None = None, under: int | None = None) -> list[int]:
    """The process groups of the processes whose command line holds ``marker`` (and not ``unless``).

    ``under``: only descendants of that process. Other test runs on a shared machine start the same
    bots, and a test must never take theirs for its own.
    """
    out = []
    for p in _pids():
        cmd = cmdline(p)
        stat = _stat(p)
        if (marker in cmd and (unless is None or unless not in cmd) and stat is not None
                and (under is None or descends_from(p, under))):
            out.append(int(stat[2]))
    return out


def wait_group_gone(pgid: int, within: float = 30.0) -> list[int]:
    """Wait up to ``within`` seconds (SIGKILL is delivered asynchronously); the members still running."""
    wait_until(lambda: not group_members(pgid), within=within, step=0.02)
    return group_members(pgid)


def wait_until(condition: Callable[[], T], within: float = 60.0, step: float = 0.05) -> T:
    """Poll ``condition`` until it returns something true or ``within`` seconds pass; its last value.

    For states another process reaches in its own time: a generous ceiling costs nothing when the
    state comes early, and a loaded machine only makes the wait longer, not the test wrong.
    """
    deadline = time.monotonic() + within
    value = condition()
    while not value and time.monotonic() < deadline:
        time.sleep(step)
        value = condition()
    return value
