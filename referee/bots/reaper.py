"""A watchdog that kills the bots' process groups if the referee dies without cleaning up.

The referee kills every bot's process group itself on a normal end, on Ctrl-C and on SIGTERM. A
``kill -9`` (or a crash of the interpreter) gives it no chance: a bot that ignores the end of its
input would run on. So the first bot a referee process starts also starts this small watchdog, in
its own session so that a signal to the referee's group does not reach it. The referee tells it
each bot's process group as it starts and ends. The watchdog only reads: when its input closes,
because the referee ended in any way at all, it kills the groups still listed and exits.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

_WATCHDOG = r"""# lastcard bot watchdog
import os, signal, sys
groups = set()
for line in sys.stdin:
    if line[:1] == "+":
        groups.add(int(line[1:]))
    elif line[:1] == "-":
        groups.discard(int(line[1:]))
for pgid in groups:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except OSError:
        pass
"""


class Reaper:
    """The referee's end of the watchdog: ``watch`` a process group when a bot starts, ``forget`` it when it ends."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", _WATCHDOG], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True)
        self._lock = threading.Lock()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def _say(self, line: str) -> None:
        with self._lock:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write(line.encode())
                self.proc.stdin.flush()
            except (OSError, ValueError):  # the watchdog is gone: the referee's own cleanup still runs
                pass

    def watch(self, pgid: int) -> None:
        self._say(f"+{pgid}\n")

    def forget(self, pgid: int) -> None:
        self._say(f"-{pgid}\n")


_reaper: Reaper | None = None
_owner = 0  # the process that started ``_reaper``: a forked worker needs its own
_starting = threading.Lock()  # builds start processes from several threads


def reaper() -> Reaper | None:
    """This process's watchdog, started on first use; ``None`` if it could not be started."""
    global _reaper, _owner
    if _owner != os.getpid():
        with _starting:
            if _owner != os.getpid():
                try:
                    _reaper = Reaper()
                except OSError:
                    _reaper = None
                _owner = os.getpid()
    return _reaper


#: In the watchdog's command line, so tools and tests can tell it from a bot.
WATCHDOG_MARK = "lastcard bot watchdog"


def reaper_pid() -> int | None:
    """The pid of this process's watchdog, if it has one (tests tell it apart from a bot left behind)."""
    return _reaper.pid if _reaper is not None and _owner == os.getpid() else None
