#!/usr/bin/env python3
"""The floor under the referee per decision: its system calls on the bots replayed from C, nothing else.

    python bench/referee_floor.py [--decisions 20000] [--rounds 3] [--one-bot] [--keep DIR]

Runs the referee row of bench/speed_table.py (4 trivial C bots, family single rounds, ``--sandbox none``,
the same games) once under ``strace``, turns the trace of its main thread into a replay (every byte
written to each seat, in order, and the polls, reads, CPU clock readings and ``wait4`` around them),
then has bench/referee_floor.c do exactly those calls to four freshly started trivial bots, without the
engine, the turn line or the catch-up. Printed per round, pinned to core 0 beside the raw pipe
(bench/pingpong.c): microseconds per decision of each variant (referee_floor.c says what each leaves
out). speed_table.py's referee row prints the same beside the referee itself.

Needs strace and gcc (and taskset). A trace is the referee's own calls, so only the main thread is
followed: the bots and the referee's stderr threads are not traced.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import struct
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve()
REPO = HERE.parent.parent
#: The replay's first bytes (referee_floor.c checks them).
MAGIC = b"LCFLOOR1"
#: What speed_table.py's ``--marks`` writes start with (its ``MARK``).
MARK = b"lastcard-floor:"
#: referee_floor.c's variants, in the order it runs them, and what each does per decision.
VARIANTS = {
    "full": "poll(0), write, poll, read, 2 CPU clocks, wait4 between games",
    "noclock": "without the CPU clocks",
    "noclock-nopoll0": "without the clocks and the poll(0)s",
    "bare": "write and a blocking read only",
}
_CALL = re.compile(r"^(\w+)\((.*)\)\s+=\s+(-?\d+|0x[0-9a-f]+)")
_BYTES = re.compile(r'"((?:\\x[0-9a-f]{2})*)"')


@dataclass(frozen=True)
class Seat:
    """One bot as the referee held it: its stdin and stdout descriptors and its process id."""

    stdin: int
    stdout: int
    pid: int

    @property
    def clock(self) -> int:
        """Its CPU clock as ``clock_gettime`` is given it (``cpuclock.process_clock_id``), as strace prints it."""
        return (((~self.pid) << 3) | 2) & 0xFFFFFFFF


def _hex(field: str) -> bytes:
    """The bytes of a ``-xx`` quoted string."""
    return bytes.fromhex(field.replace("\\x", ""))


def _data(args: str, ret: int) -> bytes:
    """The bytes a ``read`` or ``write`` moved (``ret`` of them), from its printed arguments."""
    quoted = _BYTES.search(args)
    data = _hex(quoted.group(1))[:ret] if quoted else b""
    if len(data) != ret:
        raise SystemExit(f"a {ret}-byte read or write printed short: raise strace's -s")
    return data


def _calls(trace: Path) -> tuple[list[tuple[str, str, int]], dict[int, Seat]]:
    """The calls of an ``strace -xx`` (name, arguments, result; a mark is named ``mark``) and the seats marked."""
    calls: list[tuple[str, str, int]] = []
    seats: dict[int, Seat] = {}
    with open(trace, encoding="ascii", errors="replace") as fh:
        for line in fh:
            m = _CALL.match(line)
            if m is None:  # a signal, an unfinished call, the exit
                continue
            name, args, ret = m.group(1), m.group(2), int(m.group(3), 0)
            if name == "write" and MARK.hex() in args.replace("\\x", ""):
                words = _data(args, ret)[len(MARK):].decode().split()
                if words[0] == "seat":
                    seats[int(words[1])] = Seat(*map(int, words[2:5]))
                name, args = "mark", " ".join(words)
            calls.append((name, args, ret))
    if not seats:
        raise SystemExit(f"{trace}: no seat marks (was the referee run with --marks?)")
    return calls, seats


class _Replay:
    """Builds the replay from the calls, call by call: those on the seats' bots become ops, the rest go."""

    def __init__(self, seats: dict[int, Seat]) -> None:
        self.by_in = {s.stdin: i for i, s in seats.items()}
        self.by_out = {s.stdout: i for i, s in seats.items()}
        self.by_pid = {s.pid: i for i, s in seats.items()}
        self.by_clock = {s.clock: i for i, s in seats.items()}
        self.out = bytearray(MAGIC)
        self.pending = {i: b"" for i in seats}  # what was read from each seat past its last line
        self.timed = False
        self.decisions = 0  # answers read in the timed games
        self.end_said = -1  # the decisions the referee counted (its ``end`` mark)

    def op(self, kind: bytes, seat: int, data: bytes | None = None) -> None:
        self.out += kind + bytes([seat])
        if data is not None:
            self.out += struct.pack("<I", len(data)) + data

    def add(self, name: str, args: str, ret: int) -> bool:
        """Take one call; whether the timed games are over."""
        first = args.split(",", 1)[0].split()[0] if args else ""  # "5", or "0xfffe8c22 /* CLOCK_??? */"
        fd = int(first) if first.isdigit() else -1
        if name == "mark":
            return self.mark(args)
        if name == "write" and fd in self.by_in and ret > 0:
            self.op(b"W", self.by_in[fd], _data(args, ret))
        elif name == "read" and fd in self.by_out and ret > 0:
            self.answers(self.by_out[fd], _data(args, ret))
        elif name == "poll":  # only the poll(0)s: the waiting ones are part of a read (R)
            m = re.match(r"\[\{fd=(\d+), events=POLLIN\}\], 1, 0$", args)
            if m and int(m.group(1)) in self.by_out:
                self.op(b"P", self.by_out[int(m.group(1))])
        elif name == "clock_gettime" and first.startswith("0x") and int(first, 16) in self.by_clock:
            self.op(b"C", self.by_clock[int(first, 16)])
        elif name == "wait4" and fd in self.by_pid:
            self.op(b"X", self.by_pid[fd])
        return False

    def mark(self, text: str) -> bool:
        if text == "timed":
            self.op(b"T", 0)
            self.timed = True
        elif text.startswith("end"):
            self.op(b"E", 0)
            self.end_said = int(text.split()[1])
            return True
        return False

    def answers(self, seat: int, chunk: bytes) -> None:
        """A read from a seat: an R for each line it completes."""
        *lines, self.pending[seat] = (self.pending[seat] + chunk).split(b"\n")
        for answer in lines:
            self.op(b"R", seat, answer)
            self.decisions += self.timed


