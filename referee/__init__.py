"""lastcard: a referee and bot arena for Last Card."""

from __future__ import annotations

__version__ = "0.1.0"
PROTOCOL_VERSIONS = (1,)
