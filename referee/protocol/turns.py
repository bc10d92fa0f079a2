"""The ``turn`` request written out as bytes, and its legal answers known by their bytes.

The referee sends a ``turn`` at every decision, so it is not built as a dict and encoded: it is joined
once from byte fragments made ahead (each card's JSON, the numbers a turn mostly holds, each legal
action's JSON around its request id). The line is byte for byte what orjson makes of
``messages.turn_request`` (tests/protocol/test_relay.py compares them at every decision of every house;
tests/table/test_wire_tape.py hashes what bots read over whole games).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from referee.engine.cards import _BY_CODE, Card
from referee.engine.game import PHASE_DRAWN
from referee.protocol.wire import dumps

if TYPE_CHECKING:
    from referee.engine.actions import Action
    from referee.engine.game import Game

#: Each card's code as JSON, by ``Card.index`` (what orjson writes for it); and the same after a comma.
_CARD: Final = [dumps(card.code) for card in _BY_CODE.values()]
_CARD_AFTER: Final = [b"," + text for text in _CARD]
#: The decimal text of the numbers a ``turn`` mostly holds (counts, scores, limits); and after a comma.
_NUMBERS: Final = [str(n).encode() for n in range(4096)]
_NUMBERS_AFTER: Final = [b"," + text for text in _NUMBERS]
#: Other strings of a ``turn`` (colours, phases, penalty kinds) as JSON, made once each.
_TEXT: dict[str, bytes] = {}


def _card(card: Card) -> bytes:
    index = card.index
    return _CARD[index] if index >= 0 else dumps(card.code)


def _card_after(card: Card) -> bytes:
    index = card.index
    return _CARD_AFTER[index] if index >= 0 else b"," + dumps(card.code)


def _num(n: int) -> bytes:
    """``n`` as JSON (as ``str`` writes it), from the table where it is there."""
    return _NUMBERS[n] if 0 <= n < 4096 else str(n).encode()


def _num_after(n: int) -> bytes:
    return _NUMBERS_AFTER[n] if 0 <= n < 4096 else b"," + str(n).encode()


def _text(text: str | None) -> bytes:
    """``text`` as orjson writes it (``null`` for ``None``)."""
    if text is None:
        return b"null"
    found = _TEXT.get(text)
    if found is None:
        found = dumps(text)
        if len(_TEXT) < 1000:  # a few colours, phases and ranks: a bound in case some caller passes others
            _TEXT[text] = found
    return found


class _Answer:
    """A legal action's JSON split around its request id: ``head`` + id + ``tail`` (``after``: ``,`` + head)."""

    __slots__ = ("action", "head", "after", "tail", "size")

    def __init__(self, action: Action) -> None:
        whole = dumps(action.to_wire(0))
        cut = whole.index(b'"id":0') + 5
        self.action = action  # kept, so that its id stays its own while cached
        self.head = whole[:cut]
        self.after = b"," + self.head
        self.tail = whole[cut + 1:]
        #: The line's length less its id's.
        self.size = len(whole) - 1


#: Each action's ``_Answer`` by ``id(action)`` (the engine reuses its action objects, so few are ever made).
_ANSWERS: dict[int, _Answer] = {}
#: A bound in case some caller does not reuse its actions.
_ANSWERS_MAX = 50_000


def _answer(action: Action) -> _Answer:
    found = _ANSWERS.get(id(action))
    if found is None:
        if len(_ANSWERS) >= _ANSWERS_MAX:
            _ANSWERS.clear()
        found = _ANSWERS[id(action)] = _Answer(action)
    return found


class LegalLines:
    """Each legal answer's exact line, known without being built: ``get`` finds the action a bot echoed.

    A line is compared with an answer only when their lengths agree (the echo of the first one, as
    trivial bots send, costs one comparison).
    """

    __slots__ = ("rid", "answers")

    def __init__(self, rid: bytes, answers: list[_Answer]) -> None:
        self.rid = rid
        self.answers = answers

    def get(self, line: bytes) -> Action | None:
        """The action whose line ``line`` is, byte for byte; ``None`` if none is."""
        rid = self.rid
        size = len(line) - len(rid)
        for answer in self.answers:
            if answer.size == size and line == answer.head + rid + answer.tail:
                return answer.action
        return None


def turn_line(game: Game, seat: int, legal: list[Action], request_id: int, time_left_ms: int,
              bank_ms: int) -> tuple[bytes, LegalLines]:
    """The ``turn`` request encoded, as ``encode(messages.turn_request(...))`` would encode it, and each legal
    answer's exact bytes beside its action: a bot that echoes an element of ``legal`` (as bots are told to)
    is understood by comparing bytes instead of parsing and checking its answer."""
    rid = _num(request_id)
    hands = game.hands
    hand = hands[seat]
    out = [b'{"type":"turn","id":', rid, b',"you":', _num(seat), b',"hand":[']
    if hand:
        out.append(_card(hand[0]))
        for i in range(1, len(hand)):
            out.append(_card_after(hand[i]))
    out.append(b'],"top":')
    out.append(_card(game.top))
    out.append(b',"colour":')
    out.append(_text(game.colour))
    out.append(b',"direction":')
    out.append(_num(game.direction))
    out.append(b',"hands":[')
    out.append(_num(len(hands[0])))
    for i in range(1, len(hands)):
        out.append(_num_after(len(hands[i])))
    out.append(b'],"scores":[')
    scores = game.scores
    out.append(_num(scores[0]))
    for i in range(1, len(scores)):
        out.append(_num_after(scores[i]))
    out.append(b'],"draw_pile":')
    out.append(_num(len(game.draw_pile)))
    out.append(b',"discard_pile":')
    out.append(_num(len(game.discard) - 1))
    out.append(b',"pending":')
    out.append(_num(game.pending))
    out.append(b',"pending_kind":')
    out.append(_text(game.pending_rank))
    out.append(b',"move":')
    out.append(_num(game.move))
    out.append(b',"time_left_ms":')
    out.append(_num(time_left_ms))
    out.append(b',"bank_ms":')
    out.append(_num(bank_ms))
    drawn = game.drawn
    out.append(b',"has_drawn":true,"drawn":' if game.phase is PHASE_DRAWN else b',"has_drawn":false,"drawn":')
    out.append(b"null" if drawn is None else _card(drawn))
    out.append(b',"phase":')
    out.append(_text(game.phase))
    out.append(b',"legal":[')
    answers: list[_Answer] = []
    for k in range(len(legal)):
        answer = _answer(legal[k])
        answers.append(answer)
        out.append(answer.after if k else answer.head)
        out.append(rid)
        out.append(answer.tail)
    out.append(b"]}\n")
    return b"".join(out), LegalLines(rid, answers)
