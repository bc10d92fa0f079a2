"""The ``lastcard`` program: SIGINT and SIGTERM stop it quietly from its first instruction.

Importing the commands takes a second on a busy machine; a Ctrl-C or ``kill`` then would print a
traceback from the middle of an import (SIGINT) or end the program without a word (SIGTERM). So
both become ``KeyboardInterrupt`` here, before anything else is imported, and an interrupt during
the imports ends with ``interrupted`` and exit status 130 as it does later (``LastcardGroup``).
"""

from __future__ import annotations

import signal
import sys
from typing import NoReturn

#: The exit status of an interrupted command (``common.INTERRUPTED``, not imported: it is what takes time).
INTERRUPTED = 130


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> NoReturn:
    """Run the ``lastcard`` command group."""
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        from referee.cli.main import cli
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print("interrupted while starting: nothing was played or written", file=sys.stderr)
        sys.exit(INTERRUPTED)
    cli()
    sys.exit(0)  # pragma: no cover - click's main exits itself


if __name__ == "__main__":  # python -m referee.cli.entry
    main()
