"""Child processes of the referee: one forked to run a call (``fork_call``), and one that ends when the referee
does, however it ends (``kill -9`` too).
"""

from __future__ import annotations

import os
import signal
from typing import Callable


def fork_call(call: Callable[[], object]) -> int:
    """Fork a child that runs ``call`` and exits at once (status 0, or 1 if it raised), never returning into the
    caller's code nor running its exit handlers; the child's pid."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            call()
            code = 0
        finally:
            os._exit(code)
    return pid


def term_when_orphaned() -> None:
    """Ask Linux for SIGTERM when the referee dies, however it dies (``kill -9`` too).

    A worker in the middle of a game may wait a whole move limit for a bot before it looks at its
    parent again; with this it stops at once and kills its bots (elsewhere the watchdog of each bot
    still kills the bots when the worker goes).
    """
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass
