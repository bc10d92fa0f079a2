"""``lastcard puzzles SUITE BOT``: ask a bot every position of a suite, print its score and each miss."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import replace
from typing import Iterator

import click

from referee.arena.contest import PlayedFormat
from referee.bots.spec import TimeLimits, parse_bot
from referee.cli.contest_option import contest_options, format_lines, load_contest
from referee.cli.sandbox_option import announce, sandbox_option, with_mode
from referee.engine.cardfaces import use_colour
from referee.engine.describe import action_text, seat_name
from referee.engine.notation import decode_action
from referee.engine.rules import PRESETS, parse_option
from referee.replay.suite import SHIPPED, SuiteRun, Verdict, describe_rules, load_suite, run_suite
from referee.replay.text import position_lines


@click.command("puzzles")
@click.argument("suite", metavar="SUITE")
@click.argument("bot", metavar="BOT")
@click.option("--ruleset", "-r", type=click.Choice(list(PRESETS)), default=None,
              help="The rules BOT is meant for: a suite for other rules is refused (exit 2).")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="With --ruleset: an option BOT is meant for (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object: the score and every position's verdict.")
@click.option("--junit", "junit", metavar="FILE", help="Also write the verdicts as JUnit XML (one test case a "
                                                       "position) to FILE, for CI and autograders ('-': stdout).")
@click.option("--practice", is_flag=True, help="No clocks (as match --practice).")
@sandbox_option
@contest_options
def puzzles_cmd(suite: str, bot: str, ruleset: str | None, options: tuple[str, ...], as_json: bool, junit: str | None,
                practice: bool, sandbox_mode: str | None, arena_file: str | None = None,
                stage: str | None = None) -> None:
    """Ask BOT every position of SUITE, as `replay --ask` asks it, and say which it answered right.

    SUITE is a position suite (docs/positions.md), or the name of a shipped one: compact, family or
    arcade. BOT is a command line ("python3 my_bot.py") or a built-in (builtin:hard). Each position
    starts the bot afresh and sends it every line its seat would have read up to the position's turn;
    only its answer there is judged. With --arena FILE the bot runs under that contest's limits and sandbox
    (a name of the contest's bots is that bot), and a suite for other rules than the contest's is refused.
    Exit status: 0 every position passed, 1 some missed, 2 bad input.
    """
    contest = load_contest(arena_file, stage)
    loaded = load_suite(_suite_path(suite))
    given = dict(parse_option(o) for o in options) if options else None
    if contest is not None and ruleset is None and given is None:  # the rules the contest's bots are meant for
        loaded.check_rules(contest.rules.house, dict(contest.rules.options))
    else:
        loaded.check_rules(ruleset, given)
    limits = contest.limits if contest is not None else TimeLimits()
    try:
        spec = contest.spec(bot) if contest is not None else parse_bot(bot, limits)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="BOT") from None
    spec = with_mode(replace(spec, limits=spec.limits.practice()) if practice else spec, sandbox_mode)
    said = format_lines(PlayedFormat(loaded.rules(), None, spec.limits, None,
                                     None if spec.builtin is not None else spec.sandbox.mode.value, None, 0, contest))
    for line in said:  # on stderr: with --json or --junit -, stdout stays one document
        click.echo(line, err=True)
    announce([spec])
    run = run_suite(loaded, spec, spec.name if spec.builtin is None else bot)
    if junit == "-":
        click.echo(run.junit())
    else:
        if junit is not None:
            with open(junit, "w", encoding="utf-8") as fh:
                fh.write(run.junit() + "\n")
        lines = [json.dumps(run.to_json())] if as_json else report_lines(run, use_colour(sys.stdout))
        for line in lines:
            click.echo(line)
    sys.exit(1 if run.misses else 0)


def _suite_path(name: str) -> str:
    """A file, or a shipped suite by its ruleset's name."""
    if not os.path.exists(name) and name in PRESETS:
        return os.path.join(SHIPPED, f"{name}.yaml")
    return name


def report_lines(run: SuiteRun, styled: bool) -> Iterator[str]:
    """The score, then each miss with its position as ``replay --ask --turn`` shows it."""
    passed = len(run.verdicts) - len(run.misses)
    yield (f"{run.bot} on {run.suite.name or run.suite.path} ({describe_rules(run.suite.ruleset, run.suite.options)}):"
           f" {passed}/{len(run.verdicts)} positions passed")
    for v in run.misses:
        yield from miss_lines(v, run, styled)


def miss_lines(v: Verdict, run: SuiteRun, styled: bool) -> Iterator[str]:
    """One miss: the position as ``replay --seat`` shows its turn, what passes, what the bot answered, and why."""
    p = v.position
    yield ""
    yield f"MISS {p.id}: {seat_name(p.seating, p.seat)} at turn {p.turn} (seed {p.seed})"
    yield from (f"  {line}" for line in position_lines(run.suite.stored(p), p.seat, styled) if line)
    for word, codes in (("accepted", p.accept), ("rejected", p.reject)):
        if codes:
            yield f"    {word}: {' | '.join(action_text(decode_action(c), styled) for c in codes)}"
    yield f"    answered: {action_text(v.action, styled) if v.action is not None else v.answered}"
    if p.comment:
        yield f"    why: {p.comment}"
