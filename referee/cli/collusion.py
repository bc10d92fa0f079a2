"""``lastcard collusion RESULTS_DIR``: which bot gains when which other bot sits at its table."""

from __future__ import annotations

from typing import Callable

import click

from referee.cli.options import jobs_option
from referee.collusion.folder import DEFAULT_ALPHA, DEFAULT_REFERENCE, measure_folder
from referee.collusion.render import lines
from referee.errors import LastcardError


@click.command("collusion")
@click.argument("results_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--reference", default=DEFAULT_REFERENCE, show_default=True, metavar="builtin:NAME",
              help="The player that takes a bot's seat when its tables are played again.")
@click.option("--games", "most", type=click.IntRange(1), default=None, metavar="N",
              help="Play again at most N stored games a pair (default: every one).")
@click.option("--alpha", type=click.FloatRange(0, 0.5, min_open=True), default=DEFAULT_ALPHA, show_default=True,
              help="The chance of naming any pair of an honest class (Holm's correction over every test).")
@click.option("--bot", "bots", multiple=True, metavar="NAME", help="Only pairs of these bots (repeatable).")
@jobs_option(None, "Worker processes playing the games again (default: one per core).")
def collusion_cmd(results_dir: str, reference: str, most: int | None, alpha: float, bots: tuple[str, ...],
                  jobs: int | None) -> None:
    """Which bot gains when which other bot sits at its table: every stored game of RESULTS_DIR is played again on
    the same deal with one bot's seat taken by --reference, and each pair's joint gain is tested; the stored moves
    show whether a bot spares another the cards that hurt (Draw Two, Wild Draw Four, Skip). Writes
    RESULTS_DIR/collusion.csv. Evidence to look at, never a verdict (docs/collusion.md)."""
    done = measure_folder(results_dir, reference=reference, most=most, alpha=alpha, jobs=jobs, bots=bots or None,
                          note=lambda text: click.echo(text, err=True))
    for line in lines(done):
        click.echo(line)
    click.echo(f"collusion: {done.path}", err=True)


def collusion_after_run(out_dir: str, *, reference: str, most: int | None, alpha: float, jobs: int | None,
                        note: Callable[[str], None]) -> None:
    """An arena's ``collusion:``: measured after the games, as ``collusion`` measures them; the pairs to look at
    printed, collusion.csv written (a folder that cannot be measured leaves the contest's results as they are)."""
    try:
        done = measure_folder(out_dir, reference=reference, most=most, alpha=alpha, jobs=jobs, note=note)
    except LastcardError as exc:
        click.echo(f"collusion: not measured: {exc}", err=True)
        return
    for line in lines(done):
        click.echo(line)
    click.echo(f"collusion: {done.path}")
