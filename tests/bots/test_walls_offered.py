"""What a normal user gets: a cgroup delegated by systemd used as the referee's own, and the level said once at the
start with the reason and the one command that would raise it (referee/bots/cgroups.py, referee/bots/offer.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.bots import cgroups, offer, sandbox
from referee.bots.sandbox import Machine
from tests.conftest import PY, ROOT

MACHINE = sandbox.machine()


# ------------------------------------------------------------------------------------------ a delegated cgroup
class FakeV2:
    """A cgroup v2 folder as the kernel keeps it, for the rules ``claim`` meets: a process is in one group, a group
    whose controllers are handed to children holds no process, and each child gets what its parent enabled."""

    def __init__(self, root: Path, pids: list[int], controllers: str = "cpu memory pids") -> None:
        self.root = root
        root.mkdir()
        (root / "cgroup.controllers").write_text(controllers)
        (root / "cgroup.subtree_control").write_text("")
        (root / "cgroup.procs").write_text("\n".join(map(str, pids)))

    def write(self, path: str, value: str) -> bool:
        folder, name = os.path.split(path)
        if name == "cgroup.procs":
            source = self.root / "cgroup.procs"
            left = [p for p in source.read_text().split() if p != value]
            source.write_text("\n".join(left))
            with open(path, "a") as fh:
                fh.write(value + "\n")
            return True
        if name == "cgroup.subtree_control":
            if (self.root / "cgroup.procs").read_text().split():
                return False  # EBUSY: the no-internal-processes rule
            wanted = {w.lstrip("+") for w in value.split()}
            have = set((self.root / "cgroup.subtree_control").read_text().split())
            (self.root / "cgroup.subtree_control").write_text(" ".join(sorted(have | wanted)))
            return True
        with open(path, "w") as fh:
            fh.write(value)
        return True


def _delegated_to_us(monkeypatch: pytest.MonkeyPatch, fake: FakeV2, mark: bytes | None = b"1") -> None:
    monkeypatch.setattr(cgroups, "_write", fake.write)
    real = os.getxattr

    def getxattr(path: str | os.PathLike[str], name: str, *args: object) -> bytes:
        if os.fspath(path) == str(fake.root) and name == "user.delegate" and mark is not None:
            return mark
        return real(path, name)

    monkeypatch.setattr(os, "getxattr", getxattr)


def test_a_delegated_scope_is_claimed_the_referee_moving_into_a_child(tmp_path, monkeypatch):
    """As systemd's CGROUP_DELEGATION.md asks: the scope's processes (the referee, the shell it was started with)
    go into ``referee/``, then the scope hands memory, pids and cpu to its children: the bots' groups."""
    fake = FakeV2(tmp_path / "run-u7.scope", [os.getpid(), 4242])
    _delegated_to_us(monkeypatch, fake)
    assert cgroups._v2_parent(str(fake.root)) == str(fake.root)
    assert (fake.root / "cgroup.procs").read_text().split() == []
    assert sorted((fake.root / "referee" / "cgroup.procs").read_text().split()) == sorted([str(os.getpid()), "4242"])
    assert set((fake.root / "cgroup.subtree_control").read_text().split()) == {"cpu", "memory", "pids"}
    # A worker process started afterwards is in referee/: its bots' groups go beside it, in the scope.
    assert cgroups._v2_parent(str(fake.root / "referee")) == str(fake.root)


@pytest.mark.parametrize(("mark", "controllers"), [
    pytest.param(None, "cpu memory pids", id="a group systemd did not delegate (a login session's scope)"),
    pytest.param(b"1", "cpu", id="delegated without the memory and pids controllers"),
])
def test_a_group_not_delegated_with_its_controllers_is_left_as_it_is(tmp_path, monkeypatch, mark, controllers):
    fake = FakeV2(tmp_path / "session-3.scope", [os.getpid()], controllers)
    _delegated_to_us(monkeypatch, fake, mark)
    assert cgroups._v2_parent(str(fake.root)) is None
    assert (fake.root / "cgroup.procs").read_text().split() == [str(os.getpid())]
    assert not (fake.root / "referee").exists()
    assert (fake.root / "cgroup.subtree_control").read_text() == ""


