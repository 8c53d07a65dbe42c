"""Search support: the int-only play-out loop and the sampling of consistent deals.

The third layer of ``jass``, on top of :mod:`jass.engine`: :mod:`jass.search.fast` plays card
play on plain bitmasks for rollouts, and :mod:`jass.search.sampling` draws the deals a seat
may be in. The exact solver's public face is :mod:`jass.solver`; the bots in
:mod:`jass.bots` spend all of it.

>>> from jass.rules import SCHIEBER
>>> from jass.engine.game import Game
>>> import random
>>> from jass.search.sampling import sample_deals
>>> view = Game.new(SCHIEBER, seed=1).deal().view(0)
>>> len(sample_deals(view, 3, random.Random(2)))
3
"""
