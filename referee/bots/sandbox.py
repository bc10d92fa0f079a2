"""Walls and limits around a bot process: bubblewrap namespaces, an unprivileged user, cgroups, rlimits.

A launch turns the bot's command into ``sh -c 'join the cgroups; exec "$@"' bwrap ... setpriv ...
prlimit ... COMMAND``: the shell puts itself in the bot's control groups before anything of the bot
runs, ``bwrap`` builds a world with its own PID, network, IPC and UTS namespaces (and, for a normal
user, its own user namespace) and a read-only filesystem made from an allowlist, ``setpriv`` drops root
when the referee runs as root (a user namespace alone does not: uid 0 inside is root outside), and
``prlimit`` sets the per-process limits inside all that.
See docs/security.md for what each layer stops.
"""

from __future__ import annotations

import errno
import functools
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Callable, Sequence

from referee.bots import cgroups, interpreters, offer
from referee.bots.command_files import (
    Tree,
    command_files,
    find_program,
    folder_of,
    inside,
    split_command,
    trace,
    tree,
)
from referee.engine.jsondata import JsonObject
from referee.errors import BAD_INPUT, LastcardError


class Mode(str, Enum):
    """What the user asked for."""

    AUTO = "auto"
    """Everything this machine offers; what is missing is said once, and the game runs anyway."""
    STRICT = "strict"
    """Refuse to start a bot without the walls (namespaces, read-only filesystem, no root)."""
    NONE = "none"
    """No walls and no limits: the bot runs as the referee's user, for trusted bots and speed."""


class Level(str, Enum):
    """What a launch actually got; recorded with each game."""

    FULL = "full"
    """Walls, and limits held by control groups."""
    WALLS = "walls"
    """Walls; limits by rlimits only (no usable cgroups)."""
    LIMITS = "limits"
    """No walls (no working bubblewrap); only limits."""
    NONE = "none"
    """Nothing: ``sandbox: none``."""


class SandboxUnavailable(LastcardError, ValueError):
    """``strict`` was asked for and this machine cannot build the walls."""

    exit_code = BAD_INPUT


MIB = 1 << 20
#: The user a bot runs as when the referee is root: ``nobody``, who owns no files.
NOBODY = 65534
#: The environment a sandboxed bot starts with (plus the bot's own ``env:``); nothing of the referee's.
CLEAN_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "HOME": "/tmp",
    "TMPDIR": "/tmp",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "PYTHONUNBUFFERED": "1",
    "PYTHONDONTWRITEBYTECODE": "1",
}
#: System folders a bot sees, read-only, when they exist: the runtimes and their libraries.
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt")


