"""Operating-system errors while writing a run (a full disk, a folder made read-only, a file deleted under it),
told as a path and a cause instead of a traceback.

A write deep in a buffered file fails without a file name (``OSError: [Errno 28] No space left on device``
from a ``close``); ``naming`` gives it the path it was about, and ``os_error_text`` turns it into the
sentence the command prints (``LastcardGroup`` does, with the command that finishes the run).
"""

from __future__ import annotations

import errno
import os
from contextlib import contextmanager
from typing import IO, Any, Iterator

#: What to do about each cause, by errno.
FIXES = {
    errno.ENOSPC: "free some space on the disk that holds it",
    errno.EDQUOT: "free some space within your disk quota",
    errno.EROFS: "the filesystem is mounted read-only: remount it writable",
    errno.EACCES: "make it (or its folder) writable again: chmod u+w",
    errno.EPERM: "make it (or its folder) writable again: chmod u+w",
    errno.ENOENT: "it (or its folder) was deleted during the run: leave the output folder alone while a run writes it",
    errno.EIO: "the disk reported an input/output error: check the disk",
}


@contextmanager
def naming(path: str) -> Iterator[None]:
    """Give an ``OSError`` raised inside without a file name the name ``path`` (the same class and errno)."""
    try:
        yield
    except OSError as exc:
        if exc.filename is not None or exc.errno is None:
            raise
        raise OSError(exc.errno, exc.strerror, path) from exc


def remove_quietly(path: str) -> None:
    """Remove a half-written file (a ``.part`` a failed write left), if it is there; never raises."""
    try:
        os.remove(path)
    except OSError:
        pass


def os_error_text(exc: OSError) -> str:
    """``cannot write PATH: No space left on device`` and what to do, for an error with a path; else the cause."""
    cause = exc.strerror or str(exc)
    code = f" ({errno.errorcode[exc.errno]})" if exc.errno is not None and exc.errno in errno.errorcode else ""
    path = exc.filename if exc.filename2 is None else f"{exc.filename} -> {exc.filename2}"
    where = f"{os.fsdecode(path)}: " if path is not None else ""
    fix = FIXES.get(exc.errno or -1)
    return f"the run stopped on an operating-system error: {where}{cause}{code}" + (f"\n{fix}" if fix else "")


@contextmanager
def atomic_file(path: str, binary: bool = False) -> Iterator[IO[Any]]:
    """A file to write ``path`` through: written as ``path.part`` and put in place when the block ends without an
    error, so a reader never sees half a file; on an error (a full disk) the half file goes and the last whole one
    stays. The one atomic write of the package: every file a run writes whole goes through here."""
    part = path + ".part"
    try:
        with naming(path), (open(part, "wb") if binary else open(part, "w", encoding="utf-8", newline="")) as fh:
            yield fh
    except BaseException:
        remove_quietly(part)
        raise
    os.replace(part, path)


def atomic_write(path: str, data: str | bytes) -> str:
    """Write ``data`` to ``path`` atomically (``atomic_file``); the path."""
    with atomic_file(path, binary=isinstance(data, bytes)) as fh:
        fh.write(data)
    return path
