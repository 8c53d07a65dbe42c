"""The versioned observation encoding ``jass-obs-v1``: what one seat may know, as int8 0/1 bits.

:func:`encode` turns a :class:`~jass.PlayerView` into a vector of :data:`OBSERVATION_SIZE`
int8 values, each 0 or 1; :data:`FIELDS` names its parts, in order. Everything is relative
to the viewing seat: relative seat ``r = (seat - viewer) % 4`` is 0 for the viewer, 1 for the
next player in playing order, 2 for the partner and 3 for the previous player, and the
viewer's team comes first wherever there is one value per team. The docs page "Reinforcement
learning" writes the encoding down field by field, and ``tests/fixtures/encoding_v1.json``
pairs game records with their encodings, for other implementations to check against.

:func:`action_mask` gives the legal actions as an int8 mask over
:data:`~jass.engine.actions.NUM_ACTIONS`, and :class:`Encoder` keeps the four seats' encodings of a
game up to date step by step, writing only the bits that change.

>>> import jass
>>> g = jass.Game.new(seed=7).deal().choose("hearts")
>>> obs = encode(g.view(g.to_move))
>>> obs.dtype.name, obs.shape == (OBSERVATION_SIZE,), int(obs[FIELDS["hand"]].sum())
('int8', True, 9)
>>> [int(i) for i in action_mask(g).nonzero()[0]] == [a.index for a in g.legal_actions()]
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import numpy as np

from jass.engine.actions import DECLARE_WEIS_INDEX, NUM_ACTIONS, THANK_BASE, DeclareWeis
from jass.engine.game import Game
from jass.engine.inference import known_holdings, marker_holder
from jass.engine.view import PlayerView
from jass.envs import _layout as lay
from jass.envs._encoder import Encoder
from jass.envs._layout import ENCODING, FIELDS, OBSERVATION_SIZE
from jass.errors import InvalidInputError
from jass.rules import WeisDeclaration

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["ENCODING", "FIELDS", "OBSERVATION_SIZE", "Encoder", "action_mask", "encode"]

_SIZE: Final = OBSERVATION_SIZE
_MANUAL: Final = WeisDeclaration.MANUAL
_PLAY: Final = lay.PLAY


def _check_out(out: object, size: int, name: str) -> npt.NDArray[np.int8]:
    if not isinstance(out, np.ndarray):
        raise InvalidInputError(f"{name} must be a numpy array, got {type(out).__name__}")
    if out.dtype != np.int8 or out.shape != (size,):
        raise InvalidInputError(
            f"{name} must be an int8 array of shape ({size},), got {out.dtype} of shape {out.shape}"
        )
    return out


def _masks(sets: Any) -> lay.Masks:
    return int(sets[0]), int(sets[1]), int(sets[2]), int(sets[3])


# --- the one public encoder -----------------------------------------------------------------


def encode(view: PlayerView, out: npt.NDArray[np.int8] | None = None) -> npt.NDArray[np.int8]:
    """The ``jass-obs-v1`` encoding of what ``view``'s seat may know: int8 0/1 bits.

    Writes into ``out`` (an int8 array of shape ``(OBSERVATION_SIZE,)``) and returns it, or
    returns a new array. It reads only what the view tells, so two games that differ only
    in what the seat may not know give equal vectors.

    >>> import jass
    >>> g = jass.Game.new(seed=7).deal()
    >>> v = g.view(g.to_move)
    >>> obs = encode(v)
    >>> obs[FIELDS["to_move"]].tolist(), obs[FIELDS["phase"]].tolist()
    ([1, 0, 0, 0], [0, 1, 0, 0])
    >>> out = np.zeros(OBSERVATION_SIZE, dtype=np.int8)
    >>> encode(v, out) is out, bool((out == obs).all())
    (True, True)
    >>> encode(v, np.zeros(3, dtype=np.int8))
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: out must be an int8 array of shape (678,), got int8 of shape (3,)
    """
    if not isinstance(view, PlayerView):
        raise InvalidInputError(f"encode needs a PlayerView, got {type(view).__name__}")
    if out is not None:
        _check_out(out, _SIZE, "out")
    viewer = int(view.seat)
    played = [0, 0, 0, 0]
    for player, card in view.plays:
        played[player] |= 1 << card
    # view.known_cards(seat) for the other seats, with the shared part worked out once
    unplayed = ~(played[0] | played[1] | played[2] | played[3])
    marker = marker_holder(
        view.ruleset, view.hand_number, view.dealer, view.setup.dealer is not None
    )
    known = known_holdings(view.shown_weis, view.stoeck, view.contract, marker, view.ruleset)
    known = [cards & unplayed for cards in known]
    buf = bytearray(_SIZE)
    lay.write_cards(
        buf,
        0,
        viewer,
        int(view.hand),
        (played[0], played[1], played[2], played[3]),
        lay.trick_masks(view.trick, view.trick_leader),
        (known[0], known[1], known[2], known[3]),
        _masks(view.excluded),
    )
    lay.write_static(buf, 0, viewer, lay.view_static(view))
    lay.write_dynamic(buf, ((0, viewer),), lay.view_dynamic(view))
    vector = np.frombuffer(buf, dtype=np.int8)
    if out is None:
        return vector
    out[:] = vector
    return out


# --- the action mask ------------------------------------------------------------------------


def action_mask(
    view_or_game: PlayerView | Game, out: npt.NDArray[np.int8] | None = None
) -> npt.NDArray[np.int8]:
    """An int8 mask over :data:`~jass.engine.actions.NUM_ACTIONS`: 1 at each legal action's index.

    For a :class:`~jass.Game`, the actions of the seat to move; for a view, those of its seat
    (all zeros when it is not to move). Every declaration of Weis on offer has the number 47
    (:class:`~jass.DeclareWeis`). Writes into ``out`` (int8, shape ``(NUM_ACTIONS,)``) and
    returns it, or a new array.

    >>> import jass
    >>> g = jass.Game.new(jass.rules.TOURNAMENT_12, seed=1).deal()
    >>> action_mask(g).nonzero()[0].tolist()
    [36, 37, 38, 39, 40, 41, 43]
    >>> int(action_mask(g.view(g.to_move.next)).sum())
    0
    """
    if out is None:
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    else:
        mask = _check_out(out, NUM_ACTIONS, "out")
        mask.fill(0)
    if isinstance(view_or_game, PlayerView):
        to_move = view_or_game.to_move
        if to_move is None or to_move != view_or_game.seat:
            return mask
        game_phase = view_or_game.phase
        if game_phase is _PLAY:
            moves = int(view_or_game.legal_moves())
            thank = view_or_game.can_thank()
    elif isinstance(view_or_game, Game):
        to_move = view_or_game.to_move
        if to_move is None:
            return mask
        game_phase = view_or_game.phase
        if game_phase is _PLAY:
            moves = int(view_or_game.legal_moves())
            thank = view_or_game.can_thank(to_move & 1)
    else:
        raise InvalidInputError(
            f"action_mask needs a PlayerView or a Game, got {type(view_or_game).__name__}"
        )
    if game_phase is _PLAY:
        mask[:36] = np.frombuffer(lay.card_bytes(moves), dtype=np.int8)
        if thank:
            mask[THANK_BASE + (to_move & 1)] = 1
        if (
            view_or_game.ruleset.weis_declaration is _MANUAL  # a refusal's text costs more
            and view_or_game.can_declare_weis()
            and any(isinstance(action, DeclareWeis) for action in view_or_game.legal_actions())
        ):
            mask[DECLARE_WEIS_INDEX] = 1  # only under weis_declaration=MANUAL, in trick 1
        return mask
    for action in view_or_game.legal_actions():
        index = getattr(action, "index", None)
        if index is not None:
            mask[index] = 1
    return mask


# Encoder lives in a module of its own, for size; this is its public home.
Encoder.__module__ = __name__
