"""The live page's "now playing": one game followed turn by turn while it is played, for a projector.

The run loop offers each game it hands to the executor (``pick``); when no game is being followed (the last
one ended, or went quiet for ``QUIET_S``: abandoned), that game is chosen, and the worker playing it appends
each action's code to a file in this run's scratch folder (``run.follow``). So one game at a time is followed,
from the start of the run, and the view has a game to show as soon as it is opened. The page asks for the
game (``snapshot``): its seed, rules and seating and the actions so far, read from that file, then the whole
game once its result is in. It costs the followed game one small write a move, the others nothing.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from typing import Mapping, Sequence, TypedDict


class NowJson(TypedDict):
    """``/now.json``: the followed game so far (``seed`` as a string: JavaScript cannot hold most seeds)."""

    game: str
    seed: str
    ruleset: str
    options: dict[str, object]
    seating: list[str]
    actions: str
    over: bool
    placements: list[int] | None
    started: bool
    """Whether its first action was played (a game waits in a worker's queue before it starts)."""


@dataclass
class _Followed:
    game: str
    seed: int
    ruleset: str
    options: dict[str, object]
    seating: tuple[str, ...]
    path: str
    since: float
    actions: str | None = None
    """The whole game's actions once its result came (None while it is played)."""
    placements: tuple[int, ...] | None = None


class NowPlaying:
    """The game followed for the now-playing view (thread-safe: the run's thread picks, the server's reads)."""

    #: A followed game whose file did not grow for this long is given up (abandoned, or its worker died).
    QUIET_S = 60.0

    def __init__(self, folder: str | None) -> None:
        """``folder``: where the followed games' files go (None: no game is followed)."""
        self.folder = folder
        self._lock = threading.Lock()
        self._current: _Followed | None = None
        self._shown: _Followed | None = None  # the last followed game that started: shown until the next starts
        self._paths: list[str] = []  # the files of the games followed, until neither followed nor shown
        self._count = 0

    def pick(self, game: str, seed: int, ruleset: str, options: Mapping[str, object], seating: Sequence[str]
             ) -> str | None:
        """The file to follow ``game`` in, when it is the one to follow now; None otherwise (``run.loop.Pick``)."""
        now = time.monotonic()
        with self._lock:
            if self.folder is None or not self._free(now):
                return None
            self._count += 1
            path = os.path.join(self.folder, f"now-{self._count}.txt")
            self._current = _Followed(game, seed, ruleset, dict(options), tuple(seating), path, now)
            self._paths.append(path)
            gone = self._tidy()
        for old in gone:
            _remove(old)
        return path

    def _tidy(self) -> list[str]:
        """The files of games neither followed nor shown any more (under the lock: removed after it)."""
        keep = {f.path for f in (self._current, self._shown) if f is not None}
        gone = [path for path in self._paths if path not in keep]
        self._paths = [path for path in self._paths if path in keep]
        return gone

    def _free(self, now: float) -> bool:
        """Whether no game is followed now (the last ended, or went quiet): called under the lock."""
        current = self._current
        if current is None or current.actions is not None:
            return True
        try:
            with open(current.path, "rb") as fh:
                if fh.seek(0, os.SEEK_END) and (fh.seek(-1, os.SEEK_END), fh.read(1))[1] == b"\n":
                    return True  # played to its end (its result is on its way)
                quiet = time.time() - os.fstat(fh.fileno()).st_mtime
        except OSError:  # not started yet: its worker has other games before it
            quiet = now - current.since
        return quiet > self.QUIET_S

    def ended(self, game: str, actions: str, placements: Sequence[int]) -> None:
        """A game's result came in: the followed one is whole now."""
        with self._lock:
            for followed in (self._current, self._shown):
                if followed is not None and followed.game == game:
                    followed.actions, followed.placements = actions, tuple(placements)

    def snapshot(self) -> NowJson | None:
        """The followed game as the page draws it (None before the first): the one being played, or until it starts
        the last one that did (a game waits in a worker's queue first)."""
        with self._lock:
            current = self._current
            if current is None:
                return None
            actions, placements = current.actions, current.placements
        started = actions is not None
        if actions is None:
            try:
                with open(current.path, encoding="ascii") as fh:  # the codes so far, each followed by a space
                    actions = fh.read()
                started = True
            except OSError:
                actions = ""
            actions = actions[:actions.rfind(" ") + 1].strip()  # whole codes only
        with self._lock:
            gone = []
            if started and self._shown is not current:
                self._shown = current
                gone = self._tidy()
            elif not started and self._shown is not None and self._shown.actions is not None:
                current, actions, placements, started = self._shown, self._shown.actions, self._shown.placements, True
        for old in gone:
            _remove(old)
        return {"game": current.game, "seed": str(current.seed), "ruleset": current.ruleset,
                "options": current.options, "seating": list(current.seating), "actions": actions,
                "over": placements is not None, "placements": list(placements) if placements is not None else None,
                "started": started}


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass
