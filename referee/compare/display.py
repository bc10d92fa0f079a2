"""The lines fastchess prints for a head-to-head with an SPRT, rendered from a tally or a running test.

Pure text: the caller prints. ``summary_lines`` is the live block (reprinted as pairs come in);
``verdict_line`` is the last line of a run. Example (100 pairs)::

    Results of new vs base (compact, 2 seats):
    Elo: 43.66 +/- 36.21, nElo: 58.90 +/- 48.15
    LOS: 99.17 %, DrawRatio: 30.00 %, PairsRatio: 1.80
    Games: 200, Wins: 85, Losses: 60, Draws: 55, Points: 112.5 (56.25 %)
    Ptnml(0-2): [5, 20, 30, 35, 10]
    LLR: 0.45 (15.3%) (-2.94, 2.94) [0.00, 5.00]
"""

from __future__ import annotations

from typing import Protocol, Sequence

from referee.compare.bounds import FALLBACK_VARIANCE, TARGET_ELO, pair_variance
from referee.compare.candidates import Family, status_text
from referee.compare.expected import (
    expected_pairs,
    logistic_of_nelo,
    nelo_of_logistic,
    pass_probability,
    ptnml_variance,
    remaining,
)
from referee.compare.sprt import Estimates, PairTally, Ptnml, Sprt, SprtSettings, Verdict


class CompareRunLike(Protocol):
    """What ``both_line`` reads of a finished comparison (``compare.run.CompareRun``)."""

    @property
    def counter(self) -> Sprt | PairTally: ...

    @property
    def sprt(self) -> Sprt | None: ...


def _f(x: float, places: int = 2) -> str:
    """``x`` to ``places`` decimals, never ``-0.00``."""
    text = f"{x:.{places}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


def header_line(new: str, base: str, detail: str) -> str:
    """``Results of NEW vs BASE (detail):``."""
    return f"Results of {new} vs {base} ({detail}):"


def elo_line(est: Estimates) -> str:
    """``Elo: 35.12 +/- 20.01, nElo: 60.33 +/- 34.50`` (the 95% intervals' half-widths)."""
    return f"Elo: {_f(est.elo)} +/- {_f(est.elo_error)}, nElo: {_f(est.nelo)} +/- {_f(est.nelo_error)}"


def los_line(est: Estimates, ptnml: Ptnml) -> str:
    """``LOS: 99.97 %, DrawRatio: 30.00 %, PairsRatio: 2.10``: the draw ratio is the WL+DD pairs' share."""
    ll, ld, even, wd, ww = ptnml.counts
    draws = 100 * even / ptnml.pairs if ptnml.pairs else 0.0
    if ll + ld:
        ratio = f"{(ww + wd) / (ll + ld):.2f}"
    else:
        ratio = "inf" if ww + wd else "n/a"
    return f"LOS: {100 * est.los:.2f} %, DrawRatio: {draws:.2f} %, PairsRatio: {ratio}"


def games_line(tally: PairTally | Ptnml) -> str:
    """``Games: 200, Wins: 90, Losses: 70, Draws: 40, Points: 110.0 (55.00 %)`` (no W/L/D from counts alone)."""
    ptnml = tally.ptnml if isinstance(tally, PairTally) else tally
    share = 100 * ptnml.points / ptnml.games if ptnml.games else 0.0
    wdl = (f", Wins: {tally.wins}, Losses: {tally.losses}, Draws: {tally.draws}"
           if isinstance(tally, PairTally) else "")
    return f"Games: {ptnml.games}{wdl}, Points: {ptnml.points:.1f} ({share:.2f} %)"


def ptnml_line(ptnml: Ptnml) -> str:
    """``Ptnml(0-2): [5, 20, 30, 35, 10]``: LL, LD, WL+DD, WD, WW from NEW's view."""
    return f"Ptnml(0-2): {ptnml}"


def llr_line(settings: SprtSettings, llr: float) -> str:
    """``LLR: 2.97 (100.8%) (-2.94, 2.94) [0.00, 5.00]``: the LLR, its share of the way to a bound, the bounds,
    and elo0, elo1."""
    return (f"LLR: {_f(llr)} ({_f(100 * settings.fraction(llr), 1)}%) ({_f(settings.lower)}, {_f(settings.upper)}) "
            f"[{_f(settings.elo0)}, {_f(settings.elo1)}]")


