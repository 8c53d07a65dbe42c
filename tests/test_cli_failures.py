"""The command line's own failures end quietly, with a message and the conventional status."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

JASS = [sys.executable, "-m", "jass"]


def run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*JASS, *arguments], capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.slow
def test_replaying_a_file_that_is_not_utf8_says_so(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    record.write_bytes(b'{"format": "jass-record", "seed": \xff\xfe}')
    done = run("replay", str(record))
    assert done.returncode == 2
    assert "is not UTF-8 text (byte 34)" in done.stdout
    assert "Traceback" not in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["simulate", "--jobs", "0"], "argument --jobs: 0 is less than 1"),
        (["simulate", "--deals", "0"], "argument --deals: 0 is less than 1"),
        (["simulate", "--samples", "-2"], "argument --samples: -2 is less than 1"),
        (["watch", "--hands", "-1"], "argument --hands: -1 is less than 0"),
        (["watch", "--hands", "x"], "argument --hands: 'x' is not a whole number"),
        (["serve", "--port", "-1"], "argument --port: -1 is less than 0"),
        (["serve", "--seconds", "nan"], "argument --seconds: nan: seconds must be positive"),
    ],
)
def test_bad_numbers_are_refused_with_the_option_named(arguments: list[str], message: str) -> None:
    done = run(*arguments)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_a_reader_that_leaves_early_ends_the_output_quietly() -> None:
    # `jass rules | head -1`: the pipe closes before jass writes.
    process = subprocess.Popen(
        [*JASS, "rules"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None
    assert process.stderr is not None
    process.stdout.close()
    status = process.wait(timeout=120)
    errors = process.stderr.read().decode()
    process.stderr.close()
    assert status == 141, errors
    assert errors == ""


@pytest.mark.slow
def test_ctrl_c_at_a_prompt_ends_the_game_quietly() -> None:
    process = subprocess.Popen(
        [*JASS, "play", "--bots", "rule", "--seed", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert process.stderr is not None
    # Wait for the first question, then press Ctrl-C.
    deadline = time.monotonic() + 60
    seen = ""
    while "?" not in seen and ":" not in seen[-3:] and time.monotonic() < deadline:
        seen += process.stdout.read(1)
    process.send_signal(signal.SIGINT)
    status = process.wait(timeout=60)
    errors = process.stderr.read()
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            stream.close()
    assert status == 130, errors
    assert "Traceback" not in errors
    assert "KeyboardInterrupt" not in errors


@pytest.mark.parametrize(
    ("word", "guess"), [("bogus", ""), ("paly", " (did you mean play?)"), ("7", "")]
)
def test_an_unknown_command_is_named_with_the_commands(word: str, guess: str) -> None:
    done = run(word, "--seed", "3")
    assert done.returncode == 2
    message = done.stderr.strip()
    start = f"jass: unknown command '{word}'{guess}; commands: "
    assert message.startswith(start), message
    assert message.endswith(" (jass --help describes them)"), message
    listed = message[len(start) :].split(" (jass")[0].split(", ")
    # Every command of the parser is listed (commands added later are listed as well).
    assert {"watch", "play", "replay", "rules", "simulate", "serve"} <= set(listed)
    assert done.stdout == ""


def test_options_alone_still_run_the_default_command() -> None:
    done = run("--seed", "3", "--hands", "1")
    assert done.returncode == 0, done.stderr
    assert "Hand 1 score:" in done.stdout
