"""The Weis of a dealt hand, in JAX, read from tables of :func:`jass.find_weis` (private).

:func:`hand_weis` gives what :func:`jass.find_weis` finds in one hand: the points of all its
Weis, their cards, and for each contract the packed :func:`jass.core.weis.weis_key` of the
best one (the seat's position is added when the Weis are resolved). The Weis of each suit
pattern and of each quartet, their points, cards and keys, come from the tables of
:mod:`._tables`, built with find_weis and weis_key; what is computed here is how they
combine: with Kreuzweis every quartet and every sequence; without it the choice of
quartets that scores most, runs split only by quartets, as
``jass.core.weis._best_disjoint`` chooses it (rule book R7.4). The move-for-move test
(``tests/test_jax_env.py``) checks the result against the engine.

>>> import jax.numpy as jnp
>>> from jass import CardSet, rules
>>> from jass.envs.jax._tables import tables
>>> hand = CardSet.parse("6S 7S 8S 9S JH JD JC JS AC")
>>> bits = jnp.array([bool(int(hand) >> c & 1) for c in range(36)])
>>> t = device(tables(rules.SCHIEBER))
>>> total, cards, key = jax.jit(lambda h: hand_weis(t, h))(bits)
>>> int(total), int(cards.sum())
(250, 8)
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jass.envs.jax._tables import Tables

__all__: list[str] = []  # private: read by the environment only

Array = jax.Array
_RANK_BITS = 1 << np.arange(9, dtype=np.int32)
_RANKS = np.arange(9)
_SUITS = np.arange(4)
_BIG = 1 << 21  # above every packed neutral key


def device(t: Tables) -> Tables:
    """``t`` with every field a JAX array, the flags too, so tables can be traced arguments.

    >>> from jass import rules
    >>> from jass.envs.jax._tables import tables
    >>> type(device(tables(rules.SCHIEBER)).points).__name__
    'ArrayImpl'
    """
    fields: dict[str, Any] = {name: jnp.asarray(value) for name, value in t._asdict().items()}
    return Tables(**fields)


def hand_weis(t: Tables, hand: Array) -> tuple[Array, Array, Array]:
    """The Weis of ``hand`` (36 bools): their points, their cards, the best key by contract.

    The key is -1 for every contract when the hand holds no Weis.
    """
    patterns = (hand.reshape(4, 9) * _RANK_BITS).sum(-1).astype(jnp.int32)
    common = patterns[0] & patterns[1] & patterns[2] & patterns[3]
    held = ((common >> _RANKS) & 1).astype(bool) & (t.quartet_points > 0)
    # Without Kreuzweis: the quartets, lowest rank first, numbered as _best_disjoint does.
    first = jnp.argmax(held)
    later = held & (first < _RANKS)
    second = jnp.argmax(later)
    pick_first = (first == _RANKS) & held[first]
    pick_second = (second == _RANKS) & later[second]
    choices = jnp.stack([jnp.zeros(9, bool), pick_first, pick_second, pick_first | pick_second])
    removed = (choices * _RANK_BITS).sum(-1).astype(jnp.int32)
    rest = patterns[None, :] & ~removed[:, None]  # (4 choices, 4 suits)
    total = t.seq_points[_SUITS, rest].sum(-1) + (choices * t.quartet_points).sum(-1)
    top = jnp.maximum(
        t.seq_neutral[_SUITS, rest].max(-1), jnp.where(choices, t.quartet_neutral, -1).max(-1)
    )
    best = jnp.argmax(total * _BIG + top + 1)  # the first of the best, as ``>`` keeps it
    # With Kreuzweis: every quartet, and the sequences of the whole hand.
    chosen = jnp.where(t.kreuzweis, held, choices[best])
    kept = jnp.where(t.kreuzweis, patterns, rest[best])
    points = t.seq_points[_SUITS, kept].sum() + (chosen * t.quartet_points).sum()
    seq_cards = ((t.seq_ranks[_SUITS, kept][:, None] >> _RANKS) & 1).astype(bool).reshape(36)
    cards = seq_cards | jnp.tile(chosen, 4)
    key = jnp.maximum(
        t.seq_key[_SUITS, kept].max(0), jnp.where(chosen[:, None], t.quartet_key, -1).max(0)
    )
    return points, cards, key
