"""The engine seen through the bot kit's encoding: a seat's observation, the legal actions by index, rewards.

Nothing here imports PettingZoo or Gymnasium: both environments (and their tests) build on it. A seat's
observation is made from the fields of the ``turn`` message the referee would send it
(``referee.protocol.messages.turn_fields``), encoded by ``referee.botkit``: a bot in a real match computes
the same numbers from the message it receives.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np
from librt.strings import BytesWriter

from referee.botkit import FIELDS, KINDS, OFFSETS, PHASES, SIZE, Encoding
from referee.engine.actions import Action, IllegalActionError
from referee.engine.cardfaces import colour_label, label
from referee.engine.cards import CARD_KINDS, DECKS, Card, InvalidCardError, hand_points
from referee.engine.events import Event, RoundEndEvent
from referee.engine.game import Game, Phase, placements
from referee.engine.rules import MAX_PLAYERS, TARGETS, Ruleset
from referee.protocol.messages import TurnMessage, turn_fields
from referee.table.learner import write_row

#: What a reward is given for: ``game`` (once, by the final placements) or ``round`` (at every round's end).
REWARD_MODES = ("game", "round")
_INDEX_MAX = 200_000
#: The smallest batch ``Observer.masks`` builds with numpy (below it, a game at a time is faster).
BATCH_FROM = 8
_SCORES, _MOVE = OFFSETS["scores"], OFFSETS["move"]
# The dtypes as objects: numpy parses a dtype given by name or type again at every call (0.3 us each).
_U8, _I8, _F32 = np.dtype(np.uint8), np.dtype("<i8"), np.dtype(np.float32)


def read_rows(rows: BytesWriter, wide: BytesWriter, m: int) -> np.ndarray:
    """The ``(m, SIZE)`` float32 observations that ``write_row`` wrote ``m`` of into ``rows`` and ``wide``."""
    obs = np.frombuffer(rows.getvalue(), _U8).reshape(m, SIZE).astype(_F32)
    numbers = np.frombuffer(wide.getvalue(), _I8).reshape(m, -1) if m else np.zeros((0, 1), _I8)
    n = numbers.shape[1] - 1
    obs[:, _SCORES:_SCORES + n] = numbers[:, :n]
    obs[:, _MOVE] = numbers[:, n]
    return obs


def seat_fields(game: Game, seat: int) -> TurnMessage:
    """The ``turn`` fields of ``seat`` (as the protocol builds them); a card another seat just drew stays hidden."""
    fields = turn_fields(game, seat, 0, 0, 0)
    if seat != game.current:
        fields["drawn"] = None  # only the seat that drew it sees it (the draw event's secret)
    return fields


def place_rewards(places: Sequence[int]) -> list[float]:
    """Placement 1 scores +1, the last of n seats -1, evenly between: ``1 - 2 (place - 1) / (n - 1)``."""
    n = len(places)
    return [1.0 - 2.0 * (p - 1) / (n - 1) for p in places]


def round_places(round_end: RoundEndEvent) -> list[int]:
    """A round ranked as a single round is: its winner (or scorer) first, then fewest points left in hand."""
    winner = round_end["winner"]
    return placements([-1 if s == winner else p for s, p in enumerate(round_end["points"])], lower_is_better=True)


def round_rewards(events: Sequence[Event], start: int, n: int) -> list[float]:
    """The summed rewards of every round that ended among ``events[start:]`` (``round`` mode)."""
    total = [0.0] * n
    for i in range(start, len(events)):
        ev = events[i]
        if ev["kind"] == "round_end":
            total = [a + b for a, b in zip(total, place_rewards(round_places(ev)))]
    return total


class Observer:
    """A ruleset's ``Encoding`` applied to a ``Game``: observations, masks, and each legal action's index."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.encoding = Encoding.for_options(ruleset.options)
        # By id: the engine reuses its action objects, and each is kept here, so its id stays its own.
        self._index: dict[int, tuple[Action, int]] = {}
        self.high = observation_high(ruleset)
        #: ``Card.index`` -> its slot among the kinds (-1: a card no deck has).
        self.kind_of = np.full(CARD_KINDS, -1, dtype=np.int64)
        for code, slot in self.encoding._kind.items():
            try:
                self.kind_of[Card.from_code(code).index] = slot
            except InvalidCardError:  # a kind no deck of the engine has
                pass
        self.kinds: list[int] = self.kind_of.tolist()
        #: The colour in play's slot and the phase's, by name (for ``write_row``). The phases are keyed by
        #: the engine's ``Phase`` members, which ``game.phase`` holds: a plain ``str`` key would be found through
        #: ``Phase.__eq__`` (an enum is a ``str`` subclass), several times slower on every observation.
        self.colour_slot: dict[str | None, int] = {c: i for i, c in enumerate(self.encoding.colours)}
        self.phase_slot: dict[str, int] = {Phase(p): i for i, p in enumerate(PHASES)}
        #: ``write_row``'s output (observation rows, scores and moves): emptied and written again each call, so
        #: an Observer serves one environment at a time (each environment makes its own); what a call returns
        #: is a copy, never these buffers.
        self._writers = (BytesWriter(), BytesWriter())

    @property
    def actions(self) -> int:
        """The size of the action space."""
        return len(self.encoding)

    def index_of(self, action: Action) -> int:
        """The catalogue index of an engine action (through its wire form, as a bot would see it)."""
        known = self._index.get(id(action))
        if known is None:
            if len(self._index) >= _INDEX_MAX:  # arcade's stacks are new objects per hand met: keep a bound
                self._index.clear()
            known = self._index[id(action)] = (action, self.encoding.index_of(action.to_wire()))
        return known[1]

    def legal(self, game: Game) -> dict[int, Action]:
        """The legal actions of the seat to act, by index (empty once the game is over)."""
        legal = game.legal_actions()
        known = self._index
        out = {}
        for a in legal:  # ``index_of`` inlined for the actions met before: nearly all, and a call each adds up
            seen = known.get(id(a))
            out[seen[1] if seen is not None else self.index_of(a)] = a
        if len(out) != len(legal):  # the catalogue's promise: one index per legal action
            raise AssertionError(f"two legal actions share an index in {[str(a) for a in legal]}")
        return out

    def observation(self, game: Game, seat: int) -> np.ndarray:
        """The observation vector of ``seat`` (float32; every entry a whole number)."""
        rows, wide = self._writers
        rows.truncate(0)  # kept from call to call: the same buffers, no new allocation
        wide.truncate(0)
        write_row(game, seat, self.kinds, self.colour_slot, self.phase_slot, rows, wide)
        obs = np.frombuffer(rows.getvalue(), _U8).astype(_F32)
        numbers = np.frombuffer(wide.getvalue(), _I8)
        n = game.n
        obs[_SCORES:_SCORES + n] = numbers[:n]
        obs[_MOVE] = numbers[n]
        return obs

    def observations(self, games: Sequence[Game], seats: Sequence[int]) -> np.ndarray:
        """``observation(games[i], seats[i])`` for every i, as one ``(len(games), SIZE)`` float32 array: the bot
        kit's numbers from the games themselves (tests/botkit/test_botkit.py compares them), each row written in
        compiled code (``write_row``) and the whole batch read by numpy at once."""
        rows, wide = self._writers
        rows.truncate(0)  # kept from call to call: the same buffers, no new allocation
        wide.truncate(0)
        kinds, colour_slot, phase_slot = self.kinds, self.colour_slot, self.phase_slot
        for game, seat in zip(games, seats):
            write_row(game, seat, kinds, colour_slot, phase_slot, rows, wide)
        return read_rows(rows, wide, len(games))

    def masks(self, legals: Sequence[Mapping[int, Action]]) -> np.ndarray:
        """``mask(legals[i])`` for every i, as one ``(len(legals), actions)`` int8 array."""
        out = np.zeros((len(legals), len(self.encoding)), dtype=np.int8)
        if len(legals) < BATCH_FROM:
            for row, legal in zip(out, legals):
                for index in legal:
                    row[index] = 1
            return out
        rows = [i for i, legal in enumerate(legals) for _ in legal]
        if rows:
            out[rows, [index for legal in legals for index in legal]] = 1
        return out

    def mask(self, legal: Mapping[int, Action]) -> np.ndarray:
        """1 at each legal index."""
        mask = np.zeros(len(self.encoding), dtype=np.int8)
        for index in legal:  # a handful: cheaper than fancy indexing
            mask[index] = 1
        return mask

    def illegal(self, index: Any, legal: Mapping[int, Action], who: str) -> IllegalActionError:
        """The error for an index that is not legal now, naming it and the legal ones."""
        try:
            what = self.encoding.describe(int(index))
        except (IndexError, TypeError, ValueError):
            what = f"not an action: the indices are 0 to {self.actions - 1}"
        shown = ", ".join(f"{i} ({self.encoding.describe(i)})" for i in sorted(legal))
        return IllegalActionError(f"{who} chose action {index!r} ({what}), which is not legal now; legal: {shown}")


