"""Full game records in one compressed append-only file per run, with an index to find one game fast.

``OUT/records.jsonl.gz`` is a series of gzip members, one a game, each the game's record as JSON lines
(``zcat records.jsonl.gz`` prints every record); ``OUT/records.idx`` has a line a game, ``GAME OFFSET
LENGTH``, so a reader seeks straight to one game. Workers append side by side: each holds an
exclusive ``flock`` while it writes its member and its index line, so members never interleave.

A game is kept by every run that records (``records: true``, ``--records``) and, whatever the setting,
when it has a fault: the exact bytes a bot sent matter there, and only the record has them.

Measured (issue 25) on a 2-seat record of 1,303 lines, 299 KB, one process: gzip level 6 keeps 7.7%
in 3.1 ms (level 1: 12% in 1.1 ms; level 9: 7.1% in 9.7 ms), bz2 4.4% in 26 ms, lzma 5.9% in 51 ms.
Level 6 costs a worker little beside a game that long; zstd is not in this Python's standard library.
Per-game members keep one game's read to a seek and one member's inflate.
"""

from __future__ import annotations

import fcntl
import json
import os
import zlib
from typing import Any, Container, Iterable

from .jsonl import encode_line

RECORDS_FILE = "records.jsonl.gz"
INDEX_FILE = "records.idx"
LEVEL = 6


def append_record(out_dir: str, game_id: str, lines: Iterable[dict[str, Any]]) -> None:
    """Append one game's record (its lines) to ``out_dir``'s record file and index."""
    data = b"".join(encode_line(line) for line in lines)
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, 31)  # 31: a gzip member, so zcat reads the file
    member = packer.compress(data) + packer.flush()
    path = os.path.join(out_dir, RECORDS_FILE)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        offset = os.fstat(fd).st_size
        os.write(fd, member)
        with open(os.path.join(out_dir, INDEX_FILE), "a", encoding="utf-8") as idx:
            idx.write(f"{game_id} {offset} {len(member)}\n")
    finally:
        os.close(fd)  # closing releases the lock


def keep_only(out_dir: str, keep: Container[str]) -> None:
    """Rewrite the record file with the records of ``keep`` only (each game's last), in the order stored.

    The kept members are copied as they are, one at a time, into a new file that replaces the old once
    whole: memory holds the index, never the records (a long comparison with ``--records`` keeps most of its
    games), and nothing is inflated and deflated again. A member cut short by a killed run is left out.
    """
    index_path, records_path = os.path.join(out_dir, INDEX_FILE), os.path.join(out_dir, RECORDS_FILE)
    if not os.path.exists(index_path):
        return
    where: dict[str, tuple[int, int] | None] = {}  # first stored order, last entry wins (as ``find``)
    clean = True
    with open(index_path, encoding="utf-8") as fh:
        for line in fh:
            parts = line.split()
            if not parts:
                continue
            clean = clean and parts[0] in keep and parts[0] not in where
            where[parts[0]] = (int(parts[1]), int(parts[2])) if len(parts) == 3 else where.get(parts[0])
    if clean:
        return
    kept = 0
    with open(records_path, "rb") as src, open(records_path + ".new", "wb") as dst, \
            open(index_path + ".new", "w", encoding="utf-8") as idx:
        for game, at in where.items():
            if at is None or game not in keep:
                continue
            src.seek(at[0])
            member = src.read(at[1])
            if not _whole(member, at[1]):
                continue
            idx.write(f"{game} {dst.tell()} {len(member)}\n")
            dst.write(member)
            kept += 1
    if kept:
        os.replace(records_path + ".new", records_path)
        os.replace(index_path + ".new", index_path)
    else:  # no record left: no record file, as ``has_records`` reads it
        for path in (records_path, index_path, records_path + ".new", index_path + ".new"):
            os.remove(path)


def _whole(member: bytes, length: int) -> bool:
    """Whether ``member`` is a whole gzip member of ``length`` bytes (not one a killed run cut short)."""
    if len(member) != length:
        return False
    inflate = zlib.decompressobj(31)
    try:
        while member and not inflate.eof:  # in slices: the inflated record is never held whole
            inflate.decompress(member, 1 << 16)
            member = inflate.unconsumed_tail
    except zlib.error:
        return False
    return inflate.eof


def has_records(out_dir: str) -> bool:
    return os.path.exists(os.path.join(out_dir, RECORDS_FILE))


def find(out_dir: str, game_id: str) -> tuple[int, int] | None:
    """Where ``game_id``'s record is in the record file (offset, length), or None (its last entry wins:
    a game played again after a crash was recorded again)."""
    path = os.path.join(out_dir, INDEX_FILE)
    if not os.path.exists(path):
        return None
    found = None
    prefix = game_id + " "
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.startswith(prefix):
                parts = line.split()
                if len(parts) == 3:
                    found = int(parts[1]), int(parts[2])
    return found


def read_record(out_dir: str, game_id: str) -> list[dict[str, Any]] | None:
    """``game_id``'s recorded lines, or None when the run kept no record of it."""
    where = find(out_dir, game_id)
    if where is None:
        return _legacy(out_dir, game_id)
    offset, length = where
    with open(os.path.join(out_dir, RECORDS_FILE), "rb") as fh:
        fh.seek(offset)
        member = fh.read(length)
    try:
        text = zlib.decompress(member, 31)
    except zlib.error:
        return None  # a member cut short by a killed run: as if not recorded
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def recorded_ids(out_dir: str) -> set[str]:
    """The games with a record (for reports that link them)."""
    path = os.path.join(out_dir, INDEX_FILE)
    if not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8") as fh:
        return {line.split(" ", 1)[0] for line in fh if line.strip()}


def _legacy(out_dir: str, game_id: str) -> list[dict[str, Any]] | None:
    """A record file of a run from before records were kept in one file: ``records/GAME.jsonl``."""
    path = os.path.join(out_dir, "records", f"{game_id}.jsonl")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]
