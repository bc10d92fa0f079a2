"""Hostile bots (tests/bots/hostile/hostile.py) against the sandbox: each attack is stopped or bounded.

Each test plays a real game with the attacker, a well-behaved rival bot and a built-in player, and
asserts that the referee survives, the right fault (or none) is recorded, the limit held, no process
is left and the rival's game is unaffected. A control test runs an attack without the sandbox to
show the bot really detects success, so "blocked" is not a bot that never tried.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Iterator

import pytest

from referee.bots import sandbox
from referee.bots.pool import BotPool
from referee.bots.sandbox import Level, Mode, SandboxSettings
from referee.bots.spec import TimeLimits, parse_bot
from referee.engine.rules import get_ruleset
from referee.table.policy import FaultPolicy
from referee.table.table import play_game, seat_for
from tests.conftest import PY, ROOT
from tests.support.procs import cmdline, wait_until

pytestmark = pytest.mark.slow

HOSTILE = ROOT / "tests" / "bots" / "hostile" / "hostile.py"
# Generous: a loaded CI machine must not turn a slow answer into a fault the test would blame on an attack.
FAST = TimeLimits(startup_ms=20_000, move_ms=3_000, bank_ms=0, quit_ms=500)
#: For the bombs: time to reach the limit on a loaded machine, so the fault is the limit's, not a timeout.
SLOW = replace(FAST, move_ms=20_000)
MACHINE = sandbox.machine()
needs_walls = pytest.mark.skipif(not MACHINE.walls, reason="no sandbox walls here: " + "; ".join(MACHINE.problems))
needs_cgroups = pytest.mark.skipif(MACHINE.hierarchy is None, reason="no writable cgroups here")
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="the control attack reads /etc/shadow, which needs root")
NONE = SandboxSettings(mode=Mode.NONE)


def _running(marker: bytes) -> list[int]:
    """Processes anywhere on the machine whose command line holds ``marker``."""
    return [int(p) for p in os.listdir("/proc") if p.isdigit() and marker in cmdline(int(p))]


def _game(mode: str, tmp_path: Path, settings: SandboxSettings = SandboxSettings(), env: dict[str, str] | None = None,
          rival_settings: SandboxSettings | None = None, limits: TimeLimits = FAST) -> tuple[dict, str]:
    """One game: the attacker at seat 0, a rival bot at seat 1, a built-in at seat 2; result and attacker's stderr."""
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    attacker = replace(parse_bot(f"attacker={PY} {HOSTILE} {mode}", limits), cwd=str(work), sandbox=settings,
                       env=tuple(sorted((env or {}).items())))
    rival = replace(parse_bot(f"rival={PY} {HOSTILE} good hostile-rival", FAST),
                    sandbox=rival_settings or settings)
    logs = tmp_path / "logs"
    logs.mkdir(exist_ok=True)
    with BotPool(stderr_dir=str(logs)) as pool:
        seats = [seat_for(attacker, pool), seat_for(rival, pool), seat_for(parse_bot("builtin:medium"), pool)]
        result = play_game(get_ruleset("family", {"target": "round"}), seats, seed=5, game_id="h1",
                           policy=FaultPolicy())
    return result, (logs / "attacker.stderr.log").read_text()


def _faults(result: dict, seat: int) -> list[dict]:
    return [f for f in result["faults"] if f["seat"] == seat]


def _rival_unharmed(result: dict) -> None:
    assert not _faults(result, 1), _faults(result, 1)
    assert 1 not in result["forfeited"]


# ------------------------------------------------------------------------------------------ walls
@pytest.fixture
def teachers_folder() -> Iterator[Path]:
    """A folder of the user's outside /tmp, as a teacher's files are: under /tmp, the folders on the way to a bot's
    working folder are made in its private scratch space, which a normal user's bot owns and may write (bounded)."""
    folder = Path(tempfile.mkdtemp(prefix="lastcard-teacher-", dir="/var/tmp" if os.path.isdir("/var/tmp") else None))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@needs_walls
def test_the_user_s_secrets_the_referee_s_memory_and_source_are_out_of_reach(tmp_path: Path,
                                                                             teachers_folder: Path) -> None:
    secret = teachers_folder / "secret.txt"
    secret.write_text("the teacher's password\n" * 4)
    source = teachers_folder / "referee_source.py"
    source.write_text("ANSWER = 42\n")
    result, log = _game("peek", tmp_path, env={"HOSTILE_PID": str(os.getpid()), "HOSTILE_SECRET": str(secret),
                                               "HOSTILE_SOURCE": str(source)})
    for attack in ("shadow", "environ", "mem", "secret", "source", "rootfs"):
        assert f"ATTACK {attack}: blocked" in log, log
    assert "scratch writable" in log  # the private scratch folder still works
    assert not _faults(result, 0) and source.read_text() == "ANSWER = 42\n"
    _rival_unharmed(result)


