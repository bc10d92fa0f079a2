"""``lastcard replay GAME``: a stored game turn by turn, ``--verify`` it, ``--ask`` a bot again, play it
on ``--from``."""

from __future__ import annotations

import json
import sys

import click

from referee.arena.contest import ContestStage
from referee.cli.contest_option import contest_options, load_contest
from referee.cli.replay_ask import run_ask, run_play_on
from referee.cli.sandbox_option import sandbox_option
from referee.engine.cardfaces import use_colour
from referee.engine.notation import InvalidReplayError
from referee.replay.text import render_all, render_seat
from referee.replay.turns_json import game_json
from referee.replay.verify import first_difference
from referee.store.game_record import load
from referee.store.game_source import SourceGame


class BadSource(click.ClickException):
    """A game that cannot be found or read: exit status 2, so 1 means only "the replay differs"."""

    exit_code = 2


@click.command("replay")
@click.argument("source", metavar="SOURCE")
@click.argument("game", required=False)
@click.option("--seat", type=int, help="Show what this seat was told (its bot's view) instead of every hand; with "
                                       "--ask or --from, the seat the bot takes.")
@click.option("--raw", is_flag=True, help="With --seat: the exact lines the seat's bot was sent, one a line (from the "
                                          "run's records, else rebuilt from games.jsonl by the referee's relay).")
@click.option("--verify", is_flag=True,
              help="Replay through the engine and compare with the stored result; exit 1 at the first difference.")
@click.option("--ask", "ask_cmd", metavar="COMMAND",
              help="With --seat and --turn or --all: send this bot exactly what the seat was sent and compare its "
                   "answers with the stored moves (the game follows the stored moves).")
@click.option("--turn", type=int, help="With --ask: the seat's request at this turn (numbered as --seat shows).")
@click.option("--all", "all_turns", is_flag=True, help="With --ask: every request of the seat; list the differences.")
@click.option("--json", "as_json", is_flag=True,
              help="The game as one JSON object: each turn's request, legal answers, answer and notes (with --seat: "
                   "that seat's turns); with --ask: what was asked, the differences, the faults.")
@click.option("--from", "from_turn", type=int, metavar="K",
              help="With --seat and --play: play the game on from turn K with another bot in the seat.")
@click.option("--play", "play_cmd", metavar="COMMAND", help="With --from: the bot that takes the seat.")
@click.option("--seat-cmd", "seat_cmds", multiple=True, metavar="M=COMMAND",
              help="With --from: the command for seat M's bot, where the stored arena does not name it.")
@click.option("--out", type=click.Path(file_okay=False),
              help="With --from: the results folder to write the game to [default: DIR/played-on/GAME-fromK].")
@click.option("--practice", is_flag=True, help="With --ask or --from: no clocks (as match --practice).")
@click.option("--save-position", "save_to", metavar="FILE",
              help="With --seat N --turn K and --accept or --reject: add the position to the suite FILE (made if "
                   "missing; docs/positions.md), for `lastcard puzzles FILE BOT`.")
@click.option("--accept", "accept", multiple=True, metavar="ACTION",
              help="With --save-position: an answer that passes, in the compact notation (t7, wr, t7.c7+, d; "
                   "repeatable).")
@click.option("--reject", "reject", multiple=True, metavar="ACTION",
              help="With --save-position: an answer that fails (repeatable); with no --accept, any other passes.")
