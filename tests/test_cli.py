"""The command line, end to end: watch, save, replay, rules, and bad input."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from jass import Deal, Game, Play, Seat, rules
from jass.bots import Bot, RandomBot, RuleBot, SearchBot
from jass.cli.commands import main
from jass.records import loads


def test_watch_is_the_default_and_plays_a_hand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "rules SCHIEBER, seed 3" in out
    assert "Hand 1: seat" in out
    assert out.count("  trick ") == 9
    assert re.search(r"  seat \d chooses (Trumpf (Schaufel|Kreuz) ×2|Trumpf (Herz|Ecken) ×1|"
                     r"Obenabe ×3|Undenufe ×3)\n", out)  # fmt: skip
    assert "Hand 1 score:" in out


def test_watch_a_whole_game_and_save_then_replay_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    assert main(["watch", "--rules", "schieber_1000", "--hands", "0", "--seed", "5",
                 "--save", str(record)]) == 0  # fmt: skip
    watched = capsys.readouterr().out
    assert "Game over after" in watched
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["rules"]["preset"] == "SCHIEBER_1000"
    assert main(["replay", str(record)]) == 0
    replayed = capsys.readouterr().out
    assert "the record is valid" in replayed

    # The replay tells the same game: every trick line and the final result agree.
    def tricks(text: str) -> list[str]:
        return [line for line in text.splitlines() if line.startswith(("  trick", "Game over"))]

    assert tricks(replayed) == tricks(watched)


def test_replay_refuses_a_tampered_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    assert main(["watch", "--seed", "2", "--save", str(record)]) == 0
    capsys.readouterr()
    data = json.loads(record.read_text(encoding="utf-8"))
    data["actions"][2], data["actions"][3] = data["actions"][3], data["actions"][2]
    record.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(record)]) == 2
    assert "record action 2" in capsys.readouterr().out
    assert main(["replay", str(tmp_path / "missing.json")]) == 2


def test_rules_lists_presets_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    presets = ("SCHIEBER", "SCHIEBER_1000", "TRADITIONAL", "BEGINNER", "TOURNAMENT_12", "JASSKIT")
    for name in presets:
        assert f"  {name} " in out
    assert "undertrump_only_trumps" in out
    assert main(["rules", "--preset", "beginner"]) == 0
    out = capsys.readouterr().out
    assert "END_OF_HAND" in out
    assert main(["rules", "--preset", "bridge"]) == 2
    assert "unknown rule set 'bridge'" in capsys.readouterr().out


@pytest.mark.slow
def test_python_dash_m_jass_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "jass", "--seed", "1", "--swiss"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert "Hand 1 score:" in done.stdout
    version = subprocess.run(
        [sys.executable, "-m", "jass", "--version"], capture_output=True, text=True, check=True
    )
    assert version.stdout.startswith("jass ")


def test_simulate_prints_a_duplicate_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--deals", "30", "--team-a", "rule", "--team-b", "random"]) == 0
    out = capsys.readouterr().out
    assert "rule against random: 30 duplicate deals" in out
    assert "margin per hand" in out
    assert main(["simulate", "--deals", "6", "--json", "--jobs", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["deals"] == 6
    assert data["margin_low"] <= data["margin"] <= data["margin_high"]
    assert main(["simulate", "--deals", "6", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["margin"] == data["margin"]  # jobs don't matter


def numbers(count: int) -> str:
    """Answers 1, 2, ..., 9, 1, 2, ...: every prompt ends on a legal choice."""
    return "".join(f"{i % 9 + 1}\n" for i in range(count))


def test_play_a_whole_game_from_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("zz\n" + numbers(2000)))
    assert main(["play", "--seed", "3", "--rules", "schieber_1000", "--bots", "rule"]) == 0
    out = capsys.readouterr().out
    assert "You and your partner play against right and left" in out
    assert "Your hand (* = may be played):" in out
    assert "'zz' is not a card" in out  # a bad answer is refused with the reason
    assert "is not allowed:" in out  # and so is an illegal card, in the words of the rules
    assert "Game over after" in out


def test_play_quits_on_q_and_on_end_of_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "--seed", "1", "--bots", "rule"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("bye")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--seed", "1", "--swiss", "--bots", "rule"]) == 0
    assert "bye" in capsys.readouterr().out


def test_play_offers_contracts_by_number_or_name(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Find a seed where seat 0 is forehand and must choose.
    seed = next(s for s in range(100) if Game.new(rules.SCHIEBER, seed=s).deal().to_move == Seat(0))
    monkeypatch.setattr("sys.stdin", io.StringIO("misere\nobenabe\nq\nn\n"))
    assert main(["play", "--seed", str(seed), "--bots", "rule"]) == 0
    out = capsys.readouterr().out
    assert "[1] Trumpf Schaufel ×2" in out
    assert "Misère is not allowed by these rules" in out
    assert "  you choose Obenabe ×3" in out


def test_replay_reads_a_swisslos_hand(capsys: pytest.CaptureFixture[str]) -> None:
    log = Path(__file__).resolve().parent.parent / "examples" / "data" / "swisslos_hand.json"
    assert main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    assert out.count("  trick ") == 9
    assert "Hand 1 score:" in out
    assert "the record is valid" in out


def test_simulate_shows_progress_on_standard_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--deals", "64"]) == 0
    captured = capsys.readouterr()
    assert "64/64 deals" in captured.err
    assert "deals" not in captured.out.splitlines()[-1]


def _replayed_by(game: Game, make: Callable[[int], Bot], seats: Sequence[int]) -> None:
    """Every action of ``seats`` in ``game`` is the one a fresh bot from ``make`` takes."""
    bots = {seat: make(seat) for seat in seats}
    state = game.initial_state()
    decided = 0
    for action in game.history:
        mover = state.to_move
        if mover is not None and int(mover) in bots and not isinstance(action, Deal):
            assert bots[int(mover)].choose_action(state.view(mover)) == action
            decided += 1
        state = state.apply(action)
    assert decided > 0


@pytest.mark.slow
def test_play_has_search_partner_and_opponents_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    # Seed 5: seat 0 is not forehand, so bots play cards before each of the player's.
    monkeypatch.setattr("sys.stdin", io.StringIO(numbers(3) + "q\n"))
    assert main(["play", "--seed", "5", "--save", str(record)]) == 0
    out = capsys.readouterr().out
    assert "Your partner and opponents: SearchBot (32 sampled worlds a card)" in out
    game = loads(record.read_text(encoding="utf-8"))
    assert sum(isinstance(action, Play) for action in game.history) >= 4
    # Seeded from the game's seed with a count of worlds, not a time limit: reproducible.
    _replayed_by(game, lambda seat: SearchBot(5 * 4 + seat), (1, 2, 3))


def test_watch_says_which_bots_play_and_they_play_every_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    assert main(["watch", "--seed", "4", "--save", str(record)]) == 0
    assert "bots: RuleBot at every seat\n" in capsys.readouterr().out
    _replayed_by(loads(record.read_text(encoding="utf-8")), RuleBot, range(4))
    assert main(["watch", "--seed", "4", "--bots", "random", "--save", str(record)]) == 0
    assert "bots: RandomBot at every seat\n" in capsys.readouterr().out
    _replayed_by(
        loads(record.read_text(encoding="utf-8")), lambda seat: RandomBot(4 * 4 + seat), range(4)
    )


def test_help_lists_every_command_and_every_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for line in (
        "    watch     bots play a seeded hand or game (the default)",
        "    play      play against three bots in the terminal",
        "    replay    check a game record and print it",
        "    rules     list the presets and the options",
        "    simulate  a duplicate match between two bots",
        "    serve     serve bots over jass-kit's player-service protocol",
    ):
        assert line in out
    expected = {
        "play": ["(default: search)", "(default: SCHIEBER)", "(default: auto)",
                 "(default: a new one, shown)"],
        "watch": ["(default: rule)", "(default: 7)", "(default: 1)", "(default: SCHIEBER)"],
        "simulate": ["(default: rule)", "(default: random)", "(default: 100)", "(default: 8)",
                     "(default: hands)", "(default: 0)", "(default: 1)"],
        "serve": ["(default: 127.0.0.1)", "(default: 8888)", "(default: 1.0)", "(default: 0)",
                  "default: one of each"],
    }  # fmt: skip
    for command, defaults in expected.items():
        with pytest.raises(SystemExit):
            main([command, "--help"])
        shown = " ".join(capsys.readouterr().out.split())  # argparse wraps lines
        for default in defaults:
            assert default in shown, (command, default)
        assert "(default: None)" not in shown
        assert "(default: False)" not in shown


def test_counts_are_singular_for_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--deals", "1"]) == 0
    captured = capsys.readouterr()
    assert "1/1 deal\n" in captured.err
    assert "rule against random: 1 duplicate deal (hands)" in captured.out
    assert main(["simulate", "--deals", "2"]) == 0
    assert "2 duplicate deals (hands)" in capsys.readouterr().out
