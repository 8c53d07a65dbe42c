"""The ``jass-obs-v1`` encoding and the action mask of a JAX state (private).

:func:`observation` writes, for one seat, exactly the bytes that
:func:`jass.envs.encoding.encode` writes for that seat's :class:`~jass.PlayerView`: the
fields of :data:`jass.envs.FIELDS` in order, relative to the viewer (the layout itself is
read from :mod:`jass.envs._layout`, so only the writing is re-implemented). The
move-for-move test compares the two byte for byte at every step.

>>> from jass.envs import FIELDS, OBSERVATION_SIZE
>>> sum(s.stop - s.start for s in FIELDS.values()) == OBSERVATION_SIZE
True
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from jass.envs import _layout as lay
from jass.envs.jax._game import CHOOSE, PLAY, legal_cards, take
from jass.envs.jax._state import State, once
from jass.envs.jax._tables import Tables

__all__: list[str] = []  # private: read by the environment only

Array = jax.Array
_SEATS = np.arange(4)


def _bits(value: Array, width: int, clip: int) -> Array:
    """``value`` clipped to ``[0, clip]`` as ``width`` bits, least significant first."""
    value = jnp.clip(value, 0, clip)
    return ((value[..., None] >> np.arange(width)) & 1).astype(jnp.int8)


def _one_hot(index: Array, size: int) -> Array:
    """A one-hot of ``size``, all zeros for a negative ``index``."""
    hot: Array = (np.arange(size) == index).astype(jnp.int8)
    return hot


def _seat(seat: Array, viewer: Array) -> Array:
    """Absolute ``seat`` (-1: none) as a relative one-hot of 4."""
    return jnp.where(seat >= 0, _one_hot((seat - viewer) & 3, 4), 0).astype(jnp.int8)


def _known(s: State) -> Array:
    """The cards each seat is known to hold, played or not (``_layout.known_base``)."""
    winner = s._weis_winner
    shown = (winner >= 0) & ((winner & 1) == (_SEATS & 1))
    known = s._weis_cards & shown[:, None]
    stoeck = (s._stoeck_seat == _SEATS) & s._stoeck_done & (s._contract >= 0)
    return known | (stoeck[:, None] & s._pair[None, :])


def observation(s: State, viewer: Array) -> Array:
    """Seat ``viewer``'s ``jass-obs-v1`` encoding of ``s`` (678 int8; it reads no tables)."""
    # perm[r, seat]: relative seat r is absolute seat; a select, not a gather (see take).
    perm = ((viewer + _SEATS[:, None]) & 3) == _SEATS[None, :]

    def relative(cards: Array) -> Array:
        cards = once(cards)  # else its work is repeated for each of the four seats
        return (perm[:, :, None] & cards[None, :, :]).any(1)

    unplayed = ~s._played.any(0)
    trick_seats = (s._leader + _SEATS) & 3  # the seat of each trick position
    in_trick = (s._trick_len > _SEATS) & (s._leader >= 0)
    by_seat = trick_seats[:, None] == _SEATS[None, :]  # (position, seat)
    by_card = s._trick[:, None] == np.arange(36)[None, :]  # (position, card)
    trick = (by_seat[:, :, None] & by_card[:, None, :] & in_trick[:, None, None]).any(0)
    known = _known(s) & unplayed[None, :]
    contract = s._contract
    multiplier = s._multiplier
    shoves = jnp.minimum(s._shoves, 2)
    phase = s._phase
    completed = s._tricks_won.sum()
    trick_number = jnp.where(phase == PLAY, jnp.minimum(completed, 8), -1)
    # Declared Weis: every seat once trick 1 is complete, else those who played in it (AUTO).
    weis_on = s._weis_on & (contract >= 0) & (phase != CHOOSE)
    forehand = (s._dealer + 1) & 3
    played_in_trick = ((_SEATS - forehand) & 3) < s._trick_len
    declared = weis_on & (s._weis_done | played_in_trick)
    declared_rel = (perm & declared[None, :]).any(1)
    weis_points = jnp.where(perm, jnp.where(declared, s._weis_total, 0)[None, :], 0).sum(1)
    own = viewer & 1

    def own_first(pair: Array) -> Array:
        return jnp.where(own == 0, pair, pair[::-1])

    parts = [
        take(s._hands, viewer).astype(jnp.int8),
        relative(s._played).reshape(-1).astype(jnp.int8),
        relative(trick).reshape(-1).astype(jnp.int8),
        relative(known)[1:].reshape(-1).astype(jnp.int8),
        relative(s._excluded)[1:].reshape(-1).astype(jnp.int8),
        _one_hot(contract, 7),
        jnp.where(multiplier > 0, _one_hot(jnp.minimum(multiplier, 4) - 1, 4), 0).astype(jnp.int8),
        _seat(s._chooser, viewer),
        jnp.stack([shoves >= 1, shoves >= 2]).astype(jnp.int8),
        _seat(s._to_move, viewer),
        _seat(s._leader, viewer),
        _seat(s._dealer, viewer),
        _one_hot(phase, 4),
        _one_hot(trick_number, 9),
        declared_rel.astype(jnp.int8),
        _bits(weis_points, 9, lay.MAX_WEIS).reshape(-1),
        _seat(s._weis_winner, viewer),
        _seat(jnp.where(s._stoeck_done, s._stoeck_seat, -1), viewer),
        _bits(own_first(s._points), 8, lay.MAX_HAND_POINTS).reshape(-1),
        _bits(own_first(s._scores), 13, lay.MAX_SCORE).reshape(-1),
        _bits(s._hand_number, 6, lay.MAX_HAND_NUMBER),
    ]
    return jnp.concatenate([once(part) for part in parts])


def action_mask(t: Tables, s: State) -> Array:
    """The legal action numbers of the seat to move (48 bools); none outside a choice."""
    choosing = s._phase == CHOOSE
    shove = (s._shoves == 0) | ((s._shoves == 1) & t.shove_back)
    choice = jnp.concatenate([jnp.zeros(36, bool), t.allowed, shove[None], jnp.zeros(4, bool)])
    cards = jnp.concatenate([legal_cards(t, s), jnp.zeros(12, bool)])
    return jnp.where(choosing, choice, cards & (s._phase == PLAY))