@needs_root
def test_control_without_the_sandbox_the_same_bot_reads_the_secrets(tmp_path: Path) -> None:
    result, log = _game("peek", tmp_path, settings=NONE, env={"HOSTILE_PID": str(os.getpid())})
    assert "ATTACK shadow: SUCCEEDED" in log
    assert [f["kind"] for f in _faults(result, 0)] == ["crash"] and "exit code 66" in _faults(result, 0)[0]["message"]


@needs_walls
def test_the_environment_is_the_clean_documented_one_and_no_other_process_is_visible(tmp_path: Path) -> None:
    result, log = _game("env", tmp_path, env={"MY_SETTING": "1"})
    keys = json.loads(re.search(r"^ENV (.*)$", log, re.M).group(1))
    assert set(keys) <= set(sandbox.CLEAN_ENV) | {"MY_SETTING", "LASTCARD_SANDBOX", "PWD", "SHLVL", "_"}
    assert "MY_SETTING" in keys and "LASTCARD_SANDBOX" in keys
    uid, pids = re.search(r"^UID (\d+) PIDS (.*)$", log, re.M).groups()
    assert json.loads(pids) == [1, 2]  # bubblewrap's init and the bot: nothing of the referee or the rival
    assert int(uid) != 0
    assert not result["faults"]


@needs_walls
def test_no_network_not_even_127_0_0_1(tmp_path: Path) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        listener.setblocking(False)
        result, log = _game("tcp", tmp_path, env={"HOSTILE_PORT": str(listener.getsockname()[1])})
        assert "ATTACK tcp: blocked" in log
        with pytest.raises(BlockingIOError):
            listener.accept()
    assert not _faults(result, 0)
    _rival_unharmed(result)


def test_control_without_the_sandbox_the_bot_connects(tmp_path: Path) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        result, log = _game("tcp", tmp_path, settings=NONE, env={"HOSTILE_PORT": str(listener.getsockname()[1])})
        assert "ATTACK tcp: SUCCEEDED" in log
        listener.settimeout(1)
        listener.accept()[0].close()


@needs_walls
def test_a_bot_cannot_stop_its_rival(tmp_path: Path) -> None:
    result, log = _game("sigstop", tmp_path)
    assert "ATTACK sigstop: blocked" in log
    assert not _faults(result, 0)
    _rival_unharmed(result)


def test_control_without_the_sandbox_the_bot_sees_and_stops_its_rival(tmp_path: Path) -> None:
    _, log = _game("sigstop", tmp_path, settings=NONE)
    assert "ATTACK sigstop: SUCCEEDED" in log


@needs_walls
def test_sigkill_to_its_parent_does_not_end_the_match(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-c", "from referee.cli.main import cli; cli()", "match",
                          f"{PY} {HOSTILE} kill_parent", "builtin:medium", "--games", "2", "--out", str(out)],
                         capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    results = json.loads((out / "results.json").read_text())
    assert "ATTACK kill-parent: blocked" in "".join(p.read_text() for p in out.rglob("*.log"))
    assert results["games"] == 2


# ------------------------------------------------------------------------------------------ limits and ends
LEVELS = [pytest.param(None, id="default", marks=needs_walls),
          pytest.param(Level.LIMITS, id="cgroups-only", marks=needs_cgroups)]


