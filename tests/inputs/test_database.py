"""A SQLite path a person gives (the ladder's --db): a directory or a file that is no SQLite database refused by its
first bytes, a missing or empty file left to become a database."""

from __future__ import annotations

import sqlite3

import pytest

from referee.inputs.database import check_database
from referee.inputs.problems import InputFileError

FIX = "give the ladder's file"


def refused(path) -> str:
    with pytest.raises(InputFileError) as info:
        check_database(str(path), "a ladder file", FIX)
    return str(info.value)


def test_a_database_a_missing_file_and_an_empty_one_pass(tmp_path):
    with sqlite3.connect(tmp_path / "l.sqlite") as conn:
        conn.execute("CREATE TABLE t (x)")
    (tmp_path / "empty.sqlite").touch()
    for name in ("l.sqlite", "missing.sqlite", "empty.sqlite"):
        check_database(str(tmp_path / name), "a ladder file", FIX)


def test_a_directory_is_named(tmp_path):
    assert refused(tmp_path) == f"{tmp_path}: a directory, not a ladder file (a SQLite database); {FIX}"


@pytest.mark.parametrize("data, said", [
    (b"name: spring ladder\n", "not a SQLite database (text: 'name: spring lad'), so not a ladder file"),
    (b"\x1f\x8b\x08\x00" + b"\x00" * 20, "not a SQLite database (gzip-compressed), so not a ladder file"),
    (b"SQLite format 2\x00...", "not a SQLite database (it starts with 53 51 4c 69 74 65 20 66), so not a ladder file"),
])
def test_a_file_that_is_no_sqlite_database_says_what_it_is(tmp_path, data, said):
    path = tmp_path / "l.sqlite"
    path.write_bytes(data)
    assert refused(path) == f"{path}: {said}; {FIX}"
