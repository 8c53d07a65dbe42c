"""`jass simulate` plays a bot of the user's own, named MODULE:NAME, as it plays a built-in."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from jass.cli.commands import main

# A bot module as a user writes it: RuleBot under another name, a function factory, and
# names that are not bot factories.
_MODULE = '''
from jass.bots import RuleBot

class MyBot(RuleBot):
    """RuleBot, under a name of my own."""

def make(seed):
    return RuleBot(seed)

class Holder:
    Inner = MyBot

LIMIT = 3

class NoPlayer:
    def __init__(self, seed):
        self.seed = seed

def broken(seed):
    raise RuntimeError("no weights file")
'''


@pytest.fixture
def bot_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory with ``mybots_cli.py``, made the current one; sys.path is restored after."""
    (tmp_path / "mybots_cli.py").write_text(_MODULE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "mybots_cli", raising=False)
    return tmp_path


def _margin(capsys: pytest.CaptureFixture[str], *arguments: str) -> float:
    assert main(["simulate", "--deals", "6", "--json", "--seed", "5", *arguments]) == 0
    return float(json.loads(capsys.readouterr().out)["margin"])


@pytest.mark.parametrize("name", ["mybots_cli:MyBot", "mybots_cli:make", "mybots_cli:Holder.Inner"])
def test_an_own_bot_plays_as_the_built_in_it_wraps(
    bot_dir: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    built_in = _margin(capsys, "--team-a", "rule", "--team-b", "random")
    assert _margin(capsys, "--team-a", name, "--team-b", "random") == built_in
    assert _margin(capsys, "--team-a", "random", "--team-b", name) == -built_in


def test_an_own_bot_plays_in_worker_processes(
    bot_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alone = _margin(capsys, "--team-a", "mybots_cli:MyBot")
    assert _margin(capsys, "--team-a", "mybots_cli:MyBot", "--jobs", "2") == alone


def test_the_text_report_names_the_own_bot(
    bot_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "--deals", "2", "--team-b", "mybots_cli:MyBot"]) == 0
    assert "rule against mybots_cli:MyBot: 2 duplicate deals" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("flag", "name", "reason"),
    [
        ("--team-a", "robot", "'robot' is neither a built-in bot (montecarlo, random, rule, sea"),
        ("--team-b", "nosuchmodule_xyz:Bot", "cannot import nosuchmodule_xyz"),
        ("--team-a", "mybots_cli:Missing", "module mybots_cli has no 'Missing'"),
        ("--team-a", "mybots_cli:Holder.Outer", "module mybots_cli has no 'Holder.Outer'"),
        ("--team-a", "mybots_cli:LIMIT", "is not a bot factory"),
        ("--team-a", "mybots_cli:NoPlayer", "made a NoPlayer, which has no choose_action(view)"),
        ("--team-b", "mybots_cli:broken", "from seed 0: RuntimeError: no weights file"),
        ("--team-a", ":MyBot", "nor MODULE:NAME"),
    ],
)  # fmt: skip
def test_a_bad_bot_name_is_refused_before_any_deal(
    bot_dir: Path, capsys: pytest.CaptureFixture[str], flag: str, name: str, reason: str
) -> None:
    assert main(["simulate", "--deals", "2", flag, name]) == 2
    out = capsys.readouterr().out
    assert out.startswith(f"jass: {flag}: ")
    assert reason in out
    assert "duplicate deal" not in out


@pytest.mark.slow
def test_the_console_script_finds_a_bot_in_the_current_directory(bot_dir: Path) -> None:
    # A console script's sys.path has no current directory (python -c and -m add one).
    code = (
        "import sys; sys.path = [p for p in sys.path if p not in ('', '.')]; "
        "from jass.cli.commands import main; "
        "sys.exit(main(['simulate', '--deals', '2', '--json', '--team-a', 'mybots_cli:MyBot']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=bot_dir, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["team_a"] == "mybots_cli:MyBot"
