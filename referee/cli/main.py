"""The ``lastcard`` command group."""

from __future__ import annotations

import click

from .. import __version__, build
from .arena import arena_cmd, validate_cmd
from .check import check_cmd
from .common import LastcardGroup
from .compare import compare_cmd
from .ladder import ladder_cmd
from .match import match_cmd
from .play import play_cmd
from .replay import replay_cmd
from .report import report_cmd
from .rules_cmd import rules_cmd
from .sprt import sprt_cmd


@click.group(cls=LastcardGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
# "lastcard, version 0.1.0 (compiled with mypyc)" or "(pure Python)": which build runs (README, "Compiled build").
@click.version_option(f"{__version__} ({build()})", prog_name="lastcard")
def cli() -> None:
    """Referee and bot arena for Last Card: bots in any language, over JSON lines on stdin/stdout."""


cli.add_command(arena_cmd)
cli.add_command(match_cmd)
cli.add_command(rules_cmd)
cli.add_command(validate_cmd)

cli.add_command(check_cmd)
cli.add_command(play_cmd)
cli.add_command(replay_cmd)
cli.add_command(report_cmd)
cli.add_command(ladder_cmd)
cli.add_command(sprt_cmd)
cli.add_command(compare_cmd)


if __name__ == "__main__":  # python -m referee.cli.main
    cli()
