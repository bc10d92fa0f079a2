"""Bot processes kept alive between games, and the guarantee that they all end."""

from __future__ import annotations

from typing import Any

from .client import BotClient
from .spec import BotSpec


class BotPool:
    """Keeps bot processes alive between games and makes sure they all end."""

    def __init__(self, stderr_dir: str | None = None, transport_factory: Any = None) -> None:
        self.stderr_dir = stderr_dir
        self.transport_factory = transport_factory
        self.clients: dict[BotSpec, BotClient] = {}

    def seat(self, spec: BotSpec) -> Any:
        """A table seat for ``spec`` (a built-in player, or this pool's process for the bot)."""
        from ..table import BotSeat, BuiltinSeat  # the table module builds on this one

        if spec.builtin is not None:
            return BuiltinSeat(spec)
        return BotSeat(self.client(spec))

    def client(self, spec: BotSpec) -> BotClient:
        """The running (or ready to start) process for ``spec``: one per spec, kept between games."""
        client = self.clients.get(spec)
        if client is None:
            path = None
            if self.stderr_dir:
                safe = "".join(ch if ch.isalnum() or ch in "-_.#" else "_" for ch in spec.name)
                path = f"{self.stderr_dir}/{safe}.stderr.log"
            client = self.clients[spec] = BotClient(spec, stderr_path=path,
                                                  transport_factory=self.transport_factory)
        return client

    def close(self) -> None:
        for client in self.clients.values():
            client.quit()
        self.clients.clear()

    def __enter__(self) -> BotPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
