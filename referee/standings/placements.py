"""What a long run keeps of each game in memory: who sat where and their places, as small integer arrays.

The standings' counts (``Tally``), the head-to-head matrix and the timing are sums, kept as games end;
everything else a game says is in games.jsonl on disk. The rating fit and a planner's order need each
game's seating and places again, so ``PlacementLog`` keeps those (a few dozen bytes a game, in
``array`` columns rather than Python objects of a few hundred) and hands them back as ``PlacedRow``\\ s.
"""

from __future__ import annotations

import re
from array import array
from typing import TYPE_CHECKING, Any, ClassVar, Iterable, Iterator, Literal, Sequence, overload

from referee.store.results import Slot

if TYPE_CHECKING:
    import numpy as np

_PLAN_ID = re.compile(r"([A-Za-z])(\d{1,17})([a-z]?)")
#: A planner id is kept as its number times this plus its last letter's
#: (g0012: 12 * 27; compare's p000012b: 12 * 27 + 2), so the numbers sort as the ids do when their digits are as wide.
_LETTERS = 27



def choices(placements: Sequence[int]) -> list[tuple[int, list[int]]]:
    """One game's placements (by seat, 1 = best, ties share) as top-1 choices ``(seat, other seats in the choice)``."""
    seats = sorted(range(len(placements)), key=lambda s: placements[s])
    out = []
    i = 0
    while i < len(seats):
        place = placements[seats[i]]
        j = i
        while j < len(seats) and placements[seats[j]] == place:
            j += 1
        remaining = seats[i:]
        if len(remaining) > 1:
            for s in seats[i:j]:
                out.append((s, [o for o in remaining if o != s]))
        i = j
    return out

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

    Game ids of the planner's form (a letter and digits, ``g0001``, and compare's ``p000001a`` with a last small
    letter) are kept as a number; any other id is kept as text.
    The columns widen only as their values need (``_Column``), and while every game has the same
    number of seats no game's start is kept: about 30 bytes a game in a 4-seat match. Iterating gives
    ``PlacedRow``\\ s in game-id order (the order every fit and report uses, so the result does not
    depend on which game ended first).
    """

    def __init__(self, names: Iterable[str] = ()) -> None:
        self.names: list[str] = []
        self._bot: dict[str, int] = {}
        for n in names:
            self._number(n)
        self._stages: list[str | None] = []
        self._stage_no: dict[str | None, int] = {}
        self._ids = _Column()        # a planner id as a number (_LETTERS), or -1 - its place in _other_ids
        self._width: int | None = None          # the digits written in planner ids (g0001: 4) ...
        self._widths: dict[int, int] = {}       # ... and, by game, those written otherwise (g10000 past g9999)
        self._other_ids: list[str] = []
        self._seeds = array("q")
        self._stage = _Column()
        self._round = _Column()      # -1: None
        self._table = _Column()
        self._deal = _Column()
        self._seats: int | None = None          # the seats of every game so far ...
        self._start: array[int] | None = None        # ... or, once games differ, where each game's seats begin
        self._bots = _Column()
        self._places = array("B")
        self._scores = _Column()     # by seat, as _bots
        self._seen = _Numbers()
        self._prefix: str | None = None  # the letter of planner ids (g0001; a ladder's L000001)
        self._played: set[int] = set()
        self._seen_other: set[str] = set()
        #: Each seating seen lately as bot numbers: a run seats the same few orders game after game.
        self._seatings: dict[tuple[str, ...], tuple[int, ...]] = {}

    @classmethod
    def of(cls, games: Iterable[Any], names: Iterable[str] = ()) -> PlacementLog:
        """The games given (each with ``seed``, ``seating``, ``placements``), kept in the order given, none dropped."""
        log = cls(names)
        for n, g in enumerate(games):
            log.add(f"g{n:017d}", g.seed, g.seating, g.placements, getattr(g, "scores", ()) or (),
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
        """A planner id as a number and its digits' width (``g0012``: 12 * 27, 4; ``p000012b``: 12 * 27 + 2, 6), when
        it has this log's letter."""
        digits = game_id[1:]
        if 0 < len(digits) <= 17 and digits.isascii() and digits.isdigit():
            # The common id (g0012), read as the pattern would read it, at a fraction of the cost.
            letter = game_id[:1]
            if not (letter.isascii() and letter.isalpha()) or letter != (self._prefix or letter):
                return None
            self._prefix = letter
            return int(digits) * _LETTERS, len(digits)
        m = _PLAN_ID.fullmatch(game_id)
        if m is None or m.group(1) != (self._prefix or m.group(1)):
            return None
        self._prefix = m.group(1)
        last = m.group(3)
        return int(m.group(2)) * _LETTERS + (ord(last) - 96 if last else 0), len(m.group(2))

    def __contains__(self, game_id: str) -> bool:
        plan = self._plan_number(game_id)
        return plan[0] in self._seen if plan else game_id in self._seen_other

    def _add_id(self, game: str) -> bool:
        plan = self._plan_number(game)
        if plan:
            number, width = plan
            if not self._seen.add_new(number):
                return False
            if self._width is None:
                self._width = width
            elif width != self._width:
                self._widths[len(self._ids)] = width
            self._ids.append(number)
        else:
            if game in self._seen_other:
                return False
            self._seen_other.add(game)
            self._ids.append(-1 - len(self._other_ids))
            self._other_ids.append(game)
        return True

    def add(self, game: str, seed: int, seating: Sequence[str], placements: Sequence[int],
            scores: Sequence[int], slot: Slot) -> bool:
        """Keep one game; False (and nothing kept) when a game of that id is already kept.

        All or nothing: an exception between two columns (Ctrl-C lands between any two lines) takes back what
        was kept of the game, so the columns never disagree on the number of games (a half-kept game made
        the standings printed at Ctrl-C index past the seeds)."""
        kept = (game in self, len(self._ids), len(self._bots), self._seats, self._start, self._width,
                len(self._other_ids))
        try:
            return self._add(game, seed, seating, placements, scores, slot)
        except BaseException:
            self._take_back(game, *kept)
            raise

    def _take_back(self, game: str, seen: bool, games: int, seat_entries: int, seats: int | None,
                   start: array[int] | None, width: int | None, others: int) -> None:
        """Back to ``games`` games (and the rest as they were then); ``game`` seen only if it was (``seen``).
        The stages, seatings and bots met are left: a name or order kept once more changes no count."""
        plan = self._plan_number(game)
        if not seen:
            if plan:
                self._seen.discard(plan[0])
            else:
                self._seen_other.discard(game)
        del self._other_ids[others:]
        self._widths.pop(games, None)
        self._width = width
        for column in (self._ids, self._stage, self._round, self._table, self._deal):
            del column.a[games:]
        del self._seeds[games:]
        del self._bots.a[seat_entries:]
        del self._places[seat_entries:]
        del self._scores.a[seat_entries:]
        self._seats = seats
        if start is None:
            self._start = None
        else:
            del start[games:]

    def _add(self, game: str, seed: int, seating: Sequence[str], placements: Sequence[int],
             scores: Sequence[int], slot: Slot) -> bool:
        if not self._add_id(game):
            return False
        stage = self._stage_no.get(slot.stage)
        if stage is None:
            stage = self._stage_no[slot.stage] = len(self._stages)
            self._stages.append(slot.stage)
        self._seeds.append(seed)
        self._stage.append(stage)
        self._round.append(-1 if slot.round is None else slot.round)
        self._table.append(-1 if slot.table is None else slot.table)
        self._deal.append(-1 if slot.deal is None else slot.deal)
        self._add_start(len(seating))
        bots = self._seating(tuple(seating))
        self._bots.extend(bots)
        self._places.extend(placements)
        self._scores.extend(scores if len(scores) == len(bots) else (0,) * len(bots))
        return True

    def _seating(self, seating: tuple[str, ...]) -> tuple[int, ...]:
        """The seating as bot numbers (each counted as having played)."""
        bots = self._seatings.get(seating)
        if bots is None:
            if len(self._seatings) >= 4096:  # a field of many bots seats them in many orders: keep a few
                self._seatings.clear()
            bots = self._seatings[seating] = tuple(self._number(n) for n in seating)
            self._played.update(bots)
        return bots

    def _add_start(self, seats: int) -> None:
        if self._start is None:
            if self._seats is None:
                self._seats = seats
            if seats == self._seats:
                return
            self._start = array("q", range(0, len(self._bots), self._seats))  # games of another size: starts kept
        self._start.append(len(self._bots))

    def _span(self, i: int) -> tuple[int, int]:
        """Where game ``i``'s seats are in the seat columns."""
        if self._start is None:
            k = self._seats or 0
            return i * k, i * k + k
        end = self._start[i + 1] if i + 1 < len(self._start) else len(self._bots)
        return self._start[i], end

    def played(self) -> list[str]:
        """The bots that sat in at least one game."""
        return [self.names[b] for b in sorted(self._played)]

    def game_id(self, i: int) -> str:
        number = self._ids[i]
        if number < 0:
            return self._other_ids[-1 - number]
        number, last = divmod(number, _LETTERS)
        return f"{self._prefix}{number:0{self._widths.get(i, self._width)}d}{chr(96 + last) if last else ''}"

    def row(self, i: int) -> PlacedRow:
        start, end = self._span(i)
        names = self.names
        rnd, table, deal = self._round[i], self._table[i], self._deal[i]
        slot = Slot(self._stages[self._stage[i]], None if rnd < 0 else rnd, None if table < 0 else table,
                    None if deal < 0 else deal)
        return PlacedRow(self.game_id(i), self._seeds[i], tuple(names[b] for b in self._bots[start:end]),
                         tuple(self._places[start:end]), tuple(self._scores[start:end]), slot)

    def order(self, upto: int | None = None) -> Sequence[int] | np.ndarray:
        """The games' positions in game-id order (as the ids sort as text, which the reports have always used);
        ``upto``: only planner ids numbered at most that."""
        import numpy as np

        ids = self._ids.numpy()
        keep = np.arange(len(ids)) if upto is None else np.flatnonzero((ids >= 0) & (ids < (upto + 1) * _LETTERS))
        if not len(keep):
            return []
        width = self._width or 0
        if not self._widths and int(ids[keep].min()) >= 0 and int(ids[keep].max()) < 10 ** width * _LETTERS:
            return keep[np.argsort(ids[keep], kind="stable")]  # numbers in fixed width sort as text
        return sorted(keep.tolist(), key=self.game_id)

    def upto(self, number: int) -> list[PlacedRow]:
        """The games of planner ids numbered at most ``number`` (the rounds planned so far), in id order."""
        return [self.row(i) for i in self.order(number)]

    def __iter__(self) -> Iterator[PlacedRow]:
        for i in self.order():
            yield self.row(int(i))

    def rows(self, ids: Iterable[str]) -> list[PlacedRow]:
        """The kept games among ``ids``, in game-id order."""
        wanted = set(ids)
        return [self.row(int(i)) for i in self.order() if self.game_id(int(i)) in wanted]

    def top1(self, index: dict[str, int]) -> Top1:
        """The fit's data in bounded size: the distinct top-1 choices (as bot numbers of ``index``); the kinds of
        game (a seating and its places: there are few), each as the distinct choices it makes; and for every
        game, in game order, its kind and its deal (deals numbered by first appearance, the games of a
        duplicate deal, one seed, sharing a number)."""
        import numpy as np

        order = np.asarray(self.order(), dtype=np.int64)
        kind_of, firsts = self._kinds(order)
        distinct: dict[tuple[int, tuple[int, ...]], int] = {}
        mine = [index.get(n, -1) for n in self.names]
        kinds = []
        for i in firsts:
            start, end = self._span(int(i))
            seating = [mine[b] for b in self._bots[start:end]]
            kinds.append([distinct.setdefault((seating[seat], tuple(seating[o] for o in others)), len(distinct))
                          for seat, others in choices(self._places[start:end])])
        seeds = np.frombuffer(self._seeds, dtype=np.int64)[order] if len(order) else np.zeros(0, dtype=np.int64)
        del order
        ordered = np.sort(seeds)
        if not (ordered[1:] == ordered[:-1]).any():  # every game a deal of its own, in game order (a match's)
            return Top1(list(distinct), kinds, kind_of, None, len(seeds))
        del ordered
        _, first, inverse = np.unique(seeds, return_index=True, return_inverse=True)
        del seeds
        number = np.empty(len(first), dtype=np.int32)
        number[np.argsort(first, kind="stable")] = np.arange(len(first), dtype=np.int32)
        return Top1(list(distinct), kinds, kind_of, number[inverse.reshape(-1)], len(first))

    #: Seatings and places are numbered through a table of this many entries at most (5 bytes each); past it,
    #: a dict of the kinds seen.
    KINDS_TABLE = 1 << 22

    def _kinds(self, order: Any) -> tuple[Any, list[int]]:
        """Each game's kind (its seating and places: an int32 array in ``order``) and a game of each kind."""
        import numpy as np

        if self._start is None and len(order):
            k = self._seats or 0
            bots = self._bots.numpy().reshape(-1, k)
            places = np.frombuffer(self._places, dtype=np.uint8).reshape(-1, k)
            top = int(places.max()) + 1
            base = len(self.names) * top
            if base ** k <= self.KINDS_TABLE:  # a number for each seating and places, below the table's size
                key = np.zeros(len(order), dtype=np.int32)  # in game order
                for seat in range(k):
                    key *= base
                    key += bots[order, seat].astype(np.int32) * top + places[order, seat]
                seen = np.zeros(base ** k, dtype=bool)
                seen[key] = True
                table = np.full(base ** k, -1, dtype=np.int32)
                found = np.flatnonzero(seen)
                del seen
                table[found] = np.arange(len(found), dtype=np.int32)
                kind = table[key]
                del key, table
                first = np.full(len(found), len(order), dtype=np.int64)
                np.minimum.at(first, kind, np.arange(len(order), dtype=np.int64))
                by_first = np.argsort(first, kind="stable")  # kinds numbered as they first come, in game order
                number = np.empty(len(found), dtype=np.int32)
                number[by_first] = np.arange(len(found), dtype=np.int32)
                return number[kind], order[first[by_first]].tolist()
        numbered: dict[tuple[tuple[int, ...], bytes], int] = {}
        kind_of = array("i")
        firsts: list[int] = []
        for i in order.tolist():
            start, end = self._span(i)
            seating = (tuple(self._bots[start:end]), self._places[start:end].tobytes())
            n = numbered.get(seating)
            if n is None:
                n = numbered[seating] = len(firsts)
                firsts.append(i)
            kind_of.append(n)
        return np.frombuffer(kind_of, dtype=np.int32) if len(kind_of) else np.zeros(0, np.int32), firsts


