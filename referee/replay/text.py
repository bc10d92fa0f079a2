"""A replayed game in readable form: the all-seeing view (every hand) or what one seat was told.

The seat's view is built with the referee's own message builders (``Relay`` and ``turn_request``), so
it shows exactly the information the bot had; only the request ids and clocks, which a replay cannot
know, are left out.
"""

from __future__ import annotations

import json
import os
from typing import Iterator, Mapping, Sequence, cast

from referee.engine.actions import Action
from referee.engine.cardfaces import colour_label, label
from referee.engine.describe import action_text, cards_text, describe_event, seat_name
from referee.engine.events import Event
from referee.engine.game import event_for
from referee.engine.jsondata import JsonObject
from referee.engine.notation import Frame, InvalidReplayError, StoredGame, rebuild, walk
from referee.protocol.faults import KILL_KINDS
from referee.protocol.messages import TurnMessage
from referee.protocol.relay import EndPatch, Relay
from referee.replay.locate import fault_turns, seat_of_turns
from referee.replay.notes_text import TurnNotes, notes_of
from referee.replay.requests import replayed_request
from referee.store.game_source import SourceGame

#: Fault kinds after which the referee stops the bot: it hears nothing more.
KILLED = frozenset(kind.value for kind in KILL_KINDS)


def header(source: SourceGame) -> list[str]:
    """Who played what: the game's id, rules, seed and seating."""
    s = source.stored
    seats = ", ".join(f"{i} {n}" for i, n in enumerate(s.seating))
    options = " ".join(f"{k}={v}" for k, v in s.options.items())
    return [f"game {s.game} · {s.ruleset} · seed {s.seed} · seats: {seats}", f"options: {options or '(preset)'}",
            f"from {source.where}"]


def render_all(source: SourceGame, styled: bool = False) -> Iterator[str]:
    """The all-seeing view: before every action, every hand; then the action, what its bot wrote then (stderr,
    log messages) and what followed."""
    names = source.stored.seating
    yield from header(source)
    faults = fault_turns(source)
    notes = TurnNotes(notes_of(source), names)
    _, frames = rebuild(source.stored, frames=True)
    for frame in frames:
        for ev in consequences(all_seeing_events(frame.events)):
            yield "    · " + describe_event(ev, names, styled)
        if frame.action is None:
            break
        yield ""
        yield _state_line(frame, names, styled)
        for seat, hand in enumerate(frame.hands):
            pointer = ">" if seat == frame.seat else " "
            yield f"  {pointer}{seat} {names[seat]:<12} ({len(hand):>2}) {cards_text(hand, styled)}"
        note = ""
        if frame.turn in faults:
            note = f"   <- FAULT: {faults[frame.turn]}"
        elif frame.stand_in:
            note = "   (played for a forfeited seat)"
        yield f"  => {seat_name(names, frame.seat)} {action_text(frame.action, styled)}{note}"
        yield from notes.lines(frame.turn, frame.seat)


def consequences(events: Sequence[Event]) -> list[Event]:
    """The events after an action, less the echo of the action itself (its play, a wild's colour)."""
    out = list(events)
    if out and out[0]["kind"] == "play":
        wild = out[0]["colour"] is not None and out[0]["cards"][-1].startswith("wild")
        del out[:2 if wild and len(out) > 1 and out[1]["kind"] == "colour" else 1]
    elif out and out[0]["kind"] == "colour" and len(events) == 1:
        del out[0]  # naming the opening colour
    return out


def _state_line(frame: Frame, names: Sequence[str], styled: bool) -> str:
    arrow = "clockwise" if frame.direction == 1 else "anticlockwise"
    pending = f" · pending penalty {frame.pending}" if frame.pending else ""
    return (f"turn {frame.turn} · round {frame.round} · {seat_name(names, frame.seat)} to act ({frame.phase}) · "
            f"top {label(frame.top, styled)} · colour {colour_label(frame.colour, styled)} · "
            f"draw pile {frame.draw_pile} · {arrow}{pending} · scores {list(frame.scores)}")


def render_seat(source: SourceGame, seat: int, styled: bool = False, raw: bool = False) -> Iterator[str]:
    """What ``seat`` was told: the messages it read before each of its turns, the request, its answer."""
    stored = source.stored
    names = list(stored.seating)
    if not 0 <= seat < len(names):
        raise InvalidReplayError(f"seat {seat} is not at this table: the seats are 0 to {len(names) - 1} "
                                 f"({', '.join(names)})")
    if raw and source.out_dir is not None and _in_results_dir(source):
        # A results directory's game: the lines the seat was sent, exactly (recorded, else rebuilt by the table).
        from referee.replay.record import told

        yield from told(source.out_dir, stored.game, seat)
        return
    if not raw:
        yield from header(source)
        yield f"the view of {seat_name(names, seat)}: what it was told, each request and its answer"
    yield from _seat_turns(source, seat, styled, raw)


