"""The JAX environment's API and stated semantics (``jass.envs.jax``).

The end of an episode, stepping a finished state, illegal actions, ``auto_reset``, dealing
past the given deals, the checks of ``init_from_deals`` and the refused rule-set options;
the public methods (constant tables) against the engine; the extra kept optional.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("numpy", reason="needs the jax extra")
pytest.importorskip("jax", reason="needs the jax extra")
import jax
import jax.numpy as jnp
import numpy as np

from jass import Contract, rules
from jass.envs.jax import JassEnv, State, auto_reset
from jass.envs.jax._game import _random_deal, above, rows
from jass.errors import InvalidInputError
from tests import jax_replay as jr

Step = Callable[[State, Any], State]


@pytest.fixture(scope="module")
def jasskit() -> tuple[JassEnv, Callable[[Any], State], Step]:
    env = JassEnv(ruleset="JASSKIT")
    return env, jax.jit(env.init), jax.jit(env.step)


def _same(a: State, b: State) -> bool:
    return all(
        bool((x == y).all())
        for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b), strict=True)
        if x.dtype != object
    )


def _first_legal(state: State) -> int:
    return int(np.flatnonzero(np.asarray(state.legal_action_mask))[0])


def test_a_hand_to_its_end_and_past_it(jasskit: tuple[JassEnv, Any, Step]) -> None:
    _, init, step = jasskit
    state = init(jax.random.key(5))
    assert np.flatnonzero(state.legal_action_mask).tolist() == [36, 37, 38, 39, 40, 41, 43]
    steps = 0
    while not bool(state.terminated):
        actor = int(state.current_player)
        state = step(state, _first_legal(state))
        steps += 1
        if not bool(state.terminated):
            assert not state.rewards.any()
    assert steps == 37  # a contract and 36 cards
    assert int(state.current_player) == actor  # the last actor
    assert not state.legal_action_mask.any()  # the mask at the end
    margin = float(state.rewards[0])
    assert state.rewards.tolist() == [margin, -margin, margin, -margin]
    assert abs(margin) <= 157
    # Stepping a finished state changes nothing and gives zero rewards.
    again = step(state, 0)
    assert not again.rewards.any()
    assert _same(again, state.__class__(**{**state.__dict__, "rewards": again.rewards}))


def test_an_illegal_action_ends_the_episode_with_the_penalty(
    jasskit: tuple[JassEnv, Any, Step],
) -> None:
    _, init, step = jasskit
    state = init(jax.random.key(2))
    mover = int(state.current_player)
    for action in (0, 44, 99, -1):  # a card in the choice, a thank, no action numbers
        ended = step(state, action)
        assert bool(ended.terminated), action
        expected = [0.0] * 4
        expected[mover] = -1.0
        assert ended.rewards.tolist() == expected
        assert not ended.legal_action_mask.any()
    custom = JassEnv(ruleset="JASSKIT", illegal_reward=-5)
    assert custom.illegal_reward == -5.0


def test_auto_reset_restarts_inside_a_compiled_loop(jasskit: tuple[JassEnv, Any, Step]) -> None:
    env, init, _ = jasskit
    stepped = jax.jit(auto_reset(env.step, env.init))
    state = init(jax.random.key(1))
    ends = 0
    for index in range(80):
        state = stepped(state, _first_legal(state), jax.random.key(100 + index))
        if bool(state.terminated):
            ends += 1
            assert state.rewards.any()  # the final step's rewards are kept
            assert int(state._phase) == 1  # a new deal
            assert int(state._hands.sum()) == 36
            assert state.legal_action_mask.any()
    assert ends == 2  # 37 steps a hand


@pytest.mark.slow
def test_a_game_deals_past_the_given_deals() -> None:
    env = JassEnv(ruleset="BEGINNER", episode="game")
    episode = jr.engine_episodes(rules.BEGINNER, range(3, 4), "game", Counter())[0]
    step = jax.jit(env.step)
    state = env.init_from_deals(episode.deals[:1], episode.dealer)
    hands = set()
    for action in episode.actions:
        if int(state._phase) == 2 and not bool(state.legal_action_mask[action]):
            break  # past the first hand the deals differ from the engine's
        state = step(state, action)
        hands.add(int(state._hand_number))
    assert {0, 1} <= hands
    assert int(state._hands.sum() + state._played.sum()) == 36
    assert not bool(state.terminated)


def test_the_random_deal_is_argsorts() -> None:
    """_game._random_deal counts where jnp.argsort sorts: the same deals, each a valid one."""
    keys = jax.random.split(jax.random.key(11), 2000)
    dealt = np.asarray(jax.jit(jax.vmap(_random_deal))(keys))
    for key, deal in zip(keys[:200], dealt[:200], strict=True):
        place = np.argsort(np.asarray(jax.random.uniform(key, (36,))), kind="stable")
        assert (deal == ((place // 9)[None, :] == np.arange(4)[:, None])).all()
    assert (dealt.sum(axis=1) == 1).all()
    assert (dealt.sum(axis=2) == 9).all()
    assert len({d.tobytes() for d in dealt}) == 2000


def test_the_observation_is_read_per_state_under_any_batch_axes(
    jasskit: tuple[JassEnv, Any, Step],
) -> None:
    """``observation`` is computed when read; with two batch axes it is each state's own."""
    env, init, _ = jasskit
    keys = jax.random.split(jax.random.key(9), 6).reshape(2, 3)
    states = jax.jit(jax.vmap(jax.vmap(env.init)))(keys)
    seen = np.asarray(states.observation)
    assert seen.shape == (2, 3, 678)
    assert seen.dtype == np.int8
    for i in range(2):
        for j in range(3):
            one = init(keys[i, j])
            assert (np.asarray(one.observation) == seen[i, j]).all()
            hand = np.asarray(one._hands)[int(one.current_player)]  # the field ``hand`` first
            assert (seen[i, j, :36] == hand).all()
    assert len({seen[i, j].tobytes() for i in range(2) for j in range(3)}) == 6