def verdict_line(result: Verdict | None, games: int) -> str:
    """``H1 accepted``, ``H0 accepted`` or ``inconclusive after N games``."""
    return f"{result} accepted" if result else f"inconclusive after {games} games"


def summary_lines(run: Sprt | PairTally | Ptnml, settings: SprtSettings | None = None) -> list[str]:
    """The block fastchess prints: estimates, games, the pentanomial and (with a test) the LLR line.

    ``run`` is a running test, a fixed-length tally, or bare counts (``lastcard sprt``; then ``settings``
    gives the test).
    """
    if isinstance(run, Sprt):
        tally: PairTally | Ptnml = run.tally
        settings, llr = run.settings, run.llr
    else:
        tally = run
        llr = settings.llr(run if isinstance(run, Ptnml) else run.ptnml) if settings else 0.0
    ptnml = tally.ptnml if isinstance(tally, PairTally) else tally
    est = Estimates.of(ptnml)
    lines = [elo_line(est), los_line(est, ptnml), games_line(tally), ptnml_line(ptnml)]
    if settings is not None:
        lines.append(llr_line(settings, llr))
    return lines


def both_line(each_other: CompareRunLike, field: CompareRunLike) -> str:
    """The two tests side by side, the question each answers: ``NEW against BASE: H1 accepted (+33.1 Elo); against
    the field: H0 accepted (+1.2 Elo): NEW beats BASE, but does no better than BASE against the field``."""
    def said(run: CompareRunLike) -> str:
        est = run.counter.estimates()
        verdict = verdict_line(run.sprt.result, run.sprt.games) if run.sprt is not None else \
            f"{run.counter.games} games"
        return f"{verdict} ({'+' if est.elo >= 0 else ''}{_f(est.elo, 1)} Elo)"

    text = f"NEW against BASE: {said(each_other)}; against the field: {said(field)}"
    a = each_other.sprt.result if each_other.sprt is not None else None
    b = field.sprt.result if field.sprt is not None else None
    if a == "H1" and b != "H1":
        return text + ": NEW beats BASE, but is not shown to do better than BASE against the field"
    if a != "H1" and b == "H1":
        return text + ": NEW does better than BASE against the field, though it is not shown to beat BASE"
    if a == b == "H1":
        return text + ": NEW beats BASE and does better against the field"
    return text


def _unit(settings: SprtSettings) -> str:
    return "nElo" if settings.model == "normalized" else "Elo"


def bounds_line(settings: SprtSettings, house: str, seats: int, defaults: bool) -> str:
    """What the test is and what it costs, before it starts: ``test: [0, 30] nElo (the default for compact at 2
    seats), alpha 0.05, beta 0.05: about 710 games if NEW is no better, 620 if it is +30 Elo (accepted 97%)``."""
    variance = pair_variance(house, seats)
    target = nelo_of_logistic(TARGET_ELO, variance) if settings.model == "normalized" else TARGET_ELO
    null = 2 * expected_pairs(settings, variance, 0.0)
    better = 2 * expected_pairs(settings, variance, target)
    whose = f"the default for {house} at {seats} seats" if defaults else "given"
    return (f"test: [{settings.elo0:g}, {settings.elo1:g}] {_unit(settings)} ({whose}), alpha {settings.alpha:g}, "
            f"beta {settings.beta:g}: about {null:,.0f} games if NEW is no better, {better:,.0f} if it is "
            f"+{TARGET_ELO:g} Elo (accepted {100 * pass_probability(settings, variance, target):.0f}%)")


