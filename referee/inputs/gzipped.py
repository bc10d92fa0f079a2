"""Gzip data read with a ratio cap: one or more members (as ``records.jsonl.gz`` holds them) inflated a slice at
a time, and refused once they inflate to more than ``GZIP_RATIO`` times what was read past ``GZIP_FLOOR``.

A gzip bomb (a megabyte that inflates to a gigabyte) is refused after a few megabytes, never held whole.
"""

from __future__ import annotations

import zlib
from typing import Iterable, Iterator

from referee.inputs.files import refuse
from referee.inputs.kinds import GZIP_FLOOR, GZIP_RATIO, FileKind, size_text
from referee.inputs.problems import InputFileError, Problem

#: The most inflated bytes asked of zlib at once: the caps are checked this often.
CHUNK = 1 << 16


def bomb(taken: int, given: int) -> str:
    """The message for gzip data that inflates past the ratio cap."""
    return (f"gzip data that inflates to more than {GZIP_RATIO} times its size ({size_text(given)} from "
            f"{taken:,} bytes read); a record lastcard writes inflates about 14 times: is it a gzip bomb? Give the "
            "record file a run wrote")


class DamagedGzip(InputFileError):
    """Bytes that are not gzip data, or gzip data that is damaged (a reader of a run's own record file may take
    it for a member a killed run left unfinished)."""


class Inflater:
    """Inflates a series of gzip members, fed in slices, within the ratio cap (and ``kind.max_bytes`` if asked)."""

    def __init__(self, path: str, kind: FileKind | None = None) -> None:
        self.path = path
        self.kind = kind
        self.taken = 0
        """Compressed bytes fed so far."""
        self.given = 0
        """Inflated bytes handed back so far."""
        self._inflate = zlib.decompressobj(31)

    @property
    def whole(self) -> bool:
        """Whether the data fed so far ends at the end of a member (not cut short)."""
        return self._inflate.eof and not self._inflate.unused_data

    def feed(self, data: bytes) -> Iterator[bytes]:
        """The inflated slices of ``data`` (the next compressed bytes), each checked against the caps."""
        self.taken += len(data)
        while True:
            if self._inflate.eof:  # the member ended: the next starts in what is left
                self._inflate = zlib.decompressobj(31)
            try:
                out = self._inflate.decompress(data, CHUNK)
            except zlib.error as exc:
                raise DamagedGzip(self.path, Problem("", f"not gzip data, or gzip data that is damaged ({exc}), after "
                                                         f"{self.taken:,} bytes; give the record file a run wrote")) \
                    from None
            self.given += len(out)
            self._check()
            if out:
                yield out
            # A full slice may leave inflated bytes inside zlib though every compressed byte was taken: ask again.
            data = self._inflate.unused_data if self._inflate.eof else self._inflate.unconsumed_tail
            if not data and (self._inflate.eof or len(out) < CHUNK):
                return

    def _check(self) -> None:
        if self.given > GZIP_FLOOR + GZIP_RATIO * self.taken:
            raise refuse(self.path, bomb(self.taken, self.given))
        if self.kind is not None and self.given > self.kind.max_bytes:
            raise refuse(self.path, self.kind.too_large())


def inflate(data: bytes, path: str, kind: FileKind, upto: int | None = None) -> bytes | None:
    """``data`` (gzip members) inflated, within the ratio cap and ``kind.max_bytes``; only its first ``upto``
    bytes when given (a game in a batch's member). ``None`` when the data is cut short before them (a member a
    killed run left unfinished)."""
    inflater = Inflater(path, kind)
    out, size = [], 0
    for piece in inflater.feed(data):
        out.append(piece)
        size += len(piece)
        if upto is not None and size >= upto:
            return b"".join(out)[:upto]
    return b"".join(out) if inflater.whole and upto is None else None


def stream(chunks: Iterable[bytes], path: str) -> Iterator[bytes]:
    """The inflated slices of a whole gzip file, given a slice at a time (``files.read_chunks``), within the ratio
    cap."""
    inflater = Inflater(path)
    for data in chunks:
        yield from inflater.feed(data)
