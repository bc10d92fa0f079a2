"""What a command imports before it runs: the heavy modules a command does not use stay out of a fresh interpreter.

``lastcard --version`` and ``--help`` imported every command's domain errors, and through them the arena file's
reader (PyYAML, jsonschema and its ``referencing``/``attrs`` stack) and most of ``referee.arena``; a match between
built-ins did too, through ``referee.arena``'s package imports. Each case imports a command's modules in a new
interpreter, as ``lastcard`` does, and lists what it loaded: a test fails if an eager import comes back.
"""

from __future__ import annotations

import json
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from referee.cli.common import LastcardGroup

#: The arena file's reader: only commands that read an arena file (arena, validate, ladder) need these.
FILE_READER = ("jsonschema", "referencing", "yaml", "referee.arena.config", "referee.arena.schema",
               "referee.arena.bot_entries", "referee.builds.languages")
#: Modules of one command or option only (ladders, clusters), imported by no other command.
ELSEWHERE = ("referee.ladder.store", "referee.builds.shipping", "referee.cluster.executor", "numpy",
             "referee.live.server", "http.server")


def loaded_after(code: str) -> set[str]:
    """The modules in ``sys.modules`` after running ``code`` in a fresh interpreter."""
    out = subprocess.run([sys.executable, "-c", f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"],
                         check=True, capture_output=True, text=True).stdout
    return set(json.loads(out.splitlines()[-1]))


@pytest.mark.slow
@pytest.mark.parametrize("code, absent", [
    # lastcard --version and lastcard --help: the group alone (its commands are imported when named).
    ("import referee.cli.main", FILE_READER + ELSEWHERE + ("referee.arena", "referee.arena.runner")),
    # lastcard match and lastcard arena --help: the command's module, its options, the runner.
    ("import referee.cli.main, referee.cli.match", FILE_READER + ELSEWHERE),
    # ... and not what only a match with --out or an arena with a class uses (issue 51: a one-game match's wait).
    ("import referee.cli.main, referee.cli.match", ("referee.arena.bot_reports", "referee.grading.rule",
                                                    "referee.grading.class_list", "referee.builds.arrivals",
                                                    # nor the builds, the live page or the arena's probe
                                                    "referee.builds.steps", "referee.live.state",
                                                    "referee.run.side_by_side")),
    ("import referee.cli.main, referee.cli.arena", FILE_READER + ELSEWHERE),
    ("import referee.cli.main, referee.cli.replay", FILE_READER + ELSEWHERE + ("referee.arena.runner",)),
])
def test_a_command_does_not_import_what_it_does_not_use(code: str, absent: tuple[str, ...]) -> None:
    loaded = loaded_after(code)
    assert not loaded & set(absent), f"{code}: imported {sorted(loaded & set(absent))}"


@pytest.mark.slow
def test_an_arena_file_brings_its_reader_when_loaded() -> None:
    """The reader is deferred, not gone: loading an arena file (``lastcard arena FILE``) imports it."""
    loaded = loaded_after("import referee.cli.arena\nfrom referee.cli.common import load_arena_file\n"
                          "load_arena_file('arenas/sample.yaml')")
    assert {"jsonschema", "yaml", "referee.arena.config"} <= loaded
    assert not loaded & set(ELSEWHERE)


def test_the_arena_package_names_resolve_when_asked_for() -> None:
    import referee.arena as arena
    from referee.arena import config, runner

    for name in arena.__all__:
        assert getattr(arena, name) is getattr(config if hasattr(config, name) else runner, name)
    assert set(arena.__all__) <= set(dir(arena))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        arena.nothing  # noqa: B018
    from referee.store import run_store as store  # a submodule is still imported by name

    assert store.__name__ == "referee.store.run_store"


def _raising(exc: Exception) -> click.Group:
    @click.group(cls=LastcardGroup)
    def cli() -> None:
        pass

    @cli.command("go")
    def go() -> None:
        raise exc

    return cli


def test_the_boundary_maps_each_domain_error_without_importing_them_first() -> None:
    """The errors are looked up among the loaded modules when one reaches the boundary: each still gets its
    exit status and message (2: bad input; 1: the run could not do what was asked)."""
    from referee.engine.rules import RulesetError
    from referee.inputs.problems import ArenaFileError, Problem
    from referee.ladder.store import LadderError
    from referee.replay.verify import ReplayMismatch
    from referee.run.executor import ExecutorError

    cases = [(ArenaFileError("a.yaml", [Problem("seats", "too many")]), 2, "a.yaml: 1 problem"),
             (LadderError("no such ladder"), 2, "no such ladder"), (RulesetError("bad option"), 2, "bad option"),
             (ExecutorError("a worker died"), 1,
              "a worker died\nthe games finished so far are saved; --resume continues"),
             (ReplayMismatch("g0001"), 1, "the replay differs from the record: g0001")]
    for exc, status, message in cases:
        result = CliRunner().invoke(_raising(exc), ["go"])
        assert result.exit_code == status, (exc, result.output)
        assert message in result.output
        assert "Traceback" not in result.output
    other = CliRunner().invoke(_raising(KeyError("not a domain error")), ["go"])
    assert other.exit_code == 1 and isinstance(other.exception, KeyError)  # not turned into a message