@dataclass(frozen=True)
class SandboxSettings:
    """The sandbox mode and the limits of one bot; ``None`` switches a limit off."""

    mode: Mode = Mode.AUTO
    memory_mb: int | None = 1024
    processes: int | None = 64
    cpus: float | None = 1.0
    cpu_seconds: int | None = None
    file_size_mb: int | None = 64
    open_files: int | None = 256
    scratch_mb: int = 64
    #: A build step's own limits (referee/builds/walled.py): its memory, processes, and the size of the
    #: folder it builds in (its copy of the submission and everything it writes there, a tmpfs).
    build_memory_mb: int | None = 2048
    build_processes: int | None = 256
    build_disk_mb: int = 512
    #: Files and folders the bot may read besides what its command names (absolute; ``paths:`` of a bot,
    #: ``--bot-path``): a model's weights, a library's folder. Shown read-only, at their real paths.
    paths: tuple[str, ...] = ()

    def for_build(self) -> SandboxSettings:
        """The settings a build step runs under: the mode and CPU share of the bot, the build's own limits
        (no CPU-seconds limit: ``build_timeout_s`` bounds a build; a file may be as big as the build's disk)."""
        return replace(self, memory_mb=self.build_memory_mb, processes=self.build_processes, cpu_seconds=None,
                       file_size_mb=self.build_disk_mb,
                       open_files=None if self.open_files is None else max(self.open_files, 1024),
                       scratch_mb=self.build_disk_mb)

    def __post_init__(self) -> None:
        if self.mode.__class__ is not Mode:
            object.__setattr__(self, "mode", parse_mode(self.mode))
        if self.paths.__class__ is not tuple:  # a list, from a file
            object.__setattr__(self, "paths", tuple(self.paths))
        if self.build_disk_mb is None:
            raise ValueError("sandbox limit build_disk_mb cannot be null: a build's folder is a tmpfs of that size; "
                             "give a number of MiB (default 512)")
        # Every job carries its seats' settings, so this runs for each seat of each game: no fields() here.
        for name in _LIMIT_NAMES:
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ValueError(f"sandbox limit {name} must be a positive number (or null for no limit), "
                                 f"not {value!r}")

    def to_json(self) -> dict[str, object]:
        # Not asdict(): every job carries its seats' settings, and asdict's deep copy cost more than the rest.
        # A build limit at its default is left out: the bot's settings (and a ladder's hash of them) read as
        # they did before builds had limits of their own.
        out = {name: getattr(self, name) for name in _BOT_NAMES} | {"mode": self.mode.value}
        for name, default in _BUILD_DEFAULTS:
            if getattr(self, name) != default:
                out[name] = getattr(self, name)
        if self.paths:  # left out when none, for the same reason
            out["paths"] = list(self.paths)
        return out

    @classmethod
    def from_json(cls, data: JsonObject) -> SandboxSettings:
        """Settings from a mapping, refusing unknown keys with the list of known ones."""
        if not data.keys() <= _KNOWN:
            unknown = sorted(set(data) - _KNOWN)
            raise ValueError(f"unknown sandbox setting {unknown[0]!r}; known: {', '.join(sorted(_KNOWN))}")
        return cls(**data)


_FIELD_NAMES = tuple(f.name for f in fields(SandboxSettings))
_KNOWN = frozenset(_FIELD_NAMES)
_LIMIT_NAMES = tuple(name for name in _FIELD_NAMES if name not in ("mode", "paths"))
_BUILD_DEFAULTS = tuple((f.name, f.default) for f in fields(SandboxSettings) if f.name.startswith("build_"))
_BOT_NAMES = tuple(name for name in _FIELD_NAMES if not name.startswith("build_") and name != "paths")


def parse_mode(value: Mode | str) -> Mode:
    """``auto``/``strict``/``none`` as a ``Mode``, or a clear error."""
    try:
        return Mode(value)
    except ValueError:
        raise ValueError(f"unknown sandbox mode {value!r}: use auto, strict or none") from None


def settings_from(value: object, base: SandboxSettings) -> SandboxSettings:
    """An arena file's ``sandbox:`` value (a mode, or a mapping of mode and limits) over ``base``."""
    if value is None:
        return base
    if isinstance(value, str):
        return replace(base, mode=parse_mode(value))
    if not isinstance(value, dict):
        raise ValueError(f"sandbox must be auto, strict, none or a mapping of limits, not {value!r}")
    return SandboxSettings.from_json(base.to_json() | dict(value))


@dataclass(frozen=True)
class Machine:
    """What this machine offers, probed once per process."""

    bwrap: str | None
    setpriv: str | None
    prlimit: str | None
    root: bool
    hierarchy: cgroups.Hierarchy | None
    problems: tuple[str, ...]
    #: The one command that would raise the level here (``offer.fill`` puts the command line in), or "".
    remedy: str = ""

    @property
    def walls(self) -> bool:
        """Namespaces and an unprivileged user are both available."""
        return self.bwrap is not None and (not self.root or self.setpriv is not None)


