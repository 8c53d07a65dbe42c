"""Zero-sum team rewards: team 0's margin over team 1 in a hand, by the ``reward`` option.

Both partners get their team's margin and the opponents its negative, so the four rewards of
a hand always sum to zero.

>>> import jass
>>> g = jass.Game.new(jass.rules.JASSKIT, seed=1).deal().choose("obenabe")
>>> while not g.is_over:
...     g = g.play(min(g.legal_moves()))
>>> margin = hand_margin(g, "score")
>>> margin == g.scores[0] - g.scores[1], hand_margin(g, "win") in (-1, 1)
(True, True)
"""

from __future__ import annotations

from jass.core.contracts import Contract
from jass.engine.game import Game

__all__ = ["hand_margin"]


def hand_margin(game: Game, reward: str) -> int:
    """Team 0's margin over team 1 in the game's current (or just finished) hand.

    ``reward`` chooses what counts:

    - ``"score"``: what the hand added to each team's running total (:attr:`jass.Game.scores`):
      its card points, match bonus, Weis and Stöck, all multiplied by the contract's
      multiplier. For a hand cut short by the end of the game, what it credited until then.
    - ``"points"``: the card points credited to each team in the hand, unmultiplied, with the
      last trick's 5 (:attr:`jass.HandScore.card_points`: 157 in all for a complete hand, and
      in Misère each team is credited the points its opponents took); no match bonus, Weis or
      Stöck. For a hand cut short, the points of its completed tricks.
    - ``"win"``: +1 if team 0 wins, -1 if it loses, 0 for a draw. A hand that ends the game
      is won by the game's winner; any other hand by the team that scored more in it
      (``"score"``).

    >>> import jass
    >>> g = jass.Game.new(seed=3).deal()
    >>> hand_margin(g, "score"), hand_margin(g, "points"), hand_margin(g, "win")
    (0, 0, 0)
    """
    hand = game.hand_info
    if hand is None:
        return 0
    before = hand.scores_before
    scores = game.scores
    score = (scores[0] - before[0]) - (scores[1] - before[1])
    if reward == "score":
        return score
    if reward == "win":
        result = game.result
        if result is not None:
            return 0 if result.winner is None else 1 - 2 * int(result.winner)
        return (score > 0) - (score < 0)
    if game.hands_played > hand.number:  # the hand is complete and scored
        points = game.hand_results[-1].card_points
    else:
        points = game.hand_points
        if hand.contract == Contract.MISERE:
            points = (points[1], points[0])
    return points[0] - points[1]
