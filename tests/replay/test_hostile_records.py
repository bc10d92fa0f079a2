"""``lastcard replay FILE GAME`` on record files: the run's ``records.jsonl.gz`` (read through its index, or read
through when copied alone), the plain ``records/GAME.jsonl`` of older versions, and every hostile file refused with
exit status 2 and a message naming the file, the problem and the fix."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.store.record_file import INDEX_FILE, RECORDS_FILE, append_record, append_records, encode_record
from tests.support import hostile_files
from tests.support.hostile_files import assert_refused
from tests.support.replaydata import small_results_dir


@pytest.fixture(scope="module")
def legacy(tmp_path_factory) -> Path:
    """A results folder as older versions kept it: records/GAME.jsonl for g0001 to g0007."""
    return small_results_dir(tmp_path_factory.mktemp("legacy") / "out")


@pytest.fixture(scope="module")
def results(legacy, tmp_path_factory) -> Path:
    """The same games as a run keeps them today: records.jsonl.gz and its index (g0001 in a member of its own,
    g0002 and g0003 in one batch's member, g0007 with its fault alone, g0004 a built-in game rebuilt when read)."""
    out = tmp_path_factory.mktemp("today") / "out"
    shutil.copytree(legacy, out)
    shutil.rmtree(out / "records")

    def record(game: str) -> bytes:
        return (legacy / "records" / f"{game}.jsonl").read_bytes()

    append_record(str(out), "g0001", [record("g0001")])
    append_records(str(out), [("g0002", record("g0002")), ("g0003", record("g0003"))], [("g0004", "forfeit")])
    append_records(str(out), [("g0007", record("g0007"))])
    return out


def run(*args: object):
    return CliRunner().invoke(cli, ["replay", *map(str, args)])


def shown(result) -> list[str]:
    """The replay's lines less the one that says where the game came from."""
    assert result.exit_code == 0, result.output
    return [line for line in result.output.splitlines() if not line.startswith("from ")]


@pytest.mark.slow
@pytest.mark.parametrize("game", ["g0001", "g0002", "g0003", "g0007"])
def test_the_record_file_a_run_writes_replays_each_of_its_games(results, game):
    out = run(results / RECORDS_FILE, game)
    assert f"from {results / RECORDS_FILE}" in out.output
    assert shown(out) == shown(run(results, game))
    verified = run(results / RECORDS_FILE, game, "--verify")
    assert verified.exit_code == 0 and "the replay matches the stored result" in verified.output
    assert "every recorded event" in verified.output


@pytest.mark.slow
def test_a_seats_raw_lines_come_from_the_record_file(results, legacy):
    out = run(results / RECORDS_FILE, "g0007", "--seat", "0", "--raw")
    assert out.exit_code == 0, out.output
    assert out.output == run(legacy, "g0007", "--seat", "0", "--raw").output


@pytest.mark.slow
def test_a_built_in_game_which_keeps_no_record_is_read_from_the_folder(results):
    out = run(results / RECORDS_FILE, "g0004")
    assert f"from {results / 'games.jsonl'} line 4" in out.output
    assert shown(out) == shown(run(results, "g0004"))


@pytest.mark.slow
def test_the_record_file_copied_alone_is_read_through(results, tmp_path):
    alone = tmp_path / "copy.jsonl.gz"
    shutil.copy(results / RECORDS_FILE, alone)
    assert shown(run(alone, "g0003")) == shown(run(results, "g0003"))
    missing = run(alone, "g0004")
    assert missing.exit_code == 2 and f"{alone} holds no record of game g0004" in missing.output


@pytest.mark.slow
def test_a_record_file_of_several_games_and_no_game_names_them(results):
    out = run(results / RECORDS_FILE)
    assert out.exit_code == 2
    assert (f"{results / RECORDS_FILE} holds the records of 4 games (g0001, g0002, g0003, g0007): name one, e.g. "
            f"`lastcard replay {results / RECORDS_FILE} g0001`") in out.output


@pytest.mark.slow
@pytest.mark.parametrize("game", [None, "g0003"])
def test_the_plain_record_of_older_versions_still_replays(legacy, game):
    path = legacy / "records" / "g0003.jsonl"
    out = run(path, *([game] if game else []))
    assert f"from {path}" in out.output and shown(out) == shown(run(legacy, "g0003"))
    assert run(path, *([game] if game else []), "--verify").exit_code == 0


@pytest.mark.slow
def test_a_plain_record_asked_for_another_game_says_so(legacy):
    out = run(legacy / "records" / "g0003.jsonl", "g0002")
    assert out.exit_code == 2 and f"{legacy / 'records' / 'g0003.jsonl'} holds no record of game g0002" in out.output


def test_the_help_names_both_record_files():
    out = CliRunner().invoke(cli, ["replay", "--help"])
    assert "records.jsonl.gz" in out.output and "records/g000012.jsonl of" in out.output


@pytest.mark.slow
def test_games_jsonl_given_as_a_record_says_how_to_replay_a_folder(results):
    assert_refused(run(results / "games.jsonl", "g0001"),
                   f"{results / 'games.jsonl'}: not a game's record: a record starts with its game line "
                   '({"t": "game", ...}); a results folder\'s games are replayed as `lastcard replay FOLDER GAME` '
                   "(line 1)")


# ----------------------------------------------------------------------------------- hostile files
HOSTILE = {
    "binary": "not a record file; is it the right file?",
    "deep-yaml": "not JSON (unexpected character",
    "deep-json": "nested more than 64 levels deep, far deeper than any record (a few levels); is it a record? (line 1)",
    "30-MB": "not JSON (unexpected character",
    "alias-bomb": "not JSON (unexpected character",
    "gzip-bomb": "gzip data that inflates to more than 200 times its size",
    "not-utf8": "not JSON (not UTF-8 either: byte 0xe9 at column 6)",
    "directory": "has no games.jsonl: is it the output directory of an arena or `lastcard match --out`?",
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", hostile_files.NAMES)
def test_a_hostile_record_file_is_refused_with_exit_2(tmp_path, name):
    path = hostile_files.write(tmp_path, name, RECORDS_FILE)
    out = run(path, "g0001")
    assert_refused(out, HOSTILE[name])
    assert str(path) in out.output


@pytest.mark.parametrize("content, said", [
    (hostile_files.deep_json(), "nested more than 64 levels deep"),
    (b"\x89PNG\r\n\x1a\n" + bytes(range(256)), "not JSON (not UTF-8 either"),
    (b'{"t": "game", "game": "g0001"}\n', "not a game's record lastcard wrote: its game or action lines lack or garble "
                                          "'seed'; give the record file a run wrote"),
    (b'{"t": "game", "game": "g0001"}\n{"t": "action", "action": 7}\n', "its game or action lines lack or garble"),
], ids=["deep-json", "binary", "no-seed", "garbled-action"])
def test_hostile_lines_inside_gzip_are_refused_as_the_plain_ones(tmp_path, content, said):
    path = tmp_path / "r.jsonl.gz"
    path.write_bytes(gzip.compress(content))
    assert_refused(run(path, "g0001"), said)


def test_a_bomb_behind_an_index_is_refused(tmp_path):
    (tmp_path / RECORDS_FILE).write_bytes(hostile_files.gzip_bomb(64))
    (tmp_path / INDEX_FILE).write_text(f"g0001 0 {len(hostile_files.gzip_bomb(64))}\n")
    assert_refused(run(tmp_path / RECORDS_FILE, "g0001"), "gzip data that inflates to more than 200 times its size")


def test_an_index_no_run_wrote_finds_no_game(tmp_path):
    (tmp_path / RECORDS_FILE).write_bytes(gzip.compress(encode_record([{"t": "game", "game": "g0001"}])))
    (tmp_path / INDEX_FILE).write_bytes(b"g0001 -5 \xff\xfe\ng0001 x y\n" + bytes(range(256)))
    assert_refused(run(tmp_path / RECORDS_FILE, "g0001"), "holds no record of game g0001")
