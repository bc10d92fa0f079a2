"""``map_side_by_side``: calls on threads, results in the items' order, stopped at once by a failure."""

from __future__ import annotations

import threading
import time

import pytest

from referee.run.side_by_side import map_side_by_side


def test_results_come_in_the_items_order_whatever_order_the_calls_end_in():
    gates = [threading.Event() for _ in range(4)]

    def call(i: int) -> int:
        if i < 3:
            gates[i + 1].wait(10)  # item i ends only after item i + 1 has started: the last ends first
        gates[i].set()
        return i * i

    gates[0].clear()
    assert map_side_by_side(call, range(4), at_once=4) == [0, 1, 4, 9]


def test_a_failing_call_stops_the_others_and_is_raised():
    stopped = threading.Event()
    started: list[int] = []

    def call(i: int) -> int:
        started.append(i)
        if i == 0:
            raise ValueError("no toolchain")
        stopped.wait(10)  # the running call waits on what ``stop`` ends (a build, a bot)
        return i

    with pytest.raises(ValueError, match="no toolchain"):
        map_side_by_side(call, range(10), at_once=2, stop=stopped.set)
    assert stopped.is_set()
    assert len(started) <= 3  # the queued calls were cancelled, not run


def test_stop_is_called_again_for_what_a_call_started_after_the_first_stop():
    """A bot whose process is not yet its client's when ``stop`` first looks is killed on a later pass."""
    stops: list[bool] = []
    started_late = threading.Event()
    ended = threading.Event()

    def stop() -> None:
        stops.append(started_late.is_set())
        if started_late.is_set():
            ended.set()

    def call(i: int) -> int:
        if i == 0:
            raise ValueError("a failed start")
        while not stops:  # what this call starts, it starts only after the first stop
            time.sleep(0.01)
        started_late.set()
        ended.wait(10)
        return i

    with pytest.raises(ValueError):
        map_side_by_side(call, range(2), at_once=2, stop=stop)
    assert ended.is_set()
    assert stops[0] is False and stops[-1] is True
