"""JSON lines, written one way: orjson, one object a line, the file replaced atomically when whole."""

from __future__ import annotations

import hashlib
import os
from typing import Iterable

import orjson

from referee.store.disk import atomic_file

_OPTIONS = orjson.OPT_APPEND_NEWLINE | orjson.OPT_NON_STR_KEYS


def encode_line(item: object) -> bytes:
    """One JSON line (newline included); ``bytes`` pass through as already encoded lines."""
    return item if isinstance(item, bytes) else orjson.dumps(item, option=_OPTIONS)


def line_digest(item: object) -> str:
    """A short digest of a line as ``encode_line`` writes it: what ties a thing made from a line to that line."""
    return hashlib.blake2b(encode_line(item), digest_size=12).hexdigest()


def write_jsonl(path: str, items: Iterable[object]) -> str:
    """Write ``items`` (objects, or lines already encoded) to ``path``; a reader never sees half a file."""
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    with atomic_file(path, binary=True) as fh:
        for item in items:
            fh.write(encode_line(item))
    return path
