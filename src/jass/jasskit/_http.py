"""The HTTP layer of :class:`~jass.jasskit.PlayerServer`, hardened against hostile clients.

The standard library's threaded HTTP server, with: a cap on the connections served at once (one
more is answered 503 at once, on the listening thread); a deadline on every request, from its
first byte to the end of its answer, kept by one reaper thread that shuts the sockets of late
requests; ``Content-Length`` read strictly (1-9 ASCII digits, given once; no
``Transfer-Encoding``); every refusal of ``http.server`` itself sent as a JSON error with a
status line (HTTP/0.9 refused); and clients that hang up logged at debug level, not printed.

>>> MAX_CONNECTIONS, REQUEST_TIMEOUT
(64, 30.0)
"""

from __future__ import annotations

import contextlib
import http.server
import json
import logging
import re
import socket
import sys
import threading
import time
from typing import TYPE_CHECKING, Any, Final

from jass.errors import describe

if TYPE_CHECKING:
    from jass.jasskit.server import PlayerServer

__all__ = ["MAX_CONNECTIONS", "REQUEST_TIMEOUT"]

#: The connections served at once by default (``jass serve --max-connections``).
MAX_CONNECTIONS: Final = 64
#: Seconds a request may take by default, from its first byte to the end of its answer.
REQUEST_TIMEOUT: Final = 30.0

_log = logging.getLogger("jass.jasskit.server")  # one logger for the whole service
_MAX_BODY: Final = 1 << 20  # bytes; an observation is about 2 KB
_LENGTH: Final = re.compile(r"[0-9]{1,9}")  # ASCII only: str.isdigit() takes "²" and "١"


