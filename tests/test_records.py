"""Game records: round trips for every preset, and refusal of malformed or illegal records."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jass import Game, InvalidInputError, Phase, RuleSet, rules
from jass.bots import Bot, RandomBot, RuleBot, play_hand
from jass.cli.commands import main
from jass.core.dealing import draw_for_dealer
from jass.core.weis import find_weis
from jass.records import dumps, loads, record, replay, to_jasskit, unfinished
from tests.strategies import seeds

RULESETS = [
    *rules.PRESETS.values(),
    rules.SCHIEBER.evolve(weis_declaration="MANUAL", multipliers=(1, 2, 3, 4, 5, 6)),
    rules.TRADITIONAL.evolve(end_mode="THANK", target=700, allow_shove_back=True),
]


@settings(max_examples=40)
@given(ruleset=st.sampled_from(RULESETS), seed=seeds, rng=st.randoms(use_true_random=False))
def test_random_games_round_trip_through_json(
    ruleset: RuleSet, seed: int, rng: random.Random
) -> None:
    game = Game.new(ruleset, seed=seed)
    bots: list[Bot] = [
        RandomBot(rng.randrange(99)),
        RuleBot(),
        RandomBot(rng.randrange(99)),
        RuleBot(),
    ]
    for _ in range(rng.randrange(1, 4)):
        if game.is_over:
            break
        game = play_hand(game, bots)
    if not game.is_over and game.phase is Phase.DEAL and rng.random() < 0.5:
        game = game.deal()
        game = game.apply(bots[int(game.to_move or 0)].choose_action(game.view(game.to_move or 0)))
    loaded = loads(dumps(game))
    assert loaded == game
    assert loaded.history == game.history
    assert loaded.ruleset == game.ruleset
    assert loaded.result == game.result
    assert record(loaded) == record(game)


def test_manual_weis_declarations_round_trip() -> None:
    manual = rules.SCHIEBER.evolve(weis_declaration="MANUAL")
    game = Game.new(manual, seed=4).deal().choose("obenabe")
    seat = game.to_move
    assert seat is not None
    found = find_weis(game.hands[seat], manual)
    game = game.declare_weis(found[:1])
    assert replay(json.loads(dumps(game))) == game


def valid() -> dict[str, object]:
    game = Game.new(rules.SCHIEBER, seed=9).deal().choose("hearts")
    game = game.play(game.legal_moves().cards()[0])
    return record(game)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "other"}, r"record\.format: expected 'jass-record', got str 'other'"),
        ({"version": 3}, r"record\.version: expected one of \[1, 2\], got int 3"),
        ({"version": 2.0}, r"record\.version: expected one of \[1, 2\], got float 2\.0"),
        ({"seed": "nine"}, r"record\.seed: expected an integer, got str 'nine'"),
        ({"seed": True}, r"record\.seed: expected an integer, got bool True"),
        ({"actions": "none"}, r"record\.actions: expected a list of actions, got str 'none'"),
        ({"rules": {"preset": "BRIDGE", "changes": {}}}, r"record\.rules\.preset: .*'BRIDGE'"),
        (
            {"rules": {"preset": "SCHIEBER", "changes": {"target": -1}}},
            r"record\.rules\.changes: RuleSet option 'target' must be a positive integer",
        ),
        (
            {"rules": {"preset": "SCHIEBER", "changes": {"colour": 1}}},
            r"record\.rules\.changes: unknown RuleSet option 'colour'",
        ),
    ],
)
def test_malformed_records_name_the_field(change: dict[str, object], message: str) -> None:
    data = {**valid(), **change}
    with pytest.raises(InvalidInputError, match=message):
        replay(data)


def test_a_tampered_action_names_its_index_and_the_rule() -> None:
    data = valid()
    actions = data["actions"]
    assert isinstance(actions, list)
    # Play a card the player to move does not hold.
    game = Game.new(rules.SCHIEBER, seed=9).deal().choose("hearts")
    assert game.to_move is not None
    foreign = game.hands[game.to_move.next].cards()[0]
    actions[2] = {"play": str(foreign)}
    with pytest.raises(InvalidInputError, match=f"record action 2 .*{foreign} is not in the hand"):
        replay(data)
    data = valid()
    data["actions"] = [*data["actions"], {"dance": 1}]  # type: ignore[misc]
    with pytest.raises(InvalidInputError, match=r"record\.actions\[3\]: unknown action 'dance'"):
        replay(data)
    with pytest.raises(InvalidInputError, match="not valid JSON"):
        loads("{")
    with pytest.raises(InvalidInputError, match=r"record\.rules is missing"):
        replay({"format": "jass-record", "version": 1, "seed": 1, "actions": []})


# --- records that only look valid (issue 12, A6) ------------------------------------------


def one_card_played(seed: int) -> Game:
    """A game with seed ``seed``: dealt, spades chosen by the forehand, one card played."""
    game = Game.new(rules.SCHIEBER, seed=seed).deal().choose("spades")
    return game.play(game.legal_moves().cards()[0])


def other_seed(game: Game) -> int:
    """A seed whose draw gives the first deal to another seat than ``game``'s first dealer."""
    dealer = game.hand_info.dealer if game.hand_info else None
    return next(s for s in range(1000, 2000) if draw_for_dealer(s, lowest=True) != dealer)


