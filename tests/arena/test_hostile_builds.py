"""A class whose hand-ins attack the teacher from their build step (a Makefile, or a lastcard.yaml's ``build:``).

Each row of ``ATTACKS`` is one student's folder. Every build runs behind the walls (referee/builds/walled.py):
the attack fails inside its own sandbox, the contest still runs with the honest students, the originals are
the same bytes after as before, and each attacker's report (``bots/NAME.md``) says what the build did (its log)
and why it failed. ``python -m pytest tests/arena/test_hostile_builds.py -s`` prints the table.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import tempfile
import threading
from pathlib import Path

import pytest

from referee.arena import load_arena, run_arena
from referee.arena.bot_reports import write_bot_reports
from referee.bots.sandbox import machine
from tests.support.procs import groups_running

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_bots" / "python"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not machine().walls, reason="bubblewrap cannot build the walls here: "
                                 + "; ".join(machine().problems))]

#: name -> (kind, build commands, the words its report must show: ``A|B`` is either). ``{...}`` are filled by the test.
ATTACKS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "grades": ("make", "cat {teacher}/grades.txt > stolen.txt", ("No such file or directory",)),
    "outside": ("manifest", "echo pwned > /tmp/{marker}-tmp; echo pwned > ../outside.txt; "
                            "echo pwned > '{students}/outside.txt'", ("Directory nonexistent",)),
    "network": ("manifest", "python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), 3)\"",
                ("Connection refused",)),
    "rewrite": ("make", "echo 'raise SystemExit(3)' > '{students}/ada/bot.py'", ("Directory nonexistent",)),
    "linger": ("manifest", "setsid sh -c 'sleep 600; echo done' {marker}-linger >/dev/null 2>&1 & "
                           "sleep 0.5; echo left one running; exit 1",
               ("left one running",)),
    # The bomb is held by the process cap either way: the recipe's own `sleep` starts before the cap is reached (the
    # build then times out) or after (make itself cannot fork and says so); which one is a race the load decides.
    "forkbomb": ("make", "bomb() {{ bomb | bomb & }}; bomb; sleep 600",
                 ("build timed out after|it could not start more processes",)),
    "diskfill": ("manifest", "dd if=/dev/zero of=fill bs=1M count=100000", ("No space left on device",)),
    "forever": ("make", "sleep 100000", ("build timed out after",)),
    "flood": ("manifest", "yes flooding the log | head -c 50000000 >&2; exit 1", ("the last 60 of",)),
}

ARENA = """\
name: hostile
ruleset: compact
seats: 3
games: 6
bootstrap: 20
sandbox: {{build_disk_mb: 64}}
bots:
  - submissions:
      path: "students/*"
      build_timeout_s: {timeout}
  - builtin:easy
"""


def _tree_digest(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        h.update(str(path.relative_to(folder)).encode())
        if path.is_file() and not path.is_symlink():
            h.update(path.read_bytes())
            h.update(oct(path.stat().st_mode).encode())
    return h.hexdigest()


class _Listener:
    """A TCP server on 127.0.0.1 counting the connections it gets."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self.stopped.set()
        self.thread.join(2)
        self.sock.close()


#: The recipe lines of a Makefile that makes ``./bot`` start ``bot.py``.
LAUNCHER = "\tprintf '#!/bin/sh\\nexec python3 bot.py\\n' > bot\n\tchmod +x bot\n"


def _student(folder: Path, kind: str, commands: str) -> None:
    folder.mkdir(parents=True)
    shutil.copy(SAMPLES / "random_bot.py", folder / "bot.py")
    shutil.copy(SAMPLES / "botkit.py", folder / "botkit.py")
    if kind == "make":  # the attack, then what an honest Makefile does: make ./bot
        (folder / "Makefile").write_text("bot:\n\t" + commands.replace("$", "$$") + "\n" + LAUNCHER)
    else:
        (folder / "lastcard.yaml").write_text(f"run: python3 bot.py\nbuild: {_yaml_string(commands)}\n")


def _yaml_string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


@pytest.fixture
def home_class():
    """A folder in the home directory, not in /tmp (a build's /tmp is its own: a path there proves too little)."""
    folder = Path(tempfile.mkdtemp(prefix=".lastcard-hostile-test-", dir=Path.home()))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_hostile_builds_are_contained_and_told(home_class, capsys):
    tmp_path = home_class
    marker = f"lastcard-hostile-{os.getpid()}"
    teacher = tmp_path / "teacher"
    teacher.mkdir(mode=0o700)
    (teacher / "grades.txt").write_text("SECRET-GRADES ada A+\n")
    (teacher / "grades.txt").chmod(0o600)
    students = tmp_path / "students"
    listener = _Listener()
    try:
        for name in ("ada", "bea"):  # two honest students: a Python bot, and a Makefile that builds a launcher
            (students / name).mkdir(parents=True)
            shutil.copy(SAMPLES / "random_bot.py", students / name / "bot.py")
            shutil.copy(SAMPLES / "botkit.py", students / name / "botkit.py")
        (students / "bea" / "Makefile").write_text("bot:\n" + LAUNCHER)
        for name, (kind, commands, _) in ATTACKS.items():
            _student(students / name, kind, commands.format(teacher=teacher, marker=marker, port=listener.port,
                                                            students=students))
        before = _tree_digest(students)
        arena_file = tmp_path / "hostile.yaml"
        arena_file.write_text(ARENA.format(timeout=8))
        arena = load_arena(str(arena_file))
        run = run_arena(arena, out=str(tmp_path / "out"), jobs=2)
        write_bot_reports(run.out_dir, run.doc, run.games, arena.bots, run.left_out)
    finally:
        listener.close()

    left = {x.bot: x for x in run.left_out}
    rows = []
    for name, (_, _, words) in ATTACKS.items():
        assert name in left, f"{name}'s build succeeded"
        report = (tmp_path / "out" / "bots" / f"{name}.md").read_text()
        assert "**left out**" in report and left[name].reason in report
        for w in words:
            assert any(alt in report for alt in w.split("|")), f"{name}'s report does not say {w!r}:\n{report}"
        log = tmp_path / "out" / "logs" / f"{name}.build.log"
        assert log.stat().st_size < 1 << 20, "a build's log is kept to its end"
        rows.append(f"| {name} | {ATTACKS[name][0]} | {left[name].reason} (sandbox {left[name].build_level}) | "
                    f"{', '.join(words)} |")
    with capsys.disabled():
        print("\n| attack | in | result | its report shows |\n|---|---|---|---|\n" + "\n".join(rows))

    # Each build's sandbox level is recorded (results.json) and told (the honest Makefile's report).
    levels = run.doc.to_json()["build_levels"]
    assert set(levels) == {"bea", *ATTACKS} and set(levels.values()) <= {"full", "walls"}
    assert f"(sandbox {levels['bea']})" in (tmp_path / "out" / "bots" / "bea.md").read_text()
    # The contest ran with the honest students, and their folders (every folder) are as they were handed in.
    assert run.complete and {"ada", "bea"} <= set(run.standings.bots)
    assert _tree_digest(students) == before
    assert not (tmp_path / "students" / "outside.txt").exists()
    assert not Path(f"/tmp/{marker}-tmp").exists()
    assert listener.connections == 0
    assert groups_running(f"{marker}-linger".encode()) == []
    # The teacher's grades reached no file the referee wrote (the build cache, the results).
    for where in (Path(os.environ["LASTCARD_BUILD_CACHE"]), tmp_path / "out"):
        for path in where.rglob("*"):
            if path.is_file() and not path.is_symlink():
                assert b"SECRET-GRADES" not in path.read_bytes(), path