def parse(trace: Path) -> tuple[bytes, int]:
    """The replay (referee_floor.c's format) of an ``strace -xx`` of ``--measure-referee ... --marks``, and the
    number of timed decisions (answers read between the marks)."""
    calls, seats = _calls(trace)
    replay = _Replay(seats)
    for call in calls:
        if replay.add(*call):
            break
    if replay.end_said != replay.decisions:
        raise SystemExit(f"{trace}: {replay.decisions} answers read in the timed games, the referee counted "
                         f"{replay.end_said}")
    return bytes(replay.out), replay.decisions


def capture(tree: Path, trivial: str, decisions: int, replay: Path) -> int:
    """Run the referee row's games under strace and write their replay to ``replay``; the timed decisions."""
    trace = replay.with_suffix(".strace")
    cmd = ["strace", "-o", str(trace), "-xx", "-s", str(1 << 20), "-e",
           "trace=write,read,poll,clock_gettime,wait4", sys.executable, str(HERE.parent / "speed_table.py"),
           "--measure-referee", str(tree), trivial, str(decisions), "none", "--marks"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    data, count = parse(trace)
    replay.write_bytes(data)
    trace.unlink()
    return count


def build(tmp: str) -> dict[str, str]:
    """referee_floor.c, pingpong.c and the trivial bot, compiled into ``tmp``."""
    out = {}
    for name, src in (("floor", HERE.parent / "referee_floor.c"), ("pingpong", HERE.parent / "pingpong.c"),
                      ("trivial", REPO / "sample_bots/c/trivial.c")):
        exe = os.path.join(tmp, name)
        subprocess.run(["gcc", "-O2", "-std=gnu99", "-o", exe, str(src)], check=True)
        out[name] = exe
    return out


@dataclass(frozen=True)
class Run:
    """One variant's microseconds per decision: the wall clock, the floor's own CPU, the four bots' CPU."""

    wall: float
    cpu: float
    bots_cpu: float


def floor_runs(exe: dict[str, str], replay: Path, variants: list[str] | None = None) -> dict[str, Run]:
    """Each variant run once, pinned to core 0 with its bots (``exe``: from ``build``)."""
    out = subprocess.run(["taskset", "-c", "0", exe["floor"], str(replay), exe["trivial"], *(variants or VARIANTS)],
                         check=True, capture_output=True, text=True).stdout
    result = {}
    for line in out.splitlines():
        name, wall, cpu, bots_cpu, _decisions, mismatches = line.split()
        if int(mismatches):
            raise SystemExit(f"referee_floor {name}: {mismatches} answers differ from the referee's")
        result[name] = Run(float(wall), float(cpu), float(bots_cpu))
    return result


def one_bot(replay: bytes) -> bytes:
    """The same replay with every op on seat 0: the same bytes and calls, to one bot rather than four."""
    out, at = bytearray(replay[:len(MAGIC)]), len(MAGIC)
    while at < len(replay):
        kind = replay[at:at + 1]
        out += kind + b"\0"
        at += 2
        if kind in (b"W", b"R"):
            (size,) = struct.unpack_from("<I", replay, at)
            out += replay[at:at + 4 + size]
            at += 4 + size
    return bytes(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=20_000, help="as speed_table.py's (the same games)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--tree", default=str(REPO), help="the referee's tree to capture (its bytes)")
    ap.add_argument("--keep", metavar="DIR", help="build and capture into DIR and leave them there")
    ap.add_argument("--one-bot", action="store_true",
                    help="also full and bare with every seat's lines to one bot: what four processes cost")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        where = args.keep or tmp
        os.makedirs(where, exist_ok=True)
        exe = build(where)
        replay = Path(where) / "floor.replay"
        count = capture(Path(args.tree), exe["trivial"], args.decisions, replay)
        print(f"{count} decisions captured; load average {os.getloadavg()[0]:.1f}")
        single = Path(where) / "one-bot.replay"
        if args.one_bot:
            single.write_bytes(one_bot(replay.read_bytes()))
        raws: list[float] = []
        runs: dict[str, list[Run]] = {}
        for _ in range(args.rounds):
            raws.append(float(subprocess.run(["taskset", "-c", "0", exe["pingpong"], str(args.decisions), "700"],
                                             capture_output=True, text=True, check=True).stdout))
            for name, run in floor_runs(exe, replay).items():
                runs.setdefault(name, []).append(run)
            if args.one_bot:
                for name, run in floor_runs(exe, single, ["full", "bare"]).items():
                    runs.setdefault(f"{name}/one-bot", []).append(run)
            print(f"raw {raws[-1]:.2f}  " + "  ".join(f"{k} {v[-1].wall:.2f}" for k, v in runs.items()))
        raw = statistics.median(raws)
        print(f"medians over {args.rounds} rounds, us a decision (load average {os.getloadavg()[0]:.1f} at the end):")
        print(f"  raw pipe (pingpong.c, 700 bytes): {raw:.2f}")
        for name in runs:
            wall, cpu, bots = (statistics.median(getattr(run, field) for run in runs[name])
                               for field in ("wall", "cpu", "bots_cpu"))
            what = VARIANTS[name] if name in VARIANTS else f"{VARIANTS[name.split('/')[0]]}, to one bot"
            print(f"  floor {name} ({what}): {wall:.2f} wall, {wall / raw:.2f}x the raw pipe "
                  f"(CPU: the floor {cpu:.2f}, the bots {bots:.2f})")


if __name__ == "__main__":
    main()
