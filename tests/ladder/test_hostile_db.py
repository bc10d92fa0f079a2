"""A ladder's --db that is no ladder file: ``lastcard ladder run|standings|history --db FILE`` refuses a directory
or a file that is no SQLite database with exit status 2 and a message naming the file, what it is and the fix,
leaving the file as it was (no lock, no journal beside it)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from tests.support import hostile_files
from tests.support.hostile_files import assert_refused

ARENA = "name: hostile\nseats: 2\nbots: [builtin:random, builtin:easy]\n"
NOT_SQLITE = ", so not a ladder file; give the ladder's file, or a new file name to start a ladder"


def commands(tmp_path, db: str) -> list[list[str]]:
    arena = tmp_path / "arena.yaml"
    arena.write_text(ARENA)
    return [["ladder", "run", str(arena), "--db", db, "--out", str(tmp_path / "report")],
            ["ladder", "standings", "--db", db], ["ladder", "history", "--db", db]]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", hostile_files.NAMES)
def test_a_hostile_ladder_file_is_refused_with_exit_2_and_left_alone(tmp_path, name):
    path = hostile_files.write(tmp_path, name, "ladder.sqlite")
    before = sorted(p.name for p in tmp_path.iterdir())
    for command in commands(tmp_path, str(path)):
        out = CliRunner().invoke(cli, command)
        if name == hostile_files.DIRECTORY:
            assert_refused(out, "is a directory")
        else:
            assert_refused(out, f"{path}: not a SQLite database (")
            assert NOT_SQLITE in out.output
    if name != hostile_files.DIRECTORY:
        assert path.read_bytes() == hostile_files.FILES[name]()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*before, "arena.yaml"])


def test_what_the_file_is_instead_is_said(tmp_path):
    path = hostile_files.write(tmp_path, "gzip-bomb", "ladder.sqlite")
    assert_refused(CliRunner().invoke(cli, commands(tmp_path, str(path))[1]),
                   f"{path}: not a SQLite database (gzip-compressed){NOT_SQLITE}")
    path = hostile_files.write(tmp_path, "alias-bomb", "ladder.sqlite")
    assert_refused(CliRunner().invoke(cli, commands(tmp_path, str(path))[1]),
                   f"{path}: not a SQLite database (text: 'a: &a [lol, lol,'){NOT_SQLITE}")