@click.option("--comment", default="", help="With --save-position: why, shown with a miss.")
@click.option("--position-id", metavar="ID", help="With --save-position: its name [default: GAME-tK-sN].")
@sandbox_option
@contest_options
def replay_cmd(source: str, game: str | None, seat: int | None, raw: bool, verify: bool, ask_cmd: str | None,
               turn: int | None, all_turns: bool, as_json: bool, from_turn: int | None, play_cmd: str | None,
               seat_cmds: tuple[str, ...], out: str | None, practice: bool, save_to: str | None,
               accept: tuple[str, ...], reject: tuple[str, ...], comment: str, position_id: str | None,
               sandbox_mode: str | None, arena_file: str | None = None, stage: str | None = None) -> None:
    """Show a stored game turn by turn: SOURCE is a results directory and GAME a game id in it
    (lastcard replay results/sample g000012), or SOURCE is a record file and GAME a game in it: the run's
    records.jsonl.gz (lastcard replay results/sample/records.jsonl.gz g000012), or records/g000012.jsonl of
    older versions (GAME optional).

    Cards show their colour and a shape per colour; plain text when NO_COLOR is set or output is not
    a terminal.

    --ask "COMMAND" --seat N --turn K (or --all) puts your bot of today in seat N: it is sent the
    lines the seat was sent and its answers are compared with the stored ones. --from K --seat N
    --play "COMMAND" plays the game on from turn K with that bot in the seat. --save-position FILE --seat N
    --turn K --accept ACTION adds the position to a suite (lastcard puzzles FILE BOT). With --ask,
    --arena FILE asks the bot under that contest's limits and sandbox, and says where the stored game
    is not the contest's format.
    """
    contest = _contest(arena_file, stage, ask_cmd)
    if _saves(save_to, accept, reject, comment, position_id):
        _check_save(save_to, seat, turn, accept, reject, (raw, verify, ask_cmd, all_turns, as_json, from_turn,
                                                          play_cmd, seat_cmds, out, practice, sandbox_mode))
        assert save_to is not None and seat is not None and turn is not None
        _save_position(source, game, save_to, seat, turn, accept, reject, comment, position_id)
        return
    _check_modes(seat, raw, verify, ask_cmd, turn, all_turns, as_json, from_turn, play_cmd, seat_cmds, out, practice,
                 sandbox_mode)
    try:
        found = load(source, game)
        if seat is not None and not 0 <= seat < len(found.stored.seating):
            raise click.BadParameter(f"{seat} is not a seat of game {found.stored.game}: its seats are 0 to "
                                     f"{len(found.stored.seating) - 1} ({', '.join(found.stored.seating)})",
                                     param_hint="--seat")
        if ask_cmd is not None or from_turn is not None:
            assert seat is not None
            styled = use_colour(sys.stdout)
            lines = (run_ask(found, seat, ask_cmd, None if all_turns else turn, as_json, sandbox_mode, practice, styled,
                             contest)
                     if ask_cmd is not None else
                     run_play_on(found, seat, from_turn or 0, play_cmd or "", seat_cmds, out, sandbox_mode, practice))
            for line in lines:
                click.echo(line)
            return
        _show(found, seat, raw, verify, as_json, source, game)
    except InvalidReplayError as exc:
        raise BadSource(str(exc)) from None
    except BrokenPipeError:  # `lastcard replay ... | head`
        sys.stderr.close()


def _show(found: SourceGame, seat: int | None, raw: bool, verify: bool, as_json: bool, source: str,
          game: str | None) -> None:
    """The stored game: as JSON, checked (``--verify``: exit 1 at a difference), or as text."""
    if as_json:
        click.echo(json.dumps(game_json(found, seat, source, game), ensure_ascii=False))
        return
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


def _contest(arena_file: str | None, stage: str | None, ask_cmd: str | None) -> ContestStage | None:
    """``--arena``'s contest, for ``--ask`` only."""
    if arena_file is not None and ask_cmd is None:
        raise click.UsageError("--arena gives --ask a contest's limits and sandbox: it goes with --ask \"COMMAND\"")
    return load_contest(arena_file, stage)


def _saves(save_to: str | None, *given: object) -> bool:
    """Whether --save-position (or one of the options that go with it) was given."""
    return save_to is not None or any(given)


