"""The PettingZoo AEC environment: PettingZoo's own tests, unmodified, and our checks."""

from __future__ import annotations

import pickle
import random
import re
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

pytest.importorskip("numpy", reason="needs the rl extra")
pytest.importorskip("gymnasium", reason="needs the rl extra")
pytest.importorskip("pettingzoo", reason="needs the rl extra")
import numpy as np
from pettingzoo.test import api_test, seed_test

import jass
from jass import (
    DeclareWeis,
    EndReason,
    Game,
    IllegalActionError,
    IllegalReason,
    InvalidInputError,
    Phase,
    Thank,
    rules,
)
from jass.envs import JassAECEnv, aec_env, encode, raw_env

# PettingZoo warns about any Dict observation of an environment not on its own list.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
]

OPTIONS: list[dict[str, Any]] = [
    {},
    {"episode": "game"},
    {"weis": "actions"},
    {"episode": "game", "weis": "actions", "thanks": "on_turn", "reward": "points"},
    {"ruleset": "traditional", "weis": "actions", "reward": "win"},
    {"episode": "game", "ruleset": "tournament_12"},
    {"episode": "game", "ruleset": rules.SCHIEBER_1000.evolve(end_mode="THANK")},
    {"episode": "game", "ruleset": "beginner", "thanks": "on_turn"},
]


def ids(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={v if isinstance(v, str) else 'custom'}" for k, v in options.items())


# --- PettingZoo's own tests -------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [{}, {"episode": "game"}, {"weis": "actions"}, {"episode": "game", "weis": "actions"}],
    ids=ids,
)
def test_pettingzoo_api_test(options: dict[str, Any]) -> None:
    api_test(aec_env(**options), num_cycles=1000)


@pytest.mark.parametrize(
    "options",
    [{}, {"episode": "game"}, {"weis": "actions"}, {"episode": "game", "weis": "actions"}],
    ids=ids,
)
def test_pettingzoo_seed_test(options: dict[str, Any]) -> None:
    seed_test(partial(aec_env, **options))


def test_pettingzoo_api_test_on_the_raw_environment_with_thanks() -> None:
    api_test(raw_env(thanks="on_turn", ruleset="schieber_1000"), num_cycles=1000)


def test_preset_of_the_weis_actions_test_has_weis() -> None:
    env = raw_env(weis="actions")
    assert env.ruleset.weis
    assert env.ruleset.weis_declaration is jass.rules.WeisDeclaration.MANUAL


# --- our checks: masked random play ------------------------------------------------------------


def offered(game: Game, env: JassAECEnv) -> set[int]:
    """The numbers the environment should offer: the game's legal actions, by its options."""
    numbers = set()
    for action in game.legal_actions():
        if isinstance(action, Thank) and env.thanks == "off":
            continue
        numbers.add(action.index)
    return numbers


def play_episode(
    env: JassAECEnv, rng: random.Random, policy: Callable[[list[int]], int] | None = None
) -> tuple[dict[str, float], int]:
    """Masked random play to the end of an episode, checking every step."""
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter(100_000):
        obs, reward, terminated, truncated, _info = env.last()
        totals[agent] += reward
        assert not truncated
        if terminated:
            env.step(None)
            continue
        game = env.game
        seat = int(agent.split("_")[1])
        assert game.to_move == seat
        mask = obs["action_mask"]
        assert mask.dtype == np.int8
        assert obs["observation"].dtype == np.int8
        legal = [int(i) for i in np.flatnonzero(mask)]
        assert set(legal) == offered(game, env)
        if steps % 7 == 0:
            assert (obs["observation"] == encode(game.view(seat))).all()
            other = f"player_{(seat + 1) % 4}"
            assert not env.observe(other)["action_mask"].any()
        action = policy(legal) if policy else rng.choice(legal)
        env.step(np.int64(action) if steps % 2 else action)
        steps += 1
    assert not env.agents, "every agent was stepped out"
    return totals, steps


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTIONS, ids=ids)
def test_every_episode_ends_zero_sum_with_the_game_legal_actions_as_mask(
    options: dict[str, Any],
) -> None:
    env = raw_env(**options)
    rng = random.Random(1)
    episodes = 12 if options.get("episode") == "game" else 40
    env.reset(seed=3)
    for episode in range(episodes):
        if episode:
            env.reset()
        start = env.game.scores
        totals, steps = play_episode(env, rng, _no_thanks)
        assert steps > 0
        game = env.game
        assert game.is_over or env.episode == "hand"
        assert game.is_over or game.phase is Phase.DEAL
        assert sum(totals.values()) == 0
        assert totals["player_0"] == totals["player_2"] == -totals["player_1"]
        assert totals["player_1"] == totals["player_3"]
        if env.reward_kind == "score":
            end = game.scores
            assert totals["player_0"] == (end[0] - start[0]) - (end[1] - start[1])


