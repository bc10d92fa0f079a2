"""A block of lines a long command keeps on the terminal: redrawn in place on a terminal (at most every
``TTY_EVERY`` s), printed whole every ``LINE_EVERY`` s otherwise (a log keeps a readable history)."""

from __future__ import annotations

import sys
import time
from typing import Sequence, TextIO

import click


class RedrawnBlock:
    """``compare``'s fastchess block, a candidates family's blocks, ``tune``'s parameters: ``draw`` them as they
    change, ``note`` a line above them, ``stop`` at the end (the block is cleared; the command prints the final
    one)."""

    TTY_EVERY = 0.2
    LINE_EVERY = 10.0

    def __init__(self, stream: TextIO | None = None, quiet: bool = False) -> None:
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.tty = self.stream.isatty()
        self.t0 = self.last = time.monotonic()
        self.drawn = 0  # lines on screen to redraw over

    def due(self, force: bool = False) -> bool:
        """Whether to draw now (``force``: the last update, drawn whatever the time)."""
        now = time.monotonic()
        if self.quiet or (not force and now - self.last < (self.TTY_EVERY if self.tty else self.LINE_EVERY)):
            return False
        self.last = now
        return True

    def draw(self, lines: Sequence[str], keep: bool = False) -> None:
        """Replace the block with ``lines`` (``keep``: leave them on screen, not redrawn over)."""
        self._clear()
        self.stream.write("".join(line + ("\x1b[K\n" if self.tty else "\n") for line in lines))
        self.stream.flush()
        self.drawn = len(lines) if self.tty and not keep else 0

    def note(self, text: str) -> None:
        self._clear()
        click.echo(text, err=True)

    def stop(self) -> None:
        self._clear()

    def _clear(self) -> None:
        if self.drawn:
            self.stream.write(f"\x1b[{self.drawn}F\x1b[J")
            self.stream.flush()
            self.drawn = 0
