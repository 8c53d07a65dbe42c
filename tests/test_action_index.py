"""The stable action numbering, the Weis declarations (46, 47) included."""

from __future__ import annotations

import random

import pytest

import jass
from jass import (
    NUM_ACTIONS,
    DeclareWeis,
    Game,
    IllegalActionError,
    IllegalReason,
    InvalidInputError,
    Phase,
    action_from_index,
    rules,
)

MANUAL = rules.SCHIEBER.evolve(weis_declaration="MANUAL")


def test_every_number_below_num_actions_names_an_action() -> None:
    assert NUM_ACTIONS == 48
    for index in range(NUM_ACTIONS):
        if index == 47:
            continue
        assert action_from_index(index).index == index
    for bad in (-1, NUM_ACTIONS, 1000):
        with pytest.raises(InvalidInputError):
            action_from_index(bad)


def test_declare_nothing_is_46_and_any_declaration_is_47() -> None:
    assert action_from_index(46) == DeclareWeis(())
    game = Game.new(MANUAL, seed=37).deal().choose("obenabe")
    declarations = [a for a in game.legal_actions() if isinstance(a, DeclareWeis)]
    assert len(declarations) == 3  # four 8s, 7-8-9 of diamonds, both
    assert {a.index for a in declarations} == {47}
    full = action_from_index(47, game)
    mover = game.to_move
    assert mover is not None
    assert isinstance(full, DeclareWeis)
    assert full.weis == jass.find_weis(game.hands[mover], MANUAL)
    assert full in declarations
    assert action_from_index(47, game.view(mover)) == full


def test_declare_all_needs_the_game_and_an_open_declaration() -> None:
    with pytest.raises(InvalidInputError, match="pass the game"):
        action_from_index(47)
    auto = Game.new(rules.SCHIEBER, seed=37).deal().choose("obenabe")
    with pytest.raises(IllegalActionError) as caught:
        action_from_index(47, auto)
    assert caught.value.reason is IllegalReason.WEIS_NOT_DECLARABLE
    game = Game.new(MANUAL, seed=37).deal().choose("obenabe")
    declared = game.apply(action_from_index(47, game))
    with pytest.raises(IllegalActionError):
        action_from_index(47, declared)  # once only


def test_legal_action_numbers_are_distinct_but_for_partial_declarations() -> None:
    rng = random.Random(5)
    for seed in range(40):
        game = Game.new(MANUAL, seed=seed)
        while not game.is_over and game.hands_played < 2:
            if game.phase is Phase.DEAL:
                game = game.deal()
                continue
            actions = game.legal_actions()
            others = [a.index for a in actions if not isinstance(a, DeclareWeis)]
            assert len(set(others)) == len(others)
            assert all(0 <= i < NUM_ACTIONS for i in others)
            numbers = {a.index for a in actions}
            if 47 in numbers:
                assert action_from_index(47, game) in actions
            action = rng.choice(actions)
            game = game.apply(action_from_index(action.index, game))
