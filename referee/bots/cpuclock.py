"""The CPU time a bot's processes used: its cgroup's counter, or the CPU clocks of its processes.

Under ``clock: cpu`` a move is charged the CPU time the bot used between the request's write and the
answer's read, so a bot sharing its core with other work is not charged the time it spent waiting
for the core. The cgroup counter (v1 ``cpuacct.usage`` in ns, v2 ``cpu.stat`` ``usage_usec``) counts
every process of the bot, children included, even those that already exited. Where the bot has no
cgroup (``sandbox: none``, or no writable cgroups), the per-process clocks of its processes are
summed instead (``clock_getcpuclockid``): that counts the processes alive when they are read, so CPU
burnt by a child that exits within a move is missed. Both are read in well under a microsecond
(``bench/referee_bench.py --clock``), from a file kept open and one ``clock_gettime`` a process.
"""

from __future__ import annotations

import enum
import os
import time
from typing import Final, Protocol

#: ``time.clock_gettime_ns``, read directly: compiled, ``time.clock_gettime_ns`` is a look-up in the module each
#: time, twice a decision.
_clock_gettime_ns: Final = time.clock_gettime_ns

class Clock(enum.Enum):
    """What a move's time is measured in."""

    CPU = "cpu"
    """The CPU time the bot's processes used (with a wall-clock backstop: a sleeping bot uses none)."""
    WALL = "wall"
    """The time that passed, whatever the bot did with it (and whatever else ran on its core)."""


#: Under ``clock: cpu``, the wall-clock backstop of a move without ``wall_ms``: this many times the CPU
#: time it may use (move limit plus the bank left). A bot given a quarter of a core (three other
#: processes on it) still fits; one that sleeps or blocks is stopped (docs/security.md).
WALL_FACTOR: Final = 5


def wall_limit_ms(cpu_limit_ms: float, wall_ms: int | None) -> float:
    """The wall-clock backstop of a move allowed ``cpu_limit_ms`` of CPU time (``wall_ms``: one set outright)."""
    return float(wall_ms) if wall_ms is not None else WALL_FACTOR * cpu_limit_ms


def parse_clock(value: object) -> Clock:
    """``cpu`` or ``wall``; a ``ValueError`` naming the value and the choices otherwise."""
    try:
        return Clock(value)
    except ValueError:
        raise ValueError(f"clock must be cpu or wall, not {value!r}") from None


class Source(enum.Enum):
    """How a seat's clock was actually read (recorded per game, like the sandbox level)."""

    CGROUP = "cpu"
    """CPU time from the bot's cgroup: every process, children included."""
    PROCESS = "cpu-process"
    """CPU time summed over the bot's live processes (no cgroup here)."""
    WALL = "wall"
    """Wall time: asked for, or no CPU time could be read."""


class CpuMeter(Protocol):
    """Reads the CPU time, in nanoseconds, a bot's processes used since they started."""

    source: Source

    def read_ns(self) -> int:
        """The CPU nanoseconds used so far (only differences mean anything)."""

    def refresh(self) -> None:
        """Look again for the processes to count (a no-op where the kernel counts them all)."""

    def close(self) -> None:
        """Let go of what reading needed."""


class CgroupMeter:
    """The CPU counter of a bot's cgroup, kept open and re-read from its start (one ``pread``)."""

    source = Source.CGROUP

    def __init__(self, path: str, version: int) -> None:
        self.path = path
        self.version = version
        self._fd: int | None = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        self.read_ns()  # a counter that cannot be read fails here, at the start, not at a move

    def read_ns(self) -> int:
        fd = self._fd
        if fd is None:
            raise OSError(f"{self.path} is closed")
        data = os.pread(fd, 256, 0)
        if self.version == 1:
            return int(data)
        # v2 cpu.stat: "usage_usec N\n..." comes first
        head = data.split(b"\n", 1)[0].split()
        if len(head) != 2 or head[0] != b"usage_usec":
            raise OSError(f"{self.path}: no usage_usec in {data[:60]!r}")
        return int(head[1] + b"000")  # microseconds to ns without `* 1000`: see BuiltinSeat.begin in table.py

    def refresh(self) -> None:
        pass

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def process_clock_id(pid: int) -> int:
    """The CPU-time clock of process ``pid`` (what ``clock_getcpuclockid(3)`` returns on Linux)."""
    return ((~pid) << 3) | 2  # MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED) from the kernel's posix-timers.h


