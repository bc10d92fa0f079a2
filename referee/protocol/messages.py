"""Builders for the messages the referee sends (see protocol/PROTOCOL.md and protocol/schemas/)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NotRequired, TypedDict

from referee import PROTOCOL_VERSIONS
from referee.engine.cards import _BY_CODE, Card
from referee.engine.game import PHASE_DRAWN, event_for
from referee.protocol.wire import dumps

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


def hello_message(spec: BotSpec, seat: int) -> dict[str, object]:
    """``hello``: the protocol versions spoken, the bot's name and first seat, its time limits."""
    limits = spec.limits
    return {"type": "hello", "protocol": PROTOCOL_VERSIONS[-1], "versions": list(PROTOCOL_VERSIONS),
            "name": spec.name, "seat": seat,
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


#: Each card's code as a JSON string, by ``Card.index`` (what orjson writes for it).
_CARD_JSON: Final = [dumps(card.code).decode() for card in _BY_CODE.values()]
#: Other strings of a ``turn`` (colours, phases, penalty kinds) as JSON, made once each.
_STR_JSON: dict[str, str] = {}


def _card_json(card: Card) -> str:
    return _CARD_JSON[card.index] if card.index >= 0 else dumps(card.code).decode()


def _str_json(text: str | None) -> str:
    """``text`` as orjson writes it (``null`` for ``None``)."""
    if text is None:
        return "null"
    found = _STR_JSON.get(text)
    if found is None:
        found = dumps(text).decode()
        if len(_STR_JSON) < 1000:  # a few colours, phases and ranks: a bound in case some caller passes others
            _STR_JSON[text] = found
    return found


#: The decimal text of the numbers a ``turn`` mostly holds (counts, scores, limits), made once.
_NUMBERS: Final = [str(n) for n in range(4096)]


def _num(n: int) -> str:
    """``str(n)``, from the table where it is there."""
    return _NUMBERS[n] if 0 <= n < 4096 else str(n)


def _ints_json(values: list[int]) -> str:
    return ",".join([_num(v) for v in values])


def turn_head(game: Game, seat: int, request_id: int, time_left_ms: int, bank_ms: int) -> str:
    """``turn_fields`` as orjson encodes them, written out without building the dict, less the closing brace.

    The same text byte for byte (tests/protocol/test_relay.py compares them over every house): the keys in the
    same order, ints as ``str`` writes them, strings through orjson.
    """
    hands = game.hands
    drawn = game.drawn
    hand = ",".join([_card_json(card) for card in hands[seat]])
    counts = ",".join([_num(len(h)) for h in hands])
    return (f'{{"type":"turn","id":{request_id},"you":{_num(seat)},"hand":[{hand}],"top":{_card_json(game.top)},'
            f'"colour":{_str_json(game.colour)},"direction":{game.direction},"hands":[{counts}],'
            f'"scores":[{_ints_json(game.scores)}],"draw_pile":{_num(len(game.draw_pile))},'
            f'"discard_pile":{_num(len(game.discard) - 1)},"pending":{_num(game.pending)},'
            f'"pending_kind":{_str_json(game.pending_rank)},"move":{_num(game.move)},'
            f'"time_left_ms":{_num(time_left_ms)},"bank_ms":{_num(bank_ms)},'
            f'"has_drawn":{"true" if game.phase == PHASE_DRAWN else "false"},'
            f'"drawn":{"null" if drawn is None else _card_json(drawn)},"phase":{_str_json(game.phase)}')


#: An action's wire form around its request id, by ``id(action)`` (the action is kept, so the id stays its own).
_LEGAL_PARTS: dict[int, tuple[Action, bytes, bytes]] = {}
#: The engine reuses its action objects, so few are ever made; a bound in case some caller does not.
_LEGAL_PARTS_MAX = 50_000


class LegalLines:
    """Each legal answer's exact line beside its action: ``get`` finds the action a bot echoed.

    Compared in turn rather than hashed into a dict: a line is compared by its length first, so a look-up
    costs less than making the dict did, even for arcade's longest lists.
    """

    __slots__ = ("lines", "actions")

    def __init__(self, lines: list[bytes], actions: list[Action]) -> None:
        self.lines = lines
        self.actions = actions

    def get(self, line: bytes) -> Action | None:
        """The action whose line ``line`` is, byte for byte; ``None`` if none is."""
        lines = self.lines
        for i in range(len(lines)):
            if lines[i] == line:
                return self.actions[i]
        return None


def turn_line(game: Game, seat: int, legal: list[Action], request_id: int, time_left_ms: int,
              bank_ms: int) -> tuple[bytes, LegalLines]:
    """The ``turn`` request encoded, as ``turn_request`` would encode it, without building its dicts.

    Returns the line to send and each legal answer's exact bytes beside its action: a bot that echoes an
    element of ``legal`` (as bots are told to) is understood by comparing bytes instead of parsing and
    checking its answer.
    """
    rid = str(request_id).encode()
    parts = _LEGAL_PARTS
    wire: list[bytes] = []
    for action in legal:
        cached = parts.get(id(action))
        if cached is None:
            if len(parts) >= _LEGAL_PARTS_MAX:
                parts.clear()
            whole = dumps(action.to_wire(0))
            cut = whole.index(b'"id":0') + 5
            cached = parts[id(action)] = (action, whole[:cut], whole[cut + 1:])
        wire.append(cached[1] + rid + cached[2])
    head = turn_head(game, seat, request_id, time_left_ms, bank_ms).encode()
    return b"".join([head, b',"legal":[', b",".join(wire), b"]}\n"]), LegalLines(wire, legal)
