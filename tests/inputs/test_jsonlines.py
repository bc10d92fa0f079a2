"""JSON lines a person hands in: plain or gzip whatever the name, every line an object, values and depth bounded
before a line is parsed, a long line in a gzip file cut at the cap, a record's half-written last line."""

from __future__ import annotations

import codecs
import gzip
import json
from pathlib import Path

import pytest

from referee.inputs.jsonlines import depth, json_lines, parse_line, raw_lines
from referee.inputs.kinds import MAX_DEPTH, MAX_JSON_VALUES, RECORD, FileKind
from referee.inputs.problems import InputFileError

LINES = [{"t": "game", "game": "g1", "seed": 3}, {"t": "action", "seat": 0, "action": {"type": "draw"}}]
TEXT = b"".join(json.dumps(line).encode() + b"\n" for line in LINES)


def write(tmp_path: Path, data: bytes, name: str = "record.jsonl") -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def refused(raw: bytes) -> str:
    with pytest.raises(InputFileError) as info:
        parse_line(raw, "r.jsonl", 7)
    assert str(info.value).startswith("r.jsonl: ") and str(info.value).endswith("(line 7)")
    return str(info.value)


@pytest.mark.parametrize("name", ["record.jsonl", "record.jsonl.gz", "no-extension"])
@pytest.mark.parametrize("packed", [False, True], ids=["plain", "gzip"])
def test_plain_or_gzip_is_told_by_the_bytes_not_the_name(tmp_path, name, packed):
    path = write(tmp_path, gzip.compress(TEXT) if packed else TEXT, name)
    assert list(json_lines(path, RECORD)) == [(1, LINES[0]), (2, LINES[1])]


def test_blank_lines_are_skipped_and_numbered_past(tmp_path):
    path = write(tmp_path, b"\n" + TEXT.replace(b"\n", b"\n\r\n", 1))
    assert [number for number, _ in json_lines(path, RECORD)] == [2, 4]


def test_a_utf8_byte_order_mark_before_the_first_line_is_dropped(tmp_path):
    assert [n for n, _ in json_lines(write(tmp_path, codecs.BOM_UTF8 + TEXT), RECORD)] == [1, 2]


def test_a_half_written_last_line_is_left_out_of_a_gzip_file(tmp_path):
    path = write(tmp_path, gzip.compress(TEXT + b'{"t": "acti'))
    assert [n for n, _ in json_lines(path, RECORD)] == [1, 2]


def test_a_line_past_the_cap_in_a_gzip_file_is_refused_before_it_is_held(tmp_path):
    small = FileKind("test record", 100_000, "a test record needs (a few lines)")
    path = write(tmp_path, gzip.compress(TEXT + b'{"t": "' + b"x" * 300_000))
    with pytest.raises(InputFileError, match=r"a line longer than 97 KiB once inflated, far more than a test record "
                                             r"needs \(a few lines\); is it the right file\? \(line 3\)"):
        list(raw_lines(path, small))


def test_a_plain_file_past_the_cap_is_refused(tmp_path):
    small = FileKind("test record", 100, "a test record needs")
    with pytest.raises(InputFileError, match="the file is larger than 0 KiB, far more than a test record needs"):
        list(raw_lines(write(tmp_path, TEXT * 10), small))


@pytest.mark.parametrize("raw, said", [
    (b"[1, 2]", "a JSON list, not an object as every line of a record is"),
    (b"# a comment", "not JSON (unexpected character"),
    (b'{"t": "caf\xe9"}', "not JSON (not UTF-8 either: byte 0xe9 at column 11)"),
    (b'{"t": ' + b"[" * 2000 + b"]" * 2000 + b"}", f"nested more than {MAX_DEPTH} levels deep"),
    (b'{"t": ' + b"[" * 70 + b"]" * 70 + b"}", f"nested more than {MAX_DEPTH} levels deep"),
    (b"[" + b"0," * MAX_JSON_VALUES + b"0]", f"a line of more than {MAX_JSON_VALUES:,} values"),
], ids=["a-list", "not-json", "not-utf8", "past-the-parser's-depth", "past-the-cap", "too-many-values"])
def test_a_line_that_is_no_record_line_says_what_it_is(raw, said):
    assert said in refused(raw)


def test_a_line_at_the_depth_cap_is_read():
    raw = b'{"t": ' + b"[" * (MAX_DEPTH - 1) + b"]" * (MAX_DEPTH - 1) + b"}"
    assert depth(parse_line(raw, "r.jsonl", 1)) == MAX_DEPTH


def test_depth_is_counted_through_containers_and_stops_past_the_cap():
    assert depth({"a": [1, {"b": []}], "c": "[[[[["}) == 4
    assert depth(1) == 1
    deep: list[object] = []
    for _ in range(10_000):
        deep = [deep]
    assert depth(deep) == MAX_DEPTH + 1


def test_a_binary_file_is_named_binary_not_bad_json(tmp_path):
    path = write(tmp_path, b"\x00\x01\x02" * 100)
    with pytest.raises(InputFileError, match=r"a binary file \(it starts with 00 01 02 00 01 02 00 01\), not a record "
                                             "file; is it the right file"):
        list(json_lines(path, RECORD))
