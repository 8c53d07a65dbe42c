"""The vocabulary and the rules of the game, as pure functions on small ints (rule book §1-§10).

The bottom layer of ``jass``: cards and sets of cards, contracts, seats, the card-play
kernels, Weis, scoring and dealing. Nothing here knows about a game in progress; the state
machine in :mod:`jass.engine` is built on top. This package imports none of its modules, so
importing one module (say :mod:`jass.core.play`) loads only what that module needs.

>>> from jass.core.cards import Card
>>> from jass.core.contracts import Contract
>>> from jass.core.play import trick_winner
>>> from jass.core.suits import Suit
>>> trick = [Card.parse(name) for name in ("AH", "9H", "6H", "7H")]
>>> trick_winner(trick, Contract.trump(Suit.HEARTS))  # the Nell, second, beats the ace
1
"""
