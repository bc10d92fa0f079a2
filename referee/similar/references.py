"""The reference policies: the play a class starts from (each starter kit's default, the built-in players), asked
the same decision points as the class, so that agreement they explain is not taken for a copy.

Twenty-one of the starter kits (the Python kit's bot.py among them) answer the first legal answer as shipped ("the
list has the plays first, so the kit as it is plays whenever it can"): that policy is answered here, in this process
(``first legal``). The JavaScript kit plays as ``builtin:medium``; ``builtin:medium`` and ``builtin:hard`` are asked
as ``similar`` asks any built-in player. The Python kit (``strong_bot.py``) and the C kit (``bot.c``, compiled when
a C compiler is on the PATH) are programs, asked as a student's bot is, without walls (the kits are the project's
own code). A kit whose files or toolchain are not there is left out, and the run says so.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from referee.bots.sandbox import Mode, SandboxSettings
from referee.bots.spec import BotSpec
from referee.replay.seat_lines import SeatScript
from referee.similar.agreement import Answer

#: Where the starter kits are in a source tree (a wheel installed elsewhere has none: the program kits are left out).
KITS = Path(__file__).resolve().parents[2] / "sample_bots"
#: The name of the policy twenty-one kits play as shipped.
FIRST_LEGAL = "kit:first-legal"


@dataclass(frozen=True)
class Reference:
    """A reference policy: its name, and how it is asked (``spec``: a program or a built-in; ``None``: in this
    process, ``first legal``)."""

    name: str
    spec: BotSpec | None
    what: str
    """What it is, for the output (``the Python kit, sample_bots/python/strong_bot.py``)."""


def first_legal(script: SeatScript) -> dict[int, Answer]:
    """The first legal answer at each request with two legal answers or more (the order the request lists them)."""
    return {r.number: repr(r.legal[0].key) for r in script.requests if len(r.legal) > 1}


def references(scratch: str) -> tuple[list[Reference], list[str]]:
    """The reference policies to ask (program kits built into ``scratch``), and a note per kit left out."""
    unwalled = SandboxSettings(mode=Mode.NONE)
    found = [Reference(FIRST_LEGAL, None,
                       "the first legal answer: twenty-one starter kits as shipped (bash, go, python...)"),
             Reference("builtin:medium", BotSpec("builtin:medium", "builtin:medium"),
                       "the built-in medium player, and the JavaScript kit's play"),
             Reference("builtin:hard", BotSpec("builtin:hard", "builtin:hard"), "the built-in hard player")]
    left: list[str] = []
    python = KITS / "python" / "strong_bot.py"
    if python.is_file():
        found.append(Reference("kit:python", BotSpec("kit:python", f"{sys.executable} {python.name}",
                                                     cwd=str(python.parent), sandbox=unwalled),
                               "the Python kit, sample_bots/python/strong_bot.py"))
    else:
        left.append(f"the Python kit is not compared: {python} is not there (a source tree has it)")
    c_kit = KITS / "c" / "bot.c"
    compiler = shutil.which("gcc") or shutil.which("cc")
    if c_kit.is_file() and compiler:
        binary = os.path.join(scratch, "c-kit")
        built = subprocess.run([compiler, "-O2", "-std=c99", "-o", binary, str(c_kit)], capture_output=True,
                               timeout=120)
        if built.returncode == 0:
            found.append(Reference("kit:c", BotSpec("kit:c", binary, sandbox=unwalled),
                                   "the C kit, sample_bots/c/bot.c"))
        else:
            left.append(f"the C kit is not compared: {compiler} could not build {c_kit}")
    else:
        left.append("the C kit is not compared: " + (f"{c_kit} is not there" if not c_kit.is_file()
                                                      else "no C compiler (gcc or cc) on the PATH"))
    return found, left


def scratch_dir() -> tempfile.TemporaryDirectory[str]:
    """A folder for the program kits built for one comparison."""
    return tempfile.TemporaryDirectory(prefix="lastcard-kits-")
