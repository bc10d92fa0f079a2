"""SIGINT and SIGTERM at any moment of a run end with one line, the resume command and exit status 130:
during the imports, a bot's build, workers spawning, the games, the final fit; no worker prints a traceback."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from referee.arena import runner
from tests.conftest import ROOT
from tests.support.cli_cut import invoke_cut
from tests.support.procs import alive, children, cmdline, groups_running, wait_until

pytestmark = pytest.mark.slow

LONG_MATCH = ["match", "-n", "2000000", "builtin:easy", "builtin:random", "--no-report"]


def _start(args: list[str], cwd: Path, prelude: str = "") -> subprocess.Popen:
    """``lastcard ARGS`` as the installed program starts it (``cli/entry.py``), in its own process group."""
    code = f"{prelude}\nfrom referee.cli.entry import main\nsys.argv[0] = 'lastcard'\nmain()"
    return subprocess.Popen([sys.executable, "-c", "import sys\n" + code, *args], cwd=str(cwd), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})


def _ended(proc: subprocess.Popen) -> tuple[str, str]:
    try:
        return proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:  # the test failed half-way: never leave the referee running
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()


def _clean(err: str) -> None:
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


def test_a_signal_during_the_imports_is_one_line(tmp_path):
    """A SIGTERM sent while the commands are being imported (here: by the import itself, so it is certain)."""
    prelude = ("import importlib.abc, os, signal\n"
               "class Stop(importlib.abc.MetaPathFinder):\n"
               "    def find_spec(self, name, path, target=None):\n"
               "        if name == 'referee.cli.main':\n"
               "            os.kill(os.getpid(), signal.SIGTERM)\n"
               "        return None\n"
               "sys.meta_path.insert(0, Stop())")
    proc = _start(LONG_MATCH, tmp_path, prelude)
    _, err = _ended(proc)
    assert proc.returncode == 130
    assert err.strip() == "interrupted while starting: nothing was played or written"


def test_a_signal_during_a_build_stops_it_and_says_how_to_resume(tmp_path):
    (tmp_path / "arena.yaml").write_text("name: b\nseats: 2\ngames: 2\nbots:\n  - builtin:random\n"
                                         "  - {name: slow, command: 'true', build: 'sleep 120 # lastcard-build'}\n")
    proc = _start(["arena", "arena.yaml", "--out", "out", "--no-report"], tmp_path)
    assert wait_until(lambda: [p for p in children(proc.pid) if alive(p)] and
                      any(b"sleep" in cmdline(c)  # b"" once gone
                          for c in _descendants(proc.pid)), within=60)
    proc.send_signal(signal.SIGINT)
    _, err = _ended(proc)
    assert proc.returncode == 130, err
    _clean(err)
    # Built beside the first games (where that leaves a core free: runner.builds_beside_pays), the interrupt comes as
    # they are played (none here: each seats the bot building); built first, before them.
    assert re.fullmatch(r"interrupted: (0 of 2 games|the games played) saved; resume with: lastcard arena arena.yaml "
                        r"--out out --no-report --resume", err.strip().splitlines()[-1]), err


def test_a_signal_while_the_probe_waits_for_a_bot_stops_it_at_once(tmp_path):
    """The probe starts each bot beside the first games; a bot that never says ``ready`` (here within ten minutes)
    must not hold a Ctrl-C up: the bot is killed and the run stops with the resume command."""
    marker = f"probe-{os.getpid()}-{tmp_path.name}"  # this test's bot only
    bot = f"{sys.executable} {ROOT / 'tests' / 'support' / 'fault_bots' / 'misbehave.py'} never_ready {marker}"
    (tmp_path / "arena.yaml").write_text(f"name: p\nseats: 2\ngames: 2\nlimits: {{startup_ms: 600000}}\n"
                                         f"bots:\n  - builtin:random\n  - {{name: mute, command: '{bot}'}}\n")
    proc = _start(["arena", "arena.yaml", "--out", "out", "--no-report"], tmp_path)
    assert wait_until(lambda: any(b"never_ready" in cmdline(c) for c in _descendants(proc.pid)), within=60)
    proc.send_signal(signal.SIGINT)
    _, err = _ended(proc)  # before: the probe waited out the bot's ten minutes (the test's 120 s ran out first)
    assert proc.returncode == 130, err
    _clean(err)
    assert re.fullmatch(r"interrupted: \d+ of 2 games saved; resume with: lastcard arena arena.yaml --out out "
                        r"--no-report --resume", err.strip().splitlines()[-1]), err
    assert wait_until(lambda: not groups_running(marker.encode()), within=30), "the probe left its bot running"


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        kids = children(todo.pop())
        out += kids
        todo += kids
    return out


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGINT"])
def test_a_signal_while_workers_spawn_leaves_no_worker_and_no_traceback(tmp_path, signame):
    proc = _start([*LONG_MATCH, "--jobs", "8", "--out", "out"], tmp_path)
    assert wait_until(lambda: children(proc.pid), within=60, step=0.005), "no worker ever started"
    os.killpg(proc.pid, getattr(signal, signame))  # the whole group, as a terminal does
    workers = children(proc.pid)
    _, err = _ended(proc)
    assert proc.returncode == 130, err
    _clean(err)
    assert "resume with: lastcard match -n 2000000" in err.strip().splitlines()[-1]
    assert wait_until(lambda: not [w for w in workers if alive(w)], within=30), "a worker outlived the referee"


def test_a_signal_during_the_games_prints_the_standings_and_the_resume_command(tmp_path):
    proc = _start([*LONG_MATCH, "--jobs", "2", "--out", "out"], tmp_path)
    games = tmp_path / "out" / "games.jsonl"
    assert wait_until(lambda: games.exists() and len(games.read_text().splitlines()) >= 5, within=90)
    proc.send_signal(signal.SIGTERM)
    out, err = _ended(proc)
    assert proc.returncode == 130, err
    _clean(err)
    assert "rank" in out  # the standings so far
    played = len(games.read_text().splitlines())
    assert err.strip().splitlines()[-1] == (f"interrupted: {played:,} of 2,000,000 games saved; resume with: "
                                            "lastcard match -n 2000000 builtin:easy builtin:random --no-report "
                                            "--jobs 2 --out out --resume")


def test_an_interrupt_during_the_final_fit_is_one_line_and_resume_finishes(tmp_path, monkeypatch):
    """Ctrl-C as the standings are fitted after the last game: all is stored, --resume writes the results."""
    real = runner.standings_for
    calls = []

    def interrupted_fit(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(runner, "standings_for", interrupted_fit)
    out = tmp_path / "out"
    args = ["match", "-n", "4", "--out", str(out), "--no-report", "builtin:easy", "builtin:random"]
    first = invoke_cut(args, 60)
    assert first.exit_code == 130, first.output
    assert first.output.strip().splitlines()[-1] == ("interrupted: the games played saved; resume with: lastcard "
                                                     + " ".join(args) + " --resume")
    again = invoke_cut([*args, "--resume"], 60)
    assert again.exit_code == 0, again.output
    assert "resuming: 4 of 4 games already played" in again.output and '"complete": true' in (
        out / "results.json").read_text()
