"""clock: cpu against clock: wall, under load the test makes itself (docs/security.md, "Clocks").

The load is three CPU burners pinned to the bot's core, each ending by itself within a minute and
killed by the fixture. Budget 200 ms of CPU a move: a bot using 40% of it (80 ms) gets at most a
quarter of its core beside three burners, so it needs 320 ms or more of wall time; a bot using 150%
(300 ms) is over whatever the load. The margins are wide on purpose: no verdict depends on timing
closer than a factor of 1.5.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Iterator

import pytest

from referee.bots import sandbox
from referee.bots.cgroups import BotGroup
from referee.bots.cpuclock import Clock, ProcessMeter, process_clock_id
from referee.bots.pipes.client import BotClient
from referee.bots.sandbox import Mode, SandboxSettings
from referee.bots.spec import BotSpec, TimeLimits
from referee.protocol.faults import BotFault, FaultKind
from referee.replay.record import read_record
from referee.store.record_file import recorded_ids
from tests.support.tiers import starts_processes

PY = sys.executable
ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "tests" / "support" / "fault_bots" / "cpu_bot.py"
BUDGET = 200
#: The wall backstop where the test wants it out of the way (a bot at a quarter of a core needs 4x).
ROOMY_WALL = 4000
CORE = max(os.sched_getaffinity(0))
BURNER = "import os, sys, time\nos.sched_setaffinity(0, {int(sys.argv[1])})\nend = time.monotonic() + 60\n" \
         "while time.monotonic() < end:\n    pass\n"


def cgroup_counts_cpu() -> bool:
    machine = sandbox.machine()
    return machine.walls and machine.hierarchy is not None and machine.hierarchy.counts_cpu


needs_cgroup = pytest.mark.skipif(not cgroup_counts_cpu(), reason="no sandbox with a cgroup that counts CPU time "
                                                                 "here (bwrap and writable cgroups with cpuacct)")

#: The bot's own cgroup (sandbox auto), and no cgroup at all (sandbox none: the per-process fallback).
SANDBOXES = [pytest.param(Mode.AUTO, "cpu", id="cgroup", marks=needs_cgroup),
             pytest.param(Mode.NONE, "cpu-process", id="per-process")]


@pytest.fixture
@starts_processes
def burners() -> Iterator[None]:
    """Three CPU burners on the bot's core, for the test's length (killed at its end)."""
    # Each burner in a session of its own, as the bot is: where the kernel groups a session's processes for the
    # scheduler (autogroup), three burners in the test's session would weigh as one against the bot's session.
    procs = [subprocess.Popen([PY, "-c", BURNER, str(CORE)], start_new_session=True) for _ in range(3)]
    # Each burner in a control group of its own, beside the bot's: the scheduler shares a core between
    # groups first, so three burners left together in the test's group would weigh as one against the
    # bot's group and leave it half the core, not a quarter.
    groups = []
    hierarchy = sandbox.machine().hierarchy
    if hierarchy is not None:
        for p in procs:
            try:
                group = BotGroup(hierarchy, memory_bytes=None, processes=None, cpus=None)
            except OSError:
                break
            groups.append(group)
            for path in group.procs_files:
                try:
                    with open(path, "w") as fh:
                        fh.write(str(p.pid))
                except OSError:
                    pass
    try:
        yield
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()
        for group in groups:
            group.remove()


def client(mode: str, ms: int, clock: str, box: Mode, wall_ms: int | None = None) -> BotClient:
    limits = TimeLimits(startup_ms=20_000, move_ms=BUDGET, bank_ms=0, quit_ms=500, clock=clock, wall_ms=wall_ms)
    spec = BotSpec("cpu", f"{PY} {BOT} {mode} {ms} {CORE}", limits=limits, sandbox=SandboxSettings(mode=box))
    bot = BotClient(spec)
    bot.start()
    return bot


def moves(bot: BotClient, n: int) -> list[tuple[float, float | None]]:
    """Ask ``n`` turns; each answer's wall and CPU ms (a ``BotFault`` escapes)."""
    out = []
    for _ in range(n):
        _, ms = bot.request({"type": "turn", "id": bot.new_request_id()})
        out.append((ms, bot.last_cpu_ms))
    return out


