"""A game whose bot seats have no process yet (a worker's first game, bots restarted every game) starts them
side by side: two bots that can only start together both play, and a failed start is still its seat's fault."""

from __future__ import annotations

import sys
from dataclasses import replace

import pytest

from referee.bots.pool import BotPool
from referee.bots.sandbox import Mode, SandboxSettings
from referee.bots.spec import BotSpec, TimeLimits
from referee.engine.rules import get_ruleset
from referee.run.jobs import GameJob, run_job
from referee.run.seeds import game_seed
from tests.run.test_probe import MEETING

pytestmark = pytest.mark.slow

PLAYER = r"""
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("type") == "hello":
        print(json.dumps({"type": "ready", "name": "p"}), flush=True)
    elif msg.get("type") == "turn":
        print(json.dumps(msg["legal"][0]), flush=True)  # each legal element is a whole answer
"""


def _meeting_players(tmp_path, restart: bool = False) -> list[BotSpec]:
    """Two bots that answer hello only once both have started, then play their first legal action."""
    script = tmp_path / "meet_then_play.py"
    script.write_text(MEETING.replace('for line in sys.stdin:\n    if json.loads(line).get("type") == "hello":\n'
                                      '        print(json.dumps({"type": "ready", "name": me}), flush=True)\n', "")
                      + PLAYER)
    # sandbox none: the bots meet through files outside their own folder.
    return [BotSpec(name, f"{sys.executable} {script} {name} {other} {tmp_path}", restart_each_game=restart,
                    limits=replace(TimeLimits(), startup_ms=20_000), sandbox=SandboxSettings(mode=Mode.NONE))
            for name, other in (("m0", "m1"), ("m1", "m0"))]


def test_bot_seats_without_a_process_start_side_by_side(tmp_path):
    seats = tuple(_meeting_players(tmp_path))
    with BotPool() as pool:
        result, _ = run_job(GameJob("g1", game_seed(1, 1), get_ruleset("family", {"target": "round"}), seats), pool)
    assert not result.faults and sorted(result.placements) in ([1, 2], [1, 1])


def test_a_seat_whose_start_fails_beside_another_is_charged_its_own_fault(tmp_path):
    good = _meeting_players(tmp_path)[0]
    (tmp_path / "m1").touch()  # its partner's mark, so the good bot starts alone
    broken = BotSpec("ghost", f"{sys.executable} {tmp_path / 'no_such_bot.py'}",
                     sandbox=SandboxSettings(mode=Mode.NONE))
    with BotPool() as pool:
        result, _ = run_job(GameJob("g1", game_seed(1, 2), get_ruleset("family", {"target": "round"}),
                                    (broken, good)), pool)
    assert [(f.seat, f.kind.value) for f in result.faults] == [(0, "startup")]
    assert "exited during startup" in result.faults[0].message


def test_bots_started_side_by_side_under_the_sandbox_live_on_between_games(tmp_path):
    """Under the default sandbox (bubblewrap dies with the thread that started it) the processes started
    together outlive their first game: the second game reuses them, with no fault."""
    (tmp_path / "player.py").write_text(PLAYER)
    seats = tuple(BotSpec(f"p{i}", f"{sys.executable} player.py", cwd=str(tmp_path)) for i in range(3))
    rules = get_ruleset("family", {"target": "round"})
    with BotPool() as pool:
        first, _ = run_job(GameJob("g1", game_seed(2, 1), rules, seats), pool)
        pids = [pool.client(spec).last_pid for spec in seats]
        assert all(pool.client(spec).alive for spec in seats)
        second, _ = run_job(GameJob("g2", game_seed(2, 2), rules, seats), pool)
        assert [pool.client(spec).last_pid for spec in seats] == pids
    assert not first.faults and not second.faults