def test_an_edited_seed_is_named_with_the_hand_and_the_first_action_that_does_not_fit() -> None:
    game = one_card_played(2)
    assert game.hand_info is not None
    data = record(game)
    card = data["actions"][2]["play"]
    edited = other_seed(game)
    data["seed"] = edited
    with pytest.raises(InvalidInputError) as info:
        replay(data)
    message = str(info.value)
    assert message.startswith(f"record.seed: the seed {edited} and the recorded deal disagree")
    assert f"fit seat {int(game.hand_info.dealer)} dealing it" in message
    assert "was the seed changed?" in message
    assert f"the first action that does not fit is action 2 ({{'play': '{card}'}}) in hand 1" in (
        message
    )
    assert f"{card} is not in the hand of seat" in message  # the rule that refused it
    with pytest.raises(InvalidInputError, match=rf"record\.seed: the seed {edited} "):
        loads(json.dumps(data))


def test_an_edited_seed_in_a_long_record_names_the_first_action_that_does_not_fit() -> None:
    bots: list[Bot] = [RuleBot()] * 4
    game = play_hand(play_hand(Game.new(rules.SCHIEBER, seed=3), bots), bots)
    data = record(game)
    first_play = next(i for i, a in enumerate(data["actions"]) if "play" in a)
    data["seed"] = other_seed(game.initial_state().deal())
    with pytest.raises(InvalidInputError, match=rf"does not fit is action {first_play} .* hand 1"):
        replay(data)


def test_a_tampered_play_with_the_seed_intact_is_not_blamed_on_the_seed() -> None:
    bots: list[Bot] = [RuleBot()] * 4
    game = play_hand(play_hand(Game.new(rules.SCHIEBER, seed=3), bots), bots)
    data = record(game)
    second_deal = [i for i, a in enumerate(data["actions"]) if "deal" in a][1]
    index = next(i for i, a in enumerate(data["actions"]) if i > second_deal and "play" in a)
    hand_two = game.hand_info
    assert hand_two is not None
    mover = hand_two.forehand
    foreign = next(c for c in hand_two.dealt[mover.next].cards())
    data["actions"][index] = {"play": str(foreign)}
    with pytest.raises(InvalidInputError) as info:
        replay(data)
    message = str(info.value)
    assert message.startswith(f"record action {index} ({{'play': '{foreign}'}}) in hand 2: ")
    assert "seed" not in message


def test_a_given_deal_with_a_tampered_play_is_not_blamed_on_the_seed() -> None:
    # A deal given by hand is not the seed's; that alone does not put the blame on the seed.
    hands = ["6S 7S 8S 9S 10S JS QS KS AS", "6H 7H 8H 9H 10H JH QH KH AH",
             "6D 7D 8D 9D 10D JD QD KD AD", "6C 7C 8C 9C 10C JC QC KC AC"]  # fmt: skip
    game = Game.new(rules.SCHIEBER, seed=4).deal(hands=hands).choose("hearts")
    leader = game.to_move
    assert leader is not None
    game = game.play(game.legal_moves().cards()[0])  # only the forehand holds this card
    data = record(game)
    partner = leader.partner  # plays out of turn: the next seat is to play
    foreign = hands[partner].split()[0]
    data["actions"].append({"play": foreign})
    with pytest.raises(InvalidInputError) as info:
        replay(data)
    message = str(info.value)
    assert message.startswith(f"record action 3 ({{'play': '{foreign}'}}) in hand 1: {foreign}")
    assert "seed" not in message


