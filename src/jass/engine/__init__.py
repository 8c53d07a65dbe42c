"""The state machine: actions, the records of a hand, crediting, :class:`Game` and the views.

The second layer of ``jass``, on top of :mod:`jass.core`: a :class:`~jass.engine.game.Game`
is an immutable state whose transitions (``deal``, ``shove``, ``choose``, ``play``,
``declare_weis``, ``thank``) call the rule functions of the layer below, and a
:class:`~jass.engine.view.PlayerView` is what one seat may know of it. This package imports
none of its modules; ``import jass`` gathers the public names.

>>> from jass.engine.game import Game
>>> from jass.rules import SCHIEBER
>>> game = Game.new(SCHIEBER, seed=1).deal()
>>> game.phase.name
'CHOOSE'
"""
