"""Before the first game: check each bot's required programs and run its build step, once.

A bot whose program is missing or whose build fails is left out of the arena, with the reason;
that is reported, never fatal (a class contest goes on without the submission that does not compile).
A build runs behind the walls (referee/builds/walled.py) on a copy of the bot's folder, kept in the
build cache (referee/builds/cache.py), and the bot then runs from that copy; ``sandbox: none`` builds
in place, as the referee's user, as before.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, replace
from typing import Callable, Iterable

from referee.bots.entry import BotEntry, Built
from referee.bots.logs import build_log
from referee.bots.pipes.transport import describe_exit
from referee.bots.reaper import reaper
from referee.bots.sandbox import CLEAN_ENV, MIB, Mode, effective_level
from referee.bots.spec import BotSpec
from referee.builds import cache as build_cache
from referee.builds import walled as walled_build
from referee.builds.packages import install_hint
from referee.run.side_by_side import map_side_by_side

#: Lines of a failed build's output shown in the terminal (all of it is in the build log).
TAIL_LINES = 6
#: Lines shown from a failed build's first error on (with the line of context a compiler puts before it).
ERROR_LINES = 8
#: A compiler's error line (gcc, clang, javac, rustc, tsc, make...) and its warning lines.
_ERROR = re.compile(r"(?i)\b(error|fatal)\b")
_WARNING = re.compile(r"(?i)\bwarning\b")


@dataclass(frozen=True)
class LeftOut:
    """A bot that will not play, and why (deterministic text: it goes into results.json)."""

    bot: str
    reason: str
    detail: str = ""
    log: str | None = None
    stderr: tuple[str, ...] = ()
    """A bot that could not start: the last lines it wrote on stderr (``log`` is its stderr log)."""
    build_level: str = ""
    """A failed build: the sandbox level it ran at."""
    walls: tuple[str, ...] = ()
    """A bot that could not start: what the sandbox's walls may have hidden from it, and the fix."""

    @property
    def first_error(self) -> str:
        """The first line of ``detail`` that says error (its first line where none does; "" without one)."""
        said = [line.strip() for line in self.detail.splitlines() if line.strip()]
        return next((line for line in said if _ERROR.search(line)), said[0] if said else "")


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
                                                f"not on PATH{where}{install_hint(missing)}"))
        else:
            kept.append(entry)
    return kept, out


def run_builds(entries: Iterable[BotEntry], log_dir: str | None, jobs: int = 1,
               on_done: Callable[[BotEntry, LeftOut | None, float], None] | None = None,
               cancel: threading.Event | None = None) -> tuple[list[BotEntry], list[LeftOut]]:
    """Run every build step (each distinct command, directory and sandbox once, ``jobs`` at a time).

    The entries kept are those built (each with ``built`` set, and its command and ``cwd`` moved to the built
    copy) and those with nothing to build. ``SandboxUnavailable`` is raised before any build starts when one
    asks for ``strict`` and this machine cannot build the walls. Setting ``cancel`` (from another thread) stops the
    builds running and raises ``side_by_side.Cancelled``.
    """
    entries = list(entries)
    groups: dict[tuple[str, str, tuple[tuple[str, str], ...], object], list[BotEntry]] = {}
    for e in entries:
        if e.build:
            groups.setdefault((e.build, e.spec.cwd or os.getcwd(), e.spec.env, e.spec.sandbox), []).append(e)
    check_build_walls(entries)  # strict refuses an unwalled build before any build runs
    outcome: dict[str, LeftOut | None] = {}
    done: dict[str, BotEntry] = {}
    live: set[subprocess.Popen[bytes]] = set()
    stopping = threading.Event()

    def build(key: tuple[str, str, tuple[tuple[str, str], ...], object]) -> None:
        members = groups[key]
        first = members[0]
        log = build_log(log_dir, first.spec.name) if log_dir else None
        t0 = time.monotonic()
        if first.spec.sandbox.mode is Mode.NONE:
            failure, built, source, folder = _run(first, log, live), Built("none"), None, None
            failure = failure if failure is None else replace(failure, build_level="none")
        else:
            failure, built, source = _run_walled(first, log, live, stopping)
            folder = built.folder
        for e in members:
            outcome[e.spec.name] = failure
            if failure is None:
                spec = _moved(e.spec, source, folder) if source and folder else e.spec
                done[e.spec.name] = replace(e, spec=spec, built=replace(built, seconds=time.monotonic() - t0,
                                                                        origin=source if folder else None))
            if on_done is not None:
                on_done(done.get(e.spec.name, e), failure, time.monotonic() - t0)

    if groups:
        if log_dir:
            os.makedirs(log_dir, exist_ok=True)

        def stop() -> None:  # no build outlives the arena
            stopping.set()
            for proc in list(live):
                _kill(proc)

        map_side_by_side(build, list(groups), jobs, stop, cancel)
    kept = [done.get(e.spec.name, e) for e in entries if outcome.get(e.spec.name) is None]
    left = [f for e in entries if (f := outcome.get(e.spec.name)) is not None]
    return kept, left


