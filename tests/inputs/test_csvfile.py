"""The roster's entry point (issue 48 adds the rosters): CSV through the guarded reader, a spreadsheet's byte order
mark dropped from the first header, another encoding named, each row with the line it starts on."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from referee.inputs.csvfile import read_rows
from referee.inputs.problems import InputFileError
from tests.support import hostile_files


def write(tmp_path: Path, data: bytes) -> str:
    path = tmp_path / "roster.csv"
    path.write_bytes(data)
    return str(path)


def test_a_spreadsheets_csv_utf8_reads_with_a_clean_first_header(tmp_path):
    path = write(tmp_path, codecs.BOM_UTF8 + "name,folder\r\nZoë,zoe\r\n\r\nRené,rene\r\n".encode())
    assert read_rows(path) == [(1, ["name", "folder"]), (2, ["Zoë", "zoe"]), (4, ["René", "rene"])]


def test_a_quoted_field_over_lines_keeps_the_line_its_row_starts_on(tmp_path):
    path = write(tmp_path, b'name,note\n"Ada","two\nlines"\nBob,x\n')
    assert read_rows(path) == [(1, ["name", "note"]), (2, ["Ada", "two\nlines"]), (4, ["Bob", "x"])]


def test_another_delimiter_is_asked_for(tmp_path):
    assert read_rows(write(tmp_path, b"name;folder\nAda;ada\n"), delimiter=";")[1] == (2, ["Ada", "ada"])


def test_an_excel_unicode_text_file_names_utf16(tmp_path):
    path = write(tmp_path, "name\tfolder\nAda\tada\n".encode("utf-16"))
    with pytest.raises(InputFileError, match=r"roster.csv: UTF-16 text \(it starts with a UTF-16 byte order mark\), "
                                             "not UTF-8; save the file as UTF-8$"):
        read_rows(path)


def test_a_latin1_roster_names_the_byte_and_the_likely_encoding(tmp_path):
    with pytest.raises(InputFileError, match=r"not UTF-8 text: byte 0xe9 at column 4 cannot be decoded \(the file is "
                                             r"in another encoding: Latin-1 or Windows-1252\?\); save the file as "
                                             r"UTF-8 \(line 2\)"):
        read_rows(write(tmp_path, b"name\nRen\xe9e\n"))


def test_a_field_past_the_csv_limit_is_refused_with_its_line(tmp_path):
    path = write(tmp_path, b"name,note\nAda," + b"x" * 200_000 + b"\n")
    with pytest.raises(InputFileError, match=r"not CSV as a roster is written: field larger than field limit "
                                             r"\(131072\); save it from the spreadsheet as \"CSV UTF-8\" \(line 2\)"):
        read_rows(path)


def test_an_unclosed_quote_is_refused(tmp_path):
    with pytest.raises(InputFileError, match="not CSV as a roster is written"):
        read_rows(write(tmp_path, b'name\n"Ada\n'))


@pytest.mark.parametrize("name, said", [
    ("binary", "a binary file (it starts with"),
    ("30-MB", "the file is larger than 4 MiB, far more than a roster needs (a line a student)"),
    ("gzip-bomb", "gzip-compressed, not text; give the roster itself"),
    ("not-utf8", "not UTF-8 text: byte 0xe9 at column 6"),
    ("directory", "a directory, not a roster; give the file itself"),
])
def test_a_hostile_roster_is_refused_naming_the_file(tmp_path, name, said):
    path = hostile_files.write(tmp_path, name)
    with pytest.raises(InputFileError) as info:
        read_rows(str(path))
    assert str(info.value).startswith(f"{path}: ") and said in str(info.value)
