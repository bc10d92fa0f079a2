"""Bots that cannot start: found early, named with their own error, instead of retried at every game.

A start-up failure that does not depend on the game (the command is missing, its folder is closed, it
exits before ``ready`` with the same error) fails the same way every time. A ``match`` (and ``compare``)
stops once a process bot that never started has failed ``TRIES`` games in a row with the same error
(``StartupWatch``); an ``arena`` starts each process bot before the games (``probe``), twice if the
first start fails, and leaves out a bot whose two starts failed alike, with that error as the reason.
"""

from __future__ import annotations

import os
import re
import threading
import time
from dataclasses import dataclass, replace
from typing import Mapping, Sequence

from referee.bots.logs import log_size, read_log, stderr_log
from referee.bots.pipes.client import BotClient
from referee.bots.pipes.transport import STDERR_MARK
from referee.bots.pool import BotPool
from referee.bots.spec import BotSpec
from referee.bots.walls_hint import hidden_by_walls, walls_lines
from referee.protocol.faults import BotFault, FaultKind
from referee.run.background import Background
from referee.store.results import GameResult

#: Games in a row a never-started bot may fail to start, the same way, before a match stops.
TRIES = 3
#: Bots the probe starts side by side (at least; more with more workers).
PROBE_AT_ONCE = 8
#: Seconds after the games begin when the probe starts the bots no game has started yet, at the latest.
PROBE_AFTER_S = 1.0


def same_way(message: str) -> str:
    """What must repeat for two start-up failures to be "the same": the first line, without its parenthesised
    details (an exit's "leaving processes it started that held its pipes" comes and goes with timing)."""
    first = message.splitlines()[0] if message else ""
    return re.sub(r"\s*\([^()]*\)", "", first).strip()


@dataclass(frozen=True)
class CannotStart:
    """A bot that failed to start the same way in each of its first ``tries`` games (or probes)."""

    bot: str
    tries: int
    message: str
    stderr: tuple[str, ...] = ()
    """The bot's own words: the last lines it wrote to stderr in its last try."""
    log: str | None = None
    """Its stderr log, if it is kept."""
    spec: BotSpec | None = None
    walls: tuple[str, ...] = ()
    """What the sandbox's walls may have hidden from it, read from its stderr, and the fix (``walls_hint``)."""

    def text(self) -> str:
        return (f"{self.bot} could not start, the same way {self.tries} times, so the run stopped early "
                f"instead of trying it at every game:\n"
                + "\n".join(f"    {line}" for line in self.message.splitlines())
                + "".join(f"\n{line}" for line in self.words())
                + "\nfix the bot's command (try it in a shell from its folder, then `lastcard check`)")

    def words(self) -> list[str]:
        """``  its stderr (the end of LOG):`` and its lines, each ``    | ...``, then what the walls hid; nothing if
        it wrote nothing."""
        if not self.stderr:
            return []
        return ["  its stderr" + (f" (the end of {self.log})" if self.log else "") + ":"] + [
            f"    | {line}" for line in self.stderr] + walls_lines(self.walls)

    def with_words(self, log_dir: str | None) -> CannotStart:
        """This failure with the end of the bot's stderr log in ``log_dir`` (its last game's part)."""
        if log_dir is None or self.stderr:
            return self
        log = stderr_log(log_dir, self.bot)
        words = last_stderr(log)
        walls = hidden_by_walls(words, self.spec) if self.spec is not None else ()
        return replace(self, stderr=words, log=log, walls=walls) if words else self



class StartupWatch:
    """Watches each game's start-up faults; ``see`` says when a bot that never started keeps failing alike."""

    def __init__(self, specs: Mapping[str, BotSpec], tries: int = TRIES) -> None:
        self.specs = specs
        self.process = {name for name, spec in specs.items() if spec.builtin is None}
        self.tries = tries
        self.started: set[str] = set()
        self.streak: dict[str, tuple[str, int]] = {}

    def see(self, result: GameResult) -> CannotStart | None:
        failed = {f.bot: f.message for f in result.faults if f.kind is FaultKind.STARTUP and f.bot is not None}
        for name in result.seating:
            if name not in self.process or name in self.started:
                continue
            message = failed.get(name)
            if message is None:  # it started in this game: whatever failed before depended on the game
                self.started.add(name)
                self.streak.pop(name, None)
                continue
            key = same_way(message)
            last, count = self.streak.get(name, (key, 0))
            count = count + 1 if last == key else 1
            self.streak[name] = (key, count)
            if count >= self.tries:
                return CannotStart(name, count, message, spec=self.specs[name])
        return None


