"""The state of the JAX environment: a frozen dataclass registered as a pytree (private).

The public fields follow pgx; the private ones (a leading ``_``) hold the game. Every field
is an array, so a batch of states is one :class:`State` whose arrays have a leading batch
axis. The home of :class:`State` is :mod:`jass.envs.jax`.

>>> import dataclasses
>>> [f.name for f in dataclasses.fields(State)][:5]  # and the property ``observation``
['current_player', 'legal_action_mask', 'rewards', 'terminated', 'truncated']
"""

from __future__ import annotations

import dataclasses
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

__all__ = ["State"]

Array = jax.Array


@dataclasses.dataclass(frozen=True)
class State:
    """One state of the environment (or a batch of them): see :class:`jass.envs.jax.JassEnv`.

    Public fields (``observation`` is a property, computed from the others when read):
        current_player: the seat to act (int32, 0-3); at the end, the seat that acted last.
        observation: that seat's ``jass-obs-v1`` encoding (int8, 678 values).
        legal_action_mask: the legal action numbers (bool, 48); all ``False`` at the end.
        rewards: each seat's reward for the step that led here (float32, 4).
        terminated: whether the episode is over (bool).
        truncated: always ``False``: every episode ends by the rules (bool).

    The private fields hold the game: the hands, the cards played, the current trick, the
    contract, the Weis and Stöck of the hand, the running totals, the deals to come and the
    key the environment deals from.

    >>> from jass.envs.jax import JassEnv
    >>> state = jax.eval_shape(JassEnv().init, jax.random.key(0))
    >>> state.legal_action_mask.dtype.name, state.terminated.shape
    ('bool', ())
    >>> jax.eval_shape(lambda key: JassEnv().init(key).observation, jax.random.key(0)).dtype.name
    'int8'
    """

    current_player: Array
    legal_action_mask: Array
    rewards: Array
    terminated: Array
    truncated: Array
    _phase: Array  # index into jass.Phase: DEAL, CHOOSE, PLAY, OVER
    _to_move: Array  # the seat to act, -1 at the end
    _hands: Array  # (4, 36) bool: the cards each seat holds
    _played: Array  # (4, 36) bool: the cards each seat played this hand (current trick too)
    _excluded: Array  # (4, 36) bool: the cards each seat is known not to hold
    _trick: Array  # (4,) int32: the current trick's cards, leader first, -1 where none
    _trick_len: Array
    _leader: Array  # -1 when no trick is under way (between hands)
    _dealer: Array
    _hand_number: Array
    _contract: Array  # contract index, -1 before one is named
    _chooser: Array  # -1 before a contract is named
    _shoves: Array
    _points: Array  # (2,) card points taken this hand, by team
    _tricks_won: Array  # (2,)
    _scores: Array  # (2,) running totals
    _scores_before: Array  # (2,) the totals when the hand began
    _weis_total: Array  # (4,) the points of the Weis each seat holds (declared automatically)
    _weis_cards: Array  # (4, 36) bool: the cards of those Weis
    _weis_key: Array  # (4, 7): each seat's best Weis key by contract, -1 for none
    _weis_done: Array  # trick 1 is complete and the Weis resolved
    _weis_winner: Array  # the seat with the best Weis, -1 for none
    _weis_credit: Array  # (2,) unmultiplied Weis points credited this hand
    _stoeck_seat: Array  # the seat holding trump King and Queen, -1 for none
    _stoeck_done: Array  # the Stöck were scored (or shown to finish)
    _stoeck_credit: Array  # (2,) unmultiplied Stöck points credited this hand
    _deals: Array  # (n, 4, 36) bool: the deals given, hand k from deals[k]
    _key: Array  # the key of the deals past the given ones
    # What the observation reads of the rule tables, so it needs no tables.
    _multiplier: Array  # the contract's multiplier, 0 before one is named
    _pair: Array  # (36,) bool: the contract's Stöck pair (trump King and Queen), or none
    _weis_on: Array  # the rule set plays Weis
    _row: Array  # (36,) int32: the contract's rule data per card, packed (_game.pack_row)
    _trick_info: Array  # (4,) int32: that data of the current trick's cards, 0 where none

    @property
    def observation(self) -> Array:
        """The ``jass-obs-v1`` encoding for ``current_player`` (int8, 678; batched alike).

        Computed from the private fields when read, not stored: a compiled rollout whose
        policy does not read it does not compute it.

        >>> import jax
        >>> from jass.envs.jax import JassEnv
        >>> state = jax.jit(JassEnv().init)(jax.random.key(3))
        >>> state.observation.shape, str(state.observation.dtype)
        ((678,), 'int8')
        """
        from jass.envs.jax._observe import observation  # noqa: PLC0415 (a cycle)

        def one(state: State) -> Array:
            return observation(state, state.current_player)

        for _ in range(self.current_player.ndim):  # one vmap per batch axis
            one = jax.vmap(one)
        return one(self)


_FIELDS = tuple(f.name for f in dataclasses.fields(State))


def _flatten(state: State) -> tuple[tuple[Any, ...], None]:
    return tuple(getattr(state, name) for name in _FIELDS), None


def _unflatten(_: None, children: Any) -> State:
    return State(**dict(zip(_FIELDS, children, strict=True)))


jax.tree_util.register_pytree_node(State, _flatten, _unflatten)


def once(value: Any) -> Any:
    """``value`` (an int or bool array, or a pytree of them) computed once, where it is.

    XLA on the CPU fuses a chain of small work into each element of every wide user (the
    mask's 48 values, a hand's 36 cards), so a long chain of scalar steps ran many times
    over; an optimization barrier does not stop it, a reduction does. ``min(x, x + 1)``
    is ``x``, as a reduction it cannot see through.
    """

    def one(x: Array) -> Array:
        if jnp.issubdtype(x.dtype, jax.dtypes.prng_key):
            return x
        pair = x.astype(jnp.int32)[..., None] + np.arange(2, dtype=np.int32)
        return pair.min(-1).astype(x.dtype)

    return jax.tree_util.tree_map(one, value)


def select(flag: Array, yes: State, no: State, *, keep: frozenset[str] = frozenset()) -> State:
    """``yes`` where ``flag``, else ``no``, field by field (both are computed: no branch).

    A field that is the same value on both sides (one traced array) is kept as it is; a
    field named in ``keep`` takes ``no``'s value (the caller knows that it holds either way).
    No optimization barrier: on the CPU it made a step 1.5 times slower (see :func:`once`
    for what keeps XLA from repeating work).
    """
    picked = {}
    for name in _FIELDS:
        a, b = getattr(yes, name), getattr(no, name)
        if name in keep:
            picked[name] = b
        elif a is not b:
            picked[name] = jnp.where(flag, a, b)
    return dataclasses.replace(yes, **picked)
