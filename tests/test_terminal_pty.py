"""``jass play`` in a real pseudo-terminal: colours on a terminal, none with ``NO_COLOR``."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

import jass.records
from jass import DeclareWeis, Shove, Thank

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


def _first_playable(screen: str) -> str:
    """The number of the first card marked playable on the last hand shown."""
    hand = screen.rsplit("Your hand", 1)[1]
    found = re.search(r"\[(\d+)\] [^\s\[]+\*", hand)
    assert found is not None, hand
    return found.group(1)


def _not_playable(screen: str) -> str | None:
    """The number of a card in hand that may not be played now, if any."""
    hand = screen.rsplit("Your hand", 1)[1]
    if "*" not in hand:  # a hand drawn without the marks (before a Weis question)
        return None
    found = re.search(r"\[(\d+)\] [^\s\[*]+(?=\s|$)", hand)
    return found.group(1) if found else None


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX only")
def test_a_whole_hand_as_a_person_plays_it(tmp_path: Path) -> None:
    # Seed 26: seat 0 is forehand and holds 6-7-8 of clubs (a Dreiblatt).
    record = tmp_path / "game.json"
    terminal = Terminal(
        "play", "--bots", "rule", "--seed", "26", "--color", "never",
        "--option", "weis_declaration=MANUAL", "--save", str(record),
    )  # fmt: skip
    screen = terminal.read_until("Trumpf? ")
    assert "Us (you + partner) 0 · Them (right + left) 0 · target 2500" in screen
    for bad, says in (
        ("s", "too short to be sure"),
        ("99", "choose a number from 1 to 7"),
        ("", ""),
    ):
        terminal.type(bad)
        answer = terminal.read_until("Trumpf? ")
        assert says in answer
    terminal.type("schiebe")
    screen = terminal.read_until("Declare which? ")
    assert "partner chooses" in screen  # the shove went to the partner, who chose
    assert "Dreiblatt" in screen
    terminal.type("7")
    assert "give numbers from 1 to" in terminal.read_until("Declare which? ")
    terminal.type("all")
    screen = terminal.read_until("Your card? ")
    assert "you declare Dreiblatt" in screen
    for bad, says in (
        ("banana", "is not a card"),
        ("99", "choose a card number from 1 to 9"),
        ("KS", "is not in your hand"),
    ):
        terminal.type(bad)
        assert says in terminal.read_until("Your card? ")
    refused = 0
    for cards in range(9):
        illegal = _not_playable(terminal.seen)  # the last hand drawn
        if cards and illegal is not None and not refused:  # once: a held card the rules refuse
            terminal.type(illegal)
            answer = terminal.read_until("Your card? ")
            assert "is not allowed" in answer
            assert "you may play" in answer
            refused += 1
        terminal.type(_first_playable(terminal.seen))
        if cards < 8:
            terminal.read_until("Your card? ")
    assert refused == 1
    screen = terminal.read_until("? ")  # the next question, in hand 2
    assert "Hand 1 score:" in screen
    assert "this hand us +" in screen
    terminal.type("bedanke")
    explained = terminal.read_until("Thank now? [y/n] ")
    assert "target" in explained
    terminal.type("y")
    end = terminal.read_until("replay it with")
    assert "Game over" in end
    assert "a team thanked without having reached the target" in end
    assert f"Saved the game to {record}" in end
    assert terminal.finish() == 0
    assert "Traceback" not in terminal.seen
    game = jass.records.loads(record.read_text(encoding="utf-8"))
    assert game.is_over
    assert len(game.hand_results) == 1
    assert any(isinstance(a, DeclareWeis) and a.weis for a in game.history)
    assert any(isinstance(a, Shove) for a in game.history)
    assert any(isinstance(a, Thank) for a in game.history)
    replayed = subprocess.run(
        [sys.executable, "-m", "jass", "replay", str(record)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert replayed.returncode == 0, replayed.stderr
    assert "thank" in replayed.stdout.lower()
