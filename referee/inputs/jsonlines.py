"""JSON lines a person hands in (a game's record file, plain or gzip), read with the guards: each line UTF-8, at
most ``MAX_JSON_VALUES`` values and ``MAX_DEPTH`` levels deep, the whole within its kind's cap or the gzip ratio cap.

A line's values are counted before it is parsed (bytes counted in C), so a line of millions of tiny values is
refused before it is built; its depth is walked only when it has more brackets than ``MAX_DEPTH`` (a record's
events line), and the parser itself stops at 1,024 levels.
"""

from __future__ import annotations

import codecs
from typing import Any, Iterator

import orjson

from referee.inputs.files import GZIP_MAGIC, open_problem, read_chunks, read_head, read_text_bytes, refuse
from referee.inputs.gzipped import stream
from referee.inputs.kinds import MAX_DEPTH, MAX_JSON_VALUES, FileKind, size_text

JsonLine = dict[str, Any]
#: Compressed bytes read at a time from a gzip file: a bomb is refused after about ``GZIP_FLOOR + GZIP_RATIO *
#: GZIP_SLICE`` inflated bytes (some 7 MiB), each of them split into lines and parsed.
GZIP_SLICE = 1 << 14


def parse_line(raw: bytes, path: str, number: int) -> JsonLine:
    """Line ``number`` of ``path`` as a JSON object, or ``InputFileError`` saying what it is instead."""
    commas = raw.count(b",")
    opened = raw.count(b"[") + raw.count(b"{")
    if commas + opened > MAX_JSON_VALUES:
        raise refuse(path, f"a line of more than {MAX_JSON_VALUES:,} values, more than any record holds; give the "
                           "record file a run wrote", number)
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        if "depth" in str(exc) or "recursion" in str(exc).lower():  # orjson stops at 1,024 levels
            raise refuse(path, too_deep(), number) from None
        raise refuse(path, f"not JSON ({not_json(raw, exc)}); is it a game's record (records.jsonl.gz, or "
                           "records/GAME.jsonl of older versions)?", number) from None
    if opened > MAX_DEPTH and depth(value) > MAX_DEPTH:
        raise refuse(path, too_deep(), number)
    if not isinstance(value, dict):
        raise refuse(path, f"a JSON {type(value).__name__}, not an object as every line of a record is", number)
    return value


def too_deep() -> str:
    return f"nested more than {MAX_DEPTH} levels deep, far deeper than any record (a few levels); is it a record?"


def not_json(raw: bytes, exc: orjson.JSONDecodeError) -> str:
    """What the JSON parser says, or that the line is not UTF-8 (naming the byte) when it is that."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as bad:
        return f"not UTF-8 either: byte 0x{raw[bad.start]:02x} at column {bad.start + 1}"
    return exc.msg


def depth(value: object) -> int:
    """How deep ``value`` nests, walked without recursion and only through containers; stops past ``MAX_DEPTH``."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        stack.extend((child, level + 1) for child in children if isinstance(child, (dict, list)))
    return deepest


def raw_lines(path: str, kind: FileKind) -> Iterator[tuple[int, bytes]]:
    """Each (line number, bytes) of a plain file within ``kind``'s cap, or of a gzip file (sniffed by its first
    bytes, whatever its name) within the ratio cap, no line longer than the cap; a last line cut short is left out
    of a gzip file (a run killed while writing), kept in a plain one."""
    problem = open_problem(path, kind)
    if problem is not None:
        raise refuse(path, problem)
    if read_head(path, len(GZIP_MAGIC)) == GZIP_MAGIC:
        # Read in small slices: the ratio cap is checked against what was read, so a bomb stops early.
        yield from _gzip_lines(read_chunks(path, GZIP_SLICE), path, kind)
        return
    data = read_text_bytes(path, kind)  # a binary file, or UTF-16, named as such rather than "not JSON"
    yield from enumerate(data.removeprefix(codecs.BOM_UTF8).split(b"\n"), 1)


def _gzip_lines(chunks: Iterator[bytes], path: str, kind: FileKind) -> Iterator[tuple[int, bytes]]:
    pending: list[bytes] = []  # the line begun in earlier slices, joined once its end comes
    size = number = 0
    for piece in stream(chunks, path):
        start = 0
        while (end := piece.find(b"\n", start)) >= 0:
            pending.append(piece[start:end])
            number += 1
            yield number, b"".join(pending)
            pending, size, start = [], 0, end + 1
        if start < len(piece):
            pending.append(piece[start:])
            size += len(piece) - start
            if size > kind.max_bytes:
                raise refuse(path, f"a line longer than {size_text(kind.max_bytes)} once inflated, far more than "
                                   f"{kind.real}; is it the right file?", number + 1)


def json_lines(path: str, kind: FileKind) -> Iterator[tuple[int, JsonLine]]:
    """Each (line number, object) of a JSON-lines file, plain or gzip, blank lines skipped, every guard applied."""
    for number, raw in raw_lines(path, kind):
        if raw.strip():
            yield number, parse_line(raw, path, number)

