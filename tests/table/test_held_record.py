"""A record held until a fault keeps it (``HeldRecorder``) is line for line the record a ``Recorder`` makes as the
game is played; ``run_job`` hands one back only when the game keeps it."""

from __future__ import annotations

import time

import pytest

from referee.bots.pool import BotPool
from referee.bots.spec import TimeLimits, parse_bot
from referee.engine.actions import Action
from referee.engine.rules import get_ruleset
from referee.run.jobs import GameJob, run_job
from referee.table.held_record import HeldRecorder
from referee.table.table import Recorder, Table, seat_for
from tests.conftest import PY, ROOT

MISBEHAVE = ROOT / "tests" / "support" / "fault_bots" / "misbehave.py"
RULES = get_ruleset("family", {"target": "round"})


def _builtin_game(recorder: Recorder, seed: int) -> None:
    specs = [parse_bot(f"{name}{i}=builtin:{name}") for i, name in enumerate(("easy", "hard", "random"))]
    Table(RULES, [seat_for(s, BotPool()) for s in specs], seed, f"g{seed}", recorder=recorder).play()


@pytest.mark.parametrize("seed", [1, 7, 30])
def test_a_held_record_is_the_record_made_as_the_game_is_played(seed):
    made, held = Recorder(), HeldRecorder()
    _builtin_game(made, seed)
    _builtin_game(held, seed)
    assert held.lines == []  # nothing made while the game was played
    lines = held.written()
    assert lines == made.lines
    assert [line["t"] for line in lines][:2] == ["game", "action"] and lines[-1]["t"] == "result"


def test_held_messages_are_the_lines_a_recorder_makes_from_the_same_bytes_and_times(monkeypatch):
    ticks = iter([100.0, 100.0, 100.0012345, 100.0012345, 100.25, 100.25])  # each recorder reads the same clock
    monkeypatch.setattr(time, "monotonic", lambda: next(ticks))
    made, held = Recorder(), HeldRecorder()
    sinks = [made.messages_of(2), held.messages_of(2)]
    for sink in sinks:
        sink("out", b'{"type":"start"}\n{"type":"turn","id":4}\n', None)  # a write that carries two lines
    for sink in sinks:
        sink("in", b'{"id":4,"action":"draw"}', None)
    for recorder in (made, held):
        recorder.add({"t": "fault", "kind": "illegal"})
        recorder.action(2, Action("draw"), "fallback", 1.23456, None)
    lines = held.written()
    assert lines == made.lines
    assert [(line["t"], line.get("at_ms")) for line in lines] == [("out", 1.234), ("out", 1.234), ("in", 250.0),
                                                                    ("fault", None), ("action", None)]


CLOCKS = ("at_ms", "ms", "cpu_ms", "time_ms", "elapsed_ms")


def _masked(value):
    """A record without its clock readings, at any depth (two plays of a game take different times)."""
    if isinstance(value, dict):
        return {k: _masked(v) for k, v in value.items() if k not in CLOCKS}
    if isinstance(value, list):
        return [_masked(v) for v in value]
    return value


@pytest.mark.slow  # starts a bot process
@pytest.mark.parametrize("mode, kept", [("illegal", True), ("good", False)])
def test_run_job_keeps_a_bots_record_only_when_the_game_faults(mode, kept):
    limits = TimeLimits(startup_ms=5000, move_ms=2000, clock="wall")
    seats = (parse_bot(f"{PY} {MISBEHAVE} {mode}", limits), parse_bot("builtin:medium"))
    with BotPool() as pool:  # each in a pool of its own: the bot's start is in each record
        held = run_job(GameJob("g1", 5, RULES, seats, record=True, faults_only=True), pool)
    with BotPool() as pool:
        always = run_job(GameJob("g1", 5, RULES, seats, record=True), pool)
    assert (held[1] is not None) == kept == bool(held[0].faults)
    assert always[1] is not None  # a record asked for is always made
    if kept:
        assert held[1] is not None and _masked(held[1]) == _masked(always[1])
        assert any(line["t"] == "fault" for line in held[1]) and any(line["t"] == "in" for line in held[1])