@pytest.fixture
def level(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Level | str | None:
    """Run the test as the machine is, or as if bubblewrap (and cgroups: ``rlimits``) were missing."""
    if request.param is Level.LIMITS:
        monkeypatch.setattr(sandbox, "machine", lambda: replace(MACHINE, bwrap=None))
    elif request.param == "rlimits":
        monkeypatch.setattr(sandbox, "machine", lambda: replace(MACHINE, bwrap=None, hierarchy=None))
    return request.param


@pytest.mark.parametrize("level", LEVELS, indirect=True)
def test_a_double_forked_setsid_child_is_killed_with_the_bot(tmp_path: Path, level: Level | str | None) -> None:
    result, log = _game("linger", tmp_path)
    assert "ATTACK linger: started" in log
    assert wait_until(lambda: not _running(b"hostile-linger"), within=5), _running(b"hostile-linger")
    assert not _faults(result, 0)
    _rival_unharmed(result)


@pytest.mark.parametrize("level", LEVELS, indirect=True)
def test_a_fork_bomb_stops_at_the_process_limit(tmp_path: Path, level: Level | str | None) -> None:
    result, log = _game("forkbomb", tmp_path, settings=SandboxSettings(processes=32), limits=SLOW)
    made = int(re.search(r"ATTACK forkbomb: made (\d+)", log).group(1))
    assert 0 < made < 32, log
    assert "stopped at" in log
    bomb = f"{HOSTILE}\0forkbomb".encode()
    assert wait_until(lambda: not _running(bomb), within=5), _running(bomb)
    _rival_unharmed(result)


@pytest.mark.parametrize("level", [*LEVELS, pytest.param("rlimits", id="rlimits-only")], indirect=True)
def test_a_memory_bomb_is_stopped_at_the_default_gib(tmp_path: Path, level: Level | str | None) -> None:
    result, log = _game("membomb", tmp_path, limits=SLOW)
    held = max(int(m) for m in re.findall(r"holding (\d+) MiB", log))
    assert held <= 1024, log
    assert [f["kind"] for f in _faults(result, 0)] == ["crash"]
    assert result["forfeited"] == [0]
    _rival_unharmed(result)


@needs_walls
def test_a_big_file_stays_in_the_scratch_space_and_is_bounded(tmp_path: Path) -> None:
    work = tmp_path / "work"
    result, log = _game("bigfile", tmp_path, env={"HOSTILE_OUT": str(work)}, limits=SLOW)
    if MACHINE.root:  # the folders on the way to it are root's 0755, and the bot is nobody
        assert f"{work}/hostile-big.bin refused after 0 MiB" in log
    # A normal user's bot owns the folders made on the way to its working folder: under /tmp (as here) they are
    # in its scratch space, so what it writes there counts against the same 64 MiB, and never reaches the real one.
    written = [int(m) for m in re.findall(r"(\d+) MiB in /tmp", log)]
    assert max(written, default=0) <= 64, log
    assert not list(work.iterdir())
    # Python ignores SIGXFSZ, so the write fails with EFBIG (or the scratch space is full) and the bot
    # plays on: no fault, nothing left behind.
    assert re.search(r"/tmp/hostile-big.bin refused after \d+ MiB \(\[Errno (27|28)\]", log), log
    assert not _faults(result, 0)
    _rival_unharmed(result)


# ------------------------------------------------------------------------------------------ in an arena
@needs_walls
def test_in_a_three_bot_arena_the_attackers_change_nothing(tmp_path: Path) -> None:
    """A parent killer and a lingerer with a fair rival, two workers: every game played, nothing left running."""
    from referee.arena.config import parse_arena
    from referee.arena.runner import run_arena

    text = ("name: hostile\nseed: 3\nruleset: family\noptions: {target: round}\nseats: 3\ngames: 3\nbootstrap: 0\n"
            "limits: {move_ms: 2000, startup_ms: 20000}\nbots:\n"
            f"  - {{name: killer, command: '{PY} {HOSTILE} kill_parent'}}\n"
            f"  - {{name: lingerer, command: '{PY} {HOSTILE} linger'}}\n"
            f"  - {{name: rival, command: '{PY} {HOSTILE} good hostile-rival'}}\n"
            "  - builtin:medium\n")
    run = run_arena(parse_arena(text, base_dir=str(tmp_path)), out=str(tmp_path / "out"), jobs=2)
    games = [json.loads(line) for line in (tmp_path / "out" / "games.jsonl").read_text().splitlines()]
    assert run.complete and len(games) == 12
    assert [g["faults"] for g in games if g["faults"]] == []  # no worker died, no game lost
    logs = "".join(p.read_text() for p in (tmp_path / "out").rglob("*.log"))
    assert "ATTACK kill-parent: blocked" in logs and "ATTACK linger: started" in logs
    assert _running(b"hostile-linger") == []


@needs_walls
def test_a_referee_killed_outright_leaves_no_sandboxed_bot_or_escaped_child(tmp_path: Path) -> None:
    """``kill -9`` of ``lastcard match``: its watchdog kills the bubblewrap, whose namespace takes the rest."""
    proc = subprocess.Popen([sys.executable, "-m", "referee.cli.main", "match", "-n", "50", "--move-ms", "60000",
                             f"{PY} {HOSTILE} linger", "builtin:random"], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        assert wait_until(lambda: _running(b"hostile-linger")), "the bot never started its lingering child"
    finally:
        proc.kill()
        proc.wait()
    bot = f"{HOSTILE}\0linger".encode()
    assert wait_until(lambda: not _running(b"hostile-linger") and not _running(bot), within=30), \
        (_running(b"hostile-linger"), _running(bot))
