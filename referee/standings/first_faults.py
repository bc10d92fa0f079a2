"""The faults of a run told where they happen: each bot's first fault of each kind, with its message and the
command that shows it, printed at the end of ``match``, ``arena``, ``compare`` and ``ladder run``.

The standings' faults column says ``non_json 1``; this block says what that was ("2 JSON messages on one
line ...: end each message with a newline and flush") and where (``lastcard replay DIR GAME --seat N``).
It is bounded: a class of 300 bots with faults gets ``LINES`` lines and the count of what is left out.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from itertools import groupby
from typing import Iterable, Sequence

from referee.protocol.faults import Fault
from referee.store.results_dir import ResultsDir

#: At most this many lines in the block (its heading and its last line not counted).
LINES = 24
#: A fault's message is cut to this many characters (a bot's line can be long).
MESSAGE_CHARS = 300


@dataclass(frozen=True, slots=True)
class FirstFault:
    """A bot's first fault of one kind (the one in the lowest game id), and how many of that kind it made."""

    bot: str
    kind: str
    game: str
    seat: int | None
    message: str
    count: int


class FirstFaults:
    """Each bot's first fault of each kind, as games are added in any order (a few per bot, whatever the games)."""

    def __init__(self) -> None:
        self._first: dict[tuple[str, str], FirstFault] = {}

    def add(self, game: str, seating: Sequence[str], faults: Iterable[Fault]) -> None:
        for fault in faults:
            bot = fault.bot if fault.bot is not None else (
                seating[fault.seat] if fault.seat is not None and 0 <= fault.seat < len(seating) else None)
            if bot is None:
                continue
            key = (bot, fault.kind.value)
            was = self._first.get(key)
            if was is None:
                self._first[key] = FirstFault(bot, key[1], game, fault.seat, fault.message, 1)
            elif game < was.game:
                self._first[key] = FirstFault(bot, key[1], game, fault.seat, fault.message, was.count + 1)
            else:
                self._first[key] = FirstFault(bot, key[1], was.game, was.seat, was.message, was.count + 1)

    def __len__(self) -> int:
        return len(self._first)

    def of(self, order: Sequence[str] = ()) -> list[FirstFault]:
        """Every bot's first faults: the bots in ``order`` first (the standings'), the rest by name; kinds by name."""
        rank = {name: i for i, name in enumerate(order)}
        return sorted(self._first.values(), key=lambda f: (rank.get(f.bot, len(rank)), f.bot, f.kind))


def fault_lines(faults: FirstFaults | Sequence[FirstFault], out_dir: str | None, *, order: Sequence[str] = (),
                leave_out: Iterable[str] = (), report: bool = True, limit: int = LINES) -> list[str]:
    """The block for the terminal: per bot with faults, the first fault of each kind, its message and (with an
    output folder, where games.jsonl is) the ``lastcard replay`` command that shows it; no lines without faults.

    ``leave_out``: bots whose start-up faults are told elsewhere (a bot that never started has its own block).
    ``report``: whether ``out_dir`` has a report.html, which the last line points to when lines are left out.
    """
    items = faults.of(order) if isinstance(faults, FirstFaults) else list(faults)
    skip = set(leave_out)
    items = [f for f in items if not (f.kind == "startup" and f.bot in skip)]
    if not items:
        return []
    lines = ["faults, the first of each kind" + (" and the command that shows it:" if out_dir else ":")]
    shown = 0
    for _bot, kinds in groupby(items, key=lambda f: f.bot):
        entries = [_entry(item, out_dir, i == 0) for i, item in enumerate(kinds)]
        if len(lines) - 1 + sum(map(len, entries)) > limit:  # a bot's block whole, or not at all ...
            for entry in entries if shown == 0 else ():  # ... unless it is the first: then as much as fits
                if len(lines) - 1 + len(entry) > limit:
                    break
                lines += entry
                shown += 1
            break
        for entry in entries:
            lines += entry
        shown += len(entries)
    rest = items[shown:]
    if rest:
        bots = len({f.bot for f in rest})
        folder = ResultsDir(out_dir) if out_dir else None
        where = f"see {folder.report if report else folder.games}" if folder else "--out DIR keeps every fault"
        lines.append(f"  and {len(rest)} more (of {bots} bot{'s' if bots != 1 else ''}): {where}")
    return lines


def _entry(item: FirstFault, out_dir: str | None, new_bot: bool) -> list[str]:
    times = f"{item.count} times" if item.count != 1 else "once"
    where = f"{item.game}" + (f", seat {item.seat}" if item.seat is not None else "")
    message = " ".join(item.message.split())
    if len(message) > MESSAGE_CHARS:
        message = message[:MESSAGE_CHARS] + " ..."
    out = [f"  {item.bot}:"] if new_bot else []
    out.append(f"    {item.kind} ({times}; the first in {where}): {message}")
    if out_dir:
        out.append(f"      lastcard replay {shlex.quote(out_dir)} {shlex.quote(item.game)}"
                   + (f" --seat {item.seat}" if item.seat is not None else ""))
    return out
