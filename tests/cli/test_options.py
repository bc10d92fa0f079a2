"""The shared command-line options: ``--seed`` and the ``--out`` directory check, for every command that has them."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.store.outdir import filesystem_of, out_dir_problem

NEGATIVE_SEED = [
    pytest.param(["match", "builtin:random", "builtin:easy", "--games", "1"], id="match"),
    pytest.param(["check", "builtin:random", "--games", "0"], id="check"),
]


@pytest.mark.parametrize("command", NEGATIVE_SEED)
@pytest.mark.parametrize("seed, message", [("-5", "-5 is negative; a seed is a whole number, 0 or more (try 5)"),
                                           ("x1", "'x1' is not a whole number")])
def test_a_bad_seed_is_a_usage_error_naming_the_value(command, seed, message):
    res = CliRunner().invoke(cli, command + ["--seed", seed])
    assert res.exit_code == 2, res.output
    assert "Invalid value for '--seed'" in res.output and message in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)


@pytest.mark.slow
def test_a_large_seed_is_a_seed():
    res = CliRunner().invoke(cli, ["match", "builtin:random", "builtin:easy", "--games", "1", "--seed", str(2**70)])
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize("where, message", [
    pytest.param("file", "is a file, not a directory", id="a-file"),
    pytest.param("file/sub", "cannot be created: '{tmp}/file' is a file, not a directory", id="under-a-file"),
    pytest.param("/proc/lastcard-out", "is under /proc, a proc filesystem the kernel makes up", id="under-proc"),
])
def test_the_arena_refuses_an_out_directory_it_cannot_use_before_anything_runs(tmp_path, where, message):
    if where.startswith("/proc") and filesystem_of("/proc")[1] != "proc":
        pytest.skip("/proc is not a proc filesystem here")
    (tmp_path / "file").write_text("")
    arena = tmp_path / "a.yaml"
    arena.write_text("bots: [builtin:random, builtin:easy]\nseats: 2\n")
    out = where if where.startswith("/") else str(tmp_path / where)
    res = CliRunner().invoke(cli, ["arena", str(arena), "--out", out])
    assert res.exit_code == 2, res.output
    assert "Invalid value for '--out'" in res.output and message.format(tmp=tmp_path) in res.output
    assert not (tmp_path / "results").exists()


def test_a_usable_out_directory_passes(tmp_path):
    assert out_dir_problem(str(tmp_path)) is None
    assert out_dir_problem(str(tmp_path / "new" / "deeper")) is None  # created when the run starts


def test_a_directory_without_write_access_is_refused(tmp_path, monkeypatch):
    # As root every directory is writable, so stand in for a read-only one by answering access() for it.
    locked = str(tmp_path / "locked")
    os.mkdir(locked)
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: False if path == locked else real_access(path, mode))
    assert f"{locked!r} is not writable" in out_dir_problem(os.path.join(locked, "out"))


def test_the_arena_refuses_a_default_out_directory_that_is_a_file(tmp_path):
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "a").write_text("")  # where results/NAME would go
    arena = tmp_path / "a.yaml"
    arena.write_text("bots: [builtin:random, builtin:easy]\nseats: 2\n")
    res = CliRunner().invoke(cli, ["arena", str(arena)])
    assert res.exit_code == 2, res.output
    assert f"out: '{tmp_path}/results/a' is a file, not a directory" in res.output
    assert "Traceback" not in res.output


def test_a_nul_in_a_path_is_a_problem_not_a_crash():
    assert "NUL character" in out_dir_problem("results/\0x")


def test_match_refuses_an_out_directory_under_proc():
    res = CliRunner().invoke(cli, ["match", "--out", "/proc/lastcard-results", "builtin:random", "builtin:easy"])
    assert res.exit_code == 2 and "under /proc" in res.output and "Traceback" not in res.output
