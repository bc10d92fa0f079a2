"""The ``lastcard`` program: SIGINT and SIGTERM stop it quietly from its first instruction.

Importing the commands takes a second on a busy machine; a Ctrl-C or ``kill`` then would print a
traceback from the middle of an import (SIGINT) or end the program without a word (SIGTERM). So
both become ``KeyboardInterrupt`` here, before anything else is imported, and an interrupt during
the imports ends with ``interrupted`` and exit status 130 as it does later (``LastcardGroup``).
"""

from __future__ import annotations

import os
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
    # Taken even when the parent held them back: a mask is inherited across exec, and a lastcard started with
    # SIGTERM blocked could not be stopped (its Ctrl-C handling expects both).
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        from referee.cli.main import cli
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print("interrupted while starting: nothing was played or written", file=sys.stderr)
        sys.exit(INTERRUPTED)
    try:
        cli()
        code: str | int | None = 0  # pragma: no cover - click's main exits itself
    except SystemExit as done:
        code = done.code
    exit_now(code)


def exit_now(code: str | int | None) -> NoReturn:
    """End the program with ``code`` (as ``sys.exit`` takes it) without tearing the interpreter down.

    Freeing every module and object at exit costs a command about 30 ms once numpy is loaded (a one-game match
    takes 0.25 s in all: issue 51). Everything the program wrote is already in files closed by their ``with``
    blocks; what is left is done here as Python would do it: the exit handlers (``atexit``: temporary folders,
    multiprocessing's children), then every buffered file still open is flushed, standard streams last. With a
    thread still running that is not a daemon, Python's own exit waits for it, so this falls back to that.
    """
    import atexit
    import threading

    if any(t.is_alive() and not t.daemon for t in threading.enumerate() if t is not threading.main_thread()):
        sys.exit(code)
    status = 0 if code is None else code if isinstance(code, int) else 1
    if isinstance(code, str):
        print(code, file=sys.stderr)  # sys.exit("message") prints it and exits 1
    atexit._run_exitfuncs()
    status = _flush_open_files(status)
    os._exit(status)


def _flush_open_files(status: int) -> int:
    """Flush every open buffered file (a normal exit flushes them as it frees them); 120 if stdout or stderr cannot
    be flushed, as Python exits then (the reader of a pipe went away), else ``status``."""
    import gc
    import io

    for obj in gc.get_objects():
        if isinstance(obj, (io.BufferedWriter, io.BufferedRandom, io.TextIOWrapper)) and obj not in (sys.stdout,
                                                                                                     sys.stderr):
            try:
                if not obj.closed and obj.writable():
                    obj.flush()
            except (OSError, ValueError):
                pass
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            status = status or 120
    return status


if __name__ == "__main__":  # python -m referee.cli.entry
    main()
