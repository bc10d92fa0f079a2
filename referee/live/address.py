"""``--live [HOST:]PORT``: where the live page listens, read once at the boundary."""

from __future__ import annotations

import socket
from dataclasses import dataclass

from referee.errors import OptionError

#: The host when only a port is given: this machine only (a projector elsewhere needs ``0.0.0.0:PORT``).
DEFAULT_HOST = "127.0.0.1"
#: Hosts that listen on every interface: the address to open is then this machine's own.
EVERY_INTERFACE = ("0.0.0.0", "::", "")


class LiveAddressError(OptionError):
    """A ``--live`` value that is not ``[HOST:]PORT``."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "live")


@dataclass(frozen=True)
class LiveAddress:
    """A host and port to listen on (port 0: any free port)."""

    host: str
    port: int

    @classmethod
    def parse(cls, text: str) -> LiveAddress:
        """``8000``, ``0.0.0.0:8000``, ``localhost:8000`` or ``[::]:8000``."""
        value = text.strip()
        host, sep, port_text = value.rpartition(":")
        if not sep:
            host = DEFAULT_HOST
        if host.startswith("[") and host.endswith("]"):
            host = host[1:-1]
        if sep and not host:
            raise LiveAddressError(f"{text!r} has no host before the colon: give PORT (e.g. 8000) or HOST:PORT "
                                   "(e.g. 0.0.0.0:8000)")
        try:
            port = int(port_text, 10)
        except ValueError:
            raise LiveAddressError(f"{text!r} is not [HOST:]PORT: the port {port_text!r} is not a whole number; "
                                   "give e.g. 8000 or 0.0.0.0:8000") from None
        if not 0 <= port <= 65535:
            raise LiveAddressError(f"port {port} in {text!r} is out of range: give 1 to 65535 (0: any free port)")
        return cls(host, port)

    @property
    def everywhere(self) -> bool:
        """True when listening on every interface (other machines can open the page)."""
        return self.host in EVERY_INTERFACE


def url(host: str, port: int) -> str:
    """The address a browser opens for a server bound to ``host``: this machine's own address when bound to
    every interface (a projector's browser cannot open 0.0.0.0)."""
    if host in EVERY_INTERFACE:
        host = own_address()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def own_address() -> str:
    """This machine's address on its network (the route out, found without sending anything), else its name."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # a documentation address: connect() on UDP only picks the route
        address: str = probe.getsockname()[0]
        return address
    except OSError:
        return socket.gethostname()
    finally:
        probe.close()
