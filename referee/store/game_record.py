"""A stored game of a results folder: its completed games.jsonl line (``find_line``), the bots' specs
(``bot_limits``), and the game to replay (``load``). The game's record lines, kept or rebuilt, are
``replay.record``'s.
"""

from __future__ import annotations

import json
import os
from typing import Mapping

from referee.engine.jsondata import JsonObject
from referee.engine.notation import InvalidReplayError, StoredGame, walk
from referee.store import record_file
from referee.store.game_source import SourceGame, check_played, folder_of_record, source_of_record
from referee.store.record_file import RecordEntry, encode_record
from referee.store.results import complete_line
from referee.store.results_dir import ResultsDir


def find_line(out_dir: str, game_id: str) -> JsonObject:
    """``game_id``'s games.jsonl line, with its stage's ruleset and options filled in."""
    folder = ResultsDir(out_dir)
    if not folder.has_games():
        raise folder.missing_games()
    found = folder.games_log.find(game_id)  # a built-in game's record is read through here: the fast scan matters
    if found is None:
        raise InvalidReplayError(f"no game {game_id!r} in {folder.games}")
    return complete_line(found[1], folder.line_defaults())


def bot_limits(out_dir: str) -> dict[str, JsonObject]:
    """Each bot's spec as arena.json has it (name -> ``BotSpec.to_json``'s keys, unchecked: older files lack some);
    ``{}`` when there is none."""
    try:
        bots = (ResultsDir(out_dir).read_run() or {}).get("arena", {}).get("bots") or []
    except AttributeError:
        return {}
    out = {}
    for entry in bots:
        spec = entry.get("spec", entry) if isinstance(entry, dict) else {}
        if isinstance(spec, dict) and "name" in spec:
            out[str(spec["name"])] = spec
    return out


def load(source: str, game_id: str | None = None) -> SourceGame:
    """The game ``game_id`` of the results directory ``source``, or of the record file ``source``: a run's
    ``records.jsonl.gz`` (a built-in game, which keeps no record there, is read from its folder's games.jsonl) or
    a ``records/GAME.jsonl`` of older versions (``game_id`` optional: the file's one game)."""
    if os.path.isdir(source):
        if game_id is None:
            raise InvalidReplayError(f"{source} is a results directory: name a game in it, e.g. "
                                     f"`lastcard replay {source} {_first_id(source) or 'g0001'}`")
        return _from_dir(source, game_id)
    if not os.path.exists(source):
        raise InvalidReplayError(f"no such file or directory: {source!r} (give a results directory and a game id, "
                                 "or a record file and a game id: records.jsonl.gz GAME, or records/GAME.jsonl of "
                                 "older versions)")
    return _from_file(source, game_id)


def _from_file(path: str, game_id: str | None) -> SourceGame:
    """A game of a record file, or of the record file's folder when the file keeps none of it (a built-in game)."""
    lines = record_file.game_in_file(path, game_id)
    folder = folder_of_record(path)
    if isinstance(lines, list):
        return source_of_record(lines, path, folder)
    if (game_id is not None and folder is not None and os.path.basename(path) == record_file.RECORDS_FILE
            and ResultsDir(folder).has_games()):  # the run's record file: its games.jsonl has every game
        return _from_dir(folder, game_id)
    held = f"no record of game {game_id}" if game_id is not None else "no game record"
    raise InvalidReplayError(f"{path} holds {held}" + (" (a game between built-in players keeps none: give its "
                                                       "results folder, `lastcard replay FOLDER GAME`)"
                                                       if isinstance(lines, str) else ""))


def _first_ids(folder: ResultsDir, count: int) -> list[str]:
    """The ids of the first ``count`` games of games.jsonl (for a message naming what is there)."""
    if not folder.has_games():
        return []
    return [str(line.get("game")) for _, (_, line) in zip(range(count), folder.games_log.lines())]


def _first_id(out_dir: str) -> str | None:
    return next(iter(_first_ids(ResultsDir(out_dir), 1)), None)


def _from_dir(out_dir: str, game_id: str) -> SourceGame:
    folder = ResultsDir(out_dir)
    path = folder.games
    record = folder.legacy_record(game_id)
    if not folder.has_games():
        if os.path.exists(record):
            return _from_file(record, game_id)
        if os.path.exists(folder.file(record_file.RECORDS_FILE)):  # records kept, games.jsonl lost
            return _from_file(folder.file(record_file.RECORDS_FILE), game_id)
        raise folder.missing_games()
    found = folder.games_log.find(game_id)
    if found is None:
        ids = _first_ids(folder, 5)
        raise InvalidReplayError(f"no game {game_id!r} in {path}; "
                                 f"its games are named like {', '.join(ids) or '(none)'}")
    number, line = found
    line = complete_line(line, folder.line_defaults())
    check_played(line)
    if "actions" not in line and os.path.exists(record):  # results from before games kept their actions
        return source_of_record(_lines(record_file.game_in_file(record, game_id), record), record, out_dir)
    stored = StoredGame.from_json(line)
    return SourceGame(stored, line, _kept_events(out_dir, game_id, stored), out_dir, f"{path} line {number}")


def _lines(lines: list[RecordEntry] | str | None, where: str) -> list[RecordEntry]:
    if not isinstance(lines, list):
        raise InvalidReplayError(f"{where} holds no record of the game")
    return lines


def _kept_events(out_dir: str, game_id: str, stored: StoredGame) -> list[Mapping[str, object]] | None:
    """The events of a game whose record the run kept (records: true, or a game with a fault), else None.

    A built-in game is kept as its games.jsonl line: its events are the engine's, as read back from a record.
    """
    kept = record_file.read_record(out_dir, game_id)
    if isinstance(kept, str):
        game = None
        for _, game, _action, _stand_in in walk(stored):  # noqa: B007 - the last game is the one wanted
            pass
        assert game is not None
        return json.loads(encode_record([{"events": game.events}]))["events"]  # type: ignore[no-any-return]
    return next((entry["events"] for entry in kept or () if entry.get("t") == "events"), None)
