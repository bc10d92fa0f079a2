"""``lastcard similar RESULTS_DIR``: which bots of a run play alike, asked the same decision points."""

from __future__ import annotations

import os
from typing import Callable

import click

from referee.errors import LastcardError
from referee.similar.folder import DEFAULT_AGAIN, DEFAULT_SCRIPTS, compare_folder
from referee.similar.render import lines


@click.command("similar")
@click.argument("results_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--scripts", default=DEFAULT_SCRIPTS, show_default=True, metavar="N",
              help="Stored games' seats to ask every bot (each is one game's requests, asked in order).")
@click.option("--points", type=click.IntRange(1), default=None, metavar="N",
              help="Draw seats until they hold N decision points, and ask those (instead of --scripts).")
@click.option("--seed", default=1, show_default=True, help="Draws the seats from the run's games.")
@click.option("--again", default=DEFAULT_AGAIN, show_default=True, metavar="N",
              help="Seats asked twice, to tell a bot that plays at random.")
@click.option("--bot", "bots", multiple=True, metavar="NAME", help="Only these bots (repeatable).")
@click.option("--jobs", "-j", default=os.cpu_count() or 1, show_default="the cores",
              help="Bots asked at once.")
@click.option("--references/--no-references", default=True, show_default=True,
              help="Ask the reference policies too (the starter kits' default play, the built-ins) and set aside the "
                   "agreement they explain: two bots that both play a kit are not taken for copies.")
def similar_cmd(results_dir: str, scripts: int, points: int | None, seed: int, again: int, bots: tuple[str, ...],
                jobs: int, references: bool = True) -> None:
    """Bots compared by what they do: every bot of the run in RESULTS_DIR (its programs and its built-in players)
    is asked the same decision points (drawn with --seed from the run's own games, where more than one answer is
    legal, with the history before each), and each pair's agreement is set against what the class's play
    predicts by chance. Writes RESULTS_DIR/similarity.csv. Evidence to look at, never a verdict
    (docs/similar.md)."""
    done = compare_folder(results_dir, seed=seed, points=points, scripts=scripts, again=again, jobs=jobs,
                          bots=bots or None, note=lambda text: click.echo(text, err=True), references=references)
    for line in lines(done.similarity, texts=done.texts):
        click.echo(line)
    click.echo(f"similarity: {done.path}", err=True)


def similarity_after_run(out_dir: str, *, points: int | None, seed: int, jobs: int,
                         note: Callable[[str], None], references: bool = True) -> None:
    """An arena's or the ladder's ``similarity:``: its bots compared after the games, as ``similar`` compares them
    (each bot in its own walls, ``jobs`` at a time); the pairs that stand out printed, the files written."""
    try:
        done = compare_folder(out_dir, seed=seed, points=points, jobs=jobs, note=note, references=references)
    except LastcardError as exc:  # too few bots, a game that cannot be replayed: the contest's results stand
        click.echo(f"similarity: not compared: {exc}", err=True)
        return
    for line in lines(done.similarity, texts=done.texts):
        click.echo(line)
    click.echo(f"similarity: {done.path}")
