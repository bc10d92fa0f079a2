"""The run's one record file: appending, finding the last record of a game, and keeping only some games."""

from __future__ import annotations

import gzip
import json
import os
import zlib

import pytest

from referee.inputs.problems import InputFileError
from referee.replay.record import read_record as read_rebuilt
from referee.store.jsonl import encode_line
from referee.store.record_file import (
    INDEX_FILE,
    RECORDS_FILE,
    append_record,
    append_records,
    encode_record,
    has_records,
    keep_only,
    read_record,
    recorded_ids,
)


def record(game: str, n: int) -> list[dict]:
    return [{"t": "game", "game": game}, *({"t": "line", "k": k, "text": "x" * k} for k in range(n))]


def index_lines(out) -> list[str]:
    return (out / INDEX_FILE).read_text().splitlines()


def test_keep_only_keeps_the_last_record_of_each_kept_game_in_stored_order(tmp_path):
    append_record(str(tmp_path), "g1", record("g1", 3))
    append_record(str(tmp_path), "g2", record("g2", 5))
    append_record(str(tmp_path), "g3", record("g3", 2))
    append_record(str(tmp_path), "g1", record("g1-again", 4))  # played again after a crash: the last wins
    keep_only(str(tmp_path), {"g1", "g3"})
    assert [line.split()[0] for line in index_lines(tmp_path)] == ["g1", "g3"]
    assert read_record(str(tmp_path), "g1") == record("g1-again", 4)
    assert read_record(str(tmp_path), "g3") == record("g3", 2)
    assert read_record(str(tmp_path), "g2") is None and recorded_ids(str(tmp_path)) == {"g1", "g3"}
    # the file holds the two members and nothing else: offsets and lengths tile it
    spans = [tuple(map(int, line.split()[1:])) for line in index_lines(tmp_path)]
    assert spans[0][0] == 0 and spans[1][0] == spans[0][1]
    assert os.path.getsize(tmp_path / RECORDS_FILE) == spans[1][0] + spans[1][1]
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".new")]


def test_keep_only_leaves_a_file_that_needs_nothing_dropped_untouched(tmp_path):
    for game in ("a", "b"):
        append_record(str(tmp_path), game, record(game, 2))
    before = (tmp_path / RECORDS_FILE).stat().st_mtime_ns, (tmp_path / RECORDS_FILE).read_bytes()
    keep_only(str(tmp_path), {"a", "b", "c"})
    assert ((tmp_path / RECORDS_FILE).stat().st_mtime_ns, (tmp_path / RECORDS_FILE).read_bytes()) == before


def test_keep_only_drops_a_member_cut_short_and_removes_an_empty_file(tmp_path):
    append_record(str(tmp_path), "a", record("a", 40))
    append_record(str(tmp_path), "b", record("b", 40))
    size = os.path.getsize(tmp_path / RECORDS_FILE)
    with open(tmp_path / RECORDS_FILE, "r+b") as fh:  # a killed run: b's member cut short
        fh.truncate(size - 10)
    keep_only(str(tmp_path), {"b"})
    assert not has_records(str(tmp_path)) and not (tmp_path / INDEX_FILE).exists()
    assert os.listdir(tmp_path) == []


def test_keep_only_keeps_memory_to_the_index(tmp_path):
    """The records are copied one at a time: the peak does not grow with what is kept."""
    import tracemalloc

    big = record("g", 2000)  # about 2 MB of text a game before compression
    for k in range(12):
        append_record(str(tmp_path), f"g{k}", big)
    tracemalloc.start()
    keep_only(str(tmp_path), {f"g{k}" for k in range(1, 12)})
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert read_record(str(tmp_path), "g11") == big
    assert peak < 1_000_000, peak  # measured 0.2 MB; reading the kept records back, as before, took 55 MB


# ---------------------------------------------------------------- batches: several games in one member

