"""A game followed as it is played: each action's compact code appended to a file as the table plays it.

The live page's "now playing" view reads the file (``live.now``) while a worker plays the game: the codes
are written unbuffered, a space after each, so a reader sees only whole codes, and a newline ends the file
when the game is over (its result may take a while to reach the live page: a worker sends it after its
queue's next game was handed out). A file that cannot be written (a cluster worker, which has no such
folder) follows nothing: the game is played the same.
"""

from __future__ import annotations

import os


class FollowFile:
    """Appends actions' codes to ``path`` (``write``), from the game's first action to its last."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._fd: int | None = None

    def __enter__(self) -> FollowFile:
        try:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o644)
        except OSError:
            self._fd = None
        return self

    def write(self, code: str) -> None:
        """One action played (its compact code)."""
        if self._fd is not None:
            try:
                os.write(self._fd, f"{code} ".encode())
            except OSError:  # a full disk: the page stops following, the game goes on
                self._fd = None

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            try:
                os.write(self._fd, b"\n")  # the game is over (or its table failed): follow another
            except OSError:
                pass
            os.close(self._fd)
            self._fd = None
