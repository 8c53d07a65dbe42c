"""Double-dummy analysis: ``jass.solver.analyze`` and ``jass analyze``."""

from __future__ import annotations

from pathlib import Path

import pytest

import jass
from jass.bots import RandomBot, play_hand
from jass.cli import main
from jass.errors import InvalidInputError
from jass.records import dumps, record
from jass.solver import Solver, analyze


def _game() -> jass.Game:
    return play_hand(jass.Game.new(jass.rules.JASSKIT, seed=4).deal(), [RandomBot(1)] * 4)


def test_analysis_names_the_best_cards_and_the_points_given_away() -> None:
    game = _game()
    report = analyze(record(game), first_trick=5, backend="python")
    assert len(report.plays) == 16
    positions = []
    current = game.initial_state()
    for action in game.history:
        if isinstance(action, jass.Play) and sum(current.tricks_won) >= 5:
            positions.append(current)
        current = current.apply(action)
    for play, before in zip(report.plays, positions, strict=True):
        assert (play.lost == 0) == (play.card in play.best)
        # What the side makes with best play (the Python solver) is what the card played
        # makes plus what it gave away.
        solver = Solver(before.contract, before.ruleset, backend="python")  # type: ignore[arg-type]
        best = solver.solve(
            [int(h) for h in before.hands], int(before.trick_leader),  # type: ignore[arg-type]
            before.trick, before.tricks_won,
        )  # fmt: skip
        assert play.points + play.lost == best.points


def test_backends_agree_on_the_analysis() -> None:
    game = _game()
    assert analyze(record(game), first_trick=6) == analyze(
        record(game), first_trick=6, backend="python"
    )


def test_the_command_prints_a_table_and_draws_the_key_positions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = _game()
    saved = tmp_path / "game.json"
    saved.write_text(dumps(game), encoding="utf-8")
    picture = tmp_path / "key.svg"
    assert main(["analyze", str(saved), "--from-trick", "7", "--svg", str(picture)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("hand trick seat card")
    assert len(lines) == 1 + 12 + 1  # header, three tricks of four cards, the totals
    assert lines[-1].startswith("points given away")
    assert picture.read_text(encoding="utf-8").startswith("<svg")


def test_a_bad_first_trick_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="first_trick"):
        analyze(record(_game()), first_trick=9)
