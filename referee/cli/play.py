"""``lastcard play``: a person takes a seat against 1-5 bots, in the terminal or (``--browser``) in their browser."""

from __future__ import annotations

import random
import shlex
import sys
from dataclasses import replace
from typing import Any, Callable

import click

from referee.arena.contest import ContestStage, PlayedFormat
from referee.bots.pool import BotPool
from referee.bots.spec import BotSpec, TimeLimits, parse_bot, unique_names
from referee.cli.contest_option import (
    build_field,
    contest_limits,
    contest_options,
    contest_rules,
    load_contest,
    say_format,
)
from referee.cli.options import clock_options, ruleset_options
from referee.engine.cardfaces import use_colour
from referee.engine.rules import MAX_PLAYERS
from referee.store.jsonl import write_jsonl
from referee.table.human import HumanSeat, LeftTheGame
from referee.table.table import Recorder, Table, seat_for

#: Practice mode's "no clock": a day per move, so a bot can sit at a breakpoint.


@click.command("play")
@ruleset_options
@contest_options
@click.option("--vs", "opponents", multiple=True, metavar="BOT",
              help="An opponent (repeat for 1-5): builtin:NAME or a command line in quotes; NAME=COMMAND names it "
                   "(with --arena, the name of one of the contest's bots; default: the contest's bots, drawn). The "
                   "opponents may also be given as arguments.")
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat, 0 to the number of bots.")
@click.option("--name", default="you", show_default=True, help="Your name at the table.")
@click.option("--seed", type=int, help="The game's seed (default: a random one, printed so the game can be replayed).")
@click.option("--practice", is_flag=True,
              help="No clocks: bots get unlimited time to start and to move (debug your bot under a debugger).")
@click.option("--move-ms", type=click.IntRange(1), default=5_000, show_default=True, help="A bot's time per move.")
@click.option("--pace", type=click.FloatRange(0, 60), default=None,
              help="Seconds between the events shown (default 0.3 on a terminal, 0 otherwise).")
@click.option("--save", type=click.Path(dir_okay=False),
              help="Write the game's record here, for `lastcard replay FILE` (in the terminal; --browser stores the "
                   "game in --out).")
