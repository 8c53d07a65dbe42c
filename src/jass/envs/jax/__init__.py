"""Schieber in JAX: a batched environment, move for move the engine's game (``python-jass[jax]``).

:class:`JassEnv` follows pgx's conventions: it holds only static configuration, and
``state = env.init(key)`` / ``state = env.step(state, action)`` are pure, jittable and
vmappable. :class:`State` is a frozen dataclass registered as a pytree; its public fields
are ``current_player``, ``observation``, ``legal_action_mask``, ``rewards``, ``terminated``
and ``truncated``.

- **Actions** are the library's numbers (:func:`jass.action_from_index`,
  :data:`jass.NUM_ACTIONS`), so a mask or a policy carries over to :func:`jass.envs.raw_env`.
- **Observation**: the ``jass-obs-v1`` bytes of :func:`jass.envs.encode` for the seat to
  act (int8; the same bytes, tested step by step). A property, computed from the state
  when read: a compiled rollout whose policy does not read it does not pay for it.
- **Rewards**: ``raw_env()``'s default, ``reward="score"``: at the step that ends a hand,
  each seat gets its team's margin in what the hand added to the totals (multiplied,
  Weis and Stöck included); 0 at every other step.
- **At the end** (``terminated``): ``legal_action_mask`` is all ``False``,
  ``current_player`` is the seat that acted last and ``observation`` its view of the end.
  Stepping a finished state changes nothing and gives zero rewards.
- **Illegal actions** (outside the mask, or no action number): the episode ends, the actor
  gets ``illegal_reward`` (default -1) and the others 0, as pgx and :func:`jass.envs.aec_env`.
- :func:`auto_reset` restarts finished episodes inside a compiled loop.

Rule sets: the presets ``SCHIEBER``, ``SCHIEBER_1000``, ``BEGINNER`` and ``JASSKIT``, and
their variants; refused at construction, naming the option: ``first_hand_rule=MARKER_CARD``,
``dealer_rotation=WINNER_DEALS``, ``weis_requires_trick`` and ``end_mode=THANK``.

Importing :mod:`jass` or :mod:`jass.envs` never imports JAX; without JAX, importing this
package raises :class:`~jass.errors.MissingDependencyError` naming the extra.

>>> import jax
>>> env = JassEnv(ruleset="SCHIEBER", episode="hand")
>>> keys = jax.random.split(jax.random.key(0), 8)
>>> states = jax.eval_shape(jax.vmap(env.init), keys)  # the shapes, without running it
>>> states.legal_action_mask.shape, states.rewards.shape
((8, 48), (8, 4))
>>> jax.eval_shape(lambda k: jax.vmap(env.init)(k).observation, keys).shape  # read: computed
(8, 678)
"""

from __future__ import annotations

try:
    import jax  # noqa: F401  (the environment needs it)
except ImportError as exc:  # tests/test_env_extras.py hides it
    from jass.errors import MissingDependencyError

    raise MissingDependencyError(
        f"jass.envs.jax needs JAX, which is not installed ({exc}): pip install 'python-jass[jax]'"
    ) from None

from jass.envs.jax._state import State
from jass.envs.jax.env import JassEnv, auto_reset

__all__ = ["JassEnv", "State", "auto_reset"]

State.__module__ = __name__  # its home; JassEnv and auto_reset keep theirs (env.py)
