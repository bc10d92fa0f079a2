"""``games.jsonl``, a results folder's games: the one reader of the file, and its one rule for a last line.

The store appends each game as one JSON object on one line, ended by a newline, flushed every ``FLUSH_S``. So
while a run writes (or after a referee was killed mid-write) the file may end in part of a line. **The rule**: a
last line that is not a whole JSON object is a game still being written; every reader leaves it out, and a resumed
run cuts it off (``resume``) so that game is played again. A last line that parses but lacks its newline is a whole
game (a file saved by an editor that drops the final newline): it is read, and ``resume`` ends it. Anywhere else, a
line that is not a JSON object is an error naming the file and the line. Blank lines are skipped.
"""

from __future__ import annotations

import json
import os
import re
from typing import Callable, Iterable, Iterator

from referee.engine.jsondata import JsonObject
from referee.engine.notation import InvalidReplayError
from referee.store.disk import atomic_file, naming
from referee.store.results import GameLine

#: A line's id, read without parsing the line (the store writes ``{"game": "ID", ...}`` first).
_ID = re.compile(rb'\{"game":\s*"([^"\\]*)"')


class GamesLog:
    """The games of a ``games.jsonl``: iterated a line at a time (never all in memory), found by id, rewritten."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __repr__(self) -> str:
        return f"GamesLog({self.path!r})"

    def exists(self) -> bool:
        """Whether the file is there (a run that has not started, or a folder of another kind, has none)."""
        return os.path.exists(self.path)

    def has_games(self) -> bool:
        """Whether the file holds anything (a resume needs games to go on from)."""
        return self.exists() and os.path.getsize(self.path) > 0

    # ------------------------------------------------------------------------------------------------ reading
    def entries(self) -> Iterator[tuple[int, int, bytes]]:
        """(line number, byte offset, raw line) of every game line, by the rule above; none when there is no file."""
        if not self.exists():
            return
        with open(self.path, "rb") as fh:
            at = 0
            for number, raw in enumerate(fh, 1):
                if not raw.endswith(b"\n") and not _whole(raw):
                    return  # the last line, still being written
                if raw.strip():
                    yield number, at, raw
                at += len(raw)

    def lines(self) -> Iterator[tuple[int, JsonObject]]:
        """(line number, line as written: no defaults filled) of every game."""
        for number, _, raw in self.entries():
            yield number, self._parse(raw, number)

    def __iter__(self) -> Iterator[GameLine]:
        """Every game as a typed ``GameLine`` (the store's own lines carry every key)."""
        for number, _, raw in self.entries():
            yield self._game(raw, number)

    def ids(self) -> Iterator[tuple[str, int]]:
        """(game id, byte offset) of every game, the id read without parsing the line where it can be."""
        for number, at, raw in self.entries():
            m = _ID.match(raw)
            yield (m.group(1).decode() if m else str(self._parse(raw, number).get("game"))), at

    def find(self, game_id: str) -> tuple[int, JsonObject] | None:
        """``game_id``'s line and its number (as written), or None.

        Only the lines holding the id's text are parsed (the last of 3,000 games took 75 ms parsing every line before
        it); an id written escaped is found by the full scan after, which also names a line that is not JSON.
        """
        needle = game_id.encode()
        for number, _, raw in self.entries():
            if needle in raw:
                try:
                    line = json.loads(raw)
                except ValueError:
                    break  # not JSON: the scan below says where
                if isinstance(line, dict) and line.get("game") == game_id:
                    return number, line
        for number, line in self.lines():
            if line.get("game") == game_id:
                return number, line
        return None

    def at(self, offsets: Iterable[int]) -> Iterator[JsonObject]:
        """The lines that start at ``offsets`` (from ``ids`` or ``entries``), in that order, the file opened once."""
        with open(self.path, "rb") as fh:
            for offset in offsets:
                fh.seek(offset)
                yield self._parse(fh.readline(), None)

    def count(self) -> int:
        """How many games the file holds."""
        return sum(1 for _ in self.entries())

    # ------------------------------------------------------------------------------------------------ writing
    def write(self, games: Iterable[GameLine]) -> str:
        """Write the file anew with ``games`` (a report folder of games kept elsewhere, such as a ladder's); its
        path. A run appends instead (``run_store.GameStore``)."""
        with atomic_file(self.path, binary=True) as fh:
            for game in games:
                fh.write(game.encode())
        return self.path

    def keep_only(self, offsets: Iterable[int]) -> None:
        """Rewrite the file with only the lines at ``offsets``, in that order (a reader never sees half a file)."""
        with open(self.path, "rb") as src, atomic_file(self.path, binary=True) as dst:
            for offset in offsets:
                src.seek(offset)
                raw = src.readline()
                dst.write(raw if raw.endswith(b"\n") else raw + b"\n")

    def resume(self, keep: Callable[[GameLine], object]) -> int:
        """Hand each game to ``keep``, then make the file ready to append to: a half-written last line cut off, a
        whole one without its newline ended. The number of games. A line that is not a game, before the last,
        raises ``InvalidReplayError``."""
        count = end = 0
        for number, at, raw in self.entries():
            keep(self._game(raw, number))
            count += 1
            end = at + len(raw)
        size = os.path.getsize(self.path)
        if end < size:  # what follows the last game is blank or the half line the rule leaves out
            with naming(self.path), open(self.path, "r+b") as fh:
                fh.truncate(end)
        elif end and not self._ends_line():
            with naming(self.path), open(self.path, "ab") as fh:
                fh.write(b"\n")
        return count

    # ------------------------------------------------------------------------------------------------ helpers
    def _parse(self, raw: bytes, number: int | None) -> JsonObject:
        try:
            line = json.loads(raw)
        except ValueError as exc:
            where = f" line {number}" if number is not None else ""
            raise InvalidReplayError(f"{self.path}{where} is not JSON ({getattr(exc, 'msg', exc)}): is it a game "
                                     "file? Fix or remove that line (or start the run again with --fresh)") from None
        if not isinstance(line, dict):
            where = f" line {number}" if number is not None else ""
            raise InvalidReplayError(f"{self.path}{where} is not a game (a JSON object): fix or remove that line")
        return line

    def _game(self, raw: bytes, number: int) -> GameLine:
        try:
            return GameLine.from_json(self._parse(raw, number))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, InvalidReplayError):
                raise
            raise InvalidReplayError(f"{self.path} line {number} is not a game result (no {exc}): fix or remove that "
                                     "line (or start the run again with --fresh)") from None

    def _ends_line(self) -> bool:
        with open(self.path, "rb") as fh:
            fh.seek(-1, os.SEEK_END)
            return fh.read(1) == b"\n"


def _whole(raw: bytes) -> bool:
    """Whether an unterminated last line is a whole JSON object (else it is being written)."""
    try:
        return isinstance(json.loads(raw), dict)
    except ValueError:
        return False
