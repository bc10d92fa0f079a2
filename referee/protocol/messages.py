"""Builders for the messages the referee sends (see protocol/PROTOCOL.md and protocol/schemas/)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NotRequired, TypedDict

from referee import PROTOCOL_VERSIONS
from referee.engine.game import PHASE_DRAWN, event_for

if TYPE_CHECKING:
    from referee.bots.spec import BotSpec
    from referee.engine.actions import Action, WireAction
    from referee.engine.events import DealEvent, Event
    from referee.engine.game import Game
    from referee.engine.rules import RuleOptions, Ruleset


class SeatName(TypedDict):
    """A seat of ``start.seats``: its index and its player's name."""

    seat: int
    name: str


class StartMessage(TypedDict):
    """``start`` (``protocol/schemas/start.json``): a round begins."""

    type: str
    game: str
    round: int
    ruleset: str
    options: RuleOptions
    seats: list[SeatName]
    you: int
    dealer: int
    hand: list[str]
    top: str
    colour: str | None
    direction: int
    scores: list[int]


class TurnMessage(TypedDict):
    """``turn`` (``protocol/schemas/turn.json``): a request for a decision; ``legal`` is left out by ``turn_fields``."""

    type: str
    id: int
    you: int
    hand: list[str]
    top: str
    colour: str | None
    direction: int
    hands: list[int]
    scores: list[int]
    draw_pile: int
    discard_pile: int
    pending: int
    pending_kind: str | None
    move: int
    time_left_ms: NotRequired[int]
    """Always sent; left out of a request a replay rebuilds (it cannot know the clock)."""
    bank_ms: NotRequired[int]
    has_drawn: bool
    drawn: str | None
    phase: str
    legal: NotRequired[list[WireAction]]


def seat_label(seat: int) -> str:
    """The neutral name a seat is told by at a table whose names are hidden: ``seat1`` for seat 0."""
    return f"seat{seat + 1}"


def seat_labels(seats: int) -> list[str]:
    """``seat_label`` of every seat of a table of ``seats``."""
    return [seat_label(i) for i in range(seats)]


def hello_message(spec: BotSpec, seat: int, name: str | None = None) -> dict[str, object]:
    """``hello``: the protocol versions spoken, the bot's name (``name``: the one it is told instead, a seat's
    label when names are hidden) and first seat, its time limits."""
    limits = spec.limits
    return {"type": "hello", "protocol": PROTOCOL_VERSIONS[-1], "versions": list(PROTOCOL_VERSIONS),
            "name": spec.name if name is None else name, "seat": seat,
            "limits": {"startup_ms": limits.startup_ms, "move_ms": limits.move_ms, "bank_ms": limits.bank_ms,
                       "line_bytes": spec.line_limit, "clock": limits.clock.value}}


#: A ruleset's options by the ruleset's identity (``Ruleset.options`` walks the dataclass's fields each time; a
#: run plays one ruleset, or a few, game after game). The entry keeps its ruleset alive, so an ``id`` is not
#: reused while cached.
_OPTIONS: dict[int, tuple[Ruleset, RuleOptions]] = {}


def ruleset_options(ruleset: Ruleset) -> RuleOptions:
    """``ruleset.options``, a dict of its own (the caller may change it), copied from the cached one."""
    known = _OPTIONS.get(id(ruleset))
    if known is None or known[0] is not ruleset:
        if len(_OPTIONS) >= 64:
            _OPTIONS.clear()
        known = _OPTIONS[id(ruleset)] = (ruleset, ruleset.options)
    return known[1].copy()


def start_message(game: Game, deal: DealEvent, seat: int, game_id: str, names: list[str]) -> StartMessage:
    """``start``: a round begins; everything about the table, and this seat's dealt hand."""
    rules = game.ruleset
    return {"type": "start", "game": game_id, "round": deal["round"], "ruleset": rules.house,
            "options": ruleset_options(rules), "seats": [{"seat": i, "name": n} for i, n in enumerate(names)],
            "you": seat, "dealer": deal["dealer"], "hand": deal["secret"][seat]["hand"], "top": deal["top"],
            "colour": deal["colour"], "direction": 1, "scores": list(game.scores)}


def event_message(event: Event, seat: int | None) -> dict[str, object]:
    """``event`` for play-by-play happenings; ``round_end``/``game_end`` for results (``seat`` None: the
    public copy)."""
    kind = event["kind"]
    mine = event_for(event, seat)
    if kind in ("round_end", "game_end"):
        return {"type": kind, **{k: v for k, v in mine.items() if k != "kind"}}
    return {"type": "event", **mine}


def turn_fields(game: Game, seat: int, request_id: int, time_left_ms: int, bank_ms: int) -> TurnMessage:
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
                 bank_ms: int) -> TurnMessage:
    """``turn``: everything the seat may know, and every legal answer written out in full."""
    msg = turn_fields(game, seat, request_id, time_left_ms, bank_ms)
    msg["legal"] = [a.to_wire(request_id) for a in legal]
    return msg
