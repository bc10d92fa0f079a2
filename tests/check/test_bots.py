"""``lastcard check`` against real processes: each broken bot in ``tests/support/broken_bots`` fails exactly the checks
of its mistake, every sample bot passes everything, and no bot process outlives a test."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from referee.bots.pipes import transport
from referee.bots.pipes.transport import PipeTransport
from referee.check import CheckConfig, Report, Status, run_check
from referee.check import suite as S
from referee.check.fuzz import fuzz_check_name
from referee.protocol.schemas import validate_message
from tests.support.procs import pid_alive

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "tests" / "support" / "broken_bots"
PY = sys.executable  # the venv's interpreter starts faster than a pyenv shim
ALL = ("compact", "family", "arcade")

#: Every scripted check that asks the bot for a move.
TURNS = {S.C_DRAW, S.C_DRAWN, S.C_DEAD_DRAW, S.C_WD4, S.C_PASS, S.F_OPENING, S.F_WILD, S.F_STACK, S.F_PENALTY,
         S.A_MULTI, S.A_CALL, S.NEW_GAME}


@pytest.fixture(autouse=True)
def bot_pids() -> Iterator[list[int]]:
    """Every bot process a test starts; afterwards none of them (nor anything in their process groups) runs."""
    pids: list[int] = []
    hook = pids.append
    transport.START_HOOKS.append(hook)
    try:
        yield pids
    finally:
        transport.START_HOOKS.remove(hook)
    left = _left_running(pids)
    assert not left, f"bot processes left running: {left}"


def _left_running(pids: list[int]) -> list[int]:
    return [pid for pid in pids if pid_alive(pid) or _group_alive(pid)]


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def test_the_tracking_sees_a_bot_left_running(bot_pids: list[int]) -> None:
    """The fixture's hook is called for every bot started, on either build: one left running is caught."""
    bot = PipeTransport([PY, "-c", "import sys; sys.stdin.read()"])
    try:
        assert bot_pids == [bot.pid]
        assert _left_running(bot_pids) == [bot.pid]
    finally:
        bot.close()
    assert _left_running(bot_pids) == []


def check(command: str, **config: Any) -> Report:
    config.setdefault("games", 0)
    config.setdefault("quiet_ms", 100)
    config.setdefault("rulesets", ALL)
    return run_check(command, CheckConfig(**config))


def broken(name: str) -> str:
    return f"{PY} {BROKEN / name}.py"


# ---------------------------------------------------------------------------------------- broken bots
@pytest.mark.parametrize("name, config, failed", [
    pytest.param("debug_print", {}, {S.NO_DEBUG}, id="debug-print-on-stdout"),
    pytest.param("wrong_id", {}, TURNS, id="wrong-id"),
    pytest.param("no_colour", {}, {S.F_WILD}, id="colour-missing-after-a-wild"),
    pytest.param("illegal_card", {}, {S.C_WD4}, id="illegal-wild-draw-four"),
    pytest.param("no_call", {}, {S.A_CALL}, id="no-last-card-call"),
    pytest.param("answers_events", {}, {S.C_DEAD_DRAW, S.F_PENALTY, S.NO_ANSWER}, id="answers-information"),
    pytest.param("dies_on_quit", {}, {S.QUIT}, id="dies-on-quit"),
    pytest.param("slow_start", {"move_ms": 250}, {S.C_DRAW}, id="first-answer-too-slow"),
    pytest.param("never_answers", {"move_ms": 300}, {S.C_DRAW}, id="never-answers"),
    pytest.param("crash_on_drawn", {}, {S.C_DRAWN}, id="crash-mid-suite"),
    pytest.param("no_ready", {"startup_ms": 500}, {S.HANDSHAKE_TIME}, id="no-ready"),
    pytest.param("wrong_protocol", {}, {S.HANDSHAKE_READY}, id="unsupported-protocol"),
])
def test_broken_bot_fails_exactly_its_checks(name: str, config: dict[str, Any], failed: set[str]) -> None:
    report = check(broken(name), **config)
    assert set(report.failed_names) == failed
    assert not report.ok
    for c in report.checks:
        if c.failed:
            assert c.problem, c.name
        if c.failed and c.name not in (S.NO_ANSWER, S.NO_DEBUG, S.QUIT, S.HANDSHAKE_TIME):
            assert c.sent, c.name  # the message that went wrong is in the report


def test_the_shared_loop_without_a_mistake_passes() -> None:
    report = check(f"{PY} {BROKEN / 'common.py'}")
    assert report.failed_names == [] and report.count(Status.SKIPPED) == 3  # the fuzz (--games 0)


