"""The Weis of a dealt hand, in JAX, read from tables of :func:`jass.find_weis` (private).

:func:`hand_weis` gives what :func:`jass.find_weis` finds in one hand: the points of all its
Weis, their cards, and for each contract the comparison key of the best one. The Weis
themselves come from the tables of :mod:`._tables` (find_weis over every suit pattern and
every quartet); what is computed here is how they combine: with Kreuzweis every quartet and
every sequence; without it the choice of quartets that scores most, as
``jass.core.weis._best_disjoint`` chooses it (rule book R7.4). The key packs
:func:`jass.core.weis.weis_key` into one int: points, (quartet first,) cards, height
(reversed in Undenufe), trump; the seat's position is added when the Weis are resolved.
The move-for-move test (``tests/test_jax_env.py``) checks both against the engine.

>>> import jax.numpy as jnp
>>> from jass import CardSet, rules
>>> from jass.envs.jax._tables import tables
>>> hand = CardSet.parse("6S 7S 8S 9S JH JD JC JS AC")
>>> bits = jnp.array([bool(int(hand) >> c & 1) for c in range(36)])
>>> total, cards, key = hand_weis(device(tables(rules.SCHIEBER)), bits)
>>> int(total), int(cards.sum())
(250, 8)
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jass.envs.jax._tables import MAX_SEQUENCES, Tables

__all__ = ["device", "hand_weis", "neutral_key"]

Array = jax.Array
_RANK_BITS = 1 << np.arange(9, dtype=np.int32)
_SUITS = np.arange(4)
# The cards of a suit's 9-bit rank pattern, by suit: (4 suits, 512 patterns, 36 cards).
_PATTERN_CARDS = np.zeros((4, 512, 36), np.bool_)
for _suit in range(4):
    for _rank in range(9):
        _PATTERN_CARDS[_suit, :, 9 * _suit + _rank] = (np.arange(512) >> _rank) & 1
# The four cards of each rank.
_RANK_CARDS = np.zeros((9, 36), np.bool_)
for _rank in range(9):
    _RANK_CARDS[_rank, _rank::9] = True
_BIG = 1 << 21  # above every neutral key


def device(t: Tables) -> Tables:
    """``t`` with its arrays as JAX arrays (the flags stay Python values).

    >>> from jass import rules
    >>> from jass.envs.jax._tables import tables
    >>> type(device(tables(rules.SCHIEBER)).points).__name__
    'ArrayImpl'
    """
    fields: dict[str, Any] = {
        name: jnp.asarray(value) if isinstance(value, np.ndarray) else value
        for name, value in t._asdict().items()
    }
    return Tables(**fields)


def neutral_key(points: Array, quartet: Array, length: Array, top: Array, qfirst: bool) -> Array:
    """find_weis's contract-free order of a Weis as an int: bigger sorts first.

    ``jass.core.weis._neutral_key``: points, (quartet first,) cards, height, then the lower
    card number.

    >>> int(neutral_key(jnp.int32(20), jnp.bool_(False), jnp.int32(3), jnp.int32(2), False))
    1315833
    """
    flag = quartet.astype(jnp.int32) if qfirst else jnp.zeros_like(points)
    return (((points * 2 + flag) * 10 + length) * 9 + top % 9) * 36 + (35 - top)


def _sequences(t: Tables, patterns: Array) -> tuple[Array, Array, Array, Array]:
    """The sequences of the suit patterns (4,): points, length, top card, cards (slots, 36)."""
    points = t.seq_points[_SUITS, patterns].reshape(-1)
    length = t.seq_length[_SUITS, patterns].reshape(-1)
    top = t.seq_top[_SUITS, patterns].reshape(-1)
    ranks = t.seq_ranks[_SUITS, patterns]  # (4, slots)
    pattern_cards = jnp.asarray(_PATTERN_CARDS)
    cards = pattern_cards[_SUITS[:, None], ranks].reshape(4 * MAX_SEQUENCES, 36)
    return points, length, top, cards


def hand_weis(t: Tables, hand: Array) -> tuple[Array, Array, Array]:
    """The Weis of ``hand`` (36 bools): their points, their cards, the best key by contract.

    The key is -1 for every contract when the hand holds no Weis.
    """
    patterns = (hand.reshape(4, 9) * _RANK_BITS).sum(-1).astype(jnp.int32)
    common = patterns[0] & patterns[1] & patterns[2] & patterns[3]
    held = ((common >> np.arange(9)) & 1).astype(bool) & (t.quartet_points > 0)
    ranks = jnp.arange(9)
    q_length = jnp.full(9, 4, jnp.int32)
    q_top = ranks.astype(jnp.int32)  # the spade of the rank
    q_key = neutral_key(t.quartet_points, jnp.ones(9, bool), q_length, q_top, t.quartet_first)
    if t.kreuzweis:
        chosen = held
        seq = _sequences(t, patterns)
    else:
        # The quartets, lowest rank first, as _best_disjoint numbers its choices.
        first = jnp.argmax(held)
        has_first = held[first]
        later = held & (ranks > first)
        second = jnp.argmax(later)
        has_second = later[second]
        pick_first = (ranks == first) & has_first
        pick_second = (ranks == second) & has_second
        choices = jnp.stack(
            [jnp.zeros(9, bool), pick_first, pick_second, pick_first | pick_second]
        )  # (4, 9)
        removed = (choices * _RANK_BITS).sum(-1).astype(jnp.int32)  # (4,)
        rest = patterns[None, :] & ~removed[:, None]  # (4 choices, 4 suits)
        s_points, s_length, s_top, s_cards = jax.vmap(lambda p: _sequences(t, p))(rest)
        s_key = neutral_key(s_points, jnp.zeros_like(s_points, bool), s_length, s_top,
                            t.quartet_first)
        s_key = jnp.where(s_points > 0, s_key, -1)
        c_key = jnp.where(choices, q_key[None, :], -1)
        total = (s_points.sum(-1) + (choices * t.quartet_points).sum(-1))
        top = jnp.maximum(s_key.max(-1), c_key.max(-1))
        best = jnp.argmax(total * _BIG + top + 1)  # the first of the best, as ``>`` keeps it
        chosen = choices[best]
        seq = (s_points[best], s_length[best], s_top[best], s_cards[best])
    s_points, s_length, s_top, s_cards = seq
    total = s_points.sum() + (chosen * t.quartet_points).sum()
    cards = (s_cards & (s_points > 0)[:, None]).any(0) | (
        chosen[:, None] & jnp.asarray(_RANK_CARDS)
    ).any(0)
    # The best key under each contract (weis_key without the position).
    points = jnp.concatenate([s_points, jnp.where(chosen, t.quartet_points, 0)])
    valid = points > 0
    length = jnp.concatenate([s_length, q_length])
    top = jnp.concatenate([s_top, q_top])
    suit = jnp.concatenate([s_top // 9, jnp.full(9, -1, jnp.int32)])
    quartet = jnp.concatenate([jnp.zeros(s_points.shape, bool), jnp.ones(9, bool)])
    height = top % 9
    height = jnp.where(t.reverse_height[:, None] > 0, 8 - height[None, :], height[None, :])
    trump = (suit[None, :] >= 0) & (suit[None, :] == t.trump_suit[:, None])
    flag = quartet.astype(jnp.int32) if t.quartet_first else jnp.zeros_like(points)
    key = (((points * 2 + flag) * 10 + length)[None, :] * 9 + height) * 2 + trump
    key = jnp.where(valid[None, :], key, -1).max(-1)
    return total, cards, key
