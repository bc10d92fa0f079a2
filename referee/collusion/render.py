"""The collusion table as the terminal shows it: the pairs to look at (or the closest few), each with both kinds
of evidence in words, what could not be measured, and how to read it."""

from __future__ import annotations

from referee.collusion.evidence import Direction, PairEvidence
from referee.collusion.folder import Measured


def _p(p: float | None) -> str:
    if p is None:
        return "-"
    return "<1e-9" if p < 1e-9 else f"{p:.2g}"


def _spared(d: Direction) -> str:
    """``b hit a 2 of 30 chances, the others 40 of 60``: the giver's chances to hurt the gainer."""
    if not d.chances:
        return f"{d.giver} never had a chance to hurt {d.gainer}"
    theirs = f"{d.others_taken} of {d.others_chances}" if d.others_chances else "none"
    return (f"{d.giver} hit {d.gainer} at {d.taken} of {d.chances} chances, the others at {theirs} "
            f"(p {_p(d.p_spared)})")


def _gain(p: PairEvidence) -> str:
    if p.joint_gain is None:
        return f"{p.tables} tables together, not played again both ways"
    a, b = p.a_from_b.gain, p.b_from_a.gain
    return (f"{p.tables} tables together; with each other at the table {p.bot_a} gained {a or 0.0:+.2f} and "
            f"{p.bot_b} {b or 0.0:+.2f} place score a game beyond the others there; joint {p.joint_gain:+.2f} "
            f"over {len(p.joint)} (p {_p(p.p_joint)})")


def lines(m: Measured, top: int = 10) -> list[str]:
    """What ``lastcard collusion`` prints."""
    out = [f"{len(m.bots)} bots, {len(m.pairs)} pairs; {m.stored} stored games, {m.replayed} played again with one "
           f"seat taken by {m.reference} ({m.workers}, {m.wall_s:.0f} s)"]
    looked = [p for p in m.pairs if p.look(m.alpha)]
    if looked:
        out.append(f"pairs to look at (a test below {m.alpha:g} after Holm's correction for the "
                   f"{3 * len(m.pairs)} tests):")
    else:
        out.append(f"no pair to look at (no test below {m.alpha:g} after Holm's correction); the closest:")
    for p in (looked or list(m.pairs[:3]))[:top]:
        out.append(f"  {p.bot_a} / {p.bot_b}: adjusted p {_p(p.p_adjusted)}" + (f" ({p.note})" if p.note else ""))
        out.append(f"      {_gain(p)}")
        out.append(f"      {_spared(p.b_from_a)}")
        out.append(f"      {_spared(p.a_from_b)}")
    out.extend(m.missing)
    out.append("This is evidence to look at, not a verdict: bots of the same style can help one seat by chance of "
               "the seating, and a small class gives few tables a pair; read the games and the two programs before "
               "concluding anything (docs/collusion.md).")
    return out
