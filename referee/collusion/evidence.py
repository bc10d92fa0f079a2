"""The collusion table of a class, as pure figures: each pair's joint gain from the games played again, each
direction's spared chances from the stored games, the tests, and Holm's adjustment over the whole family.

Mazrooei, Archibald and Bowling (AAAI 2013) score a pair by the sum of what each gains from the other's
decisions, without modelling any particular collusive behaviour; here a bot's gain from another is measured on
the same deal with and without it: in each stored game where B sat, B's seat is taken by a reference player and
the game played again. A's change of place score (``d_A``), less the mean change of the other seats that
stayed (what B's presence meant to everyone at that table), is what A gained from B at that table. A skilled
honest A gains from a weak honest B, but then B loses from A by as much: the sum of the two directions, over the
stored games where both sat (each played again twice: without B, without A), cancels that, and is what is tested
(one-sided t-test, mean above 0). A kingmaker B that gives A the game shows in it too.

The moves: B's chances to hurt the seat after it (``moves.Chances``), taken less often when A sits there than
when anyone else does, stratum by stratum of the taker's hand (one-sided Cochran-Mantel-Haenszel), in each
direction. Each pair is thus tested three times; Holm's step-down procedure controls the chance of flagging any
pair of an honest class (the family-wise error rate) at ``alpha``: a pair to look at costs a teacher's time and a
student's peace, so the guarantee asked for is about any false flag, not the share of false flags among many true
ones (Benjamini-Hochberg's false discovery rate, suited to screening where many true findings are expected).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

from referee.collusion.figures import Stratum, holm, mantel_haenszel_less, t_sf
from referee.collusion.moves import Chances

#: The fewest stored games two bots shared, each played again twice, for the joint test.
MIN_TABLES = 5


@dataclass(frozen=True)
class Direction:
    """What ``gainer`` got from ``giver``: its gain at the tables played again without the giver, and the
    giver's chances to hurt it (by stratum of its hand) beside those against every other seat."""

    gainer: str
    giver: str
    gains: tuple[float, ...]
    strata: tuple[Stratum, ...]
    p_spared: float | None

    @property
    def gain(self) -> float | None:
        """The mean gain (place score: 1 first, 0 last), ``None`` without a table played again."""
        return sum(self.gains) / len(self.gains) if self.gains else None

    @property
    def chances(self) -> int:
        return sum(s.ours for s in self.strata)

    @property
    def taken(self) -> int:
        return sum(s.ours_taken for s in self.strata)

    @property
    def others_chances(self) -> int:
        return sum(s.theirs for s in self.strata)

    @property
    def others_taken(self) -> int:
        return sum(s.theirs_taken for s in self.strata)


@dataclass(frozen=True)
class PairEvidence:
    """One pair: both directions, the joint gain's test, every test adjusted (Holm) and what it comes to."""

    bot_a: str
    bot_b: str
    tables: int
    """Stored games both sat at."""
    joint: tuple[float, ...]
    """Per stored game both sat at and played again both ways: what A gained from B plus what B gained from A."""
    a_from_b: Direction
    b_from_a: Direction
    p_joint: float | None
    adjusted: tuple[float | None, float | None, float | None] = (None, None, None)
    """Holm-adjusted p-values of the joint gain, B sparing A, A sparing B."""
    note: str = ""
    """Why a test could not be made (never seated together, too few tables, a bot that did not start)."""

    @property
    def joint_gain(self) -> float | None:
        return sum(self.joint) / len(self.joint) if self.joint else None

    @property
    def p_adjusted(self) -> float | None:
        """The pair's strongest evidence: the smallest of its adjusted p-values."""
        found = [p for p in self.adjusted if p is not None]
        return min(found) if found else None

    def look(self, alpha: float) -> bool:
        """Whether the pair is one to look at: a test rejects at family-wise error rate ``alpha``."""
        p = self.p_adjusted
        return p is not None and p <= alpha


def one_sample_greater(values: Sequence[float]) -> float | None:
    """The one-sided t-test p-value that the mean of ``values`` is above 0 (``None`` under two values)."""
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    if var == 0.0:
        return 0.0 if mean > 0 else 1.0 if mean < 0 else 0.5
    return t_sf(mean / math.sqrt(var / n), n - 1)


@dataclass(frozen=True)
class Observations:
    """What the games played again gave: per (gainer, giver), the gain at each stored game (by id)."""

    gains: Mapping[tuple[str, str], Mapping[str, float]]
    tables: Mapping[frozenset[str], int]
    """Stored games each pair of bots sat at together."""


def collusion_table(bots: Sequence[str], seen: Observations, chances: Chances,
                    notes: Mapping[frozenset[str], str] | None = None) -> list[PairEvidence]:
    """Every pair of ``bots`` with its evidence, tested and adjusted; strongest evidence first."""
    rows = []
    for i, a in enumerate(bots):
        for b in bots[i + 1:]:
            rows.append(_pair(a, b, seen, chances, (notes or {}).get(frozenset((a, b)), "")))
    flat = [p for r in rows for p in (r.p_joint, r.b_from_a.p_spared, r.a_from_b.p_spared)]
    adjusted = holm(flat)
    out = [PairEvidence(r.bot_a, r.bot_b, r.tables, r.joint, r.a_from_b, r.b_from_a, r.p_joint,
                        (adjusted[3 * k], adjusted[3 * k + 1], adjusted[3 * k + 2]), r.note)
           for k, r in enumerate(rows)]
    return sorted(out, key=_order)


def _order(r: PairEvidence) -> tuple[float, float, str, str]:
    p = r.p_adjusted
    return (p if p is not None else 2.0, -(r.joint_gain or 0.0), r.bot_a, r.bot_b)


def _direction(gainer: str, giver: str, seen: Observations, chances: Chances) -> Direction:
    strata = tuple(chances.strata(giver, gainer))
    gains = seen.gains.get((gainer, giver), {})
    return Direction(gainer, giver, tuple(gains[g] for g in sorted(gains)), strata, mantel_haenszel_less(strata))


def _pair(a: str, b: str, seen: Observations, chances: Chances, note: str) -> PairEvidence:
    a_from_b = _direction(a, b, seen, chances)
    b_from_a = _direction(b, a, seen, chances)
    ab = seen.gains.get((a, b), {})
    ba = seen.gains.get((b, a), {})
    joint = tuple(ab[g] + ba[g] for g in sorted(set(ab) & set(ba)))
    tables = seen.tables.get(frozenset((a, b)), 0)
    if not note and tables == 0:
        note = "never seated together"
    elif not note and len(joint) < MIN_TABLES:
        note = (f"{len(joint)} of its tables played again both ways; the joint test needs {MIN_TABLES}"
                if len(joint) < tables else f"only {tables} tables together; the joint test needs {MIN_TABLES}")
    p_joint = one_sample_greater(joint) if len(joint) >= MIN_TABLES else None
    return PairEvidence(a, b, tables, joint, a_from_b, b_from_a, p_joint, note=note)
