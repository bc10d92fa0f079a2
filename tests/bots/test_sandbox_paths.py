"""Paths as the user wrote them: ``..``, symlinked folders, symlinked scripts and interpreters lead a bot to the
same files inside the sandbox as outside (referee/bots/command_files.py, referee/bots/sandbox.py)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from referee.bots import sandbox
from referee.bots.command_files import candidates, command_files, trace
from referee.bots.pipes.transport import PipeTransport
from referee.bots.sandbox import Mode, SandboxSettings
from referee.bots.spec import parse_bot
from tests.conftest import PY

MACHINE = sandbox.machine()
needs_walls = pytest.mark.skipif(not MACHINE.walls, reason="no sandbox walls here: " + "; ".join(MACHINE.problems))

#: A bot that says which file it is and where it runs: the same words inside the walls and outside mean the
#: command found the same files.
WHERE = "import os\nprint(os.path.realpath(__file__), os.getcwd(), flush=True)\n"


def world(tmp: Path) -> Path:
    """A folder where lexical shortening and the kernel disagree: ``in`` is a link into ``deep``, so
    ``in/../bots`` is ``deep/bots`` while a decoy ``bots`` sits where ``..`` would lead lexically."""
    for folder in ("hostile", "bots", "deep/inner", "deep/bots", "links"):
        (tmp / folder).mkdir(parents=True)
    (tmp / "bots" / "bot.py").write_text(WHERE)
    (tmp / "deep" / "bots" / "bot.py").write_text(f"#!{PY}\n{WHERE}")
    (tmp / "deep" / "bots" / "bot.py").chmod(0o755)
    (tmp / "deep" / "bots" / "envbot.py").write_text(f"#!/usr/bin/env python3\n{WHERE}")
    (tmp / "deep" / "bots" / "envbot.py").chmod(0o755)
    (tmp / "in").symlink_to("deep/inner")  # a symlinked folder, relative
    (tmp / "botlink").symlink_to(tmp / "deep" / "bots")  # a symlinked bot folder, absolute
    (tmp / "links" / "run").symlink_to("../deep/bots/bot.py")  # a symlinked interpreter script
    (tmp / "links" / "envrun").symlink_to("../deep/bots/envbot.py")
    (tmp / "links" / "py").symlink_to(PY)  # a symlinked interpreter
    return tmp


#: (where it runs, the command, the file it must reach)
CASES = [
    pytest.param("", f"{PY} hostile/../bots/bot.py", "bots/bot.py", id="dotdot-through-a-folder"),
    pytest.param("hostile", f"{PY} ../bots/bot.py", "bots/bot.py", id="dotdot-from-the-cwd"),
    pytest.param("", f"{PY} in/../bots/bot.py", "deep/bots/bot.py", id="dotdot-through-a-symlinked-folder"),
    pytest.param("in", f"{PY} ../bots/bot.py", "deep/bots/bot.py", id="dotdot-from-a-symlinked-cwd"),
    pytest.param("", f"{PY} botlink/bot.py", "deep/bots/bot.py", id="symlinked-bot-folder"),
    pytest.param("botlink", f"{PY} bot.py", "deep/bots/bot.py", id="cwd-is-a-symlinked-bot-folder"),
    pytest.param("hostile", "../links/run", "deep/bots/bot.py", id="symlinked-interpreter-script"),
    pytest.param("in", "../../links/envrun", "deep/bots/envbot.py", id="symlinked-env-script-through-dotdot"),
    pytest.param("hostile", "../links/py ../in/../bots/bot.py", "deep/bots/bot.py", id="symlinked-interpreter"),
]


def where(command: str, cwd: Path, mode: Mode) -> tuple[str, bytes]:
    """The sandbox level the bot got and the line it printed."""
    t = PipeTransport(parse_bot(command).argv, cwd=str(cwd), sandbox=SandboxSettings(mode=mode))
    try:
        return t.sandbox_level, t.read_line(time.monotonic() + 30)
    finally:
        t.close(0)


@pytest.mark.slow
@pytest.mark.parametrize("cwd, command, reached", CASES)
def test_a_command_reaches_the_same_files_without_the_sandbox(tmp_path: Path, cwd: str, command: str,
                                                              reached: str) -> None:
    base = world(tmp_path)
    level, line = where(command, base / cwd, Mode.NONE)
    assert level == "none"
    assert line.decode() == f"{base / reached} {os.path.realpath(base / cwd)}"


@pytest.mark.slow
@needs_walls
@pytest.mark.parametrize("cwd, command, reached", CASES)
def test_a_command_runs_inside_the_walls_exactly_as_written(tmp_path: Path, cwd: str, command: str,
                                                            reached: str) -> None:
    base = world(tmp_path)
    level, line = where(command, base / cwd, Mode.STRICT)
    assert level in ("full", "walls")
    assert line.decode() == f"{base / reached} {os.path.realpath(base / cwd)}"


def test_the_view_binds_real_folders_and_recreates_the_way_to_them(tmp_path: Path) -> None:
    base = world(tmp_path)
    view = sandbox.bot_view([PY, "in/../bots/bot.py"], str(base))
    assert str(base / "deep" / "bots") in view.roots and str(base / "bots") not in view.roots  # not the decoy
    assert (str(base / "in"), "deep/inner") in view.links
    assert str(base / "deep" / "inner") in view.dirs  # the folder ".." climbs out of


# ------------------------------------------------------------------------------------------ the walk itself
def test_a_walk_follows_links_before_it_climbs(tmp_path: Path) -> None:
    base = world(tmp_path)
    walk = trace(f"{base}/in/../bots/bot.py")
    assert walk is not None and walk.real == str(base / "deep" / "bots" / "bot.py")
    assert walk.real == os.path.realpath(walk.written) != os.path.normpath(walk.written)
    assert walk.links == ((str(base / "in"), "deep/inner"),)
    assert walk.stops == (str(base / "in"), walk.real)


@pytest.mark.parametrize("path", ["nothing/here", "bots/bot.py/..", "bots/bot.py/x", "loop"],
                         ids=["missing", "dotdot-after-a-file", "name-after-a-file", "link-loop"])
def test_a_walk_to_nowhere_is_none(tmp_path: Path, path: str) -> None:
    base = world(tmp_path)
    (base / "loop").symlink_to("loop")
    assert trace(f"{base}/{path}") is None


def test_the_command_s_files_name_program_interpreters_and_arguments(tmp_path: Path) -> None:
    base = world(tmp_path)
    files = command_files(["../links/run", "--data=../bots", "x:../in", "-v"], str(base / "hostile"))
    assert files.program is not None and files.program.real == str(base / "deep" / "bots" / "bot.py")
    assert not files.on_path
    assert [t.written for t in files.interpreters] == [PY]  # the "#!" line
    assert [text for text, _ in files.named] == ["../bots", "../in"]
    assert candidates("--cp=a:b") == ["--cp=a:b", "a:b", "a", "b"]


# ------------------------------------------------------------------------------------------ as a user runs it
@pytest.mark.slow
@pytest.mark.parametrize("mode", [pytest.param("strict", marks=needs_walls), "none"])
@pytest.mark.parametrize("cwd, command", [
    ("hostile", "python3 ../in/../bots/random_bot.py"),
    ("", "python3 botlink/random_bot.py"),
    ("hostile", "../links/rand"),
], ids=["dotdot", "symlinked-folder", "symlinked-script"])
def test_match_runs_the_command_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str, cwd: str,
                                           command: str) -> None:
    from click.testing import CliRunner

    from referee.cli.main import cli
    from tests.conftest import SAMPLES

    base = world(tmp_path)
    script = base / "deep" / "bots" / "random_bot.py"
    script.write_text(f"#!{PY}\n" + (SAMPLES / "python" / "random_bot.py").read_text())
    script.chmod(0o755)
    (base / "links" / "rand").symlink_to("../deep/bots/random_bot.py")
    monkeypatch.chdir(base / cwd)
    res = CliRunner().invoke(cli, ["match", "-n", "1", "--sandbox", mode, command, "builtin:random"])
    assert res.exit_code == 0 and "startup" not in res.output, res.output
