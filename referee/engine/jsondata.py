"""The one raw JSON shape: an object as read off the wire or a file, before it is checked.

Everything past a reader's checks has a real shape (a ``TypedDict`` such as ``store.results.GameLineJson``, or a
dataclass such as ``GameResult``); ``JsonObject`` names only the data a reader has not looked at yet.
"""

from __future__ import annotations

from typing import Any, TypeAlias

JsonObject: TypeAlias = dict[str, Any]
"""A JSON object as decoded, unchecked (``json.loads`` of a line of games.jsonl, a record or a bot's answer)."""
