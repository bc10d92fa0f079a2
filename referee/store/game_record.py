"""A stored game of a results folder: its completed games.jsonl line (``find_line``), the bots' specs
(``bot_limits``), and the game to replay (``load``). The game's record lines, kept or rebuilt, are
``replay.record``'s.
"""

from __future__ import annotations

import json
import os
from typing import Any

from referee.store.game_source import (SourceGame, _from_record, check_played, complete_line, game_defaults, read_jsonl,
                                       read_results)
from referee.store import record_file
from referee.store.record_file import encode_record
from referee.engine.notation import InvalidReplayError, StoredGame, walk


def find_line(out_dir: str, game_id: str) -> dict[str, Any]:
    """``game_id``'s games.jsonl line, with its stage's ruleset and options filled in."""
    path = os.path.join(out_dir, "games.jsonl")
    if not os.path.exists(path):
        raise InvalidReplayError(f"{out_dir} has no games.jsonl: is it the output directory of an arena or "
                                 "`lastcard match --out`?")
    # Only the lines holding the id's text are parsed (a built-in game's record is read through here: the
    # last of 3,000 games took 75 ms parsing every line before it); an id written escaped is found below.
    needle = game_id.encode()
    with open(path, "rb") as fh:
        for raw in fh:
            if needle in raw and raw.endswith(b"\n"):
                try:
                    line = json.loads(raw)
                except ValueError:
                    break  # not JSON: the scan below says where
                if line.get("game") == game_id:
                    return complete_line(line, game_defaults(read_results(out_dir)))
    for _, line in read_jsonl(path):
        if line.get("game") == game_id:
            return complete_line(line, game_defaults(read_results(out_dir)))
    raise InvalidReplayError(f"no game {game_id!r} in {path}")


def bot_limits(out_dir: str) -> dict[str, dict[str, Any]]:
    """Each bot's spec as arena.json has it (name -> ``BotSpec.to_json``); ``{}`` when there is none."""
    try:
        with open(os.path.join(out_dir, "arena.json"), encoding="utf-8") as fh:
            bots = json.load(fh).get("arena", {}).get("bots") or []
    except (OSError, ValueError, AttributeError):
        return {}
    out = {}
    for entry in bots:
        spec = entry.get("spec", entry) if isinstance(entry, dict) else {}
        if isinstance(spec, dict) and "name" in spec:
            out[str(spec["name"])] = spec
    return out


def load(source: str, game_id: str | None = None) -> SourceGame:
    """The game ``game_id`` of the results directory ``source``, or the game in the record file ``source``."""
    if os.path.isdir(source):
        if game_id is None:
            raise InvalidReplayError(f"{source} is a results directory: name a game in it, e.g. "
                                     f"`lastcard replay {source} {_first_id(source) or 'g0001'}`")
        return _from_dir(source, game_id)
    if not os.path.exists(source):
        raise InvalidReplayError(f"no such file or directory: {source!r} (give a results directory and a game id, "
                                 "or a record file records/GAME.jsonl)")
    return _from_record(source, None)


def _first_id(out_dir: str) -> str | None:
    path = os.path.join(out_dir, "games.jsonl")
    if os.path.exists(path):
        for _, line in read_jsonl(path):
            return str(line.get("game"))
    return None


def _from_dir(out_dir: str, game_id: str) -> SourceGame:
    path = os.path.join(out_dir, "games.jsonl")
    record = os.path.join(out_dir, "records", f"{game_id}.jsonl")
    if not os.path.exists(path):
        if os.path.exists(record):
            return _from_record(record, out_dir)
        raise InvalidReplayError(f"{out_dir} has no games.jsonl: is it the output directory of an arena or "
                                 "`lastcard match --out`?")
    found = None
    ids = []
    for number, line in read_jsonl(path):
        if line.get("game") == game_id:
            found = number, line
            break
        if len(ids) < 5:
            ids.append(str(line.get("game")))
    if found is None:
        raise InvalidReplayError(f"no game {game_id!r} in {path}; its games are named like {', '.join(ids) or '(none)'}")
    number, line = found
    line = complete_line(line, game_defaults(read_results(out_dir)))
    check_played(line)
    if "actions" not in line and os.path.exists(record):  # results from before games kept their actions
        return _from_record(record, out_dir)
    stored = StoredGame.from_json(line)
    return SourceGame(stored, line, _kept_events(out_dir, game_id, stored), out_dir, f"{path} line {number}")


def _kept_events(out_dir: str, game_id: str, stored: StoredGame) -> list[dict[str, Any]] | None:
    """The events of a game whose record the run kept (records: true, or a game with a fault), else None.

    A built-in game is kept as its games.jsonl line: its events are the engine's, as read back from a record.
    """
    kept = record_file.read_record(out_dir, game_id)
    if isinstance(kept, str):
        game = None
        for _, game, _action, _stand_in in walk(stored):
            pass
        assert game is not None
        return json.loads(encode_record([{"events": game.events}]))["events"]  # type: ignore[no-any-return]
    return next((entry["events"] for entry in kept or () if entry.get("t") == "events"), None)
