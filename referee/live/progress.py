"""A run's progress display that also writes the live state: the terminal shows what it showed before."""

from __future__ import annotations

from typing import Any, Protocol

from referee.live.state import LiveState


class ProgressShown(Protocol):
    """What a run tells the person watching it (``referee.arena.runner.Progress``, seen from here)."""

    def note(self, text: str) -> None: ...
    def start(self, total: int, done: int) -> None: ...
    def update(self, done: int, total: int, leader: Any) -> None: ...
    def stop(self) -> None: ...


class LiveProgress:
    """``inner`` (the terminal's display) plus the live page: notes, the start and every update."""

    def __init__(self, inner: ProgressShown, state: LiveState) -> None:
        self.inner = inner
        self.state = state

    def note(self, text: str) -> None:
        self.inner.note(text)
        self.state.note(text)

    def start(self, total: int, done: int) -> None:
        self.inner.start(total, done)
        self.state.start(total, done)

    def update(self, done: int, total: int, leader: Any) -> None:
        self.inner.update(done, total, leader)
        self.state.progress(done, total)

    def stop(self) -> None:
        self.inner.stop()