# ------------------------------------------------------------------------------------------ the one command
def test_each_platform_s_shortfall_names_its_one_command(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "platform", "linux")
    assert offer.no_bwrap().remedy == "sudo apt-get install bubblewrap"
    restricted = tmp_path / "apparmor"
    restricted.write_text("1\n")
    monkeypatch.setattr(offer, "APPARMOR_USERNS", str(restricted))
    ubuntu = offer.bwrap_fails("bwrap: setting up uid map: Permission denied")
    assert "AppArmor" in ubuntu.problem and "uid map" in ubuntu.problem
    assert ubuntu.remedy == "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"
    monkeypatch.setattr(sys, "platform", "darwin")
    mac = offer.no_bwrap()
    assert mac.remedy == "" and "Linux virtual machine" in mac.problem
    # Under systemd with cgroup v2, a scope with delegation: the user's own manager's from a login session, the
    # system's for root (whose session's group is systemd's too). Without systemd (cgroup v1), root makes them.
    monkeypatch.setattr(offer, "systemd", lambda: True)
    monkeypatch.setattr(offer, "systemd_user_manager", lambda: True)
    assert offer.no_cgroups(root=False, unified=True).remedy == "systemd-run --user --scope -p Delegate=yes {command}"
    assert offer.no_cgroups(root=True, unified=True).remedy == "systemd-run --scope -p Delegate=yes {command}"
    monkeypatch.setattr(offer, "systemd_user_manager", lambda: False)
    assert offer.no_cgroups(root=False, unified=True).remedy == "sudo systemd-run --scope -p Delegate=yes {command}"
    monkeypatch.setattr(offer, "systemd", lambda: False)
    assert offer.no_cgroups(root=False, unified=False).remedy == "sudo {command}"
    assert offer.no_cgroups(root=True, unified=False).remedy == ""
    line = offer.fill("systemd-run --user --scope -p Delegate=yes {command}",
                      [".venv/bin/lastcard", "arena", "my class.yaml"])
    assert line == "systemd-run --user --scope -p Delegate=yes .venv/bin/lastcard arena 'my class.yaml'"


@pytest.mark.slow
def test_the_level_the_reason_and_the_command_are_said_once_at_the_start(monkeypatch):
    """``lastcard match`` as a normal user on a machine without delegated cgroups: one note before the games."""
    from click.testing import CliRunner

    from referee.cli.main import cli

    walls = Machine(bwrap="/usr/bin/bwrap", setpriv=None, prlimit="/usr/bin/prlimit", root=False, hierarchy=None,
                    problems=(offer.no_cgroups(root=False, unified=False).problem,), remedy="sudo {command}")
    monkeypatch.setattr(sandbox, "machine", lambda: walls)
    monkeypatch.setattr(sys, "argv", ["/home/t/.venv/bin/lastcard", "match", "-n", "2"])
    bot = f"{PY} {ROOT}/sample_bots/python/random_bot.py"
    res = CliRunner().invoke(cli, ["match", "builtin:easy", bot, bot, "-n", "2", "--sandbox", "none"])
    assert "level" not in res.output  # sandbox: none asks for nothing, and is told nothing
    monkeypatch.setattr(sandbox, "effective_level", lambda settings, probe=None: sandbox.Level.WALLS)
    res = CliRunner().invoke(cli, ["match", "builtin:easy", bot, bot, "-n", "2"])
    assert res.output.count("sandbox: bots run at level walls (no writable cgroups") == 1, res.output
    assert res.output.count("To raise it: sudo /home/t/.venv/bin/lastcard match -n 2") == 1, res.output
    assert res.output.index("To raise it") < res.output.index("rank"), res.output


@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() == 0, reason="what a normal user gets: CI runs this file as one (.ci/run)")
def test_a_normal_user_gets_walls_or_full_and_is_told_which(tmp_path):
    """Run as the user CI makes: bubblewrap's walls as an unprivileged user, cgroup limits only with a delegated
    group; the level is recorded, and anything below full is explained once, with the command that raises it."""
    bot = f"{PY} {ROOT}/sample_bots/python/random_bot.py"
    run = subprocess.run([str(Path(PY).parent / "lastcard"), "match", "builtin:easy", f"py={bot}", "-n", "1",
                          "--out", "out"], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    expected = "full" if MACHINE.hierarchy is not None else "walls" if MACHINE.walls else "limits"
    assert json.loads((tmp_path / "out" / "results.json").read_text())["sandbox_levels"] == {"py": [expected]}
    if expected == "full":
        assert "sandbox: bots run at level" not in run.stderr, run.stderr
    else:
        assert run.stderr.count(f"sandbox: bots run at level {expected} (") == 1, run.stderr
        assert run.stderr.count("To raise it: ") == 1, run.stderr


@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() == 0 or not MACHINE.walls,
                    reason="a normal user's bot in bubblewrap's user namespace: CI runs this file as one (.ci/run)")
def test_a_normal_user_s_bot_has_a_process_limit_of_its_own_whatever_the_user_runs_beside_it():
    """The process limit is set inside the bot's user namespace, where the kernel counts it per namespace: the
    user's own processes outside do not count, so a bot still starts when they outnumber its limit."""
    import time

    from referee.bots.pipes.transport import PipeTransport
    from referee.bots.sandbox import Mode, SandboxSettings
    from referee.bots.spec import parse_bot

    beside = [subprocess.Popen(["sleep", "60"]) for _ in range(12)]
    spec = parse_bot(f"{PY} {ROOT}/sample_bots/python/random_bot.py")
    t = PipeTransport(spec.argv, cwd=None, sandbox=SandboxSettings(mode=Mode.STRICT, processes=8))
    try:
        t.write(b'{"type":"hello","protocol":1,"seat":0,"id":1}\n', time.monotonic() + 30)
        assert b'"ready"' in t.read_line(time.monotonic() + 30)
        assert t.sandbox_level in ("walls", "full")
    finally:
        t.close(0)
        for p in beside:
            p.kill()
            p.wait()
