"""A learner's games against built-in players, stepped by hand: what ``Table`` plays with those seats, lighter.

The RL environments' fast path (``referee.env.vector``). A ``LearnerTable`` deals and plays exactly the game a
``Table`` with the same seed and seats plays (the same generator for the deal and every shuffle, each built-in
player seeded ``seed * 7 + seat``), but keeps no per-move records, asks no seat through the ``Seat`` protocol and
holds each legal action's catalogue index beside it. ``play_all`` and ``gather`` step and read a whole batch in
compiled code: per table, a learner step there is the engine's own work and a few list appends.
"""

from __future__ import annotations

import random
from typing import Callable, Final, final

from librt.strings import BytesWriter, write_i64_le
from mypy_extensions import i64

from referee.botkit import OFFSETS, SIZE
from referee.engine.actions import COLOUR, DRAW, PLAY, Action
from referee.engine.cards import ALL_COLOURS, CARD_KINDS
from referee.engine.game import Game, seeded
from referee.engine.rules import Ruleset
from referee.players import SeatView, make_player
from referee.players.base import Player

#: ``Catalogue``'s keys: a single-card play by card, colour named (0 none, then ``ALL_COLOURS``' order + 1) and call;
#: then a colour named alone, the draw and the pass.
_NAMED: Final = len(ALL_COLOURS) + 1
_COLOUR_KEYS: Final = CARD_KINDS * _NAMED * 2
_DRAW_KEY: Final = _COLOUR_KEYS + _NAMED
_PASS_KEY: Final = _DRAW_KEY + 1
#: This module runs compiled (mypyc): ``Catalogue.indices`` takes the path that is fastest for the build.
_COMPILED: Final = not __file__.endswith(".py")
#: An action's catalogue index by ``id(action)`` (the action kept beside it, so the id stays its own).
Known = dict[int, tuple[Action, int]]


@final
class Catalogue:
    """An engine action's catalogue index, found from its fields: one list read for a single-card play, a colour,
    a draw or a pass (nearly every legal action); ``index_of`` for the first of each and for multi-plays.

    The index depends on the action's value only, so a key made of its fields is exact for any equal action,
    where a lookup by ``id`` must box the id and compare two int objects (about six times the work)."""

    def __init__(self, index_of: Callable[[Action], int], known: Known) -> None:
        self.index_of = index_of
        self.known = known  # ``index_of``'s own memo, read directly when interpreted
        self._slots: list[int] = [-1] * (_PASS_KEY + 1)
        # Typed as a tuple of any length: compiled, a fixed-length tuple is kept unboxed and built again at each index.
        self._colours: tuple[str, ...] = ALL_COLOURS

    def indices(self, legal: list[Action]) -> list[int]:
        """Each legal action's catalogue index. Interpreted, a method call per action costs more than the lookup
        by ``id`` it saves: there, ``index_of``'s memo is read directly."""
        out: list[int] = []
        if _COMPILED:
            for action in legal:
                out.append(self.index(action))
        else:
            known = self.known
            for action in legal:
                seen = known.get(id(action))
                out.append(seen[1] if seen is not None else self.index_of(action))
        return out

    def index(self, action: Action) -> int:
        kind = action.kind
        if kind is PLAY:
            cards = action.cards
            if len(cards) != 1:
                return self.index_of(action)
            card = cards[0].index
            colour = action.colour
            named = 0 if colour is None else self._named(colour)
            if card < 0 or named < 0:  # pragma: no cover - a card or colour outside the engine's tables
                return self.index_of(action)
            key = (card * _NAMED + named) * 2 + (1 if action.call else 0)
        elif kind is COLOUR:
            colour = action.colour
            named = -1 if colour is None else self._named(colour)
            if named < 0:  # pragma: no cover - a colour action always names a known colour
                return self.index_of(action)
            key = _COLOUR_KEYS + named
        else:
            key = _DRAW_KEY if kind is DRAW else _PASS_KEY
        slots = self._slots
        found = slots[key]
        if found < 0:
            found = slots[key] = self.index_of(action)
        return found

    def _named(self, colour: str) -> int:
        """The colour's place in ``ALL_COLOURS`` + 1 (-1: none of them)."""
        colours = self._colours
        for i in range(len(colours)):
            if colours[i] == colour:  # the same string object nearly always: equal at the first test
                return i + 1
        return -1


