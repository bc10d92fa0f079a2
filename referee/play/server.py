"""The table's page: the standard library's ``ThreadingHTTPServer`` in a daemon thread, as the live page's.

Routes: ``/`` the page, ``/play.js``, ``/play.css``, ``/favicon.ico``; ``/state.json`` the desk's state (with
``?since=V``, held until a version after V, at most ``POLL_S``); ``POST /move`` the person's move, ``POST /leave``
to leave; once the game is stored, ``/report.html`` (with its ``report_files/`` and ``bots/``) from its results
folder, for the replay. A move must carry the desk's token in ``X-Lastcard-Token`` (only the page can read it: a
site elsewhere cannot make moves here), and on this machine's own address the request's ``Host`` must be it (no
other name may be pointed here to read the state).
"""

from __future__ import annotations

import json
import socket
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from referee.errors import BAD_INPUT, LastcardError
from referee.live.address import LiveAddress, url
from referee.play.desk import Desk, MoveError
from referee.store.results_dir import ResultsDir

#: A long poll of ``/state.json`` is answered after at most this long, changed or not.
POLL_S = 10.0
#: The largest move a page sends (a few numbers): a longer body is refused unread.
MOVE_BYTES = 4096
#: Hosts that are this machine only: the ``Host`` header is checked against them.
LOOPBACK = ("127.0.0.1", "localhost", "::1")


class PlayServerError(LastcardError):
    """The table's page cannot listen where asked (the port is taken, the host is not this machine's)."""

    exit_code = BAD_INPUT


def _asset(name: str) -> bytes:
    return resources.files(__package__).joinpath(name).read_bytes()


