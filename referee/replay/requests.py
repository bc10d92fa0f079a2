"""What a bot was asked, as a replay can show it: the request at a turn, a fault's request, and the
``replay --ask`` command that asks a bot of today the same.

Light on purpose (no bot process code): the report and the bots' reports format these strings.
"""

from __future__ import annotations

import json
import shlex
from typing import Any, Mapping, cast

from referee.engine.actions import Action
from referee.engine.game import Game
from referee.engine.jsondata import JsonObject
from referee.engine.notation import InvalidReplayError, walk
from referee.protocol.messages import TurnMessage, turn_request
from referee.replay.locate import turn_of_faults
from referee.replay.record import read_record
from referee.store.game_source import SourceGame, stored_for


def replayed_request(game: Game, seat: int, legal: list[Action], request_id: int) -> TurnMessage:
    """The turn request ``seat`` got in ``game``, built by the referee's own builder, without the clock fields:
    a replay cannot know the clock, so it leaves them out rather than guess."""
    request = turn_request(game, seat, legal, request_id, 0, 0)
    del request["time_left_ms"], request["bank_ms"]
    return request


def fault_request(out_dir: str, line: JsonObject, fault: Mapping[str, object]) -> tuple[int | None, str]:
    """The turn of a fault of the games.jsonl ``line`` and the request the bot got there, as one JSON line
    (or a note in brackets saying why there is none)."""
    kind, request_id = fault.get("request_type"), fault.get("request_id")
    if kind not in (None, "turn"):  # a hello has no id: say which message, not "request None"
        return None, f"(the {kind} message" + (f", request {request_id})" if request_id is not None else ")")
    try:
        stored = stored_for(out_dir, line)
        faults = line.get("faults") or []
        turns = turn_of_faults(SourceGame(stored, line, None, None, ""))
        turn = next((t for f, t in zip(faults, turns) if f is fault), None)
        if turn is None:
            return None, "(startup: the hello message)" if fault.get("kind") == "startup" else "(no request)"
        for i, game, _action, _stand_in in walk(stored):
            if i == turn:
                request_id = cast(int, fault.get("request_id") or 0)
                request = replayed_request(game, game.current, game.legal_actions(), request_id)
                return turn, json.dumps(request)
    except InvalidReplayError as exc:
        return None, f"(cannot be rebuilt: {exc})"
    return None, "(no request)"


def ask_command(source: str, game: str | None, seat: int, turn: int | None, command: str | None = None) -> str:
    """The ``replay --ask`` command that puts a bot of today where a stored fault happened.

    ``source`` is a results folder (with ``game``) or a record file; without ``turn`` (a failed start)
    every request is asked. ``command`` is the bot's (a placeholder when not known).
    """
    where = f"--turn {turn}" if turn is not None else "--all"
    game_arg = f" {shlex.quote(str(game))}" if game is not None else ""
    bot = shlex.quote(command) if command else '"YOUR BOT COMMAND"'
    return f"lastcard replay {shlex.quote(source)}{game_arg} --seat {seat} {where} --ask {bot}"


def request_line(out_dir: str, game_id: str, seat: int | None, request_id: Any) -> str | None:
    """The request a fault answered, from the game's record (a game with a fault keeps its record)."""
    record = read_record(out_dir, game_id) if request_id is not None else None
    if record is None:
        return None
    needle = f'"id":{request_id},'
    found = None
    for entry in record:
        line = entry.get("line", "")
        if entry.get("t") == "out" and entry.get("seat") == seat and needle in line and '"type":"turn"' in line:
            found = str(line)
    return found
