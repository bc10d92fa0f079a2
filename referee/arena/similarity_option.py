"""An arena file's ``similarity:`` key: after the games, the bots compared by what they do (``lastcard similar``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict


class SimilarityKey(TypedDict, total=False):
    """``similarity: {points, seed}`` as the schema let it through."""

    points: int
    seed: int
    references: bool


@dataclass(frozen=True)
class SimilarityOption:
    """How many decision points to ask (``None``: those of ``similar``'s default seats), drawn with ``seed``; whether
    the reference policies are asked too (the starter kits' default play, the built-ins)."""

    points: int | None = None
    seed: int = 1
    references: bool = True


def similarity_from(value: bool | SimilarityKey | None) -> SimilarityOption | None:
    """The option from the file's value (checked by the schema): ``true``, or ``{points, seed}``; off: ``None``."""
    if value is None or value is False:
        return None
    if value is True:
        return SimilarityOption()
    return SimilarityOption(value.get("points"), value.get("seed", 1), value.get("references", True))
