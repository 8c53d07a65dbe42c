"""SeatEnv: Gymnasium's own checker, unmodified, and our own checks of one learning seat."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("numpy", reason="needs the rl extra")
pytest.importorskip("gymnasium", reason="needs the rl extra")
import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

import jass
from jass import Game, Phase, Seat, Team, Thank, rules
from jass.bots import Bot, MonteCarloBot, RandomBot, RuleBot, SearchBot
from jass.engine.view import PlayerView
from jass.envs import SEAT_ENV_ID, SeatEnv
from jass.envs.seat import make_bot_factory

OPTIONS: list[dict[str, Any]] = [
    {},
    {"render_mode": "ansi", "seat": 3, "partner": "rule"},
    {"episode": "game", "ruleset": "schieber-1000", "reward": "score", "opponents": "rule"},
    {"episode": "game", "ruleset": rules.TOURNAMENT_12.evolve(hands=2), "seat": 1},
    {"thanks": "on_turn", "ruleset": "schieber-1000", "episode": "game", "reward": "win"},
    {"weis": "actions", "reward": "points", "partner": "rule", "opponents": "rule"},
    {"ruleset": rules.SCHIEBER_1000.evolve(end_mode="THANK"), "episode": "game"},
]


# --- Gymnasium's checker ---------------------------------------------------------------


# Without a spec (gymnasium.make gives one) the checker warns that it cannot test render modes.
@pytest.mark.filterwarnings("ignore:.*alternative render modes:UserWarning")
@pytest.mark.parametrize("options", OPTIONS)
def test_check_env(options: dict[str, Any]) -> None:
    check_env(SeatEnv(**options))


@pytest.mark.parametrize("options", OPTIONS)
def test_check_env_of_the_registered_id_gives_no_warning(options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make(SEAT_ENV_ID, **options)
        check_env(env.unwrapped)
    assert isinstance(env.unwrapped, SeatEnv)


def test_make_by_module_path() -> None:
    env = gymnasium.make("jass.envs:jass/Seat-v0", seat=2)
    assert env.unwrapped.seat is Seat(2)  # type: ignore[attr-defined]


# --- helpers -----------------------------------------------------------------------------


def masked_actions(seed: int) -> Callable[[SeatEnv], int]:
    """A policy that picks a random legal action with its own generator."""
    rng = np.random.default_rng(seed)

    def policy(env: SeatEnv) -> int:
        return int(rng.choice(np.flatnonzero(env.action_masks())))

    return policy


def episode(
    env: SeatEnv, seed: int | None, policy: Callable[[SeatEnv], int]
) -> Iterator[tuple[np.ndarray[Any, Any], float, bool, bool, dict[str, Any]]]:
    """Reset, then step with ``policy`` to the end, yielding every step's return."""
    obs, info = env.reset(seed=seed)
    yield obs, 0.0, False, False, info
    done = False
    steps = 0
    while not done:
        obs, reward, done, truncated, info = env.step(policy(env))
        assert truncated is False
        steps += 1
        assert steps < 10_000
        yield obs, float(reward), done, truncated, info


def learner_legal(game: Game, thanks: str = "off") -> list[int]:
    """The numbers of the mover's legal actions (thanks as the option says)."""
    return sorted(
        {a.index for a in game.legal_actions() if thanks == "on_turn" or not isinstance(a, Thank)}
    )


def points_margin(game: Game, team: Team) -> int:
    """Card points of ``team`` minus its opponents', over the game's hands."""
    margin = 0
    for result in game.hand_results:
        margin += result.card_points[team] - result.card_points[team.other]
    info = game.hand_info
    if info is not None and info.number >= game.hands_played:
        margin += game.hand_points[team] - game.hand_points[team.other]
    return margin


# --- reproducibility ---------------------------------------------------------------------


