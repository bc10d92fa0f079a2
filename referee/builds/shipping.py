"""Packing an arena's bot folders so another machine can run them: once on the referee, unpacked per worker.

What travels: for each process bot, its ``cwd`` when the arena gives one (a bot folder or a submission;
build outputs included, since builds run before packing), and the folder of every file its command
names inside ``base_dir`` (``node sample_bots/js/bot.js`` ships ``sample_bots/js``; a script directly in
``base_dir`` ships alone), each at its real path, with the symbolic links and folders the command's paths go
through on the way, so ``..`` and links lead to the same files on the worker (referee/bots/command_files.py
finds them, as it does for the sandbox and the ladder's fingerprints). Paths outside ``base_dir``
(interpreters, ``/usr/bin/node``) are the worker's
own: they must exist there. A worker mirrors every absolute path under its unpack directory, so a bot's
``cwd``, absolute paths in its command and env, and ``{python}`` are rewritten by one rule
(``relocate``). This module never imports dask: it is plain data in, plain data out.
"""

from __future__ import annotations

import hashlib
import io
import os
import shlex
import shutil
import stat
import sys
import tarfile
import tempfile
from dataclasses import dataclass, replace
from typing import Iterable, Sequence

from referee import __version__
from referee.bots.command_files import Trace, command_files, folder_of, inside, split_command, tree
from referee.bots.entry import BotEntry
from referee.bots.spec import BotSpec
from referee.builds import safe_tar
from referee.errors import BAD_INPUT, LastcardError

#: Folder names never shipped: version control and bytecode caches a worker rebuilds itself.
SKIP_NAMES = frozenset({".git", ".hg", ".svn", "__pycache__"})
#: A bundle larger than this is refused: every worker receives all of it through the scheduler.
MAX_BUNDLE_BYTES = 512 * 1024 * 1024


class ShippingError(LastcardError, ValueError):
    """The bots cannot be packed (a bundle too large, a folder that cannot be read)."""

    exit_code = BAD_INPUT


@dataclass(frozen=True)
class ShippedBot:
    """One process bot as a worker needs it: how the referee runs it, plus its build step and required programs."""

    spec: BotSpec
    build: str | None = None
    build_timeout_s: float = 300.0
    requires: tuple[str, ...] = ()


@dataclass(frozen=True)
class BotBundle:
    """The packed bot folders (a gzipped tar), their content hash and what each bot needs."""

    data: bytes
    digest: str
    folders: tuple[str, ...]
    bots: tuple[ShippedBot, ...]
    python: str
    version: str = __version__

    @property
    def key(self) -> str:
        """A short name for the bundle: the first 16 hex digits of its content hash."""
        return self.digest[:16]


def _needs(spec: BotSpec, base_dir: str) -> tuple[list[str], list[Trace]]:
    """What ``spec`` ships (its cwd, and the folders, or a lone file at ``base_dir``'s top, its command names
    inside ``base_dir``, at their real paths) and the walks that lead there."""
    base = os.path.realpath(base_dir)
    cwd = os.path.abspath(spec.cwd or base_dir)
    words = split_command(spec.command)
    files = command_files(words, cwd)
    python = (os.path.abspath(sys.executable), os.path.realpath(sys.executable))
    roots: list[str] = []
    ways: list[Trace] = []
    if files.cwd is not None and files.cwd.real != base:
        roots.append(files.cwd.real)
        ways.append(files.cwd)
    # Interpreters on PATH or in a "#!" line are the worker's own; {python} is rewritten by relocate.
    named = [files.program] if files.program is not None and not files.on_path else []
    for t in [*named, *(t for _, t in files.named)]:
        if os.path.normpath(t.written) in python or t.real in python or not inside(t.real, base) or t.real == base:
            continue
        # A script directly in base_dir ships alone: its folder is the arena's (often a whole repository).
        roots.append(t.real if t.is_dir else folder_of(t.real, (base,)))
        ways.append(t)
    return roots, ways


def pack_bots(entries: Iterable[BotEntry], base_dir: str) -> BotBundle:
    """Pack every process bot's folders once (executable bits and modification times kept)."""
    bots = [ShippedBot(e.spec, e.build, e.build_timeout_s, e.requires) for e in entries if e.spec.builtin is None]
    roots: list[str] = []
    ways: list[Trace] = []
    for bot in bots:
        more, led = _needs(bot.spec, base_dir)
        roots += more
        ways += led
    shipped = tree(roots, ways)
    links = dict(shipped.links)
    # The way to the roots travels too (links as links, folders a ".." climbs out of empty), so paths as written work.
    folders = tuple(sorted({*shipped.roots, *links, *shipped.dirs}))
    files = sorted(set(_walk(shipped.roots)) | set(_way([*links, *shipped.dirs])))
    digest = hashlib.sha256()
    buffer = io.BytesIO()
    total = 0
    with tarfile.open(fileobj=buffer, mode="w:gz", compresslevel=6) as tar:
        for path in files:
            info = tar.gettarinfo(path, arcname=path.lstrip("/"))
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            if info.issym() and info.linkname.startswith("/") and any(inside(info.linkname, f) for f in folders):
                # A worker mirrors the paths under its own folder: an absolute link into the bundle must stay inside.
                info.linkname = os.path.relpath(info.linkname, os.path.dirname(path))
            digest.update(f"{info.name}\0{info.type!r}\0{info.mode & 0o777:o}\0{info.linkname}\0".encode())
            if info.isfile():
                total += info.size
                if total > MAX_BUNDLE_BYTES:
                    raise ShippingError(f"the bot folders hold more than {MAX_BUNDLE_BYTES >> 20} MiB (reached at "
                                        f"{path!r}); give each bot a cwd of its own folder so only it travels")
                with open(path, "rb") as fh:
                    content = fh.read()
                digest.update(hashlib.sha256(content).digest())
                tar.addfile(info, io.BytesIO(content))
            else:
                tar.addfile(info)
    # The bots' specs are part of what a worker prepares (builds, checks): two arenas differing only there differ.
    for bot in bots:
        digest.update(repr((bot.spec.to_json(), bot.build, bot.requires)).encode())
    return BotBundle(buffer.getvalue(), digest.hexdigest(), folders, tuple(bots), os.path.abspath(sys.executable))


