"""The build cache: a submission's built folder kept under a key made of everything that decides the build's result.

The key is a hash of the folder's content (every name, type, executable bit, link target and file's bytes),
the build command (the folder's own path in it replaced by a mark, so a copy elsewhere hashes alike), the
bot's environment and build limits, the sandbox level, and the toolchain (each program the command names or
requires, and the common compilers, by real path, size and modification time). A second run over the same
submissions finds each unchanged one's entry and builds only what changed.

No build ever sees the cache: a build runs in a fresh tmpfs of its own, and the referee alone writes its
result into the cache, after the build ended, under the key it computed from the folder *before* the build.
A submission can only reach the entry of a folder identical to its own, built by the same command with the
same tools: the same entry it would have built itself.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass
from typing import Iterable, Mapping

from referee.bots.command_files import split_command

#: Bumped when an entry's layout or the key's recipe changes (old entries are then never found).
CACHE_VERSION = 1
#: Where the cache lives unless ``LASTCARD_BUILD_CACHE`` says otherwise (under ``$XDG_CACHE_HOME``).
ENV_VAR = "LASTCARD_BUILD_CACHE"
#: The compilers and build tools whose identity is in every key: a Makefile runs ``cc`` without naming it.
TOOLCHAINS = ("cc", "gcc", "c++", "g++", "clang", "make", "javac", "java", "node", "python3", "rustc", "cargo",
              "go", "ghc", "fpc")
#: The folder of an entry holding the built copy (the bot runs from it).
TREE = "bot"
#: The file of an entry holding the build's outcome.
RESULT = "result.json"
#: The mark that stands for the submission's folder in a command, in the key and in the entry's command.
FOLDER_MARK = "\0folder\0"


def cache_dir() -> str:
    """The build cache's folder (made if missing)."""
    path = os.environ.get(ENV_VAR) or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "lastcard", "builds")
    os.makedirs(path, mode=0o755, exist_ok=True)
    return os.path.realpath(path)


class TooBig(Exception):
    """A source folder larger than the build may hold."""


def folder_digest(source: str, limit: int) -> tuple[str, int]:
    """The content hash of ``source`` (a folder, or one file) and its size in bytes; ``TooBig`` beyond ``limit``.

    Nothing is followed: a link is hashed by what it says, special files are left out (they are not copied).
    """
    h = hashlib.sha256()
    total = 0
    listing = []
    for rel, st, target in walk_source(source):  # the sizes first: a folder too big is refused before it is read
        total += st.st_size if stat.S_ISREG(st.st_mode) else 0
        if total > limit:
            raise TooBig(rel)
        listing.append((rel, st, target))
    for rel, st, target in listing:
        kind = "l" if stat.S_ISLNK(st.st_mode) else "d" if stat.S_ISDIR(st.st_mode) else "f"
        h.update(f"{rel}\0{kind}\0{st.st_mode & 0o111:o}\0{target}\0".encode("utf-8", "surrogateescape"))
        if kind == "f":
            with open(os.path.join(source, rel) if os.path.isdir(source) else source, "rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    h.update(block)
    return h.hexdigest(), total


def walk_source(source: str) -> Iterable[tuple[str, os.stat_result, str]]:
    """Each regular file, folder and link of ``source`` (relative path, lstat, link target), sorted; a file alone
    is itself."""
    if not os.path.isdir(source):
        yield os.path.basename(source), os.lstat(source), ""
        return
    for root, dirs, files in os.walk(source):
        dirs.sort()
        for name in sorted(dirs + files):
            path = os.path.join(root, name)
            st = os.lstat(path)
            if not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode) or stat.S_ISLNK(st.st_mode)):
                continue
            target = os.readlink(path) if stat.S_ISLNK(st.st_mode) else ""
            yield os.path.relpath(path, source), st, target


