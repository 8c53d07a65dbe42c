"""`jass play` and `jass watch` bots, the help texts, and Misère and Match explained on screen."""

from __future__ import annotations

import pytest

import jass
from jass import Contract, Phase, Seat, rules
from jass.bots import MonteCarloBot, RandomBot, RuleBot
from jass.cli import _parser, main, table_bot
from jass.naming import Names
from jass.screen import Labels, describe


def test_play_defaults_to_monte_carlo_bots_with_a_small_budget() -> None:
    assert _parser().parse_args(["play"]).bots == "montecarlo"
    bot = table_bot("montecarlo", 5)
    assert isinstance(bot, MonteCarloBot)
    assert bot.samples == 128
    assert bot.time_limit == 0.5
    assert isinstance(table_bot("rule", 5), RuleBot)
    assert isinstance(table_bot("random", 5), RandomBot)
    with pytest.raises(jass.InvalidInputError, match="'clever'"):
        table_bot("clever", 5)


def test_play_says_who_the_bots_are(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def leave(question: str) -> str:
        raise EOFError

    monkeypatch.setattr("builtins.input", leave)
    # Seat 0 is forehand at seed 12, so the first question comes before any bot moves.
    assert main(["play", "--seed", "12"]) == 0
    out = capsys.readouterr().out
    assert "Your partner and your opponents are Monte Carlo bots" in out
    assert main(["play", "--seed", "12", "--bots", "random"]) == 0
    assert "Your partner and your opponents are random bots." in capsys.readouterr().out


def test_watch_plays_its_cards_with_the_bots_it_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["watch", "--seed", "4"]) == 0
    rule = capsys.readouterr().out
    assert "Playing: four rule bots" in rule
    assert main(["watch", "--seed", "4", "--bots", "random"]) == 0
    random_play = capsys.readouterr().out
    assert "Playing: four random bots" in random_play
    # The same deal, other card play.
    tricks = [line for line in rule.splitlines() if line.strip().startswith("trick")]
    random_tricks = [line for line in random_play.splitlines() if line.strip().startswith("trick")]
    assert len(tricks) == len(random_tricks) == 9
    assert tricks != random_tricks


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for command in ("watch", "play", "replay", "rules", "simulate", "serve"):
        assert f"    {command}  " in out


@pytest.mark.parametrize(
    ("command", "shown"),
    [
        ("play", ["(default: montecarlo)", "(default: SCHIEBER)", "(default: auto)"]),
        ("watch", ["(default: 7)", "(default: rule)", "(default: 1)"]),
        (
            "simulate",
            ["(default: rule)", "(default: random)", "(default: 100)", "(default: hands)"],
        ),
        ("serve", ["(default: 127.0.0.1)", "(default: 8888)", "(default: 1.0)"]),
    ],
)
def test_each_command_shows_its_defaults(
    command: str, shown: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())  # line breaks fall anywhere
    for text in shown:
        assert text in out
    assert "(default: None)" not in out
    assert "(default: False)" not in out


def test_misere_is_explained_when_it_is_chosen() -> None:
    game = jass.Game.new(rules.TRADITIONAL, seed=1).deal()
    after = game.choose(Contract.MISERE)
    lines = describe(game, after.history[-1], after, Names(), Labels(Seat(0)))
    assert any("Misère: take as few card points as you can" in line for line in lines)
    assert any("no match bonus" in line for line in lines)
    obenabe = game.choose(Contract.OBENABE)
    assert not any(
        "Misère" in line
        for line in describe(game, obenabe.history[-1], obenabe, Names(), Labels(Seat(0)))
    )


def test_a_match_is_explained_with_its_bonus() -> None:
    # Seed 26 under SCHIEBER: RuleBots take all nine tricks for team 0 (checked below).
    game = jass.Game.new(rules.SCHIEBER, seed=26).deal()
    bots = [RuleBot() for _ in range(4)]
    while game.phase in (Phase.CHOOSE, Phase.PLAY):
        seat = game.to_move
        assert seat is not None
        before, action = game, bots[seat].choose_action(game.view(seat))
        game = game.apply(action)
    score = game.hand_results[-1]
    assert score.match is not None
    lines = describe(before, action, game, Names(), Labels(Seat(0)))
    match = next(line for line in lines if "Match!" in line)
    assert f"+{rules.SCHIEBER.match_bonus} bonus" in match
    assert "all nine tricks" in match
