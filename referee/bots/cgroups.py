"""One control group per bot process: memory, process-count and CPU limits, its CPU time, and a way to kill all of it.

cgroup v2 is used when this process's own group can hand the memory and pids controllers to a
child; otherwise the v1 hierarchies (one directory per controller). A group is made under the
referee's own group in each hierarchy (so it works inside a container that gave us a subtree), its
limits are written, and the launch command puts itself in with ``echo $$ > .../cgroup.procs`` before
it execs the bot, so no process of the bot ever runs outside it.
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
        parent = os.path.normpath(f"{ROOT}{own['']}")
        for candidate in (parent, f"{ROOT}/unified{own['']}"):
            try:
                with open(os.path.join(candidate, "cgroup.subtree_control")) as fh:
                    enabled = set(fh.read().split())
            except OSError:
                continue
            if {"memory", "pids"} <= enabled and os.access(candidate, os.W_OK):
                return Hierarchy(2, (("", os.path.normpath(candidate)),))
    return None


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
