"""The player service against hostile clients, over real sockets on 127.0.0.1.

Bad lengths, repeated headers, raw garbage, HTTP/0.9, slow headers and connection floods:
every answer must be JSON with a status line, nothing may reach stderr, and the service must
go on answering. Each test is bounded: a few requests, at most a few seconds.
"""

from __future__ import annotations

import contextlib
import json
import logging
import random
import socket
import struct
import threading
import time
from collections.abc import Iterator

import pytest

from jass.bots import RuleBot
from jass.jasskit import PlayerServer
from tests.kit_helpers import get

TIMEOUT = 1.0  # the request deadline of the servers here


@pytest.fixture
def server() -> Iterator[PlayerServer]:
    with PlayerServer({"rule": RuleBot}, max_connections=4, request_timeout=TIMEOUT) as running:
        yield running


def port_of(server: PlayerServer) -> int:
    return int(server.url.rsplit(":", 1)[1])


def exchange(server: PlayerServer, data: bytes, *, wait: float = 5.0) -> bytes:
    """Send ``data``, end the sending side, and return all the service sent until it closed."""
    with socket.create_connection(("127.0.0.1", port_of(server)), timeout=wait) as sock:
        try:
            sock.sendall(data)
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the service answered and closed first (a 503, say): read what it sent
        return read_all(sock)


def read_all(sock: socket.socket) -> bytes:
    received = b""
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except ConnectionResetError:
        pass  # closed with data unread on its side: what came before the reset stands
    return received


def json_answer(reply: bytes) -> tuple[int, str]:
    """The status and the JSON error of one HTTP answer, checking that it is JSON."""
    head, _, body = reply.partition(b"\r\n\r\n")
    lines = head.decode("iso-8859-1").split("\r\n")
    assert lines[0].startswith("HTTP/1.1 "), reply[:200]
    status = int(lines[0].split()[1])
    headers = dict(line.split(": ", 1) for line in lines[1:])
    assert headers["Content-Type"] == "application/json", reply[:300]
    assert int(headers["Content-Length"]) == len(body), reply[:300]
    decoded = json.loads(body)
    assert isinstance(decoded, dict)
    assert set(decoded) == {"error"}
    return status, decoded["error"]


def post_head(length_lines: bytes, body: bytes = b"{}") -> bytes:
    return (
        b"POST /rule/action_trump HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        + length_lines
        + b"\r\n"
        + body
    )


def assert_serving(server: PlayerServer) -> None:
    assert get(server.url + "/rule")[0] == 200


# --- Content-Length ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [b"\xb2", b"\xd9\xa1", b"1" * 5000, b"-1", b"+2", b"2 2", b"0x10", b"1234567890", b""],
    ids=[
        "superscript-two",
        "arabic-one",
        "5000-digits",
        "minus",
        "plus",
        "two-numbers",
        "hex",
        "ten-digits",
        "empty",
    ],
)
def test_a_content_length_that_is_not_1_to_9_ascii_digits_is_a_json_400(
    server: PlayerServer, value: bytes, capfd: pytest.CaptureFixture[str]
) -> None:
    reply = exchange(server, post_head(b"Content-Length: " + value + b"\r\n"))
    status, error = json_answer(reply)
    assert status == 400
    assert "Content-Length must be 1-9 digits" in error
    assert len(error) < 200
    assert_serving(server)
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.parametrize("second", [b"2", b"5"])
def test_a_repeated_content_length_is_refused(server: PlayerServer, second: bytes) -> None:
    # Behind a proxy that reads the other one, the body would end elsewhere: smuggling.
    reply = exchange(server, post_head(b"Content-Length: 2\r\nContent-Length: " + second + b"\r\n"))
    status, error = json_answer(reply)
    assert status == 400
    assert "given 2 times" in error
    assert b"trump" not in reply  # the request was not answered
    assert_serving(server)


def test_transfer_encoding_is_refused_even_with_a_content_length(server: PlayerServer) -> None:
    reply = exchange(
        server, post_head(b"Content-Length: 2\r\nTransfer-Encoding: chunked\r\n", b"0\r\n\r\n")
    )
    status, error = json_answer(reply)
    assert status == 411
    assert "Transfer-Encoding" in error


def test_a_body_sent_with_a_get_is_not_read_as_the_next_request(server: PlayerServer) -> None:
    smuggled = b"GET /nobody HTTP/1.1\r\nHost: x\r\n\r\n"
    request = (
        b"GET /rule HTTP/1.1\r\nHost: x\r\nContent-Length: " + str(len(smuggled)).encode()
        + b"\r\n\r\n" + smuggled
    )  # fmt: skip
    reply = exchange(server, request)
    assert reply.count(b"HTTP/1.1 ") == 1
    assert b"Player rule here" in reply


# --- http.server's own refusals, HTTP/0.9 and garbage ------------------------------------------


@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        (b"GET /rule\r\n", 400),  # HTTP/0.9
        (b"POST /rule\r\n", 400),
        (b"GET / HTTP/1.1 extra\r\n\r\n", 400),
        (b"GET / HTTP/9.9\r\n\r\n", 505),
        (b"GET / HTTP/x.y\r\n\r\n", 400),
        (b"BREW /rule HTTP/1.1\r\nHost: x\r\n\r\n", 501),
        (b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n", 414),
        (b"GET /rule HTTP/1.1\r\nX: " + b"a" * 70000 + b"\r\n\r\n", 431),
        (b"GET /rule HTTP/1.1\r\n" + b"X: y\r\n" * 120 + b"\r\n", 431),
        (b"\x00\xff\xfe garbage\r\n\r\n", 400),
    ],
    ids=[
        "http-0.9",
        "http-0.9-post",
        "four-words",
        "version-9.9",
        "bad-version",
        "unknown-method",
        "long-line",
        "long-header",
        "many-headers",
        "binary",
    ],
)
def test_every_refusal_is_a_json_error_with_a_status_line(
    server: PlayerServer, request_bytes: bytes, status: int, capfd: pytest.CaptureFixture[str]
) -> None:
    reply = exchange(server, request_bytes)
    assert json_answer(reply)[0] == status
    assert b"<html" not in reply.lower()
    assert_serving(server)
    assert "Traceback" not in capfd.readouterr().err


