"""Schieber as a pure JAX environment: :class:`JassEnv` and :func:`auto_reset`.

pgx's conventions: the environment object holds only static configuration, and
``init(key)`` / ``step(state, action)`` are pure functions of arrays, jittable and
vmappable as they are. See :mod:`jass.envs.jax` for the semantics.

>>> import jax
>>> env = JassEnv(ruleset="SCHIEBER", episode="hand")
>>> init, step = jax.jit(env.init), jax.jit(env.step)
>>> state = init(jax.random.key(3))
>>> state.legal_action_mask.nonzero()[0].tolist()  # six contracts and the shove
[36, 37, 38, 39, 40, 41, 43]
>>> int(step(state, 43).current_player) == (int(state.current_player) + 2) % 4  # shoved
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Final

import jax
import jax.numpy as jnp
import numpy as np

from jass.engine.actions import NUM_ACTIONS
from jass.envs._layout import OBSERVATION_SIZE
from jass.envs.jax._game import (
    CHOOSE,
    DEAL,
    NO_CARD_KEEPS,
    OVER,
    choose,
    next_hand,
    play,
    start_game,
)
from jass.envs.jax._observe import action_mask
from jass.envs.jax._state import State, once
from jass.envs.jax._state import select as _select
from jass.envs.jax._tables import Tables, check_supported, tables
from jass.envs.jax._weis import device
from jass.envs.options import EPISODES, choice, ruleset_for
from jass.errors import InvalidInputError
from jass.rules import RuleSet

__all__ = ["JassEnv", "auto_reset", "start", "step"]

Array = jax.Array
_TEAM_SIGN: Final = np.array([1.0, -1.0, 1.0, -1.0], np.float32)


class JassEnv:
    """Schieber for four seats, batched with ``jax.vmap``: the library's game, in JAX.

    Args:
        ruleset: a :class:`~jass.RuleSet` or a preset's name. Weis are declared
            automatically (``weis_declaration=AUTO``, as ``raw_env(weis="auto")``). Options
            the environment does not play are refused (see :mod:`jass.envs.jax`).
        episode: ``"hand"`` (one hand of a new game) or ``"game"`` (a whole game).
        illegal_reward: the reward of a seat that takes an action outside the mask; the
            episode then ends, the other seats getting 0.

    >>> env = JassEnv(ruleset="beginner", episode="game")
    >>> env.ruleset.target, env.num_actions, env.observation_shape
    (1000, 48, (678,))
    >>> JassEnv(episode="match")
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: episode='match' is not an option; choose one of 'hand', 'game'
    """

    num_players: Final = 4
    num_actions: Final = NUM_ACTIONS
    observation_shape: Final = (OBSERVATION_SIZE,)

    def __init__(
        self,
        ruleset: RuleSet | str = "SCHIEBER",
        episode: str = "hand",
        *,
        illegal_reward: float = -1.0,
    ) -> None:
        """Check the options and build the rule tables (no JAX work yet)."""
        self.episode: Final = choice("episode", episode, EPISODES)
        #: The rule set played: ``ruleset`` with Weis declared automatically.
        self.ruleset: Final = ruleset_for(ruleset, "auto")
        check_supported(self.ruleset)
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, int | float):
            raise InvalidInputError(f"illegal_reward must be a number, got {illegal_reward!r}")
        self.illegal_reward: Final = float(illegal_reward)
        self._tables = tables(self.ruleset)

    def __repr__(self) -> str:
        return f"JassEnv(episode={self.episode!r}, ruleset={self.ruleset!r})"

    # --- the pure functions -----------------------------------------------------------------

    def init(self, key: Array) -> State:
        """A new episode: a random deal from ``key`` and a random first dealer.

        >>> import jax
        >>> s = jax.eval_shape(JassEnv().init, jax.random.key(0))
        >>> s.legal_action_mask.shape, s.rewards.shape
        ((48,), (4,))
        """
        return start(self._device(), key, jnp.zeros((0, 4, 36), bool), None)

    def init_from_deals(self, deals: Any, dealer: Any, key: Array | None = None) -> State:
        """A new episode from given deals: hand k is ``deals[k]``, seat by seat.

        ``deals`` is a bool array of shape ``(n, 4, 36)`` (``deals[k, seat, card]``), and
        ``dealer`` (0-3) deals the first hand. Past ``n`` hands the environment deals from
        ``key`` (default ``jax.random.key(0)``). Concrete deals are checked: each must hand
        out every card once, nine to each seat.

        >>> import numpy as np
        >>> import jax
        >>> deals = np.zeros((1, 4, 36), bool)
        >>> for seat in range(4):
        ...     deals[0, seat, 9 * seat : 9 * seat + 9] = True
        >>> s = jax.eval_shape(lambda d: JassEnv().init_from_deals(d, 3), deals)
        >>> s._deals.shape
        (1, 4, 36)
        >>> JassEnv().init_from_deals(deals[:, :3], 0)
        Traceback (most recent call last):
        ...
        jass.errors.InvalidInputError: deals must have the shape (n, 4, 36), got (1, 3, 36)
        """
        deals = jnp.asarray(deals)
        if deals.ndim != 3 or deals.shape[1:] != (4, 36):
            raise InvalidInputError(f"deals must have the shape (n, 4, 36), got {deals.shape}")
        _check_concrete(deals, dealer)
        key = jax.random.key(0) if key is None else key
        return start(self._device(), key, deals.astype(bool), jnp.asarray(dealer, jnp.int32))

    def step(self, state: State, action: Any) -> State:
        """The state after the seat to act takes action number ``action``.

        A finished state comes back unchanged, with zero rewards. An action outside the
        mask ends the episode: the actor gets ``illegal_reward``, the others 0.

        >>> import jax
        >>> env = JassEnv()
        >>> s = jax.eval_shape(env.step, jax.eval_shape(env.init, jax.random.key(0)), 0)
        >>> s.rewards.shape, s.terminated.dtype.name
        ((4,), 'bool')
        """
        game = self.episode == "game"  # a Python bool: the other kind is not compiled
        return step(self._device(), state, action, game, jnp.float32(self.illegal_reward))

    def _device(self) -> Tables:
        return device(self._tables)


# --- the pure functions, with the tables and the episode kind as (traceable) arguments -------


def start(t: Tables, key: Array, deals: Array, dealer: Array | None) -> State:
    """The first state of an episode (see :meth:`JassEnv.init_from_deals`).

    >>> import jax
    >>> from jass import rules
    >>> from jass.envs.jax._tables import tables
    >>> t = device(tables(rules.JASSKIT))
    >>> none = jnp.zeros((0, 4, 36), bool)
    >>> jax.eval_shape(lambda key: start(t, key, none, None), jax.random.key(0)).rewards.shape
    (4,)
    """
    return _public(t, start_game(t, key, deals, dealer), None, jnp.zeros((), bool))


def step(t: Tables, state: State, action: Any, game: Any, illegal_reward: Any) -> State:
    """:meth:`JassEnv.step` under tables ``t``; ``game`` is ``episode == "game"``.

    ``game`` may be a Python bool (then only that kind of episode is compiled) or a traced
    bool (both are, as the tests do, to share one compiled program).

    >>> import jax
    >>> from jass import rules
    >>> from jass.envs.jax._tables import tables
    >>> t = device(tables(rules.JASSKIT))
    >>> first = jax.eval_shape(JassEnv("JASSKIT").init, jax.random.key(0))
    >>> jax.eval_shape(lambda s: step(t, s, 43, False, -1.0), first).terminated.shape
    ()
    """
    action = jnp.asarray(action, jnp.int32)
    index = jnp.clip(action, 0, NUM_ACTIONS - 1)
    legal = state.legal_action_mask[index] & (action == index)
    finished = state.terminated | state.truncated
    moved = _move(t, state, index, game)
    penalty = jnp.where(np.arange(4) == state.current_player, illegal_reward, 0.0)
    # A finished state stays as it is, with zero rewards; an illegal action ends it.
    kept = dataclasses.replace(
        state,
        rewards=jnp.where(finished, 0.0, penalty).astype(jnp.float32),
        terminated=jnp.ones((), bool),
        legal_action_mask=jnp.zeros(NUM_ACTIONS, bool),
    )
    return _select(finished | ~legal, kept, moved)


def _move(t: Tables, state: State, action: Array, game: Any) -> State:
    """The state after a legal ``action`` (both kinds of move computed, one kept)."""
    # A choice changes only small fields; the play of no card leaves the big ones as they
    # are, so only the small fields are merged (the play is the common, costly path).
    choosing = state._phase == CHOOSE
    played = play(t, state, jnp.where(choosing, -1, action))
    s = _select(choosing, choose(t, state, action), played, keep=NO_CARD_KEEPS)
    hand_over = (s._phase == DEAL) | (s._phase == OVER)
    gained = s._scores - s._scores_before
    margin = (gained[0] - gained[1]).astype(jnp.float32)
    rewards = jnp.where(hand_over, margin * _TEAM_SIGN, 0.0).astype(jnp.float32)
    if not isinstance(game, bool):
        s = _select(game & (s._phase == DEAL), next_hand(t, s), s)
    elif game:
        s = _select(s._phase == DEAL, next_hand(t, s), s)
    s = dataclasses.replace(s, rewards=rewards)
    return _public(t, s, state.current_player, ~jnp.asarray(game))


def _public(t: Tables, s: State, actor: Array | None, hand_episode: Array) -> State:
    """Fill the public fields from the game: who acts, what it sees, what it may do."""
    # Computed once: else XLA fuses the long scalar chains of a move (the crediting, the
    # phase) into each of the mask's 48 values, which was half of a step's time.
    s = _materialize(s)
    over = (s._phase == OVER) | (hand_episode & (s._phase == DEAL))
    current = s._to_move if actor is None else jnp.where(over, actor, s._to_move)
    current = current.astype(jnp.int32)
    return dataclasses.replace(
        s,
        current_player=current,
        legal_action_mask=action_mask(t, s) & ~over,
        terminated=over,
        truncated=jnp.zeros((), bool),
    )


def _materialize(s: State) -> State:
    """``s`` with its small fields computed once, before the mask reads them (see ``once``)."""
    small = {
        f.name: once(getattr(s, f.name))
        for f in dataclasses.fields(State)
        if f.name.startswith("_") and f.name != "_key" and getattr(s, f.name).size <= 4
    }
    return dataclasses.replace(s, **small)


def _check_concrete(deals: Array, dealer: Any) -> None:
    """Check concrete deals and dealer (traced ones, under ``jit`` or ``vmap``, pass)."""
    if isinstance(deals, jax.core.Tracer) or isinstance(dealer, jax.core.Tracer):
        return
    cards = np.asarray(deals, bool)
    if not (cards.sum(axis=1) == 1).all() or not (cards.sum(axis=2) == 9).all():
        raise InvalidInputError(
            "each deal must give every card to exactly one seat, nine cards to each"
        )
    value = np.asarray(dealer)
    if value.shape != () or not np.issubdtype(value.dtype, np.integer) or not 0 <= value < 4:
        raise InvalidInputError(f"dealer must be a seat, 0-3, got {dealer!r}")


def auto_reset(
    step: Callable[[State, Any], State], init: Callable[[Array], State]
) -> Callable[[State, Any, Array], State]:
    """``step`` that restarts a finished episode with ``init(key)``, for compiled loops.

    As in pgx: when a step ends the episode, the state returned is ``init(key)``'s, with
    that step's ``rewards`` and ``terminated=True``, so a learner sees the end; stepping
    it clears ``terminated`` and plays on in the new episode.

    >>> import jax
    >>> env = JassEnv(ruleset="jasskit")
    >>> key = jax.random.key(0)
    >>> s = jax.eval_shape(auto_reset(env.step, env.init), jax.eval_shape(env.init, key), 0, key)
    >>> s.legal_action_mask.shape
    (48,)
    """

    def stepped(state: State, action: Any, key: Array) -> State:
        state = dataclasses.replace(state, terminated=jnp.zeros((), bool))
        state = step(state, action)
        fresh = dataclasses.replace(init(key), rewards=state.rewards, terminated=state.terminated)
        return _select(state.terminated | state.truncated, fresh, state)

    return stepped
