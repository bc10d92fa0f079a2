"""The results store: ``games.jsonl`` appended as each game ends (flushed every ``FLUSH_S``), read back to resume;
the games' debug notes go to the notes file (``notes_file``) at the same flushes, one member a flush.

``arena.json`` beside it holds what decides the games (bots, stages, seed) and its fingerprint, so
``--resume`` refuses to mix the games of two different arenas in one directory.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import time
from typing import BinaryIO, Callable, Iterable, Mapping

from referee.engine.notation import InvalidReplayError
from referee.errors import BAD_INPUT, LastcardError
from referee.store.disk import naming
from referee.store.notes import GameNotes
from referee.store.notes_file import append_notes
from referee.store.results import GameLine
from referee.store.results_dir import ResultsDir

RUN_FORMAT = "lastcard-arena-run"
#: Longest time a finished game waits in the buffer: a flush per game cost more than a built-in game's
#: share of the collecting process; a killed referee loses at most this much play, which --resume replays.
FLUSH_S = 0.25


class StoreError(LastcardError):
    """An output directory that cannot be used as asked (say why, and what to do)."""

    exit_code = BAD_INPUT

    changed: tuple[str, ...] = ()
    """With a resume that does not match: the keys of arena.json that differ."""


def fingerprint(description: Mapping[str, object]) -> str:
    """A short hash of what decides an arena's games."""
    text = json.dumps(description, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class GameStore:
    """``OUT/games.jsonl`` and ``OUT/arena.json``: open (fresh or resuming), append, close."""

    def __init__(self, out_dir: str, keep_games: bool = True) -> None:
        """``keep_games`` false: games.jsonl is not written (a run into a scratch directory that nothing reads
        back, such as ``match`` without ``--out``: encoding each game was a tenth of a built-in game's cost)."""
        self.out_dir = out_dir
        self.keep_games = keep_games
        self.folder = ResultsDir(out_dir)
        self.games_path = self.folder.games
        self.log = self.folder.games_log
        self.run_path = self.folder.run
        self.results_path = self.folder.results
        self._fh: BinaryIO | None = None
        self._resuming = False
        self._started = False
        self._flushed = 0.0
        self._notes: list[GameNotes] = []  # the notes of the games appended since the last flush

    def prepare(self, *, resume: bool = False, fresh: bool = False) -> None:
        """Check the directory can be used, and empty it unless resuming (before builds write their logs)."""
        os.makedirs(self.out_dir, exist_ok=True)
        self._resuming = resume and self._has_games()
        if not self._resuming:
            if self._has_games() and not fresh and not self._complete():
                count = self.log.count()
                raise StoreError(f"{self.out_dir} holds an unfinished arena ({count} games played): add --resume "
                                 "to finish it, or --fresh to start it over (or give another --out)")
            self._clear()

    def start(self, description: Mapping[str, object], keep: Callable[[GameLine], object] | None = None) -> int:
        """Record which arena this is; when resuming, hand each game already finished to ``keep`` (read a line
        at a time, so memory does not grow with the file). The number of lines read back."""
        key = fingerprint(description)
        count = 0
        if self._resuming:
            self._check_same(description, key)
            count = self._read(keep or (lambda line: None))
        with naming(self.run_path), open(self.run_path, "w", encoding="utf-8") as fh:
            json.dump({"format": RUN_FORMAT, "version": 1, "fingerprint": key, "arena": description}, fh, indent=2)
            fh.write("\n")
        self._started = True
        if self.keep_games:
            # A large buffer: the file is written when flushed (every FLUSH_S), not every 8 KiB.
            self._fh = open(self.games_path, "ab", buffering=1 << 20)
        return count

    def restart(self, logs: Iterable[str] = ()) -> None:
        """Start the games over in this folder: the pool changed under the run (a bot found unable to start beside
        the first games). The games, their notes and records go, and the ``logs`` given (the games' bots' stderr
        logs); the build logs stay. ``start`` opens it again, as new."""
        self.close()
        games = (ResultsDir.GAMES, ResultsDir.RECORDS, ResultsDir.RECORDS_INDEX, ResultsDir.NOTES,
                 ResultsDir.NOTES_INDEX)
        for path in [*(self.folder.file(name) for name in games), *logs]:
            if os.path.exists(path):
                os.remove(path)
        legacy = self.folder.file(ResultsDir.LEGACY_RECORDS)
        if os.path.isdir(legacy):
            shutil.rmtree(legacy)
        self._notes = []
        self._resuming = self._started = False

    def _has_games(self) -> bool:
        return self.log.has_games()

    def append(self, line: GameLine) -> bytes | None:
        """Write one finished game, flushed within ``FLUSH_S``: a killed referee loses only the games since. The
        line as written (None: the games are not kept)."""
        assert self._started, "open the store first"
        if self._fh is None:  # not keeping the games (or closed)
            return None
        if line.result.notes is not None:
            self._notes.append(line.result.notes)
        encoded = line.encode()
        with naming(self.games_path):
            self._fh.write(encoded)
            now = time.monotonic()
            if now - self._flushed >= FLUSH_S:
                self._flush_notes()  # first: a game's line on disk has its notes there too
                self._fh.flush()
                self._flushed = now
                self._still_there()
        return encoded

    def _flush_notes(self) -> None:
        notes, self._notes = self._notes, []
        append_notes(self.out_dir, notes)

    def _still_there(self) -> None:
        """Raise ``FileNotFoundError`` if games.jsonl was deleted under the run (its games would go nowhere)."""
        assert self._fh is not None
        if os.fstat(self._fh.fileno()).st_nlink == 0:
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), self.games_path)  # deleted

    def close(self) -> None:
        """Close games.jsonl (flushing what is buffered). A failed write (a full disk) still closes the file; the
        games written before it are kept whole (``--resume`` drops a half-written last line)."""
        if self._fh is not None:
            fh = self._fh
            with naming(self.games_path):
                try:
                    self._flush_notes()
                    fh.flush()
                    self._still_there()
                finally:
                    self._fh = None
                    fh.close()

    # ------------------------------------------------------------------ helpers
    def _complete(self) -> bool:
        return self.folder.complete()

    def _check_same(self, description: Mapping[str, object], key: str) -> None:
        try:
            with open(self.run_path, encoding="utf-8") as fh:
                stored = json.load(fh)
        except (OSError, ValueError):
            raise StoreError(f"{self.out_dir} has games.jsonl but no readable arena.json, so it cannot tell which "
                             "arena they belong to; use --fresh to start over") from None
        if stored.get("fingerprint") == key:
            return
        before = stored.get("arena", {})
        changed = [k for k in sorted(set(before) | set(description)) if before.get(k) != description.get(k)]
        error = StoreError(f"the arena changed since {self.out_dir} was started (different "
                           f"{', '.join(changed) or 'settings'}); --resume needs the same arena file, bots and seed. "
                           "Use --fresh to start over, or another --out")
        error.changed = tuple(changed)  # for a command to say it in its own words (match: its options)
        raise error

    def _read(self, keep: Callable[[GameLine], object]) -> int:
        try:
            return self.log.resume(keep)
        except InvalidReplayError as exc:
            raise StoreError(str(exc)) from None

    def _clear(self) -> None:
        for name in ResultsDir.RUN_FILES:
            path = self.folder.file(name)
            if os.path.exists(path):
                os.remove(path)
        for folder in ResultsDir.RUN_FOLDERS:
            path = self.folder.file(folder)
            if os.path.isdir(path):
                shutil.rmtree(path)
