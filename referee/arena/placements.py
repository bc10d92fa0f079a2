"""What a long run keeps of each game in memory: who sat where and their places, as small integer arrays.

The standings' counts (``Tally``), the head-to-head matrix and the timing are sums, kept as games end;
everything else a game says is in games.jsonl on disk. The rating fit and a planner's order need each
game's seating and places again, so ``PlacementLog`` keeps those (a few dozen bytes a game, in
``array`` columns rather than Python objects of a few hundred) and hands them back as ``PlacedRow``\\ s.
"""

from __future__ import annotations

import re
from array import array
from typing import Any, Iterable, Iterator, Sequence

from ..results import Slot

_PLAN_ID = re.compile(r"([A-Za-z])(\d{1,18})")


class PlacedRow:
    """One game as the fit and the planner read it (``seating``, ``placements``, ``scores``; no faults, no times).

    It passes for a ``GameLine`` and for its ``GameResult`` (``row.result is row``) where only those are read.
    """

    __slots__ = ("game", "seed", "seating", "placements", "scores", "slot")

    times = None
    faults: tuple[()] = ()
    #: Its scores already count nothing for a forfeited seat (``Collected.add``), so no seat is marked here.
    forfeited: tuple[()] = ()

    def __init__(self, game: str, seed: int, seating: tuple[str, ...], placements: tuple[int, ...],
                 scores: tuple[int, ...], slot: Slot) -> None:
        self.game = game
        self.seed = seed
        self.seating = seating
        self.placements = placements
        self.scores = scores
        self.slot = slot

    @property
    def result(self) -> PlacedRow:
        return self

    @property
    def stage(self) -> str | None:
        return self.slot.stage


