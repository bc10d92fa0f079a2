"""One test per fault kind, with a small misbehaving bot as a real subprocess."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import time
from dataclasses import replace

import pytest

from referee.bots.pool import BotPool
from referee.bots.sandbox import Mode, SandboxSettings
from referee.bots.spec import TimeLimits, parse_bot
from referee.engine.rules import get_ruleset
from referee.table.policy import FaultPolicy
from referee.table.table import play_game, seat_for
from tests.conftest import PY, ROOT
from tests.support.procs import group_members, groups_running, wait_group_gone, wait_until

pytestmark = pytest.mark.slow

MISBEHAVE = ROOT / "tests" / "support" / "fault_bots" / "misbehave.py"
# The wall clock: these bots fault by sleeping, which a CPU clock only stops at its backstop (test_cpu_clock.py).
FAST = TimeLimits(startup_ms=3000, move_ms=400, bank_ms=0, quit_ms=500, clock="wall")


def _play(mode: str, policy: FaultPolicy = FaultPolicy(), limits: TimeLimits = FAST, games: int = 1,
          ruleset: str = "family", tmp_path=None):
    bot = parse_bot(f"{PY} {MISBEHAVE} {mode}", limits)
    other = parse_bot("builtin:medium")
    results = []
    with BotPool(stderr_dir=str(tmp_path) if tmp_path else None) as pool:
        for g in range(games):
            seats = [seat_for(bot, pool), seat_for(other, pool)]
            results.append(play_game(get_ruleset(ruleset, {"target": "round"}), seats, seed=11 + g,
                                     game_id=f"g{g}", policy=policy))
        pids = [c.transport.proc.pid for c in pool.clients.values() if c.transport is not None]
    return results, pids


@pytest.mark.parametrize("mode, kind, words", [
    ("timeout", "timeout", "no answer within 400 ms"),
    ("crash", "crash", "exit code 7"),
    ("non_json", "non_json", "stderr"),
    ("schema", "schema", "'cards' must be a non-empty list"),
    ("illegal", "illegal", "wild4"),
    ("stale_id", "stale_id", "is not the id"),
    ("missing_id", "missing_id", "has no 'id'"),
    ("line_too_long", "line_too_long", "65536 bytes"),
    ("no_ready", "startup", "startup limit"),
    ("startup_crash", "startup", "exit code 3"),
    ("bad_version", "startup", "protocol version 9 is not supported; this referee speaks 1"),
    ("startup_long_line", "startup", "line longer than 65536 bytes during startup"),
    ("startup_no_newline", "startup", "without a newline"),
    ("early", "early", "arrived before request"),
    ("orphan_stdout", "crash", "exit code 5"),
], ids=lambda v: v if isinstance(v, str) and " " not in v else None)
def test_each_fault_kind_is_recorded_and_the_game_goes_on(mode, kind, words):
    (result,), _ = _play(mode)
    assert result["faults"], f"{mode}: no fault recorded"
    fault = result["faults"][0]
    assert fault["kind"] == kind
    assert words in fault["message"] or words in (fault.get("line") or "")
    assert fault["seat"] == 0 and fault["bot"].startswith("misbehave")
    # Forfeit: the faulty seat is placed last, the game still ended normally for the other seat.
    assert result["placements"][0] == 2 and result["placements"][1] == 1
    assert result["forfeited"] == [0]
    if kind != "startup":
        assert fault["request_type"] == "turn" and isinstance(fault["request_id"], int)
        assert fault["elapsed_ms"] >= 0


def test_offending_line_is_kept_truncated():
    (result,), _ = _play("line_too_long")
    line = result["faults"][0]["line"]
    assert line.startswith("xxx") and len(line) < 400


def test_timeout_takes_about_the_move_limit():
    t0 = time.monotonic()
    (result,), _ = _play("timeout")
    assert result["faults"][0]["elapsed_ms"] >= 400
    assert time.monotonic() - t0 < 30  # the referee did not wait for the bot's 60 s sleep


def test_strikes_replace_bad_answers_with_a_draw_then_forfeit():
    (result,), _ = _play("schema", policy=FaultPolicy("strikes", 2))
    kinds = [f["kind"] for f in result["faults"]]
    assert kinds[:3] == ["schema", "schema", "schema"]
    assert result["forfeited"] == [0]  # the third strike forfeits


def test_strikes_survive_a_late_answer():
    # Under strikes a timed-out request is replaced by a draw; the late answer that follows is
    # recognised by its id and skipped, never taken for the next request.
    (result,), _ = _play("slow", policy=FaultPolicy("strikes", 50),
                         limits=replace(FAST, move_ms=150))
    assert result["faults"] and all(f["kind"] == "timeout" for f in result["faults"])
    assert 0 not in result["forfeited"]


def test_time_bank_absorbs_slow_moves():
    (result,), _ = _play("slow", limits=replace(FAST, move_ms=200, bank_ms=60_000))
    assert result["faults"] == []
    assert result["time_ms"]["max"][0] >= 250


def test_log_flood_is_bounded_and_not_a_fault():
    (result,), _ = _play("log_flood", limits=TimeLimits(startup_ms=3000, move_ms=5000, bank_ms=0, quit_ms=500))
    assert result["faults"] == []


def test_crashed_bot_is_restarted_for_the_next_game():
    results, _ = _play("crash", games=2)
    assert [r["faults"][0]["kind"] for r in results] == ["crash", "crash"]


def test_process_group_is_killed_with_grandchildren():
    bot = parse_bot(f"{PY} {MISBEHAVE} spawn_and_hang", FAST)
    with BotPool() as pool:
        seats = [seat_for(bot, pool), seat_for(parse_bot("builtin:random"), pool)]
        client = seats[0].client
        result = play_game(get_ruleset("compact", {"target": 100}), seats, seed=5)
        assert result["faults"][0]["kind"] == "timeout"
        assert client.transport is None  # killed after the timeout, during the game
        # The whole process group (the bot and the sleeper it started) is gone.
        assert wait_group_gone(client.last_pid) == []


def _games_with_pids(mode: str, games: int) -> tuple[list[dict], list[int | None]]:
    """``games`` games of the misbehaving bot against a built-in in one pool: results, and the bot's pid in each."""
    bot = parse_bot(f"{PY} {MISBEHAVE} {mode}", FAST)
    results, pids = [], []
    with BotPool() as pool:
        for g in range(games):
            seats = [seat_for(bot, pool), seat_for(parse_bot("builtin:medium"), pool)]
            results.append(play_game(get_ruleset("family", {"target": "round"}), seats, seed=11 + g,
                                     game_id=f"g{g}"))
            pids.append(seats[0].client.last_pid)
    return results, pids


