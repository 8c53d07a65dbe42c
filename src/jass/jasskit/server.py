"""Our bots as a jass-kit player service (``jass serve``), on the standard library's HTTP server.

jass-kit's tournament, and its ``AgentByNetwork``, ask a player service over HTTP:

- ``POST /<name>/action_trump`` with a ``GameObservation`` JSON; the answer is
  ``{"trump": t}``, ``t`` 0-5 (diamonds, hearts, spades, clubs, Obenabe, Undenufe) or 10
  (push: shove);
- ``POST /<name>/action_play_card``; the answer is ``{"card": "H10"}`` (suit first);
- ``POST /<name>/game_info``, a notification; the answer is ``""``;
- ``GET /<name>``, the liveness check.

Every observation is read with :func:`jass.records.from_jasskit_observation`, so every card
in it is checked against the rules, and the bot answers from the :class:`~jass.PlayerView` it
gives: the answer is a legal action or an error, never an illegal action. Errors are JSON
``{"error": "..."}``: 415 for a body that is not JSON, 400 for a wrong version, an unknown
player, or an observation the rules refuse (naming the trick and the card), 404 for an
unknown route. Each request is logged in one line at info level on the ``jass.jasskit.server``
logger. Requests are served on threads, so several games can be played at once.

The service is meant to face clients it does not trust. Every answer is JSON, the errors of
the HTTP layer too (400 for a malformed request line or ``Content-Length``, 411, 413, 414,
431, 501, 503), and HTTP/0.9 requests are refused. ``Content-Length`` must be 1-9 ASCII
digits, given once; ``Transfer-Encoding`` is refused, so that no proxy in front can read a
request's end elsewhere than the service does. At most ``max_connections`` connections
(:data:`MAX_CONNECTIONS` by default) are served at once; a connection over the limit is
answered 503 and closed. Every request must be read and answered within
``request_timeout`` seconds (:data:`REQUEST_TIMEOUT`), counted from its first byte, or its
connection is closed; a kept-alive connection may stay silent for 30 s between requests.
Clients that hang up are logged at debug level, nothing goes to stderr.

>>> from jass.bots import RuleBot
>>> with PlayerServer({"rule": RuleBot}) as server:
...     server.url.startswith("http://127.0.0.1:")
True
"""

from __future__ import annotations

import contextlib
import hashlib
import http.server
import json
import logging
import math
import re
import socket
import sys
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

from jass._kitformat import from_jasskit_observation, kit_seat
from jass.bots import Bot, MonteCarloBot, RandomBot, RuleBot
from jass.errors import InvalidInputError, JassError, describe
from jass.hand import Phase
from jass.jasskit._protocol import (
    CARD,
    INFO,
    ROUTES,
    TRUMP,
    check_ruleset,
    route_for,
    write_answer,
)
from jass.rules import JASSKIT, RuleSet
from jass.view import PlayerView

__all__ = ["BOT_KINDS", "MAX_CONNECTIONS", "REQUEST_TIMEOUT", "PlayerServer", "make_bot"]

#: The kinds of bot that ``jass serve --bot NAME=KIND`` serves.
BOT_KINDS: Final = ("random", "rule", "montecarlo")

_log = logging.getLogger(__name__)
_NAME: Final = re.compile(r"[A-Za-z0-9_.~-]+")
_MAX_BODY: Final = 1 << 20  # bytes; an observation is about 2 KB
_JSON_TYPES: Final = ("application/json",)
_LENGTH: Final = re.compile(r"[0-9]{1,9}")  # ASCII only: str.isdigit() takes "²" and "١"
#: The connections served at once by default (``jass serve --max-connections``).
MAX_CONNECTIONS: Final = 64
#: Seconds a request may take by default, from its first byte to the end of its answer.
REQUEST_TIMEOUT: Final = 30.0


def make_bot(kind: str, seed: int | None = None, *, seconds: float = 1.0) -> Bot:
    """A bot of ``kind`` (one of :data:`BOT_KINDS`); a Monte Carlo bot thinks ``seconds``.

    >>> type(make_bot("montecarlo", 1, seconds=0.2)).__name__, make_bot("rule").seed
    ('MonteCarloBot', None)
    """
    if kind == "random":
        return RandomBot(seed)
    if kind == "rule":
        return RuleBot(seed)
    if kind == "montecarlo":
        return MonteCarloBot(seed, time_limit=seconds)
    raise InvalidInputError(f"unknown bot kind {kind!r}: choose one of {', '.join(BOT_KINDS)}")


