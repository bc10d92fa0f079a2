"""``lastcard blunders RESULTS_DIR --bot NAME``: the bot's turns that differ from a reference player's or break a
named pattern, ranked by what the game cost, each with its ``replay --ask`` and ``--save-position`` commands
(``referee.replay.blunders``)."""

from __future__ import annotations

import json
import os
import time
from typing import Any, Sequence

import click

from referee.bots.spec import parse_bot
from referee.cli.options import jobs_option
from referee.cli.sandbox_option import announce, sandbox_option, with_mode
from referee.replay.blunders import RULES, Blunder, BlunderReference, BuiltinReference, Rule, find_blunders, games_of
from referee.replay.reference_bot import CommandReference
from referee.replay.requests import ask_command
from referee.replay.turns_json import save_command
from referee.run.workers import resolve_workers
from referee.store.game_record import bot_limits


@click.command("blunders")
@click.argument("results_dir", metavar="RESULTS_DIR", type=click.Path(file_okay=False))
@click.option("--bot", "bot", required=True, metavar="NAME", help="The bot whose turns to search (its name there).")
@click.option("--against", "against", metavar="builtin:NAME|COMMAND",
              help="Flag the turns where the bot's answer differs from this player's in the same position: a "
                   "built-in (asked in process) or a bot's command line (asked as replay --ask asks it) "
                   "[default: builtin:hard when no --rule is given].")
@click.option("--rule", "rules", multiple=True, type=click.Choice([*RULES, "all"]),
              help="Flag the turns that break this pattern (repeatable): " +
                   "; ".join(f"{r.name}: {r.text}" for r in RULES.values()) +
                   " [default: all, when no --against is given].")
@click.option("--lost", is_flag=True, help="Only the games the bot did not win (its place below first).")
@click.option("--limit", "-n", type=click.IntRange(min=0), default=20, show_default=True,
              help="Show this many turns, the costliest first (0: all).")
@click.option("--suite", default="positions.yaml", show_default=True, metavar="FILE",
              help="The position suite the --save-position commands add to.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object: every flagged turn, with its commands.")
@jobs_option(1, "With --against COMMAND: games whose bot is asked side by side (the list is the same whatever the "
                "number).")
@sandbox_option
def blunders_cmd(results_dir: str, bot: str, against: str | None, rules: tuple[str, ...], lost: bool, limit: int,
                 suite: str, as_json: bool, jobs: int, sandbox_mode: str | None) -> None:
    """List the turns of bot NAME in RESULTS_DIR where its answer differs from a reference player's (--against)
    or breaks a named pattern (--rule), ranked by what the game cost it (its place), each with the
    `lastcard replay ... --ask` command that asks your bot of today the same, and the `--save-position`
    command that adds the position to a suite for `lastcard puzzles`.

    With neither --against nor --rule: every rule, and against builtin:hard. See docs/blunders.md.
    """
    if not os.path.isdir(results_dir):
        raise click.BadParameter(f"{results_dir!r} is not a folder: give the results folder of a match, compare or "
                                 "arena run (its --out)", param_hint="RESULTS_DIR")
    chosen = _rules(rules, against)
    reference = _reference(against if against is not None or rules else "builtin:hard", sandbox_mode)
    started = time.perf_counter()
    games = games_of(results_dir, bot)
    if lost:
        games = [g for g in games if g.place > 1]
    workers = resolve_workers(jobs, len(games))
    if workers.note:
        click.echo(workers.note, err=True)
    found = find_blunders(games, chosen, reference, results_dir, workers.count)
    seconds = time.perf_counter() - started
    command = _command_of(results_dir, bot)
    if as_json:
        click.echo(json.dumps(_json(found, games, results_dir, command, suite, chosen, reference, seconds)))
        return
    for line in _lines(found, len(games), results_dir, bot, command, suite, chosen, reference, limit, seconds):
        click.echo(line)


def _rules(given: Sequence[str], against: str | None) -> list[Rule]:
    if "all" in given or (not given and against is None):
        return list(RULES.values())
    return [RULES[name] for name in dict.fromkeys(given)]


def _reference(text: str | None, sandbox_mode: str | None) -> BlunderReference | None:
    if text is None:
        return None
    try:
        spec = parse_bot(text)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--against") from None
    if spec.builtin is not None:
        try:
            return BuiltinReference(spec.builtin)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--against") from None
    spec = with_mode(spec, sandbox_mode)
    announce([spec])
    return CommandReference(spec)


def _command_of(results_dir: str, bot: str) -> str | None:
    """The bot's command as the run stored it, for the --ask lines (None: a built-in, or not stored)."""
    spec = bot_limits(results_dir).get(bot) or {}
    command = spec.get("command")
    if not isinstance(command, str) or command.startswith("builtin:"):
        return None
    return command


def _why(blunder: Blunder) -> str:
    parts = []
    for reason in blunder.reasons:
        if reason.rule in RULES:
            parts.append(f"{reason.rule} ({', '.join(reason.better)} kept it)")
        else:
            parts.append(f"{reason.rule} plays {reason.better[0]}")
    return "; ".join(parts)


def _commands(b: Blunder, results_dir: str, command: str | None, suite: str) -> tuple[str, str]:
    accept = b.accept()
    return (ask_command(results_dir, b.game, b.seat, b.turn, command),
            save_command(results_dir, b.game, b.seat, b.turn, reject=None if accept else b.played, accept=accept,
                         suite=suite))


def _lines(found: list[Blunder], games: int, results_dir: str, bot: str, command: str | None, suite: str,
           rules: Sequence[Rule], reference: BlunderReference | None, limit: int, seconds: float) -> list[str]:
    checks = [*(r.name for r in rules), *([f"against {reference.name}"] if reference is not None else [])]
    flagged_games = len({b.game for b in found})
    out = [f"{bot}: {len(found)} turns flagged in {flagged_games} of {games} games ({', '.join(checks)}), the "
           f"costliest game first ({seconds:.1f} s)"]
    shown = found if limit == 0 else found[:limit]
    for b in shown:
        ask, save = _commands(b, results_dir, command, suite)
        out += ["", f"{b.game} turn {b.turn}, seat {b.seat} (place {b.place} of {b.seats}): played {b.played}; "
                    f"{_why(b)}", f"  {ask}", f"  {save}"]
    if len(shown) < len(found):
        out += ["", f"... and {len(found) - len(shown)} more (--limit 0 shows them all, --json writes them)"]
    return out


def _json(found: list[Blunder], games: Sequence[Any], results_dir: str, command: str | None, suite: str,
          rules: Sequence[Rule], reference: BlunderReference | None, seconds: float) -> dict[str, Any]:
    turns = []
    for b in found:
        ask, save = _commands(b, results_dir, command, suite)
        turns.append({"game": b.game, "turn": b.turn, "seat": b.seat, "played": b.played, "place": b.place,
                      "seats": b.seats, "cost": b.cost,
                      "reasons": [{"rule": r.rule, "better": list(r.better)} for r in b.reasons],
                      "ask": ask, "save_position": save})
    return {"games": len(games), "rules": [r.name for r in rules],
            "against": reference.name if reference is not None else None, "seconds": round(seconds, 3),
            "turns": turns}
