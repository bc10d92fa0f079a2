"""Position suites a hostile (or unlucky) person hands in: ``lastcard puzzles FILE BOT`` and ``replay
--save-position FILE`` refuse each with exit status 2 and a message naming the file, the problem and the fix; a
suite's own mistakes are placed at their key and line."""

from __future__ import annotations

import codecs
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.replay.suite import SHIPPED, load_suite
from tests.support import hostile_files
from tests.support.hostile_files import assert_refused
from tests.support.replaydata import small_results_dir

HOSTILE = {
    "binary": "a binary file (it starts with",
    "deep-yaml": "nested more than 64 levels deep (aliases included); a position suite nests a few (line 1)",
    "deep-json": "nested more than 64 levels deep (aliases included); a position suite nests a few (line 1)",
    "30-MB": "the file is larger than 4 MiB, far more than a suite needs (a position is a few hundred bytes); is it "
             "the right file?",
    "alias-bomb": "holds more than 100,000 values once its aliases (*name) are expanded; a position suite holds a few "
                  "hundred (is it a YAML bomb?)",
    "gzip-bomb": "gzip-compressed, not text; give the position suite itself (gunzip prints it)",
    "not-utf8": "not UTF-8 text: byte 0xe9 at column 6 cannot be decoded (the file is in another encoding: Latin-1 "
                "or Windows-1252?); save the file as UTF-8 (line 1)",
    "directory": "a directory, not a position suite; give the file itself",
}


def puzzles(*args: object):
    return CliRunner().invoke(cli, ["puzzles", *map(str, args)])


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", hostile_files.NAMES)
def test_a_hostile_suite_is_refused_with_exit_2(tmp_path, name):
    path = hostile_files.write(tmp_path, name, "suite.yaml")
    out = puzzles(path, "builtin:random")
    assert_refused(out, f"{path}: {HOSTILE[name]}")


def test_saving_a_position_into_a_hostile_suite_is_refused_and_leaves_it_as_it_was(tmp_path):
    results = small_results_dir(tmp_path / "out", faulty=False)
    path = hostile_files.write(tmp_path, "binary", "suite.yaml")
    out = CliRunner().invoke(cli, ["replay", str(results), "g0001", "--seat", "1", "--turn", "0", "--save-position",
                                   str(path), "--accept", "d"])
    assert_refused(out, f"{path}: {HOSTILE['binary']}")
    assert path.read_bytes() == hostile_files.binary()


def test_a_suite_saved_by_a_spreadsheet_or_editor_with_a_byte_order_mark_reads(tmp_path):
    path = tmp_path / "arcade.yaml"
    path.write_bytes(codecs.BOM_UTF8 + Path(SHIPPED, "arcade.yaml").read_bytes())
    shipped = load_suite(os.path.join(SHIPPED, "arcade.yaml")).positions
    assert load_suite(str(path)).positions == shipped and [p.id for p in shipped[:2]] == ["7s-together",
                                                                                           "draw-two-pair-calls"]


@pytest.mark.parametrize("text, said", [
    ("", "is empty: a position suite names its ruleset and lists positions"),
    ("ruleset: compact\nruleset: family\n", "ruleset: given twice (lines 1 and 2); keep one (line 2)"),
    ("format: lastcard-positions\nversion: 1\nruleset: compact\npositions:\n  - id: x\n    seed: ten\n",
     "$.positions[0].seed: 'ten' is not of type 'integer' (line 6)"),
    ("positions: [\n", "not valid YAML: "),
], ids=["empty", "twice", "schema-line", "not-yaml"])
def test_a_suites_own_mistakes_are_placed(tmp_path, text, said):
    path = tmp_path / "suite.yaml"
    path.write_text(text)
    assert_refused(puzzles(path, "builtin:random"), said)