def test_same_seed_same_episode() -> None:
    runs = []
    for _ in range(2):
        env = SeatEnv(opponents="random", partner="random")
        steps = list(episode(env, 11, masked_actions(5)))
        runs.append((steps, env.game))
    (first, game1), (second, game2) = runs
    assert game1 == game2
    assert len(first) == len(second)
    for a, b in zip(first, second, strict=True):
        assert (a[0] == b[0]).all()
        assert a[1:4] == b[1:4]
        assert (a[4]["action_mask"] == b[4]["action_mask"]).all()


def test_other_seeds_other_deals() -> None:
    env = SeatEnv()
    hands = set()
    for seed in range(5):
        env.reset(seed=seed)
        hands.add(env.game.hands)
    assert len(hands) == 5


def test_unseeded_resets_continue_from_np_random() -> None:
    games = []
    for _ in range(2):
        env = SeatEnv()
        env.reset(seed=3)
        env.reset()
        games.append(env.game)
    assert games[0] == games[1]
    env.reset(seed=3)
    assert env.game != games[0]


def test_bots_are_seeded_from_np_random() -> None:
    seeds: list[list[int]] = []

    def factory(seed: int) -> Bot:
        seeds[-1].append(seed)
        return RandomBot(seed)

    for _ in range(2):
        seeds.append([])
        env = SeatEnv(opponents=factory, partner=factory)
        env.reset(seed=8)
        env.reset(seed=9)
    assert len(seeds[0]) == 6
    assert seeds[0] == seeds[1]
    assert len(set(seeds[0])) == 6


def test_illegal_fallback_is_reproducible() -> None:
    games = []
    for _ in range(2):
        env = SeatEnv()
        for _ in episode(env, 4, lambda env: 0):  # mostly illegal
            pass
        games.append(env.game)
    assert games[0] == games[1]


# --- masks, episodes, rewards ------------------------------------------------------------


@pytest.mark.parametrize("options", OPTIONS)
def test_mask_is_the_learners_legal_actions(options: dict[str, Any]) -> None:
    env = SeatEnv(**options)
    thanks = options.get("thanks", "off")
    for seed in range(3):
        for _, _, done, _, info in episode(env, seed, masked_actions(seed)):
            mask = env.action_masks()
            assert mask.dtype == np.bool_
            assert mask.shape == (jass.NUM_ACTIONS,)
            assert info["action_mask"].dtype == np.int8
            assert (info["action_mask"] == mask).all()
            game = env.game
            if done:
                assert not mask.any()
            else:
                assert game.to_move is env.seat
                assert np.flatnonzero(mask).tolist() == learner_legal(game, thanks)


def test_thanking() -> None:
    env = SeatEnv(thanks="on_turn")
    env.reset(seed=1)
    thank = Thank(env.team).index
    assert env.action_masks()[thank]
    _, _, done, _, info = env.step(thank)
    assert done
    assert not info["illegal_action"]
    assert env.game.result is not None
    assert env.game.winner is env.team.other  # a false thank
    env = SeatEnv()
    env.reset(seed=1)
    assert not env.action_masks()[thank]


def test_hand_episodes_end_after_one_hand() -> None:
    env = SeatEnv()
    for seed in range(20):
        steps = list(episode(env, seed, masked_actions(seed)))
        assert 9 <= len(steps) - 1 <= 10  # nine cards, and perhaps the contract
        assert [done for _, _, done, _, _ in steps].count(True) == 1
        assert env.game.phase is Phase.DEAL
        assert len(env.game.hand_results) == 1


def test_game_episodes_end_with_the_game() -> None:
    env = SeatEnv(episode="game", ruleset="schieber-1000")
    for seed in range(3):
        for _ in episode(env, seed, masked_actions(seed)):
            pass
        assert env.game.is_over


def test_step_after_the_end_raises() -> None:
    env = SeatEnv()
    with pytest.raises(jass.InvalidInputError, match="reset"):
        env.step(0)
    for _ in episode(env, 1, masked_actions(1)):
        pass
    with pytest.raises(jass.InvalidInputError, match="reset"):
        env.step(0)


