"""The jass-kit / Swisslos hand format: records written by hand from its documentation."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jass import CardSet, Contract, Game, InvalidInputError, Phase, Seat, rules
from jass.records import from_jasskit, to_jasskit, to_jasskit_observation
from tests.helpers import play_random
from tests.strategies import seeds

SPADES = ["SA", "SK", "SQ", "SJ", "S10", "S9", "S8", "S7", "S6"]
HEARTS = ["HA", "HK", "HQ", "HJ", "H10", "H9", "H8", "H7", "H6"]
DIAMONDS = ["DA", "DK", "DQ", "DJ", "D10", "D9", "D8", "D7", "D6"]
CLUBS = ["CA", "CK", "CQ", "CJ", "C10", "C9", "C8", "C7", "C6"]

# Written by hand: North (0) dealt, West (3) is forehand and chose Obenabe (trump 4) itself;
# West led the ace of spades, South, East and North could not follow and threw their sixes.
# Players are numbered clockwise; play goes 3 -> 2 -> 1 -> 0.
KIT_HAND: dict[str, Any] = {
    "version": "V0.2",
    "trump": 4,
    "dealer": 0,
    "currentPlayer": 3,
    "forehand": 1,
    "tricks": [
        {"cards": ["SA", "H6", "D6", "C6"], "points": 11, "win": 3, "first": 3},
        {"first": 3},
    ],
    "player": [
        {"hand": CLUBS[:8]},
        {"hand": DIAMONDS[:8]},
        {"hand": HEARTS[:8]},
        {"hand": SPADES[1:]},
    ],
    "jassTyp": "SCHIEBER",
}


def test_a_hand_written_record_loads_with_the_players_mapped() -> None:
    game = from_jasskit(KIT_HAND)
    hand = game.hand_info
    assert hand is not None
    # Their player p is our seat -p mod 4: North 0 -> 0, West 3 -> 1, South 2 -> 2, East 1 -> 3.
    assert hand.dealer == Seat(0)
    assert hand.forehand == Seat(1)
    assert game.contract is Contract.OBENABE
    assert game.hands[1] == CardSet.parse("KS QS JS 10S 9S 8S 7S 6S")
    assert game.hands[0] == CardSet.parse("AC KC QC JC 10C 9C 8C 7C")
    (trick,) = game.tricks
    assert trick.leader == Seat(1)
    assert trick.winner == Seat(1)
    assert trick.points == 11
    assert game.to_move == Seat(1)
    assert to_jasskit(game) == {**KIT_HAND, "player": [
        {"hand": sorted(p["hand"], key=lambda c: CardSet.parse(c[1:] + c[0]).cards()[0])}
        for p in KIT_HAND["player"]
    ]}  # fmt: skip


def test_a_shoved_choice_and_a_hand_before_the_choice() -> None:
    shoved = {**KIT_HAND, "forehand": 0}
    game = from_jasskit(shoved)
    assert game.hand_info is not None
    assert game.hand_info.shoves == 1
    assert game.hand_info.chooser == Seat(3)  # the forehand's partner
    fresh = from_jasskit({**KIT_HAND, "trump": -1, "forehand": -1, "tricks": [],
                          "player": [{"hand": CLUBS}, {"hand": DIAMONDS}, {"hand": HEARTS},
                                     {"hand": SPADES}]})  # fmt: skip
    assert fresh.phase is Phase.CHOOSE
    assert fresh.to_move == Seat(1)
    # The Swisslos push code 10: shoved, the partner still to choose; "tss": 1 in old records.
    pushed = from_jasskit({**KIT_HAND, "trump": 10, "forehand": -1, "tricks": [],
                           "player": [{"hand": CLUBS}, {"hand": DIAMONDS}, {"hand": HEARTS},
                                      {"hand": SPADES}]})  # fmt: skip
    assert pushed.phase is Phase.CHOOSE
    assert pushed.to_move == Seat(3)
    old = {key: value for key, value in KIT_HAND.items() if key not in ("forehand", "version")}
    legacy = from_jasskit({**old, "tss": 1})
    assert legacy.hand_info is not None
    assert legacy.hand_info.shoves == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["tricks"][0].update(points=12), "'points' is 12, the rules give 11"),
        (lambda d: d["tricks"][0].update(win=2), "'win' is 2"),
        (lambda d: d["tricks"][0].update(first=2), "'first' is player 2"),
        (lambda d: d.update(trump=7), "'trump' must be 0-5"),
        (lambda d: d.update(dealer=4), "'dealer'"),
        (lambda d: d.update(version="V0.1"), "'version'"),
        (
            lambda d: d["tricks"][0]["cards"].__setitem__(1, "D7"),
            "trick 0, card D7: player . plays it",
        ),
        (lambda d: d["tricks"][0]["cards"].__setitem__(1, "X7"), "jass-kit notation"),
        (lambda d: d.pop("player"), "'player' is missing"),
    ],
)
def test_broken_records_are_refused_with_the_trick_and_reason(change: Any, message: str) -> None:
    data = copy.deepcopy(KIT_HAND)
    change(data)
    with pytest.raises(InvalidInputError, match=message):
        from_jasskit(data)


def test_an_illegal_card_is_reported_with_its_trick_and_the_rule() -> None:
    # Spades trump; West leads the 10 of hearts; South holds hearts but plays a club.
    data = {
        "version": "V0.2", "trump": 2, "dealer": 0, "forehand": 1, "currentPlayer": 1,
        "tricks": [{"cards": ["H10", "C6"], "first": 3}],
        "player": [
            {"hand": ["HA", "HK", "HQ", "DA", "DK", "DQ", "DJ", "D10", "D9"]},
            {"hand": ["SA", "SK", "SQ", "SJ", "S10", "S9", "S8", "S7", "S6"]},
            {"hand": ["HJ", "H9", "H8", "H7", "H6", "C10", "C9", "C8"]},
            {"hand": ["CA", "CK", "CQ", "CJ", "C7", "D8", "D7", "D6"]},
        ],
    }  # fmt: skip
    with pytest.raises(InvalidInputError, match=r"trick 0, card C6 of player 2: 6C is not allowed: .* player 2 holds hearts"):
        from_jasskit(data)


@settings(max_examples=40)
@given(seed=seeds, rng=st.randoms(use_true_random=False), cards=st.integers(0, 36))
def test_exported_hands_load_back_to_the_same_position(
    seed: int, rng: random.Random, cards: int
) -> None:
    game = Game.new(rules.SCHIEBER, seed=seed).deal()
    if rng.random() < 0.3:
        game = game.shove()
    game = play_random(game.choose(rng.choice(Contract.standard())), rng, cards)
    loaded = from_jasskit(to_jasskit(game))
    assert loaded.hands == game.hands
    assert loaded.tricks == game.tricks
    assert loaded.trick == game.trick
    assert loaded.contract is game.contract
    assert loaded.hand_points == game.hand_points
    assert to_jasskit(loaded) == to_jasskit(game)


def test_after_a_push_trump_is_minus_one_and_forehand_zero() -> None:
    # jass-kit's state between a push and the partner's choice.
    pushed = {**KIT_HAND, "trump": -1, "forehand": 0, "tricks": [],
              "player": [{"hand": CLUBS}, {"hand": DIAMONDS}, {"hand": HEARTS},
                         {"hand": SPADES}]}  # fmt: skip
    game = from_jasskit(pushed)
    assert game.phase is Phase.CHOOSE
    assert game.hand_info is not None
    assert game.hand_info.shoves == 1
    assert game.to_move == Seat(3)
    out = to_jasskit(game)
    assert (out["trump"], out["forehand"]) == (-1, 0)
    assert from_jasskit(out).to_move == Seat(3)


@pytest.mark.parametrize("shove", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_the_round_trip_keeps_every_stage_of_a_hand(seed: int, shove: bool) -> None:
    rng = random.Random(seed)
    game = Game.new(rules.SCHIEBER, seed=seed).deal()
    stages = [game]
    if shove:
        game = game.shove()
        stages.append(game)
    game = game.choose(rng.choice(Contract.standard()))
    stages.append(game)
    while game.phase is Phase.PLAY:
        game = game.play(rng.choice(game.legal_moves().cards()))
        stages.append(game)
    for stage in stages:
        back = from_jasskit(to_jasskit(stage))
        assert back.hands == stage.hands
        assert back.trick == stage.trick
        assert back.tricks == stage.tricks
        assert back.contract == stage.contract
        assert back.to_move == stage.to_move
        assert back.phase == stage.phase
        assert back.hand_info is not None
        assert stage.hand_info is not None
        assert back.hand_info.shoves == stage.hand_info.shoves
        assert back.hand_info.dealer == stage.hand_info.dealer
        assert to_jasskit(back) == to_jasskit(stage)


def test_a_shove_back_has_no_jasskit_form() -> None:
    game = Game.new(rules.SCHIEBER.evolve(allow_shove_back=True), seed=1).deal().shove().shove()
    with pytest.raises(InvalidInputError, match="no shove back"):
        to_jasskit(game)


@pytest.mark.parametrize("seed", range(4))
def test_an_observation_is_the_hand_as_one_player_sees_it(seed: int) -> None:
    rng = random.Random(seed)
    game = Game.new(rules.SCHIEBER, seed=seed).deal()
    stages = [game]
    game = game.shove() if seed % 2 else game
    stages.append(game)
    game = game.choose(rng.choice(Contract.standard()))
    while game.phase is Phase.PLAY:
        stages.append(game)
        game = game.play(rng.choice(game.legal_moves().cards()))
    stages.append(game)
    for stage in stages:
        full = to_jasskit(stage)
        for seat in Seat:
            obs = to_jasskit_observation(stage.view(seat))
            viewer = obs["playerView"]
            others = [p if i == viewer else {"hand": []} for i, p in enumerate(full["player"])]
            assert {key: value for key, value in obs.items() if key != "playerView"} == {
                **full,
                "player": others,
            }
            shown = {card for p in obs["player"] for card in p["hand"]}
            assert shown == set(full["player"][viewer]["hand"])
            assert len(shown) == len(stage.hands[seat])


def test_an_observation_needs_a_deal() -> None:
    with pytest.raises(InvalidInputError, match="deal first"):
        to_jasskit_observation(Game.new(seed=1).view(0))