def encoded(game: str, n: int) -> bytes:
    return encode_record(record(game, n))


def test_a_batch_is_one_member_whose_games_each_read_back_alone(tmp_path):
    append_records(str(tmp_path), [(g, encoded(g, n)) for g, n in (("a", 3), ("b", 0), ("c", 7))])
    lines = [line.split() for line in index_lines(tmp_path)]
    size = os.path.getsize(tmp_path / RECORDS_FILE)
    assert [parts[0] for parts in lines] == ["a", "b", "c"]
    assert {tuple(parts[1:3]) for parts in lines} == {("0", str(size))}  # one member, the whole file
    assert [int(parts[4]) for parts in lines] == [len(encoded(g, n)) for g, n in (("a", 3), ("b", 0), ("c", 7))]
    for game, n in (("a", 3), ("b", 0), ("c", 7)):
        assert read_record(str(tmp_path), game) == record(game, n)
    # still one gzip stream of JSON lines: zcat prints every record, in order
    assert gzip.decompress((tmp_path / RECORDS_FILE).read_bytes()) == b"".join(
        encoded(g, n) for g, n in (("a", 3), ("b", 0), ("c", 7)))
    before = (tmp_path / RECORDS_FILE).stat().st_mtime_ns, (tmp_path / INDEX_FILE).read_text()
    keep_only(str(tmp_path), {"a", "b", "c"})  # nothing to drop: left as it is
    assert ((tmp_path / RECORDS_FILE).stat().st_mtime_ns, (tmp_path / INDEX_FILE).read_text()) == before


def test_a_batch_of_one_is_indexed_as_a_member_of_its_own(tmp_path):
    append_records(str(tmp_path), [("a", encoded("a", 2))])
    assert len(index_lines(tmp_path)[0].split()) == 3  # what readers from before batches read
    assert read_record(str(tmp_path), "a") == record("a", 2)


def test_the_encoding_is_the_jsonl_encoding_byte_for_byte():
    """Keys that are not strings (seats' secrets) take orjson's other path; the bytes are those of encode_line."""
    lines = [{"t": "game", "game": "g"},
             {"t": "events", "events": [{"kind": "deal", "secret": {0: {"hand": ["red:1"]}}}]},
             b'{"t":"raw"}\n', {"t": "result", "x": 1.5, "s": "\u00e9"}]
    assert encode_record(lines) == b"".join(encode_line(line) for line in lines)


def test_a_file_written_before_batches_still_reads(tmp_path):
    """One gzip member a game at level 6, three fields an index line: the format of earlier runs."""
    at = 0
    with open(tmp_path / RECORDS_FILE, "wb") as fh, open(tmp_path / INDEX_FILE, "w") as idx:
        for game, n in (("old1", 4), ("old2", 9)):
            packer = zlib.compressobj(6, zlib.DEFLATED, 31)
            member = packer.compress(encoded(game, n)) + packer.flush()
            fh.write(member)
            idx.write(f"{game} {at} {len(member)}\n")
            at += len(member)
    append_records(str(tmp_path), [("new1", encoded("new1", 2)), ("new2", encoded("new2", 1))])
    assert read_record(str(tmp_path), "old2") == record("old2", 9)
    assert read_record(str(tmp_path), "new2") == record("new2", 1)
    assert recorded_ids(str(tmp_path)) == {"old1", "old2", "new1", "new2"}
    keep_only(str(tmp_path), {"old2", "new1"})
    assert (read_record(str(tmp_path), "old2") == record("old2", 9)
            and read_record(str(tmp_path), "new1") == record("new1", 2))
    assert recorded_ids(str(tmp_path)) == {"old2", "new1"}


