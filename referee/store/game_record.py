"""One game's record lines, wherever they come from: the run's record file, or rebuilt from games.jsonl.

``record_lines(out_dir, game_id)`` is the one way every reader (``replay --raw``, ``replay --ask``,
``check``, the report, the bots' reports) gets a game's record. A run keeps full records only when
asked (``records: true``, ``--records``) or for a game with a fault; for any other game the lines are
rebuilt here by replaying the game through the engine and the referee's own relay and request builder
(``Relay.lines``, ``turn_line``), so what each seat was sent comes out byte for byte as the table
wrote it. What a rebuild cannot know is marked by its absence: no ``at_ms`` or answer times, no ``in``
lines (what the bots wrote: only the actions they amount to), no start-up handshake. Two fields of a
``turn`` request depend on the bot process rather than the game: its ``id`` (numbered on from 1 over a
process's life, so it is the game's own count only in the process's first game) and the clock fields
(``time_left_ms``, ``bank_ms``: the limits with a full bank, as long as the bot did not dip into it).
"""

from __future__ import annotations

import json
import os
from typing import Any, Iterator, Mapping

from referee.engine.notation import InvalidReplayError, StoredGame, walk
from referee.protocol.messages import turn_line
from referee.protocol.relay import PublicWire, Relay
from referee.store import record_file
from referee.store.game_source import (
    SourceGame,
    _from_record,
    check_played,
    complete_line,
    game_defaults,
    read_jsonl,
    read_results,
)
from referee.store.record_file import encode_record
from referee.store.results import GameResult


def record_lines(out_dir: str, game_id: str) -> Iterator[dict[str, Any]]:
    """``game_id``'s record lines: as recorded when the run kept them, else rebuilt from games.jsonl.

    Raises ``InvalidReplayError`` when the directory has no such game.
    """
    recorded = read_record(out_dir, game_id)
    if recorded is not None:
        yield from recorded
        return
    line = find_line(out_dir, game_id)
    yield from rebuilt(_with_run_policy(out_dir, line), bot_limits(out_dir))


def is_recorded(out_dir: str, game_id: str) -> bool:
    """Whether the run kept ``game_id``'s full record (else ``record_lines`` rebuilds it)."""
    return read_record(out_dir, game_id) is not None


def told(out_dir: str, game_id: str, seat: int) -> Iterator[str]:
    """The lines ``seat`` was sent in ``game_id`` (its start-up handshake left out): recorded, else rebuilt; for a
    built-in player's seat, what a bot there would have been sent."""
    lines = [line for line in seat_lines(record_lines(out_dir, game_id), seat) if not line.startswith('{"type":"hello"')]
    if lines:
        yield from lines
        return
    line = _with_run_policy(out_dir, find_line(out_dir, game_id))
    yield from seat_lines(rebuilt(line, bot_limits(out_dir), every_seat=True), seat)


def _with_run_policy(out_dir: str, line: dict[str, Any]) -> dict[str, Any]:
    """The line with the run's fault policy (results.json's) when it does not carry its own: games.jsonl has
    none, and a rebuilt record's head must not say ``forfeit`` of a ``strikes`` run."""
    if "policy" in line:
        return line
    policy = read_results(out_dir).get("policy")
    return dict(line, policy=policy) if isinstance(policy, str) else line


def seat_lines(lines: Iterator[dict[str, Any]] | list[dict[str, Any]], seat: int) -> Iterator[str]:
    """The lines ``seat``'s bot was sent, in order, from a game's record lines."""
    for entry in lines:
        if entry.get("t") == "out" and entry.get("seat") == seat:
            yield str(entry["line"])


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


def rebuilt(line: Mapping[str, Any], specs: Mapping[str, Mapping[str, Any]], *, every_seat: bool = False
            ) -> Iterator[dict[str, Any]]:
    """The record the table would have written of the game on ``line`` (see the module's note); ``every_seat``:
    with the lines a bot would have been sent in the built-in players' seats too."""
    stored = StoredGame.from_json(dict(line))
    names = list(stored.seating)
    yield {"t": "game", "game": stored.game, "seed": stored.seed, "seating": names, "ruleset": stored.ruleset,
           "options": stored.options, "policy": line.get("policy", "forfeit")}
    sandbox = list(line.get("sandbox") or [None] * len(names))
    process = [i for i, name in enumerate(names)
               if every_seat or _is_process(specs.get(name), sandbox[i] if i < len(sandbox) else None)]
    relays = {i: Relay(i, stored.game, names, scores=[0] * len(names)) for i in process}
    asked = {i: 0 for i in process}
    wire = PublicWire()
    game = None
    for _, game, action, stand_in in walk(stored):
        if action is None:
            break
        seat = game.current
        relay = relays.get(seat)
        if relay is not None and not stand_in:
            limits = (specs.get(names[seat]) or {}).get("limits") or {}
            move_ms, bank_ms = int(limits.get("move_ms", 0)), int(limits.get("bank_ms", 0))
            asked[seat] += 1
            news = relay.lines(game, wire)
            request, _ = turn_line(game, seat, game.legal_actions(), asked[seat], move_ms + bank_ms, bank_ms)
            yield from _outs(seat, news + request)
        by = "fallback" if stand_in else ("bot" if relay is not None else "builtin")
        yield {"t": "action", "seat": seat, "action": action.to_wire(), "by": by, "ms": None}
    assert game is not None
    end = {k: line[k] for k in ("placements", "forfeited", "game_placements") if k in line}
    for seat, relay in relays.items():
        yield from _outs(seat, relay.lines(game, wire, end))
    yield {"t": "events", "events": game.events}
    yield {"t": "result", **{k: v for k, v in GameResult.from_json(line).to_json().items() if k != "wall_ms"}}


def _is_process(spec: Mapping[str, Any] | None, sandbox: str | None) -> bool:
    if spec is not None:
        return not str(spec.get("command", "")).startswith("builtin:")
    return sandbox is not None


def _outs(seat: int, data: bytes) -> Iterator[dict[str, Any]]:
    if not data:
        return
    for text in data.decode("utf-8", "replace").rstrip("\n").split("\n"):
        yield {"t": "out", "seat": seat, "line": text}


def read_record(out_dir: str, game_id: str) -> list[dict[str, Any]] | None:
    """``game_id``'s record lines when the run kept them (a built-in game's rebuilt as read back from the record
    file), or None when it kept none."""
    kept = record_file.read_record(out_dir, game_id)
    return _rebuilt(out_dir, game_id, kept) if isinstance(kept, str) else kept


def _rebuilt(out_dir: str, game_id: str, policy: str) -> list[dict[str, Any]] | None:
    """A built-in game's record rebuilt from its games.jsonl line, as read back from the record file would give
    it (through JSON); None when the line is missing (a run killed between the two: as if not recorded)."""
    try:
        line = find_line(out_dir, game_id)
        return [json.loads(encode_record([entry])) for entry in rebuilt(dict(line, policy=policy), bot_limits(out_dir))]
    except InvalidReplayError:
        return None


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
    ids: list[str] = []
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
    kept = read_record(out_dir, game_id)  # a full record (records: true, or a game with a fault): its events
    events = next((entry["events"] for entry in kept or () if entry.get("t") == "events"), None)
    return SourceGame(StoredGame.from_json(line), line, events, out_dir, f"{path} line {number}")
