"""The player service under load: ``python benchmarks/bench_service.py``.

Starts ``PlayerServer({"random": RandomBot})`` in a child process (so that the clients do not
share its interpreter lock), then asks it ``POST /random/action_play_card`` from 1, 8 and 32
client threads, each on its own kept-alive connection, and prints requests per second and the
50th and 99th percentile latency per level, and the server's CPU time per request (steadier
than the rates on a busy machine). Finally it sends ``--rss-requests`` requests
(20,000 by default) and prints the server's resident memory before and after. Every answer is
checked: a status other than 200, or a card the rules do not allow, counts as an error.

Run it against another checkout with ``PYTHONPATH=/that/checkout/src``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import jass
from jass.records import to_jasskit_observation

_SERVER = """
from jass.bots import RandomBot
from jass.jasskit import PlayerServer
server = PlayerServer({"random": RandomBot})
print(server.url, flush=True)
server.serve_forever()
"""


def observation() -> bytes:
    """A valid question for a card: the first trick of a seeded hand, three cards in."""
    game = jass.Game.new(jass.rules.JASSKIT, seed=11).deal()
    game = game.choose("hearts")
    for _ in range(3):
        game = game.play(game.legal_moves().cards()[0])
    assert game.to_move is not None
    return json.dumps({**to_jasskit_observation(game.view(game.to_move)), "gameId": 0}).encode()


def rss_kib(pid: int) -> int:
    """The resident set size of process ``pid``, in KiB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return -1


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used, user and system (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def client(
    host: str, port: int, body: bytes, count: int, times: list[float], errors: list[int]
) -> None:
    """Send ``count`` requests on one kept-alive connection; record each one's latency."""
    conn = http.client.HTTPConnection(host, port, timeout=30)
    headers = {"Content-Type": "application/json"}
    for _ in range(count):
        started = time.perf_counter()
        try:
            conn.request("POST", "/random/action_play_card", body, headers)
            reply = conn.getresponse()
            data = reply.read()
            if reply.status != 200 or "card" not in json.loads(data):
                errors.append(reply.status)
        except (OSError, http.client.HTTPException, ValueError):
            errors.append(0)
            conn.close()
            conn = http.client.HTTPConnection(host, port, timeout=30)
        times.append(time.perf_counter() - started)
    conn.close()


def level(
    host: str, port: int, body: bytes, clients: int, total: int
) -> tuple[float, float, float, int]:
    """Requests/s, p50 and p99 in ms, and the errors, for ``total`` requests from ``clients``."""
    times: list[float] = []
    errors: list[int] = []
    each = max(1, total // clients)
    threads = [
        threading.Thread(target=client, args=(host, port, body, each, times, errors))
        for _ in range(clients)
    ]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    times.sort()
    p50 = times[len(times) // 2] * 1000
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))] * 1000
    return len(times) / elapsed, p50, p99, len(errors)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000, help="requests per level")
    parser.add_argument("--rss-requests", type=int, default=20000)
    args = parser.parse_args()
    server = subprocess.Popen(  # noqa: S603  (our own interpreter and script)
        [sys.executable, "-c", _SERVER], stdout=subprocess.PIPE, text=True, env=dict(os.environ)
    )
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        host, port = url.removeprefix("http://").rsplit(":", 1)
        body = observation()
        level(host, int(port), body, 4, 200)  # warm-up
        print(f"jass {jass.__version__} at {jass.__file__}")
        heads = ("clients", "req/s", "p50 ms", "p99 ms")
        print("  ".join(f"{head:>7}" for head in heads) + "  CPU µs/req  errors")
        for clients in (1, 8, 32):
            cpu = cpu_seconds(server.pid)
            rate, p50, p99, errors = level(host, int(port), body, clients, args.requests)
            per = (cpu_seconds(server.pid) - cpu) / args.requests * 1e6
            row = f"{clients:>7}  {rate:>7.0f}  {p50:>7.2f}  {p99:>7.2f}"
            print(f"{row}  {per:>10.0f}  {errors}")
        before = rss_kib(server.pid)
        rate, _, p99, errors = level(host, int(port), body, 8, args.rss_requests)
        after = rss_kib(server.pid)
        print(
            f"RSS {before / 1024:.1f} MiB -> {after / 1024:.1f} MiB after {args.rss_requests} "
            f"more requests ({rate:.0f} req/s, p99 {p99:.2f} ms, {errors} errors)"
        )
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
