"""Reinforcement learning: the observation encoding and the environments.

- :func:`raw_env` and :func:`aec_env`: Schieber as a PettingZoo AEC environment
  (:mod:`jass.envs.aec`).
- :class:`SeatEnv`: one learning seat as a Gymnasium environment, bots in the other three
  (:mod:`jass.envs.seat`).

This package needs the ``rl`` extra (``pip install 'jass[rl]'``, which brings NumPy,
Gymnasium and PettingZoo); without them, importing it raises
:class:`~jass.errors.MissingDependencyError` saying so. ``import jass`` never imports it.
Importing it registers :class:`SeatEnv` with Gymnasium as ``jass/Seat-v0``
(:data:`SEAT_ENV_ID`), so that ``gymnasium.make("jass/Seat-v0", **options)`` works; that is
all it does on import.

>>> import jass, jass.envs
>>> g = jass.Game.new(seed=1).deal()
>>> jass.envs.encode(g.view(0)).shape == (jass.envs.OBSERVATION_SIZE,)
True
>>> import gymnasium
>>> gymnasium.make("jass/Seat-v0", opponents="rule").unwrapped.seat
<Seat.S0: 0>
"""

from __future__ import annotations

try:
    import gymnasium
    import numpy as np  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - the test environment has the extra
    from jass.errors import MissingDependencyError

    raise MissingDependencyError(
        f"jass.envs needs the rl extra, which is not installed ({exc}): pip install 'jass[rl]'"
    ) from None

import gymnasium

from jass.envs.aec import JassAECEnv, aec_env, raw_env
from jass.envs.encoding import ENCODING, FIELDS, OBSERVATION_SIZE, Encoder, action_mask, encode
from jass.envs.seat import SeatEnv

__all__ = [
    "ENCODING",
    "FIELDS",
    "OBSERVATION_SIZE",
    "SEAT_ENV_ID",
    "Encoder",
    "JassAECEnv",
    "SeatEnv",
    "action_mask",
    "aec_env",
    "encode",
    "raw_env",
]

#: The Gymnasium id of :class:`SeatEnv`.
SEAT_ENV_ID = "jass/Seat-v0"

if SEAT_ENV_ID not in gymnasium.registry:
    gymnasium.register(id=SEAT_ENV_ID, entry_point="jass.envs.seat:SeatEnv")
