"""``jass play`` in a real pseudo-terminal: colours on a terminal, none with ``NO_COLOR``."""

from __future__ import annotations

import itertools
import os
import re
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from jass import DeclareWeis, Game, Shove, find_weis
from jass.records import loads

pty = pytest.importorskip("pty", reason="pseudo-terminals are POSIX only")

# Seat 0 is forehand at seed 12, with ♠10; ♥A ♥K; ♦A ♦6; ♣Q ♣10 ♣6 (and ♣A).
SEED = "12"
PAUSE = "Press Enter for the next hand (q quits) "


class Terminal:
    """``python -m jass ARGS`` with a pseudo-terminal for its input and output."""

    def __init__(self, *arguments: str, **environment: str) -> None:
        master, slave = pty.openpty()
        env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
        env.update({"TERM": "xterm-256color", "PYTHONIOENCODING": "utf-8", **environment})
        self.process = subprocess.Popen(
            [sys.executable, "-m", "jass", *arguments],
            stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True,
            cwd=tempfile.mkdtemp(prefix="jass-pty-"),  # a save under a bare name lands there
        )  # fmt: skip
        os.close(slave)
        self.master = master
        self.seen = ""

    def read_until(self, text: str | tuple[str, ...], timeout: float = 60) -> str:
        """Everything shown until ``text`` (or one of several) appears (line ends as ``\\n``)."""
        deadline = time.monotonic() + timeout
        start = len(self.seen)
        texts = (text,) if isinstance(text, str) else text
        while not any(one in self.seen[start:] for one in texts):
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


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX only")
def test_a_terminal_shows_suits_in_colour() -> None:
    choose, card, seen = _play(Terminal("play", "--seed", SEED))
    assert "\x1b[31mA\x1b[0m" in choose  # ♥A in red, before the contract (no marks)
    assert "Us (you + partner) \x1b[1m0\x1b[0m · Them (right + left) \x1b[1m0\x1b[0m" in choose
    assert "\x1b[1mTrumpf " in card  # the contract in bold
    assert "\x1b[31;1mA*\x1b[0m" in card  # a red card that may be played: bold and marked
    assert "Traceback" not in seen


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX only")
def test_no_color_turns_colour_off_and_never_beats_the_terminal() -> None:
    for terminal in (
        Terminal("play", "--seed", SEED, NO_COLOR="1"),
        Terminal("play", "--seed", SEED, "--color", "never"),
    ):
        _, card, seen = _play(terminal)
        assert "\x1b[" not in seen
        assert "[1] " in card  # the numbers and the marks remain
        assert "*" in card


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX only")
def test_swiss_suits_have_their_own_colours_on_a_terminal() -> None:
    choose, _, _ = _play(Terminal("play", "--seed", SEED, "--swiss"))
    # Rosen red, Eicheln green, Schellen yellow, Schilten blue (SWISSLOS: ♥ ♦ ♣ ♠).
    assert "\x1b[31mAss\x1b[0m" in choose  # Rosen Ass
    assert "\x1b[32mAss\x1b[0m" in choose  # Eicheln Ass
    assert "\x1b[33mAss\x1b[0m" in choose  # Schellen Ass
    assert "\x1b[34mBanner\x1b[0m" in choose  # Schilten Banner