def toolchain(command: str, requires: Iterable[str], path: str) -> list[tuple[str, str, int, int]]:
    """The identity of every program the build may run: (name, real path, size, mtime ns), sorted."""
    names = set(TOOLCHAINS) | set(requires) | {w for w in split_command(command) if w and "/" not in w}
    out = []
    for name in sorted(names):
        found = shutil.which(name, path=path)
        if found is None:
            continue
        real = os.path.realpath(found)
        try:
            st = os.stat(real)
        except OSError:
            continue
        out.append((name, real, st.st_size, st.st_mtime_ns))
    return out


def build_key(*, content: str, command: str, env: Iterable[tuple[str, str]], settings: Mapping[str, object],
              level: str, tools: list[tuple[str, str, int, int]]) -> str:
    """The cache key of a build (hex): what decides its result, and nothing else."""
    recipe = {"version": CACHE_VERSION, "content": content, "command": command, "env": sorted(env),
              "settings": settings, "level": level, "tools": tools}
    return hashlib.sha256(json.dumps(recipe, sort_keys=True).encode("utf-8", "surrogateescape")).hexdigest()[:32]


@dataclass(frozen=True)
class CacheEntry:
    """A cached build's outcome: ``ok``, the log's text, the failure's reason; ``tree`` the built copy if ok."""

    key: str
    ok: bool
    log: str
    reason: str = ""
    level: str = ""
    tree: str | None = None
    seconds: float = 0.0


def lookup(cache: str, key: str) -> CacheEntry | None:
    """The entry of ``key``, or ``None``."""
    folder = os.path.join(cache, key)
    try:
        with open(os.path.join(folder, RESULT), encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return None
    tree = os.path.join(folder, TREE)
    if data.get("ok") and not os.path.isdir(tree):
        return None
    return CacheEntry(key, bool(data.get("ok")), str(data.get("log", "")), str(data.get("reason", "")),
                 str(data.get("level", "")), tree if data.get("ok") else None, float(data.get("seconds", 0.0)))


def staging(cache: str) -> str:
    """A fresh private folder in the cache to extract a build into (``publish`` moves it into place)."""
    return tempfile.mkdtemp(prefix=".staging-", dir=cache)


def publish(cache: str, staged: str, entry: CacheEntry) -> CacheEntry:
    """Move ``staged`` (holding ``TREE`` when the build succeeded) into place as ``entry``; the entry in place.

    The built copy is made readable by everyone and writable by no one but its owner (the referee): a bot
    running as ``nobody`` reads it and nothing writes it again. Another referee may have published the same
    key first: then that entry stands (built from the same inputs) and this one is dropped.
    """
    tree = os.path.join(staged, TREE)
    if entry.ok:
        _seal(tree)
    with open(os.path.join(staged, RESULT), "w", encoding="utf-8") as fh:
        json.dump({"ok": entry.ok, "log": entry.log, "reason": entry.reason, "level": entry.level,
                   "seconds": round(entry.seconds, 3)}, fh)
    os.chmod(staged, 0o755)
    final = os.path.join(cache, entry.key)
    try:
        os.rename(staged, final)
    except OSError:  # published meanwhile by another referee (or a leftover of a killed one): keep that one
        shutil.rmtree(staged, ignore_errors=True)
        found = lookup(cache, entry.key)
        if found is not None:
            return found
        shutil.rmtree(final, ignore_errors=True)
        raise
    return CacheEntry(entry.key, entry.ok, entry.log, entry.reason, entry.level,
                 os.path.join(final, TREE) if entry.ok else None, entry.seconds)


def _seal(tree: str) -> None:
    """Folders 0755, files readable by all (executable bits kept), nothing writable by others; links untouched."""
    for root, _dirs, files in os.walk(tree):
        os.chmod(root, 0o755)
        for name in files:
            path = os.path.join(root, name)
            st = os.lstat(path)
            if stat.S_ISREG(st.st_mode):
                os.chmod(path, (st.st_mode & 0o755) | 0o644)