def _bwrap_works(path: str) -> str | None:
    """``None`` if bubblewrap can build namespaces here, else what it said."""
    try:
        run = subprocess.run([path, "--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "--die-with-parent",
                              "--", "/bin/true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    return None if run.returncode == 0 else (run.stderr.decode(errors="replace").strip() or f"exit {run.returncode}")


def _real(path: str | None) -> str | None:
    return None if path is None else os.path.realpath(path)


@functools.lru_cache(maxsize=1)
def machine() -> Machine:
    """Probe bubblewrap, setpriv, prlimit and cgroups (once; cached for the process)."""
    problems: list[offer.Shortfall] = []  # in the order they lower the level: the first remedy raises it most
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        problems.append(offer.no_bwrap())
    else:
        why = _bwrap_works(bwrap)
        if why is not None:
            problems.append(offer.bwrap_fails(why))
            bwrap = None
    root = os.geteuid() == 0
    # setpriv and prlimit run inside the walls, where only the system's folders are: by their real paths.
    setpriv = _real(shutil.which("setpriv"))
    if root and setpriv is None:
        problems.append(offer.Shortfall("setpriv (util-linux) is missing, so bots would run as root: "
                                        "apt-get install util-linux", "sudo apt-get install util-linux"))
    hierarchy = cgroups.detect()
    if hierarchy is None:
        problems.append(offer.no_cgroups(root, unified=os.path.exists(f"{cgroups.ROOT}/cgroup.controllers")))
    else:
        cgroups.sweep(hierarchy)
    prlimit = _real(shutil.which("prlimit"))
    if prlimit is None:
        problems.append(offer.Shortfall("prlimit (util-linux) is missing: file size and open file limits are "
                                        "not set", "sudo apt-get install util-linux"))
    return Machine(bwrap, setpriv, prlimit, root, hierarchy, tuple(p.problem for p in problems),
                   next((p.remedy for p in problems if p.remedy), ""))


def effective_level(settings: SandboxSettings | None, probe: Machine | None = None) -> Level:
    """The level a bot with these settings gets on this machine (raises ``SandboxUnavailable`` for strict)."""
    if settings is None or settings.mode is Mode.NONE:
        return Level.NONE
    m = probe or machine()
    if not m.walls:
        if settings.mode is Mode.STRICT:
            raise SandboxUnavailable("sandbox: strict, but " + "; ".join(m.problems)
                                     + " (or run with --sandbox auto to go on without the walls)")
        return Level.LIMITS
    return Level.FULL if m.hierarchy is not None else Level.WALLS


def shortfall(settings: SandboxSettings | None) -> str | None:
    """For ``auto``: the level bots get here, what this machine could not give and the one command that would
    raise it, to say once at the start; ``None`` if nothing is missing."""
    if settings is None or settings.mode is not Mode.AUTO:
        return None
    m = machine()
    if not m.problems:
        return None
    return f"sandbox: bots run at level {effective_level(settings, m).value} " + _missing(m)


def _missing(m: Machine) -> str:
    """What ``m`` lacks, and the remedy with this command line in it."""
    text = "(" + "; ".join(m.problems) + ")"
    return text + (f". To raise it: {offer.fill(m.remedy, sys.argv)}" if m.remedy else "")


def _program(argv: list[str], cwd: str) -> list[str]:
    """``argv`` with its program made absolute where the clean PATH inside would find another one (or none); a
    missing one raises as exec would.

    The program is the one the referee's own PATH finds, as ``--sandbox none`` runs it: an activated venv's
    ``python3``, not the system's (``interpreters``); a version manager's shim is replaced by what it runs. So is
    the program ``env`` is asked to run (``env python3 bot.py``).
    """
    if not argv:
        raise ValueError("empty command")
    exe = find_program(argv[0], cwd, _OWN_FIRST)
    if exe is None or os.path.isdir(exe):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), argv[0])
    if not os.access(exe, os.X_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), argv[0])
    out = [_as_found(argv[0], exe, cwd), *argv[1:]]
    if os.path.basename(exe) == "env":
        word = next((i for i, w in enumerate(out) if i and not w.startswith("-") and "=" not in w), None)
        if word is not None:
            found = find_program(out[word], cwd, _OWN_FIRST)
            if found is not None and not os.path.isdir(found):
                out[word] = _as_found(out[word], found, cwd)
    return out


