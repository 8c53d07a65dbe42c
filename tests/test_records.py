"""Game records: round trips for every preset, and refusal of malformed or illegal records."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jass import Game, InvalidInputError, Phase, RuleSet, rules
from jass.bots import Bot, RandomBot, RuleBot, play_hand
from jass.records import dumps, loads, record, replay
from jass.weis import find_weis
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