@pytest.mark.slow
def test_the_public_methods_play_the_engines_hands() -> None:
    """JassEnv's own methods (tables as constants) agree with the engine, step by step."""
    env = JassEnv(ruleset="SCHIEBER_1000")
    step = jax.jit(env.step)
    start = jax.jit(env.init_from_deals)
    episodes = jr.engine_episodes(rules.SCHIEBER_1000, range(40), "hand", Counter())
    for e in episodes:
        state = start(e.deals, e.dealer)
        for index, action in enumerate([*e.actions, None]):
            assert int(state.current_player) == e.players[index]
            assert (np.asarray(state.legal_action_mask) == e.masks[index]).all()
            assert (np.asarray(state.observation) == e.observations[index]).all()
            if action is not None:
                state = step(state, action)
                assert (np.asarray(state.rewards) == e.rewards[index]).all()
        assert bool(state.terminated)


def test_init_from_deals_checks_its_input() -> None:
    env = JassEnv(ruleset="JASSKIT")
    deals = np.zeros((1, 4, 36), bool)
    for seat in range(4):
        deals[0, seat, 9 * seat : 9 * seat + 9] = True
    with pytest.raises(InvalidInputError, match="shape"):
        env.init_from_deals(deals[0], 0)
    twice = deals.copy()
    twice[0, 1, 0] = True
    with pytest.raises(InvalidInputError, match="every card to exactly one seat"):
        env.init_from_deals(twice, 0)
    with pytest.raises(InvalidInputError, match="dealer"):
        env.init_from_deals(deals, 4)
    state = jax.jit(env.init_from_deals)(deals, jnp.int32(3))  # traced: not checked here
    assert int(state.current_player) == 0
    assert state.observation[:9].tolist() == [1] * 9


@pytest.mark.parametrize(
    ("ruleset", "option"),
    [
        (rules.TRADITIONAL, "first_hand_rule"),
        (rules.SCHIEBER.evolve(dealer_rotation="WINNER_DEALS"), "dealer_rotation"),
        (rules.SCHIEBER.evolve(weis_requires_trick=True), "weis_requires_trick"),
        (rules.SCHIEBER.evolve(end_mode="THANK"), "end_mode"),
        (rules.SCHIEBER.evolve(ausmach_order="STOECK_STICH_WEIS"), "ausmach_order"),
    ],
)
def test_unsupported_options_are_refused_by_name(ruleset: rules.RuleSet, option: str) -> None:
    with pytest.raises(InvalidInputError, match=f"RuleSet option '{option}'"):
        JassEnv(ruleset=ruleset)


def test_supported_variants_are_accepted() -> None:
    for ruleset in (
        rules.TOURNAMENT_12,
        rules.SCHIEBER.evolve(contracts=rules.TRADITIONAL.contracts, small_weis=True),
        rules.SCHIEBER.evolve(undertrump_only_trumps="ONLY_IF_NO_HIGHER", allow_shove_back=True),
    ):
        assert JassEnv(ruleset=ruleset, episode="game").ruleset.weis_declaration.name == "AUTO"
    with pytest.raises(InvalidInputError, match="illegal_reward"):
        JassEnv(illegal_reward="no")  # type: ignore[arg-type]


def test_the_derived_overtrump_sets_are_the_contracts() -> None:
    """_game.above (from the strengths) is Contract.above, for every contract and card."""
    t = jr.traced_tables(rules.SCHIEBER)
    derived = jax.jit(lambda c: above(rows(t, c), rows(t, c).info))  # each card in order
    for contract in Contract.all():
        table = np.asarray(derived(contract.index))
        for card in range(36):
            expected = [bool(contract.above[card] >> other & 1) for other in range(36)]
            assert table[card].tolist() == expected, (contract, card)


def _run(hidden: list[str], code: str) -> dict[str, str]:
    script = "import sys\n" + "".join(f"sys.modules[{n!r}] = None\n" for n in hidden)
    done = subprocess.run(
        [sys.executable, "-c", script + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, str] = json.loads(done.stdout)
    return result


def test_jass_and_jass_envs_never_import_jax() -> None:
    result = _run(
        [],
        """
        import json, sys
        import jass, jass.envs
        jass.envs.encode(jass.Game.new(seed=1).deal().view(0))
        print(json.dumps({"jax": str("jax" in sys.modules)}))
    """,
    )
    assert result == {"jax": "False"}


def test_without_jax_the_error_names_the_extra() -> None:
    result = _run(
        ["jax"],
        """
        import json
        from jass.errors import MissingDependencyError
        import jass.envs
        try:
            import jass.envs.jax
            out = "imported"
        except MissingDependencyError as exc:
            out = str(exc)
        print(json.dumps({"error": out, "encode": str(jass.envs.OBSERVATION_SIZE)}))
    """,
    )
    assert "pip install 'python-jass[jax]'" in result["error"]
    assert result["encode"] == "678"
