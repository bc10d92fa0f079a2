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
from referee.engine.game import PHASE_DRAWN, PHASE_PLAY
from referee.protocol.wire import dumps

if TYPE_CHECKING:
    from referee.engine.actions import Action
    from referee.engine.game import Game

#: Each card's code as JSON, by ``Card.index`` (what orjson writes for it).
_CARD: Final = [dumps(card.code).decode() for card in _BY_CODE.values()]
#: The decimal text of the numbers a ``turn`` mostly holds (counts, scores, limits).
_NUMBERS: Final = [str(n) for n in range(4096)]
#: The fields of most turns that change least, written out whole: no penalty pending; nothing drawn, a card to play.
_NO_PENALTY: Final = '"pending":0,"pending_kind":null'
_PLAY_UNDRAWN: Final = '"has_drawn":false,"drawn":null,"phase":"play"'
#: Other strings of a ``turn`` (colours, phases, penalty kinds) as JSON, made once each.
_TEXT: Final[dict[str, str]] = {}


def _card(card: Card) -> str:
    index = card.index
    return _CARD[index] if index >= 0 else dumps(card.code).decode()


def _num(n: int) -> str:
    """``n`` as JSON (as ``str`` writes it), from the table where it is there."""
    return _NUMBERS[n] if 0 <= n < 4096 else str(n)


def _text(text: str | None) -> str:
    """``text`` as orjson writes it (``null`` for ``None``)."""
    if text is None:
        return "null"
    found = _TEXT.get(text)
    if found is None:
        found = dumps(text).decode()
        if len(_TEXT) < 1000:  # a few colours, phases and ranks: a bound in case some caller passes others
            _TEXT[text] = found
    return found


class _Scores:
    """The scores last written and their text: a game's scores change only at a round's end, so the text of
    the last ones serves most turns."""

    __slots__ = ("values", "text")

    def __init__(self) -> None:
        self.values: list[int] = []
        self.text = ""


_SCORES: Final = _Scores()


def _scores(values: list[int]) -> str:
    """``values`` as the items of a JSON list, as orjson writes them."""
    memo = _SCORES
    if values != memo.values:
        memo.values = list(values)
        memo.text = ",".join([_num(n) for n in values])
    return memo.text


class _Limits:
    """The time limits last written and their text: the same for a bot's every turn until its bank is drawn on."""

    __slots__ = ("move", "bank", "text")

    def __init__(self) -> None:
        self.move = -1
        self.bank = -1
        self.text = ""


_LIMITS: Final = _Limits()


def _limits(time_left_ms: int, bank_ms: int) -> str:
    memo = _LIMITS
    if time_left_ms != memo.move or bank_ms != memo.bank:
        memo.move, memo.bank = time_left_ms, bank_ms
        memo.text = f'"time_left_ms":{_num(time_left_ms)},"bank_ms":{_num(bank_ms)}'
    return memo.text


def _penalty(game: Game) -> str:
    """``pending`` and ``pending_kind``."""
    if game.pending == 0 and game.pending_rank is None:
        return _NO_PENALTY
    return f'"pending":{_num(game.pending)},"pending_kind":{_text(game.pending_rank)}'


def _phase(game: Game) -> str:
    """``has_drawn``, ``drawn`` and ``phase``."""
    drawn = game.drawn
    phase = game.phase
    if drawn is None and phase is PHASE_PLAY:
        return _PLAY_UNDRAWN
    return (f'"has_drawn":{"true" if phase is PHASE_DRAWN else "false"},'
            f'"drawn":{"null" if drawn is None else _card(drawn)},"phase":{_text(phase)}')


class _Answer:
    """A legal action's JSON split around its request id: ``head`` + id + ``tail``, as text to write (``after``:
    ``,`` + head) and as bytes to compare a bot's answer with."""

    __slots__ = ("action", "head", "after", "tail", "head_bytes", "tail_bytes", "size")

    def __init__(self, action: Action) -> None:
        whole = dumps(action.to_wire(0))
        cut = whole.index(b'"id":0') + 5
        self.action = action  # kept, so that its id stays its own while cached
        self.head_bytes = whole[:cut]
        self.tail_bytes = whole[cut + 1:]
        self.head = self.head_bytes.decode()
        self.after = "," + self.head
        self.tail = self.tail_bytes.decode()
        #: The line's length less its id's.
        self.size = len(whole) - 1


#: Each action's ``_Answer`` by ``id(action)`` (the engine reuses its action objects, so few are ever made).
_ANSWERS: Final[dict[int, _Answer]] = {}
#: A bound in case some caller does not reuse its actions.
_ANSWERS_MAX: Final = 50_000


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
            if answer.size == size and line == answer.head_bytes + rid + answer.tail_bytes:
                return answer.action
        return None


def turn_line(game: Game, seat: int, legal: list[Action], request_id: int, time_left_ms: int,
              bank_ms: int) -> tuple[bytes, LegalLines]:
    """The ``turn`` request encoded, as ``encode(messages.turn_request(...))`` would encode it, and each legal
    answer's exact bytes beside its action: a bot that echoes an element of ``legal`` (as bots are told to)
    is understood by comparing bytes instead of parsing and checking its answer.

    Text joined, then encoded once: joining bytes costs a buffer request per piece, several times a str's.
    """
    rid = _num(request_id)
    hands = game.hands
    answers: list[_Answer] = []
    wire: list[str] = []
    known = _ANSWERS
    for k in range(len(legal)):
        action = legal[k]
        found = known.get(id(action))
        answer = found if found is not None else _answer(action)
        answers.append(answer)
        wire.append(answer.after if k else answer.head)
        wire.append(rid)
        wire.append(answer.tail)
    line = (f'{{"type":"turn","id":{rid},"you":{_num(seat)},"hand":[{",".join([_card(c) for c in hands[seat]])}],'
            f'"top":{_card(game.top)},"colour":{_text(game.colour)},"direction":{_num(game.direction)},'
            f'"hands":[{",".join([_num(len(h)) for h in hands])}],'
            f'"scores":[{_scores(game.scores)}],"draw_pile":{_num(len(game.draw_pile))},'
            f'"discard_pile":{_num(len(game.discard) - 1)},{_penalty(game)},"move":{_num(game.move)},'
            f'{_limits(time_left_ms, bank_ms)},{_phase(game)},"legal":[{"".join(wire)}]}}\n')
    return line.encode(), LegalLines(rid.encode(), answers)
