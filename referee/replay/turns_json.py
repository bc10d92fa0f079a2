"""``lastcard replay DIR GAME --json``: a stored game as one JSON object, turn by turn, for a program to read.

Each turn a bot was asked: the seat, what it was told (the messages since its last request, then the ``turn``
request, as its bot read them: the record's lines, else the referee's rebuild, ``seat_lines``), the legal
answers in the compact notation ``--accept`` takes, its answer (and whether it was a stand-in for a fault) and
the debug notes it wrote at that turn (``notes.jsonl.gz``). The ``replay --ask`` and ``--save-position``
commands of each turn are there too, ready to run.
"""

from __future__ import annotations

import shlex
from typing import Any, Sequence

from referee.engine.notation import code_of
from referee.protocol.wire import loads
from referee.replay.notes_text import notes_of
from referee.replay.requests import ask_command
from referee.replay.seat_lines import SeatRequest, SeatScript, seat_script
from referee.store.game_record import bot_limits
from referee.store.game_source import SourceGame
from referee.store.notes import GameNotes

#: The version of this object's shape: a reader checks it.
FORMAT = 1


def game_json(source: SourceGame, seat: int | None, where: str, game_arg: str | None) -> dict[str, Any]:
    """The game as one JSON-ready object: its head (ids, rules, seats, places) and ``turns``, each turn a seat was
    asked, in the game's order (only ``seat``'s when given). ``where`` and ``game_arg``: the SOURCE and GAME the
    commands name, as the person gave them."""
    stored = source.stored
    seats = range(len(stored.seating)) if seat is None else [seat]
    scripts = [seat_script(source, s) for s in seats]
    notes = notes_of(source)
    commands = _commands(source)
    turns = sorted(((req, script) for script in scripts for req in script.requests), key=lambda rs: rs[0].turn)
    return {"format": FORMAT, "game": stored.game, "ruleset": stored.ruleset, "options": dict(stored.options),
            "seed": stored.seed, "seating": list(stored.seating), "placements": source.line.get("placements"),
            "recorded": {str(s.seat): s.recorded for s in scripts},
            "turns": [_turn(req, script, notes, where, game_arg, commands.get(script.name)) for req, script in turns],
            "early_notes": _notes(notes, None, [s.seat for s in scripts])}


def _commands(source: SourceGame) -> dict[str, str]:
    """Each program bot's command as the run stored it (a built-in cannot be asked: its seats get a placeholder)."""
    if source.out_dir is None:
        return {}
    specs = bot_limits(source.out_dir)
    return {name: str(spec["command"]) for name, spec in specs.items()
            if isinstance(spec.get("command"), str) and not str(spec["command"]).startswith("builtin:")}


def _turn(req: SeatRequest, script: SeatScript, notes: GameNotes | None, where: str, game: str | None,
          command: str | None) -> dict[str, Any]:
    answer = req.action
    return {"turn": req.turn, "seat": script.seat, "bot": script.name, "request_number": req.number,
            "told": [loads(line) for line in req.before.splitlines() if line.strip()],
            "request": req.request, "legal": [code_of(a) for a in req.legal],
            "answer": {"code": code_of(answer), "wire": dict(answer.to_wire()), "stand_in": req.stand_in},
            "notes": _notes(notes, req.turn, [script.seat]),
            "ask": ask_command(where, game, script.seat, req.turn, command),
            "save_position": save_command(where, game, script.seat, req.turn, reject=code_of(answer))}


def _notes(notes: GameNotes | None, turn: int | None, seats: Sequence[int]) -> list[dict[str, Any]]:
    if notes is None:
        return []
    return [{"seat": n.seat, "source": n.source, "text": n.text} for n in notes.at(turn) if n.seat in seats]


def save_command(where: str, game: str | None, seat: int, turn: int, *, reject: str | None = None,
                 accept: Sequence[str] = (), suite: str = "positions.yaml") -> str:
    """The ``replay --save-position`` command that adds the position at ``turn`` to a suite, the answer given
    rejected (or the ``accept`` ones passing)."""
    game_arg = f" {shlex.quote(game)}" if game is not None else ""
    judged = " ".join([*(f"--accept {shlex.quote(a)}" for a in accept),
                       *([f"--reject {shlex.quote(reject)}"] if reject and not accept else [])])
    return (f"lastcard replay {shlex.quote(where)}{game_arg} --seat {seat} --turn {turn} "
            f"--save-position {shlex.quote(suite)} {judged}").rstrip()
