"""The one call on a daemon thread behind the work beside the games (builds, probe, checks)."""

from __future__ import annotations

import threading

import pytest

from referee.run.background import Background


def test_the_result_and_the_state_as_the_call_runs() -> None:
    gate = threading.Event()
    job: Background[int] = Background("t-ok")
    assert not job.started and not job.done
    job.start(lambda: gate.wait() and 42)
    assert job.started and not job.done  # still waiting on the gate
    gate.set()
    assert job.result() == 42 and job.done


def test_the_calls_exception_is_raised_where_the_result_is_asked() -> None:
    def fail() -> int:
        raise ValueError("broken build")

    job: Background[int] = Background("t-fail")
    job.start(fail)
    with pytest.raises(ValueError, match="broken build"):
        job.result()


def test_a_second_start_runs_nothing_and_the_thread_is_a_daemon() -> None:
    calls: list[int] = []
    job: Background[None] = Background("t-once")
    job.start(lambda: calls.append(1))
    job.start(lambda: calls.append(2))
    job.result()
    assert calls == [1]
    assert job._thread is not None and job._thread.daemon and job._thread.name == "t-once"


def test_asking_before_the_start_is_an_error_that_says_so() -> None:
    with pytest.raises(RuntimeError, match="t-never: result asked before start"):
        Background[int]("t-never").result()
