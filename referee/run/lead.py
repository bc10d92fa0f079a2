"""How far an executor may read jobs ahead of the earliest game not yet finished.

A run that counts its games in planned order (``compare``: pair ``k`` once pairs ``0 .. k-1`` are) keeps
every game finished ahead of the count in memory. Without a bound that is unbounded: one worker stuck on a
slow game while the others play thousands. With a ``Lead`` of ``n`` no job is read while ``n`` jobs have
been read since the earliest unfinished one, so at most ``n`` finished games ever wait for their turn.
"""

from __future__ import annotations

from collections import deque


class Lead:
    """Jobs read, in order, from the earliest unfinished one on; ``may_read`` while fewer than ``limit``."""

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"a lead must be at least 1 job, not {limit}")
        self.limit = limit
        self._order: deque[str] = deque()  # the earliest unfinished game first, then every game read after it
        self._finished: set[str] = set()  # finished games still in _order (behind an unfinished one)

    def read(self, game_id: str) -> None:
        """A job was read from the plan (handed out, or held to be)."""
        self._order.append(game_id)

    def finished(self, game_id: str) -> None:
        """A game's result was handed back (each game once)."""
        if self._order and self._order[0] == game_id:
            self._order.popleft()
            while self._order and self._order[0] in self._finished:
                self._finished.remove(self._order.popleft())
        else:
            self._finished.add(game_id)

    def may_read(self) -> bool:
        """Whether one more job may be read now."""
        return len(self._order) < self.limit

    @property
    def ahead(self) -> int:
        """Jobs read from the earliest unfinished one on (that one included)."""
        return len(self._order)