class ProbeBeside:
    """``probe`` on a thread of its own, beside the first games (issue 51): an arena plays on the pool as built while
    its bots are started once each; ``failed`` says, once it is known, which cannot start (the games played meanwhile
    then belong to another pool: the runner plays them again without those bots).

    A bot the games have started already needs no probe: ``see`` is told each game as it ends, and ``start`` starts
    only the bots no game has started yet. The runner starts it once it is ``due``: every bot started in a game
    (then nothing is started twice: a JVM's start-up is a fifth of a second of CPU), one failed to start in a game,
    ``after_s`` passed since the games began (``arm``), or the games' end.

    Its bots write to a folder of their own (``log_dir``): the games' bots write the stderr logs in the run's.
    """

    def __init__(self, log_dir: str, workers: int, after_s: float = PROBE_AFTER_S) -> None:
        self.log_dir = log_dir
        self.workers = workers
        self.after_s = after_s
        self.started_in_games: set[str] = set()
        """The bots some game has started: not probed."""
        self.failed_in_games: set[str] = set()
        self._due_at: float | None = None
        # A daemon: an interrupted run does not wait for it (its bots' watchdogs end them).
        self._probe: Background[dict[str, CannotStart]] = Background("lastcard-probe")

    def arm(self) -> None:
        """The games begin: the probe is due ``after_s`` from now at the latest."""
        if self._due_at is None:
            self._due_at = time.monotonic() + self.after_s

    def see(self, result: GameResult) -> None:
        """A game ended: its bots that started need no probe; one that failed to start makes the probe due."""
        failed = {f.bot for f in result.faults if f.kind is FaultKind.STARTUP}
        self.failed_in_games |= {name for name in failed if name is not None}
        self.started_in_games.update(name for name in result.seating if name not in failed)

    def due(self, specs: Sequence[BotSpec]) -> bool:
        """Whether to ``start`` now: each bot program of ``specs`` started in a game, one failed to, or it is time."""
        return bool(self.failed_in_games) or (self._due_at is not None and time.monotonic() >= self._due_at) or \
            all(s.name in self.started_in_games for s in specs if s.builtin is None)

    def start(self, specs: Sequence[BotSpec]) -> None:
        """Start the probe (once) of the bot programs of ``specs`` no game has started; with none, the verdict (none)
        is ready at once."""
        if self._probe.started:
            return
        left = [s for s in specs if s.builtin is None and s.name not in self.started_in_games]
        if not left:
            self._probe.start(dict)  # nothing to start: an empty verdict, from a thread that ends at once
            return
        os.makedirs(self.log_dir, exist_ok=True)
        self._probe.start(lambda: probe(left, self.log_dir, self.workers))

    @property
    def started(self) -> bool:
        return self._probe.started

    @property
    def done(self) -> bool:
        """Started and over: its verdict is ready."""
        return self._probe.done

    def failed(self) -> dict[str, CannotStart]:
        """The bots found unable to start, once the probe is over; nothing while it runs (or never started)."""
        return self._probe.result() if self._probe.done else {}

    def wait(self) -> dict[str, CannotStart]:
        """Wait for the probe: the bots that cannot start (none if it never started)."""
        return self._probe.result() if self._probe.started else {}


def probe(specs: Sequence[BotSpec], log_dir: str | None, workers: int = 4) -> dict[str, CannotStart]:
    """Start each process bot once (twice if that fails); the bots whose two starts failed with one error.

    ``PROBE_AT_ONCE`` start side by side (``workers`` if more): a start mostly waits (a JVM, an interpreter
    loading), so the probe takes about its slowest bot's start, not the sum (the sample arena's five
    bots on a loaded 2-core machine: 0.82 s one at a time, 0.49 s two at a time, 0.39 s all at once)."""
    process = [s for s in specs if s.builtin is None]
    if not process:
        return {}
    stopping = threading.Event()
    clients: list[BotClient] = []  # every start's, for a Ctrl-C to kill the bots still starting

    def stop() -> None:
        stopping.set()  # no second start once stopped
        for client in list(clients):
            client.kill()  # nothing yet if its process is not yet its own: map_side_by_side calls again

    from referee.run.side_by_side import map_side_by_side  # here: only an arena probes (a match need not import it)

    found = map_side_by_side(lambda spec: _probe_one(spec, log_dir, clients, stopping), process,
                             min(max(workers, PROBE_AT_ONCE), len(process)), stop)
    return {item.bot: item for item in found if item is not None}


def _probe_one(spec: BotSpec, log_dir: str | None, clients: list[BotClient],
               stopping: threading.Event) -> CannotStart | None:
    messages = []
    log = stderr_log(log_dir, spec.name) if log_dir else None
    words: tuple[str, ...] = ()
    for _ in range(2):
        if stopping.is_set():
            return None
        before = log_size(log)
        with BotPool(stderr_dir=log_dir) as pool:
            client = pool.client(spec)
            clients.append(client)
            try:
                client.start(0)
                return None
            except BotFault as bf:
                messages.append(bf.fault.message)
                client.kill()  # waits for its stderr to be written
        words = _lines(read_log(log, before, 8192)) if log else ()
    if same_way(messages[0]) != same_way(messages[1]):
        return None  # not the same way twice: it may start in a game
    return CannotStart(spec.name, 2, messages[0], words, log if words else None, spec, hidden_by_walls(words, spec))


def last_stderr(path: str, lines: int = 12, tail_bytes: int = 8192) -> tuple[str, ...]:
    """The last non-blank lines of a stderr log's last game (after its last ``--- game`` mark), if any.

    Every game of a bot that cannot start writes the same words, so the last game's say them once.
    """
    text = read_log(path, -tail_bytes, 8192)
    mark = text.rfind(STDERR_MARK)
    if mark >= 0:
        text = text[mark:].partition("\n")[2]
    return _lines(text, lines)


def _lines(text: str, lines: int = 12) -> tuple[str, ...]:
    return tuple(line for line in text.splitlines() if line.strip())[-lines:]
