"""A ``lastcard arena --live 0`` in a child process, and the address its live page is at."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

#: Four built-in players: a league at tables of two, then a knockout of them all (tables of two, the winner on).
ARENA = """\
name: livetest
seed: 7
seats: 2
bootstrap: 50
bots: [{first}, builtin:easy, builtin:medium, builtin:hard]
stages:
  - name: league
    format: round_robin
    games: {league}
  - name: cup
    format: knockout
    games: {cup}
    advance: 1
"""


#: A bot process that waits at each game's end (``pace_ms``): the run's pace is the same on both builds.
PACER = Path(__file__).resolve().parent / "live_bots" / "pacer.py"


def write_arena(folder: Path, league: int, cup: int = 8, pace_ms: int = 0) -> Path:
    """An arena file of ``6 * league`` league games and a knockout of three tables of ``cup`` games; with
    ``pace_ms``, the first bot is ``pacer`` (a process waiting that long at each game's end), else
    ``builtin:random``."""
    first = (f"{{name: pacer, command: '{sys.executable} {PACER} {pace_ms}'}}" if pace_ms else "builtin:random")
    path = folder / "live.yaml"
    path.write_text(ARENA.format(league=league, cup=cup, first=first))
    return path


def start_arena(arena: Path, out: Path, *extra: str) -> tuple[subprocess.Popen[str], str]:
    """Start the arena with ``--live 0`` (one worker); the process and the page's address, read from stderr."""
    return start_live("arena", str(arena), "--out", str(out), "--jobs", "1", *extra)


def until(found: Callable[[], Any], what: str, limit_s: float = 120.0, every_s: float = 0.05) -> Any:
    """Poll ``found`` until it returns something true; a failure naming ``what`` if it never does."""
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        value = found()
        if value:
            return value
        time.sleep(every_s)
    raise AssertionError(f"never happened: {what}")


def start_live(*args: str) -> tuple[subprocess.Popen[str], str]:
    """Start ``lastcard ARGS... --live 0``; the process and its page's address."""
    command = [sys.executable, "-m", "referee.cli.entry", *args, "--live", "0"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stderr is not None
    for line in proc.stderr:
        if line.startswith("live page: "):
            return proc, line.split()[2]
    proc.wait()
    raise AssertionError(f"no live page address printed (exit status {proc.returncode})")


#: What the command says when its run has ended and the live page stays up.
STAYS_UP = "stays up with the final standings and the replays until Ctrl-C"


def close_page(proc: subprocess.Popen[str], timeout: float = 120) -> tuple[int, str]:
    """After the run ended: wait for the command to say its page stays up, press Ctrl-C; its exit status and what it
    wrote on stderr from there on."""
    assert proc.stderr is not None
    said = []
    for line in proc.stderr:
        said.append(line)
        if STAYS_UP in line:
            proc.send_signal(signal.SIGINT)
            break
    _, rest = proc.communicate(timeout=timeout)
    return proc.returncode, "".join(said) + (rest or "")


def events_until_the_end(url: str) -> list[dict[str, Any]]:
    """Every state the page's event stream sends, up to the one that says the run ended."""
    import json
    import urllib.request

    seen: list[dict[str, Any]] = []
    with urllib.request.urlopen(url + "events", timeout=120) as stream:
        for raw in stream:
            if raw.startswith(b"data: "):
                seen.append(json.loads(raw[len(b"data: "):]))
                if seen[-1]["phase"] in ("finished", "interrupted", "stopped"):
                    return seen
    raise AssertionError("the event stream ended before the run did")
