"""A file a person hands in, read with its guards: a size cap, a directory or a missing file named as such, UTF-8
checked (a byte order mark handled, another encoding named), a binary or compressed file recognised.

The one module of ``inputs`` that opens files. Every refusal is an ``InputFileError`` naming the file, the problem
and the fix, raised before the file is parsed: a file that never ends (``/dev/zero``) stops at its kind's cap.
"""

from __future__ import annotations

import codecs
import os
from typing import Iterator

from referee.inputs.kinds import FileKind
from referee.inputs.problems import InputFileError, Problem

GZIP_MAGIC = b"\x1f\x8b"
SQLITE_MAGIC = b"SQLite format 3\x00"
#: The byte order marks of encodings other than UTF-8, by the name a message gives them (longest first: UTF-32's
#: little-endian mark starts with UTF-16's).
OTHER_BOMS = (("UTF-32", codecs.BOM_UTF32_LE), ("UTF-32", codecs.BOM_UTF32_BE), ("UTF-16", codecs.BOM_UTF16_LE),
              ("UTF-16", codecs.BOM_UTF16_BE))
#: How much of a file is looked at to call it binary (as git and grep do: a NUL byte there).
SNIFF = 8192


def refuse(path: str, message: str, line: int | None = None) -> InputFileError:
    """The error for ``path`` (raise it): ``message`` says the problem and the fix."""
    return InputFileError(path, Problem("", message, line))


def open_problem(path: str, kind: FileKind) -> str | None:
    """Why ``path`` cannot be opened as a ``kind`` (a directory, missing), or None."""
    if os.path.isdir(path):
        return f"a directory, not {kind.a}; give the file itself"
    if not os.path.exists(path):
        return "no such file; check its name and folder"
    return None


def _read_capped(path: str, kind: FileKind) -> bytes:
    """The file's bytes, one past ``kind.max_bytes`` at most (so a file over the cap is told from one at it)."""
    problem = open_problem(path, kind)
    if problem is not None:
        raise refuse(path, problem)
    try:
        with open(path, "rb") as fh:
            return fh.read(kind.max_bytes + 1)
    except OSError as exc:
        raise refuse(path, f"cannot read the file: {exc.strerror or exc}") from None


def read_head(path: str, size: int) -> bytes:
    """The first ``size`` bytes of ``path`` (fewer for a shorter file): what it is, told by its first bytes."""
    try:
        with open(path, "rb") as fh:
            return fh.read(size)
    except OSError as exc:
        raise refuse(path, f"cannot read the file: {exc.strerror or exc}") from None


def read_chunks(path: str, size: int = 1 << 16) -> Iterator[bytes]:
    """The bytes of ``path`` a slice at a time (for a file too large to hold, read through: gzip)."""
    try:
        with open(path, "rb") as fh:
            while chunk := fh.read(size):
                yield chunk
    except OSError as exc:
        raise refuse(path, f"cannot read the file: {exc.strerror or exc}") from None


def read_text_bytes(path: str, kind: FileKind) -> bytes:
    """The bytes of a text file (not yet decoded), or ``InputFileError``; a binary or gzip file is named as such
    before its size is (the likelier mistake: the wrong file picked)."""
    data = _read_capped(path, kind)
    problem = not_text(data, kind)
    if problem is not None:
        raise refuse(path, problem)
    if len(data) > kind.max_bytes:
        raise refuse(path, kind.too_large())
    return data


def read_text(path: str, kind: FileKind) -> str:
    """The file's text (UTF-8, a leading byte order mark dropped), or ``InputFileError``."""
    return decode_text(read_text_bytes(path, kind), path, kind)


def decode_text(data: bytes, path: str, kind: FileKind) -> str:
    """``data`` as UTF-8 text, a leading UTF-8 byte order mark dropped (a spreadsheet's "CSV UTF-8" writes one);
    a binary file, a gzip file, text in another encoding or with a NUL byte refused, saying which."""
    problem = not_text(data, kind)
    if problem is not None:
        raise refuse(path, problem)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        at = exc.start + (3 if data.startswith(codecs.BOM_UTF8) else 0)
        line = data[:at].count(b"\n") + 1
        column = at - (data.rfind(b"\n", 0, at) + 1) + 1
        raise refuse(path, f"not UTF-8 text: byte 0x{data[at]:02x} at column {column} cannot be decoded"
                           f"{latin_hint(data)}; save the file as UTF-8", line) from None
    nul = text.find("\0")
    if nul >= 0:
        raise refuse(path, f"holds a NUL byte, which no text file has; is it a binary file? Give the {kind.name} "
                           "as text", text.count("\n", 0, nul) + 1)
    return text


def not_text(data: bytes, kind: FileKind) -> str | None:
    """Why ``data`` is not text to decode (gzip, binary, another encoding's byte order mark), or None."""
    if data.startswith(GZIP_MAGIC):
        return f"gzip-compressed, not text; give the {kind.name} itself (gunzip prints it)"
    for name, bom in OTHER_BOMS:
        if data.startswith(bom):
            return f"{name} text (it starts with a {name} byte order mark), not UTF-8; save the file as UTF-8"
    if b"\0" in data[:SNIFF]:
        return f"a binary file ({looks_like(data)}), not {kind.a}; is it the right file?"
    return None


def latin_hint(data: bytes) -> str:
    """`` (Latin-1 or Windows-1252?)`` for text that reads as one of those (not UTF-8), else nothing."""
    try:
        data[:SNIFF].decode("cp1252")
    except UnicodeDecodeError:
        return ""
    return " (the file is in another encoding: Latin-1 or Windows-1252?)"


def looks_like(data: bytes) -> str:
    """What the first bytes of a file say it is, for a message: ``a SQLite database``, ``it starts with 89 50 4e``."""
    for magic, name in ((SQLITE_MAGIC, "a SQLite database"), (GZIP_MAGIC, "gzip-compressed"),
                        (b"\x89PNG", "a PNG image"), (b"%PDF", "a PDF"), (b"PK\x03\x04", "a zip archive"),
                        (b"\x7fELF", "a program")):
        if data.startswith(magic):
            return name
    if not data:
        return "it is empty"
    head = data[:24].decode("utf-8", "replace").rstrip("\ufffd")  # a character cut at the 24th byte is no sign
    if head and all(c != "\ufffd" and (c.isprintable() or c in "\t\r\n") for c in head):
        return f"text: {head!r}"
    return f"it starts with {data[:8].hex(' ')}"
