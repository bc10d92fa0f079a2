"""An arena's build steps, run beside its first games instead of before them (issue 51).

A class's first run builds every submission from scratch: a javac is a second of CPU, and the games between the
bots that need no build (or are built already) need not wait for it. So the builds start as the workers do, on a
thread of their own, and ``gated`` holds back only the games that seat a bot still building. The plan is made on
the pool before the builds: if one fails, the runner plays the games again without that bot (as it does for a bot
the start-up probe finds cannot start), so the results are those of the arena with the builds first, game for game.

Everything the builds say reaches the terminal from the main thread (``take``), between two games: a note from the
build threads could cut the progress line as it is drawn.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Sequence, TypeVar

from referee.bots.entry import BotEntry
from referee.run.background import Background

if TYPE_CHECKING:  # the build machinery is imported only when there is something to build
    from referee.builds.steps import LeftOut

G = TypeVar("G")
#: Games held back for bots still building, at most: then the games wait for the builds (a round of millions whose
#: every game seats a bot building is not read whole into memory).
HOLD = 4096
#: How often a wait for the builds wakes (a Ctrl-C is taken at once: its handler runs between two waits).
WAKE_S = 0.25


def build_note(entry: BotEntry, failure: LeftOut | None, seconds: float) -> str:
    """The line a build's end is told with: "built NAME (0.4 s, sandbox full)", or why the bot is left out."""
    if failure is None:
        how = "" if entry.built is None else (", from the cache" if entry.built.cached else "") + \
            f", sandbox {entry.built.level}"
        return f"built {entry.spec.name} ({seconds:.1f} s{how})"
    where = f"; log: {failure.log}" if failure.log else ""
    level = f" (build sandbox {failure.build_level})" if failure.build_level else ""
    tail = "".join(f"\n    {line}" for line in failure.detail.splitlines())
    return f"left out {entry.spec.name}: {failure.reason}{level}{where}{tail}"


class BuildsBeside:
    """The build steps of ``entries`` (those with one), ``jobs`` at a time on a daemon thread.

    The build thread only appends what ended; the main thread ``take``s it: the built entries, the bots left out,
    the notes. ``waiting`` is the names whose builds it has not taken yet; ``done`` says all are taken.
    """

    def __init__(self, entries: Sequence[BotEntry], log_dir: str | None, jobs: int) -> None:
        self.entries = [e for e in entries if e.build]
        self.log_dir = log_dir
        self.jobs = jobs
        self.waiting: set[str] = {e.spec.name for e in self.entries}
        self.built: dict[str, BotEntry] = {}
        self.failed: dict[str, LeftOut] = {}
        self._ended: list[tuple[BotEntry, LeftOut | None, float]] = []
        self._news = threading.Condition()
        self._cancel = threading.Event()
        # A daemon: an interrupted run does not wait for its builds (``stop`` ends their processes).
        self._builds: Background[object] = Background("lastcard-builds")

    @property
    def started(self) -> bool:
        return self._builds.started

    @property
    def done(self) -> bool:
        return not self.waiting

    @property
    def blocked(self) -> set[str]:
        """The bots whose games wait: those building, and those whose build failed."""
        return self.waiting | self.failed.keys()

    def start(self) -> None:
        """Start the builds (once; nothing to build, nothing started)."""
        if self._builds.started or not self.entries:
            return
        # Imported here, before the thread starts: a thread must not hold an import lock when workers are forked.
        from referee.builds.steps import run_builds

        def ended(entry: BotEntry, failure: LeftOut | None, seconds: float) -> None:
            with self._news:
                self._ended.append((entry, failure, seconds))
                self._news.notify_all()

        self._builds.start(lambda: run_builds(self.entries, self.log_dir, self.jobs, ended, self._cancel))

    def take(self, note: Callable[[str], None]) -> bool:
        """Take the builds ended since last asked (each told with ``note``); True once every build is taken.

        A build that raised (a strict sandbox this machine cannot build, say) raises here."""
        with self._news:
            ended, self._ended = self._ended, []
        for entry, failure, seconds in ended:
            name = entry.spec.name
            self.waiting.discard(name)
            if failure is None:
                self.built[name] = entry
            else:
                self.failed[name] = failure
            note(build_note(entry, failure, seconds))
        if self._builds.done or (self._builds.started and not self.waiting):
            self._builds.result()  # the thread's end (every build taken), or its exception (one raised)
        return not self.waiting

    def wait(self, note: Callable[[str], None]) -> bool:
        """Wait a while for a build to end, then ``take``."""
        self.start()  # the games' end waits for them: they must have started (they do as the workers are forked)
        with self._news:
            if not self._ended and not self._builds.done:
                self._news.wait(WAKE_S)
        return self.take(note)

    def finish(self, note: Callable[[str], None]) -> None:
        """Wait for every build (started now if no game started them)."""
        while not self.wait(note):
            pass

    def stop(self) -> None:
        """End the builds still running (an interrupted arena): their processes are killed and their threads end
        before this returns (``STOPPED_S`` at most): no build outlives the arena."""
        from referee.run.side_by_side import STOPPED_S  # here: a match builds nothing beside its games

        self._cancel.set()
        self._builds.join(STOPPED_S + 2 * WAKE_S)


def gated(games: Iterable[G], seats: Callable[[G], Iterable[str]], builds: BuildsBeside,
          poll: Callable[[], None], hold: int = HOLD) -> Iterator[G | None]:
    """``games`` in their order, but each that seats a bot still building comes once it is built.

    Games with no such bot pass at once; those held come out as their bots' builds are taken (``poll``, asked as
    each game is read). Where it would wait for a build (``hold`` games held, or the plan read to its end), it yields
    None instead: the executor reads again soon and as games end, and meanwhile plays the games it has. A game of a
    bot whose build failed stays held: once every build has ended, ``poll`` raises (the runner plays the arena again
    without that bot).
    """
    held: list[G] = []
    blocked = len(builds.blocked)  # held games are looked at again only when a build has ended

    def released() -> Iterator[G]:
        nonlocal blocked
        if len(builds.blocked) < blocked:
            blocked = len(builds.blocked)
            yield from _release(held, seats, builds.blocked)

    for game in games:
        if builds.waiting:
            poll()
        if held:
            yield from released()
        if builds.blocked and not builds.blocked.isdisjoint(seats(game)):
            held.append(game)
            while len(held) >= hold:
                yield None
                poll()
                yield from released()
            continue
        yield game
    while held:
        yield None
        poll()
        yield from released()


def _release(held: list[G], seats: Callable[[G], Iterable[str]], blocked: set[str]) -> Iterator[G]:
    """The games of ``held`` none of whose bots is ``blocked``, in their order (removed from ``held``)."""
    if blocked:
        ready = [g for g in held if blocked.isdisjoint(seats(g))]
        held[:] = [g for g in held if not blocked.isdisjoint(seats(g))]
    else:
        ready, held[:] = held[:], []
    yield from ready
