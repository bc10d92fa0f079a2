"""The compiled build: the engine and the built-in players compiled with mypyc, from the same typed sources.

pyproject.toml holds the metadata; this file only adds the extension modules. ``pip install .`` compiles
them when a C compiler and Python's headers are there and falls back to the pure-Python build with one
line saying why when they are not (the package is the same either way: every ``.py`` file is installed,
a compiled module shadows its source). ``LASTCARD_COMPILE`` chooses:

- unset or ``auto``: compile a wheel (``pip install .``, ``python -m build``); an editable install
  (``pip install -e .``) stays pure, since compiled modules in the tree would shadow edited sources;
- ``0``: the pure build, always;
- ``1``: compile, editable installs too (in place: ``referee/*.so``), and fail if it cannot be done.

``referee.compiled()`` and ``lastcard --version`` tell which build is running.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import sys
import sysconfig

from setuptools import setup
from setuptools.command.build_ext import build_ext

#: The hot path, as whole packages: the engine, the built-in players, the protocol's messages, the table (the
#: referee's per-move loop) and a running bot's pipes (bench/README.md, "Compiled build", says why these and
#: not the rest). docs/architecture.md shows where they sit.
COMPILED_PACKAGES = [
    "referee/engine",
    "referee/players",
    "referee/protocol",
    "referee/table",
    "referee/bots/pipes",
]
#: The modules compiled outside those packages: a bot's CPU clock, read twice a decision (it sits beside the sandbox,
#: whose cgroup meter it defines, rather than in ``bots/pipes``, which the sandbox's spec imports); and the report's
#: tape of a game, made for every game of a page (0.75 ms a game interpreted, 0.46 ms compiled: the sample arena's
#: page, 0.40 s of CPU, most of it this; bench/README.md, "Fourth pass").
COMPILED_MODULES = ["referee/bots/cpuclock.py", "referee/html_report/tape.py"]
#: The packages whose ``__init__.py`` is compiled too: it imports every module of its package itself.
#: Modules of those packages that stay interpreted, each for its reason (the rest of each package is compiled).
INTERPRETED = {
    # Frozen dataclasses that cross processes by pickle (a worker's results, a job's policy): a compiled frozen
    # dataclass cannot be unpickled (FrozenInstanceError on its fields).
    "referee/protocol/faults.py": "pickled between processes",
    "referee/table/policy.py": "pickled between processes",
    "referee/engine/notation.py": "pickled to the report's processes; off the per-move path",
    # Off the hot path: compiling them would only lengthen the build (issue 40: the install's time).
    "referee/engine/events.py": "TypedDicts only",
    "referee/engine/jsondata.py": "a type alias only",
    "referee/engine/cardfaces.py": "display",
    "referee/engine/describe.py": "display",
    "referee/protocol/wire.py": "called from compiled code; gains nothing of its own",
    "referee/protocol/schemas.py": "validation at the boundary (and jsonschema is not in the isolated build)",
    # Tests seat a person at a stand-in table: a compiled module would refuse anything but a real Table.
    "referee/table/human.py": "a person's pace; tested with a stand-in table",
}
INIT_COMPILED = {"referee/players"}


def _compiled_sources() -> list[str]:
    """Every file mypyc compiles: the packages' modules, sorted (the build is the same whatever the file system's
    order), then the single modules.

    A package's ``__init__.py`` stays interpreted, except where it holds code of the hot path (``players``:
    ``make_player``): mypyc gives a compiled package a ``__path__`` one folder too deep, so a submodule the
    ``__init__`` does not import itself (``referee.engine.game``) would not be found.
    """
    here = os.path.dirname(os.path.abspath(__file__))
    found = []
    for package in COMPILED_PACKAGES:
        for name in sorted(os.listdir(os.path.join(here, package))):
            path = f"{package}/{name}"
            if name.endswith(".py") and (name != "__init__.py" or package in INIT_COMPILED) and path not in INTERPRETED:
                found.append(path)
    return found + COMPILED_MODULES


COMPILED = _compiled_sources()

#: The record of the compiled modules' sources, beside them (referee/__init__.py reads it).
SOURCES = "_engine_sources.txt"

#: setup.py commands that build the package's files (metadata and sdist hooks need no compiling).
BUILDING = {"bdist_wheel", "build", "build_ext", "install", "editable_wheel", "develop"}


def _say(line: str) -> None:
    print(f"lastcard: {line}", file=sys.stderr, flush=True)


def _missing_toolchain() -> str | None:
    """Why the modules cannot be compiled here, or None when a C compiler and Python's headers are found."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if sys.platform != "win32" and shutil.which(cc) is None:
        return f"no C compiler ({cc!r} is not on PATH; on Debian or Ubuntu: sudo apt-get install gcc python3-dev)"
    include = sysconfig.get_paths()["include"]
    if not os.path.exists(os.path.join(include, "Python.h")):
        return (f"no Python headers ({include}/Python.h is missing; on Debian or Ubuntu: "
                "sudo apt-get install python3-dev)")
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed (it comes with mypy)"
    return None