def test_early_answer_is_its_own_fault_and_never_played():
    (result,), _ = _play("early")
    fault = result["faults"][0]
    assert fault["kind"] == "early" and '"type":"draw"' in fault["line"].replace(" ", "")
    # The early line carries the id of the request it pre-empted, which was never sent.
    assert str(fault["request_id"]) in fault["message"]


@pytest.mark.parametrize("pidfd", [True, False], ids=["pidfd", "no-pidfd"])
def test_exit_with_children_holding_stdout_is_a_crash_and_they_are_killed(monkeypatch, pidfd):
    if not pidfd:  # kernels before 5.3: the waits wake now and then to look instead
        monkeypatch.delattr("os.pidfd_open")
    bot = parse_bot(f"{PY} {MISBEHAVE} orphan_stdout", TimeLimits(startup_ms=3000, move_ms=30_000, quit_ms=500))
    # Unsandboxed: in the sandbox the children die with the bot's PID namespace and never hold stdout.
    bot = replace(bot, sandbox=SandboxSettings(mode=Mode.NONE))
    with BotPool() as pool:
        seats = [seat_for(bot, pool), seat_for(parse_bot("builtin:random"), pool)]
        t0 = time.monotonic()
        result = play_game(get_ruleset("compact", {"target": 100}), seats, seed=5)
        waited = time.monotonic() - t0
        fault = result["faults"][0]
        assert fault["kind"] == "crash", fault
        assert "exit code 5" in fault["message"] and "leaving processes" in fault["message"]
        assert waited < 25, "the referee waited for the move limit instead of seeing the exit"
        # The sleeper that held stdout went with the bot's process group.
        assert wait_group_gone(seats[0].client.last_pid) == []


def test_a_flood_of_answers_does_not_poison_the_next_game():
    (first, second, third), pids = _games_with_pids("flood", 3)
    assert [f["kind"] for f in first["faults"]] == ["stale_id"]  # the copies are its fault in the game it sent them
    assert second["faults"] == [] and second["forfeited"] == [] and third["faults"] == []
    # The copies still queued after the first game were drained, and the process out of step restarted.
    assert pids[0] != pids[1] and pids[1] == pids[2]


def test_logs_after_a_game_are_drained_without_a_restart():
    results, pids = _games_with_pids("log_after_end", 3)
    assert all(r["faults"] == [] for r in results)
    assert len(set(pids)) == 1


@contextlib.contextmanager
def _hanging_match(tmp_path):
    """A ``lastcard match`` whose bot, at its third turn, has started a sleeper and hangs: (referee, bot's group).

    Every wait is on a state read from /proc, with a generous ceiling, so a loaded machine makes the
    test slower, never wrong; the referee is killed on the way out whatever happens.
    """
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee.cli.main", "match", "-r", "arcade", "-n", "3", "--move-ms", "60000",
         "--sandbox", "none",  # the process-group model; tests/bots/test_hostile.py kills sandboxed referees
         "--out", str(tmp_path), f"{PY} {MISBEHAVE} spawn_and_hang", "builtin:random"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        found = wait_until(lambda: groups_running(b"spawn_and_hang", unless=b"referee.cli.main", under=proc.pid),
                           within=60)
        assert found, "the bot never started"
        pgid = found[0]
        # The bot plus the sleeper it starts at its third turn: it has reached the hang.
        assert len(wait_until(lambda: group_members(pgid)[1:], within=60)) >= 1, "the bot never started its sleeper"
        yield proc, pgid
    finally:
        if proc.poll() is None:  # the test failed half-way: never leave the referee running
            proc.kill()
            proc.communicate()


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
def test_interrupted_match_leaves_no_bot_behind(tmp_path, signame):
    with _hanging_match(tmp_path) as (proc, pgid):
        proc.send_signal(getattr(signal, signame))
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, err
        assert "interrupted" in err and "rank" in out  # the standings so far are printed
        assert wait_group_gone(pgid) == []
        assert (tmp_path / "games.jsonl").exists()


def test_killed_referee_leaves_no_bot_behind(tmp_path):
    """``kill -9`` gives the referee no chance to clean up: its watchdog kills the bot and the sleeper it started.

    Without the watchdog the bot would sleep on for a minute and its sleeper for two.
    """
    with _hanging_match(tmp_path) as (proc, pgid):
        assert len(group_members(pgid)) == 2, "the bot and its sleeper should run before the referee is killed"
        proc.kill()
        proc.communicate(timeout=60)
        assert proc.returncode == -9
        assert wait_group_gone(pgid, within=60) == []
