"""An arena file's ``collusion:`` key: after the games, which bot gains when which other bot sits at its table
(``lastcard collusion``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

#: The player that takes a bot's seat in the games played again, unless the file names another.
DEFAULT_REFERENCE = "builtin:medium"
#: The family-wise error rate of the pairs' tests, unless the file says otherwise.
DEFAULT_ALPHA = 0.05


class CollusionKey(TypedDict, total=False):
    """``collusion: {reference, games, alpha}`` as the schema let it through."""

    reference: str
    games: int
    alpha: float


@dataclass(frozen=True)
class CollusionOption:
    """The reference player, the most stored games a pair is measured on (``None``: all), the tests' error rate."""

    reference: str = DEFAULT_REFERENCE
    games: int | None = None
    alpha: float = DEFAULT_ALPHA


def collusion_from(value: bool | CollusionKey | None) -> CollusionOption | None:
    """The option from the file's value (checked by the schema): ``true``, or ``{reference, games, alpha}``; off:
    ``None``."""
    if value is None or value is False:
        return None
    if value is True:
        return CollusionOption()
    return CollusionOption(value.get("reference", DEFAULT_REFERENCE), value.get("games"),
                           value.get("alpha", DEFAULT_ALPHA))
