"""The command line's options for long matches and hostile clients.

``jass simulate --checkpoint FILE`` resumes a match from the deals kept in FILE; ``jass serve
--max-connections N --request-timeout S`` caps the connections and bounds every request.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from jass.cli import main
from tests.kit_helpers import get


def simulate(capsys: pytest.CaptureFixture[str], *options: str) -> dict[str, Any]:
    assert main(["simulate", "--deals", "8", "--json", *options]) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    del result["seconds"]
    return result


def test_simulate_with_a_checkpoint_resumes_to_the_same_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "match.jsonl"
    plain = simulate(capsys)
    assert simulate(capsys, "--checkpoint", str(path)) == plain
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["parameters"]["n"] == 8
    path.write_text("\n".join(lines[:3]) + "\n")  # as if stopped after two chunks
    assert simulate(capsys, "--checkpoint", str(path)) == plain
    assert len(path.read_text().splitlines()) == len(lines)


def test_simulate_refuses_a_checkpoint_of_another_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "match.jsonl"
    simulate(capsys, "--checkpoint", str(path))
    status = main(["simulate", "--deals", "8", "--seed", "1", "--checkpoint", str(path)])
    out = capsys.readouterr().out
    assert status == 2
    assert "written by another match: seed 0 there, 1 here" in out


def test_serve_caps_connections_and_bounds_requests() -> None:
    command = [sys.executable, "-m", "jass", "serve", "--port", "0", "--bot", "r=random",
               "--max-connections", "2", "--request-timeout", "0.5"]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    watchdog = threading.Timer(60, process.kill)
    watchdog.start()
    try:
        assert process.stdout is not None
        url = process.stdout.readline().split()[0]
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        held = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(2)]
        time.sleep(0.2)
        with socket.create_connection(("127.0.0.1", port), timeout=5) as extra:
            assert extra.recv(4096).startswith(b"HTTP/1.1 503")
        held[0].sendall(b"GET /r HTT")  # a request that never ends: closed at 0.5 s
        held[0].settimeout(3)
        started = time.monotonic()
        assert held[0].recv(4096) == b""
        assert time.monotonic() - started < 2
        for sock in held:
            sock.close()
        time.sleep(0.2)
        assert get(url)[0] == 200
    finally:
        watchdog.cancel()
        process.kill()
        process.communicate()


@pytest.mark.parametrize("option", [["--max-connections", "0"], ["--request-timeout", "0"]])
def test_serve_refuses_bad_limits(option: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "jass", "serve", "--port", "0", *option],
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert option[0] in done.stderr