class Top1:
    """A log's games as the rating fit reads them (``PlacementLog.top1``).

    ``distinct``: the distinct top-1 choices, (the chosen bot, the others chosen from); ``kinds``: each kind
    of game (a seating and its places) as the distinct choices it makes; ``kind_of`` and ``deal_of``: each
    game's kind and deal, in game order (int32 arrays; ``deal_of`` None when every game is a deal of its own);
    ``deals``: how many deals.
    """

    def __init__(self, distinct: list[tuple[int, tuple[int, ...]]], kinds: list[list[int]], kind_of: Any,
                 deal_of: Any, deals: int) -> None:
        import numpy as np

        self.distinct, self.kinds, self.kind_of, self.deal_of, self.deals = distinct, kinds, kind_of, deal_of, deals
        self._kind = np.array([k for k, made in enumerate(kinds) for _ in made], dtype=np.int64)
        self._choice = np.array([c for made in kinds for c in made], dtype=np.int64)

    def counts(self, game_weights: Any = None) -> Any:
        """How often each distinct choice was made, each game counting ``game_weights`` (default: once)."""
        import numpy as np

        per_kind = np.bincount(self.kind_of, weights=game_weights, minlength=len(self.kinds)).astype(float)
        return np.bincount(self._choice, weights=per_kind[self._kind], minlength=len(self.distinct))


