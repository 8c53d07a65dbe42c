"""What every environment does between two decisions, written once (internal).

The PettingZoo AEC environment, Gymnasium's ``SeatEnv`` and the OpenSpiel game are adapters
over these functions: :func:`auto_thank` (the environment thanks for a team at the target,
rule book R9.2), and :func:`agent_mask` (the action mask an agent gets: the legal actions of
:func:`~jass.envs.encoding.action_mask`, thanking as the ``thanks`` option says, and the
one "declare every Weis" number under ``weis_declaration=MANUAL``).

>>> import jass
>>> g = jass.Game.new(seed=1).deal()
>>> auto_thank(g, "auto") is g  # nobody at the target
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import numpy as np

from jass.core.seats import Team
from jass.core.weis import find_weis
from jass.engine.actions import DECLARE_WEIS_INDEX, NUM_ACTIONS, THANK_BASE
from jass.engine.game import Game
from jass.engine.hand import Phase
from jass.envs._layout import card_bytes
from jass.envs.encoding import action_mask

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["agent_mask", "auto_thank"]

_DEAL: Final = Phase.DEAL
_ON_TURN: Final = (Phase.CHOOSE, Phase.PLAY)
_PLAY: Final = Phase.PLAY


def auto_thank(game: Game, thanks: str) -> Game:
    """``game`` after the environment thanks for a team at the target, if it does.

    With ``thanks="on_turn"`` the agents may thank and the environment thanks only between
    hands; otherwise it thanks as soon as a team is at the target (the higher total's team).

    >>> import jass
    >>> g = jass.Game.new(jass.rules.SCHIEBER_1000, seed=1, scores=(990, 0)).deal()
    >>> g = g.choose("obenabe")
    >>> while g.scores[0] < 1000:
    ...     g = g.play(g.legal_moves().cards()[0])
    >>> auto_thank(g, "auto").result.reason.name if not g.is_over else "over"
    'over'
    """
    if thanks == "on_turn" and game.phase is not _DEAL:
        return game
    scores = game.scores
    if game.is_over or max(scores) < game.ruleset.target:
        return game
    return game.thank(Team(1 if scores[1] > scores[0] else 0))


def agent_mask(
    game: Game, seat: int, out: npt.NDArray[np.int8], thanks: str, *, manual_weis: bool
) -> npt.NDArray[np.int8]:
    """The action mask of the agent at ``seat`` in ``game``, written into ``out``.

    All zeros unless ``seat`` is to move. Thanking is offered as the ``thanks`` option says
    (never when it is ``"off"``); under ``weis_declaration=MANUAL`` (``manual_weis``) the one
    number :data:`~jass.engine.actions.DECLARE_WEIS_INDEX` stands for declaring every Weis
    the seat holds.

    >>> import jass, numpy as np
    >>> g = jass.Game.new(seed=1).deal().choose("obenabe")
    >>> mask = agent_mask(g, int(g.to_move), np.zeros(48, np.int8), "off", manual_weis=False)
    >>> int(mask.sum()) == len(g.legal_moves())
    True
    """
    if game.to_move is None or game.to_move != seat or game.phase not in _ON_TURN:
        out.fill(0)
        return out
    if game.phase is _PLAY:
        # Every step of card play: the 48 bytes written at once (action_mask's own check of
        # ``out`` and its three writes cost as much again).
        extras = bytearray(NUM_ACTIONS - 36)
        if thanks != "off" and game.can_thank(seat & 1):
            extras[THANK_BASE - 36 + (seat & 1)] = 1
        out.data.cast("B")[:] = card_bytes(int(game.legal_moves())) + extras
    else:
        action_mask(game, out=out)
        if thanks == "off":
            out[THANK_BASE] = out[THANK_BASE + 1] = 0
    if manual_weis and game.can_declare_weis() and find_weis(game.hands[seat], game.ruleset):
        out[DECLARE_WEIS_INDEX] = 1
    return out
