"""The game engine: state and transitions for every ruleset, no I/O.

A ``Game`` is a whole match (one or more rounds, or one tender game). Randomness is never held by
the state: every call that may shuffle takes the caller's ``random.Random``, so a seed, a seating
and the moves replay a game card for card.

Every public happening is appended to ``Game.events`` as a plain dict with a ``kind``. What only
one seat may see (its dealt hand, the cards it drew) sits under ``"secret": {seat: {...}}``;
``event_for`` gives each seat its own copy.
"""

from __future__ import annotations

import _random
import enum
import random
from itertools import product
from typing import Any, Final, Sequence, TypeVar, cast

from referee.engine.actions import COLOUR, DRAW, DRAW_ACTION, PASS, PASS_ACTION, PLAY, Action, IllegalActionError
from referee.engine.cards import _BY_CODE, CARD_KINDS, DECK_COLOURS, DECKS, WILD4, Card
from referee.engine.events import DrawReason, Event, GameEndEvent
from referee.engine.outcome import EndReason, Outcome, OutcomeJson
from referee.engine.rules import HAND_SIZE, MAX_PLAYERS, Ruleset, check_players


class Phase(enum.StrEnum):
    """What the seat to act is asked for; the value is the ``turn`` message's ``phase``."""

    PLAY = "play"
    """A normal turn (or, with stacking, facing a pending penalty)."""
    DRAWN = "drawn"
    """Drew a playable card: play it or pass."""
    COLOUR = "colour"
    """``family``: name the colour of an opening Wild."""
    OVER = "over"
    """The game has ended; nobody acts."""


PHASE_PLAY: Final = Phase.PLAY
PHASE_DRAWN: Final = Phase.DRAWN
PHASE_COLOUR: Final = Phase.COLOUR
PHASE_OVER: Final = Phase.OVER


class _Plays:
    """Flyweight single-card plays, so legal-move generation allocates nothing for them."""

    def __init__(self) -> None:
        self._cache: dict[tuple[Card, str | None, bool], Action] = {}

    def get(self, card: Card, colour: str | None, call: bool) -> Action:
        key = (card, colour, call)
        action = self._cache.get(key)
        if action is None:
            action = self._cache[key] = Action(PLAY, (card,), colour, call)
        return action


_PLAYS: Final = _Plays()
_T = TypeVar("_T")
#: By ``Card.index``: the card's single-card plays in one situation, ``None`` where it does not play. A list, not a
#: dict keyed by card: legal-move generation asks it once per card in hand, at every turn.
_PlayTable = list[tuple[Action, ...] | None]
_OnTable = tuple[str | None, str, bool, bool]  # (colour in play, top rank, Wild Draw Four allowed, call)


class _Palette:
    """Per deck palette, a cache: situation on the table -> what plays (a ``_PlayTable``)."""

    __slots__ = ("colours", "by_key", "by_top")

    def __init__(self, colours: tuple[str, ...]) -> None:
        self.colours = colours
        self.by_key: dict[_OnTable, _PlayTable] = {}
        #: The usual situation, a coloured card on top in its own colour, without building a key: by
        #: ``4 * top.index + 2 * (Wild Draw Four allowed) + call``.
        self.by_top: list[_PlayTable | None] = [None] * (4 * CARD_KINDS)

    def table(self, key: _OnTable) -> _PlayTable:
        """What plays in situation ``key``."""
        plays = self.by_key.get(key)
        if plays is None:
            plays = self.by_key[key] = _plays_on(self.colours, key)
        return plays

    def on_top(self, top: Card, wd4_ok: bool, call: bool) -> _PlayTable:
        """What plays on ``top`` while the colour in play is its own (``None`` for a Wild: family's opening)."""
        if top.index < 0:  # a card made outside ``_BY_CODE`` has no slot of its own
            return self.table((top.colour, top.rank, wd4_ok, call))
        slot = 4 * top.index + 2 * wd4_ok + call
        plays = self.by_top[slot]
        if plays is None:
            plays = self.by_top[slot] = self.table((top.colour, top.rank, wd4_ok, call))
        return plays


_PALETTES: dict[tuple[str, ...], _Palette] = {}


def _playables(colours: tuple[str, ...]) -> _Palette:
    """The cache of what plays for one deck palette."""
    palette = _PALETTES.get(colours)
    if palette is None:
        palette = _PALETTES[colours] = _Palette(colours)
    return palette


def plays_on(card: Card, colour: str | None, rank: str | None, wild_draw_four_ok: bool) -> bool:
    """The matching rule: ``card`` plays on the table when it has the colour in play or the top card's rank,
    or is a Wild (a Wild Draw Four only while ``wild_draw_four_ok``). Every fast path asks this, never restates it."""
    if card.is_wild:
        return card.rank == "wild" or wild_draw_four_ok
    return card.colour == colour or card.rank == rank


def _plays_on(colours: tuple[str, ...], key: _OnTable) -> _PlayTable:
    """Every card that plays in situation ``key``, each with its single-card plays (a Wild once per colour)."""
    colour, rank, wd4_ok, call = key
    # One more slot, always None: a card made outside ``_BY_CODE`` (index -1) plays nowhere, as no dict had it.
    plays: _PlayTable = [None] * (CARD_KINDS + 1)
    for card in _BY_CODE.values():
        if plays_on(card, colour, rank, wd4_ok):
            plays[card.index] = _card_plays(card, colours, call)
    return plays


