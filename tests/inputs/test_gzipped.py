"""Gzip data read with the ratio cap: members one after another, a member cut short, damaged data, a bomb refused
after a few megabytes of its gigabyte, a slice of a member inflated no further than asked."""

from __future__ import annotations

import gzip
import zlib

import pytest

from referee.inputs.gzipped import Inflater, inflate, stream
from referee.inputs.kinds import GZIP_FLOOR, GZIP_RATIO, RECORD, FileKind
from referee.inputs.problems import InputFileError
from tests.support import hostile_files

TEXT = b"".join(b'{"t": "out", "seat": %d, "line": "turn %d"}\n' % (i % 4, i) for i in range(20_000))


def test_members_one_after_another_inflate_to_their_text_in_order():
    data = gzip.compress(TEXT[:1000]) + gzip.compress(TEXT[1000:])
    assert inflate(data, "r.gz", RECORD) == TEXT
    assert b"".join(stream([data[:7], data[7:50], data[50:]], "r.gz")) == TEXT  # slices cut anywhere


def test_a_slice_of_a_member_is_inflated_up_to_what_is_asked():
    data = gzip.compress(TEXT)
    assert inflate(data, "r.gz", RECORD, upto=100) == TEXT[:100]


def test_a_member_cut_short_is_none_not_a_shorter_text():
    data = gzip.compress(TEXT)
    assert inflate(data[:len(data) // 2], "r.gz", RECORD) is None
    assert inflate(data[:len(data) // 2], "r.gz", RECORD, upto=len(TEXT)) is None


def test_damaged_or_foreign_data_is_refused_naming_the_file():
    with pytest.raises(InputFileError, match=r"^r.gz: not gzip data, or gzip data that is damaged \(.*\), after 14 "
                                             "bytes; give the record file a run wrote$"):
        inflate(b"plain text, no", "r.gz", RECORD)
    good = gzip.compress(TEXT[:100])
    with pytest.raises(InputFileError, match="damaged"):  # a good member, then bytes that are none
        inflate(good + b"trailing rubbish", "r.gz", RECORD)


def test_a_gzip_bomb_is_refused_after_a_few_megabytes_not_its_gigabyte():
    bomb = hostile_files.gzip_bomb()
    inflater = Inflater("records.jsonl.gz")
    with pytest.raises(InputFileError) as info:
        for piece in (bomb[i:i + 65536] for i in range(0, len(bomb), 65536)):
            for _ in inflater.feed(piece):
                pass
    assert inflater.given <= GZIP_FLOOR + GZIP_RATIO * inflater.taken + (1 << 16)  # a slice past the cap at most
    assert inflater.given < 64 << 20 and inflater.taken < len(bomb)
    assert "records.jsonl.gz: gzip data that inflates to more than 200 times its size" in str(info.value)
    assert "is it a gzip bomb? Give the record file a run wrote" in str(info.value)


def test_the_cap_of_the_kind_holds_whatever_the_ratio():
    small = FileKind("test record", 50_000, "a test needs")
    data = gzip.compress(TEXT, 1)  # compresses less than 200 times: only the kind's cap stops it
    assert len(TEXT) / len(data) < GZIP_RATIO
    with pytest.raises(InputFileError, match="the file is larger than 48 KiB, far more than a test needs"):
        inflate(data + data, "r.gz", small)


def test_highly_compressible_records_within_the_floor_are_read():
    data = gzip.compress(b'{"t": "x"}\n' * 300_000, 9)  # 3.3 MB from a few kilobytes: a ratio of ~1000, under 4 MiB
    assert len(data) * GZIP_RATIO < 3_300_000 < GZIP_FLOOR
    assert inflate(data, "r.gz", RECORD) == b'{"t": "x"}\n' * 300_000


def test_a_raw_deflate_stream_with_no_gzip_header_is_refused():
    with pytest.raises(InputFileError, match="not gzip data"):
        inflate(zlib.compress(TEXT), "r.gz", RECORD)
