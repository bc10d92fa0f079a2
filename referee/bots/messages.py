"""Builders for the messages the referee sends (see protocol/PROTOCOL.md and protocol/schemas/)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import PROTOCOL_VERSIONS
from ..game import PHASE_DRAWN, event_for
from .wire import dumps

if TYPE_CHECKING:
    from ..actions import Action
    from ..events import DealEvent, Event
    from ..game import Game
    from .spec import BotSpec


def hello_message(spec: BotSpec, seat: int) -> dict[str, Any]:
    """``hello``: the protocol versions spoken, the bot's name and first seat, its time limits."""
    limits = spec.limits
    return {"type": "hello", "protocol": PROTOCOL_VERSIONS[-1], "versions": list(PROTOCOL_VERSIONS),
            "name": spec.name, "seat": seat,
            "limits": {"startup_ms": limits.startup_ms, "move_ms": limits.move_ms, "bank_ms": limits.bank_ms,
                       "line_bytes": spec.line_limit, "clock": limits.clock.value}}


def start_message(game: Game, deal: DealEvent, seat: int, game_id: str, names: list[str]) -> dict[str, Any]:
    """``start``: a round begins; everything about the table, and this seat's dealt hand."""
    rules = game.ruleset
    return {"type": "start", "game": game_id, "round": deal["round"], "ruleset": rules.house,
            "options": rules.options, "seats": [{"seat": i, "name": n} for i, n in enumerate(names)],
            "you": seat, "dealer": deal["dealer"], "hand": deal["secret"][seat]["hand"], "top": deal["top"],
            "colour": deal["colour"], "direction": 1, "scores": list(game.scores)}


def event_message(event: Event, seat: int | None) -> dict[str, Any]:
    """``event`` for play-by-play happenings; ``round_end``/``game_end`` for results (``seat`` None: the
    public copy)."""
    kind = event["kind"]
    mine = event_for(event, seat)
    if kind in ("round_end", "game_end"):
        return {"type": kind, **{k: v for k, v in mine.items() if k != "kind"}}
    return {"type": "event", **mine}


def turn_fields(game: Game, seat: int, request_id: int, time_left_ms: int, bank_ms: int) -> dict[str, Any]:
    """``turn`` without its ``legal`` list: everything the seat may know."""
    drawn = game.drawn
    return {
        "type": "turn", "id": request_id, "you": seat, "hand": [c.code for c in game.hands[seat]], "top": game.top.code,
        "colour": game.colour, "direction": game.direction, "hands": [len(h) for h in game.hands],
        "scores": game.scores, "draw_pile": len(game.draw_pile), "discard_pile": len(game.discard) - 1,
        "pending": game.pending, "pending_kind": game.pending_rank, "move": game.move,
        "time_left_ms": time_left_ms, "bank_ms": bank_ms, "has_drawn": game.phase == PHASE_DRAWN,
        "drawn": drawn.code if drawn is not None else None, "phase": game.phase,
    }


def turn_request(game: Game, seat: int, legal: list[Action], request_id: int, time_left_ms: int,
                 bank_ms: int) -> dict[str, Any]:
    """``turn``: everything the seat may know, and every legal answer written out in full."""
    msg = turn_fields(game, seat, request_id, time_left_ms, bank_ms)
    msg["legal"] = [a.to_wire(request_id) for a in legal]
    return msg


#: An action's wire form around its request id, by ``id(action)`` (the action is kept, so the id stays its own).
_LEGAL_PARTS: dict[int, tuple[Action, bytes, bytes]] = {}
#: The engine reuses its action objects, so few are ever made; a bound in case some caller does not.
_LEGAL_PARTS_MAX = 50_000


def turn_line(game: Game, seat: int, legal: list[Action], request_id: int, time_left_ms: int,
              bank_ms: int) -> tuple[dict[str, Any], bytes, dict[bytes, Action]]:
    """The ``turn`` request encoded, as ``turn_request`` would encode it, without building its legal dicts.

    Returns the request's fields (all but ``legal``, for records), the line to send, and each legal
    answer's exact bytes -> its action: a bot that echoes an element of ``legal`` (as bots are told to)
    is understood with one dictionary look-up instead of parsing and checking its answer.
    """
    fields = turn_fields(game, seat, request_id, time_left_ms, bank_ms)
    rid = str(request_id).encode()
    parts = _LEGAL_PARTS
    known: dict[bytes, Action] = {}
    wire: list[bytes] = []
    for action in legal:
        cached = parts.get(id(action))
        if cached is None:
            if len(parts) >= _LEGAL_PARTS_MAX:
                parts.clear()
            whole = dumps(action.to_wire(0))
            cut = whole.index(b'"id":0') + 5
            cached = parts[id(action)] = (action, whole[:cut], whole[cut + 1:])
        data = cached[1] + rid + cached[2]
        wire.append(data)
        known[data] = action
    line = dumps(fields)[:-1] + b',"legal":[' + b",".join(wire) + b"]}\n"
    return fields, line, known
