"""``lastcard play``: a person takes a seat in the terminal against 1-5 bots."""

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
                   "(with --arena, the name of one of the contest's bots; default: the contest's bots, drawn).")
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat, 0 to the number of bots.")
@click.option("--name", default="you", show_default=True, help="Your name at the table.")
@click.option("--seed", type=int, help="The game's seed (default: a random one, printed so the game can be replayed).")
@click.option("--practice", is_flag=True,
              help="No clocks: bots get unlimited time to start and to move (debug your bot under a debugger).")
@click.option("--move-ms", type=click.IntRange(1), default=5_000, show_default=True, help="A bot's time per move.")
@click.option("--pace", type=click.FloatRange(0, 60), default=None,
              help="Seconds between the events shown (default 0.3 on a terminal, 0 otherwise).")
@click.option("--save", type=click.Path(dir_okay=False),
              help="Write the game's record here, for `lastcard replay FILE`.")
@clock_options
@click.pass_context
def play_cmd(ctx: click.Context, /, ruleset: str, options: tuple[str, ...], arena_file: str | None, stage: str | None,
             opponents: tuple[str, ...], seat: int, name: str, seed: int | None, practice: bool, move_ms: int,
             pace: float | None, save: str | None, clock: str | None = None, wall_ms: int | None = None) -> None:
    """Play a game against bots in the terminal: pick your move by its number.

    Cards show their colour and a shape per colour; plain text when NO_COLOR is set or output is not a
    terminal. Type q (or press Ctrl-C) to leave. --arena FILE plays a contest's format: its rules, seats,
    limits and sandbox, against its bots (drawn for the game, unless --vs names them).
    """
    contest = load_contest(arena_file, stage)
    rules = contest_rules(ctx, contest, ruleset, options)
    game_seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
    limits = contest_limits(ctx, contest, clock, wall_ms, {"move_ms": move_ms})
    limits = limits.practice() if practice else limits
    specs = _opponents(opponents, contest, limits, game_seed)
    players = len(specs) + 1
    if not 0 <= seat < players:
        raise click.BadParameter(f"seat {seat} is not at a table of {players}: choose 0 to {players - 1}",
                                 param_hint="--seat")
    if any(s.name == name for s in specs):
        raise click.BadParameter(f"a bot is already called {name!r}: choose another --name", param_hint="--name")
    mode = next((s.sandbox.mode.value for s in specs if s.builtin is None), None)
    say_format(PlayedFormat(rules, players, limits, None, mode, tuple(s.name for s in specs), 0, contest))
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


def _opponents(given: tuple[str, ...], contest: ContestStage | None, limits: TimeLimits, seed: int) -> list[BotSpec]:
    """The bots at the table: ``--vs`` as given (a contest's bot by its name), else the contest's bots, a table's
    worth drawn by the game's seed."""
    if not given and contest is None:
        raise click.UsageError("give the bots to play against: --vs BOT (1 to 5), or --arena FILE for a contest's")
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
