"""The live page's server: the standard library's ``ThreadingHTTPServer`` in a daemon thread, read-only.

Routes: ``/`` the page, ``/page.js`` its script, ``/state.json`` the snapshot, ``/events`` the same as
server-sent events (one per change, at most every ``EVENT_EVERY_S``), ``/favicon.ico``; when the run keeps
its games, ``/report.html`` (and its ``report_files/``, and the bots' pages ``bots/NAME.html``): the report's
replay viewer made on request from the games so far; and the now-playing view, ``/now.html`` with ``/now.js``
and ``/now.json`` (the followed game so far, with the viewer's tape of it). Nothing else is served; nothing a
request says changes the run.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import threading
import time
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any, Callable
from urllib.parse import unquote, urlsplit

from referee.errors import BAD_INPUT, LastcardError
from referee.live.address import LiveAddress, url
from referee.live.now import NowJson
from referee.live.state import LiveState
from referee.store.results_dir import ResultsDir

#: Events are sent at most this often (a burst of games is one event); an idle stream gets a comment this often.
EVENT_EVERY_S = 0.25
KEEPALIVE_S = 15.0

#: Makes the report's viewer for the games so far: the path of the page written (its shards beside it).
ReportMaker = Callable[[], str]


@dataclass(frozen=True)
class NowViews:
    """What the now-playing view takes from the report's package (which the live page does not import): the page,
    the report's viewer with no game of its own, and the viewer's tape of a game so far."""

    page: Callable[[], str]
    tape: Callable[[NowJson], str]


class LiveServerError(LastcardError):
    """The live page cannot listen where asked (the port is taken, the host is not this machine's)."""

    exit_code = BAD_INPUT


def _asset(name: str) -> bytes:
    return resources.files(__package__).joinpath(name).read_bytes()


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # the terminal is the run's
        pass

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        try:
            if path in ("/", "/index.html"):
                self._send(_asset("page.html"), "text/html; charset=utf-8", page=True)
            elif path == "/page.js":
                self._send(_asset("page.js"), "text/javascript; charset=utf-8")
            elif path == "/page.css":
                self._send(_asset("page.css"), "text/css; charset=utf-8")
            elif path == "/state.json":
                self._send(self.server.state_bytes(), "application/json")
            elif path == "/events":
                self._events()
            elif path == "/favicon.ico":
                self._send(_asset("favicon.ico"), "image/x-icon")
            elif path in ("/now.html", "/now.js", "/now.json"):
                self._now(path)
            elif path == "/report.html" or path.startswith("/report_files/") or path.startswith("/bots/"):
                self._report(unquote(path))
            else:
                self._send(b"not found: this server shows the live page at /\n", "text/plain; charset=utf-8",
                           status=HTTPStatus.NOT_FOUND)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_HEAD(self) -> None:
        self._send(b"", "text/plain", status=HTTPStatus.METHOD_NOT_ALLOWED)

    def _send(self, body: bytes, kind: str, status: HTTPStatus = HTTPStatus.OK, page: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if page:  # no inline script may run: bot text reaches the page only as data, drawn with textContent
            self.send_header("Content-Security-Policy", "default-src 'self'; script-src 'self'; "
                                                        "style-src 'self'; img-src 'self' data:")
        self.end_headers()
        self.wfile.write(body)

    def _events(self) -> None:
        state = self.server.state
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        state.watching(+1)
        try:
            seen = -1
            while not self.server.closing.is_set():
                version = state.wait(seen, KEEPALIVE_S)
                if version == seen:
                    self.wfile.write(b": still here\n\n")
                else:
                    seen = version
                    self.wfile.write(b"data: " + self.server.state_bytes() + b"\n\n")
                self.wfile.flush()
                self.server.sent(seen)
                time.sleep(EVENT_EVERY_S)
        finally:
            state.watching(-1)
            self.server.gone()

    def _now(self, path: str) -> None:
        views = self.server.now
        if views is None:
            self._send(b"no now-playing view here\n", "text/plain; charset=utf-8", status=HTTPStatus.NOT_FOUND)
        elif path == "/now.js":
            self._send(_asset("now.js"), "text/javascript; charset=utf-8")
        elif path == "/now.html":
            self._send(views.page().encode(), "text/html; charset=utf-8")
        else:
            self._send(self.server.now_bytes(), "application/json")

    def _report(self, path: str) -> None:
        made = self.server.report_path()
        if made is None:
            self._send(b"no replay viewer: this run does not keep its games (give --out)\n",
                       "text/plain; charset=utf-8", status=HTTPStatus.NOT_FOUND)
            return
        if isinstance(made, Exception):
            self._send(f"the replay viewer could not be made now: {made}\n".encode(), "text/plain; charset=utf-8",
                       status=HTTPStatus.SERVICE_UNAVAILABLE)
            return
        folder = os.path.dirname(made)
        name = os.path.basename(made) if path == "/report.html" else path.lstrip("/")
        body = ResultsDir(folder).read_inside(name)
        if body is None:
            self._send(b"not found\n", "text/plain; charset=utf-8", status=HTTPStatus.NOT_FOUND)
            return
        if not name.endswith((".html", ".js")):
            self._send(b"not found\n", "text/plain; charset=utf-8", status=HTTPStatus.NOT_FOUND)
            return
        kind = "text/html; charset=utf-8" if name.endswith(".html") else "text/javascript; charset=utf-8"
        self._send(body, kind)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], state: LiveState, report: ReportMaker | None,
                 now: NowViews | None = None) -> None:
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        super().__init__(address, _Handler)
        self.state = state
        self.report = report
        self.now = now
        self.closing = threading.Event()
        self._cache: tuple[int, bytes] = (-1, b"")
        self._cache_lock = threading.Lock()
        self._report_lock = threading.Lock()
        self._report_made: tuple[int, str | Exception] | None = None
        self._sent_lock = threading.Condition()
        self._sent: dict[int, int] = {}

    def state_bytes(self) -> bytes:
        """The snapshot as JSON, made once per version whatever the number of pages."""
        with self._cache_lock:
            version = self.state.version
            if self._cache[0] != version:
                snap = self.state.snapshot()
                self._cache = (snap["version"], json.dumps(snap, separators=(",", ":")).encode())
            return self._cache[1]

    def now_bytes(self) -> bytes:
        """``/now.json``: the followed game so far and the viewer's tape of it (``{"now": null}`` before one)."""
        game = self.state.now.snapshot()
        if game is None or self.now is None:
            return b'{"now":null}'
        try:
            tape = self.now.tape(game)
        except (ValueError, LastcardError) as exc:  # a game the engine cannot rebuild: say so, do not fail
            return json.dumps({"now": game, "tape": "", "problem": str(exc)}).encode()
        return json.dumps({"now": game, "tape": tape}, separators=(",", ":")).encode()

    def sent(self, version: int) -> None:
        """An event stream delivered ``version`` (``LiveServer.flush`` waits for the last one)."""
        with self._sent_lock:
            self._sent[threading.get_ident()] = version
            self._sent_lock.notify_all()

    def gone(self) -> None:
        with self._sent_lock:
            self._sent.pop(threading.get_ident(), None)
            self._sent_lock.notify_all()

    def report_path(self) -> str | Exception | None:
        """The replay viewer over the games so far, remade when games were added since (one at a time)."""
        if self.report is None or not self.state.replay:
            return None
        with self._report_lock:
            games = self.state.done
            if self._report_made is None or self._report_made[0] != games:
                try:
                    made: str | Exception = self.report()
                except (OSError, ValueError, LastcardError) as exc:  # a line being written, a missing file
                    made = exc
                self._report_made = (games, made)
            return self._report_made[1]