def test_keep_only_keeps_some_games_of_a_batch_in_a_member_of_their_own(tmp_path):
    games = [(f"g{k}", k) for k in range(6)]
    append_records(str(tmp_path), [(g, encoded(g, n)) for g, n in games])
    append_record(str(tmp_path), "g2", record("g2-again", 5))  # played again: the last entry wins
    keep_only(str(tmp_path), {"g1", "g2", "g4", "g5"})
    lines = [line.split() for line in index_lines(tmp_path)]
    assert [parts[0] for parts in lines] == ["g1", "g2", "g4", "g5"]  # first stored order (g2's last record)
    assert [len(parts) for parts in lines] == [3, 3, 5, 5]  # g1 and g2 alone, g4 and g5 repacked together
    assert lines[2][1:3] == lines[3][1:3] and lines[2][3] == "0" and lines[3][3] == lines[2][4]
    for game, n in (("g1", 1), ("g4", 4), ("g5", 5)):
        assert read_record(str(tmp_path), game) == record(game, n)
    assert read_record(str(tmp_path), "g2") == record("g2-again", 5)
    assert recorded_ids(str(tmp_path)) == {"g1", "g2", "g4", "g5"}
    assert gzip.decompress((tmp_path / RECORDS_FILE).read_bytes()) == encoded("g1", 1) + \
        encode_record(record("g2-again", 5)) + encoded("g4", 4) + encoded("g5", 5)
    keep_only(str(tmp_path), {"g4"})  # a repacked member of two, down to one: three fields again
    assert [len(line.split()) for line in index_lines(tmp_path)] == [3]
    assert read_record(str(tmp_path), "g4") == record("g4", 4)


def test_a_batch_cut_short_by_a_killed_run_reads_as_not_recorded(tmp_path):
    append_records(str(tmp_path), [("a", encoded("a", 30)), ("b", encoded("b", 30))])
    append_records(str(tmp_path), [("c", encoded("c", 400)), ("d", encoded("d", 400))])
    size = os.path.getsize(tmp_path / RECORDS_FILE)
    with open(tmp_path / RECORDS_FILE, "r+b") as fh:
        fh.truncate(size - 10)
    assert read_record(str(tmp_path), "a") == record("a", 30)
    assert read_record(str(tmp_path), "d") is None
    keep_only(str(tmp_path), {"b", "d"})
    assert recorded_ids(str(tmp_path)) == {"b"} and read_record(str(tmp_path), "b") == record("b", 30)


def test_a_damaged_member_reads_as_not_recorded_and_a_bomb_is_refused(tmp_path):
    append_record(str(tmp_path), "a", record("a", 30))
    append_record(str(tmp_path), "b", record("b", 30))
    data = bytearray((tmp_path / RECORDS_FILE).read_bytes())
    data[12:20] = b"\xff" * 8  # inside a's deflate stream
    (tmp_path / RECORDS_FILE).write_bytes(bytes(data))
    assert read_record(str(tmp_path), "a") is None
    assert read_record(str(tmp_path), "b") == record("b", 30)
    bomb = gzip.compress(b'{"t": "x"}\n' * 10_000_000, 9)  # 110 MB in about 110 KB
    with open(tmp_path / RECORDS_FILE, "ab") as fh:
        offset = fh.tell()
        fh.write(bomb)
    with open(tmp_path / INDEX_FILE, "a") as fh:
        fh.write(f"c {offset} {len(bomb)}\n")
    with pytest.raises(InputFileError, match="gzip data that inflates to more than 200 times its size"):
        read_record(str(tmp_path), "c")


def test_keep_only_repacks_a_batch_a_slice_at_a_time(tmp_path):
    """Dropping one game of a large batch does not hold the batch inflated."""
    import tracemalloc

    big = encode_record(record("g", 2000))  # about 2 MB a game before compression
    append_records(str(tmp_path), [(f"g{k}", big) for k in range(6)])
    tracemalloc.start()
    keep_only(str(tmp_path), {f"g{k}" for k in range(1, 6)})
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert read_record(str(tmp_path), "g5") == record("g", 2000)
    assert peak < 2_000_000, peak  # the batch inflated whole would be 12 MB


