"""Builders for the messages the referee sends (see protocol/PROTOCOL.md and protocol/schemas/)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import PROTOCOL_VERSIONS
from ..game import PHASE_DRAWN, Event, event_for

if TYPE_CHECKING:
    from ..actions import Action
    from ..game import Game
    from .spec import BotSpec


def hello_message(spec: BotSpec, seat: int) -> dict[str, Any]:
    """``hello``: the protocol versions spoken, the bot's name and first seat, its time limits."""
    limits = spec.limits
    return {"type": "hello", "protocol": PROTOCOL_VERSIONS[-1], "versions": list(PROTOCOL_VERSIONS),
            "name": spec.name, "seat": seat,
            "limits": {"startup_ms": limits.startup_ms, "move_ms": limits.move_ms, "bank_ms": limits.bank_ms,
                       "line_bytes": spec.line_limit}}


def start_message(game: Game, deal: Event, seat: int, game_id: str, names: list[str]) -> dict[str, Any]:
    """``start``: a round begins; everything about the table, and this seat's dealt hand."""
    rules = game.ruleset
    return {"type": "start", "game": game_id, "round": deal["round"], "ruleset": rules.house,
            "options": rules.options, "seats": [{"seat": i, "name": n} for i, n in enumerate(names)],
            "you": seat, "dealer": deal["dealer"], "hand": deal["secret"][seat]["hand"], "top": deal["top"],
            "colour": deal["colour"], "direction": 1, "scores": list(deal.get("scores", game.scores))}


def event_message(event: Event, seat: int) -> dict[str, Any]:
    """``event`` for play-by-play happenings; ``round_end``/``game_end`` for results."""
    kind = event["kind"]
    mine = event_for(event, seat)
    if kind in ("round_end", "game_end"):
        return {"type": kind, **{k: v for k, v in mine.items() if k != "kind"}}
    return {"type": "event", **mine}


def turn_request(game: Game, seat: int, legal: list[Action], request_id: int, time_left_ms: int,
                 bank_ms: int) -> dict[str, Any]:
    """``turn``: everything the seat may know, and every legal answer written out in full."""
    drawn = game.drawn
    return {
        "type": "turn", "id": request_id, "hand": [c.code for c in game.hands[seat]], "top": game.top.code,
        "colour": game.colour, "direction": game.direction, "hands": [len(h) for h in game.hands],
        "scores": game.scores, "draw_pile": len(game.draw_pile), "discard_pile": len(game.discard) - 1,
        "pending": game.pending, "pending_kind": game.pending_rank, "move": game.move,
        "time_left_ms": time_left_ms, "bank_ms": bank_ms, "has_drawn": game.phase == PHASE_DRAWN,
        "drawn": drawn.code if drawn is not None else None, "phase": game.phase,
        "legal": [a.to_wire(request_id) for a in legal],
    }
