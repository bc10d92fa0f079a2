"""``replay --from K --play``: a stored game played on from turn K with another bot in one seat.

The stored moves before K are played as they were, every seat still being asked (answers discarded),
so each bot and built-in player has the history it had; from K on the seats play. The others are
played by their original players: built-ins exactly (same seed, same seat, same draws of their
generator), process bots by the command given for their seat or the one the stored arena names.
The game keeps its id and seed, and is written as a results folder of one game (games.jsonl, the record
file, logs/: see ``results_dir``), so ``lastcard replay`` and ``lastcard report`` show it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Mapping

from referee.bots.pool import BotPool
from referee.bots.spec import BUILTIN_PREFIX, BotSpec, TimeLimits, parse_bot
from referee.engine.notation import InvalidReplayError, decode_actions, ruleset_of
from referee.players import BUILTINS
from referee.replay.seat_lines import check_seat, record_entries, stored_policy
from referee.store.game_source import SourceGame
from referee.store.notes_file import append_notes
from referee.store.record_file import append_record
from referee.store.results import GameLine, GameResult
from referee.store.results_dir import ResultsDir
from referee.table.policy import FaultPolicy
from referee.table.table import Recorder, Table, seat_for


@dataclass(frozen=True, slots=True)
class PlayedOn:
    """The game played on, and where it was written."""

    result: GameResult
    out_dir: str
    game: str


def stored_specs(source: SourceGame) -> dict[str, BotSpec]:
    """Bot name -> how the stored arena started it (``arena.json`` of the results folder), if it is there."""
    if source.out_dir is None:
        return {}
    doc = ResultsDir(source.out_dir).read_run() or {}
    bots = (doc.get("arena") or {}).get("bots") or []
    out = {}
    for bot in bots:
        try:
            out[bot["name"]] = BotSpec.from_json(bot)
        except (KeyError, TypeError, ValueError):
            continue
    return out


def seat_terms(source: SourceGame, seat: int) -> tuple[TimeLimits, int]:
    """The time limits and line limit the seat's bot had (the stored arena's), else the defaults."""
    spec = stored_specs(source).get(source.stored.seating[seat])
    return (spec.limits, spec.line_limit) if spec is not None else (TimeLimits(), BotSpec("", "").line_limit)


def _by_of(source: SourceGame) -> dict[int, str]:
    """Seat -> how its moves were recorded (``builtin``, ``bot``), from the record where there is one."""
    out: dict[int, str] = {}
    for entry in record_entries(source) or ():
        if entry.get("t") == "action" and entry.get("by") in ("builtin", "bot", "human"):
            out.setdefault(int(entry["seat"]), entry["by"])
    return out


def original_specs(source: SourceGame, given: Mapping[int, str], practice: bool = False) -> list[BotSpec]:
    """How to start the player of each seat: ``given`` commands, else the stored arena's, else a built-in by name.

    A given command keeps the seat's stored limits; ``practice`` takes the clocks off every process bot.
    """
    stored = source.stored
    arena = stored_specs(source)
    by = _by_of(source)
    out = []
    for seat, name in enumerate(stored.seating):
        known = arena.get(name)
        if seat in given:
            try:
                spec = replace(parse_bot(given[seat], known.limits if known else None), name=name)
            except ValueError as exc:
                raise InvalidReplayError(f"seat {seat}: {exc}") from None
        elif known is not None:
            spec = known
        else:
            builtin = name.split("#", 1)[0]
            if builtin not in BUILTINS or by.get(seat, "builtin") != "builtin":
                raise InvalidReplayError(
                    f"seat {seat} ({name}) was played by a bot whose command is not stored here (no arena.json "
                    f"names it): give it with --seat-cmd {seat}=COMMAND")
            spec = BotSpec(name, BUILTIN_PREFIX + builtin)
        out.append(replace(spec, limits=spec.limits.practice()) if practice and spec.builtin is None else spec)
    return out


def play_on(source: SourceGame, seat: int, start: int, player: BotSpec, others: list[BotSpec], out_dir: str,
            policy: str | None = None) -> PlayedOn:
    """Play the stored game on from action ``start`` with ``player`` in ``seat``; write it to ``out_dir``."""
    stored = source.stored
    check_seat(source, seat)
    actions = decode_actions(stored.actions)
    if not 0 <= start < len(actions):
        raise InvalidReplayError(f"turn {start} is not a turn of game {stored.game}: its turns are 0 to "
                                 f"{len(actions) - 1}")
    specs = list(others)
    specs[seat] = player
    names = [s.name for s in specs]
    if len(set(names)) != len(names):  # seat names tell seats apart in records and results
        specs[seat] = player = replace(player, name=f"{player.name}#new")
    game_id = stored.game  # bots see the game's id (some seed from it): the same game, played on
    folder = ResultsDir(out_dir)
    os.makedirs(folder.logs, exist_ok=True)
    recorder = Recorder()
    with BotPool(stderr_dir=folder.logs) as pool:
        seats = [seat_for(spec, pool) for spec in specs]
        table = Table(ruleset_of(stored), seats, stored.seed, game_id,
                      FaultPolicy.parse(policy or stored_policy(source)), recorder)
        game = table.start()
        for action in actions[:start]:
            table.step(forced=action)
        while not game.over:
            table.step()
        result = table.finish()
    # One game a folder, written as an arena writes its games (playing on again replaces it).
    append_record(out_dir, game_id, recorder.lines)
    if result.notes is not None:  # what the bots wrote, by turn: lastcard replay DIR2 GAME shows it
        append_notes(out_dir, [result.notes])
    folder.games_log.write([GameLine(result)])
    return PlayedOn(result, out_dir, game_id)


def outcome_line(result: GameResult) -> str:
    """How a game ended, in a line: places by seat, the reason and the winner."""
    places = result.placements
    names = result.seating
    ranked = sorted(range(len(places)), key=lambda s: places[s])
    text = ", ".join(f"{places[s]}. {names[s] if s < len(names) else s} (seat {s})" for s in ranked)
    forfeited = result.forfeited
    extra = f"; forfeited: seats {', '.join(map(str, forfeited))}" if forfeited else ""
    return f"{text} - {result.reason}, {result.decisions} turns{extra}"
