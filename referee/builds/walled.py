"""One build step behind the walls: a copy of the submission built in a tmpfs of its own, as the bot would run.

The referee packs the submission's folder (a tar on the build's stdin), and inside the sandbox (the bot's
``Launch``: namespaces, a read-only system, no network, ``nobody`` when the referee is root, cgroups and
rlimits from ``SandboxSettings.for_build``) a shell unpacks it into a fresh tmpfs of ``build_disk_mb`` at
the path the built copy will have in the cache, runs the build there (its output on stderr: the build log),
and packs the folder back on stdout. The referee unpacks that stream (bounded, links and names checked) into
the cache: the student's original is never written, and the build sees nothing but the system and its copy.

Without working bubblewrap (level ``limits``), the copy is built in a private folder of the cache, with the
limits only; ``--sandbox strict`` refuses that before any build starts.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tarfile
import threading
import time
from dataclasses import dataclass

from referee.bots.pipes.transport import describe_exit
from referee.bots.reaper import reaper
from referee.bots.sandbox import MIB, Launch, Level, SandboxSettings, bot_view
from referee.builds import safe_tar
from referee.builds.cache import FOLDER_MARK, TREE, walk_source

#: Inside the sandbox: unpack the copy, build it (stdin closed, stdout to the log), pack it back.
SCRIPT = """cd "$1" || exit 120
tar -xf - || { echo "lastcard: could not unpack the submission into its build folder" >&2; exit 120; }
/bin/sh -c "$2" </dev/null >&2
status=$?
if [ "$3" = pack ]; then tar -cf - . || exit 121; fi
exit $status
"""
#: The most of a build's log kept (its end: where a compiler's error is).
LOG_LIMIT = 256 * 1024
#: A tar's headers and padding beyond the files it holds: allowed on top of ``build_disk_mb``.
TAR_SLACK = 16 * MIB


@dataclass(frozen=True)
class BuildOutcome:
    """What one build did: ``reason`` is empty when it succeeded (the built copy is then in ``staged/bot``)."""

    reason: str
    log: str
    level: str
    seconds: float
    #: A failure that another try might not repeat (a time-out): never cached.
    transient: bool = False


def pack(source: str) -> bytes:
    """``source`` (a folder, or one file) as a tar: regular files, folders and links, owned by no one."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        base = source if os.path.isdir(source) else os.path.dirname(source)
        for rel, _st, _target in walk_source(source):
            info = tar.gettarinfo(os.path.join(base, rel), arcname=rel)
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            if info.isfile():
                with open(os.path.join(base, rel), "rb") as fh:
                    tar.addfile(info, fh)
            else:
                tar.addfile(info)
    return buffer.getvalue()


def build(*, source: str, command: str, workspace: str, staged: str, settings: SandboxSettings,
          env: dict[str, str], timeout_s: float, live: set[subprocess.Popen[bytes]],
          stopping: threading.Event | None = None) -> BuildOutcome:
    """Build a copy of ``source`` at ``workspace`` (the path it will have) with ``command``, where ``FOLDER_MARK``
    stands for the copy's path; the built copy in ``staged``."""
    limits = settings.for_build()
    launch = Launch(limits)
    walled = launch.level in (Level.FULL, Level.WALLS)
    tree = os.path.join(staged, TREE)
    where = workspace if walled else tree
    os.makedirs(tree, exist_ok=True)
    if not walled:
        os.chmod(tree, 0o777)  # without walls the build still runs as itself, in its own private folder
    # The referee's own interpreter ({python}) is a toolchain too: its installation is shown, nothing else is.
    view = bot_view([sys.executable], where)
    command = command.replace(FOLDER_MARK, where)  # the folder's path in the command: its copy's
    argv = ["/bin/sh", "-c", SCRIPT, "lastcard-build", where, command, "pack" if walled else "keep"]
    try:
        wrapped, clean = launch.wrap(argv, cwd=where, env=env, shell=False, view=view,
                                     workspace=workspace if walled else None)
        data = pack(source)
        ran = _watch(wrapped, clean, staged, data, launch, timeout_s, live, stopping or threading.Event())
    except (OSError, ValueError) as exc:
        launch.cleanup()
        return BuildOutcome(f"build could not start: {getattr(exc, 'strerror', None) or exc}", "", launch.level.value,
                            0.0)
    reason, transient = _judge(ran, limits, timeout_s)
    if not reason and walled:
        try:
            _unpack(ran.packed.data(), tree)
        except (tarfile.TarError, OSError) as exc:
            reason = f"the build's folder could not be taken back: {exc}"
    if reason:
        shutil.rmtree(tree, ignore_errors=True)
    return BuildOutcome(reason, ran.log.text(), launch.level.value, ran.seconds, transient)


@dataclass
class _Ran:
    """A build's process after it ended: how, and what it wrote."""

    returncode: int | None
    timed_out: bool
    stopped: bool
    packed: _Reader
    log: _Tail
    seconds: float


