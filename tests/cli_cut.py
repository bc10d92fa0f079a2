"""Run a ``lastcard`` command in this process and cut it after a few seconds as Ctrl-C would.

A timer (SIGALRM) raises ``KeyboardInterrupt`` in the command wherever it is (planning, workers
starting, games, the final fit), only while the command runs, so a run that is legitimately long
is stopped and what it prints on the way out can be checked. The signal handlers the command
changes are put back afterwards.
"""

from __future__ import annotations

import signal
from contextlib import contextmanager
from typing import Iterator, Sequence

from click.testing import CliRunner, Result

from referee.cli.main import cli


@contextmanager
def _cut_after(seconds: float) -> Iterator[None]:
    running = True

    def cut(signum: int, frame: object) -> None:
        if running:  # never outside the command: pytest itself must not see it
            raise KeyboardInterrupt

    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGALRM)}
    signal.signal(signal.SIGALRM, cut)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        running = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        for sig, handler in saved.items():
            signal.signal(sig, handler)


def invoke_cut(args: Sequence[str], seconds: float = 3.0, input: str | None = None) -> Result:
    """``lastcard ARGS``, interrupted after ``seconds`` if it has not ended by then."""
    with _cut_after(seconds):
        return CliRunner().invoke(cli, list(args), input=input)
