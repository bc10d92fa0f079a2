"""The ``lastcard`` command group."""

from __future__ import annotations

import importlib

import click

from referee import __version__, build
from referee.cli.common import LastcardGroup

#: Each command's module (in this package) and object, imported when that command is asked for: a run
#: of one command does not import the others (``compare`` alone loads numpy, a fifth of the start-up,
#: and numpy loaded before the rating fit's import would have its BLAS threads unset).
COMMANDS = {
    "arena": ("arena", "arena_cmd"),
    "match": ("match", "match_cmd"),
    "rules": ("rules_cmd", "rules_cmd"),
    "validate": ("arena", "validate_cmd"),
    "check": ("check", "check_cmd"),
    "play": ("play", "play_cmd"),
    "replay": ("replay", "replay_cmd"),
    "blunders": ("blunders", "blunders_cmd"),
    "report": ("report", "report_cmd"),
    "ladder": ("ladder", "ladder_cmd"),
    "sprt": ("sprt", "sprt_cmd"),
    "compare": ("compare", "compare_cmd"),
    "tune": ("tune", "tune_cmd"),
    "puzzles": ("puzzles", "puzzles_cmd"),
    "similar": ("similar", "similar_cmd"),
    "collusion": ("collusion", "collusion_cmd"),
    "grade": ("grade", "grade_cmd"),
}


class _Commands(LastcardGroup):
    """The group with its commands imported on demand (``COMMANDS``)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, name = COMMANDS[cmd_name]
            self.add_command(getattr(importlib.import_module(f".{module}", __package__), name), cmd_name)
        return self.commands.get(cmd_name)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
# "lastcard, version 0.1.0 (compiled with mypyc)" or "(pure Python)": which build runs (README, "Compiled build").
@click.version_option(f"{__version__} ({build()})", prog_name="lastcard")
def cli() -> None:
    """Referee and bot arena for Last Card: bots in any language, over JSON lines on stdin/stdout."""


if __name__ == "__main__":  # python -m referee.cli.main
    cli()
