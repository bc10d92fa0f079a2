"""One control group per bot process: memory, process-count and CPU limits, its CPU time, and a way to kill all of it.

cgroup v2 is used when this process's own group can hand the memory and pids controllers to a
child; otherwise the v1 hierarchies (one directory per controller). A group is made under the
referee's own group in each hierarchy (so it works inside a container that gave us a subtree), its
limits are written, and the launch command puts itself in with ``echo $$ > .../cgroup.procs`` before
it execs the bot, so no process of the bot ever runs outside it.

A normal user has such a group when systemd delegates one (``systemd-run --user --scope -p Delegate=yes
lastcard ...``): the scope is the user's, but cgroup v2 lets no process stay in a group whose controllers
are handed to children. The referee then does what systemd's CGROUP_DELEGATION.md asks of a delegated
manager: it moves the scope's processes into a child ``referee/`` and enables the controllers, and the bots'
groups go beside it (``claim``).
"""

from __future__ import annotations

import itertools
import os
import signal
import time
from dataclasses import dataclass

from referee.bots.cpuclock import CgroupMeter

ROOT = "/sys/fs/cgroup"
#: A group name holds the referee's pid, so groups left by a referee killed outright can be swept.
PREFIX = "lastcard-"
_counter = itertools.count(1)


@dataclass(frozen=True)
class Hierarchy:
    """Where this process may create child groups, per controller (v1) or once (v2)."""

    version: int
    parents: tuple[tuple[str, str], ...]  # (controller, directory); v2: one ("", dir)

    @property
    def controllers(self) -> frozenset[str]:
        """The controllers a group here can limit."""
        if self.version == 2:
            try:
                with open(os.path.join(self.parents[0][1], "cgroup.subtree_control")) as fh:
                    return frozenset(fh.read().split()) & {"memory", "pids", "cpu"}
            except OSError:
                return frozenset()
        return frozenset(name for name, _ in self.parents)

    @property
    def counts_cpu(self) -> bool:
        """Whether a group here counts its CPU time (v2 always; v1 with the cpuacct controller)."""
        if self.version == 2:
            return True
        return any(os.path.exists(os.path.join(d, "cpuacct.usage")) for _, d in self.parents)


def _own_groups() -> dict[str, str]:
    """This process's group path per v1 controller, and ``""`` for v2."""
    out: dict[str, str] = {}
    try:
        with open("/proc/self/cgroup") as fh:
            for line in fh:
                _, names, path = line.rstrip("\n").split(":", 2)
                for name in names.split(",") if names else [""]:
                    out[name] = path
    except OSError:
        pass
    return out


def detect() -> Hierarchy | None:
    """The writable hierarchy to put bots in, or ``None`` (no cgroups we can use: rlimits only)."""
    own = _own_groups()
    v1: list[tuple[str, str]] = []
    seen: set[str] = set()
    # cpuacct counts the group's CPU time (clock: cpu); it is often mounted with cpu ("cpu,cpuacct"),
    # and then both names lead to one directory, where one group serves both.
    for name in ("memory", "pids", "cpu", "cpuacct"):
        if name in own:
            parent = os.path.normpath(f"{ROOT}/{name}{own[name]}")
            if os.access(parent, os.W_OK) and os.path.exists(os.path.join(parent, "cgroup.procs")):
                real = os.path.realpath(parent)
                if real not in seen:
                    seen.add(real)
                    v1.append((name, parent))
    if any(name != "cpuacct" for name, _ in v1):
        return Hierarchy(1, tuple(v1))
    if "" in own:
        for candidate in (os.path.normpath(f"{ROOT}{own['']}"), os.path.normpath(f"{ROOT}/unified{own['']}")):
            found = _v2_parent(candidate)
            if found is not None:
                return Hierarchy(2, (("", found),))
    return None


#: The referee's own group inside a delegated one: its processes live there, its bots' groups beside it.
SUPERVISOR = "referee"
#: The controllers a bot's group needs (cpu is used when there too).
NEEDED = frozenset({"memory", "pids"})


def _read_set(path: str) -> set[str]:
    try:
        with open(path) as fh:
            return set(fh.read().split())
    except OSError:
        return set()


def _usable(group: str) -> bool:
    """Children made here get the memory and pids controllers, and this process may make them."""
    return _read_set(os.path.join(group, "cgroup.subtree_control")) >= NEEDED and os.access(group, os.W_OK)


def _v2_parent(group: str) -> str | None:
    """Where bots' groups go, for a process in the v2 group ``group``: the group itself, its parent when the
    referee already claimed that one (``group`` is its ``referee/``), or the group once claimed; else ``None``."""
    if _usable(group):
        return group
    if os.path.basename(group) == SUPERVISOR and _usable(os.path.dirname(group)):
        return os.path.dirname(group)
    return group if claim(group) else None


def delegated(group: str) -> bool:
    """Whether systemd delegated ``group`` to this user (its ``user.delegate`` mark, systemd 251 and later; root's
    ``trusted.delegate`` is readable by root only) and this user may arrange it."""
    marked = False
    for name in ("user.delegate", "trusted.delegate"):
        try:
            marked = marked or os.getxattr(group, name) == b"1"
        except OSError:
            continue
    files = [group, *(os.path.join(group, f) for f in ("cgroup.procs", "cgroup.subtree_control"))]
    return marked and all(os.access(f, os.W_OK) for f in files)


