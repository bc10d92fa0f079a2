"""The sandbox module without hostile bots: settings, levels, folders, the wrapped command, runtimes inside."""

from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path

import pytest

from referee.bots import cgroups, sandbox
from referee.bots.pipes.transport import PipeTransport
from referee.bots.sandbox import Launch, Level, Machine, Mode, SandboxSettings, SandboxUnavailable
from referee.bots.spec import BotSpec, parse_bot
from tests.conftest import PY, ROOT, need

MACHINE = sandbox.machine()
needs_walls = pytest.mark.skipif(not MACHINE.walls, reason="no sandbox walls here: " + "; ".join(MACHINE.problems))
BARE = Machine(bwrap=None, setpriv=None, prlimit=None, root=False, hierarchy=None,
               problems=("bubblewrap (bwrap) is not installed: apt-get install bubblewrap",))


# ------------------------------------------------------------------------------------------ settings
def test_settings_default_to_auto_with_the_documented_limits() -> None:
    s = SandboxSettings()
    assert (s.mode, s.memory_mb, s.processes, s.file_size_mb, s.open_files) == (Mode.AUTO, 1024, 64, 64, 256)
    assert BotSpec("b", "python3 b.py").sandbox == s  # walls on by default


@pytest.mark.parametrize("data, words", [
    ({"memory": 5}, "unknown sandbox setting 'memory'; known: build_disk_mb, build_memory_mb"),
    ({"memory_mb": -1}, "memory_mb must be a positive number (or null for no limit), not -1"),
    ({"processes": True}, "processes must be a positive number"),
    ({"mode": "paranoid"}, "unknown sandbox mode 'paranoid': use auto, strict or none"),
], ids=["unknown-key", "negative", "bool", "mode"])
def test_bad_settings_are_refused_naming_the_value_and_the_fix(data: dict, words: str) -> None:
    with pytest.raises(ValueError) as info:
        SandboxSettings.from_json(data)
    assert words in str(info.value)


def test_settings_travel_with_the_bot_spec() -> None:
    spec = replace(parse_bot("python3 bot.py"), sandbox=SandboxSettings(mode=Mode.STRICT, memory_mb=256, cpus=None))
    again = BotSpec.from_json(spec.to_json())
    assert again == spec and again.sandbox.mode is Mode.STRICT and again.sandbox.cpus is None


# ------------------------------------------------------------------------------------------ levels
def test_levels_follow_what_the_machine_offers() -> None:
    walls = replace(BARE, bwrap="/usr/bin/bwrap", setpriv="/usr/bin/setpriv", problems=())
    with_cgroups = replace(walls, hierarchy=cgroups.Hierarchy(1, (("pids", "/x"),)))
    assert sandbox.effective_level(SandboxSettings(), BARE) is Level.LIMITS
    assert sandbox.effective_level(SandboxSettings(), walls) is Level.WALLS
    assert sandbox.effective_level(SandboxSettings(), with_cgroups) is Level.FULL
    assert sandbox.effective_level(SandboxSettings(mode=Mode.NONE), with_cgroups) is Level.NONE
    # Root without setpriv would leave the bot root: that is not walls.
    assert sandbox.effective_level(SandboxSettings(), replace(walls, root=True, setpriv=None)) is Level.LIMITS


def test_strict_refuses_a_machine_without_walls_saying_what_is_missing() -> None:
    with pytest.raises(SandboxUnavailable) as info:
        sandbox.effective_level(SandboxSettings(mode=Mode.STRICT), BARE)
    assert "apt-get install bubblewrap" in str(info.value) and "--sandbox auto" in str(info.value)


def test_a_strict_bot_on_a_machine_without_walls_is_a_startup_fault(monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.bots.pipes.client import BotClient
    from referee.protocol.faults import BotFault

    monkeypatch.setattr(sandbox, "machine", lambda: BARE)
    client = BotClient(replace(parse_bot(f"{PY} {ROOT}/sample_bots/python/random_bot.py"),
                               sandbox=SandboxSettings(mode=Mode.STRICT)))
    with pytest.raises(BotFault) as info:
        client.start()
    assert info.value.fault.kind.value == "startup" and "sandbox: strict" in info.value.fault.message


# ------------------------------------------------------------------------------------------ folders
def test_the_bot_s_folders_are_its_command_s_folders_and_its_interpreter_s(tmp_path: Path) -> None:
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "main.py").write_text("")
    (tmp_path / "lib").mkdir()
    folders = sandbox.bot_view([PY, "bot/main.py", f"--path={tmp_path}/lib", "--fast"], str(tmp_path)).roots
    assert str(tmp_path / "bot") in folders and str(tmp_path / "lib") in folders
    installation = os.path.dirname(os.path.dirname(os.path.realpath(PY)))
    # The interpreter's installation, unless the system's (Debian's /usr/bin/python3: /usr is always shown).
    assert installation in folders or sandbox._is_system(installation), (installation, folders)
    assert not any(f in ("/", os.path.expanduser("~")) or f.startswith("/usr/") for f in folders)


