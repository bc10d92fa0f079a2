"""The house's doors (docs/architecture.md, "Invariants"): only ``store/`` opens the files of a results folder.

Every other package reaches games.jsonl, results.json, arena.json, the records and the reports through
``store.results_dir.ResultsDir`` and ``store.games_log.GamesLog`` (and writes through ``store.disk.atomic_file``).
The tests read the code, not a run: a module outside ``store/`` that opens a file must be listed below with what it
opens, so a new reader of a results folder fails here and is sent to the door.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "referee"

#: Calls that open, replace or load a file.
OPENERS = {"open", "io.open", "gzip.open", "tarfile.open", "os.open", "os.replace", "os.rename", "json.load",
           "os.fdopen"}

#: Modules outside store/ that open files, each with what they open: none of them is a results folder's file.
ALLOWED = {
    "__init__.py": "the compiled build's record of its sources (_engine_sources.txt)",
    "botkit.py": "copies itself into a bot's folder",
    "bots/cgroups.py": "cgroup control files under /sys/fs/cgroup and /proc/self/cgroup",
    "bots/command_files.py": "a bot's own program files, to fingerprint what a command runs",
    "bots/cpuclock.py": "a process's /proc/PID/stat and its cgroup's cpu.stat",
    "bots/interpreters.py": "a version manager's shim and a venv's pyvenv.cfg, to find the interpreter a command "
                            "runs",
    "bots/hints.py": "a bot's program file, to name its language in a hint",
    "bots/logs.py": "a bot's stderr or build log, read back from an offset (the transport writes it)",
    "bots/offer.py": "the kernel's user-namespace settings under /proc/sys that decide which walls it can offer",
    "bots/pipes/transport.py": "a bot's stderr log, appended as the bot writes (the pool names it)",
    "builds/archives.py": "a student's zip or tar from a course platform's download, each member checked, written "
                          "into a folder made for that student",
    "builds/arrivals.py": "the folders made of a platform's download (under the user's cache) and the notes kept "
                          "beside each",
    "builds/cache.py": "the build cache's own folders under the user's cache directory",
    "builds/shipping.py": "bot folders packed and unpacked for a cluster's workers",
    "builds/steps.py": "a build step's log",
    "builds/walled.py": "a submission copied into its build walls and back",
    "check/fuzz.py": "the check's own scratch folder",
    "check/probe.py": "the check's own scratch stderr file",
    "cli/check.py": "the JUnit file the user names",
    "cli/check_arena.py": "the JUnit file the user names",
    "cli/puzzles.py": "the JUnit file the user names",
    "cluster/worker.py": "a worker's marker file in its own unpack folder",
    "html_report/tapes_beside.py": "the pipe the run hands it games through (its own end, as a file); its tapes go "
                                   "through store.tape_file",
    "inputs/files.py": "every file a person hands in, through its guards (the only inputs/ module that opens one)",
    "ladder/fingerprint.py": "a submission's files, to hash what changed",
    "ladder/store.py": "the ladder database's lock file",
    "live/now.py": "the file a worker appends the followed game's moves to, in the live page's scratch folder",
    "live/server.py": "none by itself: the report's files come from ResultsDir.read_inside",
    "replay/suite.py": "a position suite the user names",
    "similar/fingerprints.py": "a bot's program files and the starter kits', to fingerprint their text",
    "run/follow.py": "that file of the followed game (the now-playing view), appended as it is played",
}


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "store" not in p.relative_to(PACKAGE).parts[:1])


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def _openers(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _dotted(node.func) in OPENERS:
            found.append(f"{_dotted(node.func)} at line {node.lineno}")
    return found


def test_only_listed_modules_open_files() -> None:
    """A module outside store/ that opens a file is one of ALLOWED (each says what it opens, none a results file)."""
    strays = {}
    for path in _modules():
        rel = path.relative_to(PACKAGE).as_posix()
        calls = _openers(path)
        if calls and rel not in ALLOWED:
            strays[rel] = calls
    assert not strays, ("modules outside referee/store open files; a results folder's files are read and written "
                        f"through store.results_dir.ResultsDir and store.games_log.GamesLog: {strays}")


@pytest.mark.parametrize("rel", sorted(ALLOWED))
def test_allowed_modules_still_open_files(rel: str) -> None:
    """The list stays true: a module that no longer opens a file leaves it (live/server.py is listed to say why not)."""
    path = PACKAGE / rel
    assert path.exists(), f"{rel} is gone: take it off ALLOWED"
    if rel != "live/server.py":
        assert _openers(path), f"{rel} opens no file any more: take it off ALLOWED"


def _file_names() -> set[str]:
    from referee.store.results_dir import ResultsDir

    return {value for key, value in vars(ResultsDir).items() if key.isupper() and isinstance(value, str)
            and "." in value}


def test_results_file_names_are_named_once() -> None:
    """No module outside store/ spells a results file's name (``"games.jsonl"``) as a value: it asks ResultsDir.

    Docstrings and messages may mention a name inside a longer text; a string that IS the name is a path in the
    making."""
    names = _file_names()
    assert {"games.jsonl", "results.json", "arena.json", "records.jsonl.gz"} <= names
    strays = []
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value in names:
                strays.append(f"{path.relative_to(PACKAGE).as_posix()}:{node.lineno} {node.value!r}")
    assert not strays, f"results files named outside store/ (use ResultsDir's names): {strays}"
