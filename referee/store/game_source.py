"""A stored game and where it came from: a line of a results folder's games.jsonl, or a record file.

A results folder's layout (games.jsonl, results.json, the record file, logs/) is ``results_dir``'s;
``game_record.record_lines`` gives a game's record lines whether kept or not.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Mapping

from referee.engine.jsondata import JsonObject
from referee.engine.notation import InvalidReplayError, StoredGame
from referee.protocol.faults import Fault
from referee.store.record_file import RecordEntry, game_in_file
from referee.store.results import GameResult
from referee.store.results_dir import ResultsDir

#: How much of a bot's stderr log a report or a replay shows.
STDERR_TAIL_LINES = 20
STDERR_TAIL_BYTES = 4000


@dataclass(frozen=True, slots=True)
class SourceGame:
    """A stored game, the result it was stored with, and where it came from."""

    stored: StoredGame
    line: JsonObject
    """The games.jsonl line or the record's result line as written: ``--verify`` compares its keys with the replay,
    those of older files too (``points``), which a ``GameResult`` reads under today's names."""
    events: list[Mapping[str, object]] | None
    """The engine's events as recorded (record files only; JSON's string keys under ``secret``), compared event by
    event by ``--verify``."""
    out_dir: str | None
    where: str
    """A description of the source for messages (``results/x/games.jsonl line 12``)."""
    result: GameResult | None = field(init=False)
    """The stored result read back (``None`` where nothing was stored: a record cut short, a suite's position)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "result", _result_of(self.line))

    @property
    def faults(self) -> tuple[Fault, ...]:
        """The stored faults, in the order the game recorded them (none without a stored result)."""
        return self.result.faults if self.result is not None else ()


def _result_of(line: Mapping[str, object]) -> GameResult | None:
    if not all(key in line for key in ("game", "seed", "ruleset", "seating", "placements")):
        return None
    try:
        return GameResult.from_json(line)
    except (KeyError, TypeError, ValueError):  # a line no version wrote (a fault of an unknown kind): no result
        return None


def check_played(line: JsonObject) -> None:
    """Raise ``InvalidReplayError`` for a game that was never played (its worker died, twice)."""
    if line.get("reason") == "lost":
        cause = next((f.get("message") for f in line.get("faults") or [] if f.get("message")), "its worker died")
        raise InvalidReplayError(f"game {line.get('game')} was not played, so there is nothing to replay: {cause}")


def stored_for(out_dir: str, line: JsonObject) -> StoredGame:
    """The stored game of a games.jsonl line: its own actions, or its record file's when it has none."""
    check_played(line)
    if "actions" not in line:
        record = ResultsDir(out_dir).legacy_record(str(line.get("game")))
        if os.path.exists(record):
            return stored_of(game_in_file(record, str(line.get("game"))), record)
    return StoredGame.from_json(line)


def stored_of(lines: list[RecordEntry] | str | None, where: str) -> StoredGame:
    """The stored game of a record's lines (``InvalidReplayError`` for lines that are not one, naming ``where``)."""
    if not isinstance(lines, list):
        raise InvalidReplayError(f"{where} holds no record of the game")
    try:
        return StoredGame.from_record(lines)
    except InvalidReplayError as exc:
        raise InvalidReplayError(f"{where}: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:  # a game or action line no version wrote
        raise InvalidReplayError(f"{where}: not a game's record lastcard wrote: its game or action lines lack or "
                                 f"garble {exc}; give the record file a run wrote") from None


def source_of_record(lines: list[RecordEntry], where: str, out_dir: str | None) -> SourceGame:
    """The stored game of a record file's lines (``where``: the file), its result and events as recorded; its
    logs are looked for in ``out_dir``."""
    stored = stored_of(lines, where)
    result: Mapping[str, object] = next((line for line in lines if line.get("t") == "result"), {})
    events = next((line["events"] for line in lines if line.get("t") == "events"), None)
    return SourceGame(stored, {k: v for k, v in result.items() if k != "t"}, events, out_dir, where)


def folder_of_record(path: str) -> str | None:
    """The results folder a record file is in: ``DIR/records.jsonl.gz``'s, or a legacy ``DIR/records/GAME.jsonl``'s
    (a folder with ``logs/``, where the bots' logs are); None for a record file on its own."""
    parent = os.path.dirname(os.path.abspath(path))
    if ResultsDir(parent).has_games() or os.path.isdir(ResultsDir(parent).logs):
        return parent
    folder = ResultsDir.of_record(path)
    return folder.path if folder is not None else None


def stderr_path(out_dir: str | None, bot: str) -> str:
    """Where ``bot``'s stderr log is in a results directory (named as ``BotPool`` names it)."""
    return ResultsDir(out_dir or ".").stderr_log(bot)


def stderr_tail(out_dir: str | None, bot: str) -> str | None:
    """The last lines of ``bot``'s stderr log in ``out_dir/logs`` (the log spans all its games), if any."""
    if out_dir is None:
        return None
    path = stderr_path(out_dir, bot)
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - STDERR_TAIL_BYTES))
            text = fh.read().decode("utf-8", "replace")
    except OSError:
        return None
    lines = text.splitlines()[-STDERR_TAIL_LINES:]
    return "\n".join(lines) if lines else None
