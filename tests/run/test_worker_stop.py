"""A worker stopped by SIGTERM in the middle of a game kills its bots and exits cleanly.

The worker's referee code (the table, the bot client) is compiled with mypyc on the compiled build. It used
to stop by raising an exception from the signal handler into that code, which now and then aborted the
worker (SIGABRT, "fatal: out of memory") instead of unwinding it: where the compiled code multiplied large
ints, CPython ran the handler inside an operation mypyc takes for infallible
(tests/project/test_compiled_interrupts.py).
Now the handler kills the bots and exits during a game, and raises only in the worker's interpreted wait.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import uuid
from dataclasses import replace
from pathlib import Path

import pytest

from referee.bots import sandbox
from referee.bots.logs import stderr_log
from referee.bots.sandbox import Mode, SandboxSettings
from referee.bots.spec import TimeLimits, parse_bot, unique_names
from referee.engine.rules import get_ruleset
from referee.run.executor import _worker_main
from referee.run.jobs import GameJob
from referee.run.seeds import game_seed
from tests.support.procs import groups_running, wait_until

ROOT = Path(__file__).resolve().parents[2]
MISBEHAVE = ROOT / "tests" / "support" / "fault_bots" / "misbehave.py"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                                 reason="the worker is forked, as the local executor forks it")]

STOPS = 12
SANDBOXES = [pytest.param(Mode.NONE, id="none"),
             pytest.param(Mode.STRICT, id="sandboxed",
                          marks=pytest.mark.skipif(not sandbox.machine().walls,
                                                   reason="no sandbox walls here (bubblewrap and namespaces)"))]


def _stalling_job(mode: Mode, marker: str) -> GameJob:
    """A game whose bot stops answering on its third turn, with a move limit far beyond the test."""
    limits = TimeLimits(move_ms=600_000)
    bot = parse_bot(f"staller={sys.executable} {MISBEHAVE} stall {marker}", limits)
    bot = replace(bot, sandbox=SandboxSettings(mode=mode))
    seats = tuple(unique_names([bot, parse_bot("builtin:easy", limits)]))
    return GameJob("g000001", game_seed(7, 1), get_ruleset("family", {}), seats)


@pytest.mark.parametrize("mode", SANDBOXES)
def test_a_worker_terminated_mid_game_kills_its_bot_and_exits_without_aborting(mode, tmp_path):
    marker = f"stop-{uuid.uuid4().hex}"  # this test's bot only (other runs share the machine)
    ctx = multiprocessing.get_context("fork")
    for attempt in range(3):  # the old abort came one time in three: three stops, each must be clean
        mine, theirs = ctx.Pipe()
        logs = tmp_path / f"logs{attempt}"
        logs.mkdir()
        worker = ctx.Process(target=_worker_main, args=(theirs, str(logs), None, os.getpid(), 4, None))
        worker.start()
        theirs.close()
        mine.send([_stalling_job(mode, marker).to_json()])
        log = Path(stderr_log(str(logs), "staller"))
        assert wait_until(lambda: log.exists() and "stalling" in log.read_text(), within=60), \
            "the bot never reached its stalling turn"  # noqa: B023 - called at once, in this iteration
        assert groups_running(marker.encode()), "the stalled bot should be running"
        worker.terminate()
        worker.join(30)
        assert worker.exitcode == 0, f"the worker ended with {worker.exitcode} (-6 is the old SIGABRT)"
        with pytest.raises(EOFError):  # a stopped worker sends no result: its end of the pipe just closes
            mine.recv()
        mine.close()
        assert wait_until(lambda: not groups_running(marker.encode()), within=30), "the worker left its bot running"


@pytest.mark.parametrize("mode", SANDBOXES)
def test_a_worker_terminated_between_fast_moves_exits_without_aborting(mode, tmp_path):
    """SIGTERM lands wherever the worker is: mostly in the compiled table's own work between a bot's quick
    answers, where the old handler's exception aborted the worker."""
    marker = f"stop-{uuid.uuid4().hex}"
    ctx = multiprocessing.get_context("fork")
    limits = TimeLimits(move_ms=60_000)
    bot = replace(parse_bot(f"quick={sys.executable} {MISBEHAVE} good {marker}", limits),
                  sandbox=SandboxSettings(mode=mode))
    seats = tuple(unique_names([bot, parse_bot("builtin:easy", limits), parse_bot("builtin:easy", limits)]))
    rules = get_ruleset("family", {})
    codes = []
    for attempt in range(STOPS):
        mine, theirs = ctx.Pipe()
        worker = ctx.Process(target=_worker_main, args=(theirs, None, None, os.getpid(), 4, None))
        worker.start()
        theirs.close()
        for i in range(40):
            mine.send([GameJob(f"g{attempt}{i:03d}", game_seed(attempt, i), rules, seats).to_json()])
        for _ in range(1 + attempt % 3):  # a few games played: the bot is started and answering
            assert mine.recv()[0] == "done"
        worker.terminate()
        worker.join(30)
        codes.append(worker.exitcode)
        mine.close()
    assert codes == [0] * STOPS, f"exit codes {codes} (-6 is the old SIGABRT)"
    assert wait_until(lambda: not groups_running(marker.encode()), within=30), "a worker left its bot running"


def _stop_dropped_then_wait(conn, parent: int) -> None:
    """A worker whose SIGTERM handler ran inside a finalizer: its exception was dropped, and SIGTERM is now
    ignored. Then it waits for jobs, as ``_worker_main`` does."""
    from referee.run import executor

    signal.signal(signal.SIGTERM, executor._on_term)
    executor._WAITING = True
    try:
        executor._on_term(signal.SIGTERM, None)  # the handler, as a finalizer runs it...
    except executor._Terminated:
        pass  # ... and drops what it raises ("Exception ignored in ...")
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
    executor._play(conn, None, None, parent, 4, None)


def test_a_stop_whose_exception_was_dropped_still_ends_the_worker():
    """Seen once in CI: a worker alive in its wait for jobs 30 s after SIGTERM, with SIGTERM ignored. Its wait now
    sees the stop within a second, whatever became of the handler's exception."""
    ctx = multiprocessing.get_context("fork")
    mine, theirs = ctx.Pipe()
    worker = ctx.Process(target=_stop_dropped_then_wait, args=(theirs, os.getpid()))
    worker.start()
    theirs.close()
    worker.join(20)
    alive = worker.is_alive()
    if alive:
        worker.kill()
        worker.join(5)
    mine.close()
    assert not alive and worker.exitcode == 0, f"the worker waited on (exit code {worker.exitcode})"