def resolved_program(argv: Sequence[str] | str, cwd: str) -> str | None:
    """The program a bot's command runs inside the walls, by its path (``None``: a shell line, or not found)."""
    if isinstance(argv, str) or not argv:
        return None
    try:
        first = _program(list(argv), cwd)[0]
    except (OSError, ValueError):
        return None
    return first if "/" in first else shutil.which(first, path=CLEAN_ENV["PATH"])


def _as_found(word: str, exe: str, cwd: str) -> str:
    """``word`` as the bot's command line should say it: a shim's program by its path (the shim would need its
    manager's whole tree); unchanged when it names a path, or when the clean PATH finds the same program; else the
    program's path."""
    real = interpreters.unshim(exe, cwd)
    if real != exe:
        return real
    if "/" in word or shutil.which(word, path=CLEAN_ENV["PATH"]) == exe:
        return word
    return exe


def _by_name(argv: list[str], found: list[str], env: dict[str, str] | None) -> tuple[list[str], list[str]]:
    """The command as written, with the folders to put first on the bot's PATH for its words to find what
    ``_program`` found (``found``): a program keeps the name it was called by (its messages say ``python3:``, not a
    path). Where the bot's ``env:`` sets its own PATH, or a name differs (a shim's program), the path is used."""
    if env and "PATH" in env:
        return found, []
    command, first = list(argv), []
    for i, (word, path) in enumerate(zip(argv, found)):
        if word == path:
            continue
        if os.path.basename(path) == word:
            folder = os.path.dirname(path)
            if folder not in first:
                first.append(folder)
        else:
            command[i] = path
    return command, first


#: Where a program is looked up: the PATH it will have inside, then the referee's (``_program`` then makes it absolute).
_SEARCH = (CLEAN_ENV["PATH"], None)
#: Where the program a command starts with is looked up: the referee's PATH first, as a shell of its user would.
_OWN_FIRST = (None, CLEAN_ENV["PATH"])


def _prefix(executable: str) -> str:
    """The installation an interpreter belongs to: ``/x/python-3.11`` for ``/x/python-3.11/bin/python3``."""
    folder = os.path.dirname(executable)
    return os.path.dirname(folder) if os.path.basename(folder) == "bin" else folder


def _is_system(path: str) -> bool:
    return any(path == d or path.startswith(d + "/") for d in SYSTEM_DIRS)


def bot_view(argv: Sequence[str], cwd: str, paths: Sequence[str] = ()) -> Tree:
    """What a bot needs: its runtime's installation, every folder its command names, the ``paths`` it was given,
    and the links and folders on the way to them, so the command runs inside exactly as written (``..`` and links
    included)."""
    files = command_files(argv, cwd, _SEARCH)
    shared = _shared()
    binds: list[str] = []

    def bind(path: str) -> None:
        if path not in shared and not _is_system(path) and path not in binds:
            binds.append(path)

    if files.program is not None:
        # A venv's python is a link into another installation: each file on the way must be there.
        for stop in files.program.stops:
            if _is_system(stop):
                continue
            if files.on_path or os.path.basename(os.path.dirname(stop)) == "bin":
                _installation(stop, bind)  # an interpreter: its whole installation
            else:  # the bot's own program; loose in /tmp or a home folder: that file alone, not its neighbours
                bind(folder_of(stop, shared))
    for interpreter in files.interpreters:  # a script's "#!" line
        for stop in interpreter.stops:
            if not _is_system(stop):
                _installation(stop, bind)
    for _, named in files.named:
        bind(named.real if named.is_dir else folder_of(named.real, shared))
    given = [t for t in (trace(p) for p in paths) if t is not None]
    for t in given:  # named by the person running the contest: exactly that, a file alone included
        bind(t.real)
    return tree(binds, [*files.traces(), *given], leave_out=_is_system)


