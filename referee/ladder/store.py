"""The ladder's file: one SQLite database holding the bots (with their submission hashes), every game (its
games.jsonl line), and every run (with its standings), so the ladder can be read back at any time.

Each game is committed as it ends, so a killed run loses only the games in flight. Games are planned
(written without a result) before they are played, so a run that was stopped plays the same games when
started again. One run at a time: ``open_ladder`` takes a POSIX lock (``lockf``) on ``FILE.lock``, which the
kernel releases when the process ends, however it ends (and which forked workers do not inherit).
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping, Sequence

from referee.errors import BAD_INPUT, LastcardError
from referee.inputs.database import check_database
from referee.ladder.shapes import LadderRunRow, LadderSettingsJson
from referee.store.ranking_shapes import LeftOutJson, StandingRowJson
from referee.store.results import GameLine

FORMAT = "lastcard-ladder"
#: Ladder files this process holds: a POSIX lock does not stop the process that holds it from locking again.
_HELD: set[str] = set()
VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS bots (
    name TEXT PRIMARY KEY,
    hash TEXT NOT NULL,          -- the submission's hash (referee.ladder.fingerprint)
    spec TEXT NOT NULL,          -- how it is run (BotSpec JSON)
    since_run INTEGER NOT NULL,  -- the run that first saw this hash
    active INTEGER NOT NULL      -- 0: no longer in the arena file
);
CREATE TABLE IF NOT EXISTS versions (
    name TEXT NOT NULL, hash TEXT NOT NULL, run INTEGER NOT NULL, PRIMARY KEY (name, hash, run)
);
CREATE TABLE IF NOT EXISTS games (
    seq INTEGER PRIMARY KEY,     -- the game's number: its id and seed come from it
    game TEXT NOT NULL UNIQUE,
    batch INTEGER NOT NULL,      -- planned together, from the same standings
    run INTEGER NOT NULL,        -- the run that planned it
    seed INTEGER NOT NULL,
    seating TEXT NOT NULL,       -- JSON list of bot names
    hashes TEXT NOT NULL,        -- JSON list: each seat's submission hash when planned
    line TEXT,                   -- the games.jsonl line; NULL until played
    retired_run INTEGER,         -- set when a bot at the table changed or left: no longer counted
    retired_why TEXT
);
CREATE INDEX IF NOT EXISTS games_open ON games (retired_run, line);
CREATE TABLE IF NOT EXISTS benchmark_games (
    game TEXT NOT NULL,          -- STUDENT:bB:pK{a,b} (referee.benchmarks.plan)
    student TEXT NOT NULL,
    hash TEXT NOT NULL,          -- the student's submission hash when it was played
    tests TEXT NOT NULL,         -- the fingerprint of the benchmark tests (bands, test, table, seed)
    line TEXT NOT NULL,          -- the games.jsonl line
    PRIMARY KEY (game, hash, tests)
);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    finished TEXT,
    status TEXT NOT NULL,        -- running, finished, interrupted, killed (found running by the next run)
    stop_reason TEXT,
    played INTEGER NOT NULL DEFAULT 0,
    retired INTEGER NOT NULL DEFAULT 0,
    kept INTEGER,                -- games counted in this run's standings
    bots TEXT NOT NULL,          -- JSON: name -> hash, the pool of this run
    left_out TEXT NOT NULL DEFAULT '[]',
    standings TEXT               -- JSON: results.json's standings rows at the end of the run
);
"""


class LadderError(LastcardError):
    """A ladder file that cannot be used as asked (says why, and what to do)."""

    exit_code = BAD_INPUT


class LadderBusy(LadderError):
    """Another run holds the ladder file."""


