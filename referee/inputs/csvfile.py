"""A CSV file a person hands in (a class roster, issue 48), read through the guarded reader: its cap, UTF-8 with a
spreadsheet's byte order mark dropped (so the first header is ``name``, not ``\\ufeffname``), another encoding
named; then its rows, each with the line it starts on, a field past ``csv``'s limit refused with its line.
"""

from __future__ import annotations

import csv
import io

from referee.inputs.files import read_text, refuse
from referee.inputs.kinds import ROSTER, FileKind

Row = tuple[int, list[str]]
"""A row and the line it starts on (a quoted field may span lines)."""


def read_rows(path: str, kind: FileKind = ROSTER, delimiter: str = ",") -> list[Row]:
    """Every row of the CSV file ``path`` (blank lines skipped), or ``InputFileError`` naming the file, line and fix."""
    return parse_rows(read_text(path, kind), path, kind, delimiter)


def parse_rows(text: str, path: str, kind: FileKind = ROSTER, delimiter: str = ",") -> list[Row]:
    """Every row of ``text``, read from the file ``path`` (see ``read_rows``)."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows: list[Row] = []
    start = 1
    try:
        for cells in reader:
            if any(cell.strip() for cell in cells):
                rows.append((start, cells))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise refuse(path, f"not CSV as {kind.a} is written: {exc}; save it from the spreadsheet as \"CSV UTF-8\"",
                     start) from None
    return rows
