"""``replay --ask`` and ``replay --from --play``: the stored game put to a bot of today, and shown."""

from __future__ import annotations

import json
import os
import shlex
from dataclasses import replace
from typing import Iterator, Sequence

import click

from referee.arena.contest import ContestStage, PlayedFormat
from referee.bots.spec import BotSpec, TimeLimits, parse_bot
from referee.cli.contest_option import format_lines
from referee.cli.sandbox_option import announce, with_mode
from referee.engine.cardfaces import colour_label, label
from referee.engine.describe import action_text, cards_text, seat_name
from referee.engine.rules import get_ruleset
from referee.replay.ask import Asked, AskRun, ask
from referee.replay.locate import fault_turns
from referee.replay.play_on import original_specs, outcome_line, play_on, seat_terms
from referee.replay.seat_lines import SeatRequest, check_seat, seat_script
from referee.store.game_source import SourceGame


def run_ask(found: SourceGame, seat: int, command: str, turn: int | None, as_json: bool, sandbox_mode: str | None,
            practice: bool, styled: bool, contest: ContestStage | None = None) -> Iterator[str]:
    """Ask the bot every request of the seat (up to ``turn``) and say what it answered; with ``contest``
    (``--arena``), under the contest's limits and sandbox, saying where the stored game is not its format."""
    check_seat(found, seat)
    limits, line_limit = seat_terms(found, seat)
    script = seat_script(found, seat, limits=limits)
    if turn is not None:
        script.at_turn(turn)  # a turn that is not the seat's: say so before starting anything
    if contest is not None:
        limits = contest.limits
        sandbox_mode = sandbox_mode or contest.sandbox.mode.value
    # The stored name, so the hello it reads is the one the seat's bot read.
    spec = _spec(command, script.name, limits.practice() if practice else limits, line_limit, sandbox_mode, "--ask")
    stored = found.stored
    said = format_lines(PlayedFormat(get_ruleset(stored.ruleset, dict(stored.options)), len(stored.seating),
                                     spec.limits, None, spec.sandbox.mode.value, None, 0, contest),
                        fix="ask it positions from the contest's own games (a results folder of its format)")
    for line in said:  # on stderr: with --json, stdout stays one JSON document
        click.echo(line, err=True)
    run = ask(script, spec, until_turn=turn)
    if as_json:
        yield json.dumps(run.to_json())
        return
    names = found.stored.seating
    source = "as recorded" if script.recorded else "rebuilt by the referee (request ids from 1, full clocks)"
    yield (f"game {script.game}: {seat_name(names, seat)} asked again with {command!r}; its lines {source}")
    if run.startup is not None:
        yield f"the bot did not start: {run.startup.kind.value}: {run.startup.message}"
        return
    if turn is not None:
        yield from _one_turn(run, turn, styled, found)
        return
    if not script.requests:  # its bot failed to start, or was stopped before its first turn
        yield ("the seat was sent no request in this game (its bot was stopped before its first turn); this bot "
               "started and answered hello" + (" and heard the game to its end" if script.tail else ""))
        return
    yield from _summary(run, styled)


def _spec(command: str, name: str | None, limits: TimeLimits, line_limit: int, sandbox_mode: str | None,
          option: str) -> BotSpec:
    """The bot to start, with the seat's stored limits (so its hello is the one the seat read)."""
    try:
        spec = replace(parse_bot(command, limits), line_limit=line_limit)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=option) from None
    if spec.builtin is not None and option == "--ask":
        raise click.BadParameter(f"{command!r} is a built-in player: --ask takes a bot's command line",
                                 param_hint=option)
    spec = with_mode(replace(spec, name=name) if name else spec, sandbox_mode)
    announce([spec])
    return spec


def _request_lines(req: SeatRequest, styled: bool) -> list[str]:
    msg = req.request
    head = (f"turn {req.turn} (request {req.number}, id {req.request_id}) · {msg['phase']} · top "
            f"{label(msg['top'], styled)} · colour {colour_label(msg['colour'], styled)} · hands {msg['hands']}"
            + (f" · pending {msg['pending']}" if msg.get("pending") else ""))
    legal = " | ".join(f"{n}) {action_text(a, styled)}" for n, a in enumerate(req.legal, 1))
    return [head, f"  hand: {cards_text(msg['hand'], styled)}", f"  legal: {legal}"]


def _answer_text(asked: Asked, styled: bool) -> str:
    if asked.fault is not None:
        return f"FAULT {asked.fault.kind.value}: {asked.fault.message}" + (
            f" (it wrote {asked.fault.line!r})" if asked.fault.line else "")
    if asked.action is not None:
        return action_text(asked.action, styled) + " (legal)"
    return f"{json.dumps(asked.answered_wire())} (ILLEGAL: not one of the legal answers)"


