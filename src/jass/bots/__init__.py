"""Bots: the :class:`Bot` protocol and the baseline players.

A bot sees only its :class:`~jass.PlayerView` and returns one of
:meth:`~jass.PlayerView.legal_actions`: a contract or a shove, Weis to declare, a card, or a
thank. Ten lines make a bot:

>>> import random
>>> import jass
>>> class FirstCardBot:
...     def choose_action(self, view):
...         return view.legal_actions()[0]
>>> g = jass.Game.new(seed=1).deal()
>>> g = g.apply(FirstCardBot().choose_action(g.view(g.to_move)))
>>> g.phase.name
'PLAY'
"""

from jass.bots.base import Bot, RandomBot, play_game, play_hand
from jass.bots.montecarlo import MonteCarloBot
from jass.bots.rule import RuleBot
from jass.bots.search import SearchBot

__all__ = ["Bot", "MonteCarloBot", "RandomBot", "RuleBot", "SearchBot", "play_game", "play_hand"]
