"""The compact game format: a game's actions as short text codes, and rebuilding the game from them.

A game is its seed, ruleset name and options, seating and the actions taken: ``Game(ruleset, n,
random.Random(seed))`` then ``game.apply(action, rng)`` for each action with the same generator
replays it card for card. The actions are written as space-separated tokens, about three bytes each:

    d            draw                      p           pass
    @r           name the colour red       t7          play teal 7
    t7.c7+       play teal 7 then coral 7, calling "last card"
    wr  w4b      play a Wild naming red, a Wild Draw Four naming blue
    rs  gr  bd   red Skip, green Reverse, blue Draw Two (ranks 0-10, s, r, d)

A colour is its first letter (t c a v for the compact deck, r y g b for the standard one). A trailing
``!`` marks an action that stood in for a bot after a fault (a replacement or the fallback): it does
not change the game, it lets a viewer show the turn where the fault happened.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Collection, Final, Iterator, Mapping, Sequence, cast

from referee.engine.actions import COLOUR, DRAW, DRAW_ACTION, PASS, PASS_ACTION, PLAY, Action, IllegalActionError
from referee.engine.cards import ALL_COLOURS, Card
from referee.engine.events import Event
from referee.engine.game import Game
from referee.engine.jsondata import JsonObject
from referee.engine.rules import RuleOptions, Ruleset, RulesetError, get_ruleset
from referee.errors import BAD_INPUT, LastcardError

_COLOUR_LETTER: Final = {c: c[0] for c in ALL_COLOURS}
_LETTER_COLOUR: Final = {c[0]: c for c in ALL_COLOURS}
assert len(_LETTER_COLOUR) == len(ALL_COLOURS), "colour initials must be distinct for the compact format"
_RANK_CODE: Final = {"skip": "s", "reverse": "r", "draw2": "d"}
_CODE_RANK: Final = {v: k for k, v in _RANK_CODE.items()}
#: The mark on an action that stood in for a faulting bot.
STAND_IN: Final = "!"


class InvalidReplayError(LastcardError, ValueError):
    """Compact action text that does not parse, or a stored game that cannot be rebuilt."""

    exit_code = BAD_INPUT


def _card_token(card: Card) -> str:
    if card.is_wild:
        return "w4" if card.rank == "wild4" else "w"
    return _COLOUR_LETTER[card.colour or ""] + _RANK_CODE.get(card.rank, card.rank)


#: Card -> its compact code, and back: built once so encoding and decoding are dictionary look-ups.
_TOKENS: Final = {card: _card_token(card) for card in (Card.from_code(code) for code in
                  [f"{c}:{r}" for c in ALL_COLOURS for r in [str(n) for n in range(11)] + ["skip", "reverse", "draw2"]]
                  + ["wild", "wild4"])}
_CARDS: Final = {token: card for card, token in _TOKENS.items()}


def encode_action(action: Action) -> str:
    """One action's compact code (``t7``, ``wr``, ``t7.c7+``, ``d``, ``p``, ``@g``)."""
    kind = action.kind
    if kind == PLAY:
        text = ".".join(_TOKENS[c] for c in action.cards)
        if action.colour is not None:
            # After a wild the colour letter follows directly; on a coloured card (never legal) it is explicit.
            text += ("" if action.cards[-1].is_wild else "=") + _COLOUR_LETTER[action.colour]
        return text + "+" if action.call else text
    if kind == DRAW:
        return "d"
    if kind == PASS:
        return "p"
    if kind == COLOUR:
        return "@" + _COLOUR_LETTER[action.colour or ""]
    raise InvalidReplayError(f"cannot encode action {action!r}: unknown kind {kind!r}")


#: Action object -> its code, by identity: the engine hands out the same few dozen action objects game after
#: game, so a game's codes are look-ups, not encodings (an action's own hash costs more than its ``id``).
#: Each entry keeps its action alive, so an ``id`` is never reused for another while cached.
ACTION_CODES: Final[dict[int, tuple[Action, str]]] = {}
_CODES_KEPT = 4096  # a bot's answers are new objects each time: the cache is emptied when it grows past this