class ProcessMeter:
    """The CPU clocks of a process and its descendants, summed (no cgroup to ask).

    The descendants are looked for when the meter is made, at the first move and when a move runs
    long (``refresh``): walking /proc costs milliseconds, too much for every move. A process that
    ended keeps the time read from it last.
    """

    source = Source.PROCESS

    def __init__(self, pid: int) -> None:
        self.root = pid
        self._root_clock = process_clock_id(pid)
        self._clocks: dict[int, int] = {pid: self._root_clock}
        self._last: dict[int, int] = {}
        self._gone = 0  # the last readings of processes that ended
        self._root_ns = -1  # the bot's own clock as last read alone (-1: not yet); kept apart from ``_last``: cheaper
        self._alone = True  # only the bot's own clock is read (it started nothing seen, nothing ended)
        self.read_ns()  # a clock the kernel will not show us fails here: the caller falls back to wall

    def read_ns(self) -> int:
        if self._alone:  # the usual case, read twice a move: one clock, no loop
            try:
                ns = _clock_gettime_ns(self._root_clock)
            except OSError:
                pass  # the general path below tells an ended bot from a clock never readable
            else:
                self._root_ns = ns
                return ns
        total = self._gone
        last = self._last
        if self._root_ns >= 0:  # the first look past the bot alone: its reading so far, handed over once
            last[self.root] = self._root_ns
            self._root_ns = -1
        gone = None
        for pid, clock in self._clocks.items():
            try:
                ns = time.clock_gettime_ns(clock)
            except OSError:
                if pid == self.root and not last:
                    raise
                gone = (gone or []) + [pid]
                continue
            last[pid] = ns
            total += ns
        if gone:
            self._alone = False
            for pid in gone:
                self._gone += last.pop(pid, 0)
                del self._clocks[pid]
            total = self._gone + sum(last.values())
        return total

    def refresh(self) -> None:
        for pid in descendants(self.root):
            if pid not in self._clocks:
                self._clocks[pid] = process_clock_id(pid)
                self._alone = False

    def close(self) -> None:
        self._clocks.clear()
        self._alone = False


def descendants(root: int) -> list[int]:
    """The processes started (directly or not) by ``root``, from /proc.

    Read from each process's children lists when the kernel keeps them (Linux 3.5 on, ``CONFIG_PROC_CHILDREN``):
    only the bot's own tree is read, a few files, where reading every process's ``stat`` (the fallback) took
    2-10 ms a bot on a busy machine, at every bot's first move (a one-game match waited for four of them).
    """
    found = _children_lists(root)
    return found if found is not None else _stat_walk(root)


def _children_lists(root: int) -> list[int] | None:
    """``descendants`` from /proc/PID/task/TID/children; ``None`` where the kernel keeps no such lists."""
    out: list[int] = []
    todo = [root]
    while todo:
        pid = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue  # it ended meanwhile: it has no children to count
        for tid in tasks:
            try:
                with open(f"/proc/{pid}/task/{tid}/children", "rb") as fh:
                    listed = fh.read()
            except FileNotFoundError:
                if os.path.isdir(f"/proc/{pid}/task/{tid}"):
                    return None  # the thread is there, its list is not: a kernel without them
                continue
            except OSError:
                continue
            for child in listed.split():
                out.append(int(child))
                todo.append(int(child))
    return out


def _stat_walk(root: int) -> list[int]:
    """``descendants`` from every process's parent in /proc/PID/stat."""
    children: dict[int, list[int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ')'
        fields = stat[stat.rfind(b")") + 2:].split(b" ", 2)
        if len(fields) >= 2:
            children.setdefault(int(fields[1]), []).append(int(name))
    out: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), ()):
            out.append(child)
            todo.append(child)
    return out


def process_meter(pid: int | None) -> ProcessMeter | None:
    """A per-process meter for ``pid``, or ``None`` where its CPU clock cannot be read (wall time then)."""
    if pid is None:
        return None
    try:
        return ProcessMeter(pid)
    except (OSError, OverflowError):
        return None
