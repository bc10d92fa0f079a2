"""What the walls hid, read from a sandboxed bot's own words, and the fix.

A bot that runs in a shell and fails behind the walls usually failed on something the walls do not show: a
Python module installed in a venv or in the user's site-packages, a data file in a home folder, a shared library
outside ``/usr``. Its stderr says which (``ModuleNotFoundError: No module named 'numpy'``, ``No such file or
directory``, ``cannot open shared object file``, ``Cannot find module``); ``hidden_by_walls`` turns that into
lines saying what the walls hid and the fixes, in the order to try them: the interpreter that has it, ``paths:``
(``--bot-path``), and ``--sandbox none`` to confirm. ``check``, ``match``, ``compare``, an arena's bots that
never started and a bot's report all print them under the bot's stderr.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from typing import Sequence

from referee.bots.sandbox import Level, Mode, SandboxUnavailable, effective_level, resolved_program
from referee.bots.spec import BotSpec

_MODULE = re.compile(r"(?:ModuleNotFoundError|ImportError): No module named '([^']+)'")
_NODE_MODULE = re.compile(r"Cannot find (?:module|package) '([^']+)'")
_LIBRARY = re.compile(r"([\w.+-]+\.so[\w.]*): cannot open shared object file")
#: A path a "No such file" message names: Python's ``'...'``, Node's ``open '...'``, Java's ``PATH (No such``,
#: a C program's ``PATH: No such``.
_NO_FILE = (re.compile(r"No such file or directory: '([^']+)'"),
            re.compile(r"no such file or directory, \w+ '([^']+)'"),
            re.compile(r"(\S+) \(No such file or directory\)"),
            re.compile(r"(\S+): No such file or directory"))


def hidden_by_walls(stderr: Sequence[str], spec: BotSpec) -> tuple[str, ...]:
    """Lines on what the walls may have hidden from ``spec``'s bot, from its last stderr lines (``()``: nothing
    that points at them, or the bot ran without walls)."""
    if spec.builtin is not None or spec.sandbox.mode is Mode.NONE:
        return ()
    try:
        if effective_level(spec.sandbox) not in (Level.FULL, Level.WALLS):
            return ()
    except SandboxUnavailable:
        return ()
    text = "\n".join(stderr)
    cwd = spec.cwd or os.getcwd()
    for finder in (_module, _node_module, _library, _missing_file):
        said = finder(text, spec, cwd)
        if said:
            return (*said, "to confirm, run it once with --sandbox none (trusted code only): if it then starts, the "
                           "walls are the cause (docs/security.md)")
    return ()


def walls_lines(walls: Sequence[str]) -> list[str]:
    """What the walls hid, under a bot's stderr as a block of lines: ``  the walls:`` and each line indented."""
    return ["  the walls:", *(f"    {line}" for line in walls)] if walls else []


#: What the bot sees inside the walls, in a few words.
SEES = "the bot sees /usr, /etc, /opt, the folders its command names and its interpreter's installation"


def _paths_fix(folder: str) -> str:
    return f"paths: [{folder}] (arena file) or --bot-path {folder} (match, compare, check) shows it, read-only"


def _module(text: str, spec: BotSpec, cwd: str) -> list[str]:
    found = _MODULE.findall(text)
    if not found:
        return []
    module = found[-1].split(".")[0]
    ran = resolved_program(spec.argv, cwd)
    lines = [f"the walls may have hidden the Python module {module!r}: {SEES}" + (f" ({ran})" if ran else "")]
    if _module_here(module) and os.path.realpath(sys.executable) != (ran and os.path.realpath(ran)):
        lines.append(f"fix: lastcard's own Python has {module!r}: {{python}} in the bot's command runs it with that "
                     f"one ({sys.executable})")
    else:
        lines.append("fix: name the Python that has it in the command (/path/to/venv/bin/python bot.py): the walls "
                     "show its installation")
    lines.append(f"or, for modules in a folder of their own: {_paths_fix('DIR')}, with PYTHONPATH=DIR (env:, "
                 "--bot-env)")
    return lines


def _module_here(module: str) -> bool:
    """Whether this (lastcard's own) Python has ``module``."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _node_module(text: str, spec: BotSpec, cwd: str) -> list[str]:
    found = _NODE_MODULE.findall(text)
    if not found or found[-1].startswith((".", "/")):
        return []
    return [f"the walls may have hidden the module {found[-1]!r}: {SEES} (a node_modules in its folder goes "
            "with it; a global one elsewhere does not)",
            f"fix: install it in the bot's folder (npm install {found[-1]}), or {_paths_fix('DIR')}"]


def _library(text: str, spec: BotSpec, cwd: str) -> list[str]:
    found = _LIBRARY.findall(text)
    if not found:
        return []
    return [f"the walls may have hidden the shared library {found[-1]!r}: {SEES}",
            f"fix: {_paths_fix('DIR')}, with LD_LIBRARY_PATH=DIR (env:, --bot-env)"]


def _missing_file(text: str, spec: BotSpec, cwd: str) -> list[str]:
    named = [m for pattern in _NO_FILE for m in pattern.findall(text)]
    for path in reversed(named):
        full = os.path.join(cwd, os.path.expanduser(path))
        if os.path.exists(full):  # there outside, missing inside: the walls hid it
            folder = full if os.path.isdir(full) else os.path.dirname(full)
            return [f"the walls hid {path!r}, which exists outside them: {SEES}", f"fix: {_paths_fix(folder)}"]
    return []
