"""``lastcard sprt``: the pentanomial SPRT calculator alone, printing what ``lastcard compare`` prints live; without
counts, how many games its bounds would take (fishtest's formulas, ``referee.compare.expected``)."""

from __future__ import annotations

from typing import cast

import click

from referee.compare.bounds import pair_variance, resolve_bounds
from referee.compare.display import design_lines, expected_line, summary_lines, verdict_line
from referee.compare.sprt import MODELS, Model, Ptnml, Sprt, SprtError, SprtSettings
from referee.engine.rules import MAX_PLAYERS, MIN_PLAYERS, PRESETS


@click.command("sprt")
@click.option("--ptnml", metavar="LL,LD,WLDD,WD,WW",
              help="The five pair counts from NEW's view, lowest first, e.g. 3,10,20,12,5. Without them: how many "
                   "games the bounds would take.")
@click.option("--elo0", type=float, default=None, help="H0: NEW is this much stronger (Elo).  [default: 0]")
@click.option("--elo1", type=float, default=None,
              help="H1: NEW is this much stronger (Elo).  [default: compare's for the table (--ruleset, --seats)]")
@click.option("--model", type=click.Choice(MODELS), default="normalized", show_default=True,
              help="The Elo of the bounds: normalized (as fastchess and fishtest) or logistic.")
@click.option("--alpha", type=float, default=0.05, show_default=True, help="The chance of accepting H1 under H0.")
@click.option("--beta", type=float, default=0.05, show_default=True, help="The chance of accepting H0 under H1.")
@click.option("--ruleset", "-r", type=click.Choice(list(PRESETS)), default="compact", show_default=True,
              help="The table whose default bounds and measured variance to use.")
@click.option("--seats", type=click.IntRange(MIN_PLAYERS, MAX_PLAYERS), default=2, show_default=True,
              help="The table's players per game.")
@click.option("--variance", type=click.FloatRange(0, 0.25, min_open=True), default=None,
              help="The per-pair variance of the pair score (default: the counts', else the table's measured one).")
@click.option("--at", "at", type=float, multiple=True, metavar="ELO",
              help="Without --ptnml: also a true difference of ELO, in the test's model (repeatable).")
def sprt_cmd(ptnml: str | None, elo0: float | None, elo1: float | None, model: str, alpha: float, beta: float,
             ruleset: str, seats: int, variance: float | None, at: tuple[float, ...]) -> None:
    """The GSPRT on pentanomial counts: Elo, nElo, LOS, the LLR against its bounds, the verdict and how much
    longer it is expected to run. Without --ptnml: how many games these bounds take under H0, under H1 and at
    other true differences, and how often they accept H1 (fishtest's formulas). See docs/compare.md."""
    low, high, defaults = resolve_bounds(elo0, elo1, ruleset, seats, cast(Model, model))
    try:
        counts = Ptnml.parse(ptnml) if ptnml is not None else None
        settings = SprtSettings(low, high, alpha, beta, cast(Model, model))  # click.Choice checked the model
    except SprtError as exc:
        raise click.BadParameter(str(exc), param_hint=f"--{exc.option}") from None
    where = f" (the default for {ruleset} at {seats} seats)" if defaults else ""
    if counts is None:
        for line in design_lines(settings, variance or pair_variance(ruleset, seats), at, where):
            click.echo(line)
        return
    if at:
        raise click.BadParameter("--at asks how long the bounds take; with --ptnml the counts say where the test is",
                                 param_hint="--at")
    for line in summary_lines(counts, settings):
        click.echo(line)
    verdict = settings.verdict(settings.llr(counts))
    if verdict is None:
        test = Sprt(settings)
        test.tally.ptnml, test.llr = counts, settings.llr(counts)
        click.echo(expected_line(test, None))
    click.echo(verdict_line(verdict, counts.games))