def claim(group: str) -> bool:
    """Make a delegated v2 ``group`` hand its controllers to children: its processes (this one, and whatever the
    scope was started with) move into ``group/referee``, then memory, pids and cpu are enabled. ``False`` when the
    group is not delegated to this user, lacks a controller, or refuses (nothing is undone: all stays in the scope)."""
    if not delegated(group) or not _read_set(os.path.join(group, "cgroup.controllers")) >= NEEDED:
        return False
    leaf = os.path.join(group, SUPERVISOR)
    try:
        os.makedirs(leaf, exist_ok=True)
    except OSError:
        return False
    for _ in range(5):  # a process forked while moving the others is left behind once: move again
        for pid in _read_set(os.path.join(group, "cgroup.procs")):
            _write(os.path.join(leaf, "cgroup.procs"), pid)
        if _write(os.path.join(group, "cgroup.subtree_control"), "+memory +pids"):
            if "cpu" in _read_set(os.path.join(group, "cgroup.controllers")):
                _write(os.path.join(group, "cgroup.subtree_control"), "+cpu")  # a share, and the CPU clock's count
            return _usable(group)
    return False


def _write(path: str, value: str) -> bool:
    try:
        with open(path, "w") as fh:
            fh.write(value)
        return True
    except OSError:
        return False


class BotGroup:
    """The control group(s) of one bot process: made with its limits, emptied and removed at the end."""

    def __init__(self, hierarchy: Hierarchy, *, memory_bytes: int | None, processes: int | None,
                 cpus: float | None) -> None:
        name = f"{PREFIX}{os.getpid()}-{next(_counter)}"
        self.version = hierarchy.version
        self.dirs: list[str] = []
        self.limited: set[str] = set()
        for controller, parent in hierarchy.parents:
            path = os.path.join(parent, name)
            os.mkdir(path)
            self.dirs.append(path)
            wants = hierarchy.controllers if self.version == 2 else {controller}
            if "memory" in wants and memory_bytes:
                key = "memory.max" if self.version == 2 else "memory.limit_in_bytes"
                if _write(os.path.join(path, key), str(memory_bytes)):
                    self.limited.add("memory")
                    # No swap escape: v1 counts memory+swap separately, v2 caps swap on its own.
                    _write(os.path.join(path, "memory.swap.max" if self.version == 2
                                        else "memory.memsw.limit_in_bytes"),
                           "0" if self.version == 2 else str(memory_bytes))
            if "pids" in wants and processes and _write(os.path.join(path, "pids.max"), str(processes)):
                self.limited.add("pids")
            if "cpu" in wants and cpus:
                quota = max(1000, int(cpus * 100_000))
                ok = (_write(os.path.join(path, "cpu.max"), f"{quota} 100000") if self.version == 2 else
                      _write(os.path.join(path, "cpu.cfs_period_us"), "100000")
                      and _write(os.path.join(path, "cpu.cfs_quota_us"), str(quota)))
                if ok:
                    self.limited.add("cpu")

    def cpu_meter(self) -> CgroupMeter | None:
        """A reader of the group's CPU time (v1 ``cpuacct.usage``, v2 ``cpu.stat``); ``None`` if it has none."""
        names = ("cpu.stat",) if self.version == 2 else ("cpuacct.usage",)
        for d in self.dirs:
            for name in names:
                path = os.path.join(d, name)
                if os.path.exists(path):
                    try:
                        return CgroupMeter(path, self.version)
                    except (OSError, ValueError):
                        return None
        return None

    @property
    def procs_files(self) -> list[str]:
        """The files a process writes its pid to, to join every group."""
        return [os.path.join(d, "cgroup.procs") for d in self.dirs]

    def members(self) -> set[int]:
        """The pids in the group now."""
        pids: set[int] = set()
        for path in self.procs_files:
            try:
                with open(path) as fh:
                    pids.update(int(p) for p in fh.read().split())
            except OSError:
                pass
        return pids

    def kill(self, wait: float = 5.0) -> bool:
        """SIGKILL every process in the group, again until it is empty (a fork bomb races the first pass)."""
        if self.version == 2 and self.dirs and _write(os.path.join(self.dirs[0], "cgroup.kill"), "1"):
            pass
        end = time.monotonic() + wait
        while True:
            pids = self.members()
            if not pids:
                return True
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            if time.monotonic() > end:
                return False
            time.sleep(0.005)

    def remove(self) -> None:
        """Kill what is left and remove the directories (a group holding a dying process is retried briefly)."""
        self.kill()
        for d in self.dirs:
            for _ in range(100):
                try:
                    os.rmdir(d)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)
        self.dirs = []


def sweep(hierarchy: Hierarchy) -> int:
    """Remove the empty groups left by referees that were killed outright; how many were removed."""
    removed = 0
    for _, parent in hierarchy.parents:
        try:
            names = os.listdir(parent)
        except OSError:
            continue
        for name in names:
            if not name.startswith(PREFIX):
                continue
            try:
                owner = int(name[len(PREFIX):].split("-")[0])
            except ValueError:
                continue
            if owner == os.getpid() or os.path.exists(f"/proc/{owner}"):
                continue
            try:
                os.rmdir(os.path.join(parent, name))
                removed += 1
            except OSError:
                pass
    return removed
