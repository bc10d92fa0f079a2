"""Full game records in one compressed append-only file per run, with an index to find one game fast.

``OUT/records.jsonl.gz`` is a series of gzip members, each the record of one game or of a batch of games,
as JSON lines one game after the other (``zcat records.jsonl.gz`` prints every record); ``OUT/records.idx``
has a line a game: ``GAME OFFSET LENGTH`` for a member of its own, or ``GAME OFFSET LENGTH START SIZE``
for a game at bytes ``START`` to ``START + SIZE`` of its batch's member once inflated. A reader seeks to
the member and inflates it only up to the game. Workers append side by side: each holds an exclusive
``flock`` on the index while it writes its member and its index lines, so members never interleave.

A game between built-in players only has no member: its index line is ``GAME rebuild:POLICY`` and
``read_record`` gives back its lines rebuilt from games.jsonl (``replay.record.rebuilt_record``, with the run's
policy from the index), the very lines the table would have written: such a record holds no byte a bot
sent and no answer time, only the actions, the events and the result, and recording, encoding and
compressing them cost more than playing the game (issue 23). ``zcat`` shows only the other games.

A game is kept by every run that records (``records: true``, ``--records``) and, whatever the setting,
when it has a fault: the exact bytes a bot sent matter there, and only the record has them.

Measured (issue 25) on a 2-seat record of 1,303 lines, 299 KB, one process: gzip level 6 keeps 7.7%
in 3.1 ms (level 1: 12% in 1.1 ms; level 9: 7.1% in 9.7 ms), bz2 4.4% in 26 ms, lzma 5.9% in 51 ms.
Level 6 costs a worker little beside a game with a bot process in it (those travel alone: a member a
game). For small records written in batches, one member a batch shares one dictionary and one deflate
set-up: 13 KB built-in records (4 seats) took 305 us and 1,660 bytes a game one a member, 281 us and
893 bytes 32 a member, 119 us and 1,221 bytes at level 3 (issue 23; built-in games now keep no member).
"""

from __future__ import annotations

import fcntl
import os
import zlib
from typing import IO, Container, Iterable, Iterator, Mapping, Sequence, TypedDict, cast

import orjson

from referee.engine.actions import WireAction
from referee.engine.notation import InvalidReplayError
from referee.engine.rules import RuleOptions
from referee.inputs.files import refuse
from referee.inputs.gzipped import DamagedGzip, inflate
from referee.inputs.jsonlines import json_lines, parse_line, raw_lines
from referee.inputs.kinds import RECORD
from referee.store.disk import naming
from referee.store.results_dir import ResultsDir

RECORDS_FILE = ResultsDir.RECORDS
INDEX_FILE = ResultsDir.RECORDS_INDEX
LEVEL = 6
_PLAIN = orjson.OPT_APPEND_NEWLINE
_ANY_KEYS = orjson.OPT_APPEND_NEWLINE | orjson.OPT_NON_STR_KEYS

#: Where a game's record is: its member (offset, length) and, in a batch's member, its bytes there once
#: inflated (start, size; ``None`` for a member of its own).
Where = tuple[int, int, int, int | None]
#: An index entry: where the record is, or the run's policy (a string) for a record rebuilt when read.
Entry = Where | str
#: The index line of a record rebuilt when read: ``GAME rebuild:POLICY``.
REBUILD = "rebuild:"


class RecordEntry(TypedDict, total=False):
    """One line of a game's record, ``t`` saying which (protocol/PROTOCOL.md, "An annotated transcript"):
    ``game`` (the game's seed, seating, ruleset, options and fault policy); ``out`` / ``in`` (a ``line`` sent to
    or read from ``seat``, ``at_ms`` into the game); ``action`` (``seat``'s ``action``, ``by`` whom, its
    ``ms``); ``fault`` (``protocol.faults.FaultJson``'s keys); ``events`` (the engine's ``events``); ``result``
    (``store.results.GameResultJson``'s keys less ``wall_ms``)."""

    t: str
    game: str
    seed: int
    seating: list[str]
    ruleset: str
    options: RuleOptions
    policy: str
    seat: int
    line: str
    at_ms: float
    action: WireAction
    by: str
    ms: float | None
    events: list[Mapping[str, object]]
    """The events as read back: JSON makes the seats under ``secret`` strings."""


def encode_record(lines: Iterable[Mapping[str, object] | bytes]) -> bytes:
    """A game's record as JSON lines (``bytes`` pass through as lines already encoded).

    Keys that are not strings (a seat's secrets in the events) need orjson's slower path: only the lines
    that have them take it (a fifth of a built-in game's encoding time, against all of them).
    """
    out = []
    for line in lines:
        if isinstance(line, bytes):
            out.append(line)
            continue
        try:
            out.append(orjson.dumps(line, option=_PLAIN))
        except TypeError:
            out.append(orjson.dumps(line, option=_ANY_KEYS))
    return b"".join(out)