@click.option("--browser", is_flag=True,
              help="Play in your browser: a page on this machine (its address is printed) shows the table and the "
                   "legal moves; click or press a key to play. The game is stored in --out and opens in the replay "
                   "viewer at its end.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="With --browser: the port of the page at http://127.0.0.1:PORT/ (0: any free one).")
@click.option("--out", type=click.Path(file_okay=False),
              help="With --browser: the results folder the game is stored in (default: a new results/play-TIME).")
@clock_options
@click.argument("bots", nargs=-1, metavar="[BOT]...")
@click.pass_context
def play_cmd(ctx: click.Context, /, ruleset: str, options: tuple[str, ...], arena_file: str | None, stage: str | None,
             opponents: tuple[str, ...], seat: int, name: str, seed: int | None, practice: bool, move_ms: int,
             pace: float | None, save: str | None, browser: bool = False, port: int = 0, out: str | None = None,
             bots: tuple[str, ...] = (), clock: str | None = None, wall_ms: int | None = None) -> None:
    """Play a game against bots: in the terminal (pick your move by its number) or, with --browser, in your
    browser (click a move, or press its key).

    Cards show their colour and a shape per colour; plain text when NO_COLOR is set or output is not a
    terminal. Type q (or press Ctrl-C) to leave. --arena FILE plays a contest's format: its rules, seats,
    limits and sandbox, against its bots (drawn for the game, unless --vs names them).
    """
    _browser_only(browser, out, port, save)
    contest = load_contest(arena_file, stage)
    rules = contest_rules(ctx, contest, ruleset, options)
    game_seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
    limits = contest_limits(ctx, contest, clock, wall_ms, {"move_ms": move_ms})
    limits = limits.practice() if practice else limits
    specs = _opponents(opponents + bots, contest, limits, game_seed)
    players = len(specs) + 1
    if not 0 <= seat < players:
        raise click.BadParameter(f"seat {seat} is not at a table of {players}: choose 0 to {players - 1}",
                                 param_hint="--seat")
    if any(s.name == name for s in specs):
        raise click.BadParameter(f"a bot is already called {name!r}: choose another --name", param_hint="--name")
    mode = next((s.sandbox.mode.value for s in specs if s.builtin is None), None)
    say_format(PlayedFormat(rules, players, limits, None, mode, tuple(s.name for s in specs), 0, contest))
    if browser:
        from referee.cli.play_browser import play_in_browser  # http.server and the page: only for --browser
        from referee.play.session import BrowserGame

        play_in_browser(BrowserGame(rules, tuple(specs), seat, name, game_seed, 0.5 if pace is None else pace),
                        port, out, practice)
        return
    styled = use_colour(sys.stdout)
    human = HumanSeat(name, _reader(), sys.stdout, styled=styled,
                      pace=pace if pace is not None else (0.3 if sys.stdout.isatty() else 0.0))
    click.echo(f"{rules.house}, seed {game_seed}" + (" · practice: no clocks" if practice else ""))
    click.echo(f"{rules.goal[0].upper()}{rules.goal[1:]}.")
    click.echo("Type the number of your move; q leaves.")
    recorder = _Following(human)
    try:
        with BotPool() as pool:
            seats = [seat_for(s, pool) for s in specs]
            seats.insert(seat, human)
            result = Table(rules, seats, game_seed, "play", recorder=recorder).play()
    except (KeyboardInterrupt, LeftTheGame):
        click.echo("\nYou left the game; the bots were stopped.")
        sys.exit(130)
    places = ", ".join(f"{n} {p}" for n, p in sorted(zip(result.seating, result.placements), key=lambda x: x[1]))
    click.echo(f"\nPlaces: {places}.")
    if result.faults:
        for fault in result.faults:
            click.echo(f"fault: {fault.bot} (seat {fault.seat}): {fault.kind.value}: {fault.message}")
    if save:
        write_jsonl(save, recorder.lines)
        click.echo(f"Saved: lastcard replay {shlex.quote(save)}")


def _browser_only(browser: bool, out: str | None, port: int, save: str | None) -> None:
    """``--out`` and ``--port`` are the browser's, ``--save`` the terminal's: a mix is refused, saying which."""
    if not browser and (out is not None or port):
        raise click.UsageError(f"{'--out' if out is not None else '--port'} is for --browser: in the terminal, "
                               "--save FILE keeps the game")
    if browser and save:
        raise click.UsageError("--save is for the terminal: with --browser the game is stored in --out")


def _opponents(given: tuple[str, ...], contest: ContestStage | None, limits: TimeLimits, seed: int) -> list[BotSpec]:
    """The bots at the table: ``--vs`` as given (a contest's bot by its name), else the contest's bots, a table's
    worth drawn by the game's seed."""
    if not given and contest is None:
        raise click.UsageError("give the bots to play against: --vs BOT (1 to 5), or --arena FILE for a contest's; "
                               "or name them as arguments (lastcard play builtin:hard)")
    if not given:
        assert contest is not None
        pool = build_field(contest.field([]))
        if not pool:
            raise click.UsageError(f"{contest.source} has no bot that can play here: give --vs BOT")
        picked = random.Random(seed).sample(pool, min(len(pool), contest.seats - 1))
        return unique_names([replace(s, limits=limits) for s in picked])
    if not 1 <= len(given) <= MAX_PLAYERS - 1:
        raise click.UsageError(f"{len(given)} opponents given: play against 1 to {MAX_PLAYERS - 1} bots")
    try:
        return unique_names([contest.spec(b, limits) if contest else parse_bot(b, limits) for b in given])
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--vs") from None


class _Following(Recorder):
    """The game's record, shown to the person as it is written (the table's events as they happen)."""

    def __init__(self, human: HumanSeat) -> None:
        super().__init__()
        self.human = human

    def add(self, entry: dict[str, Any]) -> None:
        super().add(entry)
        self.human.follow(entry)


def _reader() -> Callable[[str], str]:
    def read(prompt: str) -> str:
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")
    return read
