"""The examples run, and the JSON server example answers a scripted session."""

from __future__ import annotations

import json
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


def test_rl_selfplay_smoke() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "rl_selfplay.py"), "--budget", "0.5", "--eval", "3"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "win rate" in done.stdout.splitlines()[-1]


def test_json_server_session() -> None:
    requests = [
        {"act": {"shove": True}},
        {"new": {"rules": "SCHIEBER_1000", "seed": 3}},
        {"deal": True},
        {"act": {"play": "JH"}},
        {"act": {"choose": "spades"}},
        {"bot": True},
        {"record": True},
        {"dance": True},
    ]
    script = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "json_server.py")],
        input=script,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [reply["ok"] for reply in replies] == [False, True, True, False, True, True, True, False]
    assert replies[2]["state"]["phase"] == "CHOOSE"
    assert "cannot play JH in phase CHOOSE" in replies[3]["error"]
    assert replies[4]["state"]["contract"] == "TRUMP_SPADES"
    assert len(replies[5]["state"]["trick"]) == 1
    assert replies[6]["record"]["actions"][1] == {"choose": "TRUMP_SPADES"}
