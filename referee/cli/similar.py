"""``lastcard similar RESULTS_DIR``: which bots of a run play alike, asked the same decision points."""

from __future__ import annotations

import os

import click

from referee.similar.asking import measure, plan
from referee.similar.render import csv_text, lines
from referee.store.results_dir import ResultsDir

#: The file written in the results folder.
CSV_NAME = "similarity.csv"


@click.command("similar")
@click.argument("results_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--scripts", default=12, show_default=True, metavar="N",
              help="Stored games' seats to ask every bot (each is one game's requests, asked in order).")
@click.option("--seed", default=1, show_default=True, help="Draws the seats from the run's games.")
@click.option("--again", default=2, show_default=True, metavar="N",
              help="Seats asked twice, to tell a bot that plays at random.")
@click.option("--bot", "bots", multiple=True, metavar="NAME", help="Only these bots (repeatable).")
@click.option("--jobs", "-j", default=os.cpu_count() or 1, show_default="the cores",
              help="Bots asked at once.")
def similar_cmd(results_dir: str, scripts: int, seed: int, again: int, bots: tuple[str, ...], jobs: int) -> None:
    """Bots compared by what they do: every bot program of the run in RESULTS_DIR is asked the same decision
    points (drawn with --seed from the run's own games, where more than one answer is legal, with the history
    before each), and each pair's agreement is set against what the class's play predicts by chance.
    Writes RESULTS_DIR/similarity.csv. Evidence to look at, never a verdict (docs/similar.md)."""
    p = plan(results_dir, scripts=scripts, seed=seed, bots=bots or None)
    click.echo(f"asking {len(p.bots)} bots {len(p.points)} decision points from {len(p.scripts)} stored seats...",
               err=True)
    result = measure(p, again=again, jobs=jobs)
    for line in lines(result):
        click.echo(line)
    path = ResultsDir(results_dir).file(CSV_NAME)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(csv_text(result))
    click.echo(f"similarity: {path}", err=True)
