"""``lastcard sprt``: the pentanomial SPRT calculator alone, printing what ``lastcard compare`` prints live."""

from __future__ import annotations

import click

from referee.compare.display import summary_lines, verdict_line
from referee.compare.sprt import MODELS, Ptnml, SprtError, SprtSettings


@click.command("sprt")
@click.option("--ptnml", required=True, metavar="LL,LD,WLDD,WD,WW",
              help="The five pair counts from NEW's view, lowest first, e.g. 3,10,20,12,5.")
@click.option("--elo0", type=float, default=0.0, show_default=True, help="H0: NEW is this much stronger (Elo).")
@click.option("--elo1", type=float, default=5.0, show_default=True, help="H1: NEW is this much stronger (Elo).")
@click.option("--model", type=click.Choice(MODELS), default="normalized", show_default=True,
              help="The Elo of the bounds: normalized (as fastchess and fishtest) or logistic.")
@click.option("--alpha", type=float, default=0.05, show_default=True, help="The chance of accepting H1 under H0.")
@click.option("--beta", type=float, default=0.05, show_default=True, help="The chance of accepting H0 under H1.")
def sprt_cmd(ptnml: str, elo0: float, elo1: float, model: str, alpha: float, beta: float) -> None:
    """The GSPRT on pentanomial counts: Elo, nElo, LOS, the LLR against its bounds, and the verdict."""
    try:
        counts = Ptnml.parse(ptnml)
        settings = SprtSettings(elo0, elo1, alpha, beta, model)  # type: ignore[arg-type]  # click.Choice checked it
    except SprtError as exc:
        raise click.BadParameter(str(exc), param_hint=f"--{exc.option}") from None
    for line in summary_lines(counts, settings):
        click.echo(line)
    click.echo(verdict_line(settings.verdict(settings.llr(counts)), counts.games))