_CARD_PLAYS: dict[tuple[Card, tuple[str, ...], bool], tuple[Action, ...]] = {}


def _card_plays(card: Card, colours: tuple[str, ...], call: bool) -> tuple[Action, ...]:
    """One card's single-card plays, one tuple shared by every table it is in (fewer objects for the cache)."""
    key = (card, colours, call)
    plays = _CARD_PLAYS.get(key)
    if plays is None:
        plays = _CARD_PLAYS[key] = (tuple(_PLAYS.get(card, c, call) for c in colours) if card.is_wild
                                    else (_PLAYS.get(card, None, call),))
    return plays


#: ``random.Random``'s C base's ``seed``: what ``Random.seed`` (Python, in random.py) calls for a whole number.
_SEED: Final = _random.Random.seed


def seeded(rng: random.Random | None, seed: int) -> random.Random:
    """``rng.seed(seed)`` (``random.Random(seed)`` when ``rng`` is None), the same state, without random.py's Python.

    For a whole number, ``Random.seed`` checks the seed's type, calls its C base's ``seed`` and clears
    ``gauss_next``, and ``Random(seed)`` runs ``__init__`` to call it: done here directly for a plain
    ``random.Random`` (a seeding per game seat and one per table: a Python frame or two each). A
    subclass may seed differently, so it is asked.
    """
    if rng is None:
        rng = random.Random.__new__(random.Random)
    elif type(rng) is not random.Random:
        rng.seed(seed)
        return rng
    _SEED(rng, seed)
    setattr(rng, "gauss_next", None)  # noqa: B010 - not in Random's stubs; what Random.seed leaves: no Gaussian pending
    return rng


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n > 0``: the same draws (``_randbelow``'s ``getrandbits`` loop), without random.py's
    three Python calls, for a plain ``random.Random``; a subclass is asked."""
    if type(rng) is not random.Random:
        return rng.randrange(n)
    k = n.bit_length()
    bits = rng.getrandbits
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r


def shuffle(pile: list[_T], rng: random.Random) -> None:
    """Shuffle ``pile`` in place exactly as ``rng.shuffle`` would, about twice as fast.

    This is ``random.Random.shuffle`` with its ``_randbelow`` inlined (Fisher-Yates over ``getrandbits``),
    so a seed deals the same cards; deals and reshuffles are a noticeable share of a random game.
    """
    if type(rng) is not random.Random:  # a subclass may draw its numbers differently
        rng.shuffle(pile)
        return
    bits = rng.getrandbits
    for i in range(len(pile) - 1, 0, -1):
        k = (i + 1).bit_length()
        j = bits(k)
        while j > i:
            j = bits(k)
        pile[i], pile[j] = pile[j], pile[i]


_GroupPlays = tuple[tuple[Card, tuple[tuple[int, Action, Action], ...]], ...]
_GROUP_PLAYS: dict[tuple[Card, ...], _GroupPlays] = {}
_GROUP_PLAYS_LIMIT: Final = 100_000  # distinct rank groups remembered (2,000 random arcade games meet about 2,000)


def _group_plays(cards: tuple[Card, ...]) -> _GroupPlays:
    """Every multi-card play from one rank group (its cards in hand order), by first card, in canonical order.

    Each play comes as (how many cards follow the first, the play without the call, the play with it). The list
    depends on the group alone, so it is worked out once: arcade asks for it at nearly every turn.
    """
    plays = _GROUP_PLAYS.get(cards)
    if plays is not None:
        return plays
    group: dict[Card, int] = {}
    for card in cards:
        group[card] = group.get(card, 0) + 1
    by_first = []
    for first in group:
        rest = dict(group)
        rest[first] -= 1
        kinds = [c for c, k in rest.items() if k]
        found = []
        for counts in product(*(range(rest[c] + 1) for c in kinds)):
            size = sum(counts)
            if size == 0:
                continue
            chosen = [c for c, k in zip(kinds, counts) for _ in range(k)]
            for last in dict.fromkeys(chosen):
                middle = list(chosen)
                middle.remove(last)
                middle.sort(key=lambda c: c.code)
                played = (first, *middle, last)
                found.append((size, Action(PLAY, played, None, False), Action(PLAY, played, None, True)))
        by_first.append((first, tuple(found)))
    if len(_GROUP_PLAYS) >= _GROUP_PLAYS_LIMIT:
        _GROUP_PLAYS.clear()
    plays = _GROUP_PLAYS[cards] = tuple(by_first)
    return plays


#: (no call, call) -> {coloured card: its play alone}: the drawn card's play, without building a key.
_ALONE: Final = tuple({card: _PLAYS.get(card, None, call) for card in _BY_CODE.values() if not card.is_wild}
                      for call in (False, True))
_COLOUR_ACTIONS: Final = {c: Action(COLOUR, colour=c) for cs in DECK_COLOURS.values() for c in cs}


class _SeatEvents:
    """One seat's recurring events (its single-card plays, one-card draws, passes, skips, colours, calls), each
    made once and then shared by every game, in place of a new dict per move.

    Building a dict (and its ``cards`` list and ``secret``) per move, tracking it for the cyclic collector and
    freeing it with its game was about a third of a random game's time. A shared event is the same plain dict
    with the same keys in the same order, so its JSON, ``event_for`` and every reader are unchanged; events are
    read-only data (no reader changes one), which is what makes sharing them safe.
    """

    __slots__ = ("seat", "skip", "passes", "colours", "calls", "draws", "plays", "wilds")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.skip: dict[str, Any] = {"kind": "skip", "seat": seat}
        #: By ``kept``.
        self.passes = ({"kind": "pass", "seat": seat, "kept": False}, {"kind": "pass", "seat": seat, "kept": True})
        self.colours: dict[str, dict[str, Any]] = {}
        #: By ``by``.
        self.calls = {by: {"kind": "call", "seat": seat, "by": by} for by in ("player", "referee")}
        #: A turn's one-card draw, by ``Card.index``.
        self.draws: list[dict[str, Any] | None] = [None] * CARD_KINDS
        #: A coloured card's single play, by ``2 * drawn + call``, then ``Card.index``.
        self.plays: list[list[dict[str, Any] | None]] = [[None] * CARD_KINDS for _ in range(4)]
        #: A Wild's or Wild Draw Four's single play, by ``4 * drawn + 2 * call + (card is WILD4)``, then colour.
        self.wilds: list[dict[str, dict[str, Any]]] = [{} for _ in range(8)]

    def colour(self, colour: str) -> Event:
        event = self.colours.get(colour)
        if event is None:
            event = self.colours[colour] = {"kind": "colour", "seat": self.seat, "colour": colour}
        return cast(Event, event)

    def draw(self, card: Card) -> Event:
        if card.index < 0:  # a card made outside ``_BY_CODE``: no slot, a new event
            return cast(Event, {"kind": "draw", "seat": self.seat, "count": 1, "reason": "turn",
                                "secret": {self.seat: {"cards": [card.code]}}})
        event = self.draws[card.index]
        if event is None:
            seat = self.seat
            event = self.draws[card.index] = {"kind": "draw", "seat": seat, "count": 1, "reason": "turn",
                                              "secret": {seat: {"cards": [card.code]}}}
        return cast(Event, event)

    def play(self, card: Card, colour: str, call: bool, drawn: bool) -> Event:
        """The event of a one-card play (``drawn``: of the card just drawn)."""
        if card.is_wild:
            table = self.wilds[4 * drawn + 2 * call + (card is WILD4)]
            event = table.get(colour)
            if event is None:
                event = table[colour] = _play_event(self.seat, [card.code], colour, call, drawn)
            return cast(Event, event)
        if card.index < 0:  # a card made outside ``_BY_CODE``: no slot, a new event
            return cast(Event, _play_event(self.seat, [card.code], colour, call, drawn))
        row = self.plays[2 * drawn + call]
        found = row[card.index]
        if found is None:
            found = row[card.index] = _play_event(self.seat, [card.code], colour, call, drawn)
        return cast(Event, found)


def _play_event(seat: int, codes: list[str], colour: str, call: bool, drawn: bool) -> dict[str, Any]:
    if drawn:
        return {"kind": "play", "seat": seat, "cards": codes, "colour": colour, "call": call, "drawn": True}
    return {"kind": "play", "seat": seat, "cards": codes, "colour": colour, "call": call}


_SEAT_EVENTS: Final = [_SeatEvents(seat) for seat in range(MAX_PLAYERS)]
#: One Reverse played, by the new direction (shared like ``_SeatEvents``'s).
_REVERSE_ONE: Final[dict[int, Event]] = {d: {"kind": "reverse", "direction": d, "count": 1} for d in (1, -1)}


def _holds(cards: list[Card], card: Card) -> bool:
    """``card in cards``, by identity (cards are singletons): ``in`` would call the rich comparison per card."""
    for c in cards:  # noqa: SIM110 - a loop, not any() over a generator: compiled, it is faster
        if c is card:
            return True
    return False


def _remove(hand: list[Card], card: Card) -> None:
    """``hand.remove(card)`` by identity, for the same reason as ``_holds``: the first copy goes."""
    for i in range(len(hand)):
        if hand[i] is card:
            del hand[i]
            return
    raise ValueError(f"{card.code} is not in the hand")


def placements(values: Sequence[float], *, lower_is_better: bool) -> list[int]:
    """Standard competition places (1, 2, 2, 4) for one value per seat; equal values share a place."""
    sign = 1 if lower_is_better else -1
    keyed = [sign * v for v in values]
    return [1 + sum(1 for other in keyed if other < mine) for mine in keyed]


def acts_as_skip(rank: str, players: int) -> bool:
    """Rule: a Skip skips the next player, and so does a Reverse when only two play."""
    return rank == "skip" or (rank == "reverse" and players == 2)


class Game:
    """One match of Last Card between ``players`` seats under ``ruleset``."""

    __slots__ = ("ruleset", "n", "colours", "events", "scores", "round", "dealer", "hands", "draw_pile",
                 "discard", "top", "colour", "direction", "current", "phase", "pending", "pending_rank",
                 "drawn", "move", "passes", "over", "outcome", "_multi", "_stacking", "_auto_call",
                 "_restricted", "_tender", "_plays", "_move_limit", "_until_playable", "_logging")

    def __init__(self, ruleset: Ruleset, players: int, rng: random.Random, *, dealer: int | None = None,
                 log_events: bool = True) -> None:
        """``log_events`` false: ``events`` stays empty (nothing is built for it), for a caller that never reads
        it; the game, its draws from ``rng`` and its outcome are the same."""
        check_players(players)
        self.ruleset = ruleset
        self.n = players
        self.colours = DECK_COLOURS[ruleset.deck]
        self.events: list[Event] = []
        self._logging = log_events
        self.scores = [0] * players
        self.round = 0
        # Ruling 1: the first dealer comes from the game's seed.
        self.dealer = randbelow(rng, players) if dealer is None else dealer
        self.over = False
        self.outcome: Outcome | None = None
        self._multi = ruleset.multi_play
        self._stacking = ruleset.stacking
        self._auto_call = ruleset.last_card_call == "auto"
        self._restricted = ruleset.wild_draw_four == "restricted"
        self._tender = ruleset.end == "tender"
        self._move_limit = ruleset.move_limit
        self._until_playable = ruleset.draw_until_playable
        self._plays = _playables(self.colours)
        self._start_round(rng)

    @property
    def result(self) -> OutcomeJson | None:
        """The outcome as plain data (``Outcome.to_json()``), ``None`` until the game is over."""
        outcome = self.outcome
        return None if outcome is None else outcome.to_json()

    # ------------------------------------------------------------------ the deal
    def _start_round(self, rng: random.Random) -> None:
        self.round += 1
        n = self.n
        pile = DECKS[self.ruleset.deck](n)
        shuffle(pile, rng)
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        for _ in range(HAND_SIZE):
            for i in range(1, n + 1):  # one at a time, starting after the dealer
                self.hands[(self.dealer + i) % n].append(pile.pop())
        self.draw_pile = pile
        self.discard: list[Card] = []
        self.direction = 1
        self.pending = 0
        self.pending_rank: str | None = None
        self.drawn: Card | None = None
        self.move = 0
        self.passes = 0
        opening = self.ruleset.opening
        buried: list[str] = []
        while True:
            card = pile.pop()
            if card.is_wild and (opening != "family" or card.rank == "wild4"):
                # Ruling 3: a buried card goes back at a random place and the next card is turned.
                pile.insert(randbelow(rng, len(pile) + 1), card)
                buried.append(card.code)
                continue
            break
        self.discard.append(card)
        self.top = card
        self.colour = card.colour
        first = (self.dealer + 1) % n
        self.current = first
        self.phase = PHASE_PLAY
        if self._logging:
            self._deal_events(card, first, buried)
        if opening == "arcade":
            return  # an opening action card is only a card to match
        self._opening(card, first, rng)

    def _deal_events(self, card: Card, first: int, buried: list[str]) -> None:
        self.events.append({
            "kind": "deal", "round": self.round, "dealer": self.dealer, "top": card.code, "colour": card.colour,
            "first": first, "secret": {s: {"hand": [c.code for c in h]} for s, h in enumerate(self.hands)}})
        # Told after the deal so a seat hears of a round before anything happens in it.
        self.events.extend({"kind": "bury", "card": code} for code in buried)

    def _opening(self, card: Card, first: int, rng: random.Random) -> None:
        """What the turned card does before the first turn (family and compact openings)."""
        rank = card.rank
        n = self.n
        if rank == "wild":  # family: the first player names the colour, then plays
            self.phase = PHASE_COLOUR
        elif acts_as_skip(rank, n):
            self._log({"kind": "skip", "seat": first})
            self.current = (first + 1) % n
        elif rank == "reverse":
            self.direction = -1
            self._log({"kind": "reverse", "direction": -1, "count": 1})
            self.current = self.dealer
        elif rank == "draw2":
            self._log({"kind": "penalty", "seat": first, "count": 2, "card": card.code, "pending": False})
            self._take(first, 2, "penalty", rng)
            self._log({"kind": "skip", "seat": first})
            self.current = (first + 1) % n

    def _log(self, event: Event) -> None:
        """Keep ``event`` (unless the game logs none: ``log_events``)."""
        if self._logging:
            self.events.append(event)

    # ------------------------------------------------------------------ queries
    def _wild_draw_four_allowed(self) -> bool:
        """Rule: under ``restricted``, a Wild Draw Four plays only while the seat holds no card of the colour in
        play."""
        if self._restricted:
            colour = self.colour
            for c in self.hands[self.current]:
                if c.colour == colour:
                    return False
        return True

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act; wild plays once per colour, multi-plays in canonical order."""
        phase = self.phase
        hand = self.hands[self.current]
        # Arcade: a play leaving exactly one card carries the call in its legal form.
        call = not self._auto_call and len(hand) == 2
        if phase is PHASE_PLAY and not self.pending:  # a normal turn: most decisions, so checked first
            colour = self.colour
            top = self.top
            # The rule is asked only when it can matter: restricted, with a Wild Draw Four in hand.
            wd4_ok = not self._restricted or WILD4 not in hand or self._wild_draw_four_allowed()
            # The colour in play is the top card's own (the same string object, from the card): no key to build.
            # Anything else (a Wild on top, a colour named over the wire) takes the keyed table: the same plays.
            if colour is top.colour:
                plays = self._plays.on_top(top, wd4_ok, call)
            else:
                plays = self._plays.table((colour, top.rank, wd4_ok, call))
            out: list[Action] = []
            seen: list[Card] = []  # each distinct card once, in hand order; cheaper than dict.fromkeys(hand)
            for card in hand:
                found = plays[card.index]
                if found is not None and not _holds(seen, card):
                    seen.append(card)
                    if len(found) == 1:
                        out.append(found[0])
                    else:
                        out.extend(found)
            if self._multi:
                out += self._multi_plays(hand, plays, not self._auto_call)
            if self.draw_pile or len(self.discard) > 1 or self._tender:
                out.append(DRAW_ACTION)
            elif not out:
                out.append(PASS_ACTION)  # blocked: nothing plays, nothing to draw
            return out
        return self._other_phase_actions(phase, hand, call)

    def _other_phase_actions(self, phase: Phase, hand: list[Card], call: bool) -> list[Action]:
        """``legal_actions`` outside a normal turn: the game over, a colour to name, a drawn card, a penalty."""
        if phase is PHASE_OVER:
            return []
        colours = self.colours
        if phase is PHASE_COLOUR:
            return [_COLOUR_ACTIONS[c] for c in colours]
        if phase is PHASE_DRAWN:
            drawn = self.drawn
            assert drawn is not None
            if drawn.is_wild:
                out = self._single(drawn, colours, call)
                out.append(PASS_ACTION)
                return out
            return [_ALONE[call][drawn], PASS_ACTION]
        return self._answers(hand, colours, call)

    def _answers(self, hand: list[Card], colours: tuple[str, ...], call: bool) -> list[Action]:
        """Facing a pending (stacked) penalty: answer with the same rank, any colour, or take it."""
        out = []
        rank = self.pending_rank
        assert rank is not None  # a pending penalty has its rank
        for card in dict.fromkeys(hand):
            if card.rank == rank:
                out += self._single(card, colours, call)
        if self._multi:
            # Any colour of the pending rank leads a stack: the matching rule with no colour in play.
            key = (None, rank, False, call)
            out += self._multi_plays(hand, self._plays.table(key), not self._auto_call)
        out.append(DRAW_ACTION)
        return out

    def _single(self, card: Card, colours: tuple[str, ...], call: bool) -> list[Action]:
        if not card.is_wild:
            return [_PLAYS.get(card, None, call)]
        if card.rank == "wild4" and not self._wild_draw_four_allowed():
            return []
        return [_PLAYS.get(card, c, call) for c in colours]

    def _multi_plays(self, hand: list[Card], firsts: _PlayTable, callable_: bool) -> list[Action]:
        """Arcade stacks of two or more cards of one rank: distinct (first, middle multiset, last) only.

        The first card must be one of ``firsts``, the cards that play now (a table ``_plays_on`` built by the rule).
        """
        groups: dict[str, list[Card]] = {}
        for card in hand:
            if not card.is_wild:
                group = groups.get(card.rank)
                if group is None:
                    groups[card.rank] = [card]
                else:
                    group.append(card)
        out: list[Action] = []
        # A play of ``size`` cards after the first leaves ``left - size - 1``: exactly one needs the call.
        call_size = len(hand) - 2 if callable_ else -1
        for cards in groups.values():
            if len(cards) < 2:
                continue
            key = tuple(cards)
            for first, plays in _GROUP_PLAYS.get(key) or _group_plays(key):
                if firsts[first.index] is not None:
                    for size, plain, called in plays:
                        out.append(called if size == call_size else plain)
        return out

    def check(self, action: Action, legal: list[Action] | None = None) -> None:
        """Raise ``IllegalActionError`` (saying why) unless ``action`` is legal for the seat to act.

        ``legal`` may pass the list already generated for this position, to skip generating it again.
        """
        key = action.key
        if legal is None:
            legal = self.legal_actions()
        for a in legal:
            if a.key == key:
                return
        raise IllegalActionError(self._why_illegal(action, legal))

    def _why_illegal(self, action: Action, legal: list[Action]) -> str:
        if self.phase == PHASE_OVER:
            return "the game is over"
        kinds = sorted({a.kind for a in legal})
        if action.kind not in kinds:
            return f"{str(action.kind)!r} is not allowed now (phase {self.phase}); allowed: {', '.join(kinds)}"
        if action.kind == PLAY:
            return (self._missing_card(action.cards) or self._colour_problem(action)
                    or self._multi_problem(action.cards) or self._why_play_unmatched(action))
        return f"{action} is not legal here"

    def _missing_card(self, cards: tuple[Card, ...]) -> str | None:
        """Why a play is illegal when it names cards the seat does not hold (None if it holds them all)."""
        hand = self.hands[self.current]
        counts: dict[Card, int] = {}
        for c in hand:
            counts[c] = counts.get(c, 0) + 1
        for c in cards:
            counts[c] = counts.get(c, 0) - 1
            if counts[c] < 0:
                return f"{c.code} is not in your hand (hand: {' '.join(x.code for x in hand)})"
        return None

    def _colour_problem(self, action: Action) -> str | None:
        """Why a play's named colour (or its lack) is wrong for its last card, if it is."""
        last = action.cards[-1]
        if last.is_wild and action.colour is None:
            return f"a {last.code} needs a named colour: one of {', '.join(self.colours)}"
        if action.colour is not None and not last.is_wild:
            return f"a colour can only be named for a wild; the last card is {last.code}"
        if action.colour is not None and action.colour not in self.colours:
            return f"colour {action.colour!r} is not in this deck; name one of {', '.join(self.colours)}"
        return None

    def _multi_problem(self, cards: tuple[Card, ...]) -> str | None:
        """Why a multi-card play breaks the ruleset's multi-play rules, if it does."""
        if len(cards) <= 1:
            return None
        if not self._multi:
            return "this ruleset allows one card per play (option multi_play is off)"
        if any(c.is_wild for c in cards):
            return "a wild goes down alone, never in a multi-card play"
        if len({c.rank for c in cards}) > 1:
            return "the cards of a multi-card play must all have one number or symbol"
        return None

    def _why_play_unmatched(self, action: Action) -> str:
        """Why a well-formed play of held cards is still illegal here: the phase, a penalty or no match."""
        if self.phase == PHASE_DRAWN:
            return f"after drawing, only the drawn card {self.drawn.code if self.drawn else '?'} may be played"
        if self.pending:
            return (f"facing a pending {self.pending_rank} penalty of {self.pending}, "
                    f"you may only answer with a {self.pending_rank} or draw")
        first = action.cards[0]
        if first.rank == "wild4" and not self._wild_draw_four_allowed():
            return f"a Wild Draw Four may only be played when you hold no {self.colour} card"
        return f"{first.code} matches neither the colour in play ({self.colour}) nor the top card ({self.top.code})"

    # ------------------------------------------------------------------ transitions
    def apply(self, action: Action, rng: random.Random) -> None:
        """Play ``action`` for the seat to act. Trusts that it is legal: call ``check`` first for untrusted input."""
        # Phases and action kinds are compared by identity (enum members); ``Action`` and the position
        # builders turn strings into members, so a plain ``"draw"`` never reaches here.
        kind = action.kind
        if kind is PLAY:
            self._play(action, rng)
        elif kind is DRAW:
            self._draw_turn(rng)
        elif kind is PASS:
            self._pass(rng)
        elif kind is COLOUR:
            named = action.colour
            if named is None:  # pragma: no cover - Action.from_wire refuses it, and it is never legal
                raise IllegalActionError("a colour action must name a colour")
            self.colour = named
            self._log(_SEAT_EVENTS[self.current].colour(named))
            self.phase = PHASE_PLAY
        else:  # pragma: no cover - Action.from_wire refuses other kinds
            raise IllegalActionError(f"unknown action kind {kind!r}")

    def _next(self, seat: int, steps: int = 1) -> int:
        return (seat + steps * self.direction) % self.n

    def _play(self, action: Action, rng: random.Random) -> None:
        seat = self.current
        hand = self.hands[seat]
        cards = action.cards
        if len(cards) == 1:
            last = cards[0]
            _remove(hand, last)
            self.discard.append(last)
        else:
            for card in cards:
                _remove(hand, card)
            self.discard.extend(cards)
            last = cards[-1]
        self.top = last
        colour = action.colour if last.is_wild else last.colour
        if colour is None:  # pragma: no cover - a wild without a colour is never legal
            raise IllegalActionError(f"{last.code} must name a colour")
        self.colour = colour
        drawn = self.phase is PHASE_DRAWN  # the drawn card's play is part of the draw's move
        if not drawn:
            self.move += 1
        self._play_events(seat, action, last, colour, drawn)
        self.phase = PHASE_PLAY
        self.drawn = None
        self.passes = 0
        left = len(hand)
        if left == 1:
            self._one_left(seat, action.call, rng)
        if left and last.is_plain:  # a number card or a Wild: the turn just passes on (most moves)
            self._pass_on((seat + self.direction) % self.n, rng)
            return
        k = len(cards)
        rank = last.rank
        if rank == "draw2" or rank == "wild4":
            self._penalty(seat, last, (2 if rank == "draw2" else 4) * k, left, rng)
        elif left == 0:
            self._end_round(seat, EndReason.OUT, rng)
        elif acts_as_skip(rank, self.n):
            skipped = min(k, self.n - 1)
            for i in range(1, skipped + 1):
                self._log(cast(Event, _SEAT_EVENTS[self._next(seat, i)].skip))
            self._advance(self._next(seat, skipped + 1), rng)
        else:  # a Reverse, with three or more players
            if k % 2:
                self.direction = -self.direction
            self._log(_REVERSE_ONE[self.direction] if k == 1 else
                      cast(Event, {"kind": "reverse", "direction": self.direction, "count": k}))
            self._advance(self._next(seat), rng)

    def _one_left(self, seat: int, called: bool, rng: random.Random) -> None:
        """A play left ``seat`` one card: the last-card call (the referee's, or the player's), or its forfeit."""
        if self._auto_call or called:
            self._log(cast(Event, _SEAT_EVENTS[seat].calls["referee" if self._auto_call else "player"]))
        else:
            self._log({"kind": "forfeit", "seat": seat, "count": 1, "reason": "missed last-card call"})
            # Never finds nothing: the card just covered is under the top, so a reshuffle has it.
            self._take(seat, 1, "forfeit", rng)

    def _penalty(self, seat: int, last: Card, amount: int, left: int, rng: random.Random) -> None:
        """A Draw Two or Wild Draw Four (``amount`` cards in all) played by ``seat``, ``left`` cards left in its hand:
        stacked on the next seat's pending penalty, or drawn by it at once (then it loses its turn)."""
        victim = self._next(seat)
        if self._stacking:
            self.pending += amount
            self.pending_rank = last.rank
            self._log({"kind": "penalty", "seat": victim, "count": self.pending, "card": last.code,
                       "pending": True})
            if left == 0:  # ruling 8: the stack is still drawn before the round is scored
                amount, self.pending, self.pending_rank = self.pending, 0, None
                self._take(victim, amount, "penalty", rng)
                self._end_round(seat, EndReason.OUT, rng)
                return
            self._advance(victim, rng)
            return
        self._log({"kind": "penalty", "seat": victim, "count": amount, "card": last.code, "pending": False})
        got = self._take(victim, amount, "penalty", rng)
        if left == 0:
            self._end_round(seat, EndReason.OUT, rng)
            return
        if self._drew_nothing(got):
            return
        self._log(cast(Event, _SEAT_EVENTS[victim].skip))
        self._advance(self._next(victim), rng)

    def _play_events(self, seat: int, action: Action, last: Card, colour: str, drawn: bool) -> None:
        """The play's event, and the colour it names after a wild."""
        if not self._logging:
            return
        shared = _SEAT_EVENTS[seat]
        cards = action.cards
        if len(cards) == 1:
            self.events.append(shared.play(last, colour, action.call, drawn))
        else:
            self.events.append(cast(Event, _play_event(seat, [c.code for c in cards], colour, action.call, drawn)))
        if last.is_wild:
            self.events.append(shared.colour(colour))

    def _draw_turn(self, rng: random.Random) -> None:
        seat = self.current
        self.passes = 0
        if self.pending:  # take the stacked penalty and lose the turn (no move: a turn lost to a penalty)
            amount, self.pending, self.pending_rank = self.pending, 0, None
            if self._drew_nothing(self._take(seat, amount, "penalty", rng)):
                return
            self._log(cast(Event, _SEAT_EVENTS[seat].skip))
            self._advance(self._next(seat), rng)
            return
        self.move += 1
        got: list[Card] | None  # None: the one card drawn is ``card``
        if self._until_playable:
            got = []
            while True:
                one = self._take_quiet(seat, 1, rng)
                if not one:
                    break
                got += one
                card = one[0]
                if plays_on(card, self.colour, self.top.rank, card is not WILD4 or self._wild_draw_four_allowed()):
                    break
            self._draw_event(seat, got, "turn")
        elif self.draw_pile:  # common case: one card off a non-empty pile
            card = self.draw_pile.pop()
            self.hands[seat].append(card)
            self._log(_SEAT_EVENTS[seat].draw(card))
            got = None
        else:
            got = self._take(seat, 1, "turn", rng)
        if got is not None:
            # Outside a tender game a draw is offered only when it finds a card, so nothing found ends it.
            if self._drew_nothing(got):
                return
            card = got[-1]
        # The rule's helper, called directly (a method around it cost a third more per draw); the Wild Draw
        # Four's condition walks the hand under "restricted", so only that card asks it.
        if plays_on(card, self.colour, self.top.rank, card is not WILD4 or self._wild_draw_four_allowed()):
            self.phase = PHASE_DRAWN
            self.drawn = card
            return
        self._pass_on((seat + self.direction) % self.n, rng)  # phase is already PHASE_PLAY

    def _pass(self, rng: random.Random) -> None:
        seat = self.current
        if self.phase is PHASE_DRAWN:  # kept the drawn card: the common pass, so handled inline
            self._log(cast(Event, _SEAT_EVENTS[seat].passes[1]))
            self.phase = PHASE_PLAY
            self.drawn = None
            self._pass_on((seat + self.direction) % self.n, rng)
            return
        # Blocked: nothing plays and nothing is left to draw.
        self.move += 1
        self.passes += 1
        self._log(cast(Event, _SEAT_EVENTS[seat].passes[0]))
        if self.passes >= self.n:
            self._end_round(None, EndReason.BLOCKED, rng)
            return
        self._advance(self._next(seat), rng)

    def _advance(self, seat: int, rng: random.Random) -> None:
        """Hand a normal turn to ``seat``, ending the round or game at the move limit."""
        self.phase = PHASE_PLAY
        self.drawn = None
        self._pass_on(seat, rng)

    def _pass_on(self, seat: int, rng: random.Random) -> None:
        """Rule: the turn passes to ``seat``, then a round (tender: the game) at its move limit ends."""
        self.current = seat
        if self.move >= self._move_limit:
            self._end_round(None, EndReason.MOVE_LIMIT, rng)

    def _drew_nothing(self, got: list[Card]) -> bool:
        """Rule: in a tender game a draw that finds no card ends the game; says whether it did."""
        if got or not self._tender:
            return False
        self._finish_tender(EndReason.NOTHING_TO_DRAW)
        return True

    # ------------------------------------------------------------------ drawing
    def _take_quiet(self, seat: int, count: int, rng: random.Random) -> list[Card]:
        pile = self.draw_pile
        got: list[Card] = []
        while len(got) < count:
            if not pile:
                if len(self.discard) <= 1:
                    break
                # Reshuffle everything but the top card into a new draw pile.
                pile.extend(self.discard[:-1])
                del self.discard[:-1]
                shuffle(pile, rng)
                self._log({"kind": "reshuffle", "count": len(pile)})
            got.append(pile.pop())
        self.hands[seat].extend(got)
        return got

    def _draw_event(self, seat: int, got: list[Card], reason: DrawReason) -> None:
        if self._logging:
            self.events.append({"kind": "draw", "seat": seat, "count": len(got), "reason": reason,
                                "secret": {seat: {"cards": [c.code for c in got]}}})

    def _take(self, seat: int, count: int, reason: DrawReason, rng: random.Random) -> list[Card]:
        got = self._take_quiet(seat, count, rng)
        self._draw_event(seat, got, reason)
        return got

    # ------------------------------------------------------------------ endings
    def hand_totals(self) -> list[int]:
        """Points left in each hand, by seat."""
        return [sum(c.points for c in h) for h in self.hands]

    def _round_end_event(self, winner: int | None, reason: EndReason, gained: list[int]) -> None:
        if not self._logging:
            return
        self.events.append({"kind": "round_end", "round": self.round, "winner": winner, "reason": reason.value,
                            "hands": [[c.code for c in h] for h in self.hands], "points": self.hand_totals(),
                            "gained": gained, "scores": list(self.scores)})

    def _end_round(self, winner: int | None, reason: EndReason, rng: random.Random) -> None:
        if self._tender:
            self._finish_tender(reason, winner)
            return
        totals = self.hand_totals()
        gained = [0] * self.n
        scorer = winner
        if scorer is None:  # blocked or move limit: a unique lowest hand scores the others
            low = min(totals)
            if totals.count(low) == 1:
                scorer = totals.index(low)
        if scorer is not None:
            gained[scorer] = sum(totals) - totals[scorer]
            self.scores[scorer] += gained[scorer]
        self._round_end_event(winner if winner is not None else scorer, reason, gained)
        if self.ruleset.target == "round":
            # A single round is ranked by the hands: the winner first, then fewest points left.
            key = [-1 if s == scorer else t for s, t in enumerate(totals)]
            self._finish(placements(key, lower_is_better=True), reason, scorer)
        elif max(self.scores) >= int(self.ruleset.target):
            places = placements(self.scores, lower_is_better=False)
            self._finish(places, EndReason.TARGET, places.index(1) if places.count(1) == 1 else None)
        else:
            self.dealer = (self.dealer + 1) % self.n  # the deal moves one seat clockwise
            self._start_round(rng)

    def _finish_tender(self, reason: EndReason, winner: int | None = None) -> None:
        totals = self.hand_totals()
        if winner is None:
            low = min(totals)
            winner = totals.index(low) if totals.count(low) == 1 else None
        key = [-1 if s == winner else t for s, t in enumerate(totals)]
        self._round_end_event(winner, reason, [0] * self.n)
        game_reason = EndReason.OUT if reason is EndReason.OUT else EndReason.TENDER
        self._finish(placements(key, lower_is_better=True), game_reason, winner)

    def _finish(self, places: list[int], reason: EndReason, winner: int | None) -> None:
        self.over = True
        self.phase = PHASE_OVER
        outcome = self.outcome = Outcome(reason, winner, tuple(places), tuple(self.scores), tuple(self.hand_totals()),
                                         self.round, self.move)
        # The outcome's plain-data form has exactly the keys of the event after its kind.
        if self._logging:
            self.events.append(cast(GameEndEvent, {"kind": "game_end", **outcome.to_json()}))


def event_for(event: Event, seat: int | None) -> dict[str, Any]:
    """The copy of ``event`` that ``seat`` may see (``None``: the public copy)."""
    # At run time an event is a plain dict (referee/engine/events.py); an annotation, not a cast: no call per event.
    data: dict[str, Any] = event  # type: ignore[assignment]
    secret = data.get("secret")
    if secret is None:
        return data
    public = {k: v for k, v in data.items() if k != "secret"}
    mine = secret.get(seat) if seat is not None else None
    if mine:
        public.update(mine)
    return public


def card_count(game: Game) -> int:
    """All cards in play: hands, draw pile and discard (an invariant of the game)."""
    return sum(map(len, game.hands)) + len(game.draw_pile) + len(game.discard)
