"""Reinforcement learning: the observation encoding and the environments.

- :func:`encode`, :func:`action_mask` and :class:`Encoder`: the versioned observation
  encoding (:mod:`jass.envs.encoding`); they need NumPy only.
- :func:`raw_env` and :func:`aec_env`: Schieber as a PettingZoo AEC environment
  (:mod:`jass.envs.aec`); they need PettingZoo and Gymnasium.
- :class:`SeatEnv`: one learning seat as a Gymnasium environment, bots in the other three
  (:mod:`jass.envs.seat`); it needs Gymnasium.
- :mod:`jass.envs.openspiel`: the OpenSpiel game; it needs OpenSpiel and NumPy only.

``pip install 'python-jass[rl]'`` brings NumPy, Gymnasium and PettingZoo, and
``pip install 'python-jass[openspiel]'`` brings OpenSpiel and NumPy. The environments are imported
on first use, so each needs only its own ecosystem: without it, using it raises
:class:`~jass.errors.MissingDependencyError` naming the extra. ``import jass`` never imports
this package. Where Gymnasium is installed, importing this package registers
:class:`SeatEnv` as ``jass/Seat-v0`` (:data:`SEAT_ENV_ID`), so that
``gymnasium.make("jass/Seat-v0", **options)`` works.

>>> import jass, jass.envs
>>> g = jass.Game.new(seed=1).deal()
>>> jass.envs.encode(g.view(0)).shape == (jass.envs.OBSERVATION_SIZE,)
True
>>> import gymnasium
>>> gymnasium.make("jass/Seat-v0", opponents="rule").unwrapped.seat
<Seat.S0: 0>
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any, Final

try:
    import numpy as np  # noqa: F401  (the encoding needs it)
except ImportError as exc:  # pragma: no cover - the test environment has NumPy
    from jass.errors import MissingDependencyError

    raise MissingDependencyError(
        f"jass.envs needs NumPy, which is not installed ({exc}): "
        "pip install 'python-jass[rl]' (or 'python-jass[openspiel]')"
    ) from None

from jass.envs.encoding import ENCODING, FIELDS, OBSERVATION_SIZE, Encoder, action_mask, encode

if TYPE_CHECKING:
    from jass.envs.aec import JassAECEnv, aec_env, raw_env
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

# The names that live in a module needing another ecosystem, imported on first use.
_LAZY: Final = {
    "JassAECEnv": "jass.envs.aec",
    "aec_env": "jass.envs.aec",
    "raw_env": "jass.envs.aec",
    "SeatEnv": "jass.envs.seat",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'jass.envs' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if importlib.util.find_spec("gymnasium") is not None:
    import gymnasium

    if SEAT_ENV_ID not in gymnasium.registry:
        gymnasium.register(id=SEAT_ENV_ID, entry_point="jass.envs.seat:SeatEnv")