def code_of(action: Action) -> str:
    """``encode_action(action)``, cached by the action's identity (``ACTION_CODES``)."""
    known = ACTION_CODES.get(id(action))
    if known is None or known[0] is not action:
        if len(ACTION_CODES) >= _CODES_KEPT:
            ACTION_CODES.clear()
        known = ACTION_CODES[id(action)] = (action, encode_action(action))
    return known[1]


def encode_actions(actions: Sequence[Action], stand_ins: Collection[int] = ()) -> str:
    """A game's actions as one compact string; indexes in ``stand_ins`` (fault stand-ins) get a ``!``."""
    if not stand_ins:
        codes = ACTION_CODES
        out = []
        for action in actions:
            known = codes.get(id(action))
            out.append(known[1] if known is not None and known[0] is action else code_of(action))
        return " ".join(out)
    marked = set(stand_ins)
    return " ".join(code_of(a) + STAND_IN if i in marked else code_of(a) for i, a in enumerate(actions))


@lru_cache(maxsize=65_536)  # a game repeats few codes: decoding each once makes rebuilding cheaper
def decode_action(token: str) -> Action:
    """The action for one compact code (a trailing ``!`` is ignored); raises ``InvalidReplayError``."""
    text = token[:-1] if token.endswith(STAND_IN) else token
    if text == "d":
        return DRAW_ACTION
    if text == "p":
        return PASS_ACTION
    try:
        if text.startswith("@"):
            if len(text) != 2:
                raise KeyError(text)
            return Action(COLOUR, colour=_LETTER_COLOUR[text[1]])
        call = text.endswith("+")
        if call:
            text = text[:-1]
        colour = None
        body, eq, named = text.partition("=")
        if eq:
            colour = _LETTER_COLOUR[named]
        parts = body.split(".")
        last = parts[-1]
        if last.startswith("w") and last not in _CARDS:  # a wild and the colour it names: wr, w4b
            colour = _LETTER_COLOUR[last[-1]]
            parts[-1] = last[:-1]
        cards = tuple(_CARDS[p] for p in parts)
    except (KeyError, IndexError):
        raise InvalidReplayError(
            f"invalid action code {token!r}: expected d, p, @ and a colour letter, or cards such as t7, rs, "
            f"wr, w4b joined by '.', maybe ending in '+' (colour letters: "
            f"{', '.join(f'{k}={v}' for k, v in _LETTER_COLOUR.items())})") from None
    return Action(PLAY, cards, colour, call)


def decode_actions(text: str) -> list[Action]:
    """The actions of a compact string made by ``encode_actions``."""
    out = []
    for i, token in enumerate(text.split()):
        try:
            out.append(decode_action(token))
        except InvalidReplayError as exc:
            raise InvalidReplayError(f"action {i}: {exc}") from None
    return out


def stand_in_turns(text: str) -> list[int]:
    """The indexes of the actions marked as fault stand-ins in a compact string."""
    return [i for i, token in enumerate(text.split()) if token.endswith(STAND_IN)]


# ---------------------------------------------------------------------------------------- rebuilding
@dataclass(frozen=True, slots=True)
class StoredGame:
    """What rebuilds a game: seed, ruleset and options, seating and the compact actions."""

    game: str
    seed: int
    ruleset: str
    options: RuleOptions
    seating: tuple[str, ...]
    actions: str

    @classmethod
    def from_json(cls, data: JsonObject) -> StoredGame:
        """From a games.jsonl line or a result (``actions`` a compact string or a list of wire actions)."""
        missing = [k for k in ("seed", "ruleset", "seating", "actions") if k not in data]
        if missing:
            raise InvalidReplayError(
                f"game {data.get('game', '?')!r} cannot be replayed: it has no {', '.join(missing)} "
                "(results written before games kept their actions; run the games again, or replay a record file)")
        actions = data["actions"]
        if not isinstance(actions, str):
            actions = encode_actions([Action.from_wire(a) if isinstance(a, dict) else a for a in actions])
        return cls(str(data.get("game", "?")), int(data["seed"]), str(data["ruleset"]), _options(data),
                   tuple(data["seating"]), actions)

    @classmethod
    def from_record(cls, lines: Sequence[Mapping[str, Any]]) -> StoredGame:
        """From a full message record (its ``game`` line and ``action`` lines; stand-ins marked by ``by``)."""
        head = next((line for line in lines if line.get("t") == "game"), None)
        if head is None:
            raise InvalidReplayError("the record has no 'game' line (seed, seating, ruleset): is it a game record?")
        acted = [line for line in lines if line.get("t") == "action"]
        actions = [Action.from_wire(line["action"]) for line in acted]
        marks = [i for i, line in enumerate(acted) if line.get("by") in ("replacement", "fallback")]
        return cls(str(head.get("game", "?")), int(head["seed"]), str(head["ruleset"]), _options(head),
                   tuple(head["seating"]), encode_actions(actions, marks))