def _seat_turns(source: SourceGame, seat: int, styled: bool, raw: bool) -> Iterator[str]:
    """The seat's game replayed: the messages it read before each of its turns, the request, its answer."""
    stored = source.stored
    names = list(stored.seating)
    relay = Relay(seat, stored.game, names, scores=[0] * len(names))
    faults = fault_turns(source)
    lost_at, killed = _forfeit_of(source, seat, faults)
    notes = TurnNotes(None if raw else notes_of(source), names, only=seat)  # its own notes: what it wrote
    asked = 0
    for i, game, action, stand_in in walk(stored):
        if action is not None and game.current != seat:
            continue
        if lost_at is not None and (action is None or i > lost_at):
            # A forfeited seat is asked nothing more; a killed bot is not even told the events.
            if killed:
                if not raw:
                    yield f"    (the bot was stopped at turn {lost_at}; the referee played the rest for it)"
                break
            if action is not None:
                for msg in relay.catch_up(game):
                    yield _shown(msg, names, styled, raw)
                if not raw:
                    yield f"  turn {i}: {action_text(action, styled)} (played for the forfeited seat)"
                continue
        end = _game_end(source) if action is None else None
        for msg in relay.catch_up(game, None, end):
            yield _shown(msg, names, styled, raw)
        if action is None:
            break
        asked += 1
        legal = game.legal_actions()
        # A replay cannot know the request id the bot saw: its count of the seat's requests stands in.
        request = replayed_request(game, seat, legal, asked)
        yield from _turn_lines(i, request, legal, action, stand_in, faults.get(i), styled, raw)
        yield from notes.lines(i, seat)


def _turn_lines(turn: int, request: TurnMessage, legal: Sequence[Action], action: Action, stand_in: bool,
                fault: str | None, styled: bool, raw: bool) -> Iterator[str]:
    """One request of the seat and its answer: as JSON lines (``raw``), else as text."""
    if raw:
        yield json.dumps(request)
        yield json.dumps({"answer": action.to_wire(), "turn": turn, "stand_in": stand_in})
        return
    yield ""
    yield from request_text(turn, request, legal, styled)
    note = f"   <- FAULT: {fault}; the referee played this for you" if fault is not None else ""
    yield f"  => {action_text(action, styled)}{note}"


def _in_results_dir(source: SourceGame) -> bool:
    """Whether the game was read from a results directory (not from a record file named alone)."""
    return source.out_dir is not None and os.path.isdir(source.out_dir) and not source.where.endswith(".jsonl")


def _game_end(source: SourceGame) -> EndPatch:
    """What the game's end message tells beyond the events: the places, forfeits and match places (those the
    stored line has: older lines lack the game's own places)."""
    line = source.line
    return cast(EndPatch, {k: line[k] for k in ("placements", "forfeited", "game_placements") if k in line})


def _forfeit_of(source: SourceGame, seat: int, faults: dict[int, str]) -> tuple[int | None, bool]:
    """The turn where ``seat`` forfeited (its last fault), and whether its bot was stopped there."""
    if source.result is None or seat not in source.result.forfeited:
        return None, False
    mine = source.result.faults_of(seat)
    turns = sorted(t for t in faults if _seat_of_fault(source, t) == seat)
    if not mine or not turns:
        return None, False
    return turns[-1], mine[-1].kind.value in KILLED


def _seat_of_fault(source: SourceGame, turn: int) -> int | None:
    return seat_of_turns(source, [turn]).get(turn)


def _shown(told: Mapping[str, object] | bytes, names: Sequence[str], styled: bool, raw: bool) -> str:
    msg: JsonObject = json.loads(told) if isinstance(told, bytes) else dict(told)  # read back as a bot reads it
    return json.dumps(msg) if raw else _message_text(msg, names, styled)


def _message_text(msg: JsonObject, names: Sequence[str], styled: bool) -> str:
    kind = msg.get("type")
    if kind == "start":
        return (f"    · start of round {msg['round']}: you are seat {msg['you']}; your hand "
                f"{cards_text(msg['hand'], styled)}; top {label(msg['top'], styled)}; scores {msg['scores']}")
    if kind in ("round_end", "game_end"):
        return "    · " + describe_event({"kind": kind, **msg}, names, styled)
    return "    · " + describe_event(msg, names, styled)


def all_seeing_events(events: Sequence[Event]) -> list[Event]:
    """Events with every secret shown (the all-seeing copy): each seat's secret merged in."""
    out = []
    for ev in events:
        # Only a deal and a draw hold secrets; a deal's hands are shown as hands, not merged.
        secret = ev.get("secret") if ev["kind"] == "draw" else None
        if not secret:
            out.append(ev)
            continue
        merged = event_for(ev, None)
        for part in secret.values():
            merged.update(part)
        out.append(cast(Event, merged))
    return out


def request_text(turn: int, request: TurnMessage, legal: Sequence[Action], styled: bool) -> Iterator[str]:
    """A request as ``replay --seat`` shows it: the table, the seat's hand, the legal answers numbered."""
    yield (f"turn {turn} · your turn ({request['phase']}) · top {label(request['top'], styled)} · colour "
           f"{colour_label(request['colour'], styled)} · hands {request['hands']} · draw pile "
           f"{request['draw_pile']}" + (f" · pending {request['pending']}" if request["pending"] else ""))
    yield f"  your hand: {cards_text(request['hand'], styled)}"
    yield "  legal: " + " | ".join(f"{n}) {action_text(a, styled)}" for n, a in enumerate(legal, 1))


def position_lines(stored: StoredGame, seat: int, styled: bool = False) -> Iterator[str]:
    """A game that stops at ``seat``'s turn, as ``replay --seat`` shows that turn: what the seat was told since
    its previous turn, then the request (a suite's position)."""
    names = list(stored.seating)
    relay = Relay(seat, stored.game, names, scores=[0] * len(names))
    asked = 0
    for i, game, action, _stand_in in walk(stored):
        if action is not None and game.current != seat:
            continue
        told = [_shown(msg, names, styled, False) for msg in relay.catch_up(game)]
        asked += 1
        if action is None:
            yield from told
            legal = game.legal_actions()
            yield from request_text(i, replayed_request(game, seat, legal, asked), legal, styled)