def _check_save(save_to: str | None, seat: int | None, turn: int | None, accept: tuple[str, ...],
                reject: tuple[str, ...], others: tuple[object, ...]) -> None:
    """--save-position's options: a seat, a turn, and what passes there; nothing that starts a bot."""
    if save_to is None:
        raise click.UsageError("--accept, --reject, --comment and --position-id go with --save-position FILE")
    if seat is None or turn is None:
        raise click.UsageError("--save-position saves one seat's turn: give --seat N and --turn K as well")
    if not accept and not reject:
        raise click.UsageError("--save-position needs what passes there: --accept ACTION (or --reject ACTION), in "
                               "the compact notation (t7, wr, t7.c7+, d)")
    if any(value not in (None, False, (), "") for value in others):
        raise click.UsageError("--save-position saves a stored position: leave out --raw, --verify, --ask, --all, "
                               "--json, --from, --play, --seat-cmd, --out, --practice and --sandbox")


def _save_position(source: str, game: str | None, save_to: str, seat: int, turn: int, accept: tuple[str, ...],
                   reject: tuple[str, ...], comment: str, position_id: str | None) -> None:
    from referee.replay.suite import append_position, position_of

    try:
        found = load(source, game)
    except InvalidReplayError as exc:
        raise BadSource(str(exc)) from None
    position = position_of(found, seat, turn, accept, reject, comment, position_id)
    suite = append_position(save_to, found.stored.ruleset, dict(found.stored.options), position)
    click.echo(f"position {position.id} (seat {seat}, turn {turn}) saved to {save_to}: {len(suite.positions)} "
               f"position{'s' if len(suite.positions) != 1 else ''}; lastcard puzzles {save_to} BOT asks a bot them")


def _check_modes(seat: int | None, raw: bool, verify: bool, ask_cmd: str | None, turn: int | None, all_turns: bool,
                 as_json: bool, from_turn: int | None, play_cmd: str | None, seat_cmds: tuple[str, ...],
                 out: str | None, practice: bool, sandbox_mode: str | None) -> None:
    """Refuse options that do not go together, saying what to give instead."""
    if raw and seat is None:
        raise click.UsageError("--raw shows one seat's messages: give --seat N as well")
    if ask_cmd is not None and from_turn is not None:
        raise click.UsageError("--ask and --from are two different things: ask a bot again (--ask) or play on "
                               "(--from ... --play); give one")
    if (ask_cmd is not None or from_turn is not None) and (raw or verify):
        raise click.UsageError("--raw and --verify show the stored game: leave them out with --ask or --from")
    if as_json and ask_cmd is None and (raw or verify or from_turn is not None):
        raise click.UsageError("--json writes the stored game as JSON (or, with --ask, what was asked): leave out "
                               "--raw, --verify and --from")
    _check_ask(seat, ask_cmd, turn, all_turns, as_json)
    _check_play_on(seat, from_turn, play_cmd, seat_cmds, out)
    if ask_cmd is None and from_turn is None:
        for name, given in (("--practice", practice), ("--sandbox", sandbox_mode is not None)):
            if given:
                raise click.UsageError(f"{name} starts a bot: it goes with --ask or --from")


def _check_ask(seat: int | None, ask_cmd: str | None, turn: int | None, all_turns: bool, as_json: bool) -> None:
    """--ask's options: a seat and which requests; without --ask, none of them."""
    if ask_cmd is not None:
        if seat is None:
            raise click.UsageError("--ask puts the bot in a seat: give --seat N as well")
        if (turn is None) == (not all_turns):
            raise click.UsageError("--ask needs which requests to ask: --turn K (one, shown in full) or --all "
                                   "(every one, the differences listed)")
    else:
        for name, given in (("--turn", turn is not None), ("--all", all_turns)):
            if given:
                raise click.UsageError(f"{name} goes with --ask \"COMMAND\"")


def _check_play_on(seat: int | None, from_turn: int | None, play_cmd: str | None, seat_cmds: tuple[str, ...],
                   out: str | None) -> None:
    """--from's options: a seat and the bot to play it; without --from, none of them."""
    if from_turn is not None:
        if seat is None or play_cmd is None:
            raise click.UsageError("--from K plays the game on with another bot in a seat: give --seat N and "
                                   "--play \"COMMAND\" as well")
    else:
        for name, given in (("--play", play_cmd is not None), ("--seat-cmd", bool(seat_cmds)),
                            ("--out", out is not None)):
            if given:
                raise click.UsageError(f"{name} goes with --from K")
