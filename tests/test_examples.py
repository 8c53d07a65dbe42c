"""The examples run (the JSON server example has its own tests, in test_json_server.py)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from jass import Play
from jass.bots import RuleBot

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


def _browser_table() -> ModuleType:
    """The browser page's Python (examples/browser/jass_table.py), imported from its file."""
    path = EXAMPLES / "browser" / "jass_table.py"
    spec = importlib.util.spec_from_file_location("jass_table", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _first_weis(swiss: bool) -> tuple[dict[str, Any], list[str]]:
    """Seed 1's first hand on the page, a RuleBot clicking for you, up to the first Weis shown."""
    page = _browser_table()
    table = page.Table(1, swiss=swiss)
    me = RuleBot()
    state = table.state()
    log: list[str] = []
    while not state["weis"]:
        if table.bot_to_move():
            state = table.bot_step()
        else:
            action = me.choose_action(table.game.view(0))
            if isinstance(action, Play):
                state = table.act(card=str(action.card))
            else:
                state = table.act(index=[a for _, a in table._offered].index(action))
        log += state["log"]
    return state, log


@pytest.mark.parametrize(
    ("swiss", "weis", "contract", "card"),
    [
        (False, "Dreiblatt Ecken 7–9 (20)", "♥ Trumpf Herz ×1", "♥K"),
        (True, "Dreiblatt Eicheln 7–9 (20)", "Trumpf Rosen ×1", "Rosen König"),
    ],
)
def test_the_browser_page_names_weis_and_contracts_as_jass_play_does(
    swiss: bool, weis: str, contract: str, card: str
) -> None:
    # Seed 1: right names hearts, you hold ♦7 ♦8 ♦9 (a Dreiblatt, shown after trick 1), and
    # your first card is ♥K.
    state, log = _first_weis(swiss)
    assert [w["text"] for w in state["weis"]] == [weis]
    assert f"Weis: You shows {weis}" in log
    assert state["contract"] == contract
    assert f"Right: chooses {contract}" in log
    assert f"You: plays {card}" in log


def test_the_browser_page_labels_its_rules() -> None:
    page = _browser_table()
    state = page.Table(3).state()
    assert (state["rules"], state["target"]) == ("SCHIEBER_1000", "to 1000 points")
    state = page.Table(3, "SCHIEBER").state()
    assert (state["rules"], state["target"]) == ("SCHIEBER", "to 2500 points")
    html = (EXAMPLES / "browser" / "index.html").read_text(encoding="utf-8")
    assert 'id="rules-name"' in html  # where app.js writes state.rules
    assert "(jass play&#x27;s default)" in html or "(jass play's default)" in html