def _watch(wrapped: list[str], clean: dict[str, str], staged: str, data: bytes, launch: Launch, timeout_s: float,
           live: set[subprocess.Popen[bytes]], stopping: threading.Event) -> _Ran:
    """Run the wrapped build: its copy in on stdin, its packed folder out on stdout, its log on stderr."""
    t0 = time.monotonic()
    watchdog = reaper()
    proc = subprocess.Popen(wrapped, cwd=staged, env=clean, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    live.add(proc)
    if watchdog is not None:
        watchdog.watch(proc.pid)
    if stopping.is_set():  # the arena was stopped while this build was being set up: it must not run on
        _stop(proc, launch)
    packed = _Reader(proc, launch.settings.build_disk_mb * MIB + TAR_SLACK, launch)
    log = _Tail(proc)
    feeder = threading.Thread(target=_feed, args=(proc, data), daemon=True)
    for thread in (feeder, packed, log):
        thread.start()
    timed_out = False
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        timed_out = True
    finally:
        _stop(proc, launch)
        for thread in (feeder, packed, log):
            thread.join(5)
        live.discard(proc)
        if watchdog is not None:
            watchdog.forget(proc.pid)
        launch.cleanup()
    return _Ran(proc.returncode, timed_out, stopping.is_set(), packed, log, time.monotonic() - t0)


def _judge(ran: _Ran, limits: SandboxSettings, timeout_s: float) -> tuple[str, bool]:
    """Why the build failed ("" if it did not), and whether that may not happen again (never cached)."""
    text = ran.log.text()
    if ran.stopped:
        return "build stopped: the run was interrupted", True
    if ran.timed_out:  # a fork bomb holding at the process limit says so
        return f"build timed out after {timeout_s:g} s" + _hint(text, None, limits), True
    if ran.packed.too_big:
        return f"the build's folder grew past {limits.build_disk_mb} MiB (build_disk_mb)", False
    if ran.returncode != 0:
        return f"build failed ({describe_exit(ran.returncode)})" + _hint(text, ran.returncode, limits), False
    return "", False


class _Reader(threading.Thread):
    """Reads the packed folder from the build's stdout, at most ``cap`` bytes (beyond: the build is stopped)."""

    def __init__(self, proc: subprocess.Popen[bytes], cap: int, launch: Launch) -> None:
        super().__init__(daemon=True)
        self.proc, self.cap, self.launch = proc, cap, launch
        self.chunks: list[bytes] = []
        self.size = 0
        self.too_big = False

    def run(self) -> None:
        assert self.proc.stdout is not None
        while True:
            chunk = os.read(self.proc.stdout.fileno(), 1 << 20)
            if not chunk:
                return
            self.size += len(chunk)
            if self.size > self.cap:
                self.too_big = True
                self.chunks = []
                _stop(self.proc, self.launch)
                return
            self.chunks.append(chunk)

    def data(self) -> bytes:
        return b"".join(self.chunks)


def _feed(proc: subprocess.Popen[bytes], data: bytes) -> None:
    assert proc.stdin is not None
    try:
        proc.stdin.write(data)
        proc.stdin.close()
    except (BrokenPipeError, ValueError, OSError):
        pass


def _stop(proc: subprocess.Popen[bytes], launch: Launch) -> None:
    """Kill the build's process group and control group (a build leaves nothing running)."""
    try:
        os.killpg(proc.pid, 9)
    except (ProcessLookupError, PermissionError):
        pass
    launch.kill()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        pass


class _Tail(threading.Thread):
    """Reads the build's log (its stderr) as it comes, keeping its last ``LOG_LIMIT`` bytes: a flood costs nothing."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        super().__init__(daemon=True)
        self.proc = proc
        self.kept = bytearray()
        self.size = 0

    def run(self) -> None:
        assert self.proc.stderr is not None
        while True:
            chunk = os.read(self.proc.stderr.fileno(), 1 << 16)
            if not chunk:
                return
            self.size += len(chunk)
            self.kept += chunk
            if len(self.kept) > 2 * LOG_LIMIT:
                del self.kept[:-LOG_LIMIT]

    def text(self) -> str:
        """The end of the log, with a line saying how much was left out before it."""
        kept = bytes(self.kept[-LOG_LIMIT:])
        text = kept.decode("utf-8", "replace")
        if self.size > len(kept):
            text = f"[... the first {self.size - len(kept)} bytes left out ...]\n" + text.split("\n", 1)[-1]
        return text


def _hint(log: str, code: int | None, limits: SandboxSettings) -> str:
    """Which limit a failed build probably met, from its last words."""
    if "No space left on device" in log or "File too large" in log:
        return f"; it ran out of room: a build's folder and /tmp hold {limits.build_disk_mb} MiB (build_disk_mb)"
    if any(words in log for words in ("Resource temporarily unavailable", "Cannot fork", "can't fork")):
        return f"; it could not start more processes: a build may run {limits.build_processes} (build_processes)"
    if code in (137, -9):
        return (f"; it was killed, most likely for memory: a build may use {limits.build_memory_mb} MiB "
                "(build_memory_mb)")
    return ""


def _unpack(data: bytes, tree: str) -> None:
    """The packed build folder into ``tree``, by the one rule for a tar from elsewhere (``safe_tar``): names stay
    inside it; links may point anywhere (the bot only follows them inside its own walls) but nothing is written
    through one; no devices, no setuid bits."""
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
        safe_tar.extract(tar, tree)