def append_record(out_dir: str, game_id: str, lines: Iterable[Mapping[str, object] | bytes]) -> None:
    """Append one game's record (its lines) to ``out_dir``'s record file and index, in a member of its own."""
    append_records(out_dir, [(game_id, encode_record(lines))])


def append_records(out_dir: str, records: Sequence[tuple[str, bytes]], rebuilt: Sequence[tuple[str, str]] = (),
                   *, files: tuple[str, str] = (RECORDS_FILE, INDEX_FILE)) -> None:
    """Append the records of a batch of games (id, ``encode_record``'s bytes) as one member, and the index
    entries of the records rebuilt when read (id, policy), with one lock.

    A batch of one is written as before batches (``GAME OFFSET LENGTH``), which any reader reads. ``files``: the
    member file and its index (the notes file keeps its games the same way, ``notes_file``).
    """
    if not records and not rebuilt:
        return
    data_name, index_name = files
    # The index is the lock: a batch of rebuilt records only (built-in games) does not open the record file.
    fd = os.open(os.path.join(out_dir, index_name), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        lines = _append_member(out_dir, records, data_name) if records else ""
        with naming(os.path.join(out_dir, index_name)):  # a full disk: the error names the file
            _write_all(fd, (lines + "".join(f"{game} {REBUILD}{policy}\n" for game, policy in rebuilt)).encode())
    finally:
        os.close(fd)  # closing releases the lock


def _append_member(out_dir: str, records: Sequence[tuple[str, bytes]], data_name: str = RECORDS_FILE) -> str:
    """Append ``records`` as one member to the record file (the index locked); their index lines."""
    member = zlib.compress(b"".join(data for _, data in records), LEVEL, 31)  # 31: a gzip member, so zcat reads it
    fd = os.open(os.path.join(out_dir, data_name), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        offset = os.fstat(fd).st_size
        with naming(os.path.join(out_dir, data_name)):
            _write_all(fd, member)
    finally:
        os.close(fd)
    return _index_lines([(game, len(data)) for game, data in records], offset, len(member))


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:  # a regular file takes it whole; a signal could cut one write short
        view = view[os.write(fd, view):]


def _index_lines(sizes: Sequence[tuple[str, int]], offset: int, length: int) -> str:
    """The index lines of a member at ``offset`` holding the games of ``sizes`` (id, bytes inflated), in order."""
    if len(sizes) == 1:
        return f"{sizes[0][0]} {offset} {length}\n"
    lines, start = [], 0
    for game_id, size in sizes:
        lines.append(f"{game_id} {offset} {length} {start} {size}\n")
        start += size
    return "".join(lines)


def _parse(parts: list[str]) -> Entry | None:
    """An index line's entry (``None`` for a line cut short by a killed run, or one no version wrote)."""
    try:
        numbers = [int(part) for part in parts[1:]] if len(parts) in (3, 5) else []
    except ValueError:
        return None
    if numbers and min(numbers) >= 0:
        return (numbers[0], numbers[1], 0, None) if len(numbers) == 2 else (numbers[0], numbers[1], numbers[2],
                                                                            numbers[3])
    if len(parts) == 2 and parts[1].startswith(REBUILD):
        return parts[1][len(REBUILD):]
    return None


def keep_only(out_dir: str, keep: Container[str]) -> None:
    """Rewrite the record file with the records of ``keep`` only (each game's last), in the order stored.

    A member of one game is copied as it is; the kept games of a batch's member are inflated and deflated
    again, a slice at a time, into a member of their own. Memory holds the index and one member's
    compressed bytes, never the records (a long comparison with ``--records`` keeps most of its games). A
    member cut short by a killed run is left out.
    """
    index_path, records_path = os.path.join(out_dir, INDEX_FILE), os.path.join(out_dir, RECORDS_FILE)
    if not os.path.exists(index_path):
        return
    where: dict[str, Entry | None] = {}  # first stored order, last entry wins (as ``find``)
    clean = True
    with open(index_path, encoding="utf-8") as fh:
        for line in fh:
            parts = line.split()
            if not parts:
                continue
            clean = clean and parts[0] in keep and parts[0] not in where
            at = _parse(parts)
            where[parts[0]] = at if at is not None else where.get(parts[0])
    if clean:
        return
    kept = 0
    if not os.path.exists(records_path):  # rebuilt records only: no member was ever written
        open(records_path, "wb").close()
    with open(records_path, "rb") as src, open(records_path + ".new", "wb") as dst, \
            open(index_path + ".new", "w", encoding="utf-8") as idx:
        for group in _member_groups((game, at) for game, at in where.items() if at is not None and game in keep):
            kept += _copy_group(src, dst, idx, group)
    if kept:
        os.replace(records_path + ".new", records_path)
        os.replace(index_path + ".new", index_path)
    else:  # no record left: no record file, as ``has_records`` reads it
        for path in (records_path, index_path, records_path + ".new", index_path + ".new"):
            os.remove(path)


def _member_groups(entries: Iterable[tuple[str, Entry]]) -> Iterator[list[tuple[str, Entry]]]:
    """The kept entries, those next to each other in one member grouped (a batch's kept games stay together)."""
    group: list[tuple[str, Entry]] = []
    for game, at in entries:
        last = group[-1][1] if group else None
        if group and (isinstance(at, str) or isinstance(last, str) or last is None or last[:2] != at[:2]
                      or at[3] is None):
            yield group
            group = []
        group.append((game, at))
    if group:
        yield group


def _copy_group(src: IO[bytes], dst: IO[bytes], idx: IO[str], entries: list[tuple[str, Entry]]) -> int:
    """Write ``entries`` (games of one member, or one rebuilt record) to ``dst`` and their lines to ``idx``; how
    many were written."""
    if isinstance(entries[0][1], str):
        idx.write(f"{entries[0][0]} {REBUILD}{entries[0][1]}\n")
        return 1
    group = cast(list[tuple[str, Where]], entries)
    offset, length, _, size = group[0][1]
    src.seek(offset)
    member = src.read(length)
    if size is None:  # a member of its own: copied as it is, once known whole
        if not _whole(member, length):
            return 0
        idx.write(f"{group[0][0]} {dst.tell()} {len(member)}\n")
        dst.write(member)
        return 1
    group = sorted(group, key=lambda entry: entry[1][2])
    repacked = _repack(member, length, [(at[2], at[2] + (at[3] or 0)) for _, at in group])
    if repacked is None:
        return 0
    # The kept slices follow each other in the new member: their sizes give the new starts.
    idx.write(_index_lines([(game, at[3] or 0) for game, at in group], dst.tell(), len(repacked)))
    dst.write(repacked)
    return len(group)


def _repack(member: bytes, length: int, spans: list[tuple[int, int]]) -> bytes | None:
    """A new member holding the inflated bytes of ``spans`` (sorted, not overlapping) of ``member``, inflated
    and deflated a slice at a time; ``None`` when ``member`` is not whole."""
    if len(member) != length:
        return None
    inflate = zlib.decompressobj(31)
    pack = zlib.compressobj(LEVEL, zlib.DEFLATED, 31)
    out, at = [], 0
    try:
        while member and not inflate.eof:
            chunk = inflate.decompress(member, 1 << 16)
            member = inflate.unconsumed_tail
            for first, end in spans:
                lo, hi = max(first, at), min(end, at + len(chunk))
                if lo < hi:
                    out.append(pack.compress(chunk[lo - at:hi - at]))
            at += len(chunk)
    except zlib.error:
        return None
    if not inflate.eof:
        return None
    out.append(pack.flush())
    return b"".join(out)


def _whole(member: bytes, length: int) -> bool:
    """Whether ``member`` is a whole gzip member of ``length`` bytes (not one a killed run cut short)."""
    if len(member) != length:
        return False
    inflate = zlib.decompressobj(31)
    try:
        while member and not inflate.eof:  # in slices: the inflated record is never held whole
            inflate.decompress(member, 1 << 16)
            member = inflate.unconsumed_tail
    except zlib.error:
        return False
    return inflate.eof


def has_records(out_dir: str) -> bool:
    """Whether the run kept any record (its index: a run of built-in games only has no record file)."""
    return os.path.exists(os.path.join(out_dir, INDEX_FILE)) or os.path.exists(os.path.join(out_dir, RECORDS_FILE))


def find(out_dir: str, game_id: str, index_name: str = INDEX_FILE) -> Entry | None:
    """Where ``game_id``'s record is in the record file (``Where``; the policy for a record rebuilt when read),
    or None (its last entry wins: a game played again after a crash was recorded again)."""
    path = os.path.join(out_dir, index_name)
    if not os.path.exists(path):
        return None
    found = None
    prefix = game_id + " "
    with open(path, encoding="utf-8", errors="replace") as fh:  # an index no run wrote: its lines match no game
        for line in fh:
            if line.startswith(prefix):
                found = _parse(line.split()) or found
    return found


def read_record(out_dir: str, game_id: str) -> list[RecordEntry] | str | None:
    """``game_id``'s recorded lines; None when the run kept no record of it; the run's fault policy (a ``str``)
    for a built-in game whose record is rebuilt when read (``replay.record.read_record`` does that)."""
    where = find(out_dir, game_id)
    if where is None:
        return _legacy(out_dir, game_id)
    if isinstance(where, str):
        return where
    text = read_member(out_dir, where)
    if text is None:
        return None  # a member cut short by a killed run (or damaged): as if not recorded
    shown = f"{os.path.join(out_dir, RECORDS_FILE)} (game {game_id}'s record, line numbers within it)"
    return [cast(RecordEntry, parse_line(line, shown, number))
            for number, line in enumerate(text.split(b"\n"), 1) if line.strip()]


def read_member(out_dir: str, where: Where, data_name: str = RECORDS_FILE) -> bytes | None:
    """The inflated bytes of one game at ``where`` in the member file ``data_name`` (the records, or the notes);
    None for a member a killed run cut short, a damaged one, or a file that is gone."""
    offset, length, start, size = where
    path = os.path.join(out_dir, data_name)
    try:
        with open(path, "rb") as fh:
            fh.seek(offset)
            member = fh.read(length)
    except OSError:
        return None
    if len(member) != length:
        return None
    # Inflated within the ratio cap (a member's bytes are what the index says they are, no more); a batch's member
    # only up to the game's end.
    try:
        text = inflate(member, path, RECORD, None if size is None else start + size)
    except DamagedGzip:
        return None
    if text is None or size is None:
        return text
    text = text[start:]
    return text if len(text) == size else None


def index_entries(out_dir: str, index_name: str = INDEX_FILE) -> dict[str, Entry]:
    """Every game of an index and where it is (its last entry wins), read once (for a reader of many games)."""
    path = os.path.join(out_dir, index_name)
    out: dict[str, Entry] = {}
    if not os.path.exists(path):
        return out
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            parts = line.split()
            at = _parse(parts) if parts else None
            if at is not None:
                out[parts[0]] = at
    return out


def recorded_ids(out_dir: str) -> set[str]:
    """The games with a record (for reports that link them)."""
    path = os.path.join(out_dir, INDEX_FILE)
    if not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8", errors="replace") as fh:
        return {line.split(" ", 1)[0] for line in fh if line.strip()}


def _legacy(out_dir: str, game_id: str) -> list[RecordEntry] | None:
    """A record file of a run from before records were kept in one file: ``records/GAME.jsonl``."""
    path = ResultsDir(out_dir).legacy_record(game_id)
    if not os.path.exists(path):
        return None
    return [cast(RecordEntry, line) for _, line in json_lines(path, RECORD)]


def game_in_file(path: str, game_id: str | None) -> list[RecordEntry] | str | None:
    """The record lines of ``game_id`` in the record file ``path``, read with every guard: a run's
    ``records.jsonl.gz`` (its member found through the index beside it, else the file read through, its last
    record of the game kept) or a plain ``records/GAME.jsonl`` of older versions; with no ``game_id``, the file's
    one game. The run's policy (a ``str``) for a built-in game rebuilt when read, ``None`` for a game the file has
    no record of; ``InvalidReplayError`` for a file of several games and no ``game_id``."""
    folder = os.path.dirname(os.path.abspath(path))
    if game_id is not None and os.path.basename(path) == RECORDS_FILE and os.path.isfile(os.path.join(folder,
                                                                                                     INDEX_FILE)):
        return read_record(folder, game_id)
    records = _records_in(path, game_id)
    if game_id is None and len(records) > 1:
        shown = ", ".join(list(records)[:5]) + (", ..." if len(records) > 5 else "")
        raise InvalidReplayError(f"{path} holds the records of {len(records)} games ({shown}): name one, e.g. "
                                 f"`lastcard replay {path} {next(iter(records))}`")
    if game_id is None:
        return next(iter(records.values()), None)
    return records.get(game_id)


def _records_in(path: str, game_id: str | None) -> dict[str, list[RecordEntry]]:
    """Game id -> its record lines (the last record of each), read through; only ``game_id``'s lines are kept
    when it is given (the others' ids alone), each game within the record file's cap."""
    records: dict[str, list[RecordEntry]] = {}
    current: list[RecordEntry] | None = None
    size = 0
    for number, raw in raw_lines(path, RECORD):
        if not raw.strip():
            continue
        line = cast(RecordEntry, parse_line(raw, path, number))
        if current is None and line.get("t") != "game":
            raise refuse(path, "not a game's record: a record starts with its game line ({\"t\": \"game\", ...}); "
                               "a results folder's games are replayed as `lastcard replay FOLDER GAME`", number)
        if line.get("t") == "game" or current is None:
            name = str(line.get("game"))
            records.pop(name, None)  # played again after a crash: the last record wins, in its place
            current = records[name] = []
            keep = game_id is None or name == game_id
            size = 0
        size += len(raw)
        if size > RECORD.max_bytes:
            raise refuse(path, RECORD.too_large(), number)
        if keep:
            current.append(line)
    return records