def _extensions() -> list:
    """The mypyc extension modules to build, or [] for the pure build (with one line saying why)."""
    choice = os.environ.get("LASTCARD_COMPILE", "auto").strip().lower() or "auto"
    if choice not in ("auto", "0", "1"):
        sys.exit(f"lastcard: LASTCARD_COMPILE={choice!r}: use 0 (pure), 1 (compiled) or auto (the default)")
    if choice == "0" or not BUILDING.intersection(sys.argv[1:]):
        return []
    if choice == "auto" and {"editable_wheel", "develop"}.intersection(sys.argv[1:]):
        _say("editable install: pure Python (LASTCARD_COMPILE=1 compiles in place; see README, Compiled build)")
        return []
    missing = _missing_toolchain()
    if missing is not None:
        if choice == "1":
            sys.exit(f"lastcard: LASTCARD_COMPILE=1 but the modules cannot be compiled: {missing}")
        _say(f"{missing}: installing the pure-Python build")
        return []
    from mypyc.build import mypycify

    _say(f"compiling {len(COMPILED)} modules with mypyc (LASTCARD_COMPILE=0 for the pure build)")
    # The shared library goes inside the package (referee/_engine__mypyc*.so), not beside it, so whatever
    # carries the package (an editable path, a sandbox's mounts, a cluster's upload) carries it too.
    # --follow-imports=silent: the interpreted modules the compiled ones import (the sandbox, the pool, the wire,
    # replay) are read for their types but their own errors are not this build's; the compiled ones must
    # type-check, and what they get from the others is checked at run time.
    # multi_file: the C code one file per module (not one 6.6 MB file), compiled in parallel (``BuildExtOrPure``):
    # the wheel's build took 46 s of CPU rather than 76 s, and the games are as fast (bench/README.md).
    extensions = mypycify(["--follow-imports=silent", *COMPILED], opt_level="3", debug_level="0",
                          group_name="referee._engine", multi_file=True)
    for extension in extensions:  # multi_file puts the group's header in build/referee/, not beside the C files
        extension.include_dirs.append(os.path.join("build", "referee"))
    return extensions


class BuildExtOrPure(build_ext):
    """Build the compiled modules; if the C compiler fails, build nothing (the pure package) and say so."""

    def finalize_options(self) -> None:
        """Compile the C files in parallel, one per core, unless ``--parallel`` says otherwise."""
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # a compiler or linker error, whatever distutils class it has
            if os.environ.get("LASTCARD_COMPILE") == "1" or not self.extensions:
                raise
            for path in self.get_outputs():
                if os.path.exists(path):
                    os.remove(path)
            _say(f"the C compiler failed ({type(error).__name__}, its output is above): "
                 "installing the pure-Python build")
            self.extensions = []
            return
        if self.extensions:
            self._record_sources()
            if self.inplace:
                self._byte_compile_in_place()

    def _byte_compile_in_place(self) -> None:
        """Byte-compile the package's interpreted modules in the tree (``__pycache__``), as installing a wheel does.

        An editable tree gets them only when Python writes them at an import, which it never does where
        ``PYTHONDONTWRITEBYTECODE`` is set (as on this project's VMs): every command then compiled each module
        it imports, 0.1-0.2 s of every start-up (bench/README.md, "Two cores"). Checked-hash files: Python
        compares each with its source's hash at the import, so an edited source is compiled afresh, never
        run stale (an mtime could miss an edit within the same second).
        """
        import compileall
        import py_compile

        package = os.path.dirname(self.get_ext_fullpath("referee._engine__mypyc"))
        compileall.compile_dir(package, quiet=1, force=True,  # force: what Python wrote before may be mtime-checked
                               invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)

    def _record_sources(self) -> None:
        """Write what each compiled module was compiled from beside the shared library (``SOURCES``).

        ``referee/__init__.py`` compares it with the sources in a tree compiled in place, so an edit that a
        stale compiled module would hide stops the import with a message instead.
        """
        lib = self.get_ext_fullpath("referee._engine__mypyc")
        lines = [f"{hashlib.sha256(open(path, 'rb').read()).hexdigest()}  {path}\n" for path in COMPILED]
        with open(os.path.join(os.path.dirname(lib), SOURCES), "w") as out:
            out.writelines(lines)


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildExtOrPure})
