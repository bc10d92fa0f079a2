"""The base of the project's domain errors: each carries the exit status the command line ends with.

This module imports nothing of the package, so every layer (the compiled engine included) can subclass
``LastcardError``, and the command line catches them all with one ``except`` without importing the modules
that raise them (``lastcard --version`` stays fast). Exit statuses (README, "Exit status"): ``1`` the run
could not do what was asked, ``2`` bad input.
"""

from __future__ import annotations

from typing import ClassVar, Final

#: The run could not do what was asked (the workers failed, a replay contradicts its record).
RUN_FAILED: Final = 1
#: Bad input: an arena file, an option, an output directory, a game or folder that is not there.
BAD_INPUT: Final = 2


class LastcardError(Exception):
    """An error for the person running lastcard: the message says what was wrong; ``exit_code`` the status."""

    exit_code: ClassVar[int] = RUN_FAILED

    def cli_message(self) -> str:
        """The message the command line prints (the error's own, unless a subclass adds context)."""
        return str(self)


class OptionError(LastcardError):
    """Bad input that one command-line option is to blame for; ``option`` names it (without the dashes)."""

    exit_code = BAD_INPUT

    def __init__(self, message: str, option: str) -> None:
        super().__init__(message)
        self.option = option

    def cli_message(self) -> str:
        text = str(self)
        return f"--{self.option}: {text}" if self.option and not text.startswith("--") else text
