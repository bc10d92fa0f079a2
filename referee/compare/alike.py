"""Candidates that play alike: the same games on the same deals.

Pure values. Every candidate of ``compare BASE --candidate ...`` plays deal ``k`` on the same seed, at the same
seats, against the same base and field; two candidates that give the same answers there play the same games,
move for move. ``Alike`` keeps, per candidate and deal, a digest of its pair's moves (the actions of both twins:
no names, so two copies under two names match) and finds the candidates whose games were the same on every deal
both played (**identical**: one bot, whatever the names) or on at least ``NEAR`` of them (**near-identical**). Their
tests see the same pairs, so they reach the same verdict together: no winner is declared between them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Sequence

#: The share of shared deals with the same games from which two candidates are called near-identical.
NEAR = 0.9
#: The fewest shared deals to call two candidates alike (a few deals can match by chance: short games).
MIN_DEALS = 10


@dataclass(frozen=True)
class Likeness:
    """Candidates ``a`` and ``b`` (indices, ``a < b``): the deals both played and those with the same games."""

    a: int
    b: int
    shared: int
    same: int

    @property
    def identical(self) -> bool:
        return self.same == self.shared

    @property
    def share(self) -> float:
        return self.same / self.shared if self.shared else 0.0

    def text(self, names: Sequence[str]) -> str:
        """``hard and hard#2 played the same games on all 150 deals they shared (identical: the same answers on the
        same deals)``."""
        a, b = names[self.a], names[self.b]
        if self.identical:
            return (f"{a} and {b} played the same games on all {self.shared} deals they shared (identical: the same "
                    f"answers on the same deals)")
        return (f"{a} and {b} played the same games on {self.same} of the {self.shared} deals they shared "
                f"({100 * self.share:.0f}%: near-identical)")


def pair_digest(actions_a: str, actions_b: str) -> bytes:
    """A pair's moves, as a short digest (the actions of both twins)."""
    return hashlib.blake2b(f"{actions_a}\n{actions_b}".encode(), digest_size=8).digest()


class Alike:
    """Each candidate's games, deal by deal, as digests; the pairs of candidates that played alike."""

    def __init__(self, candidates: int) -> None:
        self.games: list[dict[int, bytes]] = [{} for _ in range(candidates)]

    def add(self, candidate: int, deal: int, actions_a: str, actions_b: str) -> None:
        """Candidate ``candidate``'s twins on deal ``deal``, counted."""
        self.games[candidate][deal] = pair_digest(actions_a, actions_b)

    def likeness(self, a: int, b: int) -> Likeness:
        mine, theirs = self.games[a], self.games[b]
        shared = mine.keys() & theirs.keys()
        return Likeness(min(a, b), max(a, b), len(shared), sum(1 for k in shared if mine[k] == theirs[k]))

    def pairs(self) -> list[Likeness]:
        """Every two candidates that played alike: identical, or the same games on ``NEAR`` of ``MIN_DEALS`` or more
        shared deals."""
        out = []
        for a in range(len(self.games)):
            for b in range(a + 1, len(self.games)):
                like = self.likeness(a, b)
                if like.shared >= MIN_DEALS and like.share >= NEAR:
                    out.append(like)
        return out

    def group_of(self, candidate: int) -> list[int]:
        """``candidate`` and every candidate that played alike with it, in order."""
        found = {candidate}
        for like in self.pairs():
            if candidate in (like.a, like.b):
                found |= {like.a, like.b}
        return sorted(found)
