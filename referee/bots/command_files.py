"""The files a bot's command needs, found as the kernel will find them: the sandbox, shipping and fingerprints ask here.

A path is followed as written, one name at a time, the way the kernel does: a symbolic link is read where
it stands and its target walked in turn, and a ``..`` climbs out of the directory actually reached (so
``hostile/../bots`` is ``bots`` beside wherever ``hostile`` leads, not a lexical shortening). Each walk
keeps the links it crossed and the directories it entered, which is what a copy of the world (a sandbox,
a worker's unpacked bundle) must recreate for the command to run there exactly as written.
"""

from __future__ import annotations

import os
import shlex
import shutil
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

#: The kernel's limit on links followed in one lookup (ELOOP beyond it).
MAX_LINKS = 40
#: How deep ``#!`` interpreters may nest (Linux allows four).
MAX_SHEBANG_DEPTH = 4


@dataclass(frozen=True)
class Trace:
    """One existing path as written, and where the kernel's walk along it ends."""

    written: str
    """The absolute path as written: the working directory joined, nothing normalised."""
    real: str
    """Where the walk ends (``os.path.realpath``'s answer)."""
    links: tuple[tuple[str, str], ...] = ()
    """Each symbolic link crossed: where it stands (in real terms) and what it says."""
    entered: tuple[str, ...] = ()
    """The real directories the walk went into by name before its end (a ``..`` climbs out of the last)."""

    @property
    def is_dir(self) -> bool:
        return os.path.isdir(self.real)

    @property
    def stops(self) -> tuple[str, ...]:
        """Every file the walk's end is reached through: each link on the way, then the real path."""
        return (*(link for link, _ in self.links), self.real)


def trace(path: str) -> Trace | None:
    """Follow absolute ``path`` as the kernel would; ``None`` when it leads nowhere (missing, a loop)."""
    pending = path.split("/")[::-1]  # a stack: the next name last
    resolved = "/"
    links: list[tuple[str, str]] = []
    entered: list[str] = []
    while pending:
        name = pending.pop()
        if name in ("", "."):
            continue
        if name == "..":
            if not os.path.isdir(resolved):
                return None  # "file/..": the kernel says ENOTDIR
            resolved = os.path.dirname(resolved)
            continue
        here = os.path.join(resolved, name)
        try:
            target = os.readlink(here)
        except OSError:  # not a link: a file or folder, or nothing
            if not os.path.lexists(here):
                return None
            resolved = here
            if any(p not in ("", ".") for p in pending):
                entered.append(here)  # a folder gone through; a later ".." may climb out of it
            continue
        links.append((here, target))
        if len(links) > MAX_LINKS:
            return None
        if target.startswith("/"):
            resolved = "/"
        pending.extend(target.split("/")[::-1])
    return Trace(path, resolved, tuple(links), tuple(entered))


@dataclass(frozen=True)
class CommandFiles:
    """What a command line names on disk, each path followed as the kernel will follow it."""

    cwd: Trace | None
    """The working directory (``None`` if it does not exist)."""
    program: Trace | None
    """The file the command runs: its first word, looked up on ``PATH`` when it has no ``/``."""
    on_path: bool
    """Whether the program was found on ``PATH`` (an installed runtime) rather than named by its path."""
    interpreters: tuple[Trace, ...]
    """The ``#!`` interpreters the program starts, outermost last (what ``/usr/bin/env NAME`` finds included)."""
    named: tuple[tuple[str, Trace], ...]
    """Each existing path the arguments name: the text that names it, and its walk."""

    def traces(self) -> Iterator[Trace]:
        """Every walk: the working directory, the program, its interpreters, then the named paths."""
        for t in (self.cwd, self.program, *self.interpreters):
            if t is not None:
                yield t
        for _, t in self.named:
            yield t


def split_command(text: str) -> list[str]:
    """A command line's words as a shell would split them (on blanks alone when its quoting is broken)."""
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def candidates(word: str) -> list[str]:
    """The texts in one argument that may name a path: the word, an option's value, the parts of a ``a:b`` list."""
    out = [word]
    if word.startswith("-") and "=" in word:
        word = word.split("=", 1)[1]
        out.append(word)
    if ":" in word:
        out.extend(word.split(":"))
    return [c for i, c in enumerate(out) if c and "\n" not in c and c not in out[:i]]


