"""Before the first game: check each bot's required programs and run its build step, once.

A bot whose program is missing or whose build fails is left out of the arena, with the reason;
that is reported, never fatal (a class contest goes on without the submission that does not compile).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from typing import Callable, Iterable

from referee.arena.model import BotEntry
from referee.bots.names import build_log
from referee.bots.pipes.transport import describe_exit
from referee.bots.reaper import reaper
from referee.run.side_by_side import map_side_by_side

#: Lines of a failed build's output shown in the terminal (all of it is in the build log).
TAIL_LINES = 6


@dataclass(frozen=True)
class LeftOut:
    """A bot that will not play, and why (deterministic text: it goes into results.json)."""

    bot: str
    reason: str
    detail: str = ""
    log: str | None = None
    stderr: tuple[str, ...] = ()
    """A bot that could not start: the last lines it wrote on stderr (``log`` is its stderr log)."""


def missing_programs(entry: BotEntry) -> list[str]:
    """The programs in ``requires`` that are not on PATH."""
    path = dict(entry.spec.env).get("PATH")
    return [p for p in entry.requires if shutil.which(p, path=path) is None]


def check_requires(entries: Iterable[BotEntry]) -> tuple[list[BotEntry], list[LeftOut]]:
    """Split bots into those that can start (required programs on PATH) and those left out, with why."""
    kept, out = [], []
    for entry in entries:
        missing = missing_programs(entry)
        if entry.unusable:
            out.append(LeftOut(entry.spec.name, entry.unusable))
        elif missing:
            names = ", ".join(repr(m) for m in missing)
            where = f" ({entry.language} submission {entry.submission!r})" if entry.submission else ""
            out.append(LeftOut(entry.spec.name, f"needs {names}, which {'is' if len(missing) == 1 else 'are'} "
                                                f"not on PATH{where}"))
        else:
            kept.append(entry)
    return kept, out


def run_builds(entries: Iterable[BotEntry], log_dir: str | None, jobs: int = 1,
               on_done: Callable[[BotEntry, LeftOut | None, float], None] | None = None
               ) -> tuple[list[BotEntry], list[LeftOut]]:
    """Run every build step (each distinct command and directory once, ``jobs`` at a time)."""
    entries = list(entries)
    groups: dict[tuple[str, str, tuple[tuple[str, str], ...]], list[BotEntry]] = {}
    for e in entries:
        if e.build:
            groups.setdefault((e.build, e.spec.cwd or os.getcwd(), e.spec.env), []).append(e)
    outcome: dict[str, LeftOut | None] = {}
    live: set[subprocess.Popen[bytes]] = set()

    def build(key: tuple[str, str, tuple[tuple[str, str], ...]]) -> None:
        members = groups[key]
        first = members[0]
        log = build_log(log_dir, first.spec.name) if log_dir else None
        t0 = time.monotonic()
        failure = _run(first, log, live)
        for e in members:
            outcome[e.spec.name] = failure
            if on_done is not None:
                on_done(e, failure, time.monotonic() - t0)

    if groups:
        if log_dir:
            os.makedirs(log_dir, exist_ok=True)

        def stop() -> None:  # no build outlives the arena
            for proc in list(live):
                _kill(proc)

        map_side_by_side(build, list(groups), jobs, stop)
    kept = [e for e in entries if outcome.get(e.spec.name) is None]
    left = [f for e in entries if (f := outcome.get(e.spec.name)) is not None]
    return kept, left


def _run(entry: BotEntry, log: str | None, live: set[subprocess.Popen[bytes]]) -> LeftOut | None:
    env = dict(os.environ)
    env.update(dict(entry.spec.env))
    name = entry.spec.name
    # The watchdog starts before the build (as before a bot, bots/transport.py): started after it, a
    # kill -9 of the arena while its interpreter came up left the build running (seen once on a loaded CI).
    watchdog = reaper()
    try:
        proc = subprocess.Popen(entry.build or "", shell=True, cwd=entry.spec.cwd, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    except OSError as exc:
        return LeftOut(name, f"build could not start: {exc.strerror or exc}", log=log)
    live.add(proc)
    if watchdog is not None:  # a build still running when the arena is killed outright is killed too
        watchdog.watch(proc.pid)
    try:
        output, _ = proc.communicate(timeout=entry.build_timeout_s)
        reason = None if proc.returncode == 0 else f"build failed ({describe_exit(proc.returncode)})"
    except subprocess.TimeoutExpired:
        _kill(proc)
        output, _ = proc.communicate()
        reason = f"build timed out after {entry.build_timeout_s:g} s"
    except BaseException:
        _kill(proc)
        proc.communicate()
        raise
    finally:
        live.discard(proc)
        if watchdog is not None:
            watchdog.forget(proc.pid)
    text = output.decode("utf-8", "replace")
    if log:
        with open(log, "w", encoding="utf-8") as fh:
            fh.write(f"$ {entry.build}\n(in {entry.spec.cwd})\n{text}")
    if reason is None:
        return None
    tail = "\n".join(text.rstrip().splitlines()[-TAIL_LINES:])
    return LeftOut(name, reason, tail, log)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