def _no_thanks(legal: list[int]) -> int:
    """A random policy that never thanks (unless nothing else is legal)."""
    choices = [a for a in legal if a not in (44, 45)] or legal
    return random.choice(choices)


def test_episode_hand_plays_one_hand_and_rewards_its_score() -> None:
    env = raw_env()
    env.reset(seed=9)
    totals, steps = play_episode(env, random.Random(2))
    game = env.game
    assert steps in range(37, 39)  # a contract (perhaps after a shove), then 36 cards
    assert len(game.hand_results) == 1
    score = game.hand_results[0]
    assert totals["player_0"] == score.totals[0] - score.totals[1]


def test_points_reward_is_the_hand_card_points_margin() -> None:
    env = raw_env(reward="points")
    rng = random.Random(4)
    env.reset(seed=1)
    for _ in range(20):
        totals, _ = play_episode(env, rng)
        points = env.game.hand_results[-1].card_points
        assert sum(points) == 157
        assert totals["player_0"] == points[0] - points[1]
        env.reset()


@pytest.mark.parametrize("ruleset", ["jasskit", "tournament_12", "schieber_1000"])
def test_win_reward_in_a_game(ruleset: str) -> None:
    env = raw_env(episode="game", ruleset=ruleset, reward="win")
    rng = random.Random(5)
    env.reset(seed=2)
    for _ in range(4):
        totals, _ = play_episode(env, rng)
        winner = env.game.winner
        expected = 0 if winner is None else 1 - 2 * int(winner)
        assert totals["player_0"] == expected
        env.reset()


def test_game_rewards_arrive_per_hand() -> None:
    env = raw_env(episode="game", ruleset="tournament_12")
    env.reset(seed=6)
    rewarded_steps = 0
    rng = random.Random(6)
    while env.agents:
        agent = env.agent_selection
        obs, _reward, terminated, _truncated, _info = env.last()
        if terminated:
            env.step(None)
            continue
        hands = len(env.game.hand_results)
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        if any(env.rewards.values()):
            rewarded_steps += 1
            assert len(env.game.hand_results) == hands + 1  # a hand was just scored
        assert env._cumulative_rewards.get(agent, 0.0) in (0.0, env.rewards.get(agent))
    assert 10 <= rewarded_steps <= 12  # a hand may end level
    assert env.game.result is not None
    assert env.game.result.reason is EndReason.HAND_LIMIT


# --- options -------------------------------------------------------------------------------------


def test_thank_end_mode_games_end_when_the_environment_thanks() -> None:
    ruleset = rules.SCHIEBER_1000.evolve(end_mode="THANK")
    for thanks in ("off", "on_turn"):
        env = raw_env(episode="game", ruleset=ruleset, thanks=thanks)
        env.reset(seed=8)
        play_episode(env, random.Random(8), _no_thanks)
        result = env.game.result
        assert result is not None
        assert result.reason is EndReason.THANKED
        assert max(result.scores) >= 1000
        if thanks == "on_turn":
            assert env.game.phase is Phase.OVER
            assert env.game.trick == ()  # thanked between hands


def test_thanks_on_turn_offers_the_mover_team_only() -> None:
    env = raw_env(thanks="on_turn")
    env.reset(seed=1)
    seat = int(env.agent_selection[-1])
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask[44 + seat % 2] == 1
    assert mask[44 + 1 - seat % 2] == 0
    with pytest.raises(IllegalActionError) as caught:
        env.step(44 + 1 - seat % 2)
    assert caught.value.reason is IllegalReason.THANK_NOT_ALLOWED
    env.step(44 + seat % 2)  # a false thank: the game is lost, the episode over
    assert all(env.terminations.values())
    assert env.game.result is not None
    assert env.game.result.reason is EndReason.FALSE_THANK


