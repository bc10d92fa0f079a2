"""The interpreter a bot's command names, wherever it is: the sandbox shows that one, and what it needs.

A command's first word is the program the person running lastcard would get from their own shell (their ``PATH``:
an activated venv's ``python3``, a pyenv shim), as ``--sandbox none`` runs it; inside the walls the ``PATH`` is the
clean one, so the sandbox runs it by its path instead (``sandbox._program``). Two kinds of interpreter need more
than the file itself:

- a version manager's *shim* (pyenv, rbenv, nodenv, asdf: ``~/.pyenv/shims/python3``) is a script that asks the
  manager which version to run; ``unshim`` asks the manager once, outside, and the bot runs that version's
  program (the manager's whole tree stays hidden);
- a venv made with ``--copies`` holds a copy of the interpreter, whose standard library is in the installation
  ``pyvenv.cfg``'s ``home`` names (``base_installation``).
"""

from __future__ import annotations

import functools
import os
import re
import subprocess

#: The files a version manager reads to choose a version for a folder (pyenv, rbenv, nodenv, asdf).
VERSION_FILES = (".python-version", ".ruby-version", ".node-version", ".tool-versions")
#: The line of a shim that hands over to its manager: ``exec "/home/me/.pyenv/libexec/pyenv" exec "$program"``.
_HANDOVER = re.compile(r'^\s*exec\s+"?([^"\s]+)"?\s+exec\b', re.MULTILINE)
#: The variables a shim sets for its manager: ``export PYENV_ROOT="/home/me/.pyenv"``.
_EXPORT = re.compile(r'^\s*export\s+([A-Za-z_][A-Za-z0-9_]*)="?([^"\n]*)"?\s*$', re.MULTILINE)
#: A shim is a short script; anything bigger in a ``shims`` folder is not one.
_SHIM_BYTES = 16_384


def unshim(program: str, cwd: str) -> str:
    """The program a version manager's shim would run from ``cwd``; ``program`` itself when it is no shim (or
    the manager cannot say)."""
    if os.path.basename(os.path.dirname(program)) != "shims":
        return program
    chooser = version_file(cwd)
    return _which(program, os.path.dirname(chooser) if chooser else "/")


def version_file(cwd: str) -> str | None:
    """The nearest file choosing a version for ``cwd`` (it and the folders above): what a shim's answer depends on
    besides the shim itself, so one answer serves every folder it governs."""
    folder = os.path.abspath(cwd)
    while True:
        for name in VERSION_FILES:
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                return path
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


@functools.lru_cache(maxsize=64)
def _which(program: str, cwd: str) -> str:
    """Ask the shim's manager which program it runs in ``cwd`` (the folder of the version file that governs the
    bot's, else ``/``: once per shim and version file, for a manager takes a tenth of a second or more)."""
    try:
        with open(program, "rb") as fh:
            text = fh.read(_SHIM_BYTES).decode("utf-8", "replace")
    except OSError:
        return program
    handover = _HANDOVER.search(text)
    if not text.startswith("#!") or handover is None:
        return program
    env = dict(os.environ)
    env.update({name: value for name, value in _EXPORT.findall(text) if "$" not in value})
    try:
        run = subprocess.run([handover.group(1), "which", os.path.basename(program)], cwd=cwd, env=env,
                             capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return program
    said = [line.strip() for line in run.stdout.decode("utf-8", "replace").splitlines() if line.strip()]
    found = said[-1] if run.returncode == 0 and said else ""
    return found if os.path.isabs(found) and os.access(found, os.X_OK) else program


def base_installation(prefix: str) -> str | None:
    """The Python installation a venv at ``prefix`` was made from (``pyvenv.cfg``'s ``home``, a ``bin`` folder, as
    its real path), or ``None`` when ``prefix`` is no venv."""
    try:
        with open(os.path.join(prefix, "pyvenv.cfg"), encoding="utf-8", errors="replace") as fh:
            lines = fh.read(_SHIM_BYTES).splitlines()
    except OSError:
        return None
    for line in lines:
        key, sep, value = line.partition("=")
        if sep and key.strip() == "home" and os.path.isabs(value.strip()):
            return os.path.realpath(value.strip())
    return None