@dataclass(frozen=True)
class LadderGame:
    """A planned or played game of the ladder."""

    seq: int
    game: str
    batch: int
    seed: int
    seating: tuple[str, ...]
    hashes: tuple[str, ...]
    line: GameLine | None


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class LadderStore:
    """The open ladder file (``open_ladder`` makes one; ``close`` releases the lock)."""

    def __init__(self, path: str, conn: sqlite3.Connection, lock_fd: int | None) -> None:
        self.path = path
        self.conn = conn
        self._lock_fd = lock_fd

    # ------------------------------------------------------------------ settings
    def check_settings(self, given: LadderSettingsJson) -> None:
        """Record what decides the games (ruleset, options, seats, seed, policy) or refuse different ones."""
        settings: Mapping[str, object] = given
        stored = self._meta("settings")
        text = json.dumps(settings, sort_keys=True)
        if stored is None:
            self._set_meta("format", FORMAT)
            self._set_meta("version", str(VERSION))
            self._set_meta("settings", text)
            self.conn.commit()
            return
        before = json.loads(stored)
        changed = [k for k in sorted(set(before) | set(settings)) if before.get(k) != settings.get(k)]
        if changed:
            shown = "; ".join(f"{k}: {before.get(k)!r} before, {settings.get(k)!r} now" for k in changed)
            raise LadderError(f"{self.path} was started with other game settings ({shown}); games under different "
                              "rules cannot share a ladder: put the old settings back, or give another --db")

    def _meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def _set_meta(self, key: str, value: str) -> None:
        self.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    # ------------------------------------------------------------------ runs
    def start_run(self, bots: Mapping[str, str]) -> int:
        """A new run (runs found still ``running`` were killed: say so); its id."""
        self.conn.execute("UPDATE runs SET status = 'killed', stop_reason = 'the process ended without finishing' "
                          "WHERE status = 'running'")
        cur = self.conn.execute("INSERT INTO runs (started, status, bots) VALUES (?, 'running', ?)",
                                (_now(), json.dumps(dict(bots))))
        self.conn.commit()
        assert cur.lastrowid is not None
        return cur.lastrowid

    def finish_run(self, run: int, *, status: str, stop_reason: str, played: int, retired: int, kept: int,
                   left_out: Sequence[LeftOutJson], standings: Sequence[StandingRowJson]) -> None:
        """Store how the run ended and its standings."""
        self.conn.execute("UPDATE runs SET finished = ?, status = ?, stop_reason = ?, played = ?, retired = ?, "
                          "kept = ?, left_out = ?, standings = ? WHERE id = ?",
                          (_now(), status, stop_reason, played, retired, kept, json.dumps(list(left_out)),
                           json.dumps(list(standings)), run))
        self.conn.commit()

    def runs(self) -> list[LadderRunRow]:
        """Every run, oldest first (standings decoded)."""
        cur = self.conn.execute("SELECT id, started, finished, status, stop_reason, played, retired, kept, bots, "
                                "left_out, standings FROM runs ORDER BY id")
        return [LadderRunRow(id=id_, started=started, finished=finished, status=status, stop_reason=stop_reason,
                             played=played, retired=retired, kept=kept, bots=_decoded(bots),
                             left_out=_decoded(left_out), standings=_decoded(standings))
                for id_, started, finished, status, stop_reason, played, retired, kept, bots, left_out, standings
                in cur.fetchall()]

    # ------------------------------------------------------------------ bots
    def bots(self) -> dict[str, tuple[str, bool]]:
        """Name -> (hash, active) of every bot the ladder has seen."""
        return {n: (h, bool(a)) for n, h, a in self.conn.execute("SELECT name, hash, active FROM bots")}

    def update_bots(self, run: int, current: Mapping[str, tuple[str, Mapping[str, object]]]) -> dict[str, list[str]]:
        """Bring the bots up to date with the arena file (name -> (hash, spec JSON)); retire the games of
        changed and removed bots. Returns the names ``new``, ``changed``, ``removed``, ``returned``."""
        known = self.bots()
        report: dict[str, list[str]] = {"new": [], "changed": [], "removed": [], "returned": []}
        for name, (digest, spec) in current.items():
            old = known.get(name)
            if old is None:
                report["new"].append(name)
            elif old[0] != digest:
                report["changed"].append(name)
                self._retire(run, name, f"{name} changed")
            elif not old[1]:
                report["returned"].append(name)
            if old is None or old[0] != digest:
                self.conn.execute("INSERT OR REPLACE INTO bots (name, hash, spec, since_run, active) "
                                  "VALUES (?, ?, ?, ?, 1)", (name, digest, json.dumps(spec), run))
                self.conn.execute("INSERT OR IGNORE INTO versions (name, hash, run) VALUES (?, ?, ?)",
                                  (name, digest, run))
            else:
                self.conn.execute("UPDATE bots SET active = 1, spec = ? WHERE name = ?", (json.dumps(spec), name))
        for name, (_, active) in known.items():
            if name not in current and active:
                report["removed"].append(name)
                self.conn.execute("UPDATE bots SET active = 0 WHERE name = ?", (name,))
                self._retire(run, name, f"{name} left the ladder")
        self.conn.commit()
        return report

    def _retire(self, run: int, name: str, why: str) -> None:
        # A game is the bot's when its name is at the table; json_each would need JSON1, so match the quoted name.
        pattern = "%" + json.dumps(name) + "%"
        for seq, seating in self.conn.execute("SELECT seq, seating FROM games WHERE retired_run IS NULL AND "
                                              "seating LIKE ?", (pattern,)).fetchall():
            if name in json.loads(seating):
                self.conn.execute("UPDATE games SET retired_run = ?, retired_why = ? WHERE seq = ?", (run, why, seq))

    def retired_in(self, run: int) -> int:
        """Games retired by ``run``."""
        return int(self.conn.execute("SELECT COUNT(*) FROM games WHERE retired_run = ?", (run,)).fetchone()[0])

    # ------------------------------------------------------------------ games
    def next_seq(self) -> int:
        """The number the next planned game gets."""
        return int(self.conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM games").fetchone()[0])

    def next_batch(self) -> int:
        """The number the next planned batch gets."""
        return int(self.conn.execute("SELECT COALESCE(MAX(batch), 0) + 1 FROM games").fetchone()[0])

    def plan(self, run: int, batch: int, games: Iterable[tuple[int, str, int, Sequence[str], Sequence[str]]]) -> None:
        """Write planned games ``(seq, game id, seed, seating, hashes)`` (one transaction)."""
        with self.conn:
            self.conn.executemany(
                "INSERT INTO games (seq, game, batch, run, seed, seating, hashes) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(seq, gid, batch, run, seed, json.dumps(list(seating)), json.dumps(list(hashes)))
                 for seq, gid, seed, seating, hashes in games])

    def record(self, game: str, line: GameLine) -> None:
        """Store a finished game and commit it at once."""
        with self.conn:
            self.conn.execute("UPDATE games SET line = ? WHERE game = ?", (line.encode().decode().rstrip("\n"), game))

    def games(self, *, played: bool | None = None, retired: bool = False) -> list[LadderGame]:
        """Games in order: kept ones (``retired`` false) or all; only played (True), only planned (False), or both."""
        return list(self.iter_games(played=played, retired=retired))

    def iter_games(self, *, played: bool | None = None, retired: bool = False) -> Iterator[LadderGame]:
        """``games``, read a row at a time (a long ladder's games need not all be in memory at once)."""
        sql = "SELECT seq, game, batch, seed, seating, hashes, line FROM games"
        where = [] if retired else ["retired_run IS NULL"]
        if played is True:
            where.append("line IS NOT NULL")
        elif played is False:
            where.append("line IS NULL")
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY seq"
        for seq, game, batch, seed, seating, hashes, line in self.conn.execute(sql):
            yield LadderGame(seq, game, batch, seed, tuple(json.loads(seating)), tuple(json.loads(hashes)),
                             GameLine.from_json(json.loads(line)) if line else None)

    # ------------------------------------------------------------------ benchmark games
    def benchmark_games(self, student: str, digest: str, tests: str) -> Iterator[GameLine]:
        """The benchmark games kept for ``student``'s submission ``digest`` under the tests ``tests``, in the order
        they ended."""
        for (line,) in self.conn.execute("SELECT line FROM benchmark_games WHERE student = ? AND hash = ? AND "
                                         "tests = ? ORDER BY rowid", (student, digest, tests)):
            yield GameLine.from_json(json.loads(line))

    def keep_benchmark_game(self, student: str, digest: str, tests: str, line: GameLine) -> None:
        """Store a benchmark game and commit it at once (a killed run loses only the games in flight)."""
        with self.conn:
            self.conn.execute("INSERT OR REPLACE INTO benchmark_games (game, student, hash, tests, line) "
                              "VALUES (?, ?, ?, ?, ?)", (line.game, student, digest, tests,
                                                         line.encode().decode().rstrip("\n")))

    def count(self, where: str = "1") -> int:
        """Games matching an SQL condition (for summaries)."""
        return int(self.conn.execute(f"SELECT COUNT(*) FROM games WHERE {where}").fetchone()[0])

    def close(self) -> None:
        """Close the database and release the lock."""
        self.conn.close()
        if self._lock_fd is not None:
            _unlock(self.path, self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> LadderStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: SQLite's errors that are the disk's, as the operating-system error they stand for.
DISK_ERRORS = {"SQLITE_FULL": errno.ENOSPC, "SQLITE_READONLY": errno.EROFS, "SQLITE_IOERR": errno.EIO,
               "SQLITE_CANTOPEN": errno.ENOENT}


@contextmanager
def disk_errors(path: str) -> Iterator[None]:
    """SQLite's "database or disk is full" (and the like) raised inside, as an ``OSError`` naming ``path``: the
    command then says the path and the cause. SQLite rolls the open transaction back: the games recorded
    before it stay, and the next ``ladder run`` goes on from them."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        name = getattr(exc, "sqlite_errorname", "") or ""
        code = next((c for prefix, c in DISK_ERRORS.items() if name.startswith(prefix)), None)
        if code is None:
            raise
        error = OSError(code, str(exc), path)
        error.kept = (f"the games recorded before it are kept in {path}; once that is fixed, "  # type: ignore[attr-defined]
                      "run the same command again to go on from them")
        raise error from exc


def open_ladder(path: str, *, write: bool = True, create: bool = True) -> LadderStore:
    """Open (or create) the ladder file; with ``write``, hold its lock or raise ``LadderBusy``; a directory or a
    file that is no SQLite database is refused at once (``InputFileError``)."""
    check_database(path, "a ladder file", "give the ladder's file, or a new file name to start a ladder")
    path = os.path.abspath(path)
    if not create and not os.path.exists(path):
        raise LadderError(f"{path} does not exist: `lastcard ladder run ARENA.yaml --db {os.path.basename(path)}` "
                          "creates it")
    lock_fd = _lock(path) if write else None
    try:
        if write:
            os.makedirs(os.path.dirname(path), exist_ok=True)
        conn = sqlite3.connect(path if write else f"file:{path}?mode=ro", uri=not write, timeout=10.0)
        if write:
            conn.execute("PRAGMA journal_mode = WAL")  # readers (`ladder standings`) never wait for a run
            conn.execute("PRAGMA synchronous = NORMAL")  # WAL + NORMAL: a committed game survives a killed process
            conn.executescript(SCHEMA)
            conn.commit()
        fmt = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
    except sqlite3.DatabaseError as exc:
        if lock_fd is not None:
            _unlock(path, lock_fd)
        raise LadderError(f"{path} is not a ladder file ({exc}); give another --db") from None
    if fmt is not None and fmt[0] != FORMAT:
        conn.close()
        if lock_fd is not None:
            _unlock(path, lock_fd)
        raise LadderError(f"{path} is a SQLite file but not a ladder (format {fmt[0]!r}); give another --db")
    return LadderStore(path, conn, lock_fd)


def _lock(path: str) -> int:
    if path in _HELD:
        raise LadderBusy(f"{path} is in use by another ladder run (pid {os.getpid()}, this process); wait for it "
                         "to finish")
    lock_path = path + ".lock"
    os.makedirs(os.path.dirname(lock_path), exist_ok=True)
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        # A POSIX record lock, not flock: the worker processes forked later must not share it, or a
        # killed run's workers would hold the file until they noticed and exited.
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        try:
            holder = os.read(fd, 200).decode(errors="replace").strip() or "unknown"
        finally:
            os.close(fd)
        raise LadderBusy(f"{path} is in use by another ladder run (pid {holder}); wait for it to finish or stop "
                         "it (a run that is killed releases the file at once)") from None
    os.ftruncate(fd, 0)
    os.write(fd, str(os.getpid()).encode())
    _HELD.add(path)
    return fd


def _unlock(path: str, fd: int) -> None:
    os.close(fd)  # closing the descriptor releases the lock
    _HELD.discard(path)


def _decoded(text: str | None) -> Any:
    """A JSON column of the runs table (as the package wrote it), or None where it is empty."""
    return json.loads(text) if text else None
