"""What a submission is, as a hash of its files: a changed hash retires the bot's games on the ladder.

A bot's hash covers how it is run (its command, environment, limits and build step, not its name) and
the files it is made of: its own folder when it has one (a working directory no other bot shares, as a
``submissions`` pattern of folders gives), plus the files its command names inside the arena folder or
that working directory. The interpreter and system programs are not part of a submission. It is taken
after the build (on the built copy a walled build runs from), so build outputs (deterministic for gcc, javac)
count the same way every run; caches
that change from run to run (``__pycache__``, hidden files, logs) are skipped.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from typing import Iterable, Sequence

from referee.bots.command_files import command_files, split_command
from referee.bots.entry import BotEntry
from referee.builds.steps import as_given

#: Names never part of a submission's content: caches, version control, editors' files, logs.
SKIP_DIRS = frozenset({"__pycache__", "node_modules", ".git", ".hg", ".svn", ".mypy_cache", ".pytest_cache"})
SKIP_SUFFIXES = (".pyc", ".pyo", ".log", ".swp", "~")
#: A folder with more files than this is not a submission (a mistake in the arena file); hash its listing only.
MAX_FILES = 5000


def submission_hashes(entries: Sequence[BotEntry], base_dir: str) -> dict[str, str]:
    """Bot name -> the hash of its submission (see the module's docstring)."""
    given = {e.spec.name: as_given(e).cwd or "" for e in entries}  # identical folders share one built copy
    shared = Counter(given.values())
    return {e.spec.name: submission_hash(e, base_dir, own_folder=bool(e.spec.cwd) and shared[given[e.spec.name]] == 1)
            for e in entries}


def submission_hash(entry: BotEntry, base_dir: str, *, own_folder: bool = True) -> str:
    """The hash of one bot's submission: its run settings and its files."""
    h = hashlib.sha256()
    # A built bot runs from its copy in the build cache: its spec is hashed as given, so the hash is the one its
    # folder built in place had (the files hashed are the built copy's, build outputs included, as in place).
    spec: dict[str, object] = dict(as_given(entry).to_json())
    spec.pop("name", None)
    h.update(json.dumps({"spec": spec, "build": entry.build}, sort_keys=True).encode())
    for rel, path in sorted(_files(entry, base_dir, own_folder).items()):
        h.update(b"\0file\0" + rel.encode() + b"\0")
        h.update(_file_digest(path))
    return h.hexdigest()[:20]


def _files(entry: BotEntry, base_dir: str, own_folder: bool) -> dict[str, str]:
    spec = entry.spec
    if spec.builtin is not None:
        return {}
    cwd = spec.cwd or base_dir
    out: dict[str, str] = {}
    folder = os.path.realpath(cwd)
    if own_folder and not _is_within(os.path.realpath(base_dir), folder):  # never the whole arena folder
        for path in _walk(folder):
            out[os.path.relpath(path, folder)] = path
    roots = [os.path.realpath(base_dir), folder]
    words = split_command(spec.command)
    files = command_files(words, cwd)
    program = [(words[0], files.program)] if files.program is not None and not files.on_path else []
    for text, t in [*program, *files.named]:
        if os.path.isfile(t.real) and any(_is_within(t.real, root) for root in roots):
            out.setdefault("cmd:" + text, t.real)
    return out


def _walk(folder: str) -> Iterable[str]:
    count = 0
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            if name.startswith(".") or name.endswith(SKIP_SUFFIXES):
                continue
            count += 1
            if count > MAX_FILES:
                return
            yield os.path.join(root, name)


def _is_within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _file_digest(path: str) -> bytes:
    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    except OSError as exc:  # unreadable: its name still counts, and the error makes it differ from a good file
        h.update(f"unreadable: {exc.strerror}".encode())
    return h.digest()
