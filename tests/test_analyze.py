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


def test_a_batch_from_a_bots_view_equals_the_batch_from_the_game() -> None:
    """The SearchBot path: worlds sampled from a view, solved in one batch on two threads."""
    from jass.solver import card_values_batch  # noqa: PLC0415

    game, worlds = _batch_decision(3, 6, contract="hearts", plays=23, play_seed=5, sample_seed=1)
    assert game.to_move is not None
    from_view = card_values_batch(game.view(game.to_move), worlds, threads=2)
    from_game = card_values_batch(game, worlds, backend="python")
    assert [v.differences for v in from_view] == [v.differences for v in from_game]
    assert all(set(v.differences) == set(game.legal_moves()) for v in from_view)


def _batch_decision(
    seed: int,
    count: int,
    *,
    contract: str = "spades",
    plays: int = 17,
    play_seed: int | None = None,
    sample_seed: int | None = None,
) -> tuple[jass.Game, list[list[int]]]:
    """A decision after ``plays`` random cards (5 tricks left by default) and ``count`` worlds
    sampled from its player's view; the play and sampling seeds default to ``seed``."""
    import random  # noqa: PLC0415

    from jass.search.sampling import sample_deals  # noqa: PLC0415

    game = jass.Game.new(jass.rules.SCHIEBER, seed=seed).deal().choose(contract)
    rng = random.Random(seed if play_seed is None else play_seed)
    for _ in range(plays):
        game = game.play(rng.choice(game.legal_moves().cards()))
    assert game.to_move is not None
    held = 0
    for hand in game.hands:
        held |= int(hand)
    sampler = random.Random(seed if sample_seed is None else sample_seed)
    deals = sample_deals(game.view(game.to_move), count, sampler)
    return game, [[int(h) & held for h in deal] for deal in deals]


def test_a_batch_gives_the_same_values_whatever_the_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """threads=1, 2, 3 and the default agree world by world (each thread's table carries
    over other worlds); the default asks default_threads() on the native core only."""
    from jass.search import worlds as module  # noqa: PLC0415
    from jass.solver import NATIVE, card_values_batch  # noqa: PLC0415

    game, worlds = _batch_decision(7, 9)
    asked: list[int] = []

    def counted() -> int:
        asked.append(2)
        return 2

    monkeypatch.setattr(module, "default_threads", counted)
    runs = [card_values_batch(game, worlds, threads=t) for t in (1, 2, 3, None)]
    assert asked == ([2] if NATIVE else [])
    first = [(v.differences, v.upper, v.points, v.exact) for v in runs[0]]
    for run in runs[1:]:
        assert [(v.differences, v.upper, v.points, v.exact) for v in run] == first
    reference = card_values_batch(game, worlds, backend="python")
    assert [(v.differences, v.upper, v.points, v.exact) for v in reference] == first
    assert asked == ([2] if NATIVE else [])  # pure Python: one thread, no question


def test_default_threads_counts_the_usable_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    import os  # noqa: PLC0415

    from jass.search.worlds import default_threads  # noqa: PLC0415

    monkeypatch.setattr(os, "sched_getaffinity", lambda _: {0, 1, 5}, raising=False)
    assert default_threads() == 3
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert default_threads() == 1
    monkeypatch.setattr(os, "cpu_count", lambda: 6)
    assert default_threads() == 6


@pytest.mark.parametrize("threads", [0, -1, True, 1.5, "2"])
def test_a_bad_thread_count_is_refused(threads: object) -> None:
    from jass.solver import card_values_batch  # noqa: PLC0415

    game, worlds = _batch_decision(7, 2)
    with pytest.raises(InvalidInputError, match="threads must be a positive int or None"):
        card_values_batch(game, worlds, threads=threads)  # type: ignore[arg-type]


def _three_hands() -> jass.Game:
    game = jass.Game.new(jass.rules.SCHIEBER, seed=6)
    for _ in range(3):
        game = play_hand(game, [RandomBot(2)] * 4)
    return game


@pytest.mark.parametrize("threads", [1, 2, 3, None])
def test_the_analysis_is_the_same_whatever_the_threads(threads: int | None) -> None:
    game = _three_hands()
    report = analyze(record(game), first_trick=6, threads=threads)
    assert report == analyze(record(game), first_trick=6, backend="python", threads=1)
    assert sorted({play.hand for play in report.plays}) == [0, 1, 2]
    assert [play.action for play in report.plays] == sorted(play.action for play in report.plays)


def test_hands_are_analyzed_at_once_on_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading  # noqa: PLC0415

    from jass.search import worlds  # noqa: PLC0415

    # Each hand's first card waits for the other hands' first cards: with one thread at a
    # time the barrier would time out.
    barrier = threading.Barrier(3, timeout=30)
    first_cards: set[int] = set()
    real = worlds.values

    def meeting(solver: Solver, hands: list[int], *args: object, **kwargs: object) -> object:
        key = id(solver)
        if key not in first_cards:
            first_cards.add(key)
            barrier.wait()
        return real(solver, hands, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(worlds, "values", meeting)
    report = worlds.analyze_game(_three_hands(), first_trick=8, threads=3)
    assert len(report.plays) == 12
    assert len(first_cards) == 3


@pytest.mark.parametrize("threads", [0, -1, True, 1.5, "2"])
def test_a_bad_thread_count_for_the_analysis_is_refused(threads: object) -> None:
    with pytest.raises(InvalidInputError, match="threads must be a positive int"):
        analyze(record(_game()), first_trick=8, threads=threads)  # type: ignore[arg-type]


def test_the_command_takes_a_thread_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "game.json"
    saved.write_text(dumps(_three_hands()), encoding="utf-8")
    outputs = []
    for threads in ("1", "2"):
        assert main(["analyze", str(saved), "--from-trick", "8", "--threads", threads]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert len(outputs[0].splitlines()) == 1 + 3 * 8 + 1
    with pytest.raises(SystemExit) as stop:
        main(["analyze", str(saved), "--threads", "0"])
    assert stop.value.code == 2