def observation_high(ruleset: Ruleset) -> np.ndarray:
    """An upper bound of every observation entry under ``ruleset`` at any table size (the lower bound is 0)."""
    deck = DECKS[ruleset.deck](MAX_PLAYERS)  # the largest deck: compact is doubled for 5-6 players
    kinds = Encoding.for_options(ruleset.options)._kind
    copies = np.zeros(KINDS, dtype=np.float32)
    for card in deck:
        copies[kinds[card.code]] += 1
    high = np.ones(SIZE, dtype=np.float32)
    hand = OFFSETS["hand"]
    high[hand:hand + KINDS] = np.maximum(copies, 1)  # a rank the deck lacks keeps the bound 1: never reached
    size = len(deck)
    pending = max(2 * sum(c.rank == "draw2" for c in deck), 4 * sum(c.rank == "wild4" for c in deck))
    target = max((t for t in TARGETS[ruleset.house] if isinstance(t, int)), default=0)
    scores = target + hand_points(deck)  # below the target before the last round, which adds at most the deck
    for name, value in (("pending", pending), ("hands", size), ("scores", scores), ("draw_pile", size),
                        ("discard_pile", size), ("move", ruleset.move_limit)):
        at = OFFSETS[name]
        high[at:at + dict(FIELDS)[name]] = value
    return high


