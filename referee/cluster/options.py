"""Where an arena's games run when not on the local pool: a Dask scheduler's address and the TLS files to reach it.

Plain data, with no Dask import: the arena file's ``executor:`` section and ``lastcard arena --cluster`` both
become one of these, and only ``cluster.py`` acts on it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ClusterOptions:
    """Where the Dask scheduler is, the TLS files to reach it with, and whether workers build the bots."""

    address: str
    tls_ca_file: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None
    build_on_workers: bool = False

    def problems(self) -> list[str]:
        """Mistakes in the options themselves (each naming the value and the fix)."""
        out = []
        scheme = self.address.split("://", 1)[0] if "://" in self.address else ""
        if scheme not in ("tcp", "tls"):
            out.append(f"cluster address {self.address!r} must start with tcp:// or tls:// (e.g. tls://HOST:8786)")
        tls_files = {"--tls-ca-file": self.tls_ca_file, "--tls-cert": self.tls_cert, "--tls-key": self.tls_key}
        given = [k for k, v in tls_files.items() if v]
        if scheme == "tls" and len(given) != 3:
            missing = ", ".join(k for k, v in tls_files.items() if not v)
            out.append(f"a tls:// cluster needs --tls-ca-file, --tls-cert and --tls-key; missing {missing}")
        if scheme == "tcp" and given:
            out.append(f"{', '.join(given)} given for {self.address!r}: TLS files need a tls:// address")
        for flag, path in tls_files.items():
            if path and not os.path.isfile(path):
                out.append(f"{flag} {path!r}: no such file")
        return out

    def security(self) -> Any:
        """The ``distributed.security.Security`` for these TLS files (None for plain tcp)."""
        if not self.address.startswith("tls://"):
            return None
        from distributed.security import Security

        return Security(tls_ca_file=self.tls_ca_file, tls_client_cert=self.tls_cert, tls_client_key=self.tls_key,
                        require_encryption=True)