class _Column:
    """Integers in an ``array`` whose type widens as the values need (``b``, ``h``, ``i``, then ``q``): a game's
    table and round take a byte, its deal four bytes only once deals pass 32,767."""

    __slots__ = ("a",)
    WIDER: ClassVar[dict[str, Literal["h", "i", "q"]]] = {"b": "h", "h": "i", "i": "q"}

    def __init__(self) -> None:
        self.a = array("b")

    def __len__(self) -> int:
        return len(self.a)

    @overload
    def __getitem__(self, i: int) -> int: ...
    @overload
    def __getitem__(self, i: slice) -> array[int]: ...
    def __getitem__(self, i: int | slice) -> int | array[int]:
        return self.a[i]

    def append(self, value: int) -> None:
        try:
            self.a.append(value)
        except OverflowError:
            self._widen(value)
            self.a.append(value)

    def extend(self, values: Sequence[int]) -> None:
        at = len(self.a)
        try:
            self.a.extend(values)
        except OverflowError:
            del self.a[at:]  # the values before the one too wide went in
            self._widen(max(values, key=abs))
            self.a.extend(values)

    def _widen(self, value: int) -> None:
        code: str = self.a.typecode
        while True:
            code = self.WIDER[code]  # a KeyError past "q": no game holds a number past 64 bits
            try:
                array(code, [value])
                break
            except OverflowError:
                continue
        self.a = array(code, self.a)

    def numpy(self) -> Any:
        """The column as a numpy array read in place (no copy)."""
        import numpy as np

        return np.frombuffer(self.a, dtype=self.a.typecode) if len(self.a) else np.zeros(0, dtype=np.int64)


