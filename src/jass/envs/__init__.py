"""Reinforcement learning: the observation encoding (and, later, the environments).

This package needs the ``rl`` extra (``pip install 'jass[rl]'``, which brings NumPy); without
NumPy, importing it raises :class:`~jass.errors.MissingDependencyError` saying so. ``import
jass`` never imports it.

>>> import jass, jass.envs
>>> g = jass.Game.new(seed=1).deal()
>>> jass.envs.encode(g.view(0)).shape == (jass.envs.OBSERVATION_SIZE,)
True
"""

from __future__ import annotations

try:
    import numpy as np  # noqa: F401  (the extra's one hard requirement here)
except ImportError as exc:  # pragma: no cover - the test environment has NumPy
    from jass.errors import MissingDependencyError

    raise MissingDependencyError(
        f"jass.envs needs NumPy, which is not installed ({exc}): pip install 'jass[rl]'"
    ) from None

from jass.envs.encoding import ENCODING, FIELDS, OBSERVATION_SIZE, Encoder, action_mask, encode

__all__ = ["ENCODING", "FIELDS", "OBSERVATION_SIZE", "Encoder", "action_mask", "encode"]