@final  # compiled, a final class's methods are called directly, not through its method table
class LearnerTable:
    """One learner seat and ``builtins`` (one built-in name per other seat, in seat order) at one table."""

    def __init__(self, ruleset: Ruleset, seats: int, builtins: list[str], log_events: bool,
                 catalogue: Catalogue) -> None:
        self.ruleset = ruleset
        self.n = seats
        self.builtins = builtins
        self.log_events = log_events
        self.catalogue = catalogue
        self._players: list[Player] = []  # by opponent, made at the first deal and reseeded after (as BuiltinSeat)
        self._seated: list[Player | None] = [None] * seats
        self._views: list[SeatView | None] = [None] * seats
        self.rng: random.Random | None = None
        self.seed = 0
        self.learner = 0
        self.over = True
        self.legal: list[Action] = []
        #: ``legal``'s catalogue indices, in the same order.
        self.indices: list[int] = []
        self.decisions = 0
        #: ``len(game.events)`` and ``game.round`` before the learner's last action (for per-round rewards).
        self.mark = 0
        self.round_before = 0
        self.game = Game(ruleset, seats, random.Random(0), log_events=False)  # replaced at the first deal

    def deal(self, seed: int, learner: int) -> None:
        """A new game with the referee seed ``seed``, the learner at ``learner``; the others play up to its turn."""
        self.seed = seed
        self.learner = learner
        rng = self.rng = seeded(self.rng, seed)  # as Table: one generator for the deal and every shuffle after
        players = self._players
        k = 0
        for index in range(self.n):
            if index == learner:
                self._seated[index] = None
                continue
            # seed * 7 + index without ``*`` on a large int (see BuiltinSeat.begin: compiled, it can abort on Ctrl-C).
            player_seed = (seed << 3) - seed + index
            if k < len(players):
                player = players[k]
                if player.name == self.builtins[k]:
                    player.reseed(player_seed)
                else:  # pragma: no cover - the opponents' names are fixed per table
                    player = players[k] = make_player(self.builtins[k], player_seed)
            else:
                player = make_player(self.builtins[k], player_seed)
                players.append(player)
            self._seated[index] = player
            k += 1
        game = self.game = Game(self.ruleset, self.n, rng, log_events=self.log_events)
        self._views = [None if i == learner else SeatView(game, i) for i in range(self.n)]
        self.decisions = 0
        self.over = False
        self.mark = len(game.events)
        self.round_before = game.round
        self._advance()

    def play(self, index: int) -> bool:
        """The learner plays the legal action of catalogue index ``index``, then the others up to its next turn or
        the end; False (and nothing played) when ``index`` is not a legal one's."""
        indices = self.indices
        for k in range(len(indices)):
            if indices[k] == index:
                game = self.game
                rng = self.rng
                assert rng is not None
                self.mark = len(game.events)
                self.round_before = game.round
                game.apply(self.legal[k], rng)
                self.decisions += 1
                self._advance()
                return True
        return False

    def end(self) -> None:
        """The episode ends here (an illegal action): no legal actions any more."""
        self.over = True
        self.legal = []
        self.indices = []

    def _advance(self) -> None:
        game = self.game
        rng = self.rng
        assert rng is not None
        learner = self.learner
        seated = self._seated
        views = self._views
        while not game.over and game.current != learner:
            index = game.current
            player = seated[index]
            view = views[index]
            assert player is not None and view is not None
            game.apply(player.choose(view, game.legal_actions()), rng)
            self.decisions += 1
        if game.over:
            self.end()
            return
        self.legal = game.legal_actions()
        self.indices = self.catalogue.indices(self.legal)


def play_all(tables: list[LearnerTable], actions: list[int], rounds: bool) -> tuple[list[int], list[int]]:
    """Every table still playing plays its action (catalogue indices, one per table). The tables the caller must
    look at after: those whose index was not legal (nothing played), and those whose game ended or, with
    ``rounds``, whose round ended."""
    illegal: list[int] = []
    attention: list[int] = []
    for i in range(len(tables)):
        table = tables[i]
        if table.over:
            continue
        if not table.play(actions[i]):
            illegal.append(i)
        elif table.over or (rounds and table.game.round != table.round_before):
            attention.append(i)
    return illegal, attention