def test_the_wrapped_command_joins_the_cgroups_first_and_drops_root_last(tmp_path: Path) -> None:
    launch = Launch(SandboxSettings())
    try:
        argv, env = launch.wrap([PY, "bot.py"], cwd=str(tmp_path), env={"K": "v"}, shell=False)
    finally:
        launch.cleanup()
    assert argv[-2:] == [PY, "bot.py"]
    assert env["K"] == "v" and env["HOME"] == "/tmp" and "VIRTUAL_ENV" not in env
    if launch.level in (Level.FULL, Level.WALLS):
        assert "--unshare-net" in argv and "--unshare-pid" in argv
        if MACHINE.root:
            assert argv[argv.index("--", argv.index("--unshare-net")) + 1].endswith("setpriv")
    if launch.level is Level.FULL:
        assert argv[:2] == ["/bin/sh", "-c"] and "cgroup.procs" in argv[2]


# ------------------------------------------------------------------------------------------ runtimes inside
def _hello(command: str, cwd: str | None = None) -> tuple[str, bytes]:
    spec = parse_bot(command)
    t = PipeTransport(spec.argv, cwd=cwd, sandbox=SandboxSettings(mode=Mode.STRICT))
    try:
        t.write(b'{"type":"hello","protocol":1,"seat":0,"id":1}\n', time.monotonic() + 30)
        return t.sandbox_level, t.read_line(time.monotonic() + 30)
    finally:
        t.close(0)


@pytest.mark.slow
@needs_walls
@pytest.mark.parametrize("lang", ["python", "node", "java", "c"])
def test_every_sample_runtime_starts_inside_the_walls(lang: str, tmp_path: Path) -> None:
    from tests.conftest import c_bot

    samples = ROOT / "sample_bots"
    if lang == "python":
        level, line = _hello(f"{PY} {samples}/python/random_bot.py")
    elif lang == "node":
        need("node")
        level, line = _hello(f"node {samples}/js/bot.js")
    elif lang == "java":
        need("java")
        level, line = _hello("java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC Bot.java", cwd=str(samples / "java"))
    else:
        level, line = _hello(c_bot())
    assert level in ("full", "walls") and b'"ready"' in line


@pytest.mark.slow
@needs_walls
def test_the_scratch_space_is_private_and_gone_afterwards() -> None:
    # Each bot leaves a mark in its /tmp and lists it. (The listing may also hold the bind of a checkout that
    # lives under /tmp, as a CI clone may: only the marks matter.)
    script = ("import os, sys; open('/tmp/' + sys.argv[1], 'w').write('x'); "
              "print(' '.join(n for n in os.listdir('/tmp') if n.startswith('lastcard-mark')), flush=True)")
    first = PipeTransport([PY, "-c", script, "lastcard-mark-1"], sandbox=SandboxSettings())
    try:
        assert first.read_line(time.monotonic() + 30) == b"lastcard-mark-1"
        second = PipeTransport([PY, "-c", script, "lastcard-mark-2"], sandbox=SandboxSettings())
        try:
            assert second.read_line(time.monotonic() + 30) == b"lastcard-mark-2"  # not the first one's
        finally:
            second.close(0)
    finally:
        first.close(0)
    assert not os.path.exists("/tmp/lastcard-mark-1") and not os.path.exists("/tmp/lastcard-mark-2")


@pytest.mark.slow
def test_none_is_today_s_behaviour() -> None:
    t = PipeTransport([PY, "-c", "import os; print(os.environ.get('LASTCARD_SANDBOX'), os.getuid(), flush=True)"],
                      sandbox=SandboxSettings(mode=Mode.NONE))
    try:
        assert t.read_line(time.monotonic() + 30) == f"None {os.getuid()}".encode()
        assert t.sandbox_level == "none"
    finally:
        t.close(0)


# ------------------------------------------------------------------------------------------ arena keys and --sandbox
def test_the_arena_s_sandbox_is_the_default_and_a_bot_s_own_wins() -> None:
    from referee.arena.config import parse_arena

    arena = parse_arena("seats: 2\ngames: 1\nsandbox: {mode: strict, memory_mb: 512}\nbots:\n"
                        "  - {name: a, command: python3 a.py, sandbox: {processes: 10}}\n"
                        "  - {name: b, command: python3 b.py}\n"
                        "  - {name: c, command: python3 c.py, sandbox: none}\n")
    got = {b.spec.name: b.spec.sandbox for b in arena.bots}
    assert got["a"] == SandboxSettings(mode=Mode.STRICT, memory_mb=512, processes=10)
    assert got["b"] == SandboxSettings(mode=Mode.STRICT, memory_mb=512)
    assert got["c"].mode is Mode.NONE


