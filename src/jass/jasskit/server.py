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

import hashlib
import json
import logging
import math
import re
import threading
from collections.abc import Callable, Mapping
from typing import Any, Final

from jass._budgets import is_int
from jass._kitformat import from_jasskit_observation, kit_seat
from jass.bots import Bot, MonteCarloBot, RandomBot, RuleBot, SearchBot
from jass.engine.hand import Phase
from jass.engine.view import PlayerView
from jass.errors import InvalidInputError, JassError, describe
from jass.jasskit._http import MAX_CONNECTIONS, REQUEST_TIMEOUT, _Handler, _Server, _Server6
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

__all__ = ["BOT_KINDS", "MAX_CONNECTIONS", "REQUEST_TIMEOUT", "PlayerServer", "make_bot"]

#: The kinds of bot that ``jass serve --bot NAME=KIND`` serves.
BOT_KINDS: Final = ("random", "rule", "montecarlo", "search")

_log = logging.getLogger(__name__)
_NAME: Final = re.compile(r"[A-Za-z0-9_.~-]+")
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
        if not is_int(port) or not 0 <= port <= 65535:
            raise InvalidInputError(f"port must be 0-65535, got {port!r}")
        check_ruleset(ruleset)
        if not is_int(seed):
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
