"""Helpers for the jass-kit player-service tests: HTTP by hand, answers read, a broken service.

The answers of a player service are read here on their own (not with ``jass.jasskit``), so
that the tests check the library against jass-kit's protocol as its documentation states it:
``{"trump": t}`` with ``t`` 0-5 for diamonds, hearts, spades, clubs, Obenabe and Undenufe or
10 to push (shove), and ``{"card": "H10"}`` with the suit first.
"""

from __future__ import annotations

import http.client
import http.server
import json
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from types import TracebackType
from typing import Any

from jass import Action, Card, Choose, Contract, Game, Phase, Seat, Shove, rules
from jass.engine.actions import Play

#: jass-kit's trump numbers 0-5, as our contracts.
KIT_TRUMPS = [
    Contract.parse(name)
    for name in ("diamonds", "hearts", "spades", "clubs", "obenabe", "undenufe")
]


def kit(card: Card | str) -> str:
    """``card`` in jass-kit's notation: ``10H`` is ``H10``."""
    text = str(Card.parse(card) if isinstance(card, str) else card)
    return text[-1] + text[:-1]


def decode(route: str, answer: Any) -> Action:
    """The action a service's answer on ``route`` stands for, read by the protocol's text."""
    if route == "action_trump":
        assert isinstance(answer, dict)
        assert set(answer) == {"trump"}
        trump = answer["trump"]
        assert type(trump) is int
        return Shove() if trump == 10 else Choose(KIT_TRUMPS[trump])
    assert route == "action_play_card"
    assert isinstance(answer, dict)
    assert set(answer) == {"card"}
    text = answer["card"]
    assert isinstance(text, str)
    return Play(Card.parse(text[1:] + text[0]))


def route_of(game: Game) -> str:
    """The route that asks the player to move."""
    return "action_trump" if game.phase is Phase.CHOOSE else "action_play_card"


# --- HTTP by hand ------------------------------------------------------------------------------


def post(url: str, data: Any, *, content_type: str = "application/json") -> tuple[int, Any]:
    """POST ``data`` (JSON-encoded unless bytes) to ``url``: the status and the decoded body."""
    body = data if isinstance(data, bytes) else json.dumps(data).encode()
    request = urllib.request.Request(  # noqa: S310  (a test server on localhost)
        url, data=body, headers={"Content-Type": content_type}, method="POST"
    )
    return _open(request)


def get(url: str) -> tuple[int, Any]:
    """GET ``url``: the status and the decoded body."""
    return _open(urllib.request.Request(url))  # noqa: S310


def _open(request: urllib.request.Request) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def raw(
    url: str, method: str, path: str, headers: dict[str, str], body: bytes = b""
) -> tuple[int, str, bytes]:
    """One request with exactly ``headers`` (no Content-Length unless given): the status, the
    Content-Type and the body."""
    parts = urllib.parse.urlsplit(url)
    assert parts.hostname is not None
    assert parts.port is not None
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        connection.putrequest(method, path, skip_accept_encoding=True)
        for name, value in headers.items():
            connection.putheader(name, value)
        connection.endheaders(body or None)
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type", ""), response.read()
    finally:
        connection.close()


def closed_port_url() -> str:
    """An address on this machine where nothing listens (a port just freed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/nobody"


# --- a broken player service -------------------------------------------------------------------


class BrokenService:
    """A player service that answers every POST the same way: a fixed status and body, after a
    delay (and with ``drip``, its body a byte at a time, ``drip`` seconds apart); or, with
    ``garbage``, bytes that are not HTTP at all. Use it as a context manager.

    Attributes:
        url: its address, with the player name ``broken``.
        bodies: the JSON bodies it received, in order.
    """

    def __init__(
        self,
        body: bytes = b'{"card": "H10"}',
        *,
        status: int = 200,
        delay: float = 0.0,
        garbage: bytes | None = None,
        drip: float = 0.0,
    ) -> None:
        self.bodies: list[Any] = []
        service = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                service.bodies.append(json.loads(self.rfile.read(length)))
                time.sleep(delay)
                self.close_connection = True
                if garbage is not None:
                    self.wfile.write(garbage)
                    return
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if not drip:
                    self.wfile.write(body)
                    return
                self.wfile.flush()
                for byte in body:  # one byte every ``drip`` seconds, until the client hangs up
                    time.sleep(drip)
                    try:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                    except OSError:
                        return

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                """Quiet."""

        class Server(http.server.ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                """Quiet: a client that gave up waiting closed its end."""

        self._server = Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/broken"
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def __enter__(self) -> BrokenService:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._server.shutdown()
        self._server.server_close()


# --- positions ---------------------------------------------------------------------------------

#: Seat 1 holds spades and hearts; seat 0 leads the ace of spades, so seat 1 must follow
#: spades (and its 10 of hearts is illegal).
FOLLOW_SUIT_HANDS = [
    "AS KS QS JS 10S AH KH QH JH",
    "9S 8S 7S 6S 10H 9H 8H 7H 6H",
    "AD KD QD JD 10D 9D 8D 7D 6D",
    "AC KC QC JC 10C 9C 8C 7C 6C",
]


def follow_suit_game() -> Game:
    """Obenabe, seat 0 (jass-kit's player 0) led the ace of spades; seat 1 (player 3) to move."""
    game = Game.new(rules.JASSKIT, seed=0, dealer=Seat(3)).deal(hands=FOLLOW_SUIT_HANDS)
    game = game.choose(Contract.OBENABE).play("AS")
    assert game.to_move == Seat(1)
    return game


__all__ = [
    "FOLLOW_SUIT_HANDS",
    "KIT_TRUMPS",
    "BrokenService",
    "closed_port_url",
    "decode",
    "follow_suit_game",
    "get",
    "kit",
    "post",
    "raw",
    "route_of",
]