class _Numbers:
    """A set of planner id numbers (``_LETTERS``) as a bitmap of three bits a game number (no last letter, ``a``,
    ``b``: ids are dense from 1), a set for the others and beyond ``BITMAP_MAX``."""

    BITMAP_MAX = 1 << 27  # 16 MB at most: 44 million games

    def __init__(self) -> None:
        self._bits = bytearray()
        self._rest: set[int] = set()

    @staticmethod
    def _bit(n: int) -> int:
        number, last = divmod(n, _LETTERS)
        return number * 3 + last if last < 3 and 0 <= number * 3 < _Numbers.BITMAP_MAX else -1

    def __contains__(self, n: int) -> bool:
        bit = self._bit(n)
        if bit >= 0:
            byte = bit >> 3
            return byte < len(self._bits) and bool(self._bits[byte] & (1 << (bit & 7)))
        return n in self._rest

    def discard(self, n: int) -> None:
        """``n`` no longer in the set."""
        bit = self._bit(n)
        if bit < 0:
            self._rest.discard(n)
        elif bit >> 3 < len(self._bits):
            self._bits[bit >> 3] &= ~(1 << (bit & 7)) & 0xFF

    def add_new(self, n: int) -> bool:
        """Add ``n``; False (nothing changed) when it was there already."""
        bit = self._bit(n)
        if bit < 0:
            if n in self._rest:
                return False
            self._rest.add(n)
            return True
        byte, mask = bit >> 3, 1 << (bit & 7)
        if byte >= len(self._bits):
            self._bits.extend(bytes(max(byte + 1 - len(self._bits), len(self._bits) // 2)))
        elif self._bits[byte] & mask:
            return False
        self._bits[byte] |= mask
        return True

    def add(self, n: int) -> None:
        bit = self._bit(n)
        if bit >= 0:
            byte = bit >> 3
            if byte >= len(self._bits):
                self._bits.extend(bytes(max(byte + 1 - len(self._bits), len(self._bits) // 2)))
            self._bits[byte] |= 1 << (bit & 7)
        else:
            self._rest.add(n)
