"""``lastcard play --browser``: the table's page served on this machine, the game played and stored, its replay
linked from the page, which stays up until Ctrl-C."""

from __future__ import annotations

import os
import sys
import time

import click

from referee.cli.common import InputError
from referee.cli.live_option import WAKE_S
from referee.cli.options import write_html_report
from referee.live.address import DEFAULT_HOST, LiveAddress
from referee.play.desk import Desk
from referee.play.server import PlayServer, PlayServerError
from referee.play.session import BrowserGame, PlayOutError, ending, out_folder, play_game
from referee.store.results_dir import ResultsDir
from referee.table.human import LeftTheGame


def play_in_browser(game: BrowserGame, port: int, out: str | None, practice: bool) -> None:
    """Serve the table, play the game, store it in ``out`` (a new results/play-TIME by default) and write its
    report; then keep the page up (the places, the replay) until Ctrl-C."""
    try:
        out_dir = out_folder(out)
    except PlayOutError as exc:
        raise InputError(f"--out: {exc}") from None
    desk = Desk()
    try:
        server = PlayServer(LiveAddress(DEFAULT_HOST, port), desk)
    except PlayServerError as exc:
        raise InputError(str(exc)) from None
    with server:
        rules = game.rules
        click.echo(f"{rules.house}, seed {game.seed}" + (" · practice: no clocks" if practice else ""))
        click.echo(f"{rules.goal[0].upper()}{rules.goal[1:]}.")
        click.echo(f"play in your browser: {server.url}  (Ctrl-C leaves the game)")
        try:
            played = play_game(game, desk, out_dir)
        except (KeyboardInterrupt, LeftTheGame):
            desk.leave()
            click.echo("\nYou left the game; the bots were stopped.")
            sys.exit(130)
        result = played.result
        places = ", ".join(f"{n} {p}" for n, p in sorted(zip(result.seating, result.placements), key=lambda x: x[1]))
        click.echo(f"\nPlaces: {places}.")
        for fault in result.faults:
            click.echo(f"fault: {fault.bot} (seat {fault.seat}): {fault.kind.value}: {fault.message}")
        click.echo(f"saved: {out_dir} (lastcard replay {out_dir} {played.game})")
        write_html_report(out_dir)
        replay = os.path.isfile(ResultsDir(out_dir).report)
        if replay:
            server.serve_results(out_dir)
        desk.update(phase="over", over=ending(played, game.seat, replay))
        _stay_up(server.url)


def _stay_up(url: str) -> None:
    """The game is over: its page stays up (the places, the replay) until Ctrl-C (or SIGTERM), saying so."""
    click.echo(f"the table's page stays up at {url} with the game's end and its replay until Ctrl-C")
    try:
        while True:
            # Ctrl-C (or SIGTERM, which the command line makes one) raises KeyboardInterrupt at the next wake-up.
            # Not signal.pause(): the kernel may hand the signal to another thread (the page's server), and
            # pause() in this one would never return (a CI run waited 120 s for a page closed by Ctrl-C).
            time.sleep(WAKE_S)
    except KeyboardInterrupt:
        click.echo("closed")
