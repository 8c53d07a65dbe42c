"""`jass simulate` and `jass serve` play a bot of the user's own, named MODULE:NAME."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from jass import Contract, Game, rules
from jass.cli.commands import main
from jass.records import to_jasskit_observation
from tests.kit_helpers import decode, post

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


@pytest.mark.slow
def test_jass_serve_serves_an_own_bot_as_a_jasskit_player(bot_dir: Path) -> None:
    command = [sys.executable, "-m", "jass", "serve", "--port", "0", "--bot", "rule",
               "--bot", "mine=mybots_cli:MyBot", "--bot", "mybots_cli:make"]  # fmt: skip
    process = subprocess.Popen(
        command, cwd=bot_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    watchdog = threading.Timer(60, process.kill)  # a server that never starts fails the test
    watchdog.start()
    try:
        assert process.stdout is not None
        urls = [process.stdout.readline().split()[0] for _ in range(3)]
        assert [url.rsplit("/", 1)[1] for url in urls] == ["rule", "mine", "make"]
        for seed in range(3):
            game = Game.new(rules.JASSKIT, seed=seed).deal().choose(Contract.OBENABE)
            for _ in range(seed * 5):
                game = game.play(game.legal_moves().cards()[0])
            seat = game.to_move
            assert seat is not None
            data = to_jasskit_observation(game.view(seat))
            answers = [post(url + "/action_play_card", data) for url in urls]
            assert answers[0][0] == 200
            assert decode("action_play_card", answers[0][1]) in game.legal_actions()
            assert answers[1] == answers[0]  # RuleBot by another name answers as RuleBot
            assert answers[2] == answers[0]
    finally:
        watchdog.cancel()
        process.kill()
        process.communicate()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("x=mybots_cli:Missing", "--bot x=mybots_cli:Missing: 'mybots_cli:Missing': module"),
        ("x=nonsense", "unknown bot kind 'nonsense'; choose random, rule, montecarlo, search or"),
        ("mybots_cli:NoPlayer", "which has no choose_action(view)"),
    ],
)
def test_jass_serve_refuses_a_bad_own_bot(bot_dir: Path, spec: str, message: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "jass", "serve", "--port", "0", "--bot", spec],
        cwd=bot_dir, capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert message in done.stdout
    assert "Traceback" not in done.stderr
