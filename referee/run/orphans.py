"""A child process of the referee that ends when the referee does, however it ends (``kill -9`` too)."""

from __future__ import annotations

import signal


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
