"""A game's seed from the run's seed and the game's place: a pure hash, so a schedule computes it without
importing anything that starts a process."""

from __future__ import annotations

import hashlib


def game_seed(base_seed: int, index: int, salt: str = "") -> int:
    """The seed of the ``index``-th game of a run: independent of order and concurrency."""
    digest = hashlib.sha256(f"lastcard:{base_seed}:{salt}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1