@pytest.mark.parametrize("name, config, stopped_at", [
    pytest.param("never_answers", {"move_ms": 300}, S.C_DRAW, id="hung"),
    pytest.param("crash_on_drawn", {}, S.C_DRAWN, id="dead"),
    pytest.param("no_ready", {"startup_ms": 500}, S.HANDSHAKE_TIME, id="no-ready"),
])
def test_a_dead_or_hung_bot_stops_the_suite_fast(name: str, config: dict[str, Any], stopped_at: str) -> None:
    t0 = time.monotonic()
    report = check(broken(name), games=10, **config)
    assert time.monotonic() - t0 < 5
    names = [c.name for c in report.checks]
    rest = report.checks[names.index(stopped_at) + 1:]
    assert rest and all(c.status is Status.SKIPPED and c.problem for c in rest)
    assert any(c.name.startswith("fuzz ") for c in rest)  # the fuzz games are not played either


def test_debug_print_is_named_as_such() -> None:
    c = check(broken("debug_print"), rulesets=("compact",)).get(S.NO_DEBUG)
    assert c.received == "thinking about turn 1..."
    assert "stderr" in (c.expected or "") and '"type":"log"' in (c.expected or "")
    assert (c.sent or "").startswith('{"type":"turn","id":1')


def test_a_crash_shows_the_traceback() -> None:
    c = check(broken("crash_on_drawn"), rulesets=("compact",)).get(S.C_DRAWN)
    assert "exit code 1" in (c.problem or "")
    assert any("RuntimeError" in d for d in c.details)


def test_only_the_chosen_rulesets() -> None:
    report = check(broken("no_colour"), rulesets=("compact", "arcade"))  # its mistake shows in family only
    assert report.ok
    assert not any(c.group == "family" for c in report.checks)


# ---------------------------------------------------------------------------------------- fuzz games
def test_fuzz_faults_are_checks() -> None:
    report = check(broken("debug_print"), games=3)
    assert set(report.failed_names) == {S.NO_DEBUG} | {fuzz_check_name(h, "non_json") for h in ALL}
    for house in ALL:
        c = report.get(fuzz_check_name(house, "non_json"))
        assert (c.sent or "").startswith('{"type":"turn"') and (c.received or "").startswith("thinking about turn")
        assert "stderr" in (c.expected or "")
        assert any("seed" in d for d in c.details)


def test_fuzz_finds_what_the_script_does_not_and_stops_on_a_hang() -> None:
    t0 = time.monotonic()
    report = check(broken("hangs_late"), games=6, rulesets=("compact",), move_ms=300)
    assert report.failed_names == [fuzz_check_name("compact", "timeout")]
    assert any("stopped after a timeout" in d for d in report.get(fuzz_check_name("compact", "timeout")).details)
    assert time.monotonic() - t0 < 8


# ---------------------------------------------------------------------------------------- sample bots
def _needs(tool: str) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed: the {tool} sample bot cannot run here")


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory: pytest.TempPathFactory) -> str:
    _needs("gcc")
    out = tmp_path_factory.mktemp("cbot") / "bot"
    subprocess.run(["gcc", "-O2", "-std=c99", "-o", str(out), str(ROOT / "sample_bots/c/bot.c")], check=True)
    return str(out)


@pytest.mark.parametrize("command, games", [
    pytest.param(f"{PY} {ROOT / 'sample_bots/python/strong_bot.py'}", 3, id="python-strong"),
    pytest.param(f"{PY} {ROOT / 'sample_bots/python/random_bot.py'}", 3, id="python-random"),
])
def test_python_sample_bots_pass_everything(command: str, games: int) -> None:
    report = check(command, games=games)
    assert report.failed_names == [] and report.count(Status.SKIPPED) == 0, report.failed_names


@pytest.mark.toolchain
def test_js_sample_bot_passes_everything() -> None:
    _needs("node")
    report = check(f"node {ROOT / 'sample_bots/js/bot.js'}", games=3)
    assert report.failed_names == [] and report.count(Status.SKIPPED) == 0, report.failed_names


@pytest.mark.toolchain
def test_c_sample_bot_passes_everything(c_bot: str) -> None:
    report = check(c_bot, games=3)
    assert report.failed_names == [] and report.count(Status.SKIPPED) == 0, report.failed_names


@pytest.mark.toolchain
def test_java_sample_bot_passes_everything() -> None:
    _needs("java")
    report = check(f"java {ROOT / 'sample_bots/java/Bot.java'}", games=3)
    assert report.failed_names == [] and report.count(Status.SKIPPED) == 0, report.failed_names


# ---------------------------------------------------------------------------------------- the wire itself
def test_everything_the_checker_sends_is_a_valid_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Strictly valid (every field documented), including the error messages after wrong answers."""
    transcript = tmp_path / "transcript.jsonl"
    monkeypatch.setenv("LASTCARD_TRANSCRIPT", str(transcript))
    check(broken("wrong_id"), games=0, rulesets=("compact",), sandbox="none")  # the bot writes the transcript

    messages = [json.loads(line) for line in transcript.read_text().splitlines()]
    assert {m["type"] for m in messages} >= {"hello", "start", "turn", "event", "round_end", "game_end", "error",
                                             "quit"}
    for msg in messages:
        assert validate_message("to_bot", msg, strict=True) == [], msg
