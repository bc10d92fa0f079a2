"""games.jsonl in game-id order, for a page of any size: only each line's offset and sort key stay in memory."""

from __future__ import annotations

import re
from array import array
from typing import Any, Iterable, Iterator, Mapping, cast

from referee.store.games_log import GamesLog
from referee.store.results import GameLineJson, LineDefaults, complete_line


class GameFile:
    """games.jsonl's lines in game-id order (as ``in_id_order`` sorts them), read from disk each time it is
    iterated: only each line's offset and sort key stay in memory."""

    def __init__(self, log: GamesLog, defaults: Mapping[str, LineDefaults]) -> None:
        self.log = log
        self.defaults = defaults
        self._order = array("q")
        offsets = array("q")
        numbers = array("q")  # the ids' numbers while every id is one prefix and digits (g0001, g0002, ...)
        prefix: str | None = None
        keys: list[Any] | None = None  # natural sort keys, once an id breaks that pattern
        for game, at in log.ids():
            plain = _PLAIN.fullmatch(game)
            if keys is None and plain and (prefix is None or plain.group(1) == prefix):
                prefix = plain.group(1)
                numbers.append(int(plain.group(2)))
            else:
                if keys is None:  # fall back to natural keys for the ids so far, then for every id
                    keys = [_natural(prefix + str(n)) for n in numbers] if prefix is not None else []
                keys.append(_natural(game))
            offsets.append(at)
        if keys is not None:
            self._order = array("q", (offsets[i] for i in sorted(range(len(offsets)), key=keys.__getitem__)))
        elif offsets:  # numbers: sorted in arrays, without a Python object a game
            import numpy as np

            by_id = np.argsort(np.frombuffer(numbers, dtype=np.int64), kind="stable")
            self._order = array("q", np.frombuffer(offsets, dtype=np.int64)[by_id].tobytes())

    def __len__(self) -> int:
        return len(self._order)

    def __iter__(self) -> Iterator[GameLineJson]:
        for line in self.log.at(self._order):
            yield cast(GameLineJson, complete_line(line, self.defaults))


_PLAIN = re.compile(r"([A-Za-z_-]*)([0-9]{1,18})")


def _natural(game: str) -> list[tuple[int, int | str]]:
    # Digits compare as numbers so that ids of any width sort as people count.
    return [(0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", game)]


def in_id_order(lines: Iterable[GameLineJson]) -> list[GameLineJson]:
    """The games by id (``g9`` before ``g10``), not in the order they finished."""
    def key(line: GameLineJson) -> list[tuple[int, int | str]]:
        # Digits compare as numbers so that ids of any width sort as people count.
        return [(0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", str(line.get("game")))]
    return sorted(lines, key=key)
