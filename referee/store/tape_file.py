"""Files of tapes (each game's replay as the report's viewer reads it): a JSON array a line, each line flushed as
written, so that a reader after a killed writer finds every tape but the last, cut short, which it skips.

``OUT/.tapes.jsonl`` (``ResultsDir.tapes``) holds the tapes made beside the games (``html_report.tapes_beside``);
the report's processes write their shares to files of this kind in a scratch folder (``html_report.rows``).
"""

from __future__ import annotations

import contextlib
import os
from types import TracebackType
from typing import Any, BinaryIO, Iterator, Sequence

import orjson

from referee.store.jsonl import encode_line


class TapeWriter:
    """Appends tapes to a file (``fresh``: emptied first), one array a line."""

    def __init__(self, path: str, fresh: bool = False) -> None:
        self._fh: BinaryIO = open(path, "wb" if fresh else "ab")

    def write(self, items: Sequence[object]) -> None:
        self._fh.write(encode_line(list(items)))
        self._fh.flush()

    def clear(self) -> None:
        """Empty the file (the tapes so far are of games played again)."""
        self._fh.seek(0)
        self._fh.truncate()

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> TapeWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def read_tapes(path: str) -> Iterator[list[Any]]:
    """Each line's array; none for a file that is not there; a line cut short skipped."""
    with contextlib.suppress(FileNotFoundError), open(path, "rb") as fh:
        for raw in fh:
            try:
                items = orjson.loads(raw)
            except orjson.JSONDecodeError:
                continue
            if isinstance(items, list):
                yield items


def remove_tapes(path: str) -> None:
    """Remove a file of tapes (gone already: nothing to do)."""
    with contextlib.suppress(FileNotFoundError):
        os.remove(path)
