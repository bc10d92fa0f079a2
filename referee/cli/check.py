"""``lastcard check BOT_COMMAND``: does a bot speak the protocol? A checklist, JSON or JUnit XML."""

from __future__ import annotations

import json
import sys
from dataclasses import replace

import click

from referee.bots.cpuclock import Clock
from referee.bots.spec import DEFAULT_CLOCK, parse_bot
from referee.check import CheckConfig
from referee.check.output import format_text, to_junit
from referee.check.runner import run_check_spec
from referee.cli.needs_option import needs_options, with_needs
from referee.cli.options import clock_options, seed_option
from referee.cli.sandbox_option import announce, sandbox_option
from referee.engine.rules import PRESETS


def _rulesets(values: tuple[str, ...]) -> tuple[str, ...]:
    chosen: list[str] = []
    for value in values or ("all",):
        for name in value.split(","):
            name = name.strip()
            names = list(PRESETS) if name == "all" else [name]
            for n in names:
                if n not in PRESETS:
                    raise click.BadParameter(f"unknown ruleset {n!r}; choose from {', '.join(PRESETS)} or all",
                                             param_hint="--ruleset")
                if n not in chosen:
                    chosen.append(n)
    return tuple(chosen)


def _unicode_ok() -> bool:
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "").replace("_", "")
    return encoding in ("utf8", "utf8sig")


@click.command("check")
@click.argument("bot_command", metavar="BOT_COMMAND", required=False)
@click.option("--arena", "arena_file", type=click.Path(dir_okay=False), metavar="FILE.yaml",
              help="Check the bots of this arena as the contest runs them: its rulesets, options, seats, limits, "
                   "policy and each bot's own command (builds run first).")
@click.option("--bot", "bot_names", metavar="NAME", multiple=True,
              help="With --arena: only this bot (by its name in the arena); repeat it for several.")
@click.option("--records", "records_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Write failing fuzz games' records here, for lastcard replay.  [default: a temporary folder]")
@click.option("--ruleset", "-r", "rulesets", multiple=True, metavar="NAME|all",
              help="Ruleset to check (compact, family, arcade; repeatable or comma-separated).  [default: all]")
@click.option("--games", "-n", type=click.IntRange(0), default=50, show_default=True,
              help="Fuzz games against built-in players, spread over the chosen rulesets (0: none).")
@seed_option
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON instead of the checklist.")
@click.option("--junit", type=click.Path(dir_okay=False, writable=True), metavar="FILE",
              help="Also write the report as JUnit XML, for CI systems and autograders.")
@click.option("--move-ms", type=click.IntRange(1), default=1000, show_default=True,
              help="Time limit per answer.")
@click.option("--startup-ms", type=click.IntRange(1), default=10_000, show_default=True,
              help="Time the bot has to answer hello.")
@click.option("--quiet-ms", type=click.IntRange(1), default=200, show_default=True,
              help="How long to watch for stray answers after information that needs none.")
@click.option("--verbose", "-v", is_flag=True, help="Show the details of passed checks too.")
@sandbox_option
@clock_options
@needs_options
def check_cmd(bot_command: str | None, arena_file: str | None, bot_names: tuple[str, ...], records_dir: str | None,
              rulesets: tuple[str, ...], games: int, seed: int, as_json: bool, junit: str | None,
              move_ms: int, startup_ms: int, quiet_ms: int, verbose: bool, sandbox_mode: str | None,
              clock: str | None = None, wall_ms: int | None = None, bot_env: tuple[str, ...] = (),
              bot_paths: tuple[str, ...] = ()) -> None:
    """Check that BOT_COMMAND speaks the Last Card protocol: a scripted suite of situations, then fuzz games.

    BOT_COMMAND is the command line that starts the bot, in quotes, e.g.
    "python3 sample_bots/python/strong_bot.py"; or give --arena FILE.yaml [--bot NAME] to check a
    contest's bots as it runs them. Exit status 0 only when every check passed.
    """
    if arena_file is not None:
        if bot_command is not None:
            raise click.UsageError("give BOT_COMMAND or --arena, not both (--bot NAME picks a bot of the arena)")
        ctx = click.get_current_context()
        for option, flag in (("rulesets", "--ruleset"), ("move_ms", "--move-ms"), ("startup_ms", "--startup-ms"),
                             ("clock", "--clock"), ("wall_ms", "--wall-ms")):
            if ctx.get_parameter_source(option) is click.core.ParameterSource.COMMANDLINE:
                raise click.UsageError(f"{flag} does not go with --arena: the arena file decides it (change the "
                                       "file, or check BOT_COMMAND instead)")
        if bot_env or bot_paths:
            raise click.UsageError("--bot-env and --bot-path do not go with --arena: give the bot env: and paths: in "
                                   "the arena file")
        from referee.cli.check_arena import check_arena
        check_arena(arena_file, bot_names, games=games, seed=seed, quiet_ms=quiet_ms, as_json=as_json, junit=junit,
                    verbose=verbose, records_dir=records_dir, unicode=_unicode_ok())
        return
    if bot_command is None:
        raise click.UsageError("give the bot's command line (BOT_COMMAND), or --arena FILE.yaml")
    if bot_names:
        raise click.UsageError("--bot picks a bot of an arena: give --arena FILE.yaml as well")
    config = CheckConfig(rulesets=_rulesets(rulesets), games=games, seed=seed, move_ms=move_ms,
                         startup_ms=startup_ms, quiet_ms=quiet_ms, sandbox=sandbox_mode or "auto",
                         records_dir=records_dir, clock=Clock(clock) if clock else DEFAULT_CLOCK, wall_ms=wall_ms)
    announce([replace(parse_bot("checked", config.limits()), sandbox=config.sandbox_settings())])
    show_progress = sys.stderr.isatty() and not as_json

    def progress(text: str) -> None:
        click.echo(f"\r\033[Kchecking: {text}", nl=False, err=True)

    try:
        spec = replace(parse_bot(bot_command, config.limits()), sandbox=config.sandbox_settings())
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="BOT_COMMAND") from None
    spec = with_needs([spec], bot_env, bot_paths)[0]
    try:
        report = run_check_spec(spec, config, progress=progress if show_progress else None)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="BOT_COMMAND") from None
    if show_progress:
        click.echo("\r\033[K", nl=False, err=True)
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        click.echo(format_text(report, unicode=_unicode_ok(), style=click.style, verbose=verbose))
    if junit:
        with open(junit, "w", encoding="utf-8") as fh:
            fh.write(to_junit(report))
        if not as_json:
            click.echo(f"JUnit XML: {junit}")
    sys.exit(0 if report.ok else 1)
