"""Every hostile file of ``tests/support/hostile_files.py`` handed to ``lastcard arena`` and ``lastcard validate``:
refused with exit status 2 and a message naming the file, the problem and the fix, nothing run or written (the
arena reader's own cases, a YAML bomb's variants and values too long, are in ``test_config.py``)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from tests.support import hostile_files
from tests.support.hostile_files import assert_refused

HOSTILE = {
    "binary": "arena file: a binary file (it starts with",
    "deep-yaml": "arena file: nested more than 64 levels deep (aliases included); an arena file nests a few (line 1)",
    "deep-json": "arena file: nested more than 64 levels deep (aliases included); an arena file nests a few (line 1)",
    "30-MB": "arena file: the file is larger than 1024 KiB, far more than an arena needs (a few kilobytes); is it the "
             "right file?",
    "alias-bomb": "arena file: holds more than 100,000 values once its aliases (*name) are expanded; an arena file "
                  "holds a few hundred (is it a YAML bomb?)",
    "gzip-bomb": "arena file: gzip-compressed, not text; give the arena file itself (gunzip prints it)",
    "not-utf8": "arena file: not UTF-8 text: byte 0xe9 at column 6 cannot be decoded (the file is in another "
                "encoding: Latin-1 or Windows-1252?); save the file as UTF-8 (line 1)",
    "directory": "is a directory",
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", hostile_files.NAMES)
def test_a_hostile_arena_file_is_refused_with_exit_2(tmp_path, name):
    path = hostile_files.write(tmp_path, name, "arena.yaml")
    for command in (["validate", str(path)], ["arena", str(path), "--out", str(tmp_path / "out")]):
        assert_refused(CliRunner().invoke(cli, command), HOSTILE[name])
    assert not (tmp_path / "out").exists()