def design_lines(settings: SprtSettings, variance: float, at: Sequence[float] = (), where: str = "") -> list[str]:
    """``lastcard sprt`` without counts: how many games these bounds take, and how often they accept H1, for a
    true difference of no change, elo0, the middle, elo1, +30 Elo and each of ``at`` (in the test's model), at
    this per-pair ``variance`` (fishtest's formulas: ``compare.expected``)."""
    unit = _unit(settings)
    normalized = settings.model == "normalized"
    plus30 = nelo_of_logistic(TARGET_ELO, variance) if normalized else TARGET_ELO
    rows = [(0.0, "no change"), (settings.elo0, "elo0"), ((settings.elo0 + settings.elo1) / 2, "middle"),
            (settings.elo1, "elo1"), (plus30, f"+{TARGET_ELO:g} Elo"), *((x, "asked") for x in at)]
    seen: set[float] = set()
    lines = [f"SPRT [{settings.elo0:g}, {settings.elo1:g}] {unit}, alpha {settings.alpha:g}, beta {settings.beta:g}"
             f"{where}: LLR bounds ({_f(settings.lower)}, {_f(settings.upper)})",
             f"per-pair variance of the pair score {variance:.4f} (--variance V: your bots', e.g. from --ptnml)",
             f"  {'true difference':<34} {'accept H1':>9} {'expected games':>15}"]
    for elo, label in rows:
        if round(elo, 9) in seen:
            continue
        seen.add(round(elo, 9))
        other = (f"{_f(logistic_of_nelo(elo, variance), 1)} Elo" if normalized
                 else f"{_f(nelo_of_logistic(elo, variance), 1)} nElo")
        truth = f"{_f(elo, 1)} {unit} ({other}), {label}"
        lines.append(f"  {truth:<34} {100 * pass_probability(settings, variance, elo):>8.1f}% "
                     f"{2 * expected_pairs(settings, variance, elo):>15,.0f}")
    lines.append("(the Brownian approximation fishtest's SPRT calculator uses; it ignores the overshoot at the bounds, "
                 "so real tests run a few percent longer)")
    return lines


def duration(seconds: float) -> str:
    """``45 s``, ``3 min 10 s``, ``2 h 5 min``."""
    s = max(0, round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    return f"{s // 3600} h {s % 3600 // 60} min"


def expected_line(sprt: Sprt, games_per_s: float | None) -> str:
    """The test's outlook, as fishtest shows one: ``Expected: 710 games if H0 or H1 is true; at the estimate so far
    about 240 more (35 s)``. The estimate so far moves as pairs come in; early on it is rough."""
    settings = sprt.settings
    # The pairs' own variance (the logistic model's length depends on it), the game's before there are any.
    variance = ptnml_variance(sprt.tally.ptnml) if sprt.pairs >= 2 else FALLBACK_VARIANCE
    design = 2 * max(expected_pairs(settings, variance, settings.elo0),
                     expected_pairs(settings, variance, settings.elo1))
    text = f"Expected: {design:,.0f} games if H0 or H1 is true"
    if sprt.pairs < 2:
        return text
    more = 2 * remaining(settings, sprt.tally.ptnml, sprt.llr).pairs
    text += f"; at the estimate so far about {more:,.0f} more"
    if games_per_s:
        text += f" ({duration(more / games_per_s)} at {games_per_s:.1f} games/s)"
    return text


def family_lines(family: Family, detail: str) -> list[str]:
    """A candidates run: fastchess's block once per candidate, each followed by its status line, then the winner.

    ``candidate: accepted after 24 games (H1)``, ``dropped after 60 games (H0)``, ``stopped after 40 games: cannot
    catch up with hard``, ``inconclusive after N games`` or ``running (N games)``.
    """
    settings = family.settings
    lines = []
    for i, spec in enumerate(settings.candidates):
        lines.append(header_line(spec.name, settings.base.name, detail))
        lines.extend(summary_lines(family.tests[i]))
        lines.append(f"{spec.name}: {status_text(family, i)}")
        lines.append("")
    return lines


def alike_lines(family: Family) -> list[str]:
    """``alike: hard and hard#2 played the same games on all 150 deals they shared (identical: ...)``, a line per
    two candidates that played alike."""
    names = [c.name for c in family.settings.candidates]
    return [f"alike: {like.text(names)}" for like in family.alike.pairs()]


def winner_line(family: Family) -> str:
    """``winner: hard (accepted: hard, medium; ordered by estimated Elo)``, ``no candidate accepted``, or no winner
    between equals: ``no winner: hard and hard#2 are accepted and play alike (...)``."""
    names = [family.settings.candidates[i].name for i in family.accepted]
    if not names:
        return "no candidate accepted"
    extra = f" (accepted: {', '.join(names)}; ordered by estimated Elo, not tested)" if len(names) > 1 else ""
    equals = [family.settings.candidates[i].name for i in family.equals]
    if len(equals) > 1:
        return (f"no winner: {' and '.join(equals)} are accepted and play alike (the same games on the same deals, "
                f"see 'alike'): they are one bot as far as these games tell{extra}")
    return f"winner: {names[0]}{extra}"