@pytest.mark.parametrize("seat", range(4))
@pytest.mark.parametrize(("episode_kind", "ruleset"), [("hand", "SCHIEBER"), ("game", "BEGINNER")])
def test_points_rewards_add_up_to_the_margin(seat: int, episode_kind: str, ruleset: str) -> None:
    env = SeatEnv(seat=seat, episode=episode_kind, ruleset=ruleset, reward="points")
    for seed in range(4):
        total = sum(step[1] for step in episode(env, seed, masked_actions(seed)))
        assert total == points_margin(env.game, env.team)
        assert -total == points_margin(env.game, env.team.other)
        if episode_kind == "hand":
            assert abs(total) <= 157


@pytest.mark.parametrize("seat", range(4))
def test_score_rewards_add_up_to_the_score_margin(seat: int) -> None:
    env = SeatEnv(seat=seat, episode="game", reward="score", ruleset="schieber-1000")
    for seed in range(3):
        total = sum(step[1] for step in episode(env, seed, masked_actions(seed)))
        scores = env.game.scores
        assert total == scores[env.team] - scores[env.team.other]


def rule_policy(env: SeatEnv) -> int:
    action = RuleBot().choose_action(env.game.view(env.seat))
    return action.index  # type: ignore[union-attr]


@pytest.mark.parametrize("reward", ["points", "score", "win"])
def test_zero_sum_between_the_teams(reward: str) -> None:
    # RuleBot everywhere: the same seed gives the same game from either team's seat.
    for seed in range(3):
        totals, games = [], []
        for seat in (0, 1):
            env = SeatEnv(seat=seat, opponents="rule", partner="rule", reward=reward)
            totals.append(sum(step[1] for step in episode(env, seed, rule_policy)))
            games.append(env.game)
        assert games[0] == games[1]
        assert totals[0] == -totals[1]
        assert totals[0] != 0


def test_rewards_arrive_when_a_hand_ends() -> None:
    env = SeatEnv(episode="game", ruleset="schieber-1000", reward="points")
    paid = 0
    for _, reward, done, _, _ in episode(env, 2, masked_actions(2)):
        if reward:
            paid += 1
            assert env.game.phase in (Phase.CHOOSE, Phase.PLAY) or done
            assert env.game.hands_played == paid or done
    assert 1 < paid <= len(env.game.hand_results) + 1


def test_win_rewards() -> None:
    env = SeatEnv(seat=1, reward="win")
    for seed in range(10):
        steps = list(episode(env, seed, masked_actions(seed)))
        assert all(step[1] == 0 for step in steps[:-1])
        scores = env.game.hand_results[-1].totals
        margin = scores[1] - scores[0]
        assert steps[-1][1] == (margin > 0) - (margin < 0)


def test_win_rewards_in_a_game_count_the_game() -> None:
    env = SeatEnv(seat=3, reward="win", episode="game", ruleset="schieber-1000")
    for seed in range(3):
        steps = list(episode(env, seed, masked_actions(seed)))
        assert all(step[1] == 0 for step in steps[:-1])
        winner = env.game.winner
        assert steps[-1][1] == (0 if winner is None else 1 if winner is env.team else -1)


def test_weis_as_actions() -> None:
    env = SeatEnv(weis="actions", partner="rule", opponents="rule")
    assert env.ruleset.weis_declaration.name == "MANUAL"
    declared = 0
    for seed in range(40):
        env.reset(seed=seed)
        while env.game.phase is Phase.PLAY and not env.game.tricks:
            if env.action_masks()[47]:
                weis = jass.find_weis(env.game.hands[env.seat], env.ruleset)
                env.step(47)
                assert env.game.declared_weis[env.seat] == weis
                declared += 1
                break
            if env.step(int(np.flatnonzero(env.action_masks())[0]))[2]:
                break
    assert declared > 0


# --- the illegal-action policy -----------------------------------------------------------


