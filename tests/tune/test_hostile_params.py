"""Parameter files a hostile (or unlucky) person hands in: ``lastcard tune BOT --params FILE`` refuses each with exit
status 2 and a message naming --params, the file, the problem and the fix, before any game is played."""

from __future__ import annotations

import codecs

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.tune.params import read_file
from tests.support import hostile_files
from tests.support.hostile_files import assert_refused
from tests.tune.test_cli import BOT, TABLE

HOSTILE = {
    "binary": "a binary file (it starts with",
    "deep-yaml": "line 1 ('positions: " + "[" * 66 + "...'): give 7 fields",  # the line cut short, not echoed
    "deep-json": "give 7 fields, NAME, int|float, START, MIN, MAX, C_END, R_END (OpenBench's format), not 1",
    "30-MB": "the file is larger than 256 KiB, far more than a parameter file needs (a line a parameter); is it the "
             "right file?",
    "alias-bomb": "give 7 fields",
    "gzip-bomb": "gzip-compressed, not text; give the parameter file itself (gunzip prints it)",
    "not-utf8": "not UTF-8 text: byte 0xe9 at column 6 cannot be decoded (the file is in another encoding: Latin-1 "
                "or Windows-1252?); save the file as UTF-8 (line 1)",
    "directory": "is a directory",
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", hostile_files.NAMES)
def test_a_hostile_parameter_file_is_refused_with_exit_2(tmp_path, name):
    path = hostile_files.write(tmp_path, name, "params.txt")
    out = CliRunner().invoke(cli, ["tune", BOT, "--params", str(path), "--out", str(tmp_path / "out"), *TABLE])
    assert_refused(out, HOSTILE[name])
    assert "--params" in out.output and str(path) in out.output
    assert not (tmp_path / "out").exists()  # refused before anything was played or written


def test_a_parameter_file_from_a_windows_editor_reads(tmp_path):
    path = tmp_path / "params.txt"
    path.write_bytes(codecs.BOM_UTF8 + b"x, int, 50, 0, 100, 10, 0.002\r\n# a comment\r\n")
    (param,) = read_file(str(path))
    assert (param.name, param.start, param.max) == ("x", 50, 100)