def check_build_walls(entries: Iterable[BotEntry]) -> None:
    """Raise ``SandboxUnavailable`` when a bot to build asks for ``strict`` walls this machine cannot build (before
    any build runs: an arena that builds beside its games says so before its first game too)."""
    for e in entries:
        if e.build and e.spec.sandbox.mode is not Mode.NONE:
            effective_level(e.spec.sandbox.for_build())


def build_source(entry: BotEntry) -> str:
    """What a build copies: the submission (a folder, or one file alone), else the bot's working directory."""
    if entry.submission:
        return entry.submission
    return os.path.abspath(entry.spec.cwd or os.getcwd())


def _run_walled(entry: BotEntry, log: str | None, live: set[subprocess.Popen[bytes]], stopping: threading.Event
                ) -> tuple[LeftOut | None, Built, str]:
    """Build a copy of the entry's folder behind the walls, or take it from the cache."""
    name, settings = entry.spec.name, entry.spec.sandbox
    level = effective_level(settings.for_build()).value
    source = build_source(entry)
    folder = source if os.path.isdir(source) else os.path.dirname(source)
    try:
        content, _ = build_cache.folder_digest(source, settings.build_disk_mb * MIB)
    except build_cache.TooBig:
        return LeftOut(name, f"its folder {folder!r} holds more than {settings.build_disk_mb} MiB, the most a build "
                             "may copy (build_disk_mb): give the bot a cwd: of its own folder, or raise "
                             "sandbox: {build_disk_mb: ...}", build_level=level), Built(level), source
    except OSError as exc:
        return LeftOut(name, f"its folder {folder!r} cannot be read for the build: {exc.strerror or exc}",
                       build_level=level), Built(level), source
    command = entry.build or ""
    env = dict(entry.spec.env)
    try:
        return _cached_build(entry, source, folder, content, level, command, env, log, live, stopping)
    except OSError as exc:  # the cache's disk: full, read-only, not ours
        where = f" ({exc.filename})" if exc.filename else ""
        return LeftOut(name, f"its build could not be kept in the build cache{where}: {exc.strerror or exc}; free "
                             f"space there or set {build_cache.ENV_VAR} to another folder", build_level=level), \
            Built(level), folder


