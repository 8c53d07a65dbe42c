"""The examples run (the JSON server example has its own tests, in test_json_server.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize("name", ["first_hand.py", "custom_ruleset.py", "swisslos_log.py"])
def test_example_runs(name: str) -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()


@pytest.mark.slow
def test_rl_selfplay_smoke() -> None:
    pytest.importorskip("numpy", reason="the example needs the rl extra")
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "rl_selfplay.py"), "--budget", "0.5", "--eval", "3"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "win rate" in done.stdout.splitlines()[-1]
