"""Run a ``lastcard`` command in this process and cut it after a few seconds as Ctrl-C would.

A timer (SIGALRM) raises ``KeyboardInterrupt`` in the command wherever it is (planning, workers
starting, games, the final fit), only while the command runs and, as a real Ctrl-C, only while the
command has not set SIGINT aside (its clean-up); it fires again every second, as an impatient user
presses Ctrl-C again. A command still running ``HARD_S`` seconds after the first cut gets ``NotStopped``,
which fails the test. The signal handlers the command changes are put back afterwards.
"""

from __future__ import annotations

import signal
import time
from contextlib import contextmanager
from typing import Iterator, Sequence

from click.testing import CliRunner, Result

from referee.cli.main import cli

#: Seconds a cut command has to end before the test calls it stuck.
HARD_S = 30.0


class NotStopped(BaseException):
    """The command went on long after Ctrl-C."""


@contextmanager
def _cut_after(seconds: float) -> Iterator[None]:
    running = True
    first: list[float] = []

    def cut(signum: int, frame: object) -> None:
        if not running:  # never outside the command: pytest itself must not see it
            return
        first.append(time.monotonic()) if not first else None
        if time.monotonic() - first[0] > HARD_S:
            raise NotStopped(f"still running {HARD_S:.0f} s after Ctrl-C")
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
            raise KeyboardInterrupt

    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGALRM)}
    signal.signal(signal.SIGALRM, cut)
    signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
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