class PlayerServer:
    """A jass-kit player service for ``bots``: a name for each bot, or each bot factory.

    A bot factory (a bot class, or any callable that takes a seed) makes a fresh bot for
    every request, seeded from ``seed``, the player's name and the observation, so that the
    same question always gets the same answer, and concurrent games share nothing. A bot
    object is shared by all requests for its name, one request at a time.

    Args:
        bots: the players, by name (letters, digits, ``_ . ~ -``).
        host: the address to listen on; ``127.0.0.1`` (the default) serves this machine
            only, ``0.0.0.0`` every network.
        port: the port; 0 lets the system choose one (see :attr:`url`).
        ruleset: the rules the observations are read and answered under (jass-kit's); its
            contracts must be jass-kit's (four trumps, Obenabe, Undenufe), with no shove back.
        seed: the seed that the bots' seeds are derived from.
        kit_undertrumps: accept the other players' undertrumps that jass-kit's referee
            allows and the rules do not (its open issue #10); see
            :func:`jass.records.from_jasskit_observation`. ``False`` refuses them with 400.
        max_connections: the most connections served at once; one more is answered 503.
        request_timeout: seconds within which a request must be read and answered, from its
            first byte; its connection is closed after that. Leave room for the bots'
            thinking time.

    Use it as a context manager (served on a background thread), or call
    :meth:`serve_forever`.

    >>> import json, urllib.request
    >>> with PlayerServer({"random": RandomBot}) as server:
    ...     with urllib.request.urlopen(server.url + "/random") as reply:
    ...         print(json.load(reply))
    Player random here
    """

    def __init__(
        self,
        bots: Mapping[str, Bot | Callable[[int], Bot]],
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        ruleset: RuleSet = JASSKIT,
        seed: int = 0,
        kit_undertrumps: bool = True,
        max_connections: int = MAX_CONNECTIONS,
        request_timeout: float = REQUEST_TIMEOUT,
    ) -> None:
        if not isinstance(bots, Mapping) or not bots:
            raise InvalidInputError(f"bots must map names to bots, got {bots!r}")
        self._players: dict[str, tuple[Callable[[int], Bot], threading.Lock | None]] = {}
        for name, bot in bots.items():
            if not isinstance(name, str) or not _NAME.fullmatch(name):
                raise InvalidInputError(
                    f"player name {name!r} must be letters, digits and _ . ~ - only"
                )
            if isinstance(bot, Bot) and not isinstance(bot, type):
                self._players[name] = (_always(bot), threading.Lock())
            elif callable(bot):
                self._players[name] = (bot, None)
            else:
                raise InvalidInputError(f"player {name!r}: {bot!r} is not a bot or a bot factory")
        if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
            raise InvalidInputError(f"port must be 0-65535, got {port!r}")
        check_ruleset(ruleset)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidInputError(f"seed must be an int, got {seed!r}")
        if (
            isinstance(max_connections, bool)
            or not isinstance(max_connections, int)
            or max_connections < 1
        ):
            raise InvalidInputError(
                f"max_connections must be a positive int, got {describe(max_connections)}"
            )
        if (
            isinstance(request_timeout, bool)
            or not isinstance(request_timeout, (int, float))
            or not 0 < request_timeout < math.inf
        ):
            raise InvalidInputError(
                f"request_timeout must be a positive number of seconds, got "
                f"{describe(request_timeout)}"
            )
        self.ruleset = ruleset
        self.seed = seed
        self.kit_undertrumps = bool(kit_undertrumps)
        self.max_connections = max_connections
        self.request_timeout = float(request_timeout)
        self._host = host
        server_class = _Server6 if ":" in host else _Server
        try:
            self._httpd = server_class((host, port), _Handler)
        except OSError as exc:
            raise InvalidInputError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
        self._httpd.player_server = self
        self._httpd.limit(max_connections, self.request_timeout)
        self._thread: threading.Thread | None = None
        self._state = threading.Lock()
        self._serving = self._stopping = False

    @property
    def url(self) -> str:
        """The service's address, without a player name: ``http://host:port``.

        >>> with PlayerServer({"rule": RuleBot}, port=0) as server:
        ...     server.url.rsplit(":", 1)[1].isdigit()
        True
        """
        port = self._httpd.server_address[1]
        host = f"[{self._host}]" if ":" in self._host else self._host
        return f"http://{host}:{port}"

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names, in the order given.

        >>> PlayerServer({"a": RuleBot, "b": RandomBot}).names
        ('a', 'b')
        """
        return tuple(self._players)

    def serve_forever(self) -> None:
        """Serve requests until :meth:`shutdown` is called (from another thread) or Ctrl-C.

        >>> server = PlayerServer({"rule": RuleBot})
        >>> threading.Timer(0.1, server.shutdown).start()
        >>> server.serve_forever()
        """
        with self._state:
            if self._stopping:
                return
            self._serving = True
        reaper = threading.Thread(target=self._httpd.reap, name="jass-player-reaper", daemon=True)
        reaper.start()
        try:
            self._httpd.serve_forever(poll_interval=0.05)
        finally:
            self._httpd.stop_reaping()
            reaper.join()
            self._httpd.server_close()

    def start(self) -> PlayerServer:
        """Serve on a background thread; returns the server.

        >>> server = PlayerServer({"rule": RuleBot}).start()
        >>> server.shutdown()
        """
        if self._thread is None:
            self._thread = threading.Thread(
                target=self.serve_forever, name="jass-player-server", daemon=True
            )
            self._thread.start()
        return self

    def shutdown(self) -> None:
        """Stop serving and close the socket; the server cannot be started again.

        >>> PlayerServer({"rule": RuleBot}).shutdown()
        """
        with self._state:
            self._stopping = True
            serving = self._serving
        if serving:
            self._httpd.shutdown()
        if self._thread is not None:
            self._thread.join()
        self._httpd.server_close()

    def __enter__(self) -> PlayerServer:
        """Start serving in the background.

        >>> with PlayerServer({"rule": RuleBot}) as server:
        ...     server.names
        ('rule',)
        """
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        """Stop serving.

        >>> with PlayerServer({"rule": RuleBot}):
        ...     pass
        """
        self.shutdown()

    def answer(self, method: str, path: str, body: bytes, content_type: str) -> tuple[int, Any]:
        """The status and the JSON answer to one request (what the HTTP handler sends).

        >>> server = PlayerServer({"rule": RuleBot})
        >>> server.answer("POST", "/rule/action_trump", b"{}", "text/plain")
        (415, {'error': 'the body must be JSON (Content-Type: application/json), got text/plain'})
        >>> server.answer("GET", "/nobody", b"", "")
        (404, 'No such player nobody')
        """
        parts = [part for part in path.split("?", 1)[0].split("/") if part]
        if method == "GET":
            if len(parts) == 1 and parts[0] in self._players:
                return 200, f"Player {parts[0]} here"
            if len(parts) == 1:
                return 404, f"No such player {_cut(parts[0])}"
            return 404, {"error": f"no route GET {_cut(path)}: try GET /<player>"}
        if method != "POST":
            return 405, {"error": f"method {_cut(method)} is not allowed"}
        if len(parts) != 2 or parts[1] not in ROUTES:
            return 404, {
                "error": f"no route POST {_cut(path)}: the routes are /<player>/"
                + ", /<player>/".join(ROUTES)
            }
        name, route = parts
        if name not in self._players:
            return 400, {
                "error": f"player {describe(name, typed=False)} not found; "
                f"this service has {self.names}"
            }
        mime = content_type.split(";", 1)[0].strip().lower()
        if mime not in _JSON_TYPES and not mime.endswith("+json"):
            return 415, {
                "error": "the body must be JSON (Content-Type: application/json), got "
                + (mime or "no Content-Type")
            }
        try:
            data = json.loads(body)
        except (ValueError, RecursionError) as exc:
            return 400, {"error": f"the body is not valid JSON: {exc}"}
        try:
            view = from_jasskit_observation(
                data, self.ruleset, kit_undertrumps=self.kit_undertrumps
            )
        except JassError as exc:
            return 400, {"error": f"the observation is refused: {exc}"}
        if route == INFO:
            return 200, ""
        asked = route_for(view)
        if asked != route:
            return 400, {"error": f"player {kit_seat(view.seat)} is not asked {_QUESTION[route]} "
                         f"now: {_turn(view)}"}  # fmt: skip
        make, lock = self._players[name]
        bot = make(_request_seed(self.seed, name, data))
        if lock is None:
            action = bot.choose_action(view)
        else:
            with lock:
                action = bot.choose_action(view)
        if not view.is_legal(action):  # a broken bot: say so rather than answer illegally
            return 500, {"error": f"player {name!r} chose {action!r}, which is not legal here"}
        return 200, write_answer(route, action)


def _cut(text: str) -> str:
    """A part of the request, for an answer: whole if short, else its start (paths are 64 KB)."""
    return text if len(text) <= 80 else text[:77] + "..."


def _always(bot: Bot) -> Callable[[int], Bot]:
    """A factory that gives the one shared bot."""

    def make(seed: int) -> Bot:  # noqa: ARG001  (a shared bot keeps its own seed)
        return bot

    return make


_QUESTION: Final = {TRUMP: "for the trump", CARD: "for a card"}


def _turn(view: PlayerView) -> str:
    """Whose turn it is, and to do what, in jass-kit's player numbers."""
    mover = view.to_move
    if mover is None:
        return "the hand is over"
    if mover != view.seat:
        return f"it is player {kit_seat(mover)}'s turn"
    return "it is its turn to " + ("choose the trump" if view.phase is Phase.CHOOSE else "play")


def _request_seed(seed: int, name: str, data: object) -> int:
    """A seed for one request: the same observation always gets the same answer."""
    if isinstance(data, dict):
        data = {key: value for key, value in data.items() if key != "gameId"}
    text = json.dumps([seed, name, data], sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


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

    def process_request(self, request: Any, client_address: Any) -> None:
        """Serve the connection on a thread of its own, or answer 503 when all are taken."""
        if not self._slots.acquire(blocking=False):
            _refuse(request, self.max_connections)
            _log.info("%s refused: %d connections open", client_address[0], self.max_connections)
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

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