_TOP: Final = OFFSETS["top"]
_DRAWN: Final = OFFSETS["drawn"]
_COLOUR: Final = OFFSETS["colour"]
_PHASE: Final = OFFSETS["phase"]
_DIRECTION: Final = OFFSETS["direction"]
_PENDING: Final = OFFSETS["pending"]
_PENDING_KIND: Final = OFFSETS["pending_kind"]
_SEATS: Final = OFFSETS["seats"]
_TO_ACT: Final = OFFSETS["to_act"]
_HANDS: Final = OFFSETS["hands"]
_DRAW_PILE: Final = OFFSETS["draw_pile"]
_DISCARD_PILE: Final = OFFSETS["discard_pile"]
_ZEROS: Final = bytes(SIZE)  # an observation row before its numbers


def write_row(game: Game, seat: int, kind_of: list[int], colour_slot: dict[str | None, int],
              phase_slot: dict[str, int], out: BytesWriter, wide: BytesWriter) -> None:
    """Append one seat's observation (``botkit.Encoding.observation``'s numbers) to ``out`` as ``SIZE`` bytes,
    but for the numbers that may pass 255: the scores by position from
    ``seat``, then the move, appended to ``wide`` as little-endian 64-bit integers (their bytes in ``out`` stay
    0). A card another seat just drew stays hidden. ``phase_slot`` is keyed by the engine's ``Phase`` members
    (a lookup by a plain ``str`` key would compare through the enum's ``__eq__``).

    ``BytesWriter`` (librt, mypy's runtime library) is a byte buffer whose indexing compiles to plain memory
    reads and writes: the row is written in place, with no list of Python ints to convert after. A count
    past 255 (no deck has that many cards) raises rather than wrap."""
    base: i64 = len(out)
    out.write(_ZEROS)
    n = game.n
    current = game.current
    direction = game.direction
    hands = game.hands
    for card in hands[seat]:
        at = base + kind_of[card.index]
        out[at] = out[at] + 1
    out[base + _TOP + kind_of[game.top.index]] = 1
    drawn = game.drawn
    if drawn is not None and seat == current:
        out[base + _DRAWN + kind_of[drawn.index]] = 1
    colour = colour_slot.get(game.colour, -1)
    if colour >= 0:
        out[base + _COLOUR + colour] = 1
    out[base + _PHASE + phase_slot[game.phase]] = 1
    out[base + _DIRECTION + (0 if direction == 1 else 1)] = 1
    out[base + _PENDING] = game.pending
    pending_rank = game.pending_rank
    if pending_rank is not None:
        out[base + _PENDING_KIND + (1 if pending_rank == "wild4" else 0)] = 1
    out[base + _SEATS + n - 2] = 1
    out[base + _TO_ACT + ((current - seat) * direction) % n] = 1
    out[base + _DRAW_PILE] = len(game.draw_pile)
    out[base + _DISCARD_PILE] = len(game.discard) - 1
    scores = game.scores
    for k in range(n):  # seats in the order they play from ``seat``: 0 is ``seat``, 1 the next
        other = (seat + k * direction) % n
        out[base + _HANDS + k] = len(hands[other])
        write_i64_le(wide, scores[other])
    write_i64_le(wide, game.move)


def gather(tables: list[LearnerTable], kind_of: list[int], colour_slot: dict[str | None, int],
           phase_slot: dict[str, int], zero_mask: bytes, out: BytesWriter, wide: BytesWriter, mask: BytesWriter
           ) -> None:
    """Each table's learner observation (``write_row``: a row in ``out``, its scores and move in ``wide``) and
    action mask (a row of ``zero_mask``'s length in ``mask``, 1 at each legal action's catalogue index), for the
    caller to read as numpy arrays (``referee.env.tables``)."""
    for i in range(len(tables)):
        table = tables[i]
        write_row(table.game, table.learner, kind_of, colour_slot, phase_slot, out, wide)
        base: i64 = len(mask)
        mask.write(zero_mask)
        indices = table.indices
        for k in range(len(indices)):
            mask[base + indices[k]] = 1