def find_program(name: str, cwd: str, search: Sequence[str | None] = (None,)) -> str | None:
    """The path ``name`` runs as exec would find it: joined to ``cwd`` when it has a ``/``, else on each PATH in turn.

    ``None`` in ``search`` is the referee's own ``PATH``.
    """
    if "/" in name:
        joined = os.path.join(cwd, name)
        return joined if os.path.exists(joined) else None
    for path in search:
        found = shutil.which(name, path=path)
        if found is not None:
            return found
    return None


def shebang(path: str) -> list[str]:
    """The words of a script's ``#!`` line (``[]`` for anything else)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(256)
    except OSError:
        return []
    if not head.startswith(b"#!"):
        return []
    return head[2:].split(b"\n", 1)[0].decode(errors="replace").split()


def command_files(words: Sequence[str], cwd: str, search: Sequence[str | None] = (None,)) -> CommandFiles:
    """The working directory, program, interpreters and named paths of ``words`` run in ``cwd``.

    ``search`` is the PATH (or PATHs, tried in turn) the program is looked up on, as in ``find_program``.
    """
    cwd = os.path.abspath(cwd)  # abspath only prefixes os.getcwd() here: cwd is absolute or relative to it
    home = trace(cwd)
    base = home.real if home is not None else cwd  # relative paths start from where the process really is
    program = None
    on_path = False
    interpreters: list[Trace] = []
    if words:
        found = find_program(words[0], base, search)
        on_path = "/" not in words[0]
        program = trace(os.path.join(base, found)) if found is not None else None
        script = program
        for _ in range(MAX_SHEBANG_DEPTH):
            if script is None or script.is_dir:
                break
            line = shebang(script.real)
            if not line:
                break
            found = find_program(line[0], base, search)
            script = trace(os.path.join(base, found)) if found is not None else None
            if script is None:
                break
            interpreters.append(script)
            if os.path.basename(script.real) == "env":  # "#!/usr/bin/env python3": what env runs is needed too
                names = [w for w in line[1:] if not w.startswith("-") and "=" not in w]
                found = find_program(names[0], base, search) if names else None
                ran = trace(os.path.join(base, found)) if found is not None else None
                if ran is not None:
                    interpreters.append(ran)
                break
    named: list[tuple[str, Trace]] = []
    for word in words[1:]:
        for text in candidates(word):
            t = trace(os.path.join(base, text))
            if t is not None:
                named.append((text, t))
    return CommandFiles(home, program, on_path, tuple(interpreters), tuple(named))


def folder_of(path: str, alone_in: Sequence[str]) -> str:
    """The folder that holds file ``path``, or the file alone when that folder is one of ``alone_in``."""
    parent = os.path.dirname(path)
    return path if parent in alone_in else parent


def inside(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or lies under it."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


@dataclass(frozen=True)
class Tree:
    """A part of the filesystem to show or copy elsewhere: whole folders (or lone files), and the way to them."""

    roots: tuple[str, ...]
    """Folders (or lone files) that go whole, each at its real path; none inside another."""
    links: tuple[tuple[str, str], ...] = ()
    """Symbolic links the paths cross outside the roots, to recreate as they are: (where it stands, what it says)."""
    dirs: tuple[str, ...] = ()
    """Folders a path goes through and climbs out of (``hostile`` in ``hostile/../bots``), to recreate empty."""


def tree(roots: Iterable[str], traces: Iterable[Trace], leave_out: Callable[[str], bool] = lambda path: False) -> Tree:
    """``roots`` (the outermost ones), with the links and folders ``traces`` cross outside them and not left out.

    A folder that leads to a root or a link is left out too: making the way to those makes it.
    """
    kept: list[str] = []
    for root in sorted(set(roots)):
        if not any(inside(root, k) for k in kept):
            kept.append(root)

    def covered(path: str) -> bool:
        return leave_out(path) or any(inside(path, k) for k in kept)

    links: list[tuple[str, str]] = []
    entered: list[str] = []
    for t in traces:
        links += [link for link in t.links if not covered(link[0]) and link not in links]
        entered += [d for d in t.entered if not covered(d) and d not in entered]
    ends = [*kept, *(where for where, _ in links), *entered]
    dirs = tuple(d for d in entered if not any(e != d and inside(e, d) for e in ends))
    return Tree(tuple(kept), tuple(links), dirs)