@pytest.mark.parametrize("value, words", [
    ("paranoid", "unknown sandbox mode 'paranoid': use auto, strict or none"),
    ("{memory: 5}", "unknown sandbox setting 'memory'; known: build_disk_mb"),
    ("{open_files: 0}", "open_files must be a positive number"),
])
def test_a_bad_sandbox_key_is_named_with_its_line(value: str, words: str) -> None:
    from referee.arena.config import ArenaFileError, parse_arena

    with pytest.raises(ArenaFileError) as info:
        parse_arena(f"seats: 2\ngames: 1\nsandbox: {value}\nbots: [builtin:hard, builtin:random]\n")
    assert words in str(info.value) and "(line 3)" in str(info.value)


@pytest.mark.slow
def test_strict_on_a_machine_without_walls_stops_the_command_with_status_2(monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from referee.cli.main import cli

    monkeypatch.setattr(sandbox, "machine", lambda: BARE)
    bot = f"{PY} {ROOT}/sample_bots/python/random_bot.py"
    for args in (["match", "builtin:hard", bot, "-n", "1"], ["check", bot, "-n", "0"]):
        res = CliRunner().invoke(cli, [*args, "--sandbox", "strict"])
        assert res.exit_code == 2 and "apt-get install bubblewrap" in res.output, res.output
    res = CliRunner().invoke(cli, ["match", "builtin:hard", bot, "-n", "1"])
    assert res.exit_code == 0 and "sandbox: bots run at level limits (bubblewrap" in res.output, res.output


def test_a_program_loose_in_tmp_is_shown_alone_not_its_neighbours(tmp_path: Path) -> None:
    loose = Path("/tmp") / f"lastcard-sandbox-test-{os.getpid()}"
    loose.write_text("")
    try:
        assert sandbox.bot_view([str(loose)], "/").roots == (str(loose),)
        assert sandbox.bot_view(["python3", str(loose)], "/").roots == (str(loose),)
    finally:
        loose.unlink()


@pytest.mark.slow
def test_a_missing_program_fails_to_start_as_it_would_without_the_sandbox(tmp_path: Path) -> None:
    for settings in (SandboxSettings(), SandboxSettings(mode=Mode.NONE)):
        with pytest.raises(FileNotFoundError) as info:
            PipeTransport(["./no/such/bot"], cwd=str(tmp_path), sandbox=settings)
        assert "No such file or directory: './no/such/bot'" in str(info.value)


def test_a_program_only_the_referee_s_path_finds_is_run_by_its_full_path(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    program = tmp_path / "my-own-bot"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    assert sandbox._program(["my-own-bot", "x"], "/") == [str(program), "x"]
    assert sandbox._program(["sh", "x"], "/") == ["sh", "x"]  # found inside too: left as written


@pytest.mark.slow
@needs_walls
def test_a_walled_bot_that_exits_left_nothing_behind_it():
    """bubblewrap's own process inside holds the bot's stdout a moment after the bot's exit is seen: that is no
    process the bot left running, so the exit is described plainly (it was "leaving processes it started that held
    its pipes" about one time in ten). Twenty bots that exit at once, each without a trace."""
    from referee.bots.pipes.transport import Closed

    described = []
    for _ in range(20):
        t = PipeTransport([PY, "-c", "import sys; sys.exit(2)"], sandbox=SandboxSettings())
        try:
            t.write(b'{"type":"hello"}\n', time.monotonic() + 10)
            t.read_line(time.monotonic() + 10)
        except Closed:
            pass
        described.append(t.exit_description())
        t.close(0)
    assert described == ["exit code 2"] * 20


def test_a_build_runs_under_its_own_limits_which_round_trip_when_set() -> None:
    s = SandboxSettings(mode=Mode.STRICT, cpus=2.0, open_files=None)
    b = s.for_build()
    assert (b.mode, b.cpus, b.memory_mb, b.processes, b.file_size_mb, b.scratch_mb, b.cpu_seconds, b.open_files) == \
        (Mode.STRICT, 2.0, 2048, 256, 512, 512, None, None)  # the documented build defaults; null stays null
    assert not any(k.startswith("build_") for k in s.to_json())  # at their defaults: a bot's JSON as before
    changed = SandboxSettings(build_disk_mb=64, build_memory_mb=None)
    assert SandboxSettings.from_json(changed.to_json()) == changed
    with pytest.raises(ValueError, match="build_disk_mb cannot be null"):
        SandboxSettings(build_disk_mb=None)  # type: ignore[arg-type]
