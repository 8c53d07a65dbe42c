"""The can_* predicates agree with the actions; states are really immutable."""

from __future__ import annotations

import copy
import pickle
import random
import threading
from collections.abc import Callable
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jass import (
    CARDS,
    Contract,
    Game,
    IllegalActionError,
    Phase,
    RuleSet,
    Team,
    find_weis,
    rules,
)
from jass.engine._queries import GameQueries
from jass.engine.game import _FIELDS, _build

RULESETS = [
    rules.SCHIEBER,
    rules.SCHIEBER.evolve(weis_declaration="MANUAL", allow_shove_back=True),
    rules.TRADITIONAL,
    rules.BEGINNER,
    rules.TOURNAMENT_12,
    rules.SCHIEBER_1000.evolve(end_mode="THANK"),
]


def succeeds(action: Callable[[], Game]) -> bool:
    try:
        action()
    except IllegalActionError:
        return False
    return True


def check_predicates(game: Game) -> None:
    """Every predicate says exactly whether its action goes through."""
    for card in CARDS:
        assert game.can_play(card) is succeeds(partial(game.play, card)), card
        assert game.can_play(str(card)) is game.can_play(card)
    for contract in Contract.all():
        assert game.can_choose(contract) is succeeds(partial(game.choose, contract))
    assert game.can_shove() is succeeds(game.shove)
    assert game.can_deal() is succeeds(game.deal)
    for team in Team:
        assert game.can_thank(team) is succeeds(partial(game.thank, team))
    assert game.can_declare_weis() is succeeds(game.declare_weis)
    if game.phase is Phase.PLAY and game.to_move is not None:
        found = find_weis(game.hands[game.to_move], game.ruleset)
        for weis in found:
            assert game.can_declare_weis([weis]) is succeeds(partial(game.declare_weis, [weis]))
    # The legal actions are exactly the allowed ones among those offered to the mover.
    for action in game.legal_actions():
        game.apply(action)


def walk(ruleset: RuleSet, seed: int, steps: int) -> list[Game]:
    """States along a random game."""
    rng = random.Random(seed)
    game = Game.new(ruleset, seed=seed)
    states = [game]
    for _ in range(steps):
        if game.is_over:
            break
        game = game.deal() if game.phase is Phase.DEAL else game.apply(
            rng.choice([a for a in game.legal_actions() if a.__class__.__name__ != "Thank"])
        )
        states.append(game)
    return states


@settings(max_examples=25)
@given(
    ruleset=st.sampled_from(RULESETS),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 45),
)
def test_predicates_agree_with_the_actions(ruleset: RuleSet, seed: int, steps: int) -> None:
    state = walk(ruleset, seed, steps)[-1]
    check_predicates(state)


def test_predicates_agree_over_whole_hands() -> None:
    for ruleset in RULESETS:
        for state in walk(ruleset, 3, 45)[::3]:
            check_predicates(state)


def test_predicates_agree_after_the_game_is_over() -> None:
    over = Game.new(seed=1).deal().thank(Team(0))
    assert over.is_over
    check_predicates(over)
    assert not over.can_thank(Team(1))


@pytest.mark.parametrize(
    "junk", [None, "", "XX", "11H", 36, -1, 3.5, object(), True, [1], b"JH"]
)
def test_predicates_never_raise(junk: object) -> None:
    game = Game.new(seed=1).deal().choose("hearts")
    assert game.can_play(junk) is False  # type: ignore[arg-type]
    assert game.can_choose(junk) is False  # type: ignore[arg-type]
    assert game.can_thank(junk) is False  # type: ignore[arg-type]
    assert game.can_declare_weis(junk) is False  # type: ignore[arg-type]


def test_declare_weis_refuses_a_string_clearly() -> None:
    manual = rules.SCHIEBER.evolve(weis_declaration="MANUAL")
    game = Game.new(manual, seed=4).deal().choose("obenabe")
    with pytest.raises(ValueError, match="not the string 'four jacks'"):
        game.declare_weis("four jacks")  # type: ignore[arg-type]


# --- immutability ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", [*_FIELDS, "_legal", "_hash", "phase", "scores", "new_name"])
def test_no_attribute_can_be_set_or_deleted(name: str) -> None:
    game = Game.new(seed=9).deal()
    before = pickle.dumps(game)
    with pytest.raises(AttributeError):
        setattr(game, name, (0, 0))
    with pytest.raises(AttributeError):
        delattr(game, name)
    assert pickle.dumps(game) == before


def test_the_scores_cannot_be_overwritten() -> None:
    game = Game.new(seed=9)
    with pytest.raises(AttributeError, match="immutable"):
        game._scores = (2500, 0)
    assert game.scores == (0, 0)


def test_build_takes_the_fields_in_slot_order() -> None:
    # _build is the one place that sets the fields; its parameters follow _FIELDS.
    names = _build.__code__.co_varnames[: _build.__code__.co_argcount]
    assert [name.rstrip("_") for name in names] == [field.lstrip("_") for field in _FIELDS]
    assert set(_FIELDS) | {"_legal", "_hash"} == set(GameQueries.__slots__)
    assert Game.__slots__ == ()  # the fields are all in the base


def test_the_legal_moves_cache_is_invisible() -> None:
    game = Game.new(seed=9).deal().choose("hearts")
    fresh = Game.new(seed=9).deal().choose("hearts")
    legal = game.legal_moves()
    assert game == fresh
    assert hash(game) == hash(fresh)
    assert pickle.dumps(game) == pickle.dumps(fresh)
    assert repr(game) == repr(fresh)
    assert copy.deepcopy(game) is game
    assert pickle.loads(pickle.dumps(game)).legal_moves() == legal


def test_states_shared_between_threads_agree() -> None:
    game = Game.new(seed=9).deal().choose("spades")
    for _ in range(5):
        game = game.play(game.legal_moves().cards()[0])
    expected = Game.new(seed=9).deal().choose("spades")
    for _ in range(5):
        expected = expected.play(expected.legal_moves().cards()[0])
    # One append per answer pair: the threads interleave their appends.
    answers: list[tuple[object, object]] = []

    def work() -> None:
        for _ in range(200):
            moves = game.legal_moves()
            answers.append((moves, game.play(game.legal_moves().cards()[-1]).scores))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == 800
    assert {str(moves) for moves, _ in answers} == {str(expected.legal_moves())}
    assert len({scores for _, scores in answers}) == 1
    assert game == expected
