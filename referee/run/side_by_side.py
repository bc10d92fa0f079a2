"""Calls run side by side on threads (builds, the probe's bot starts) that a Ctrl-C stops at once."""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any, Callable, Iterable, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: How often the waiting thread wakes to run a signal's Python handler.
WAKE_S = 0.25
#: How long the calls running at an interrupt are given to end, ``stop`` called every ``STOP_AGAIN_S``.
STOPPED_S = 5.0
STOP_AGAIN_S = 0.1


class Cancelled(Exception):
    """``map_side_by_side``'s ``cancel`` was set: the calls were stopped."""


def map_side_by_side(fn: Callable[[T], R], items: Iterable[T], at_once: int,
                     stop: Callable[[], None] | None = None, cancel: threading.Event | None = None) -> list[R]:
    """``[fn(item) for item in items]``, ``at_once`` calls at a time on threads; a call's exception is raised.

    The calling thread wakes every ``WAKE_S``: the kernel may hand a Ctrl-C to one of the pool's threads
    rather than to this one blocked in a lock, and Python runs its handler only when this thread next runs
    code (a 120 s build once went on to its end). On an interrupt, or a call's exception, the calls not
    started are cancelled and ``stop`` ends what the running ones started (builds, bot processes), so that
    they return and their threads end (``_stop_running``). Setting ``cancel`` (from another thread: the builds
    run beside an arena's games on a thread of their own) stops them the same way, and raises ``Cancelled``.
    """
    pool = ThreadPoolExecutor(max_workers=max(1, at_once))
    futures = [pool.submit(fn, item) for item in items]
    try:
        pending = set(futures)
        while pending:
            done, pending = wait(pending, timeout=WAKE_S)
            if cancel is not None and cancel.is_set():
                raise Cancelled()
            for future in done:
                future.result()
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        _stop_running([f for f in futures if not f.cancelled()], stop)  # a cancelled one never counts as done
        raise
    pool.shutdown()
    return [future.result() for future in futures]


def _stop_running(running: list[Future[Any]], stop: Callable[[], None] | None) -> None:
    """Call ``stop`` until the running calls have ended, or for ``STOPPED_S`` at most.

    Again and again, not once: a call may start its process just after a ``stop`` looked (a bot whose
    pipes are not yet its client's), and the interpreter waits for a pool's threads when it exits. Ended
    by ``stop``, the calls return at once, and what they say is said before the interrupt is.
    """
    deadline = time.monotonic() + STOPPED_S
    while True:
        if stop is not None:
            stop()
        running = [f for f in running if not f.done()]
        if not running or time.monotonic() >= deadline:
            return
        wait(running, timeout=STOP_AGAIN_S)