def table_text(game: Game, names: Sequence[str], styled: bool = False) -> str:
    """The whole table for people (every hand shown): the ``ansi`` rendering."""
    rules = game.ruleset
    turn = "clockwise" if game.direction == 1 else "anticlockwise"
    lines = [f"{rules.house}, {game.n} seats, round {game.round}, move {game.move}, play goes {turn}",
             f"top {label(game.top, styled)}, colour in play {colour_label(game.colour, styled)}, "
             f"draw pile {len(game.draw_pile)}, under the top {len(game.discard) - 1}"]
    if game.pending:
        lines.append(f"pending penalty: {game.pending} ({game.pending_rank})")
    for seat, hand in enumerate(game.hands):
        mark = ">" if seat == game.current and not game.over else " "
        cards = ", ".join(label(c, styled) for c in hand) or "(none)"
        score = f", score {game.scores[seat]}" if not rules.single_round else ""
        lines.append(f"{mark} {names[seat]} ({len(hand)} cards{score}): {cards}")
    if game.drawn is not None and not game.over:
        lines.append(f"{names[game.current]} drew {label(game.drawn, styled)}: play it or pass")
    if game.outcome is not None:
        places = ", ".join(f"{names[s]} {p}" for s, p in enumerate(game.outcome.placements))
        lines.append(f"game over ({game.outcome.reason.value}): placements {places}")
    return "\n".join(lines) + "\n"

