"""``entry.exit_now``: the program ends without the interpreter's teardown, and nothing it wrote or owed is lost.

Each case runs a small program in a fresh interpreter that ends through ``exit_now`` (as ``lastcard`` does after
every command) and checks what a normal exit would have given: the status, the message of ``sys.exit("...")``,
the exit handlers run, a buffered file left open still flushed, and a running non-daemon thread waited for.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import referee

pytestmark = pytest.mark.slow  # each case starts an interpreter


def run(body: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    code = f"import sys\nfrom referee.cli.entry import exit_now\n{body}"
    here = str(Path(referee.__file__).resolve().parents[1])  # this tree's package, from the scratch folder too
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          env=env)


@pytest.mark.parametrize("code, status", [("0", 0), ("None", 0), ("2", 2), ("130", 130), ("True", 1)])
def test_the_status_is_what_sys_exit_would_give(tmp_path: Path, code: str, status: int) -> None:
    assert run(f"exit_now({code})", tmp_path).returncode == status


def test_a_message_is_printed_and_the_status_is_one(tmp_path: Path) -> None:
    done = run("exit_now('no such arena: x.yaml')", tmp_path)
    assert (done.returncode, done.stderr.strip()) == (1, "no such arena: x.yaml")


def test_exit_handlers_run_and_open_files_are_flushed(tmp_path: Path) -> None:
    body = ("import atexit\n"
            "atexit.register(lambda: open('handler.txt', 'w').write('ran'))\n"
            "kept = open('open.txt', 'w')\n"
            "kept.write('still buffered ' * 10)\n"  # far below the buffer's size: only a flush writes it
            "sys.stdout.write('the standings')\n"
            "exit_now(0)")
    done = run(body, tmp_path)
    assert done.returncode == 0 and done.stdout == "the standings"
    assert (tmp_path / "handler.txt").read_text() == "ran"
    assert (tmp_path / "open.txt").read_text() == "still buffered " * 10


def test_a_running_thread_that_is_not_a_daemon_is_waited_for(tmp_path: Path) -> None:
    body = ("import threading, time\n"
            "def late():\n"
            "    time.sleep(0.3)\n"
            "    open('thread.txt', 'w').write('done')\n"
            "threading.Thread(target=late).start()\n"
            "exit_now(3)")
    done = run(body, tmp_path)
    assert done.returncode == 3
    assert (tmp_path / "thread.txt").read_text() == "done"


def test_lastcard_takes_stop_signals_its_parent_held_back(tmp_path: Path) -> None:
    """A mask is inherited across exec: started with SIGTERM blocked, lastcard still stops on it."""
    body = ("import signal\n"
            "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})\n"  # as a parent that held it back
            "import importlib.abc, os\n"
            "class Stop(importlib.abc.MetaPathFinder):\n"
            "    def find_spec(self, name, path, target=None):\n"
            "        if name == 'referee.cli.main':\n"
            "            os.kill(os.getpid(), signal.SIGTERM)\n"
            "        return None\n"
            "sys.meta_path.insert(0, Stop())\n"
            "from referee.cli.entry import main\n"
            "sys.argv = ['lastcard', 'match', '-n', '2000000', 'builtin:easy', 'builtin:random', '--no-report']\n"
            "main()")
    done = run(body, tmp_path)
    assert done.returncode == 130, done.stderr
    assert done.stderr.strip() == "interrupted while starting: nothing was played or written"