def _installation(executable: str, bind: Callable[[str], None]) -> None:
    """Show the installation ``executable`` belongs to and, for a venv, the Python it was made from (a venv made
    with ``--copies`` links to nothing: its ``pyvenv.cfg`` names the standard library's installation)."""
    prefix = _prefix(executable)
    bind(prefix)
    base = interpreters.base_installation(prefix)
    if base is not None and not _is_system(base):
        bind(_prefix(os.path.join(base, "python")))


def checked_paths(paths: Sequence[str], base: str) -> tuple[str, ...]:
    """``paths:`` given for a bot, absolute (relative ones from ``base``, ``~`` expanded); ``ValueError`` naming the
    path and the fix for one that does not exist or would show other people's files (``/``, ``/home``, ``/tmp``)."""
    out: list[str] = []
    for given in paths:
        path = os.path.abspath(os.path.join(base, os.path.expanduser(given)))
        if not os.path.exists(path):
            raise ValueError(f"path {given!r} does not exist ({path}): give a file or folder the bot reads")
        if os.path.realpath(path) in _shared() or path in _shared():
            raise ValueError(f"path {given!r} is {os.path.realpath(path)}, where other people's files are: a bot "
                             "given it could read them all; give the folder inside it the bot needs (its model, "
                             "its library)")
        if path not in out:
            out.append(path)
    return tuple(out)


def _shared() -> tuple[str, ...]:
    """Folders never shown whole to a bot: other people's files live there."""
    return ("/", "/tmp", "/var/tmp", "/dev/shm", "/home", "/root", os.path.expanduser("~"))


#: The largest closed folder copied for a bot (beyond it: an error asking for ``chmod -R o+rX``).
SNAPSHOT_LIMIT = 256 * MIB


def _closed_to_others(folder: str) -> bool:
    """Whether an unprivileged user could not list ``folder`` or read one of its files (one level deep)."""
    try:
        if not os.path.isdir(folder):
            return os.stat(folder).st_mode & 0o004 == 0
        if os.stat(folder).st_mode & 0o005 != 0o005:
            return True
        with os.scandir(folder) as entries:
            for entry in entries:
                mode = entry.stat(follow_symlinks=True).st_mode
                if mode & 0o004 == 0 or (entry.is_dir() and mode & 0o001 == 0):
                    return True
    except OSError:
        return False
    return False


def _tree_size(folder: str, stop: int) -> int:
    total = 0
    for root, _, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                continue
            if total > stop:
                return total
    return total


