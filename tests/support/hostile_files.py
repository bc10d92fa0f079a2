"""Files a hostile (or unlucky) person hands in, as bytes: each reader's hostile-input tests and
``bench/hostile_inputs.py`` build them here, so both try the same files.

Each builder returns the file's bytes; ``write`` puts one in a folder (``directory`` makes a folder where a file is
expected). The gzip bomb is concatenated members of one compressed megabyte of JSON lines: a megabyte on disk
that inflates to about a gigabyte, the shape a record file has (gzip members of JSON lines).
"""

from __future__ import annotations

import functools
import gzip
import random
from pathlib import Path
from typing import Any, Callable

MB = 1 << 20


def binary() -> bytes:
    """64 KiB of random bytes (seeded): what a wrong file picked in a file dialog looks like."""
    return random.Random(46).randbytes(64 << 10)


def deep_yaml() -> bytes:
    """A mapping whose value is a list nested 5,000 levels deep (flow style)."""
    return b"positions: " + b"[" * 5000 + b"]" * 5000 + b"\n"


def deep_json() -> bytes:
    """A JSON line nested 100,000 levels deep, then a line that would be fine."""
    return b'{"t": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n" + b'{"t": "game"}\n'


def large(size: int = 30 * MB) -> bytes:
    """``size`` bytes of comment lines (valid YAML, a valid parameter file of no parameters): large, not wrong."""
    line = b"# a comment line, one of very many\n"
    return line * (size // len(line) + 1)


def alias_bomb() -> bytes:
    """The "billion laughs": nine levels of nine aliases each, under a key a suite or an arena has."""
    levels = "".join(f"{a}: &{a} [{', '.join([f'*{p}'] * 9)}]\n" for p, a in zip("abcdefgh", "bcdefghi"))
    return ("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + levels + "positions: *i\n").encode()


@functools.cache
def _bomb_member() -> bytes:
    line = b'{"t": "out", "seat": 0, "line": "' + b"x" * 60 + b'"}\n'
    return gzip.compress(b'{"t": "game", "game": "g0001"}\n' + line * (MB // len(line)), 9)


def gzip_bomb(members: int = 1024) -> bytes:
    """About a gigabyte of JSON lines in about a megabyte of gzip members: a record file that is a bomb."""
    member = _bomb_member()
    return member * members


def not_utf8() -> bytes:
    """Latin-1 text (``café``), as an editor on an old Windows machine saves it."""
    return b"# caf\xe9\nname: caf\xe9\n"


#: Each hostile file by name; ``directory`` is made by ``write``.
FILES: dict[str, Callable[[], bytes]] = {
    "binary": binary,
    "deep-yaml": deep_yaml,
    "deep-json": deep_json,
    "30-MB": large,
    "alias-bomb": alias_bomb,
    "gzip-bomb": gzip_bomb,
    "not-utf8": not_utf8,
}
DIRECTORY = "directory"
NAMES = [*FILES, DIRECTORY]


def write(folder: Path, name: str, filename: str = "file") -> Path:
    """The hostile file ``name`` written in ``folder`` (a folder made there, for ``directory``)."""
    path = folder / f"{name}-{filename}"
    if name == DIRECTORY:
        path.mkdir(parents=True, exist_ok=True)
        return path
    path.write_bytes(FILES[name]())
    return path


def assert_refused(result: Any, message: str) -> None:
    """A command's result (click's ``CliRunner``) that refused its input as the project promises: exit status 2,
    ``message`` said, no traceback, and a short message (never an echo of the file)."""
    assert result.exit_code == 2, (result.exit_code, result.output[-2000:], result.exception)
    assert message in result.output, result.output[-2000:]
    assert "Traceback" not in result.output
    assert len(result.output) < 2_000
