"""``jass play`` in a real pseudo-terminal: colours on a terminal, none with ``NO_COLOR``."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time

import pytest

pty = pytest.importorskip("pty", reason="pseudo-terminals are POSIX only")

# Seat 0 is forehand at seed 12, with ♠10; ♥A ♥K; ♦A ♦6; ♣Q ♣10 ♣6 (and ♣A).
SEED = "12"


class Terminal:
    """``python -m jass ARGS`` with a pseudo-terminal for its input and output."""

    def __init__(self, *arguments: str, **environment: str) -> None:
        master, slave = pty.openpty()
        env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
        env.update({"TERM": "xterm-256color", "PYTHONIOENCODING": "utf-8", **environment})
        self.process = subprocess.Popen(
            [sys.executable, "-m", "jass", *arguments],
            stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True,
        )  # fmt: skip
        os.close(slave)
        self.master = master
        self.seen = ""

    def read_until(self, text: str, timeout: float = 60) -> str:
        """Everything shown until ``text`` appears (line ends as ``\\n``)."""
        deadline = time.monotonic() + timeout
        start = len(self.seen)
        while text not in self.seen[start:]:
            ready, _, _ = select.select(
                [self.master], [], [], max(0.0, deadline - time.monotonic())
            )
            if not ready:
                raise AssertionError(f"no {text!r} on the screen; it shows {self.seen[-600:]!r}")
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # the program ended and closed the terminal
                chunk = b""
            if not chunk:
                raise AssertionError(f"the program ended without {text!r}: {self.seen[-600:]!r}")
            self.seen += chunk.decode("utf-8", errors="replace").replace("\r\n", "\n")
        return self.seen[start:]

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def finish(self) -> int:
        status = self.process.wait(timeout=60)
        os.close(self.master)
        return status


def _play(terminal: Terminal) -> tuple[str, str, str]:
    choose = terminal.read_until("Trumpf? ")
    terminal.type("schiebe")
    card = terminal.read_until("Your card? ")
    terminal.type("q")
    terminal.read_until("[y/n] ")
    terminal.type("n")
    terminal.read_until("bye")
    status = terminal.finish()
    assert status == 0, terminal.seen
    return choose, card, terminal.seen


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX only")
def test_a_terminal_shows_suits_in_colour() -> None:
    choose, card, seen = _play(Terminal("play", "--bots", "rule", "--seed", SEED))
    assert "\x1b[31mA\x1b[0m" in choose  # ♥A in red, before the contract (no marks)
    assert "Us (you + partner) \x1b[1m0\x1b[0m · Them (right + left) \x1b[1m0\x1b[0m" in choose
    assert "\x1b[1mTrumpf " in card  # the contract in bold
    assert "\x1b[31;1mA*\x1b[0m" in card  # a red card that may be played: bold and marked
    assert "Traceback" not in seen


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX only")
def test_no_color_turns_colour_off_and_never_beats_the_terminal() -> None:
    for terminal in (
        Terminal("play", "--bots", "rule", "--seed", SEED, NO_COLOR="1"),
        Terminal("play", "--bots", "rule", "--seed", SEED, "--color", "never"),
    ):
        _, card, seen = _play(terminal)
        assert "\x1b[" not in seen
        assert "[1] " in card  # the numbers and the marks remain
        assert "*" in card


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX only")
def test_swiss_suits_have_their_own_colours_on_a_terminal() -> None:
    choose, _, _ = _play(Terminal("play", "--bots", "rule", "--seed", SEED, "--swiss"))
    # Rosen red, Eicheln green, Schellen yellow, Schilten blue (SWISSLOS: ♥ ♦ ♣ ♠).
    assert "\x1b[31mAss\x1b[0m" in choose  # Rosen Ass
    assert "\x1b[32mAss\x1b[0m" in choose  # Eicheln Ass
    assert "\x1b[33mAss\x1b[0m" in choose  # Schellen Ass
    assert "\x1b[34mBanner\x1b[0m" in choose  # Schilten Banner