def test_with_a_set_up_dealer_the_seed_draws_nothing_and_an_edit_changes_nothing_played() -> None:
    game = Game.new(rules.SCHIEBER, seed=2, dealer=1).deal().choose("spades")
    game = game.play(game.legal_moves().cards()[0])
    data = {**record(game), "seed": other_seed(game)}
    loaded = replay(data)
    assert loaded.history == game.history
    assert loaded.seed == data["seed"]


# --- unfinished records (issue 12, A6) ----------------------------------------------------


def test_a_record_that_stops_mid_hand_says_where() -> None:
    game = Game.new(rules.SCHIEBER, seed=3, dealer=0).deal()  # seat 1 is forehand
    assert unfinished(loads(dumps(game))) == (
        "in hand 1, before the contract is chosen (seat 1 to choose)"
    )
    game = game.shove()
    assert unfinished(loads(dumps(game))) == (
        "in hand 1, before the contract is chosen (seat 3 to choose)"
    )
    game = game.choose("hearts")
    for _ in range(5):
        game = game.play(game.legal_moves().cards()[0])
    assert len(game.tricks) == 1
    seat = game.tricks[0].winner.next  # the winner led trick 2 with one card
    assert unfinished(loads(dumps(game))) == (
        f"in hand 1, in trick 2 after 1 card (seat {int(seat)} to play)"
    )
    for _ in range(3):
        game = game.play(game.legal_moves().cards()[0])
    leader = game.tricks[1].winner
    expected = f"in hand 1, before trick 3 (seat {int(leader)} to lead)"
    assert unfinished(loads(dumps(game))) == expected


def test_a_record_between_hands_or_before_the_deal_is_unfinished_too() -> None:
    assert unfinished(loads(dumps(Game.new(seed=1)))) == "before the first deal"
    bots: list[Bot] = [RuleBot()] * 4
    game = play_hand(Game.new(rules.SCHIEBER_1000, seed=5), bots)
    assert game.phase is Phase.DEAL
    a, b = game.scores
    assert unfinished(loads(dumps(game))) == (
        f"after hand 1, with the game not over (scores {a} : {b})"
    )


def test_a_finished_record_is_not_unfinished() -> None:
    bots: list[Bot] = [RuleBot()] * 4
    game = play_hand(Game.new(rules.JASSKIT, seed=5), bots)
    assert game.is_over
    assert unfinished(loads(dumps(game))) is None
    # A game that ends in the middle of a hand (a thank) is over, not unfinished.
    thanked = Game.new(rules.SCHIEBER, seed=5, scores=(2490, 0)).deal().thank(0)
    assert thanked.is_over
    assert unfinished(loads(dumps(thanked))) is None


def test_jass_replay_says_a_record_is_unfinished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = Game.new(rules.SCHIEBER, seed=3, dealer=0).deal().choose("hearts")
    for _ in range(6):
        game = game.play(game.legal_moves().cards()[0])
    path = tmp_path / "stopped.json"
    path.write_text(dumps(game), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "the record is valid: 8 actions" in out
    seat = game.tricks[0].winner.offset(2)  # the winner led trick 2, two cards are down
    assert out.rstrip().endswith(
        f"the record is unfinished: it stops in hand 1, in trick 2 after 2 cards (seat {int(seat)} "
        "to play)"
    )
    # The same hand as a jass-kit file: a hand stopped midway is unfinished there too.
    kit = tmp_path / "stopped-kit.json"
    kit.write_text(json.dumps(to_jasskit(game)), encoding="utf-8")
    assert main(["replay", str(kit)]) == 0
    out = capsys.readouterr().out
    assert "the record is unfinished: it stops in hand 1, in trick 2 after" in out


def test_jass_replay_of_a_finished_record_or_a_whole_jasskit_hand_says_nothing_more(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bots: list[Bot] = [RuleBot()] * 4
    game = play_hand(Game.new(rules.JASSKIT, seed=5), bots)
    path = tmp_path / "done.json"
    path.write_text(dumps(game), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    assert "unfinished" not in capsys.readouterr().out
    # A jass-kit file is one hand: complete, it is not an unfinished game.
    whole = play_hand(Game.new(rules.SCHIEBER, seed=5), bots)
    kit = tmp_path / "whole-kit.json"
    kit.write_text(json.dumps(to_jasskit(whole)), encoding="utf-8")
    assert main(["replay", str(kit)]) == 0
    assert "unfinished" not in capsys.readouterr().out