def timeout(bot: BotClient) -> str:
    """The message of the timeout the next turn ends in (fails the test if it ends otherwise)."""
    with pytest.raises(BotFault) as info:
        moves(bot, 1)
    assert info.value.fault.kind is FaultKind.TIMEOUT, info.value.fault
    return info.value.fault.message


@pytest.mark.parametrize("box, source", SANDBOXES)
def test_a_bot_using_40_percent_times_out_on_the_wall_clock_and_never_on_the_cpu_clock(box, source, burners):
    wall = client("burn", BUDGET * 40 // 100, "wall", box)
    try:
        assert "no answer within 200 ms" in timeout(wall)
    finally:
        wall.kill()
    cpu = client("burn", BUDGET * 40 // 100, "cpu", box, wall_ms=ROOMY_WALL)
    try:
        assert cpu.clock_source == source
        times = moves(cpu, 3)
    finally:
        cpu.quit()
    for wall_ms, cpu_ms in times:
        assert cpu_ms is not None and 60 <= cpu_ms < BUDGET  # what it burnt, read back
        assert wall_ms > BUDGET  # the load was real: on the wall clock this move was over


@pytest.mark.slow
@pytest.mark.parametrize("box, source", SANDBOXES)
def test_a_bot_using_150_percent_times_out_on_the_cpu_clock(box, source):
    bot = client("burn", BUDGET * 150 // 100, "cpu", box, wall_ms=ROOMY_WALL)
    try:
        assert bot.clock_source == source
        message = timeout(bot)
    finally:
        bot.kill()
    # Cut short at the limit, or (the referee itself waiting for a core) refused when the answer came late.
    assert "ms of CPU time" in message and "backstop" not in message and f"{BUDGET} ms" in message
    assert bot.last_cpu_ms is not None and bot.last_cpu_ms >= BUDGET


@pytest.mark.slow
@needs_cgroup
def test_cpu_burnt_by_a_forked_child_counts():
    bot = client("fork", BUDGET * 150 // 100, "cpu", Mode.AUTO, wall_ms=ROOMY_WALL)
    try:
        message = timeout(bot)
    finally:
        bot.kill()
    # the bot itself only waited: its child's CPU time was charged
    assert "ms of CPU time" in message and "backstop" not in message


@pytest.mark.slow
@pytest.mark.parametrize("box, source", SANDBOXES)
def test_a_bot_sleeping_past_wall_ms_times_out_on_the_cpu_clock(box, source):
    bot = client("sleep", 3000, "cpu", box, wall_ms=400)
    try:
        message = timeout(bot)
    finally:
        bot.kill()
    assert "wall-clock backstop of 400 ms" in message
    assert bot.last_cpu_ms is not None and bot.last_cpu_ms < BUDGET


@pytest.mark.slow
@pytest.mark.parametrize("box, source", SANDBOXES)
def test_a_quick_bot_is_charged_little_cpu_and_spends_no_bank(box, source):
    bot = client("burn", 5, "cpu", box)
    bot.bank_ms = 50.0
    try:
        times = moves(bot, 3)
    finally:
        bot.quit()
    assert all(cpu is not None and cpu < BUDGET / 4 for _, cpu in times)
    assert bot.bank_ms == 50.0


def test_the_wall_backstop_defaults_to_a_multiple_of_the_cpu_limit():
    limits = TimeLimits(move_ms=300)
    assert limits.clock is Clock.CPU
    assert limits.wall_limit_ms(300) == 1500 and replace(limits, wall_ms=700).wall_limit_ms(300) == 700


@contextmanager
def _python(source: str, says: bytes) -> Iterator[subprocess.Popen[bytes]]:
    """A Python process running ``source`` (in a session of its own), once it has written ``says``; it and
    anything it forked are killed and reaped on leaving."""
    child = subprocess.Popen([PY, "-c", source], stdout=subprocess.PIPE, start_new_session=True)
    try:
        assert child.stdout is not None and child.stdout.readline() == says
        yield child
    finally:
        try:
            os.killpg(child.pid, 9)
        except OSError:
            pass
        child.wait()  # reaped: its clock can no longer be read
        child.stdout.close()  # type: ignore[union-attr]


@pytest.mark.slow
def test_the_process_meter_sums_a_process_and_its_children():
    # Each of the two processes burns 150 ms of CPU, then sleeps; the parent says when it has forked.
    source = ("import os, sys, time\npid = os.fork()\nif pid: print('forked', flush=True)\n"
              "end = time.process_time() + 0.15\nwhile time.process_time() < end: pass\ntime.sleep(30)")
    with _python(source, b"forked\n") as child:
        meter = ProcessMeter(child.pid)
        meter.refresh()  # finds the child the bot started
        assert len(meter._clocks) == 2
        deadline = time.monotonic() + 10
        while meter.read_ns() < 2 * 145_000_000 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert 2 * 145_000_000 <= meter.read_ns() < 2 * 300_000_000
    assert process_clock_id(1) < 0  # the kernel's encoding: negative, the pid inverted


@pytest.mark.slow
def test_a_bot_alone_that_ends_keeps_the_cpu_time_read_from_it_last():
    """The meter's one-clock path: a bot that ended is not an error, its last reading stays counted."""
    source = ("import time\nend = time.process_time() + 0.05\nwhile time.process_time() < end: pass\n"
              "print('done', flush=True)\ntime.sleep(30)")
    with _python(source, b"done\n") as child:
        meter = ProcessMeter(child.pid)
        burnt = meter.read_ns()
        assert burnt >= 45_000_000
    assert meter.read_ns() == burnt and meter.read_ns() == burnt
    with pytest.raises(OSError):
        ProcessMeter(child.pid)  # a clock never readable is an error, as before


@pytest.mark.slow
def test_the_same_seed_gives_the_same_game_under_either_clock(tmp_path):
    from click.testing import CliRunner

    from referee.cli.main import cli

    strong = f"{PY} {ROOT / 'sample_bots' / 'python' / 'strong_bot.py'}"
    games = {}
    for clock in ("cpu", "wall"):
        out = tmp_path / clock
        res = CliRunner().invoke(cli, ["match", "-n", "2", "--seed", "7", "--no-report", "--records", "--out", str(out),
                                       "--clock", clock, strong, "builtin:hard"])
        assert res.exit_code == 0, res.output
        games[clock] = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert [g["actions"] for g in games["cpu"]] == [g["actions"] for g in games["wall"]]
    assert [g["placements"] for g in games["cpu"]] == [g["placements"] for g in games["wall"]]
    assert {tuple(g["clock"]) for g in games["wall"]} == {("wall", None), (None, "wall")}
    assert all(c in ("cpu", "cpu-process") for g in games["cpu"] for c in g["clock"] if c is not None)
    assert not any(g["faults"] for g in games["cpu"] + games["wall"])
    # Both times recorded: each move's cpu_ms beside its ms, the clock in results.json, CPU columns per bot.
    results = json.loads((tmp_path / "cpu" / "results.json").read_text())
    assert results["clock_levels"]["strong_bot"][0] in ("cpu", "cpu-process")
    assert json.loads((tmp_path / "wall" / "results.json").read_text())["clock_levels"] == {"strong_bot": ["wall"]}
    actions = [line for game in sorted(recorded_ids(str(tmp_path / "cpu")))
               for line in read_record(str(tmp_path / "cpu"), game) or ()]
    bot_moves = [a for a in actions if a["t"] == "action" and a["by"] == "bot"]
    assert bot_moves and all(0 <= a["cpu_ms"] <= a["ms"] + 1 for a in bot_moves)
    header = (tmp_path / "cpu" / "standings.csv").read_text().splitlines()[0].split(",")
    assert "cpu_avg_ms" in header and "cpu_max_ms" in header
    timing = json.loads((tmp_path / "cpu" / "timing.json").read_text())["bots"]["strong_bot"]
    assert 0 < timing["cpu_avg_ms"] <= timing["cpu_max_ms"]


def test_an_arena_file_sets_the_clock_per_bot_and_refuses_a_bad_one(tmp_path):
    from referee.arena import parse_arena
    from referee.inputs.problems import ArenaFileError

    body = ("name: c\nseats: 2\ngames: 1\nruleset: arcade\nlimits: {move_ms: 200, clock: wall}\nbots:\n"
            "  - {name: a, command: x, limits: {clock: cpu, wall_ms: 900}}\n  - {name: b, command: x}\n")
    arena = parse_arena(body, base_dir=str(tmp_path))
    limits = {b.spec.name: b.spec.limits for b in arena.bots}
    assert limits["a"].clock is Clock.CPU and limits["a"].wall_ms == 900 and limits["a"].move_ms == 200
    assert limits["b"].clock is Clock.WALL and limits["b"].wall_ms is None
    with pytest.raises(ArenaFileError) as info:
        parse_arena(body.replace("clock: wall", "clock: sundial"), base_dir=str(tmp_path))
    assert "limits.clock: 'sundial' is not one of cpu, wall" in str(info.value)


def test_the_check_reports_the_time_per_move_against_the_limit():
    from referee.check.report import Status
    from referee.check.timing import MoveTimes

    def game(cpu_max: float, wall_max: float) -> dict:
        return {"time_ms": {"decisions": [4, 9], "total": [4 * wall_max / 2, 1.0], "max": [wall_max, 1.0],
                            "cpu_decisions": [4, 0], "cpu_total": [4 * cpu_max / 2, 0.0], "cpu_max": [cpu_max, 0.0]}}

    times = MoveTimes()
    times.add(game(cpu_max=80, wall_max=400), 0)  # slow on the wall, well within the CPU limit
    on_cpu = times.check(TimeLimits(move_ms=200))
    assert on_cpu.status is Status.PASSED and "80.0 ms at most; the limit is 200 ms" in (on_cpu.summary or "")
    on_wall = times.check(TimeLimits(move_ms=200, clock="wall"))
    assert on_wall.status is Status.FAILED and "400.0 ms of wall time, over the limit of 200 ms" in on_wall.problem
    times.add(game(cpu_max=300, wall_max=400), 0)
    assert times.check(TimeLimits(move_ms=200)).status is Status.FAILED
    assert MoveTimes().check(TimeLimits()).status is Status.SKIPPED


def test_the_fallback_is_said_once_at_the_start():
    from referee.bots.spec import parse_bot
    from referee.cli.sandbox_option import announce

    said: list[str] = []
    bots = [replace(parse_bot(f"{n}=./x"), sandbox=SandboxSettings(mode=Mode.NONE)) for n in "ab"]
    announce(bots, said.append)
    notes = [s for s in said if "clock: cpu" in s]
    assert len(notes) == 1 and "summed over its processes" in notes[0]
    said.clear()
    announce([replace(b, limits=replace(b.limits, clock=Clock.WALL)) for b in bots], said.append)
    assert not any("clock" in s for s in said)


@pytest.mark.slow
@pytest.mark.skipif(not sandbox.machine().walls, reason="no bubblewrap walls here")
def test_walls_without_a_cgroup_fall_back_to_the_processes_inside_them(monkeypatch):
    # As for an unprivileged run without delegated cgroups: the walls, no cgroup. The process the referee
    # started is bubblewrap's; the bot's CPU time is found in its descendants.
    without = replace(sandbox.machine(), hierarchy=None)
    monkeypatch.setattr(sandbox, "machine", lambda: without)
    bot = client("burn", BUDGET * 150 // 100, "cpu", Mode.AUTO, wall_ms=ROOMY_WALL)
    try:
        assert bot.sandbox_level == "walls" and bot.clock_source == "cpu-process"
        message = timeout(bot)
    finally:
        bot.kill()
    assert "ms of CPU time" in message and "backstop" not in message