def test_thanks_off_never_offers_a_thank() -> None:
    env = raw_env(ruleset="schieber_1000")
    env.reset(seed=1)
    assert not env.observe(env.agent_selection)["action_mask"][44:46].any()
    with pytest.raises(IllegalActionError) as caught:
        env.step(44 + int(env.agent_selection[-1]) % 2)
    assert caught.value.reason is IllegalReason.THANK_NOT_ALLOWED
    assert "thanks='off'" in str(caught.value)


def test_weis_auto_forces_automatic_declaration() -> None:
    manual = rules.SCHIEBER.evolve(weis_declaration="MANUAL")
    assert raw_env(ruleset=manual).ruleset == rules.SCHIEBER
    assert raw_env(ruleset="beginner", weis="actions").ruleset == rules.BEGINNER  # no Weis


def test_weis_actions_declares_all_weis_with_47() -> None:
    env = raw_env(weis="actions")
    declared = 0
    for seed in range(30):
        env.reset(seed=seed)
        while env.agents and not declared:
            obs, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            mask = obs["action_mask"]
            assert mask[46] == 0
            game = env.game
            if mask[47]:
                seat = game.to_move
                assert seat is not None
                env.step(47)
                assert env.game.declared_weis[seat] == jass.find_weis(game.hands[seat], env.ruleset)
                assert env.agent_selection == f"player_{int(seat)}"  # now it plays its card
                assert not env.observe(env.agent_selection)["action_mask"][47]
                declared += 1
            else:
                legal = np.flatnonzero(mask)
                env.step(int(legal[0]))
        if declared:
            break
    assert declared


def test_declaring_nothing_is_playing_a_card() -> None:
    env = raw_env(weis="actions")
    env.reset(seed=0)
    with pytest.raises(IllegalActionError) as caught:
        env.step(46)
    assert caught.value.reason is IllegalReason.WRONG_PHASE  # still choosing a contract


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"episode": "match"}, "episode='match' is not an option"),
        ({"weis": "manual"}, "weis='manual'"),
        ({"thanks": "always"}, "thanks='always'"),
        ({"reward": "money"}, "reward='money'"),
        ({"ruleset": "bridge"}, "unknown rule set 'bridge'"),
        ({"ruleset": 3}, "ruleset must be a RuleSet"),
        ({"render_mode": "human"}, "render_mode='human'"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidInputError, match=re.escape(message)):
        raw_env(**options)


def test_unknown_reset_options_are_ignored() -> None:
    env = raw_env()
    env.reset(seed=1, options={"anything": 1})
    first = env.game.hands
    env.reset(seed=1)
    assert env.game.hands == first


# --- illegal actions ---------------------------------------------------------------------------


def test_raw_env_raises_for_an_illegal_action_and_changes_nothing() -> None:
    env = raw_env()
    env.reset(seed=3)
    game = env.game
    agent = env.agent_selection
    with pytest.raises(IllegalActionError) as caught:
        env.step(0)  # a card, while the contract is being chosen
    assert caught.value.reason is IllegalReason.WRONG_PHASE
    assert env.game is game
    assert env.agent_selection == agent
    for bad in (-1, 48, 2.5, "JH", None, True):
        with pytest.raises(InvalidInputError):
            env.step(bad)
    env.step(np.int32(40))  # NumPy integers are action numbers too
    assert env.game.contract == jass.Contract.OBENABE


def test_raw_env_refuses_a_card_the_rules_forbid() -> None:
    env = raw_env()
    env.reset(seed=3)
    env.step(40)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    game = env.game
    mover = game.to_move
    assert mover is not None
    held = game.hands[(int(mover) + 1) % 4].cards()[0]
    with pytest.raises(IllegalActionError) as caught:
        env.step(int(held))
    assert caught.value.reason is IllegalReason.NOT_IN_HAND


def test_wrapped_env_terminates_on_an_illegal_action(caplog: pytest.LogCaptureFixture) -> None:
    env = aec_env(illegal_reward=-5.0)
    env.reset(seed=3)
    agent = env.agent_selection
    env.last()
    env.step(0)
    assert "Illegal move" in caplog.text
    assert all(env.terminations.values())
    assert env.rewards[agent] == -5.0


