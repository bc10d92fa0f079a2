"""A bot that needs something, from the command line and sandboxed (issue 52 item 4): ``{python}`` in ``match``,
the interpreter an activated venv's PATH finds, ``--bot-env``/``--bot-path`` and an arena file's ``env:``/``paths:``,
and what the walls hid said under a failed bot's stderr (referee/bots/needs.py, referee/bots/walls_hint.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.bots import sandbox
from referee.cli.main import cli
from tests.conftest import SAMPLES

pytestmark = pytest.mark.slow  # every test starts bots

MACHINE = sandbox.machine()
needs_walls = pytest.mark.skipif(not MACHINE.walls, reason="no sandbox walls here: " + "; ".join(MACHINE.problems))

#: A bot that reads the file NEEDY_FILE names and imports the module NEEDY_MODULE names, then plays as the random
#: sample bot: it starts only when it is given what it needs.
NEEDY = """\
import os, runpy
if os.environ.get("NEEDY_FILE"):
    open(os.environ["NEEDY_FILE"]).read()
if os.environ.get("NEEDY_MODULE"):
    __import__(os.environ["NEEDY_MODULE"])
runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "random_bot.py"), run_name="__main__")
"""


@pytest.fixture
def world(tmp_path: Path) -> Path:
    """``bot/needy.py`` (and the random bot it plays as) and ``data/w.txt``, a file outside the bot's folder."""
    (tmp_path / "bot").mkdir()
    (tmp_path / "data").mkdir()
    shutil.copy(SAMPLES / "python" / "random_bot.py", tmp_path / "bot")
    (tmp_path / "bot" / "needy.py").write_text(NEEDY)
    (tmp_path / "data" / "w.txt").write_text("7\n")
    return tmp_path


def match(world: Path, *args: str) -> tuple[int, str]:
    """``lastcard match`` from ``world`` (sandboxed: auto), its exit code and its output."""
    old = os.getcwd()
    os.chdir(world)
    try:
        res = CliRunner().invoke(cli, ["match", "-n", "2", "--seed", "3", *args])
    finally:
        os.chdir(old)
    return res.exit_code, res.output


@needs_walls
def test_python_placeholder_in_match(world: Path) -> None:
    code, out = match(world, "{python} bot/needy.py", "builtin:easy")
    assert code == 0, out
    assert "env: '{python}'" not in out and "never started" not in out


@needs_walls
def test_a_file_outside_is_hidden_and_the_fix_is_named(world: Path) -> None:
    data = world / "data" / "w.txt"
    code, out = match(world, "{python} bot/needy.py", "builtin:easy", "--bot-env", f"NEEDY_FILE={data}")
    assert code != 0
    assert "No such file or directory" in out  # the bot's own words
    assert f"the walls hid '{data}', which exists outside them" in out
    assert f"--bot-path {world / 'data'}" in out
    assert "--sandbox none" in out


@needs_walls
def test_bot_path_shows_the_file_and_bot_env_reaches_one_bot(world: Path) -> None:
    data = world / "data" / "w.txt"
    code, out = match(world, "{python} bot/needy.py", "builtin:easy", "--bot-env", f"needy:NEEDY_FILE={data}",
                      "--bot-path", "needy:data")
    assert code == 0, out
    assert "never started" not in out


def test_bot_env_naming_no_bot_is_a_usage_error(world: Path) -> None:
    code, out = match(world, "{python} bot/needy.py", "builtin:easy", "--bot-env", "other:X=1")
    assert code == 2
    assert "no bot of this run is called 'other'" in out and "needy" in out


def test_bot_path_that_does_not_exist_is_a_usage_error(world: Path) -> None:
    code, out = match(world, "{python} bot/needy.py", "builtin:easy", "--bot-path", "nowhere")
    assert code == 2
    assert "'nowhere' does not exist" in out


def test_bot_path_showing_everyone_is_refused(world: Path) -> None:
    code, out = match(world, "{python} bot/needy.py", "builtin:easy", "--bot-path", "/home")
    assert code == 2
    assert "other people's files" in out


@needs_walls
def test_a_missing_module_names_the_python_and_the_fix(world: Path) -> None:
    code, out = match(world, "{python} bot/needy.py", "builtin:easy", "--bot-env", "NEEDY_MODULE=no_such_mod_52")
    assert code != 0
    assert "the walls may have hidden the Python module 'no_such_mod_52'" in out
    assert "--bot-path DIR" in out and "PYTHONPATH=DIR" in out


