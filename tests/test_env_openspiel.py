"""The OpenSpiel game ``python_jass_schieber``: OpenSpiel's own checks, then ours.

``pyspiel.random_sim_test`` is OpenSpiel's conformance test of a game, unmodified. Ours check
what it cannot: the returns against the engine's scores, the legal actions against
:meth:`jass.Game.legal_actions`, the observation tensor against :func:`jass.envs.encode`, the
information state's perfect recall, and the resampler that OpenSpiel's Python ISMCTS uses.

These tests need the ``openspiel`` extra (OpenSpiel 2 has wheels for Python 3.11 and
later): without it they are skipped (``test_env_openspiel_missing.py`` checks the error).
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("numpy", reason="needs the openspiel extra")
import numpy as np

from jass import Phase, rules
from jass.engine.actions import NUM_ACTIONS, Thank
from jass.envs import FIELDS, encode
from jass.envs._bounds import max_hand_total
from jass.errors import InvalidInputError

pyspiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra (Python 3.11+)")
openspiel = importlib.import_module("jass.envs.openspiel")
ismcts = importlib.import_module("open_spiel.python.algorithms.ismcts")
mcts = importlib.import_module("open_spiel.python.algorithms.mcts")

HAND_PRESETS = ("SCHIEBER", "SCHIEBER_1000", "TRADITIONAL", "BEGINNER", "JASSKIT")


def load(**params: Any) -> Any:
    return pyspiel.load_game(openspiel.GAME_NAME, params)


def play(game: Any, rng: random.Random) -> Iterator[Any]:
    """Every state of one random episode, the initial and the terminal state included."""
    state = game.new_initial_state()
    yield state
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choice(outcomes)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        yield state


def decision_states(game: Any, rng: random.Random, count: int) -> list[Any]:
    """``count`` decision states from random episodes (clones, so they stay as they are)."""
    found: list[Any] = []
    while len(found) < count:
        states = [s.clone() for s in play(game, rng) if not s.is_chance_node()]
        states = [s for s in states if not s.is_terminal()]
        found += rng.sample(states, min(3, len(states)))
    return found[:count]


# --- OpenSpiel's own test ------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "sims"), [("SCHIEBER", 20), ("TRADITIONAL", 10)])
def test_random_sim_test_one_hand(preset: str, sims: int) -> None:
    started = time.perf_counter()
    pyspiel.random_sim_test(load(ruleset=preset), num_sims=sims, serialize=True, verbose=False)
    print(f"random_sim_test {preset}: {sims} hands in {time.perf_counter() - started:.1f} s")


@pytest.mark.slow
def test_random_sim_test_whole_game() -> None:
    game = load(ruleset="TOURNAMENT_12", episode="game")
    started = time.perf_counter()
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    print(f"random_sim_test TOURNAMENT_12 game: 1 game in {time.perf_counter() - started:.1f} s")


# --- the game's description --------------------------------------------------------------


def test_game_description() -> None:
    game = load()
    assert str(game) == "python_jass_schieber(dealer=3,episode=hand,ruleset=SCHIEBER)"
    assert game.num_players() == 4
    assert game.num_distinct_actions() == NUM_ACTIONS == 48
    assert game.max_chance_outcomes() == 36
    assert game.max_game_length() == 36 + 2  # plays, a choice and a shove
    assert game.max_chance_nodes_in_history() == 36
    assert game.max_utility() == -game.min_utility() == max_hand_total(rules.SCHIEBER)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    whole = load(ruleset="TOURNAMENT_12", episode="game")
    assert whole.max_game_length() == 12 * 38
    assert whole.max_chance_nodes_in_history() == 12 * 36
    assert whole.max_utility() == 12 * 157
    shove_back = openspiel.JassGame({"ruleset": "TRADITIONAL"})
    assert shove_back.max_game_length() == 38


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"ruleset": "BRIDGE"}, "unknown rule set"),
        ({"episode": "match"}, "episode must be"),
        ({"episode": "game"}, "fixed number of hands"),
        ({"dealer": 4}, "dealer must be a seat"),
        ({"colour": "red"}, "unknown parameter"),
    ],
)
def test_bad_parameters_are_refused(params: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        openspiel.JassGame(params)


def test_dealer_parameter_sets_the_first_forehand() -> None:
    for dealer in range(4):
        state = load(dealer=dealer).new_initial_state()
        for card in range(36):
            state.apply_action(card)
        assert state.current_player() == (dealer + 1) % 4
        assert int(state.game.hand_info.dealer) == dealer


def test_the_deal_is_card_by_card_in_packets_of_three() -> None:
    state = load().new_initial_state()  # dealer 3: seat 0 gets the first packet
    order = [35 - k for k in range(36)]
    for position, card in enumerate(order):
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 36 - position
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        seat = (position // 3) % 4
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, card).endswith(f"to S{seat}")
        state.apply_action(card)
    for seat in range(4):
        expected = {order[3 * (4 * r + seat) + j] for r in range(3) for j in range(3)}
        assert {int(c) for c in state.game.hands[seat]} == expected


# --- our checks ----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", HAND_PRESETS)
def test_returns_are_the_team_margin_and_sum_to_zero(preset: str) -> None:
    game = load(ruleset=preset)
    rng = random.Random(preset)
    for _ in range(40):
        *_, state = play(game, rng)
        returns = state.returns()
        scores = state.game.scores
        assert returns == [scores[0] - scores[1], scores[1] - scores[0]] * 2
        assert sum(returns) == 0
        assert game.min_utility() <= min(returns) <= max(returns) <= game.max_utility()
        assert state.rewards() == returns


def test_whole_game_returns_are_the_final_margin() -> None:
    game = load(ruleset="TOURNAMENT_12", episode="game")
    chance = 0
    for state in play(game, random.Random(3)):
        chance += state.is_chance_node()
        if not state.is_terminal():
            assert state.returns() == [0.0] * 4
    assert state.game.is_over
    assert len(state.game.hand_results) == 12
    assert chance == 12 * 36
    scores = state.game.scores
    assert state.returns() == [scores[0] - scores[1], scores[1] - scores[0]] * 2


@pytest.mark.parametrize("preset", HAND_PRESETS)
def test_legal_actions_are_the_games_at_every_decision(preset: str) -> None:
    game = load(ruleset=preset)
    rng = random.Random(preset)
    for _ in range(10):
        for state in play(game, rng):
            if state.is_chance_node() or state.is_terminal():
                continue
            player = state.current_player()
            legal = state.game.legal_actions()
            expected = sorted(a.index for a in legal if not isinstance(a, Thank))
            assert state.legal_actions() == expected
            assert state.legal_actions(player) == expected
            assert all(state.legal_actions(p) == [] for p in range(4) if p != player)
            assert player == int(state.game.to_move)
            mask = state.legal_actions_mask()
            assert [i for i, bit in enumerate(mask) if bit] == expected


def test_observation_tensor_is_the_public_encoding() -> None:
    game = load()
    rng = random.Random(5)
    for _ in range(5):
        for state in play(game, rng):
            dealing = state.is_chance_node()
            for player in range(4):
                observed = np.array(state.observation_tensor(player))
                expected = encode(state.game.view(player)).astype(np.float32)
                if dealing:  # the cards received so far, in the hand field
                    hand = FIELDS["hand"]
                    received = state.records()[-1].received(player)
                    assert {int(i) for i in np.nonzero(observed[hand])[0]} == set(
                        map(int, received)
                    )
                    observed[hand] = 0
                    expected[hand] = 0
                assert np.array_equal(observed, expected)
                assert state.observation_string(player)


def test_information_state_has_perfect_recall() -> None:
    game = load()
    state = game.new_initial_state()
    for card in range(36):
        state.apply_action(card)
    state.apply_action(40)  # seat 0 chooses Obenabe
    size = game.information_state_tensor_size()
    layout = {"seat": 4, "dealt": 36, "moves": 38 * (NUM_ACTIONS + 4)}
    for player in range(4):
        tensor = np.array(state.information_state_tensor(player))
        assert tensor.shape == (size,)
        assert tensor[:4].tolist() == [float(p == player) for p in range(4)]
        dealt = tensor[4 : 4 + 36]
        assert {int(i) for i in np.nonzero(dealt)[0]} == set(map(int, state.game.hands[player]))
        moves = tensor[40 : 40 + layout["moves"]].reshape(38, NUM_ACTIONS + 4)
        assert moves[0, 40] == 1  # the choice, by seat 0 relative to the player
        assert moves[0, NUM_ACTIONS + (0 - player) % 4] == 1
        assert moves[1:].sum() == 0
        view = tensor[40 + layout["moves"] :]
        assert np.array_equal(view, encode(state.game.view(player)))
    # Two orders of the same cards leave the same view but differ in the information state.
    first, second = state.clone(), state.clone()
    a, b = sorted(first.legal_actions())[:2]
    first.apply_action(a)
    first.apply_action(next(x for x in first.legal_actions()))
    second.apply_action(b)
    assert first.information_state_string(2) != second.information_state_string(2)
    assert "S0 choose OBENABE" in first.information_state_string(2)


def test_whole_game_information_state_keeps_earlier_hands() -> None:
    game = load(ruleset="TOURNAMENT_12", episode="game")
    rng = random.Random(8)
    state = game.new_initial_state()
    while len(state.records()) < 3:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    text = state.information_state_string(1)
    assert text.count("\nhand ") == 3
    assert "hand 1; dealer S0" in text  # the deal rotates
    tensor = np.array(state.information_state_tensor(1))
    assert tensor.shape == (game.information_state_tensor_size(),)
    dealt = tensor[4 : 4 + 12 * 36].reshape(12, 36)
    assert dealt[0].sum() == dealt[1].sum() == 9
    assert dealt[3:].sum() == 0


# --- resampling and ISMCTS -----------------------------------------------------------------


def hidden_hands(state: Any, player: int) -> tuple[Any, ...]:
    return tuple(h for seat, h in enumerate(state.game.hand_info.dealt) if seat != player)


@pytest.mark.parametrize("preset", ["SCHIEBER", "TRADITIONAL"])
def test_resampled_states_are_consistent_and_differ(preset: str) -> None:
    game = load(ruleset=preset)
    rng = random.Random(preset)
    for state in decision_states(game, rng, 12):
        for player in range(4):
            info = state.information_state_string(player)
            tensor = state.information_state_tensor(player)
            draws = []
            for _ in range(6):
                sampled = state.resample(player, rng)
                assert sampled.information_state_string(player) == info
                assert sampled.information_state_tensor(player) == tensor
                assert sampled.observation_tensor(player) == state.observation_tensor(player)
                assert sampled.current_player() == state.current_player()
                assert sampled.legal_actions() == state.legal_actions() or (
                    player != state.current_player()
                )
                assert len(sampled.history()) == len(state.history())
                assert sampled.game.hands[player] == state.game.hands[player]
                draws.append(hidden_hands(sampled, player))
            unknown = len(state.game.view(player).unknown())
            if unknown >= 6:
                assert len(set(draws)) > 1, "the hidden cards are drawn anew"


def test_resampling_during_the_deal_keeps_the_players_cards() -> None:
    state = load().new_initial_state()
    for card in range(20):
        state.apply_action(card)
    sampled = state.resample(1, random.Random(2))
    assert sampled.is_chance_node()
    assert sampled.information_state_string(1) == state.information_state_string(1)
    mine = state.records()[-1].received(1)
    assert sampled.records()[-1].received(1) == mine
    assert sampled.records()[-1].received(0) != state.records()[-1].received(0)


def test_resample_hooks() -> None:
    rng = random.Random(4)
    state = decision_states(load(), rng, 1)[0]
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    sampled = state.resample_from_infostate(player, sampler)
    assert sampled.information_state_string() == state.information_state_string()
    first = openspiel.make_resampler(9)(state, player)
    again = openspiel.make_resampler(9)(state, player)
    assert str(first) == str(again)  # seeded
    assert first.information_state_string() == state.information_state_string()


def ismcts_bot(game: Any, seed: int) -> Any:
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=20, random_state=np.random.RandomState(seed)
    )


@pytest.mark.parametrize("hook", ["set_resampler", "state_method"])
def test_python_ismcts_bot_plays_with_the_resampler(hook: str) -> None:
    game = load()
    bot = ismcts_bot(game, 1)
    if hook == "set_resampler":
        bot.set_resampler(openspiel.make_resampler(1))
    rng = random.Random(1)
    state = game.new_initial_state()
    moves = 0
    started = time.perf_counter()
    while not state.is_terminal() and moves < 4:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        action = int(bot.step(state))
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves == 4
    print(f"ISMCTS ({hook}): 4 moves of 20 simulations in {time.perf_counter() - started:.1f} s")


def test_phase_after_the_deal() -> None:
    state = load().new_initial_state()
    for card in range(36):
        state.apply_action(card)
    assert state.game.phase is Phase.CHOOSE
    assert state.action_to_string(0, 43) == "shove"
    assert state.action_to_string(0, 8) == "play AS"