def test_an_illegal_action_costs_the_penalty_and_plays_a_legal_one() -> None:
    env = SeatEnv(illegal_reward=-1000)
    for seed in range(10):
        env.reset(seed=seed)
        game = env.game
        illegal = int(np.flatnonzero(~env.action_masks())[0])
        _, reward, _, _, info = env.step(illegal)
        assert info["illegal_action"] is True
        assert reward == -1000.0
        played = env.game.history[len(game.history)]
        assert played in game.legal_actions()
        assert played.index != illegal


@pytest.mark.parametrize("action", [-1, 48, 1000, np.int32(45), np.int64(44), np.array([44])])
def test_any_int_is_accepted(action: Any) -> None:
    env = SeatEnv()
    env.reset(seed=5)
    _, reward, _, _, info = env.step(action)
    assert info["illegal_action"] is True
    assert reward == -1.0


def test_legal_numpy_actions() -> None:
    env = SeatEnv()
    env.reset(seed=5)
    legal = np.flatnonzero(env.action_masks())
    _, _, _, _, info = env.step(legal[0])
    assert info["illegal_action"] is False


@pytest.mark.parametrize("action", ["3", 2.0, None, True])
def test_non_int_actions_raise(action: Any) -> None:
    env = SeatEnv()
    env.reset(seed=5)
    with pytest.raises(jass.InvalidInputError, match="must be an int"):
        env.step(action)


def test_a_masked_learner_never_pays() -> None:
    env = SeatEnv(episode="game", ruleset="schieber-1000")
    assert not any(step[4]["illegal_action"] for step in episode(env, 6, masked_actions(6)))


# --- options -----------------------------------------------------------------------------


def test_bot_kinds() -> None:
    assert isinstance(make_bot_factory("random")(1), RandomBot)
    assert isinstance(make_bot_factory(" Rule ")(1), RuleBot)
    bot = make_bot_factory("montecarlo")(1)
    assert isinstance(bot, MonteCarloBot)
    assert bot.time_limit is None
    assert bot.samples is not None
    search = make_bot_factory("search")(1)
    assert isinstance(search, SearchBot)
    assert search.time_limit is None
    assert search.samples is not None


def test_a_montecarlo_opponent_plays() -> None:
    factory = functools.partial(MonteCarloBot, samples=1, time_limit=None)
    env = SeatEnv(opponents=factory)
    steps = list(episode(env, 1, masked_actions(1)))
    assert steps[-1][2] is True


@pytest.mark.parametrize(
    "options",
    [
        {"opponents": "human"},
        {"partner": RandomBot()},
        {"seat": 4},
        {"seat": True},
        {"ruleset": "bridge"},
        {"ruleset": 3},
        {"episode": "match"},
        {"reward": "wins"},
        {"thanks": "always"},
        {"weis": "manual"},
        {"render_mode": "human"},
    ],
)
def test_bad_options_raise(options: dict[str, Any]) -> None:
    with pytest.raises(jass.InvalidInputError):
        SeatEnv(**options)


def test_spaces() -> None:
    env = SeatEnv()
    assert env.action_space.n == jass.NUM_ACTIONS
    assert env.observation_space.shape == (jass.envs.OBSERVATION_SIZE,)
    assert env.observation_space.dtype == np.int8


@pytest.mark.parametrize("options", OPTIONS)
def test_observation_is_the_learners_encoding(options: dict[str, Any]) -> None:
    env = SeatEnv(**options)
    for seed in (4, 5):
        for obs, *_ in episode(env, seed, masked_actions(seed)):
            view: PlayerView = env.game.view(env.seat)
            assert (obs == jass.envs.encode(view)).all()


def test_render() -> None:
    env = SeatEnv(render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text is not None
    assert text.startswith("seat 0 (team 0) to move; hand 1")
    assert "legal: [36] TRUMP_SPADES" in text
    assert "thank" not in text  # thanks="off"
    for _ in episode(env, 2, masked_actions(2)):
        pass
    text = env.render()
    assert text is not None
    assert "legal" not in text
    assert SeatEnv().render() is None


def test_game_before_reset_raises() -> None:
    with pytest.raises(jass.InvalidInputError, match="reset"):
        _ = SeatEnv().game