@needs_walls
def test_the_python_an_activated_venv_finds_is_the_one_inside(world: Path) -> None:
    """The trap: ``python3 bot.py`` with a venv activated ran the system's Python inside the walls."""
    venv.EnvBuilder(with_pip=False, symlinks=True).create(world / "venv")
    site = next((world / "venv" / "lib").glob("python3*/site-packages"))
    (site / "venv_only_52.py").write_text("X = 1\n")
    env = {**os.environ, "PATH": f"{world / 'venv' / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    lastcard = [sys.executable, "-m", "referee.cli.main"]
    args = ["match", "-n", "2", "--seed", "3", "python3 bot/needy.py", "builtin:easy",
            "--bot-env", "NEEDY_MODULE=venv_only_52"]
    run = subprocess.run([*lastcard, *args], cwd=world, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "never started" not in run.stdout + run.stderr
    plain = {**os.environ}  # without the venv: the module is not there, and the walls' lines say so
    run = subprocess.run([*lastcard, *args], cwd=world, env=plain, capture_output=True, text=True, timeout=120)
    assert run.returncode != 0
    assert "the walls may have hidden the Python module 'venv_only_52'" in run.stdout + run.stderr


@needs_walls
def test_arena_file_env_and_paths(world: Path) -> None:
    (world / "a.yaml").write_text(
        "name: needs\ngames: 2\nseats: 2\nbots:\n"
        "  - name: needy\n    command: \"{python} bot/needy.py\"\n    env: {NEEDY_FILE: data/w.txt}\n"
        "    paths: [data]\n"
        "  - builtin:easy\n")
    res = CliRunner().invoke(cli, ["arena", str(world / "a.yaml"), "--out", str(world / "out")])
    assert res.exit_code == 0, res.output
    assert "never started" not in res.output and "left out" not in res.output


def test_arena_file_paths_that_do_not_exist(world: Path) -> None:
    (world / "a.yaml").write_text(
        "name: needs\ngames: 2\nseats: 2\nbots:\n"
        "  - name: needy\n    command: \"{python} bot/needy.py\"\n    paths: [nowhere]\n"
        "  - builtin:easy\n")
    res = CliRunner().invoke(cli, ["validate", str(world / "a.yaml")])
    assert res.exit_code == 2
    assert "paths" in res.output and "'nowhere' does not exist" in res.output


@needs_walls
def test_compare_takes_bot_env_and_bot_path(world: Path) -> None:
    data = world / "data" / "w.txt"
    old = os.getcwd()
    os.chdir(world)
    try:
        res = CliRunner().invoke(cli, ["compare", "{python} bot/needy.py", "builtin:random", "--games", "2",
                                       "--bot-env", f"NEEDY_FILE={data}", "--bot-path", "data", "-q"])
    finally:
        os.chdir(old)
    assert res.exit_code == 0, res.output
    assert "never started" not in res.output and "could not start" not in res.output
    os.chdir(world)
    try:  # without --bot-path: the bot fails, and the walls' lines say why and the fix
        res = CliRunner().invoke(cli, ["compare", "{python} bot/needy.py", "builtin:random", "--games", "2",
                                       "--bot-env", f"NEEDY_FILE={data}", "-q"])
    finally:
        os.chdir(old)
    assert res.exit_code != 0
    assert f"the walls hid '{data}'" in res.output and f"--bot-path {world / 'data'}" in res.output


@needs_walls
def test_a_version_managers_shim_runs_the_python_it_picks(world: Path) -> None:
    """``python3`` found as a pyenv-style shim: the walls run the version the manager picks (its tree stays
    hidden), here a venv holding a module the system's Python lacks."""
    venv.EnvBuilder(with_pip=False, symlinks=True).create(world / "venv")
    site = next((world / "venv" / "lib").glob("python3*/site-packages"))
    (site / "shim_only_52.py").write_text("X = 1\n")
    real = world / "venv" / "bin" / "python3"
    manager = world / ".fakeenv" / "libexec" / "fakeenv"
    manager.parent.mkdir(parents=True)
    manager.write_text(f'#!/bin/sh\ncase "$1" in\n  which) echo {real} ;;\n'
                       f'  exec) shift 2; exec {real} "$@" ;;\nesac\n')
    manager.chmod(0o755)
    shim = world / ".fakeenv" / "shims" / "python3"
    shim.parent.mkdir()
    shim.write_text(f'#!/usr/bin/env bash\nset -e\nprogram="${{0##*/}}"\nexport PYENV_ROOT="{world / ".fakeenv"}"\n'
                    f'exec "{manager}" exec "$program" "$@"\n')
    shim.chmod(0o755)
    env = {**os.environ, "PATH": f"{shim.parent}{os.pathsep}{os.environ['PATH']}"}
    run = subprocess.run([sys.executable, "-m", "referee.cli.main", "match", "-n", "2", "--seed", "3",
                          "python3 bot/needy.py", "builtin:easy", "--bot-env", "NEEDY_MODULE=shim_only_52"],
                         cwd=world, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "never started" not in run.stdout + run.stderr


@needs_walls
def test_check_says_what_the_walls_hid_and_takes_bot_path(world: Path) -> None:
    data = world / "data" / "w.txt"
    (world / "bot" / "fixed.py").write_text(f"open({str(data)!r}).read()\n" + NEEDY)
    old = os.getcwd()
    os.chdir(world)
    try:
        failed = CliRunner().invoke(cli, ["check", "{python} bot/fixed.py", "--ruleset", "compact", "--games", "2"])
        fixed = CliRunner().invoke(cli, ["check", "{python} bot/fixed.py", "--ruleset", "compact", "--games", "2",
                                         "--bot-path", "data"])
    finally:
        os.chdir(old)
    assert failed.exit_code == 1
    assert f"walls: the walls hid '{data}'" in failed.output and f"--bot-path {world / 'data'}" in failed.output
    assert fixed.exit_code == 0, fixed.output


@needs_walls
def test_an_arena_bot_left_out_by_the_walls_gets_the_fix_in_its_report(world: Path) -> None:
    data = world / "data" / "w.txt"
    (world / "a.yaml").write_text(
        "name: needs\ngames: 2\nseats: 2\nbots:\n"
        f"  - name: needy\n    command: \"{{python}} bot/needy.py\"\n    env: {{NEEDY_FILE: {data}}}\n"
        "  - builtin:easy\n  - builtin:random\n")
    res = CliRunner().invoke(cli, ["arena", str(world / "a.yaml"), "--out", str(world / "out")])
    assert res.exit_code == 0, res.output
    assert "left out: needy" in res.output
    assert "the walls hid" in res.output and "--bot-path" in res.output  # the terminal, under its stderr
    report = (world / "out" / "bots" / "needy.md").read_text()
    stderr_at = report.index("What it wrote on stderr as it failed to start")
    walls_at = report.index("What the sandbox's walls may have hidden from it, and the fix:")
    assert stderr_at < walls_at and "FileNotFoundError" in report[stderr_at:walls_at]
    assert "paths: [" in report[walls_at:]
