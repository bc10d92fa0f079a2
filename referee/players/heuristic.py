"""``easy``, ``medium`` and ``hard``: the family document's three difficulties."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine.actions import COLOUR, PLAY
from referee.players.base import Player, SeatView, choice

if TYPE_CHECKING:
    from referee.engine.actions import Action


def _colour_counts(view: SeatView) -> dict[str, int]:
    """How many cards of each colour the seat holds (colours it lacks are absent)."""
    # A dict counted in a loop, not a ``Counter``: its ``__init__`` is Python (a quarter of a ``hard`` game).
    counts: dict[str, int] = {}
    for card in view.hand:
        colour = card.colour
        if colour is not None:
            counts[colour] = counts.get(colour, 0) + 1
    return counts


def _best_colour(view: SeatView, counts: dict[str, int] | None = None) -> str:
    """The colour this seat holds most of (ties: the deck's colour order)."""
    counts = counts if counts is not None else _colour_counts(view)
    # ``max(view.colours, key=...)`` written out: the first colour with the highest count, without a key call each.
    best, most = "", -1
    for colour in view.colours:
        held = counts.get(colour, 0)
        if held > most:
            best, most = colour, held
    return best


def _pick_colour(view: SeatView, legal: list[Action], options: list[Action]) -> Action | None:
    """Among plays/answers that name a colour, keep the one naming the colour held most of."""
    best = _best_colour(view)
    for a in options:
        if a.colour in (None, best):
            return a
    return options[0] if options else None


class EasyPlayer(Player):
    """Plays whatever matches: the first playable card in its hand; draws only when nothing plays."""

    name = "easy"

    def __init__(self, seed: int = 0) -> None:
        # Its own __init__, though it only calls Player's: compiled, a subclass without one ran Player.__init__
        # twice per player (a second generator seeded, the first one leaked: mypyc's inherited tp_init).
        super().__init__(seed)

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        # Kinds are enum members (``Action`` makes them so): compared by identity, not as strings.
        plays = [a for a in legal if a.kind is PLAY or a.kind is COLOUR]
        if not plays:
            return legal[0]
        first = plays[0].cards
        same = [a for a in plays if a.cards is first or a.cards == first]
        return choice(self.rng, same)  # a wild names any colour


class MediumPlayer(Player):
    """Plays a matching coloured card before a wild, the longest stack first, and names its commonest colour."""

    name = "medium"

    def __init__(self, seed: int = 0) -> None:
        # Its own __init__, though it only calls Player's: compiled, a subclass without one ran Player.__init__
        # twice per player (a second generator seeded, the first one leaked: mypyc's inherited tp_init).
        super().__init__(seed)

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        plays = [a for a in legal if a.kind == PLAY]
        colours = [a for a in legal if a.kind == COLOUR]
        if colours:
            return _pick_colour(view, legal, colours) or legal[0]
        if not plays:
            return legal[0]
        plain = [a for a in plays if not a.cards[-1].is_wild]
        pool = plain or plays
        longest = max(len(a.cards) for a in pool)
        pool = [a for a in pool if len(a.cards) == longest]
        return _pick_colour(view, legal, pool) or pool[0]


class HardPlayer(Player):
    """Keeps its wilds, names the colour it holds most of, saves Skip/Draw Two for a player about to go out,
    sheds heavy cards once anyone is close, and always makes the last-card call."""

    name = "hard"

    def __init__(self, seed: int = 0) -> None:
        # Its own __init__, though it only calls Player's: compiled, a subclass without one ran Player.__init__
        # twice per player (a second generator seeded, the first one leaked: mypyc's inherited tp_init).
        super().__init__(seed)

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        colours = [a for a in legal if a.kind == COLOUR]
        if colours:
            return _pick_colour(view, legal, colours) or legal[0]
        plays = [a for a in legal if a.kind == PLAY]
        if not plays:
            return legal[0]
        sizes = view.hand_sizes
        me = view.seat
        nxt = view.next_seat()
        someone_close = any(n <= 2 for s, n in enumerate(sizes) if s != me)
        next_close = sizes[nxt] <= 2
        counts = _colour_counts(view)
        best = _best_colour(view, counts)
        my_size = len(view.hand)

        def score(a: Action) -> float:
            cards = a.cards
            last = cards[-1]
            s = 10.0 * len(cards)  # shedding more is better
            if len(cards) == my_size:
                return 1e6  # going out wins the round
            if last.is_wild:
                s -= 60  # keep wilds for when nothing else plays
                if a.colour != best:
                    s -= 5
            elif last.rank in ("skip", "draw2", "wild4"):
                s += 40 if next_close else -15  # save them for the player about to go out
            if someone_close:
                s += sum(c.points for c in cards)  # what we keep is what they score
            else:
                # Keep the colour we hold most of in play.
                s += 2 * counts.get(last.colour or a.colour or "", 0)
            if a.call:
                s += 1
            return s

        best_play = max(plays, key=score)
        if best_play.cards[-1].is_wild and view.phase == "drawn" and not someone_close:
            draw_or_pass = [a for a in legal if a.kind != PLAY]
            if draw_or_pass:
                return draw_or_pass[0]  # keep a drawn wild
        return best_play