class PlacementLog:
    """Every stored game's id, deal seed, slot, seating (as bot numbers), places and scores, in ``array`` columns.

    Game ids of the planner's form (``g`` and digits) are kept as their number; any other id is kept as
    text. Iterating gives ``PlacedRow``\\ s in game-id order (the order every fit and report uses, so
    the result does not depend on which game ended first).
    """

    def __init__(self, names: Iterable[str] = ()) -> None:
        self.names: list[str] = []
        self._bot: dict[str, int] = {}
        for n in names:
            self._number(n)
        self._stages: list[str | None] = []
        self._stage_no: dict[str | None, int] = {}
        self._ids = array("q")       # the number of a planner id, or -1 - its place in _other_ids
        self._widths = array("b")    # the digits written in a planner id (g0001: 4)
        self._other_ids: list[str] = []
        self._seeds = array("q")
        self._stage = array("H")
        self._round = array("i")     # -1: None
        self._table = array("i")
        self._deal = array("i")
        self._start = array("I")     # where each game's seats begin in the seat columns
        self._bots = array("H")
        self._places = array("B")
        self._score_at = array("i")  # where a game's scores begin in _scores; -1: every score 0 (a single round)
        self._scores = array("i")
        self._seen = _Numbers()
        self._prefix: str | None = None  # the letter of planner ids (g0001; a ladder's L000001)
        self._played: set[int] = set()
        self._seen_other: set[str] = set()

    @classmethod
    def of(cls, games: Iterable[Any], names: Iterable[str] = ()) -> PlacementLog:
        """The games given (each with ``seed``, ``seating``, ``placements``), kept in the order given, none dropped."""
        log = cls(names)
        for n, g in enumerate(games):
            log.add(f"g{n:018d}", g.seed, g.seating, g.placements, getattr(g, "scores", ()) or (),
                    getattr(g, "slot", None) or Slot())
        return log

    def __len__(self) -> int:
        return len(self._seeds)

    def _number(self, name: str) -> int:
        n = self._bot.get(name)
        if n is None:
            n = self._bot[name] = len(self.names)
            self.names.append(name)
        return n

    def _plan_number(self, game_id: str) -> tuple[int, int] | None:
        """A planner id's number and width (``g0012``: 12, 4), when it has this log's letter."""
        m = _PLAN_ID.fullmatch(game_id)
        if m is None or m.group(1) != (self._prefix or m.group(1)):
            return None
        self._prefix = m.group(1)
        return int(m.group(2)), len(m.group(2))

    def __contains__(self, game_id: str) -> bool:
        plan = self._plan_number(game_id)
        return plan[0] in self._seen if plan else game_id in self._seen_other

    def add(self, game: str, seed: int, seating: Sequence[str], placements: Sequence[int],
            scores: Sequence[int], slot: Slot) -> bool:
        """Keep one game; False (and nothing kept) when a game of that id is already kept."""
        plan = self._plan_number(game)
        if plan:
            number, width = plan
            if number in self._seen:
                return False
            self._seen.add(number)
            self._ids.append(number)
            self._widths.append(width)
        else:
            if game in self._seen_other:
                return False
            self._seen_other.add(game)
            self._ids.append(-1 - len(self._other_ids))
            self._widths.append(0)
            self._other_ids.append(game)
        stage = self._stage_no.get(slot.stage)
        if stage is None:
            stage = self._stage_no[slot.stage] = len(self._stages)
            self._stages.append(slot.stage)
        self._seeds.append(seed)
        self._stage.append(stage)
        self._round.append(-1 if slot.round is None else slot.round)
        self._table.append(-1 if slot.table is None else slot.table)
        self._deal.append(-1 if slot.deal is None else slot.deal)
        self._start.append(len(self._bots))
        bots = [self._number(n) for n in seating]
        self._played.update(bots)
        self._bots.extend(bots)
        self._places.extend(placements)
        if any(scores):
            self._score_at.append(len(self._scores))
            self._scores.extend(scores)
        else:
            self._score_at.append(-1)
        return True

    def played(self) -> list[str]:
        """The bots that sat in at least one game."""
        return [self.names[b] for b in sorted(self._played)]

    def game_id(self, i: int) -> str:
        number = self._ids[i]
        if number < 0:
            return self._other_ids[-1 - number]
        return f"{self._prefix}{number:0{self._widths[i]}d}"

    def row(self, i: int) -> PlacedRow:
        start = self._start[i]
        end = self._start[i + 1] if i + 1 < len(self._start) else len(self._bots)
        names = self.names
        rnd, table, deal = self._round[i], self._table[i], self._deal[i]
        slot = Slot(self._stages[self._stage[i]], None if rnd < 0 else rnd, None if table < 0 else table,
                    None if deal < 0 else deal)
        at = self._score_at[i]
        scores = (0,) * (end - start) if at < 0 else tuple(self._scores[at:at + end - start])
        return PlacedRow(self.game_id(i), self._seeds[i], tuple(names[b] for b in self._bots[start:end]),
                         tuple(self._places[start:end]), scores, slot)

    def order(self, upto: int | None = None) -> Sequence[int]:
        """The games' positions in game-id order (as the ids sort as text, which the reports have always used);
        ``upto``: only planner ids numbered at most that."""
        import numpy as np

        ids = np.frombuffer(self._ids, dtype=np.int64) if len(self._ids) else np.zeros(0, dtype=np.int64)
        widths = np.frombuffer(self._widths, dtype=np.int8) if len(self._widths) else np.zeros(0, dtype=np.int8)
        keep = np.arange(len(ids)) if upto is None else np.flatnonzero((ids >= 0) & (ids <= upto))
        if not len(keep):
            return []
        width = int(widths[keep].min())
        if width > 0 and int(widths[keep].max()) == width and int(ids[keep].max()) < 10 ** width:
            return keep[np.argsort(ids[keep], kind="stable")].tolist()  # numbers in fixed width sort as text
        return sorted(keep.tolist(), key=self.game_id)

    def upto(self, number: int) -> list[PlacedRow]:
        """The games of planner ids numbered at most ``number`` (the rounds planned so far), in id order."""
        return [self.row(i) for i in self.order(number)]

    def __iter__(self) -> Iterator[PlacedRow]:
        for i in self.order():
            yield self.row(i)

    def rows(self, ids: Iterable[str]) -> list[PlacedRow]:
        """The kept games among ``ids``, in game-id order."""
        wanted = set(ids)
        return [self.row(i) for i in self.order() if self.game_id(i) in wanted]

    def top1(self, index: dict[str, int]) -> tuple[list[tuple[int, tuple[int, ...]]], Any, Any, int]:
        """The fit's data in bounded size: the distinct top-1 choices (as bot numbers of ``index``), and for each
        choice every game made, in game order, which distinct one it was and which deal the game was.

        Returns ``(distinct, choice_of, deal_of, deals)`` (numpy arrays of one entry per choice made); deals are
        numbered by first appearance, the games of a duplicate deal (one seed) sharing a number."""
        import numpy as np

        from .ratings import choices

        distinct: dict[tuple[int, tuple[int, ...]], int] = {}
        made: dict[tuple[tuple[int, ...], bytes], list[int]] = {}
        choice_of, game_of = array("i"), array("i")  # read by numpy in place (int32: no copy a game)
        mine = [index.get(n, -1) for n in self.names]
        order = self.order()
        for rank, i in enumerate(order):
            start = self._start[i]
            end = self._start[i + 1] if i + 1 < len(self._start) else len(self._bots)
            key = (tuple(self._bots[start:end]), self._places[start:end].tobytes())
            ks = made.get(key)
            if ks is None:  # a seating and places not seen before (there are few distinct ones)
                if len(made) > 50_000:
                    made.clear()
                seating = [mine[b] for b in key[0]]
                ks = made[key] = [distinct.setdefault((seating[seat], tuple(seating[o] for o in others)), len(distinct))
                                  for seat, others in choices(self._places[start:end])]
            choice_of.extend(ks)
            game_of.extend([rank] * len(ks))
        seeds = np.frombuffer(self._seeds, dtype=np.int64)[np.asarray(order, dtype=np.int64)] if order else \
            np.zeros(0, dtype=np.int64)
        del order
        _, first, inverse = np.unique(seeds, return_index=True, return_inverse=True)
        number = np.empty(len(first), dtype=np.int32)
        number[np.argsort(first, kind="stable")] = np.arange(len(first), dtype=np.int32)
        deal_of = number[inverse][np.frombuffer(game_of, dtype=np.int32)] if len(game_of) else np.zeros(0, np.int32)
        chosen = np.frombuffer(choice_of, dtype=np.int32) if len(choice_of) else np.zeros(0, np.int32)
        return list(distinct), chosen, deal_of, len(first)


class _Numbers:
    """A set of game numbers as a bitmap (a bit a number: ids are dense from 1), a set beyond ``BITMAP_MAX``."""

    BITMAP_MAX = 1 << 27

    def __init__(self) -> None:
        self._bits = bytearray()
        self._rest: set[int] = set()

    def __contains__(self, n: int) -> bool:
        if 0 <= n < self.BITMAP_MAX:
            byte = n >> 3
            return byte < len(self._bits) and bool(self._bits[byte] & (1 << (n & 7)))
        return n in self._rest

    def add(self, n: int) -> None:
        if 0 <= n < self.BITMAP_MAX:
            byte = n >> 3
            if byte >= len(self._bits):
                self._bits.extend(bytes(max(byte + 1 - len(self._bits), len(self._bits) // 2)))
            self._bits[byte] |= 1 << (n & 7)
        else:
            self._rest.add(n)
