"""The similarity figures as the terminal shows them and as ``similarity.csv`` keeps them."""

from __future__ import annotations

from typing import Sequence

from referee.similar.agreement import KAPPA_STANDS_OUT, RANDOM_BELOW, Similarity
from referee.similar.fingerprints import TextMatch
from referee.similar.text import TEXT_FLAG
from referee.store.similarity_file import BotRow, PairRow, pairs_text, write_similarity


def pair_rows(s: Similarity) -> list[PairRow]:
    """Every pair compared, closest first, as similarity.csv keeps it."""
    return [PairRow(p.a, p.b, p.points, p.agree, p.baseline, p.kappa, p.z, p.above_class, p.stands_out,
                    p.reference or "", p.explained, p.beyond_kappa, p.plays_reference)
            for p in s.pairs]


def bot_rows(s: Similarity) -> list[BotRow]:
    """Every bot asked, as similarity_bots.csv keeps it."""
    random = set(s.random_bots)
    return [BotRow(bot, agree, bot in random, *s.closest.get(bot, ("", None)))
            for bot, agree in sorted(s.self_agreement.items())]


def csv_text(s: Similarity) -> str:
    """similarity.csv's text: every pair compared, closest first."""
    return pairs_text(pair_rows(s))


def write_files(out_dir: str, s: Similarity) -> str:
    """similarity.csv and similarity_bots.csv in ``out_dir``; the first's path."""
    return write_similarity(out_dir, pair_rows(s), bot_rows(s))


def lines(s: Similarity, top: int = 10, texts: Sequence[TextMatch] = ()) -> list[str]:
    """The pairs that stand out (or, when none does, the closest few) with their text's figure, the pairs that play
    a reference, the random bots, the programs alike in text, and how to read it."""
    text = {frozenset((m.a, m.b)): m for m in texts}
    bots = len(s.self_agreement)
    out = [f"{bots} bots asked the same {s.points} decision points (each with two legal answers or more); "
           f"{len(s.pairs)} pairs compared"]
    shown = s.standing_out or list(s.pairs[:min(top, 3)])
    if s.standing_out:
        out.append(f"pairs that stand out (kappa {KAPPA_STANDS_OUT:g} or more: that far from chance, 0, to "
                   "identical play, 1):")
    else:
        out.append("no pair stands out; the closest:")
    out.append(f"  {'pair':<36} {'agree':>6} {'chance':>7} {'kappa':>6} {'above class':>12} {'beyond kit':>11}")
    for p in shown[:top]:
        beyond = "" if p.beyond_kappa is None else f"{p.beyond_kappa:.2f} ({p.reference})"
        out.append(f"  {p.a + ' / ' + p.b:<36} {p.agree:>6.0%} {p.baseline:>7.0%} {p.kappa:>6.2f} "
                   f"{p.above_class:>+11.1f} {beyond:>11}")
    kits = [p for p in s.pairs if p.plays_reference]
    if kits:
        out.append("pairs that both play a reference policy (a starter kit or a built-in), not taken for copies:")
    for p in kits[:top]:
        out.append(f"  {p.a} / {p.b}: both play {p.reference} (its answer at {p.explained} of their {p.points} "
                   "points): the starter kit or built-in they share, not a copy of each other")
    if len(kits) > top:
        out.append(f"  and {len(kits) - top} more pairs that both play a reference (similarity.csv)")
    for bot in s.random_bots:
        out.append(f"{bot} plays at random (it gave the same answer to the same point {s.self_agreement[bot]:.0%} of "
                   f"the time when asked twice; under {RANDOM_BELOW:.0%}): its pairs are not compared")
    for p in s.standing_out[:top]:
        m = text.get(frozenset((p.a, p.b)))
        if m is not None:
            out.append(f"  {p.a} / {p.b}: text {m.similarity:.0%} alike ({m.shared} shared token fingerprints, "
                       f"{len(m.fragments)} fragments; the starter code left out)")
    alike = [m for m in texts if m.similarity >= TEXT_FLAG]
    if alike:
        out.append(f"programs whose text is {TEXT_FLAG:.0%} alike or more (token fingerprints, starter code left out): "
                   + ", ".join(f"{m.a} / {m.b} {m.similarity:.0%}" for m in alike[:top]))
    if s.references:
        out.append("agreement the reference policies explain is set aside: " + "; ".join(s.references))
    out.append("This is evidence to look at, not a verdict: bots that follow the same good advice agree more "
               "than chance; read the two programs before concluding anything.")
    return out
