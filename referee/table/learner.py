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

from referee.botkit import OFFSETS, SIZE
from referee.engine.actions import Action
from referee.engine.game import Game, seeded
from referee.engine.rules import Ruleset
from referee.players import SeatView, make_player
from referee.players.base import Player

#: The catalogue: an action's index by ``id(action)`` (the action kept beside it, so the id stays its own).
Known = dict[int, tuple[Action, int]]


@final  # compiled, a final class's methods are called directly, not through its method table
class LearnerTable:
    """One learner seat and ``builtins`` (one built-in name per other seat, in seat order) at one table."""

    def __init__(self, ruleset: Ruleset, seats: int, builtins: list[str], log_events: bool, known: Known,
                 index_of: Callable[[Action], int]) -> None:
        self.ruleset = ruleset
        self.n = seats
        self.builtins = builtins
        self.log_events = log_events
        self.known = known
        self.index_of = index_of
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
        legal = self.legal = game.legal_actions()
        known = self.known
        indices: list[int] = []
        for action in legal:
            seen = known.get(id(action))
            indices.append(seen[1] if seen is not None else self.index_of(action))
        self.indices = indices


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
_PENDING_KIND: Final = OFFSETS["pending_kind"]
_SEATS: Final = OFFSETS["seats"]
_TO_ACT: Final = OFFSETS["to_act"]
#: The index ``gather`` gives a one-hot field that has no 1 (no card drawn, no colour in play, nothing pending).
ABSENT: Final = SIZE
#: The one-hot fields ``gather`` gives each table, in order: top, drawn, colour, phase, direction, pending kind,
#: seats, to act.
ONE_HOTS: Final = 8


@final
class Packer:
    """Bytes (each value below 256) packed four to a whole number, little end first: one list append per four
    values instead of one each (``referee.env.tables.unpack`` reads them back as the bytes of 32-bit words)."""

    def __init__(self) -> None:
        self.words: list[int] = []
        self.count = 0
        self._word = 0
        self._shift = 0

    def put(self, value: int) -> None:
        self._word |= value << self._shift
        self._shift += 8
        self.count += 1
        if self._shift == 32:
            self.words.append(self._word)
            self._word = 0
            self._shift = 0

    def flush(self) -> list[int]:
        """The words, the last one partly filled."""
        if self._shift:
            self.words.append(self._word)
            self._word = 0
            self._shift = 0
        return self.words


def gather(tables: list[LearnerTable], kind_of: list[int], colour_slot: dict[str | None, int],
           phase_slot: dict[str, int], record: list[int], wide: list[int], kinds: Packer, legal: Packer | None,
           wide_legal: list[int]) -> None:
    """Each table's learner observation (``botkit.Encoding.observation``'s numbers) and legal indices, for the
    caller to lay out with whole-batch numpy operations (``referee.env.tables``). Per table, ``record`` gets
    32-bit words of bytes, little end first (``record_size`` bytes): the ``ONE_HOTS`` indices in the
    observation of each one-hot field's 1 (``ABSENT`` for none), the pending penalty, the draw pile, the cards
    under the top, the number of legal actions, then the hand sizes by position from the learner (0 the
    learner, 1 the next to play); ``wide`` (numbers that may pass 255) the scores by position, then the move;
    ``kinds`` the learner's cards by kind slot (``kind_of``: by ``Card.index``); ``legal`` the legal actions'
    catalogue indices (``wide_legal`` instead when ``legal`` is None: a catalogue of more than 256)."""
    for i in range(len(tables)):
        table = tables[i]
        game = table.game
        you = table.learner
        n = game.n
        current = game.current
        direction = game.direction
        hands = game.hands
        scores = game.scores
        for card in hands[you]:
            kinds.put(kind_of[card.index])
        drawn = game.drawn
        colour = colour_slot.get(game.colour, -1)
        record.append((_TOP + kind_of[game.top.index])
                      | (_DRAWN + kind_of[drawn.index] if drawn is not None and you == current else ABSENT) << 8
                      | (_COLOUR + colour if colour >= 0 else ABSENT) << 16
                      | (_PHASE + phase_slot[game.phase]) << 24)
        pending_rank = game.pending_rank
        record.append((_DIRECTION + (0 if direction == 1 else 1))
                      | (ABSENT if pending_rank is None else _PENDING_KIND + (1 if pending_rank == "wild4" else 0)) << 8
                      | (_SEATS + n - 2) << 16
                      | (_TO_ACT + ((current - you) * direction) % n) << 24)
        indices = table.indices
        record.append(game.pending | len(game.draw_pile) << 8 | (len(game.discard) - 1) << 16 | len(indices) << 24)
        word = 0
        shift = 0
        for k in range(n):
            seat = (you + k * direction) % n
            word |= len(hands[seat]) << shift
            shift += 8
            if shift == 32:
                record.append(word)
                word = 0
                shift = 0
            wide.append(scores[seat])
        if shift:
            record.append(word)
        wide.append(game.move)
        if legal is not None:
            for index in indices:
                legal.put(index)
        else:
            for index in indices:
                wide_legal.append(index)


def record_size(seats: int) -> int:
    """The bytes ``gather`` records per table at a table of ``seats``: three words, then the hand sizes' words."""
    return 12 + 4 * ((seats + 3) // 4)


_PENDING: Final = OFFSETS["pending"]
_HANDS: Final = OFFSETS["hands"]
_DRAW_PILE: Final = OFFSETS["draw_pile"]
_DISCARD_PILE: Final = OFFSETS["discard_pile"]


def observe_row(game: Game, seat: int, kind_of: list[int], colour_slot: dict[str | None, int],
                phase_slot: dict[str, int], obs: bytearray) -> list[int]:
    """One seat's observation (``botkit.Encoding.observation``'s numbers) written into ``obs`` (``SIZE`` zero
    bytes), but for the numbers that may pass 255, returned: the scores by position from ``seat``, then the move.
    A card another seat just drew stays hidden."""
    n = game.n
    current = game.current
    direction = game.direction
    hands = game.hands
    for card in hands[seat]:
        at = kind_of[card.index]
        obs[at] += 1
    obs[_TOP + kind_of[game.top.index]] = 1
    drawn = game.drawn
    if drawn is not None and seat == current:
        obs[_DRAWN + kind_of[drawn.index]] = 1
    colour = colour_slot.get(game.colour, -1)
    if colour >= 0:
        obs[_COLOUR + colour] = 1
    obs[_PHASE + phase_slot[game.phase]] = 1
    obs[_DIRECTION + (0 if direction == 1 else 1)] = 1
    obs[_PENDING] = game.pending
    pending_rank = game.pending_rank
    if pending_rank is not None:
        obs[_PENDING_KIND + (1 if pending_rank == "wild4" else 0)] = 1
    obs[_SEATS + n - 2] = 1
    obs[_TO_ACT + ((current - seat) * direction) % n] = 1
    obs[_DRAW_PILE] = len(game.draw_pile)
    obs[_DISCARD_PILE] = len(game.discard) - 1
    scores = game.scores
    wide: list[int] = []
    for k in range(n):  # seats in the order they play from ``seat``: 0 is ``seat``, 1 the next
        other = (seat + k * direction) % n
        obs[_HANDS + k] = len(hands[other])
        wide.append(scores[other])
    wide.append(game.move)
    return wide