class Launch:
    """One sandboxed start of a bot: the wrapped command, its control group, and the cleanup after it."""

    def __init__(self, settings: SandboxSettings, probe: Machine | None = None) -> None:
        self.settings = settings
        self.machine = probe or machine()
        self.level = effective_level(settings, self.machine)
        self.group: cgroups.BotGroup | None = None
        self.snapshots: list[str] = []  # copies of folders nobody could read, removed at the end

    def wrap(self, argv: Sequence[str] | str, *, cwd: str | None, env: dict[str, str] | None,
             shell: bool, view: Tree | None = None, workspace: str | None = None) -> tuple[list[str], dict[str, str]]:
        """The command line and environment that start ``argv`` inside the walls and limits.

        ``view`` replaces what the command's words would show (a build names the student's words: they must
        show nothing); ``workspace`` is a writable tmpfs of ``scratch_mb`` at that path, the working directory.
        """
        s, m = self.settings, self.machine
        workdir = os.path.abspath(cwd or os.getcwd())
        command, named, clean = self._command(argv, workdir, env)

        limited: set[str] = set()
        joins: list[str] = []
        if m.hierarchy is not None:
            try:
                self.group = cgroups.BotGroup(m.hierarchy, memory_bytes=s.memory_mb and int(s.memory_mb * MIB),
                                              processes=s.processes, cpus=s.cpus)
                limited = self.group.limited
                joins = self.group.procs_files
            except OSError:
                self.group = None
        out: list[str] = []
        if joins:
            script = "".join(f"echo $$ > {shlex.quote(f)} && " for f in joins) + 'exec "$@"'
            out += ["/bin/sh", "-c", script, "lastcard-sandbox"]
        limits: list[str] = []
        if m.prlimit is not None:
            rl = []
            if s.file_size_mb:
                rl.append(f"--fsize={s.file_size_mb * MIB}")
            if s.open_files:
                rl.append(f"--nofile={s.open_files}")
            if s.cpu_seconds:
                rl.append(f"--cpu={s.cpu_seconds}")
            if s.memory_mb and "memory" not in limited:
                rl.append(f"--data={s.memory_mb * MIB}")  # DATA, not AS: AS breaks the JVM and Node
            if s.processes and "pids" not in limited:
                rl.append(f"--nproc={s.processes}")  # root ignores it; without walls it counts per user
            if rl:
                limits = [m.prlimit, *rl, "--"]
        if self.level in (Level.FULL, Level.WALLS):
            out += self._bwrap(bot_view(named, workdir, s.paths) if view is None else view, workdir, workspace)
        # The rlimits are set inside the walls, after bubblewrap made the bot's user namespace: there the kernel
        # counts RLIMIT_NPROC per namespace (Linux 5.14 and later), so a normal user's bot may run `processes` of
        # its own, whatever the user runs beside it. Set before bwrap, the limit counted every process of the
        # user, and bwrap itself failed to start once they passed it (a JVM's threads count: issue 53).
        out += limits + command
        return out, clean

    def _command(self, argv: Sequence[str] | str, workdir: str,
                 env: dict[str, str] | None) -> tuple[list[str], list[str], dict[str, str]]:
        """The command to run, the words that name its files, and its clean environment."""
        first: list[str] = []
        if isinstance(argv, str):  # a shell line: /bin/sh runs it, and its words name the files, roughly
            command, named = ["/bin/sh", "-c", argv], split_command(argv)
        else:
            named = _program(list(argv), workdir)
            command, first = _by_name(list(argv), named, env)
        clean = dict(CLEAN_ENV)
        if first:  # as an activated venv puts its bin first: "#!/usr/bin/env python3" finds that one too
            clean["PATH"] = ":".join([*first, clean["PATH"]])
        clean.update(env or {})
        clean["LASTCARD_SANDBOX"] = self.level.value
        return command, named, clean

    def _bwrap(self, view: Tree, workdir: str, workspace: str | None = None) -> list[str]:
        m, s = self.machine, self.settings
        assert m.bwrap is not None
        args = [m.bwrap, "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
                "--unshare-cgroup-try", "--die-with-parent", "--new-session", "--hostname", "lastcard"]
        for d in SYSTEM_DIRS:
            if os.path.lexists(d):
                # /bin and /lib are links into /usr on current distributions: keep them links.
                if os.path.islink(d):
                    args += ["--symlink", os.readlink(d), d]
                else:
                    args += ["--ro-bind", d, d]
        args += ["--proc", "/proc", "--dev", "/dev",
                 "--perms", "1777", "--size", str(s.scratch_mb * MIB), "--tmpfs", "/tmp"]
        # bwrap makes the folders leading to a bind 0700 when run as root: nobody could not pass.
        made: set[str] = {"/", "/tmp"}  # the scratch tmpfs: keep its 1777
        # Relative paths start where the process really is, as they do outside (where getcwd() is real too).
        workdir = os.path.realpath(workdir)
        outside = not any(inside(workdir, f) for f in view.roots)
        wanted = [os.path.dirname(f) for f in view.roots] + list(view.dirs)
        wanted += [os.path.dirname(where) for where, _ in view.links] + ([workdir] if outside else [])
        if workspace is not None:
            wanted.append(os.path.dirname(workspace))
        for path in wanted:
            parts = path.strip("/").split("/")
            for i in range(1, len(parts) + 1):
                folder = "/" + "/".join(parts[:i])
                if folder not in made and not _is_system(folder):
                    made.add(folder)
                    args += ["--perms", "0755", "--dir", folder]
        for where, what in view.links:  # before the binds: a link stands in a folder made above, never in a bind
            args += ["--symlink", what, where]
        for folder in view.roots:
            args += ["--ro-bind-try", self._readable(folder) if m.root else folder, folder]
        if workspace is not None:  # after the binds: nothing read-only is ever mounted over it
            args += ["--perms", "0777", "--size", str(s.scratch_mb * MIB), "--tmpfs", workspace]
        # The root is bwrap's own tmpfs, of no set size, holding the folders made above: for a normal user the bot
        # owns them (its user namespace maps it to the user), and could fill memory there. Read-only, as it is
        # in effect for nobody; /tmp and a build's folder are mounts of their own, sized, and stay writable.
        args += ["--remount-ro", "/", "--chdir", workdir]
        if m.root:
            assert m.setpriv is not None
            args += ["--", m.setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                     "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all"]
        args += ["--"]
        return args

    def _readable(self, folder: str) -> str:
        """``folder``, or a world-readable copy of it when ``nobody`` could not read it (a 0700 folder)."""
        if not _closed_to_others(folder):
            return folder
        if not os.path.isdir(folder):  # one file
            copy = tempfile.mkdtemp(prefix="lastcard-bot-")
            self.snapshots.append(copy)
            target = shutil.copy2(folder, os.path.join(copy, "f"))
            os.chmod(copy, 0o755)
            os.chmod(target, os.stat(target).st_mode | 0o444)
            return target
        size = _tree_size(folder, SNAPSHOT_LIMIT)
        if size > SNAPSHOT_LIMIT:
            raise ValueError(f"the bot's folder {folder!r} is closed to other users and too big to copy "
                             f"({size >> 20}+ MiB): make it readable with `chmod -R o+rX {folder}`")
        copy = tempfile.mkdtemp(prefix="lastcard-bot-")
        self.snapshots.append(copy)
        target = os.path.join(copy, "d")
        shutil.copytree(folder, target, symlinks=True)
        for root, _dirs, files in os.walk(copy):
            os.chmod(root, 0o755)
            for name in files:
                path = os.path.join(root, name)
                if not os.path.islink(path):
                    os.chmod(path, os.stat(path).st_mode | 0o444)
        return target

    def kill(self) -> None:
        """Kill every process of the bot, however it left the process group."""
        if self.group is not None:
            self.group.kill()

    def cleanup(self) -> None:
        """After the bot ended: kill what is left and remove its control groups."""
        if self.group is not None:
            self.group.remove()
            self.group = None
        for copy in self.snapshots:
            shutil.rmtree(copy, ignore_errors=True)
        self.snapshots = []


def prepare(settings: SandboxSettings | None) -> Launch | None:
    """A launch for these settings, or ``None`` for ``sandbox: none``."""
    if settings is None or settings.mode is Mode.NONE:
        return None
    return Launch(settings)


def describe(settings: SandboxSettings | None) -> str:
    """One line on what a bot with these settings gets here (for ``check`` and logs)."""
    level = effective_level(settings)
    text = f"sandbox {level.value}"
    m = machine()
    return text + (f" {_missing(m)}" if settings is not None and settings.mode is Mode.AUTO and m.problems
                   else "")


if __name__ == "__main__":  # pragma: no cover - a quick look at what this machine offers
    print(machine())
    print(describe(SandboxSettings()))
    sys.exit(0)