def _cached_build(entry: BotEntry, source: str, folder: str, content: str, level: str, command: str,
                  env: dict[str, str], log: str | None, live: set[subprocess.Popen[bytes]], stopping: threading.Event
                  ) -> tuple[LeftOut | None, Built, str]:
    """The build's entry in the cache: found, or built and kept."""
    name, settings = entry.spec.name, entry.spec.sandbox
    cache = build_cache.cache_dir()
    key = build_cache.build_key(
        content=content, command=_swap(command, folder, build_cache.FOLDER_MARK), env=entry.spec.env,
        settings=settings.for_build().to_json(), level=level,
        tools=build_cache.toolchain(command, entry.requires, env.get("PATH", CLEAN_ENV["PATH"])))
    found = build_cache.lookup(cache, key)
    cached = found is not None
    if found is None:
        workspace = os.path.join(cache, key, build_cache.TREE)
        staged = build_cache.staging(cache)
        marked = _swap(command, folder, build_cache.FOLDER_MARK)
        ran = walled_build.build(source=source, command=marked, workspace=workspace,
                                 staged=staged, settings=settings, env=env, timeout_s=entry.build_timeout_s, live=live,
                                 stopping=stopping)
        found = build_cache.CacheEntry(key, not ran.reason, ran.log, ran.reason, ran.level, None, ran.seconds)
        if ran.transient:
            shutil.rmtree(staged, ignore_errors=True)
        else:
            found = build_cache.publish(cache, staged, found)
    if log:
        how = "the cache's copy of an identical build" if cached else "a copy"
        with open(log, "w", encoding="utf-8") as fh:
            fh.write(f"$ {command}\n(in {how} of {source}, sandbox {found.level or level})\n{found.log}")
    built = Built(found.level or level, cached, found.tree)
    if found.ok:
        return None, built, folder
    return LeftOut(name, found.reason, first_errors(found.log), log, build_level=built.level), built, folder


def as_given(entry: BotEntry) -> BotSpec:
    """The spec of a built bot as the arena file gave it (its paths in its own folder, not in the built copy)."""
    built = entry.built
    if built is None or built.folder is None or built.origin is None:
        return entry.spec
    return _moved(entry.spec, built.folder, built.origin)


def _swap(text: str, folder: str, copy: str) -> str:
    """``text`` with the path ``folder`` (whole: ``ada`` is not in ``ada.txt``) replaced by ``copy``."""
    return re.sub(re.escape(folder) + r"(?=$|[/\s'\";:&|)])", lambda _: copy, text)


def _moved(spec: BotSpec, folder: str, copy: str) -> BotSpec:
    """``spec`` as it runs from the built copy: its cwd and the paths into ``folder`` its command and env name."""
    def path(text: str) -> str:
        return copy + text[len(folder):] if text == folder or text.startswith(folder.rstrip("/") + "/") else text

    if spec.shell:
        command = _swap(spec.command, folder, copy)
    else:
        words = shlex.split(spec.command)
        command = spec.command if [path(w) for w in words] == words else shlex.join(path(w) for w in words)
    env = tuple((k, _swap(v, folder, copy)) for k, v in spec.env)
    return replace(spec, command=command, cwd=path(os.path.abspath(spec.cwd or os.getcwd())), env=env)


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
    return LeftOut(name, reason, first_errors(text), log)


def first_errors(output: str) -> str:
    """What a failed build said first: from its first error line (and the line of context before it, ``In function
    'main':``) up to ``ERROR_LINES`` lines, stopping at the warnings that follow; the last ``TAIL_LINES`` lines
    where no line says error. The first error is the cause: what a compiler writes after it is often warnings, or
    errors that follow from it."""
    lines = output.rstrip().splitlines()
    first = next((i for i, line in enumerate(lines) if _ERROR.search(line)), None)
    if first is None:
        return "\n".join(lines[-TAIL_LINES:])
    if first > 0 and lines[first - 1].rstrip().endswith(":") and not _WARNING.search(lines[first - 1]):
        first -= 1
    shown: list[str] = []
    for line in lines[first:first + ERROR_LINES]:
        if _WARNING.search(line) and not _ERROR.search(line):
            while shown and shown[-1].rstrip().endswith(":") and not _ERROR.search(shown[-1]):
                shown.pop()  # a context line (``At top level:``) of the warning, not of the error
            break
        shown.append(line)
    return "\n".join(shown)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


