"""A path a person gives for a SQLite database (the ladder's ``--db``): refused at once when it is a directory or a
file that is not a SQLite database, so the message says so rather than SQLite's "file is not a database" later.

Only the first 16 bytes are read: a database may be gigabytes. A missing or empty file is a new database.
"""

from __future__ import annotations

import os

from referee.inputs.files import SQLITE_MAGIC, looks_like, read_head, refuse


def check_database(path: str, name: str, fix: str) -> None:
    """Raise ``InputFileError`` unless ``path`` is missing, empty or a SQLite database; ``name`` is what the file
    is (``ladder file``) and ``fix`` what to give instead."""
    if os.path.isdir(path):
        raise refuse(path, f"a directory, not {name} (a SQLite database); {fix}")
    if not os.path.exists(path):
        return
    head = read_head(path, len(SQLITE_MAGIC))
    if head and head != SQLITE_MAGIC:
        raise refuse(path, f"not a SQLite database ({looks_like(head)}), so not {name}; {fix}")
