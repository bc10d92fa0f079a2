"""The moves that cost one bot and profit another, read from the stored games (nothing is played).

At every decision where a bot could lay a card that hurts the seat after it (a Draw Two, a Wild Draw Four, a
Skip; with two players a Reverse too) and could also do something else, the bot either hurt that seat or spared
it. A bot that spares its friend and hits the others takes these chances less often when the friend sits next.
The chances are counted by who gives (the bot deciding), who would take (the seat after it) and a stratum of the
taker's hand (one card, two, three or four, five or more): an honest bot that spares players on many cards, or
hits players on one, does so whoever they are, and the test compares within a stratum (Cochran-Mantel-Haenszel).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable

from referee.collusion.figures import Stratum
from referee.engine.actions import PLAY, Action
from referee.engine.game import Game
from referee.engine.notation import StoredGame, walk

#: The ranks whose play hurts the seat after the player's (it draws, or loses its turn).
HURTING = frozenset({"draw2", "wild4", "skip"})
#: The strata of the taker's hand: the upper bound of each (one card alone: the seat about to win).
STRATA = (1, 2, 4, 1_000)
STRATUM_NAMES = ("1 card", "2 cards", "3-4 cards", "5+ cards")


def hurts(action: Action, seats: int) -> bool:
    """Whether playing ``action`` hurts the seat after the player's."""
    if action.kind is not PLAY:
        return False
    return any(c.rank in HURTING or (seats == 2 and c.rank == "reverse") for c in action.cards)


def stratum_of(cards: int) -> int:
    """The stratum index of a hand of ``cards`` cards."""
    return next(i for i, top in enumerate(STRATA) if cards <= top)


@dataclass(frozen=True)
class Chances:
    """Counted chances to hurt: by (giver, taker, stratum), how many there were and how many were taken."""

    seen: Counter[tuple[str, str, int]]
    taken: Counter[tuple[str, str, int]]

    def strata(self, giver: str, friend: str) -> list[Stratum]:
        """The giver's chances, stratum by stratum: against ``friend``, and against every other seat."""
        out = []
        for s in range(len(STRATA)):
            ours = self.seen[(giver, friend, s)]
            ours_taken = self.taken[(giver, friend, s)]
            theirs = sum(v for (g, t, k), v in self.seen.items() if g == giver and t != friend and k == s)
            theirs_taken = sum(v for (g, t, k), v in self.taken.items() if g == giver and t != friend and k == s)
            out.append(Stratum(ours, ours_taken, theirs, theirs_taken))
        return out


def count_chances(games: Iterable[StoredGame]) -> Chances:
    """Every stored game's chances to hurt the seat after (a stand-in's move, played after a fault, is not the
    bot's and is not counted)."""
    seen: Counter[tuple[str, str, int]] = Counter()
    taken: Counter[tuple[str, str, int]] = Counter()
    for stored in games:
        names = stored.seating
        for _, game, action, stand_in in walk(stored):
            if action is None or stand_in:
                continue
            chance = _chance(game, len(names))
            if chance is None:
                continue
            key = (names[game.current], names[chance[0]], chance[1])
            seen[key] += 1
            if hurts(action, len(names)):
                taken[key] += 1
    return Chances(seen, taken)


def _chance(game: Game, seats: int) -> tuple[int, int] | None:
    """(the seat after, its stratum) when the player may hurt it and may also do something else; else ``None``."""
    legal = game.legal_actions()
    kinds = {hurts(a, seats) for a in legal}
    if kinds != {True, False}:
        return None
    after = (game.current + game.direction) % seats
    return after, stratum_of(len(game.hands[after]))