class LiveServer:
    """The live page served in a daemon thread while a run goes on; ``close`` stops it."""

    def __init__(self, address: LiveAddress, state: LiveState, report: ReportMaker | None = None,
                 now: NowViews | None = None) -> None:
        try:
            self._server = _Server((address.host, address.port), state, report, now)
        except OSError as exc:
            raise LiveServerError(_bind_problem(address, exc)) from None
        self.state = state
        host, port = self._server.server_address[:2]
        self.port = int(port)
        self.url = url(address.host if address.host else str(host), self.port)
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.2},
                                        name="lastcard-live", daemon=True)
        self._thread.start()

    def flush(self, timeout: float = 2.0) -> None:
        """Give the open pages up to ``timeout`` s to receive the latest state (the run ended: the process is
        about to exit, and a page keeps what it last received)."""
        end = time.monotonic() + timeout
        server = self._server
        with server._sent_lock:
            while any(v < self.state.version for v in server._sent.values()):
                left = end - time.monotonic()
                if left <= 0:
                    return
                server._sent_lock.wait(left)

    def close(self) -> None:
        self._server.closing.set()
        self.state.wake()
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> LiveServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _bind_problem(address: LiveAddress, exc: OSError) -> str:
    where = f"{address.host}:{address.port}"
    if exc.errno == errno.EADDRINUSE:
        return (f"--live {where}: port {address.port} is in use (another program, or another run's live page); "
                f"give another port, e.g. --live {address.port + 1}, or 0 for any free one")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return (f"--live {where}: not allowed to listen on port {address.port} (ports below 1024 need root); "
                "give a port from 1024 up, e.g. --live 8000")
    if exc.errno == errno.EADDRNOTAVAIL or isinstance(exc, socket.gaierror):
        return (f"--live {where}: {address.host!r} is not an address of this machine; give 127.0.0.1 (this "
                "machine only) or 0.0.0.0 (every network it is on)")
    return f"--live {where}: cannot listen there: {exc.strerror or exc}"