class _TableHandler(BaseHTTPRequestHandler):
    server: _TableServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # the terminal is the game's
        pass

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        path = parts.path
        try:
            if not self._host_ok():
                return
            if path in ("/", "/index.html"):
                self._send(_asset("page.html"), "text/html; charset=utf-8", page=True)
            elif path in ("/play.js", "/play.css"):
                self._send(_asset(path[1:]), "text/javascript; charset=utf-8" if path.endswith(".js")
                           else "text/css; charset=utf-8")
            elif path == "/favicon.ico":
                self._send(resources.files("referee.live").joinpath("favicon.ico").read_bytes(), "image/x-icon")
            elif path == "/state.json":
                self._state(parse_qs(parts.query).get("since", ["-1"])[0])
            elif path == f"/{ResultsDir.REPORT}" or path.startswith(("/report_files/", f"/{ResultsDir.BOT_REPORTS}/")):
                self._report(unquote(path))
            else:
                self._text("not found: this server shows the table at /", HTTPStatus.NOT_FOUND)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_POST(self) -> None:
        path = urlsplit(self.path).path
        try:
            if not self._host_ok():
                return
            if self.headers.get("X-Lastcard-Token") != self.server.desk.token:
                self._text("a move comes from the table's own page (its token is missing or wrong): reload it",
                           HTTPStatus.FORBIDDEN)
                return
            if path == "/move":
                self._move()
            elif path == "/leave":
                self.server.desk.leave()
                self._json({"ok": True})
            else:
                self._text("not found: moves go to /move", HTTPStatus.NOT_FOUND)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _host_ok(self) -> bool:
        """On a loopback address, only a request made to it by that name (not a name someone pointed here)."""
        allowed = self.server.hosts
        host = (self.headers.get("Host") or "").strip().lower()
        if allowed and host not in allowed:
            self._text(f"this table answers only at {' or '.join(sorted(allowed))}", HTTPStatus.MISDIRECTED_REQUEST)
            return False
        return True

    def _state(self, since_text: str) -> None:
        try:
            since = int(since_text)
        except ValueError:
            self._text(f"since={since_text!r} is not a whole number: give the version the page has",
                       HTTPStatus.BAD_REQUEST)
            return
        _, body = self.server.desk.snapshot(since, POLL_S if since >= 0 else 0.0)
        self._send(body, "application/json")

    def _move(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if not 0 < length <= MOVE_BYTES:
            self._json({"error": f"a move is a short JSON object (at most {MOVE_BYTES} bytes); got {length} bytes"},
                       HTTPStatus.BAD_REQUEST)
            return
        try:
            move = json.loads(self.rfile.read(length))
        except ValueError as exc:
            self._json({"error": f"the move is not JSON: {exc}"}, HTTPStatus.BAD_REQUEST)
            return
        if not isinstance(move, dict):
            self._json({"error": "the move is a JSON object: {\"turn\": N, \"choice\": K, \"colour\": ..., "
                                 "\"call\": true}"}, HTTPStatus.BAD_REQUEST)
            return
        try:
            self.server.desk.answer(move.get("turn"), move.get("choice"), move.get("colour"), move.get("call", True))
        except MoveError as exc:
            self._json({"error": str(exc), "stale": exc.stale},
                       HTTPStatus.CONFLICT if exc.stale else HTTPStatus.BAD_REQUEST)
            return
        self._json({"ok": True})

    def _report(self, path: str) -> None:
        folder = self.server.results
        name = path.lstrip("/")
        body = ResultsDir(folder).read_inside(name) if folder is not None else None
        if body is None or not name.endswith((".html", ".js")):
            self._text("not found: the replay is here once the game is over and stored", HTTPStatus.NOT_FOUND)
            return
        self._send(body, "text/html; charset=utf-8" if name.endswith(".html") else "text/javascript; charset=utf-8")

    # ------------------------------------------------------------------ answers
    def _json(self, value: object, status: HTTPStatus = HTTPStatus.OK) -> None:
        self._send(json.dumps(value).encode(), "application/json", status)

    def _text(self, text: str, status: HTTPStatus) -> None:
        self._send((text + "\n").encode(), "text/plain; charset=utf-8", status)

    def _send(self, body: bytes, kind: str, status: HTTPStatus = HTTPStatus.OK, page: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if page:  # no inline script may run: names and sentences reach the page only as data, drawn as text
            self.send_header("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; "
                                                        "img-src 'self' data:")
        self.end_headers()
        self.wfile.write(body)


class _TableServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], desk: Desk) -> None:
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        super().__init__(address, _TableHandler)
        self.desk = desk
        self.results: str | None = None
        port = self.server_address[1]
        loopback = address[0] in LOOPBACK
        self.hosts = frozenset(f"{h}:{port}" for h in ("127.0.0.1", "localhost", "[::1]")) if loopback else frozenset()


class PlayServer:
    """The table's page served in a daemon thread while the person plays (and after, until ``close``)."""

    def __init__(self, address: LiveAddress, desk: Desk) -> None:
        try:
            self._server = _TableServer((address.host, address.port), desk)
        except OSError as exc:
            raise PlayServerError(_bind_problem(address, exc)) from None
        host, port = self._server.server_address[:2]
        self.port = int(port)
        self.url = url(address.host if address.host else str(host), self.port)
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.2},
                                        name="lastcard-play", daemon=True)
        self._thread.start()

    def serve_results(self, folder: str) -> None:
        """From now on, serve the stored game's report (``/report.html``) from ``folder``."""
        self._server.results = folder

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> PlayServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _bind_problem(address: LiveAddress, exc: OSError) -> str:
    """``--port``'s problem in words, with the fix (the live page's words, for this option)."""
    import errno

    where = f"{address.host}:{address.port}"
    if exc.errno == errno.EADDRINUSE:
        return (f"--port {address.port}: the port is in use on {address.host} (another program, or another table); "
                f"give another, e.g. --port {address.port + 1}, or --port 0 for any free one")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return (f"--port {address.port}: not allowed to listen there (ports below 1024 need root); give a port from "
                "1024 up, e.g. --port 8000")
    return f"cannot listen at {where}: {exc.strerror or exc}"
