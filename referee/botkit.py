"""Write a Last Card bot in Python: the protocol handled, and the RL environment's observation and actions.

A bot is one function, ``choose(turn)``, that returns one element of ``turn.legal``::

    import botkit

    def choose(turn):
        return turn.legal[0]

    botkit.run(choose, name="my-bot")

``run`` speaks the whole protocol of protocol/PROTOCOL.md (``hello``/``ready``, every message, ``quit``,
end of input, flushing, errors to stderr). A ``Turn`` also carries ``observation`` and ``action_mask``:
exactly what ``referee.env`` gives a learner in that seat, so a policy trained there plays here unchanged
(``turn.answer_for(index)`` turns its choice back into an answer). The encoding is in docs/rl.md.

This file uses the standard library only and imports nothing else from ``referee``, so a bot can carry a
copy of it in its own folder (a sandboxed bot sees only its folder): ``python -m referee.botkit DIR``
writes one there. ``referee.env`` builds its observations and actions with this same file.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
import traceback
from functools import cache
from typing import IO, TYPE_CHECKING, Any, Callable, Mapping, Sequence, TypedDict, cast

if TYPE_CHECKING:  # typing has it from Python 3.11; the kit runs on the older Pythons a bot may have
    from typing import NotRequired

PROTOCOL = 1

#: Every rank a deck can have, in the observation's order (the compact deck has 2-10, the standard deck 0-9).
RANKS: tuple[str, ...] = tuple(str(n) for n in range(11)) + ("skip", "reverse", "draw2")
WILDS: tuple[str, ...] = ("wild", "wild4")
#: Deck -> (its four colours in order, its ranks, the most copies of one coloured card it ever holds).
DECKS: dict[str, tuple[tuple[str, ...], tuple[str, ...], Callable[[str], int]]] = {
    # Doubled for 5-6 players: two of each coloured card.
    "compact": (("teal", "coral", "amber", "violet"), RANKS[2:], lambda rank: 2),
    # One 0 per colour, two of everything else.
    "standard": (("red", "yellow", "green", "blue"), RANKS[:10] + RANKS[11:], lambda rank: 1 if rank == "0" else 2),
}
#: Card kinds in the observation: four colour slots (the deck's colours in order) of every rank, then the wilds.
KINDS = len(RANKS) * 4 + len(WILDS)
PHASES: tuple[str, ...] = ("play", "drawn", "colour", "over")
MAX_SEATS = 6
#: The observation's fields in order: (name, length). docs/rl.md explains each.
FIELDS: tuple[tuple[str, int], ...] = (
    ("hand", KINDS), ("top", KINDS), ("drawn", KINDS), ("colour", 4), ("phase", len(PHASES)), ("direction", 2),
    ("pending", 1), ("pending_kind", 2), ("seats", MAX_SEATS - 1), ("to_act", MAX_SEATS), ("hands", MAX_SEATS),
    ("scores", MAX_SEATS), ("draw_pile", 1), ("discard_pile", 1), ("move", 1),
)
OFFSETS: dict[str, int] = dict(zip((name for name, _ in FIELDS),
                                   itertools.accumulate((size for _, size in FIELDS), initial=0)))
SIZE = sum(size for _, size in FIELDS)
#: An action's features (``Encoding.action_features``): the kinds of the cards laid, the colour left, the kind.
ACTION_KINDS: tuple[str, ...] = ("draw", "pass", "colour", "play")
FEATURES = KINDS + 4 + len(ACTION_KINDS)

Key = tuple[object, ...]


class Answer(TypedDict):
    """An answer to a ``turn`` (an element of ``legal``; protocol/schemas/answer.json): its ``type``, the turn's
    ``id``, and for a play its ``cards``, the ``colour`` named and the last-card ``call``."""

    type: str
    id: NotRequired[int]
    cards: NotRequired[list[str]]
    colour: NotRequired[str | None]
    call: NotRequired[bool]


class TurnView(TypedDict):
    """The fields of a ``turn`` message the observation reads (protocol/schemas/turn.json)."""

    hand: list[str]
    top: str
    drawn: str | None
    colour: str | None
    phase: str
    direction: int
    hands: list[int]
    scores: list[int]
    draw_pile: int
    discard_pile: int
    """Sent since protocol v1 (read as 0 without it)."""
    pending: int
    pending_kind: str | None
    """Sent since protocol v1."""
    move: int


def answer_key(answer: Answer) -> Key:
    """What tells two answers apart: the kind, the cards (a stack's middle in code order) and a named colour.

    The ``id`` and the last-card ``call`` are not part of it: the legal list holds each play once, with the
    call already set as the rules ask.
    """
    kind = answer.get("type")
    if kind == "play":
        cards = tuple(answer.get("cards") or ())
        if len(cards) > 3:
            cards = (cards[0], *sorted(cards[1:-1]), cards[-1])
        return ("play", cards, answer.get("colour"))
    if kind == "colour":
        return ("colour", answer.get("colour"))
    return (kind,)


def _kind_index(colours: Sequence[str]) -> dict[str, int]:
    """Card code -> its slot among the ``KINDS``."""
    out = {f"{colour}:{rank}": slot * len(RANKS) + r for slot, colour in enumerate(colours)
           for r, rank in enumerate(RANKS)}
    out.update({wild: len(RANKS) * 4 + i for i, wild in enumerate(WILDS)})
    return out


def _stacks(colours: Sequence[str], rank: str, copies: int) -> list[tuple[str, ...]]:
    """Every multi-card play of ``rank``: (first, the middle in code order, last), each distinct once."""
    out = []
    for counts in itertools.product(range(copies + 1), repeat=len(colours)):
        if sum(counts) < 2:
            continue
        held = [c for c, k in zip(colours, counts) if k]
        for first in held:
            for last in held:
                if first == last and counts[colours.index(first)] < 2:
                    continue
                middle = [f"{c}:{rank}" for c, k in zip(colours, counts) for _ in range(k)]
                middle.remove(f"{first}:{rank}")
                middle.remove(f"{last}:{rank}")
                out.append((f"{first}:{rank}", *sorted(middle), f"{last}:{rank}"))
    return out


class Encoding:
    """One ruleset's numbers: the observation of a seat's turn, and a fixed index for every action it allows.

    The actions (the catalogue) are: draw, pass, naming each colour (only where a round can open on a Wild),
    every coloured card alone, each wild with each colour, then (with ``multi_play``) every stack of one
    rank. Each legal answer has exactly one index; indices never depend on the position or the seat count.
    """

    def __init__(self, deck: str, multi_play: bool, colour_phase: bool) -> None:
        if deck not in DECKS:
            raise ValueError(f"unknown deck {deck!r}; decks: {', '.join(DECKS)}")
        colours, ranks, copies = DECKS[deck]
        self.deck = deck
        self.colours = colours
        self.multi_play = multi_play
        self._kind = _kind_index(colours)
        answers: list[Answer] = [{"type": "draw"}, {"type": "pass"}]
        if colour_phase:
            answers += [{"type": "colour", "colour": c} for c in colours]
        answers += [{"type": "play", "cards": [f"{c}:{r}"]} for c in colours for r in ranks]
        answers += [{"type": "play", "cards": [w], "colour": c} for w in WILDS for c in colours]
        if multi_play:
            answers += [{"type": "play", "cards": list(stack)}
                        for r in ranks for stack in _stacks(colours, r, copies(r))]
        #: Index -> the answer it stands for, without ``id`` and ``call``.
        self.answers: tuple[Answer, ...] = tuple(answers)
        self._index = {answer_key(a): i for i, a in enumerate(answers)}
        assert len(self._index) == len(answers), "two catalogue entries share a key"

    @classmethod
    def for_options(cls, options: Mapping[str, object]) -> Encoding:
        """The encoding of a ruleset, from its options (``start.options``, or ``Ruleset.options``)."""
        return _encoding(cast(str, options["deck"]), bool(options["multi_play"]), options["opening"] == "family")

    def __len__(self) -> int:
        """How many actions the catalogue has (the size of the ``Discrete`` action space)."""
        return len(self.answers)

    def __repr__(self) -> str:
        return f"<Encoding {self.deck} deck, {len(self)} actions, observation of {SIZE}>"

    # ------------------------------------------------------------------ actions
    def index_of(self, answer: Answer) -> int:
        """The index of an answer (a ``legal`` element); ``ValueError`` for one the catalogue does not hold."""
        try:
            return self._index[answer_key(answer)]
        except (KeyError, TypeError):
            raise ValueError(f"{answer!r} is no action of this ruleset's catalogue ({self})") from None

    def action_mask(self, legal: Sequence[Answer]) -> list[int]:
        """1 at the index of every legal answer, 0 elsewhere."""
        mask = [0] * len(self.answers)
        index = self._index
        for answer in legal:
            mask[index[answer_key(answer)]] = 1
        return mask

    def describe(self, index: int) -> str:
        """An index in words: ``play red:7``, ``play wild (blue)``, ``draw``."""
        answer = self.answers[index]
        if answer["type"] == "play":
            text = "play " + " ".join(answer["cards"])
            return text + (f" ({answer['colour']})" if "colour" in answer else "")
        if answer["type"] == "colour":
            return f"colour {answer['colour']}"
        kind: str = answer["type"]
        return kind

    def action_features(self, index: int) -> list[int]:
        """Features of an action that mean the same in every ruleset (for policies over large catalogues).

        The count of each card kind laid (``KINDS``), the colour slot it leaves in play (a play or a named
        colour), and its kind (draw, pass, colour, play).
        """
        return list(self._features(index))

    @cache  # noqa: B019 - encodings live as long as the process (one per ruleset)
    def _features(self, index: int) -> tuple[int, ...]:
        answer = self.answers[index]
        out = [0] * FEATURES
        kind = answer["type"]
        out[KINDS + 4 + ACTION_KINDS.index(kind)] = 1
        colour = answer.get("colour")
        if kind == "play":
            for code in answer["cards"]:
                out[self._kind[code]] += 1
            last = answer["cards"][-1]
            colour = colour if last in WILDS else last.split(":", 1)[0]
        if colour is not None:
            out[KINDS + self.colours.index(colour)] = 1
        return tuple(out)

    # ------------------------------------------------------------------ observations
    def observation(self, turn: TurnView, you: int, acting: int | None = None) -> list[int]:
        """The observation vector of seat ``you`` from a ``turn`` message's fields (every entry a whole number).

        ``acting`` is the seat to act (``you`` when the turn is yours, as in every ``turn`` message); the
        environment passes another seat when it shows a seat the table between its turns.
        """
        obs = [0] * SIZE
        kind = self._kind
        for code in turn["hand"]:
            obs[kind[code]] += 1
        obs[KINDS + kind[turn["top"]]] = 1
        drawn = turn.get("drawn")
        if drawn is not None:
            obs[2 * KINDS + kind[drawn]] = 1
        colour = turn.get("colour")
        if colour is not None:
            obs[_COLOUR + self.colours.index(colour)] = 1
        obs[_PHASE + PHASES.index(turn["phase"])] = 1
        direction = turn["direction"]
        obs[_DIRECTION + (direction != 1)] = 1
        obs[_PENDING] = turn.get("pending") or 0
        pending_kind = turn.get("pending_kind")
        if pending_kind is not None:
            obs[_PENDING_KIND + (pending_kind == "wild4")] = 1
        hands = turn["hands"]
        n = len(hands)
        obs[_SEATS + n - 2] = 1
        scores = turn["scores"]
        acting = you if acting is None else acting
        for i in range(n):  # seats in the order they play from ``you``: 0 is you, 1 the next to play
            seat = (you + i * direction) % n
            obs[_HANDS + i] = hands[seat]
            obs[_SCORES + i] = scores[seat]
            if seat == acting:
                obs[_TO_ACT + i] = 1
        obs[_DRAW_PILE] = turn["draw_pile"]
        obs[_DISCARD_PILE] = turn.get("discard_pile") or 0
        obs[_MOVE] = turn["move"]
        return obs


_COLOUR, _PHASE, _DIRECTION = OFFSETS["colour"], OFFSETS["phase"], OFFSETS["direction"]
_PENDING, _PENDING_KIND, _SEATS = OFFSETS["pending"], OFFSETS["pending_kind"], OFFSETS["seats"]
_TO_ACT, _HANDS, _SCORES = OFFSETS["to_act"], OFFSETS["hands"], OFFSETS["scores"]
_DRAW_PILE, _DISCARD_PILE, _MOVE = OFFSETS["draw_pile"], OFFSETS["discard_pile"], OFFSETS["move"]


@cache
def _encoding(deck: str, multi_play: bool, colour_phase: bool) -> Encoding:
    return Encoding(deck, multi_play, colour_phase)


# ---------------------------------------------------------------------- the protocol
class TableView:
    """What the bot knows of the game it sits in, from ``start`` and the events since."""

    def __init__(self) -> None:
        self.you = 0
        self.game: str | None = None
        self.ruleset: str | None = None
        self.options: dict[str, object] = {}
        self.names: list[str] = []
        #: Every message of this game but the turns (``start``, ``event``, ``round_end``, ``game_end``), in order.
        self.history: list[dict[str, Any]] = []
        self.encoding: Encoding | None = None


#: The class's former name, kept so that bots written against it (``botkit.Table`` in an annotation) still run.
Table = TableView


class Turn:
    """One ``turn`` request: its fields, ``legal``, and the environment's ``observation`` and ``action_mask``."""

    def __init__(self, message: dict[str, Any], table: TableView) -> None:
        #: The message as read (its fields are also the turn's attributes).
        self.message = message
        self.table = table
        #: Every legal answer, complete (with the turn's id): return one of these.
        self.legal: list[Answer] = message["legal"]
        self._observation: list[int] | None = None
        self._mask: list[int] | None = None

    def __getattr__(self, name: str) -> Any:
        """The turn's own fields: ``turn.hand``, ``turn.top``, ``turn.hands``, ``turn.phase``, ..."""
        try:
            return self.__dict__["message"][name]
        except KeyError:
            raise AttributeError(f"a turn has no field {name!r}") from None

    @property
    def you(self) -> int:
        return self.table.you

    @property
    def encoding(self) -> Encoding:
        """This ruleset's encoding (from the ``start`` message's options)."""
        if self.table.encoding is None:
            raise ValueError("a turn came before any start message: the ruleset is unknown")
        return self.table.encoding

    @property
    def observation(self) -> list[int]:
        """This seat's observation, exactly as ``referee.env`` gives it (``numpy.asarray`` it for a policy)."""
        if self._observation is None:
            self._observation = self.encoding.observation(cast(TurnView, self.message), self.table.you)
        return self._observation

    @property
    def action_mask(self) -> list[int]:
        """1 at the index of each legal answer, as in ``referee.env``."""
        if self._mask is None:
            self._mask = self.encoding.action_mask(self.legal)
        return self._mask

    def index_of(self, answer: Answer) -> int:
        """The action index of an element of ``legal``."""
        return self.encoding.index_of(answer)

    def answer_for(self, index: int) -> Answer:
        """The element of ``legal`` that action ``index`` stands for; ``ValueError`` if it is not legal now."""
        for answer in self.legal:
            if self.encoding.index_of(answer) == index:
                return answer
        legal = [self.encoding.index_of(a) for a in self.legal]
        raise ValueError(f"action {index} is not legal in this turn; the legal indices are {legal}")


Choose = Callable[[Turn], Mapping[str, object]]


class Session:
    """The protocol's conversation without I/O: one message in, the lines to send out (pure, so it tests alone)."""

    def __init__(self, choose: Choose, name: str, *, ready: Mapping[str, object] | None = None,
                 on_message: Callable[[dict[str, Any], TableView], None] | None = None,
                 log: Callable[[str], None] | None = None) -> None:
        self.choose = choose
        self.name = name
        self.ready = dict(ready or {})
        self.on_message = on_message
        self.log = log or (lambda text: None)
        self.table = TableView()
        self.done = False

    def receive(self, msg: object) -> list[Mapping[str, object]]:
        """The answers to one message from the referee (``[]`` for information; ``done`` after ``quit``)."""
        if not isinstance(msg, dict):
            self.log(f"botkit: ignoring a message that is not an object: {msg!r:.80}")
            return []
        kind = msg.get("type")
        table = self.table
        out: list[Mapping[str, object]] = []
        if kind == "hello":
            table.you = msg.get("seat", 0)
            ready: dict[str, object] = {"type": "ready", "name": self.name, **self.ready}
            if msg.get("protocol", PROTOCOL) != PROTOCOL:  # a newer referee: ask for the version this kit speaks
                ready["protocol"] = PROTOCOL
            out.append(ready)
        elif kind == "start":
            if msg.get("round", 1) == 1 or msg.get("game") != table.game:
                table.history = []
            table.you = msg.get("you", table.you)
            table.game = msg.get("game")
            table.ruleset = msg.get("ruleset")
            table.options = msg.get("options") or {}
            table.names = [s.get("name", "") for s in msg.get("seats") or []]
            table.encoding = Encoding.for_options(table.options) if table.options else None
            table.history.append(msg)
        elif kind == "turn":
            out.append(self._answer(msg))
        elif kind == "quit":
            self.done = True
        elif kind == "error":
            self.log(f"botkit: the referee reports a fault ({msg.get('fault')}): {msg.get('message')}")
        elif kind in ("event", "round_end", "game_end"):
            table.history.append(msg)
        if self.on_message is not None and kind != "turn":
            self.on_message(msg, table)
        return out

    def _answer(self, msg: dict[str, Any]) -> Mapping[str, object]:
        legal: list[Answer] = msg.get("legal") or []
        if not legal:
            raise ValueError(f"turn {msg.get('id')} came with no legal answers")
        try:
            answer = self.choose(Turn(msg, self.table))
        except Exception:  # noqa: BLE001 - a bug in the bot must not lose the game: say it, play legal[0]
            self.log("botkit: choose() raised; answering legal[0]\n" + traceback.format_exc())
            return legal[0]
        if not any(answer is a or answer == a for a in legal):
            self.log(f"botkit: choose() returned {answer!r:.200}, not an element of turn.legal; answering legal[0]")
            return legal[0]
        return dict(answer)


def run(choose: Choose, name: str = "python-bot", *, ready: Mapping[str, object] | None = None,
        on_message: Callable[[dict[str, Any], TableView], None] | None = None,
        stdin: IO[str] | None = None, stdout: IO[str] | None = None, stderr: IO[str] | None = None) -> None:
    """Play as a bot until ``quit`` or the end of input: read the referee's lines, answer each ``turn``.

    ``ready`` adds fields to the ``ready`` answer (``author``, ``version``); ``on_message(msg, table)``
    sees every message but the turns (to seed a generator at a game's start, say).
    """
    if stdin is None:
        sys.stdin.reconfigure(encoding="utf-8", errors="replace")  # type: ignore[union-attr]
        sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    inp = stdin or sys.stdin
    out = stdout or sys.stdout
    err = stderr or sys.stderr

    def log(text: str) -> None:
        print(text, file=err, flush=True)  # never on stdout: that is the referee's

    session = Session(choose, name, ready=ready, on_message=on_message, log=log)
    for line in inp:
        line = line.strip()  # drops "\n" and a trailing "\r"
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            log(f"botkit: ignoring a line that is not JSON: {line[:80]!r}")
            continue
        for answer in session.receive(msg):
            out.write(json.dumps(answer, separators=(",", ":"), ensure_ascii=False) + "\n")
            out.flush()
        if session.done:
            return


def copy_to(folder: str) -> str:
    """Write a copy of this file into ``folder`` (a bot's own folder); its path."""
    os.makedirs(folder, exist_ok=True)
    target = os.path.join(folder, "botkit.py")
    with open(__file__, "rb") as src, open(target, "wb") as dst:
        dst.write(src.read())
    return target


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        print("usage: python -m referee.botkit BOT_FOLDER   (copies botkit.py into the bot's folder)", file=sys.stderr)
        sys.exit(2)
    print(copy_to(sys.argv[1]))