# ---------------------------------------------------------------- built-in games: index entries, rebuilt when read

@pytest.mark.parametrize("house, options", [("family", {"target": "round"}), ("compact", {}),
                                            ("arcade", {"stacking": True})])
def test_a_built_in_game_s_rebuilt_record_is_what_the_table_writes(tmp_path, house, options):
    """The record read back for an index entry is the table's own record, line for line, under a policy that is
    not the default (the index keeps it: games.jsonl does not)."""
    from referee.bots.pool import BotPool
    from referee.bots.spec import BotSpec
    from referee.engine.rules import get_ruleset
    from referee.run.jobs import GameJob, run_job
    from referee.run.seeds import game_seed
    from referee.store.results import GameLine
    from referee.table.policy import FaultPolicy
    from referee.table.table import Recorder, Table, seat_for


    rules, policy, pool = get_ruleset(house, options), FaultPolicy.parse("strikes:2"), BotPool()
    specs = tuple(BotSpec(name, f"builtin:{name}") for name in ("easy", "medium", "random"))
    # each id a prefix of the next: games.jsonl's lines are found by their id's text, then checked
    jobs = [GameJob("g1" + "0" * k, game_seed(3, k), rules, specs, policy, record=True) for k in range(6)]
    tables = {}
    with open(tmp_path / "games.jsonl", "wb") as fh:
        for job in jobs:
            result, lines = run_job(job, pool)
            assert lines is None and job.rebuilds_record  # not recorded while played
            fh.write(GameLine(result).encode())
            recorder = Recorder()
            Table(rules, [seat_for(s, pool) for s in specs], job.seed, job.game_id, policy, recorder).play()
            tables[job.game_id] = [json.loads(encode_record([line])) for line in recorder.lines]
    append_records(str(tmp_path), [], [(job.game_id, policy.to_json()) for job in jobs])
    assert index_lines(tmp_path)[0] == "g1 rebuild:strikes:2"
    for job in jobs:
        # the record file says "rebuild with this policy"; game_record.read_record rebuilds it
        assert read_record(str(tmp_path), job.game_id) == policy.to_json()
        assert read_rebuilt(str(tmp_path), job.game_id) == tables[job.game_id]
    assert read_rebuilt(str(tmp_path), "g2") is None


def test_keep_only_keeps_the_index_entries_of_rebuilt_records(tmp_path):
    append_records(str(tmp_path), [("p1", encoded("p1", 2))], [("b1", "forfeit"), ("b2", "strikes:3")])
    append_record(str(tmp_path), "p2", record("p2", 3))
    keep_only(str(tmp_path), {"b2", "p2"})
    assert index_lines(tmp_path)[0] == "b2 rebuild:strikes:3" and recorded_ids(str(tmp_path)) == {"b2", "p2"}
    assert read_record(str(tmp_path), "p2") == record("p2", 3)
    keep_only(str(tmp_path), {"b2"})  # no member left: an empty record file, the index entry kept
    assert index_lines(tmp_path) == ["b2 rebuild:strikes:3"] and has_records(str(tmp_path))
    assert os.path.getsize(tmp_path / RECORDS_FILE) == 0


@pytest.mark.slow
def test_a_record_rebuilt_from_games_jsonl_names_the_runs_policy(tmp_path):
    """A game kept without its record (no --records, no fault) is rebuilt from games.jsonl, which holds no
    policy: the rebuilt head takes the run's (results.json), not ``forfeit``."""
    from click.testing import CliRunner

    from referee.cli.main import cli
    from referee.replay.record import record_lines

    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["match", "builtin:easy", "builtin:hard", "-n", "2", "--policy", "strikes:2",
                                   "--out", str(out), "--no-report"])
    assert res.exit_code == 0, res.output
    head = next(record_lines(str(out), "g0001"))
    assert head["t"] == "game" and head["policy"] == "strikes:2"
