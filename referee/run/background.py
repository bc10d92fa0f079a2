"""One call on a daemon thread of its own, its result or exception kept for whoever asks (the work an arena
runs beside its games: the builds, the bots' start-up probe, the checks behind the bot reports).

Not ``concurrent.futures``: its threads are not daemons, and ``cli.entry.exit_now`` waits for those, so an
interrupted run would wait for a build or a check it no longer wants (their processes' watchdogs end them).
"""

from __future__ import annotations

import threading
from typing import Callable, Generic, TypeVar

T = TypeVar("T")


class Background(Generic[T]):
    """``start(call)`` runs ``call`` once on a daemon thread named ``name``; ``result`` waits for it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._thread: threading.Thread | None = None
        self._value: T | None = None
        self._error: BaseException | None = None

    def start(self, call: Callable[[], T]) -> None:
        """Run ``call`` on its thread (once: a second start does nothing)."""
        if self._thread is not None:
            return

        def run() -> None:
            try:
                self._value = call()
            except BaseException as exc:  # noqa: BLE001 - raised again where the result is asked for
                self._error = exc

        self._thread = threading.Thread(target=run, name=self.name, daemon=True)
        self._thread.start()

    @property
    def started(self) -> bool:
        return self._thread is not None

    @property
    def done(self) -> bool:
        """Started and ended (its result is ready)."""
        return self._thread is not None and not self._thread.is_alive()

    def join(self, timeout: float | None = None) -> bool:
        """Wait at most ``timeout`` seconds for the call to end; whether it has (not started: True)."""
        if self._thread is not None:
            self._thread.join(timeout)
        return not (self._thread is not None and self._thread.is_alive())

    def result(self) -> T:
        """Wait for the call; its value, or its exception raised here. Only once started."""
        if self._thread is None:
            raise RuntimeError(f"{self.name}: result asked before start")
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]  # set by the call, which returned
