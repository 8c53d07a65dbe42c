"""Games that start from a score sheet: Game.new(scores=, dealer=, hands_played=)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from jass import Game, InvalidInputError, Phase, RuleSet, Seat, Team, rules
from jass.bots import RandomBot, play_game, play_hand
from jass.records import dumps, loads, record, replay


def test_a_fresh_game_has_the_fresh_setup() -> None:
    game = Game.new(rules.SCHIEBER, seed=1)
    assert game.setup.scores == (0, 0)
    assert game.setup.dealer is None
    assert game.setup.hands_played == 0
    assert game.scores == (0, 0)
    assert game.hands_played == 0


@pytest.mark.parametrize("dealer", list(Seat))
def test_the_dealer_deals_the_first_hand_whatever_the_first_hand_rule(dealer: Seat) -> None:
    for ruleset in (rules.SCHIEBER, rules.SCHIEBER.evolve(first_hand_rule="MARKER_CARD")):
        game = Game.new(ruleset, seed=11, dealer=dealer).deal()
        assert game.hand_info is not None
        assert game.hand_info.dealer == dealer
        assert game.to_move == dealer.next


def test_the_dealer_rotates_after_the_first_hand() -> None:
    bots = [RandomBot(seed=s) for s in range(4)]
    game = play_hand(Game.new(rules.SCHIEBER_1000, seed=4, dealer=Seat(2)), bots)
    if not game.is_over:
        game = game.deal()
        assert game.hand_info is not None
        assert game.hand_info.dealer == Seat(3)


def test_scores_are_the_totals_before_the_first_hand() -> None:
    game = Game.new(rules.SCHIEBER, seed=3, scores=(1200, 940))
    assert game.scores == (1200, 940)
    game = play_hand(game, [RandomBot(seed=s) for s in range(4)])
    assert game.hand_info is not None
    assert game.hand_info.scores_before == (1200, 940)
    totals = game.hand_results[-1].totals
    assert game.scores == (1200 + totals[0], 940 + totals[1])


def test_a_game_near_its_end_ends_in_its_first_hand() -> None:
    game = Game.new(rules.SCHIEBER_1000, seed=5, scores=(990, 10))
    game = play_hand(game, [RandomBot(seed=s) for s in range(4)])
    assert game.is_over
    assert game.result is not None
    assert game.result.hands_played == 1


def test_hands_played_count_toward_a_fixed_length() -> None:
    bots = [RandomBot(seed=s) for s in range(4)]
    game = play_game(Game.new(rules.TOURNAMENT_12, seed=6, hands_played=9), bots)
    assert len(game.hand_results) == 3
    assert game.hands_played == 12
    assert game.result is not None
    assert game.result.hands_played == 12


def test_hands_played_number_the_hands_that_follow() -> None:
    game = Game.new(rules.SCHIEBER, seed=6, hands_played=4).deal()
    assert game.hand_info is not None
    assert game.hand_info.number == 4


def test_thanking_counts_the_starting_scores() -> None:
    thank_rules = rules.SCHIEBER_1000.evolve(end_mode="THANK")
    game = Game.new(thank_rules, seed=2, scores=(1010, 0))  # THANK: a team may be past it
    assert game.thank(Team(0)).winner == Team(0)
    assert Game.new(thank_rules, seed=2, scores=(999, 0)).thank(Team(0)).winner == Team(1)


@pytest.mark.parametrize(
    ("ruleset", "kwargs", "message"),
    [
        (rules.SCHIEBER, {"scores": (-1, 0)}, "team 0 has a negative total"),
        (rules.SCHIEBER, {"scores": (0, -5)}, "team 1 has a negative total"),
        (rules.SCHIEBER, {"scores": (2500, 0)}, "already at the target 2500"),
        (rules.SCHIEBER, {"scores": (10, 3000)}, "team 1 is already at the target"),
        (rules.BEGINNER, {"scores": (1100, 900)}, "past the target"),
        (rules.SCHIEBER, {"scores": (1, 2, 3)}, "two ints"),
        (rules.SCHIEBER, {"scores": "0 0"}, "two ints"),
        (rules.SCHIEBER, {"scores": (1.5, 0)}, "two ints"),
        (rules.SCHIEBER, {"scores": (True, 0)}, "two ints"),
        (rules.SCHIEBER, {"dealer": 4}, "dealer must be a Seat"),
        (rules.SCHIEBER, {"dealer": -1}, "dealer must be a Seat"),
        (rules.SCHIEBER, {"dealer": "north"}, "dealer must be a Seat"),
        (rules.SCHIEBER, {"dealer": True}, "dealer must be a Seat"),
        (rules.SCHIEBER, {"hands_played": -1}, "hands_played must be an int >= 0"),
        (rules.SCHIEBER, {"hands_played": 2.0}, "hands_played must be an int >= 0"),
        (rules.TOURNAMENT_12, {"hands_played": 12}, "hands=12 would be over"),
        (rules.TOURNAMENT_12, {"hands_played": 40}, "hands=12 would be over"),
    ],
)
def test_bad_setups_are_refused_clearly(
    ruleset: RuleSet, kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(InvalidInputError, match=message):
        Game.new(ruleset, seed=1, **kwargs)


def test_setups_that_look_odd_but_are_valid() -> None:
    # Equal totals past the target: END_OF_HAND plays another hand (R9.3).
    assert Game.new(rules.BEGINNER, seed=1, scores=(1100, 1100)).scores == (1100, 1100)
    # A fixed number of hands ignores the target (R9.1).
    assert Game.new(rules.TOURNAMENT_12, seed=1, scores=(5000, 0)).scores == (5000, 0)
    # A list is as good as a tuple; the setup keeps a tuple.
    assert Game.new(rules.SCHIEBER, seed=1, scores=[5, 7]).setup.scores == (5, 7)


def test_the_setup_is_part_of_equality() -> None:
    assert Game.new(seed=1, scores=(10, 0)) != Game.new(seed=1)
    assert Game.new(seed=1, dealer=Seat(1)) != Game.new(seed=1, dealer=Seat(2))
    assert Game.new(seed=1, dealer=1) == Game.new(seed=1, dealer=Seat(1))


def test_records_store_the_setup_and_replay_it() -> None:
    bots = [RandomBot(seed=s) for s in range(4)]
    game = Game.new(rules.SCHIEBER, seed=8, scores=(2100, 1800), dealer=Seat(1), hands_played=7)
    game = play_hand(game, bots)
    data = record(game)
    assert data["setup"] == {"scores": [2100, 1800], "dealer": 1, "hands_played": 7}
    loaded = loads(dumps(game))
    assert loaded == game
    assert loaded.setup == game.setup
    assert loaded.history == game.history


def test_version_1_records_still_load_as_fresh_games() -> None:
    game = Game.new(rules.SCHIEBER, seed=8).deal().choose("hearts")
    data = json.loads(dumps(game))
    data["version"] = 1
    del data["setup"]
    assert replay(data) == game


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("none", r"record\.setup: expected an object"),
        ({"scores": "0:0"}, r"record\.setup\.scores"),
        ({"scores": [-4, 0]}, "negative total"),
        ({"dealer": 9}, r"record\.setup\.dealer: expected a seat 0-3"),
        ({"hands_played": -2}, r"record\.setup\.hands_played"),
        ({"colour": 1}, "unknown keys: 'colour'"),
    ],
)
def test_bad_setups_in_records_name_the_field(setup: object, message: str) -> None:
    data = record(Game.new(rules.SCHIEBER, seed=8))
    data["setup"] = {**data["setup"], **setup} if isinstance(setup, dict) else setup
    with pytest.raises(InvalidInputError, match=message):
        replay(data)


def test_a_setup_without_one_of_its_fields_is_refused() -> None:
    data = record(Game.new(rules.SCHIEBER, seed=8, scores=(300, 0)))
    del data["setup"]["scores"]  # it would have started from 0 : 0
    with pytest.raises(InvalidInputError, match=r"record\.setup\.scores is missing"):
        replay(data)


def test_initial_state_replays_the_history() -> None:
    bots = [RandomBot(seed=s) for s in range(4)]
    game = play_hand(Game.new(rules.SCHIEBER, seed=8, scores=(300, 0), dealer=Seat(3)), bots)
    state = game.initial_state()
    assert state.phase is Phase.DEAL
    assert state.scores == (300, 0)
    for action in game.history:
        state = state.apply(action)
    assert state == game


def test_the_jasskit_preset_scores_what_jasskit_scores() -> None:
    bots = [RandomBot(seed=s) for s in range(4)]
    for seed in range(20):
        game = play_game(Game.new(rules.JASSKIT, seed=seed), bots)
        assert game.is_over
        assert len(game.hand_results) == 1
        result = game.hand_results[0]
        assert sum(game.scores) == 157  # card points and the last trick's 5, nothing else
        assert result.weis == (0, 0)
        assert result.stoeck == (0, 0)
        assert result.bonus == (0, 0)
        assert result.multiplier == 1
