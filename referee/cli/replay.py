"""``lastcard replay GAME``: a stored game turn by turn, or ``--verify`` it against today's engine."""

from __future__ import annotations

import sys

import click

from ..cardfaces import use_colour
from ..game_source import load
from ..replay import InvalidReplayError
from ..replay_text import render_all, render_seat
from ..replay_verify import first_difference


class BadSource(click.ClickException):
    """A game that cannot be found or read: exit status 2, so 1 means only "the replay differs"."""

    exit_code = 2


@click.command("replay")
@click.argument("source", metavar="SOURCE")
@click.argument("game", required=False)
@click.option("--seat", type=int, help="Show what this seat was told (its bot's view) instead of every hand.")
@click.option("--raw", is_flag=True, help="With --seat: the exact lines the seat's bot was sent, one a line (from the "
                                          "run's records, else rebuilt from games.jsonl by the referee's relay).")
@click.option("--verify", is_flag=True,
              help="Replay through the engine and compare with the stored result; exit 1 at the first difference.")
def replay_cmd(source: str, game: str | None, seat: int | None, raw: bool, verify: bool) -> None:
    """Show a stored game turn by turn: SOURCE is a results directory and GAME a game id in it
    (lastcard replay results/sample g000012), or SOURCE is a record file (records/g000012.jsonl).

    Cards show their colour and a shape per colour; plain text when NO_COLOR is set or output is not
    a terminal.
    """
    if raw and seat is None:
        raise click.UsageError("--raw shows one seat's messages: give --seat N as well")
    try:
        found = load(source, game)
        if verify:
            diff = first_difference(found)
            if diff is not None:
                click.echo(f"game {found.stored.game} differs: {diff}", err=True)
                sys.exit(1)
            click.echo(f"game {found.stored.game}: the replay matches the stored result "
                       f"({len(found.stored.actions.split())} actions" +
                       (", every recorded event)" if found.events is not None else ")"))
            return
        styled = use_colour(sys.stdout)
        lines = render_all(found, styled) if seat is None else render_seat(found, seat, styled, raw)
        for line in lines:
            click.echo(line)
    except InvalidReplayError as exc:
        raise BadSource(str(exc)) from None
    except BrokenPipeError:  # `lastcard replay ... | head`
        sys.stderr.close()
