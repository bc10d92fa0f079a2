"""What a bot fault costs in a game: the fault policy, and the actions that stand in for a bad answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.engine.actions import DRAW_ACTION, PASS_ACTION, Action
from referee.protocol.faults import FaultKind


@dataclass(frozen=True)
class FaultPolicy:
    """``forfeit``: a fault loses the game (placed last; the seat is played by the first legal action).
    ``strikes``: a bad answer is replaced by a draw, up to ``strikes`` times in a game, then forfeit."""

    mode: str = "forfeit"
    strikes: int = 0

    @classmethod
    def parse(cls, value: Any) -> FaultPolicy:
        """``"forfeit"``, ``"strikes:3"`` or ``{"strikes": 3}``."""
        if isinstance(value, FaultPolicy):
            return value
        if value in (None, "forfeit"):
            return cls()
        if isinstance(value, dict) and set(value) == {"strikes"}:
            value = f"strikes:{value['strikes']}"
        if isinstance(value, str) and value.startswith("strikes:"):
            count = value.split(":", 1)[1].strip()
            if count.isdigit() and int(count) >= 1:
                return cls("strikes", int(count))
        raise ValueError(f"fault policy {value!r} is not 'forfeit' or 'strikes: N' (N >= 1)")

    def forgives(self, kind: FaultKind, strikes: int) -> bool:
        """Whether the ``strikes``-th fault of a seat in a game is replaced by a draw instead of losing it.

        A crash or a failed start leaves nobody to answer the next turn: those always forfeit.
        """
        return (self.mode == "strikes" and strikes <= self.strikes
                and kind not in (FaultKind.CRASH, FaultKind.STARTUP))

    def to_json(self) -> str:
        return "forfeit" if self.mode == "forfeit" else f"strikes:{self.strikes}"

    def __str__(self) -> str:
        return self.to_json()


def fallback_action(legal: list[Action]) -> Action:
    """The fixed policy that plays a forfeited seat: the first legal action (plays are listed first)."""
    return legal[0]


def replacement_action(legal: list[Action]) -> Action:
    """What replaces a bad answer under ``strikes``: a draw, else a pass, else the first legal action."""
    if DRAW_ACTION in legal:
        return DRAW_ACTION
    if PASS_ACTION in legal:
        return PASS_ACTION
    return legal[0]