def test_the_game_is_readable_through_the_wrappers() -> None:
    env = aec_env()
    env.reset(seed=4)
    assert isinstance(env.unwrapped, JassAECEnv)
    assert isinstance(env.unwrapped.game, Game)
    assert env.unwrapped.game.phase is Phase.CHOOSE


# --- seeding, pickling, rendering -----------------------------------------------------------------


def test_seeding_reproduces_deals_and_the_unseeded_resets_that_follow() -> None:
    first, second = raw_env(episode="game"), raw_env(episode="game")
    deals: list[list[object]] = [[], []]
    for env, record in zip((first, second), deals, strict=True):
        env.reset(seed=42)
        for _ in range(3):
            record.append(env.game.hands)
            env.reset()
    assert deals[0] == deals[1]
    assert len({str(h) for h in deals[0]}) == 3
    first.reset(seed=43)
    assert first.game.hands != deals[0][0]


def test_the_environment_pickles() -> None:
    env = raw_env(episode="game", weis="actions")
    copy = pickle.loads(pickle.dumps(env))
    assert copy.episode == "game"
    assert copy.ruleset == env.ruleset


_CARD = re.compile(r"\b(?:10|[6-9JQKA])[SHDC]\b")


def test_render_shows_the_acting_agent_view_and_no_hidden_card() -> None:
    env = raw_env(render_mode="ansi", weis="actions", thanks="on_turn")
    rng = random.Random(7)
    env.reset(seed=7)
    renders = 0
    while env.agents:
        obs, _, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        text = env.render()
        assert isinstance(text, str)
        game = env.game
        seat = game.to_move
        assert seat is not None
        assert text.startswith(f"player_{int(seat)} to move")
        hidden = {str(c) for s in range(4) if s != seat for c in game.hands[s]}
        assert not hidden & set(_CARD.findall(text))
        assert set(_CARD.findall(text.split("\nhand: ")[1].split("\n")[0])) == {
            str(c) for c in game.hands[seat]
        }
        renders += 1
        legal = [a for a in np.flatnonzero(obs["action_mask"]).tolist() if a not in (44, 45)]
        env.step(rng.choice(legal))
    assert renders >= 37


def test_render_without_a_mode_warns_and_returns_none() -> None:
    env = raw_env()
    env.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode"):
        assert env.render() is None


def test_a_raw_env_needs_a_reset() -> None:
    env = raw_env()
    with pytest.raises(InvalidInputError, match="reset"):
        _ = env.game
    with pytest.raises(InvalidInputError, match="reset"):
        env.observe("player_0")


def test_decisions_other_than_cards_and_the_deal_are_agent_steps() -> None:
    env = raw_env(episode="game", ruleset="jasskit")
    env.reset(seed=5)
    play_episode(env, random.Random(5))
    history = env.game.history
    assert sum(isinstance(a, jass.Deal) for a in history) == 1
    assert not any(isinstance(a, (Thank, DeclareWeis)) for a in history)


def test_win_reward_of_a_hand_is_the_sign_of_its_score() -> None:
    env = raw_env(reward="win")
    rng = random.Random(9)
    env.reset(seed=9)
    for _ in range(10):
        totals, _ = play_episode(env, rng)
        score = env.game.hand_results[-1].totals
        assert totals["player_0"] == (score[0] > score[1]) - (score[0] < score[1])
        env.reset()


def test_action_46_is_never_offered_even_while_declaring_is_open() -> None:
    env = raw_env(weis="actions")
    for seed in range(40):
        env.reset(seed=seed)
        env.step(40)  # Obenabe
        if env.observe(env.agent_selection)["action_mask"][47]:
            break
    else:
        pytest.fail("no hand with a Weis for the forehand")
    game = env.game
    assert game.can_declare_weis(())  # the rules would take an empty declaration
    with pytest.raises(IllegalActionError) as caught:
        env.step(46)
    assert caught.value.reason is IllegalReason.WEIS_NOT_DECLARABLE
    assert "play a card" in str(caught.value)
    assert env.game is game