def _hand_block(screen: str) -> list[tuple[str, str]]:
    """The numbered cards of the last hand shown: (number, rank with its mark)."""
    lines = screen.rsplit("Your hand (* = may be played):\n", 1)[1].splitlines()
    suits = itertools.takewhile(lambda line: line.startswith("  "), lines)
    return re.findall(r"\[(\d+)\] (\S+)", "\n".join(suits))


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX only")
def test_a_whole_hand_as_a_person_plays_it(tmp_path: Path) -> None:
    """Shove, a Weis declared by hand, every kind of bad answer, a thank, a full hand, a save."""
    # Seat 0 is forehand at seed 74 with ♠Q ♠A; ♥7 ♥8 ♥9; ♦7; ♣10 ♣J ♣Q: two Dreiblatt.
    assert find_weis(Game.new(seed=74).deal().hands[0])
    record = tmp_path / "game.json"
    t = Terminal("play", "--seed", "74", "--bots", "rule", "--color", "never",
                 "--option", "weis_declaration=MANUAL")  # fmt: skip
    screen = t.read_until("Trumpf? ")
    assert "seed 74" in screen
    assert "Your partner and opponents: RuleBot" in screen
    assert "Hand 1 · no trumps yet: you choose" in screen
    assert "Us (you + partner) 0 · Them (right + left) 0 · target 2500" in screen
    assert "  [7] schiebe (shove: your partner chooses)" in screen
    for answer, refusal in (
        ("s", "'s' is too short to be sure: type the number, or the whole name"),
        ("42", "choose a number from 1 to 7"),
        ("blau", "'blau' is not a contract: type the number, or a name"),
        ("misere", "Misère is not allowed by these rules"),
        ("?", "Answer with the number in brackets, or a name:"),
    ):
        t.type(answer)
        assert refusal in t.read_until("Trumpf? ")
    t.type("")  # Enter alone asks again, with no complaint
    assert t.read_until("Trumpf? ").strip() == "Trumpf? (number or name, or schiebe)"
    t.type("schiebe")
    screen = t.read_until("Declare which? ")
    assert "  you shove to partner\n" in screen
    chosen = re.search(r"  partner chooses (Trumpf \w+ ×[12]|Obenabe ×3|Undenufe ×3)\n", screen)
    assert chosen, screen
    assert f"Hand 1 · {chosen[1]} · chosen by partner (you shoved)" in screen
    assert "Trick 1: you lead" in screen
    assert "You may declare Weis: [1] Dreiblatt Kreuz 10–Q (20)  [2] Dreiblatt Herz 7–9 (20)" in (
        screen
    )
    for answer in ("3", "x"):
        t.type(answer)
        assert f"'{answer}': give numbers from 1 to 2, all or none" in t.read_until("Declare ")
    t.type("2")
    screen = t.read_until("Your card? ")
    assert "you declare Dreiblatt Herz 7–9 (20); the others hear the points" in screen
    for answer, refusal in (
        ("weis", "you have no Weis to declare now"),
        ("zz", "'zz' is not a card: type its number, or its name like ♥J, JH or Herz Bube"),
        ("10", "choose a card number from 1 to 9, or a card's name"),
        ("KH", "♥K is not in your hand"),
    ):
        t.type(answer)
        assert refusal in t.read_until("Your card? ")
    t.type("")
    assert t.read_until("Your card? ").strip() == "Your card? (number or name; ? for help)"
    t.type("bedanke")
    screen = t.read_until("Thank now? [y/n] ")
    assert "Bedanken: your team says it has reached the target" in screen
    assert "If your team has reached 2500, you win; if not, you lose" in screen
    assert "Your team has 0 of 2500." in screen
    t.type("vielleicht")
    assert "please answer y (yes) or n (no)" in t.read_until("Thank now? [y/n] ")
    t.type("n")
    assert "  play on" in t.read_until("Your card? ")

    refused = False
    last = screen
    for _ in range(40):  # nine cards, one refused; each answer reads up to the next question
        cards = _hand_block(t.seen)
        legal = [number for number, rank in cards if rank.endswith("*")]
        illegal = [number for number, rank in cards if not rank.endswith("*")]
        if illegal and not refused:
            t.type(illegal[0])
            shown = t.read_until("Your card? ")
            assert re.search(r"  ♥?\S+ is not allowed: .*; you may play ", shown), shown
            refused = True
        t.type(legal[0])
        last = t.read_until(("Your card? ", PAUSE))
        if PAUSE in last:
            break
    assert refused
    # The score stays on screen until Enter: nothing of hand 2 is shown yet.
    assert "Hand 1 score:" in last
    assert last.endswith(PAUSE), last[-300:]
    assert "Hand 2 ·" not in last
    t.type("")
    last += t.read_until("Your card? ")
    score = re.search(r"  this hand us \+(\d+), them \+(\d+); totals us (\d+), them (\d+)", last)
    assert score, last
    assert (score[1], score[2]) == (score[3], score[4])  # the first hand's points are the totals
    assert int(score[1]) + int(score[2]) >= 157
    assert t.seen.count("  trick ") >= 9
    assert "Weis for " in t.seen  # the Weis that count are told after trick 1
    assert f"Us (you + partner) {score[3]} · Them (right + left) {score[4]} · target 2500" in (
        last.split("Hand 2 ·", 1)[1]
    )

    t.type("bedanke")
    t.read_until("Thank now? [y/n] ")
    t.type("y")
    screen = t.read_until("Save the game to replay it later? [y/n] ")
    assert "  your team thanks (bedankt sich): it says it has reached the target" in screen
    assert re.search(r"Game over after \d hands?: they win \(", screen), screen
    t.type("y")
    t.read_until("File name [jass-74.json]: ")
    t.type(str(tmp_path / "missing" / "game.json"))
    assert "cannot write" in t.read_until("File name [jass-74.json]: ")
    t.type(str(record))
    assert f"Saved the game to {record}; replay it with: jass replay {record}" in t.read_until(
        "replay"
    )
    assert t.finish() == 0
    assert "Traceback" not in t.seen

    game = loads(record.read_text(encoding="utf-8"))
    assert game.result is not None
    assert game.result.reason.name == "FALSE_THANK"
    assert isinstance(game.history[1], Shove)
    assert DeclareWeis in {type(action) for action in game.history}
    replay = subprocess.run(
        [sys.executable, "-m", "jass", "replay", str(record)],
        capture_output=True, text=True, encoding="utf-8", check=False, timeout=60,
    )  # fmt: skip
    assert replay.returncode == 0, replay.stdout
    assert "the record is valid" in replay.stdout
    assert replay.stdout.count("  trick ") == t.seen.count("  trick ")
