"""records.loads against records from outside: bounded in size, stopped at the first bad action.

Issue 23, item 9: the cost of reading a record grows with its length (about 0.5 s per MB), so
the text and the actions are bounded by documented limits that a keyword raises; and the
first bad action, malformed or illegal, stops the replay.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

import jass
from jass import InvalidInputError
from jass.bots import RandomBot, play_game
from jass.records import MAX_ACTIONS, MAX_BYTES, dumps, loads, record, replay


def short_game() -> jass.Game:
    game = jass.Game.new(seed=4).deal().choose("hearts")
    for _ in range(5):
        game = game.play(game.legal_moves().cards()[0])
    return game


def test_a_text_over_the_byte_limit_is_refused_before_it_is_parsed() -> None:
    text = " " * MAX_BYTES + "{}"
    started = time.perf_counter()
    with pytest.raises(InvalidInputError, match=r"over the limit of 4000000 \(max_bytes=4000000\)"):
        loads(text)
    assert time.perf_counter() - started < 0.5


def test_the_byte_limit_counts_utf8_bytes_not_characters() -> None:
    text = '{"x": "' + "é" * 600 + '"}'  # 609 characters, 1209 bytes
    with pytest.raises(InvalidInputError, match="is 1209 bytes"):
        loads(text, max_bytes=1000)
    with pytest.raises(InvalidInputError, match=r"record\.version is missing"):
        loads(text, max_bytes=1209)  # within the limit: read, and refused for its content


def test_the_action_limit_refuses_before_replaying_and_a_keyword_raises_it() -> None:
    game = short_game()
    text = dumps(game)
    count = len(record(game)["actions"])
    with pytest.raises(InvalidInputError, match=f"holds {count} actions.*max_actions=3"):
        loads(text, max_actions=3)
    assert loads(text, max_actions=count) == game
    assert loads(text, max_actions=None, max_bytes=None) == game
    with pytest.raises(InvalidInputError, match="max_actions=3"):
        replay(record(game), max_actions=3)


def test_a_record_over_the_default_action_limit_is_refused() -> None:
    data: dict[str, Any] = record(jass.Game.new(seed=1))
    data["actions"] = [{"shove": True}] * (MAX_ACTIONS + 1)
    started = time.perf_counter()
    with pytest.raises(InvalidInputError, match=f"over the limit of {MAX_ACTIONS}"):
        loads(json.dumps(data))
    assert time.perf_counter() - started < 1.0


def test_a_thousand_hands_fit_the_default_limits() -> None:
    ruleset = jass.rules.SCHIEBER.evolve(hands=1000)
    game = play_game(jass.Game.new(ruleset, seed=1), [RandomBot(s) for s in range(4)])
    assert len(game.hand_results) == 1000
    text = dumps(game, indent=2)
    assert len(text.encode()) < MAX_BYTES
    assert len(record(game)["actions"]) < MAX_ACTIONS
    assert loads(text) == game


def test_the_first_bad_action_stops_the_replay_even_before_a_malformed_one() -> None:
    data = record(short_game())
    data["actions"][2] = {"play": "6S"}  # illegal: the contract is still to be chosen
    data["actions"][5] = {"play": 17}  # malformed, later
    with pytest.raises(InvalidInputError, match=r"record action 2 \(.*play.*6S") as caught:
        replay(data)
    assert "actions[5]" not in str(caught.value)


def test_a_malformed_action_after_good_ones_is_named_by_its_path() -> None:
    data = record(short_game())
    data["actions"][4] = {"play": 17}
    with pytest.raises(InvalidInputError, match=r"record\.actions\[4\]\.play: expected a card"):
        replay(data)


@pytest.mark.parametrize("value", [0, -1, True, 1.5, "10"])
def test_bad_limits_are_refused(value: object) -> None:
    with pytest.raises(InvalidInputError, match="max_bytes must be a positive int or None"):
        loads("{}", max_bytes=value)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="max_actions must be a positive int or None"):
        loads("{}", max_actions=value)  # type: ignore[arg-type]
