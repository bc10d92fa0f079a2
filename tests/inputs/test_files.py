"""The guarded reader of a text file a person hands in: each kind's cap, a directory or a missing file, UTF-8 with
a byte order mark dropped, another encoding, a binary or gzip file and a NUL byte named, an endless file cut."""

from __future__ import annotations

import codecs
import gzip
import os
import threading
from pathlib import Path

import pytest

from referee.inputs.files import looks_like, read_text
from referee.inputs.kinds import ARENA, PARAMS, ROSTER, SUITE, FileKind, size_text
from referee.inputs.problems import InputFileError
from tests.support import hostile_files

SMALL = FileKind("test file", 100, "a test file needs (a line)")


def refused(path: Path, kind: FileKind = SUITE) -> str:
    with pytest.raises(InputFileError) as info:
        read_text(str(path), kind)
    assert info.value.source == str(path) and str(info.value).startswith(f"{path}: ")
    return str(info.value)


def write(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "file.txt"
    path.write_bytes(data)
    return path


def test_a_utf8_byte_order_mark_is_dropped_and_the_text_kept(tmp_path):
    path = write(tmp_path, codecs.BOM_UTF8 + "name,café\n".encode())
    assert read_text(str(path), ROSTER) == "name,café\n"


@pytest.mark.parametrize("encoding, name", [("utf-16", "UTF-16"), ("utf-16-be", "UTF-16"), ("utf-32", "UTF-32")])
def test_text_in_another_unicode_encoding_is_named(tmp_path, encoding, name):
    data = ("\ufeff" if encoding == "utf-16-be" else "") + "name,score\nAda,3\n"
    path = write(tmp_path, data.encode(encoding))
    assert refused(path, ROSTER).endswith(f": {name} text (it starts with a {name} byte order mark), not UTF-8; save "
                                          "the file as UTF-8")


def test_latin1_text_names_the_byte_its_line_and_column_and_the_likely_encoding(tmp_path):
    path = write(tmp_path, b"name\nAda\nRen\xe9e\n")
    assert refused(path) == (f"{path}: not UTF-8 text: byte 0xe9 at column 4 cannot be decoded (the file is in "
                             "another encoding: Latin-1 or Windows-1252?); save the file as UTF-8 (line 3)")


def test_a_bad_byte_after_a_byte_order_mark_is_placed_in_the_file_as_it_is(tmp_path):
    path = write(tmp_path, codecs.BOM_UTF8 + b"ab\xff\n")
    assert "byte 0xff at column 6" in refused(path)  # counted from the file's first byte, the mark's three included


def test_invalid_utf8_that_is_no_latin1_either_is_not_guessed(tmp_path):
    path = write(tmp_path, b"ab\x81\n")  # 0x81 is no Windows-1252 character
    message = refused(path)
    assert "byte 0x81 at column 3 cannot be decoded; save the file as UTF-8" in message and "Latin-1" not in message


def test_a_binary_file_is_named_binary_with_its_first_bytes(tmp_path):
    path = hostile_files.write(tmp_path, "binary")
    first = " ".join(f"{b:02x}" for b in hostile_files.binary()[:8])
    assert refused(path, PARAMS) == (f"{path}: a binary file (it starts with {first}), not a parameter file; is it "
                                     "the right file?")


def test_a_gzip_file_is_named_compressed(tmp_path):
    path = write(tmp_path, gzip.compress(b"positions: []\n"))
    assert refused(path).endswith("gzip-compressed, not text; give the position suite itself (gunzip prints it)")


def test_a_nul_byte_past_the_first_bytes_is_refused_with_its_line(tmp_path):
    path = write(tmp_path, b"a: 1\n" * 2000 + b"b: \x00\n")
    assert refused(path, SUITE).endswith("holds a NUL byte, which no text file has; is it a binary file? Give the "
                                         "position suite as text (line 2001)")


def test_a_directory_and_a_missing_file_are_named_as_such(tmp_path):
    assert refused(tmp_path) == f"{tmp_path}: a directory, not a position suite; give the file itself"
    assert refused(tmp_path / "gone.yaml") == f"{tmp_path / 'gone.yaml'}: no such file; check its name and folder"


def test_a_file_that_cannot_be_opened_says_why(tmp_path):
    path = write(tmp_path, b"a: 1\n")
    path.chmod(0)
    if os.access(path, os.R_OK):
        pytest.skip("running as root: the file can be read whatever its mode")
    assert refused(path) == f"{path}: cannot read the file: Permission denied"


def test_a_file_at_the_cap_is_read_and_one_byte_more_is_refused(tmp_path):
    assert read_text(str(write(tmp_path, b"x" * 100)), SMALL) == "x" * 100
    assert refused(write(tmp_path, b"x" * 101), SMALL).endswith(
        ": the file is larger than 0 KiB, far more than a test file needs (a line); is it the right file?")


def test_each_kind_has_its_cap_in_the_message():
    assert ARENA.too_large() == ("the file is larger than 1024 KiB, far more than an arena needs (a few kilobytes); "
                                 "is it the right file?")
    assert SUITE.too_large().startswith("the file is larger than 4 MiB, far more than a suite needs")
    assert [size_text(n) for n in (16 << 10, 1 << 20, 64 << 20, 17_000_000)] == ["16 KiB", "1024 KiB", "64 MiB",
                                                                                "16.2 MiB"]


def test_an_endless_text_stream_stops_at_the_cap(tmp_path):
    fifo = tmp_path / "endless"
    os.mkfifo(fifo)
    stop = threading.Event()

    def feed() -> None:
        with open(fifo, "wb") as fh:
            try:
                while not stop.is_set():
                    fh.write(b"# more and more\n" * 4096)
            except BrokenPipeError:  # the reader stopped reading: as it should
                pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        assert refused(fifo, PARAMS).endswith("the file is larger than 256 KiB, far more than a parameter file needs "
                                              "(a line a parameter); is it the right file?")
    finally:
        stop.set()
        writer.join(10)
    assert not writer.is_alive()


@pytest.mark.parametrize("data, said", [
    (b"SQLite format 3\x00....", "a SQLite database"),
    (b"\x1f\x8b\x08\x00", "gzip-compressed"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"", "it is empty"),
    ("caf\u00e9 au lait".encode(), "text: 'café au lait'"),
    (b"\x00\x01\x02\x03\x04\x05\x06\x07\x08", "it starts with 00 01 02 03 04 05 06 07"),
], ids=["sqlite", "gzip", "png", "empty", "text", "bytes"])
def test_a_file_is_described_by_its_first_bytes(data, said):
    assert looks_like(data) == said