def unpack(bundle: BotBundle, root: str) -> str:
    """Unpack ``bundle`` under ``root`` (once: a directory named after its hash is reused); that directory."""
    target = os.path.join(root, bundle.key)
    if os.path.isdir(target):
        return target
    os.makedirs(root, exist_ok=True)
    staging = tempfile.mkdtemp(prefix=f".{bundle.key}-", dir=root)
    try:
        with tarfile.open(fileobj=io.BytesIO(bundle.data), mode="r:gz") as tar:
            safe_tar.extract(tar, staging)  # the bots' folders are the students': the build's rule, on every Python
        for bot in bundle.bots:  # a cwd that shipped nothing itself (base_dir) must still exist
            os.makedirs(_mirror(staging, bot.spec.cwd or "/"), exist_ok=True)
        try:
            os.rename(staging, target)
        except OSError:  # another worker process on this host unpacked it first
            if not os.path.isdir(target):
                raise
            shutil.rmtree(staging, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target


def relocate(spec: BotSpec, folders: Sequence[str], home: str, python_from: str, python_to: str) -> BotSpec:
    """``spec`` as it runs from the copy under ``home``: cwd, shipped absolute paths and ``{python}`` rewritten."""
    if spec.builtin is not None:
        return spec

    def path(text: str) -> str:
        if text == python_from:
            return python_to
        for folder in folders:
            if text == folder or text.startswith(folder.rstrip("/") + "/"):
                return _mirror(home, text)
        return text

    def inline(text: str) -> str:  # a shell command line or an env value: rewrite the paths it mentions
        text = text.replace(python_from, python_to) if python_from != python_to else text
        for folder in sorted(folders, key=len, reverse=True):
            text = text.replace(folder, _mirror(home, folder))
        return text

    if spec.shell:
        command = inline(spec.command)
    else:
        words = shlex.split(spec.command)
        command = shlex.join(path(w) for w in words)
    env = tuple((k, inline(v)) for k, v in spec.env)
    return replace(spec, command=command, cwd=_mirror(home, spec.cwd or "/"), env=env)


def relocate_build(command: str, folders: Sequence[str], home: str, python_from: str, python_to: str) -> str:
    """A build command line with the same rewriting as ``relocate`` applies to a shell command."""
    spec = relocate(BotSpec("build", command, cwd="/", shell=True), folders, home, python_from, python_to)
    return spec.command


def runtime_problem(spec: BotSpec, requires: Sequence[str]) -> str | None:
    """Why ``spec`` (as relocated on this machine) cannot start here, or None: its program or a required one is
    missing."""
    path = dict(spec.env).get("PATH", os.environ.get("PATH"))
    missing = [p for p in requires if shutil.which(p, path=path) is None]
    if not spec.shell:
        program = shlex.split(spec.command)[0]
        if "/" in program:
            full = os.path.join(spec.cwd or "/", program)
            if not os.path.exists(full):
                return f"its program {program!r} does not exist there ({full})"
            if not os.access(full, os.X_OK):
                return f"its program {program!r} is not executable there ({full})"
        elif shutil.which(program, path=path) is None and program not in missing:
            missing.insert(0, program)
    if missing:
        names = ", ".join(repr(m) for m in missing)
        return f"{names} {'is' if len(missing) == 1 else 'are'} not on PATH there"
    return None


def _mirror(home: str, path: str) -> str:
    return os.path.join(home, os.path.abspath(path).lstrip("/"))


def _way(paths: Iterable[str]) -> Iterable[str]:
    """Each of ``paths`` alone (a link, an empty folder) and the folders leading to it."""
    for path in paths:
        yield from _parents(path)
        yield path


def _parents(path: str) -> Iterable[str]:
    parent = os.path.dirname(path)
    while parent and parent != "/":
        yield parent
        parent = os.path.dirname(parent)


def _walk(roots: Iterable[str]) -> Iterable[str]:
    """Every directory and file under ``roots`` (with their parent directories), skipping ``SKIP_NAMES``."""
    for root in roots:
        yield from _parents(root)
        if not os.path.isdir(root):
            yield root
            continue
        for folder, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_NAMES)
            yield folder
            for name in names:
                full = os.path.join(folder, name)
                mode = os.lstat(full).st_mode
                if stat.S_ISREG(mode) or stat.S_ISLNK(mode):
                    yield full