def _options(data: Mapping[str, Any]) -> RuleOptions:
    """The stored options (checked when the game is rebuilt: ``ruleset_of``)."""
    return cast(RuleOptions, dict(data.get("options") or {}))


@dataclass(frozen=True, slots=True)
class Frame:
    """The table just before one action (or after the last): every hand, the piles, and what happened since."""

    turn: int
    """How many actions came before (the index of the action about to be taken)."""
    seat: int | None
    """The seat to act (``None`` once the game is over)."""
    phase: str
    hands: tuple[tuple[str, ...], ...]
    top: str
    colour: str | None
    direction: int
    draw_pile: int
    pending: int
    scores: tuple[int, ...]
    round: int
    events: tuple[Event, ...]
    """The engine's events since the previous frame (secrets included: the all-seeing view)."""
    action: Action | None
    """The action taken from here (``None`` in the last frame)."""
    stand_in: bool
    """Whether that action stood in for a faulting bot."""


def ruleset_of(stored: StoredGame) -> Ruleset:
    """The stored game's ruleset, or ``InvalidReplayError`` naming the game."""
    try:
        return get_ruleset(stored.ruleset, stored.options)
    except RulesetError as exc:
        raise InvalidReplayError(f"game {stored.game}: {exc}") from None


def walk(stored: StoredGame) -> Iterator[tuple[int, Game, Action | None, bool]]:
    """Replay ``stored`` through the engine: before each action, (its index, the game, the action, stand-in?).

    Every action is checked to be legal before it is applied; the last item is (count, game, None, False)
    with the game over. Raises ``InvalidReplayError`` at the first action the engine refuses.
    """
    rng = random.Random(stored.seed)
    game = Game(ruleset_of(stored), len(stored.seating), rng)
    actions = decode_actions(stored.actions)
    marked = set(stand_in_turns(stored.actions))
    for i, action in enumerate(actions):
        if game.over:
            raise InvalidReplayError(f"game {stored.game}: action {i} ({action}) comes after the game ended")
        try:
            game.check(action)
        except IllegalActionError as exc:
            raise InvalidReplayError(f"game {stored.game}: action {i} ({action}) by seat {game.current} "
                                     f"is not legal: {exc}") from None
        yield i, game, action, i in marked
        game.apply(action, rng)
    yield len(actions), game, None, False


def rebuild(stored: StoredGame, *, frames: bool = False) -> tuple[Game, list[Frame]]:
    """Replay ``stored`` through the engine; the game at its end and, if asked, the frame before each action."""
    out: list[Frame] = []
    seen = 0
    game: Game | None = None
    for i, game, action, stand_in in walk(stored):
        if frames:
            out.append(_frame(game, i, game.events[seen:], action, stand_in))
            seen = len(game.events)
    assert game is not None
    return game, out


def _frame(game: Game, turn: int, events: Sequence[Event], action: Action | None, stand_in: bool) -> Frame:
    return Frame(turn, None if game.over else game.current, game.phase,
                 tuple(tuple(c.code for c in h) for h in game.hands), game.top.code, game.colour, game.direction,
                 len(game.draw_pile), game.pending, tuple(game.scores), game.round, tuple(events), action, stand_in)