def _stored_text(req: SeatRequest, styled: bool, fault: str | None) -> str:
    text = action_text(req.action, styled)
    if req.stand_in:
        text += " (played for the bot after its fault" + (f": {fault}" if fault else "") + ")"
    return text


def _one_turn(run: AskRun, turn: int, styled: bool, found: SourceGame) -> Iterator[str]:
    asked = run.asked[-1] if run.asked else None
    if asked is None or asked.request.turn != turn:  # stopped earlier by a fault
        if asked is not None and asked.fault is not None:
            yield f"asking stopped before turn {turn}: at turn {asked.request.turn} (request id " \
                  f"{asked.request.request_id}) {_answer_text(asked, styled)}"
        return
    yield from _request_lines(asked.request, styled)
    width = 8
    yield f"  {'stored':<{width}} {_stored_text(asked.request, styled, _stored_fault(found, turn))}"
    yield f"  {'new':<{width}} {_answer_text(asked, styled)}"
    yield f"  {'same' if not asked.differs and asked.fault is None else 'differs'}"
    earlier = [a for a in run.asked[:-1] if a.fault is not None]
    for a in earlier:
        yield f"  (earlier, at turn {a.request.turn}: {_answer_text(a, styled)})"
    yield "  stderr while it answered:" + ("" if asked.stderr else " (nothing)")
    for line in (asked.stderr or "").splitlines()[-40:]:
        yield f"    {line}"


def _stored_fault(found: SourceGame, turn: int) -> str | None:
    return fault_turns(found).get(turn)


def _summary(run: AskRun, styled: bool) -> Iterator[str]:
    diffs, faults = run.differences, run.faults
    total = len(run.script.requests)
    stopped = f" of {total} (asking stopped at a fault)" if len(run.asked) < total else ""
    yield (f"asked {len(run.asked)} requests{stopped}: {len(diffs)} answered otherwise than stored"
           + (f", {sum(1 for a in diffs if not a.legal)} of them illegal" if diffs else "")
           + (f"; {len(faults)} faults" if faults else ""))
    for a in diffs:
        yield (f"  turn {a.request.turn} (id {a.request.request_id}): stored {action_text(a.request.action, styled)}, "
               f"new {_answer_text(a, styled)}")
    for a in faults:
        yield f"  turn {a.request.turn} (id {a.request.request_id}): {_answer_text(a, styled)}"


def run_play_on(found: SourceGame, seat: int, start: int, command: str, seat_cmds: Sequence[str], out: str | None,
                sandbox_mode: str | None, practice: bool) -> Iterator[str]:
    """Play the game on from turn ``start`` with ``command`` in ``seat``; say how it ended then and now."""
    check_seat(found, seat)
    given = _seat_cmds(seat_cmds, len(found.stored.seating))
    limits, line_limit = seat_terms(found, seat)
    player = _spec(command, None, limits.practice() if practice else limits, line_limit, sandbox_mode, "--play")
    given.setdefault(seat, command)  # the seat's own original command is not needed
    others = [with_mode(s, sandbox_mode) for s in original_specs(found, given, practice)]
    announce(others)
    out_dir = out or default_out(found, start)
    played = play_on(found, seat, start, player, others, out_dir)
    result = played.result
    yield f"game {found.stored.game} played on from turn {start} with {player.name} in seat {seat}"
    then = found.result
    yield f"  then: {outcome_line(then)}" if then is not None and then.placements else "  then: (not stored)"
    yield f"  now:  {outcome_line(result)}"
    for fault in result.faults:
        yield f"  fault: seat {fault.seat} ({fault.bot}): {fault.kind.value}: {fault.message}"
    yield f"written to {out_dir}: lastcard replay {shlex.quote(out_dir)} {played.game}"


def default_out(found: SourceGame, start: int) -> str:
    """``DIR/played-on/GAME-fromK`` next to the stored game."""
    base = found.out_dir or os.path.dirname(os.path.abspath(found.where))
    return os.path.join(base, "played-on", f"{found.stored.game}-from{start}")


def _seat_cmds(values: Sequence[str], seats: int) -> dict[int, str]:
    out: dict[int, str] = {}
    for text in values:
        head, sep, command = text.partition("=")
        if not sep or not head.strip().isdigit() or not command.strip():
            raise click.BadParameter(f"{text!r} is not SEAT=COMMAND (e.g. 2=\"python3 bots/old.py\")",
                                     param_hint="--seat-cmd")
        seat = int(head)
        if seat >= seats:
            raise click.BadParameter(f"seat {seat} is not at this table: its seats are 0 to {seats - 1}",
                                     param_hint="--seat-cmd")
        out[seat] = command.strip()
    return out
