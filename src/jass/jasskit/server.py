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

>>> from jass.bots import RuleBot
>>> with PlayerServer({"rule": RuleBot}) as server:
...     server.url.startswith("http://127.0.0.1:")
True
"""

from __future__ import annotations

import hashlib
import http.server
import json
import logging
import re
import socket
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

from jass._kitformat import from_jasskit_observation, kit_seat
from jass.bots import Bot, MonteCarloBot, RandomBot, RuleBot, SearchBot
from jass.engine.hand import Phase
from jass.engine.view import PlayerView
from jass.errors import InvalidInputError, JassError
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

__all__ = ["BOT_KINDS", "PlayerServer", "make_bot"]

#: The kinds of bot that ``jass serve --bot NAME=KIND`` serves.
BOT_KINDS: Final = ("random", "rule", "montecarlo", "search")

_log = logging.getLogger(__name__)
_NAME: Final = re.compile(r"[A-Za-z0-9_.~-]+")
_MAX_BODY: Final = 1 << 20  # bytes; an observation is about 2 KB
_JSON_TYPES: Final = ("application/json",)


def make_bot(kind: str, seed: int | None = None, *, seconds: float = 1.0) -> Bot:
    """A bot of ``kind`` (one of :data:`BOT_KINDS`); a search bot thinks at most ``seconds``.

    >>> type(make_bot("montecarlo", 1, seconds=0.2)).__name__, make_bot("rule").seed
    ('MonteCarloBot', None)
    """
    if kind == "random":
        return RandomBot(seed)
    if kind == "rule":
        return RuleBot(seed)
    if kind == "montecarlo":
        return MonteCarloBot(seed, time_limit=seconds)
    if kind == "search":  # its default worlds per card, never more than ``seconds``
        return SearchBot(seed, time_limit=seconds)
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
        self.ruleset = ruleset
        self.seed = seed
        self.kit_undertrumps = bool(kit_undertrumps)
        self._host = host
        server_class = _Server6 if ":" in host else _Server
        try:
            self._httpd = server_class((host, port), _Handler)
        except OSError as exc:
            raise InvalidInputError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
        self._httpd.player_server = self
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
        try:
            self._httpd.serve_forever(poll_interval=0.05)
        finally:
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
                return 404, f"No such player {parts[0]}"
            return 404, {"error": f"no route GET {path}: try GET /<player>"}
        if method != "POST":
            return 405, {"error": f"method {method} is not allowed"}
        if len(parts) != 2 or parts[1] not in ROUTES:
            return 404, {
                "error": f"no route POST {path}: the routes are /<player>/"
                + ", /<player>/".join(ROUTES)
            }
        name, route = parts
        if name not in self._players:
            return 400, {"error": f"player {name!r} not found; this service has {self.names}"}
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
    daemon_threads = True
    request_queue_size = 64
    player_server: PlayerServer


class _Server6(_Server):
    address_family = socket.AF_INET6


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 30  # seconds a connection may stay silent
    # Headers and body leave in one write: with two small writes, Nagle's algorithm and the
    # client's delayed ACK cost ~40 ms per request on a kept-alive connection.
    wbufsize = 1 << 16
    disable_nagle_algorithm = True
    server: _Server
    _started = 0.0

    def parse_request(self) -> bool:
        """Start each request's clock as its request line is read."""
        self._started = time.perf_counter()
        return super().parse_request()

    def do_GET(self) -> None:
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
        """The request's body; ``None`` once a 411 or 413 was sent (and the connection closes)."""
        length = self.headers.get("Content-Length")
        if length is None and self.command != "POST":
            return b""
        if length is None or not length.isdigit():
            self.close_connection = True  # a body, if any, cannot be skipped
            self._send(411, {"error": f"a {self.command} needs a Content-Length"})
            return None
        if int(length) > _MAX_BODY:
            self.close_connection = True
            self._send(413, {"error": f"the body is over {_MAX_BODY} bytes"})
            return None
        return self.rfile.read(int(length))

    def _respond(self, body: bytes) -> None:
        try:
            status, payload = self.server.player_server.answer(
                self.command, self.path, body, self.headers.get("Content-Type", "")
            )
        except Exception as exc:  # noqa: BLE001  (a request must never stop the server)
            _log.exception("error answering %s %s", self.command, self.path)
            status, payload = 500, {"error": f"internal error: {type(exc).__name__}: {exc}"}
        self._send(status, payload)

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
            self.path,
            status,
            milliseconds,
            what,
        )

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """Nothing: :meth:`_send` logs each request in one line, with its time and answer."""

    def log_error(self, format: str, *args: Any) -> None:  # noqa: A002  (http.server's name)
        """Requests that http.server refuses itself (a malformed request line, say)."""
        _log.warning("%s " + format, self.client_address[0], *args)
