"""Finding one stored game: by its id in a results directory, or in a record file.

A results directory is what ``lastcard arena`` and ``match --out`` write: ``games.jsonl`` (one line per
game, with its compact actions), ``results.json`` (the ruleset and options of a match, the stages of an
arena), ``records.jsonl.gz`` with the full records kept (see ``record_file``; ``records/GAME.jsonl`` in
results of earlier versions) and ``logs/`` with each bot's stderr. ``game_record.record_lines`` gives a
game's record lines whether kept or not.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Iterator

from referee.bots.names import stderr_log
from referee.engine.notation import InvalidReplayError, StoredGame

#: How much of a bot's stderr log a report or a replay shows.
STDERR_TAIL_LINES = 20
STDERR_TAIL_BYTES = 4000


@dataclass(frozen=True, slots=True)
class SourceGame:
    """A stored game, the result it was stored with, and where it came from."""

    stored: StoredGame
    result: dict[str, Any]
    """The games.jsonl line or the record's result line: what ``--verify`` compares the replay with."""
    events: list[dict[str, Any]] | None
    """The engine's events as recorded (record files only), compared event by event by ``--verify``."""
    out_dir: str | None
    where: str
    """A description of the source for messages (``results/x/games.jsonl line 12``)."""


def read_jsonl(path: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """The (line number, object) pairs of a JSON-lines file, skipping blank lines."""
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if line.strip():
                try:
                    yield number, json.loads(line)
                except json.JSONDecodeError as exc:
                    raise InvalidReplayError(f"{path} line {number} is not JSON ({exc.msg}): is it a game file?") \
                        from None


def read_results(out_dir: str) -> dict[str, Any]:
    """``results.json`` of a results directory (``{}`` while an arena is still running)."""
    path = os.path.join(out_dir, "results.json")
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as fh:
        results: dict[str, Any] = json.load(fh)
    return results


def game_defaults(results: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Stage name -> the ruleset and options its games were played with (``""``: a match's own)."""
    out: dict[str, dict[str, Any]] = {}
    if "ruleset" in results:
        out[""] = {"ruleset": results["ruleset"], "options": results.get("options") or {}}
    for stage in results.get("stages") or []:
        out[stage.get("name", "")] = {"ruleset": stage.get("ruleset"), "options": stage.get("options") or {}}
    return out


def complete_line(line: dict[str, Any], defaults: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A games.jsonl line with the ruleset and options its stage (or match) says, where the line has none."""
    if "ruleset" in line and "options" in line:
        return line
    base = defaults.get(line.get("stage") or "") or defaults.get("") or {}
    return {**base, **{k: v for k, v in line.items() if v is not None}}


def check_played(line: dict[str, Any]) -> None:
    """Raise ``InvalidReplayError`` for a game that was never played (its worker died, twice)."""
    if line.get("reason") == "lost":
        cause = next((f.get("message") for f in line.get("faults") or [] if f.get("message")), "its worker died")
        raise InvalidReplayError(f"game {line.get('game')} was not played, so there is nothing to replay: {cause}")


def stored_for(out_dir: str, line: dict[str, Any]) -> StoredGame:
    """The stored game of a games.jsonl line: its own actions, or its record file's when it has none."""
    check_played(line)
    if "actions" not in line:
        record = os.path.join(out_dir, "records", f"{line.get('game')}.jsonl")
        if os.path.exists(record):
            return StoredGame.from_record([entry for _, entry in read_jsonl(record)])
    return StoredGame.from_json(line)


def _from_record(path: str, out_dir: str | None) -> SourceGame:
    lines = [line for _, line in read_jsonl(path)]
    stored = StoredGame.from_record(lines)
    result = next((line for line in lines if line.get("t") == "result"), {})
    events = next((line["events"] for line in lines if line.get("t") == "events"), None)
    if out_dir is None:  # a record inside a results directory: its logs are next to it
        parent = os.path.dirname(os.path.dirname(os.path.abspath(path)))
        out_dir = parent if os.path.isdir(os.path.join(parent, "logs")) else None
    return SourceGame(stored, {k: v for k, v in result.items() if k != "t"}, events, out_dir, path)


def stderr_path(out_dir: str | None, bot: str) -> str:
    """Where ``bot``'s stderr log is in a results directory (named as ``BotPool`` names it)."""
    return stderr_log(os.path.join(out_dir or ".", "logs"), bot)


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