class _Server(http.server.ThreadingHTTPServer):
    """Threads, at most ``max_connections`` of them, and a deadline on every request."""

    daemon_threads = True
    request_queue_size = 64
    player_server: PlayerServer

    def limit(self, max_connections: int, request_timeout: float) -> None:
        """Set the connection cap and the request deadline (before serving)."""
        self._slots = threading.BoundedSemaphore(max_connections)
        self.max_connections = max_connections
        self.request_timeout = request_timeout
        self._deadlines: dict[socket.socket, tuple[float, Any]] = {}
        self._watching = threading.Lock()
        self._stop = threading.Event()
        # The connections that hold a slot: each gives it back once, from whichever path ends
        # it first (its thread, or a start interrupted by Ctrl-C).
        self._holding: set[int] = set()
        self._holding_lock = threading.Lock()

    def _release(self, request: Any) -> None:
        with self._holding_lock:
            if id(request) not in self._holding:
                return
            self._holding.discard(id(request))
        self._slots.release()

    def process_request(self, request: Any, client_address: Any) -> None:
        """Serve the connection on a thread of its own, or answer 503 when all are taken."""
        if not self._slots.acquire(blocking=False):
            _refuse(request, self.max_connections)
            _log.info("%s refused: %d connections open", client_address[0], self.max_connections)
            self.shutdown_request(request)
            return
        with self._holding_lock:
            self._holding.add(id(request))
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._release(request)
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._release(request)

    def watch(self, connection: socket.socket, address: Any) -> None:
        """Start the deadline of a request on ``connection``."""
        deadline = time.monotonic() + self.request_timeout
        with self._watching:
            self._deadlines[connection] = (deadline, address)

    def unwatch(self, connection: socket.socket) -> None:
        with self._watching:
            self._deadlines.pop(connection, None)

    def reap(self) -> None:
        """Close the connections whose request is past its deadline, until stopped."""
        interval = min(0.25, self.request_timeout / 4)
        while not self._stop.wait(interval):
            now = time.monotonic()
            with self._watching:
                late = [(c, a) for c, (d, a) in self._deadlines.items() if d <= now]
                for connection, _ in late:
                    del self._deadlines[connection]
            for connection, address in late:
                _log.info(
                    "%s closed: the request took more than %g s", address[0], self.request_timeout
                )
                # The handler's blocked read or write then fails, and its thread ends.
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_RDWR)

    def stop_reaping(self) -> None:
        self._stop.set()

    def handle_error(self, request: Any, client_address: Any) -> None:  # noqa: ARG002
        """A client that hung up or timed out is routine: debug level, not a traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            _log.debug("%s went away: %s", client_address[0], error)
        elif isinstance(error, OSError) and error.errno is not None:
            _log.debug("%s: %s", client_address[0], error)  # e.g. a socket shut at its deadline
        else:
            _log.error("error serving %s", client_address[0], exc_info=error)


class _Server6(_Server):
    address_family = socket.AF_INET6


def _refuse(request: socket.socket, limit: int) -> None:
    """Answer 503 on the listening thread without blocking it: one small write, or none."""
    body = json.dumps({"error": f"the service serves {limit} connections at once; try again"})
    head = (
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n"
    )
    with contextlib.suppress(OSError):
        request.settimeout(0.0)
        request.send((head + body).encode())


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # An error in the request line is answered with a status line and headers, not as HTTP/0.9.
    default_request_version = "HTTP/1.0"
    timeout = 30  # seconds a kept-alive connection may stay silent between requests
    # Headers and body leave in one write: with two small writes, Nagle's algorithm and the
    # client's delayed ACK cost ~40 ms per request on a kept-alive connection.
    wbufsize = 1 << 16
    disable_nagle_algorithm = True
    server: _Server
    _started = 0.0

    def handle_one_request(self) -> None:
        """Wait for a request's first byte, then give it ``request_timeout`` to be answered."""
        try:
            waiting = self.rfile.peek(1)  # type: ignore[attr-defined]
        except TimeoutError:
            waiting = b""  # silent for ``timeout`` seconds: hang up
        if not waiting:
            self.close_connection = True
            return
        self._started = time.perf_counter()
        self.server.watch(self.connection, self.client_address)
        try:
            super().handle_one_request()
        finally:
            self.server.unwatch(self.connection)

    def parse_request(self) -> bool:
        """Refuse HTTP/0.9, whose answers have no status line and so no JSON error."""
        words = str(self.raw_requestline, "iso-8859-1").split()  # type: ignore[attr-defined]
        if len(words) == 2:  # "GET /path": HTTP/0.9 has no status line, so no JSON error
            self.command, self.path = "", words[1]
            self.request_version = self.default_request_version
            self.send_error(400, "HTTP/0.9 requests are not served: send HTTP/1.0 or HTTP/1.1")
            return False
        return super().parse_request()

    def do_GET(self) -> None:
        if self._body() is not None:  # a body sent with a GET is read and dropped
            self._respond(b"")

    def do_POST(self) -> None:
        body = self._body()
        if body is not None:
            self._respond(body)

    def do_PUT(self) -> None:  # any other method: 405, with its body read and dropped
        if self._body() is not None:
            self._respond(b"")

    do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = do_TRACE = do_PUT  # noqa: N815

    def _body(self) -> bytes | None:
        """The request's body; ``None`` once an error was sent (and the connection closes)."""
        lengths = self.headers.get_all("Content-Length") or []
        error: tuple[int, str] | None = None
        if "Transfer-Encoding" in self.headers:
            error = 411, "Transfer-Encoding is not served: send the body with a Content-Length"
        elif len(lengths) > 1:
            error = 400, f"Content-Length is given {len(lengths)} times: give it once"
        elif not lengths:
            if self.command != "POST":
                return b""
            error = 411, f"a {self.command} needs a Content-Length"
        elif not _LENGTH.fullmatch(lengths[0].strip()):
            error = (
                400,
                (f"Content-Length must be 1-9 digits 0-9, got {describe(lengths[0], typed=False)}"),
            )
        elif int(lengths[0]) > _MAX_BODY:
            error = 413, f"the body is over {_MAX_BODY} bytes"
        if error is not None:
            self.close_connection = True  # a body, if any, cannot be skipped
            self._send(error[0], {"error": error[1]})
            return None
        return self.rfile.read(int(lengths[0]))

    def _respond(self, body: bytes) -> None:
        try:
            status, payload = self.server.player_server.answer(
                self.command, self.path, body, self.headers.get("Content-Type", "")
            )
        except Exception as exc:  # noqa: BLE001  (a request must never stop the server)
            _log.exception("error answering %s %s", self.command, self.path)
            status, payload = 500, {"error": f"internal error: {type(exc).__name__}: {exc}"}
        self._send(status, payload)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """http.server's own refusals (bad syntax, 414, 431, 501, ...), as JSON errors."""
        del explain  # its HTML page's text: the JSON error says it in one line
        self.close_connection = True
        text = message or self.responses.get(code, ("error",))[0]
        self._send(code, {"error": text if len(text) <= 200 else text[:197] + "..."})

    def _send(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
        milliseconds = (time.perf_counter() - self._started) * 1000
        what = payload if status < 400 or not isinstance(payload, dict) else payload["error"]
        _log.info(
            '%s "%s %s" %d %.1f ms %s',
            self.client_address[0],
            self.command,
            getattr(self, "path", ""),
            status,
            milliseconds,
            what,
        )

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """Nothing: :meth:`_send` logs each request in one line, with its time and answer."""

    def log_error(self, format: str, *args: Any) -> None:  # noqa: A002  (http.server's name)
        """What http.server reports itself (a read that timed out): debug level."""
        _log.debug("%s " + format, self.client_address[0], *args)
