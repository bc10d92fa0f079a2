"""One game's record lines, wherever they come from: the run's record file, or rebuilt from games.jsonl.

``record_lines(out_dir, game_id)`` is the one way every reader (``replay --raw``, ``replay --ask``,
``check``, the report, the bots' reports) gets a game's record. A run keeps full records only when
asked (``records: true``, ``--records``) or for a game with a fault; for any other game the lines are
rebuilt here by playing the game again through the referee's own table (``scripted``), so what each
seat was sent comes out byte for byte as the table wrote it. What a rebuild cannot know is marked by
its absence: no ``at_ms`` or answer times, no ``in`` lines (what the bots wrote: only the actions they
amount to), no start-up handshake. Two fields of a ``turn`` request depend on the bot process rather
than the game: its ``id`` (numbered on from 1 over a process's life, so it is the game's own count only
in the process's first game) and the clock fields (``time_left_ms``, ``bank_ms``: the limits with a full
bank, as long as the bot did not dip into it).
"""

from __future__ import annotations

import json
from typing import Iterable, Iterator, Mapping, cast

from referee.bots.spec import TimeLimits
from referee.engine.jsondata import JsonObject
from referee.engine.notation import InvalidReplayError, StoredGame
from referee.replay.scripted import play_again
from referee.store import record_file
from referee.store.game_record import bot_limits, find_line
from referee.store.game_source import SourceGame
from referee.store.record_file import RecordEntry, encode_record
from referee.store.results import GameResult
from referee.store.results_dir import ResultsDir
from referee.table.policy import FaultPolicy
from referee.table.table import Recorder


def record_lines(out_dir: str, game_id: str) -> Iterator[RecordEntry]:
    """``game_id``'s record lines: as recorded when the run kept them, else rebuilt from games.jsonl.

    Raises ``InvalidReplayError`` when the directory has no such game.
    """
    recorded = read_record(out_dir, game_id)
    if recorded is not None:
        yield from recorded
        return
    line = find_line(out_dir, game_id)
    yield from rebuilt_record(_with_run_policy(out_dir, line), bot_limits(out_dir))


def is_recorded(out_dir: str, game_id: str) -> bool:
    """Whether the run kept ``game_id``'s full record (else ``record_lines`` rebuilds it)."""
    return read_record(out_dir, game_id) is not None


def told(out_dir: str, game_id: str, seat: int) -> Iterator[str]:
    """The lines ``seat`` was sent in ``game_id`` (its start-up handshake left out): recorded, else rebuilt; for a
    built-in player's seat, what a bot there would have been sent."""
    lines = [line for line in sent_lines(record_lines(out_dir, game_id), seat)
             if not line.startswith('{"type":"hello"')]
    if lines:
        yield from lines
        return
    line = _with_run_policy(out_dir, find_line(out_dir, game_id))
    yield from sent_lines(rebuilt_record(line, bot_limits(out_dir), every_seat=True), seat)


def sent_lines(lines: Iterable[RecordEntry], seat: int) -> Iterator[str]:
    """The lines ``seat``'s bot was sent, in order, from a game's record lines."""
    for entry in lines:
        if entry.get("t") == "out" and entry.get("seat") == seat:
            yield str(entry["line"])


def read_record(out_dir: str, game_id: str) -> list[RecordEntry] | None:
    """``game_id``'s record lines when the run kept them (a built-in game's rebuilt as read back from the record
    file), or None when it kept none."""
    kept = record_file.read_record(out_dir, game_id)
    return _rebuilt(out_dir, game_id, kept) if isinstance(kept, str) else kept


def rebuilt_record(line: JsonObject, specs: Mapping[str, JsonObject], *, every_seat: bool = False
                   ) -> Iterator[RecordEntry]:
    """The record the table would have written of the game on ``line`` (see the module's note); ``every_seat``:
    with the lines a bot would have been sent in the built-in players' seats too."""
    stored = StoredGame.from_json(dict(line))
    names = list(stored.seating)
    sandbox = list(line.get("sandbox") or [None] * len(names))
    speaking = [i for i, name in enumerate(names)
                if every_seat or _is_process(specs.get(name), sandbox[i] if i < len(sandbox) else None)]
    limits = [_limits(specs.get(name)) for name in names]
    record = Recorder()
    play_again(SourceGame(stored, dict(line), None, None, ""), limits, FaultPolicy.parse(line.get("policy")),
               speaking=speaking, record=record)
    for entry in record.lines:
        kind = entry["t"]
        if kind == "game":  # the game as stored (its own ruleset name and options), under the run's policy
            yield {"t": "game", "game": stored.game, "seed": stored.seed, "seating": names, "ruleset": stored.ruleset,
                   "options": stored.options, "policy": line.get("policy", "forfeit")}
        elif kind == "result":  # the stored result: its times, sandboxes and clocks are the run's
            yield cast(RecordEntry, {"t": "result", **{k: v for k, v in GameResult.from_json(line).to_json().items()
                                                       if k != "wall_ms"}})
        else:
            yield cast(RecordEntry, entry)


def _limits(spec: JsonObject | None) -> TimeLimits:
    """A seat's time limits as its requests' clock fields show them (none known: zero)."""
    limits = (spec or {}).get("limits") or {}
    return TimeLimits(move_ms=int(limits.get("move_ms", 0)), bank_ms=int(limits.get("bank_ms", 0)))


def _is_process(spec: JsonObject | None, sandbox: str | None) -> bool:
    if spec is not None:
        return not str(spec.get("command", "")).startswith("builtin:")
    return sandbox is not None


def _with_run_policy(out_dir: str, line: JsonObject) -> JsonObject:
    """The line with the run's fault policy (results.json's) when it does not carry its own: games.jsonl has
    none, and a rebuilt record's head must not say ``forfeit`` of a ``strikes`` run."""
    if "policy" in line:
        return line
    results = ResultsDir(out_dir).read_results()
    policy = results.get("policy") if results else None
    return dict(line, policy=policy) if isinstance(policy, str) else line


def _rebuilt(out_dir: str, game_id: str, policy: str) -> list[RecordEntry] | None:
    """A built-in game's record rebuilt from its games.jsonl line, as read back from the record file would give
    it (through JSON); None when the line is missing (a run killed between the two: as if not recorded)."""
    try:
        line = find_line(out_dir, game_id)
        return [json.loads(encode_record([entry])) for entry in rebuilt_record(dict(line, policy=policy),
                                                                                bot_limits(out_dir))]
    except InvalidReplayError:
        return None
