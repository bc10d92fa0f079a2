"""Calls run side by side on threads (builds, the probe's bot starts) that a Ctrl-C stops at once."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor, wait
from typing import Callable, Iterable, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: How often the waiting thread wakes to run a signal's Python handler.
WAKE_S = 0.25
#: How long the calls running at an interrupt are given to end, once ``stop`` ended what they wait on.
STOPPED_S = 5.0


def map_side_by_side(fn: Callable[[T], R], items: Iterable[T], at_once: int,
                     stop: Callable[[], None] | None = None) -> list[R]:
    """``[fn(item) for item in items]``, ``at_once`` calls at a time on threads; a call's exception is raised.

    The calling thread wakes every ``WAKE_S``: the kernel may hand a Ctrl-C to one of the pool's threads
    rather than to this one blocked in a lock, and Python runs its handler only when this thread next runs
    code (a 120 s build once went on to its end). On an interrupt, or a call's exception, the calls not
    started are cancelled and ``stop`` ends what the running ones started (builds, bot processes), so that
    they return and their threads end; they are given ``STOPPED_S`` to do so.
    """
    pool = ThreadPoolExecutor(max_workers=max(1, at_once))
    futures = [pool.submit(fn, item) for item in items]
    try:
        pending = set(futures)
        while pending:
            done, pending = wait(pending, timeout=WAKE_S)
            for future in done:
                future.result()
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        if stop is not None:
            stop()
        # Ended by ``stop``, the running calls return at once: let them finish what they say before the
        # interrupt is (bounded: one that started its process after ``stop`` looked is not waited out).
        wait([f for f in futures if not f.cancelled()], timeout=STOPPED_S)  # a cancelled one never counts as done
        raise
    pool.shutdown()
    return [future.result() for future in futures]
