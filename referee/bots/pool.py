"""Bot processes kept alive between games, and the guarantee that they all end."""

from __future__ import annotations

from typing import Callable

from referee.bots.logs import stderr_log
from referee.bots.pipes.client import BotClient
from referee.bots.pipes.transport import Transport
from referee.bots.spec import BotSpec


class BotPool:
    """Keeps bot processes alive between games and makes sure they all end."""

    def __init__(self, stderr_dir: str | None = None,
                 transport_factory: Callable[[BotSpec], Transport] | None = None) -> None:
        self.stderr_dir = stderr_dir
        self.transport_factory = transport_factory
        self.clients: dict[BotSpec, BotClient] = {}

    def client(self, spec: BotSpec) -> BotClient:
        """The running (or ready to start) process for ``spec``: one per spec, kept between games."""
        client = self.clients.pop(spec, None)
        if client is None:
            path = stderr_log(self.stderr_dir, spec.name) if self.stderr_dir else None
            client = BotClient(spec, stderr_path=path, transport_factory=self.transport_factory)
        self.clients[spec] = client  # last in the dict: the most recently used (see ``evict_idle``)
        return client

    def evict_idle(self, keep: int) -> list[BotSpec]:
        """Quit every bot process but the ``keep`` most recently used; the specs of those quit."""
        evicted = list(self.clients)[:max(0, len(self.clients) - keep)]
        for spec in evicted:
            self.clients.pop(spec).quit()
        return evicted

    def kill_all(self) -> None:
        """Kill every bot process at once, without the ``quit`` handshake (shutting down in a hurry)."""
        clients, self.clients = list(self.clients.values()), {}
        for client in clients:
            client.kill()

    def close(self) -> None:
        """Say ``quit`` to every bot process and make sure each has ended."""
        clients, self.clients = list(self.clients.values()), {}
        for client in clients:
            client.quit()

    def __enter__(self) -> BotPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