def test_random_garbage_gets_json_or_nothing_and_the_service_lives_on(
    server: PlayerServer, capfd: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(23)
    for _ in range(40):
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
        reply = exchange(server, junk + rng.choice([b"\r\n", b"\r\n\r\n", b""]))
        if reply:  # a request line that never ended gets no answer: it is not one yet
            assert json_answer(reply)[0] >= 400
    assert_serving(server)
    assert "Traceback" not in capfd.readouterr().err


# --- slow clients, resets and floods -----------------------------------------------------------


def test_a_client_that_drips_its_headers_is_closed_at_the_request_deadline(
    server: PlayerServer,
) -> None:
    with socket.create_connection(("127.0.0.1", port_of(server)), timeout=5) as sock:
        started = time.monotonic()
        sock.sendall(b"GET /rule HTTP/1.1\r\n")
        closed_after = None
        for _ in range(40):  # one header byte every 0.1 s: each read alone is quick
            try:
                sock.sendall(b"X")
            except OSError:
                closed_after = time.monotonic() - started
                break
            time.sleep(0.1)
        if closed_after is None:
            sock.settimeout(2)
            with contextlib.suppress(OSError):
                assert read_all(sock) == b""
            closed_after = time.monotonic() - started
    assert TIMEOUT <= closed_after < TIMEOUT + 1.5
    assert_serving(server)


def test_a_reset_connection_is_logged_at_debug_not_printed(
    server: PlayerServer, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="jass.jasskit.server")
    for _ in range(5):
        sock = socket.create_connection(("127.0.0.1", port_of(server)), timeout=5)
        sock.sendall(b"POST /rule/action_trump HTTP/1.1\r\nContent-Length: 100\r\n\r\n{")
        time.sleep(0.05)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()  # with linger 0: a reset, not a goodbye
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and not any(
        "went away" in r.getMessage() for r in caplog.records
    ):
        time.sleep(0.05)
    assert any(r.levelno == logging.DEBUG and "went away" in r.getMessage() for r in caplog.records)
    assert "Traceback" not in capfd.readouterr().err
    assert_serving(server)


def test_connections_over_the_limit_get_a_503_and_the_others_go_on(server: PlayerServer) -> None:
    held = [socket.create_connection(("127.0.0.1", port_of(server)), timeout=5) for _ in range(4)]
    try:
        time.sleep(0.2)
        status, error = json_answer(exchange(server, b"GET /rule HTTP/1.1\r\n\r\n"))
        assert status == 503
        assert "4 connections" in error
        # A held connection is still served.
        held[0].sendall(b"GET /rule HTTP/1.1\r\nHost: x\r\n\r\n")
        assert b"Player rule here" in held[0].recv(4096)
    finally:
        for sock in held:
            sock.close()
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        try:
            assert_serving(server)
            break
        except AssertionError:
            time.sleep(0.05)
    assert_serving(server)


def test_a_flood_of_slow_connections_holds_a_bounded_number_of_threads(
    server: PlayerServer,
) -> None:
    before = threading.active_count()
    socks = []
    try:
        for _ in range(60):
            sock = socket.create_connection(("127.0.0.1", port_of(server)), timeout=5)
            sock.sendall(b"G")  # the start of a request that never ends
            socks.append(sock)
        time.sleep(0.2)
        assert threading.active_count() <= before + 4
        time.sleep(TIMEOUT + 0.5)  # every request is past its deadline: all are closed
        for sock in socks[:4]:
            sock.settimeout(1)
            assert read_all(sock) == b""
    finally:
        for sock in socks:
            sock.close()
    assert_serving(server)


def test_the_limits_are_checked() -> None:
    from jass import InvalidInputError  # noqa: PLC0415

    for kwargs in ({"max_connections": 0}, {"max_connections": True}, {"request_timeout": 0},
                   {"request_timeout": float("inf")}, {"request_timeout": "1"}):  # fmt: skip
        with pytest.raises(InvalidInputError, match=r"max_connections|request_timeout"):
            PlayerServer({"rule": RuleBot}, **kwargs)


@pytest.mark.parametrize(
    "request_line",
    [
        b"GET /" + b"n" * 60000 + b" HTTP/1.1",
        b"GET /rule/" + b"x" * 60000 + b" HTTP/1.1",
        b"POST /" + b"p" * 60000 + b" HTTP/1.1",
        b"POST /" + b"p" * 60000 + b"/action_trump HTTP/1.1",
    ],
    ids=["get-player", "get-route", "post-route", "post-player"],
)
def test_an_error_quoting_a_long_path_stays_short(
    server: PlayerServer, request_line: bytes
) -> None:
    head = request_line + b"\r\nHost: x\r\nContent-Type: application/json\r\n"
    reply = exchange(server, head + b"Content-Length: 2\r\n\r\n{}")
    assert len(reply) < 600
    status, _ = json_answer(reply) if b'"error"' in reply else (int(reply.split()[1]), "")
    assert status in (400, 404)
