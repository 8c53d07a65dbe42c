"""The records of card values and analyses: CardValues, PlayAnalysis, Analysis.

Plain frozen records, filled in by :mod:`jass.search.worlds` (and returned by
:func:`jass.solver.card_values`, :func:`jass.solver.card_values_batch` and
:func:`jass.solver.analyze`).

>>> c = Card.parse("AS")
>>> CardValues({c: 3}, {c: 3}, {c: 80}, True, 1).best()
(Card.parse('AS'),)
"""

from __future__ import annotations

import attrs

from jass.core.cards import Card

__all__ = ["Analysis", "CardValues", "PlayAnalysis"]


@attrs.frozen
class CardValues:
    """The value of each legal card of one position.

    Attributes:
        differences: each legal card's difference (the side's points minus the opponents',
            bonuses counted), the proven lower bound when not exact.
        upper: each card's proven upper bound (equal to its difference when exact).
        points: what the side makes with each card (from its difference).
        exact: whether every value is exact.
        nodes: positions searched.

    >>> c = Card.parse("AS")
    >>> CardValues({c: 3}, {c: 3}, {c: 80}, True, 1).best()
    (Card.parse('AS'),)
    """

    differences: dict[Card, int]
    upper: dict[Card, int]
    points: dict[Card, int]
    exact: bool
    nodes: int

    def best(self) -> tuple[Card, ...]:
        """The cards of the highest value, ascending."""
        top = max(self.differences.values())
        return tuple(sorted(c for c, v in self.differences.items() if v == top))


@attrs.frozen
class PlayAnalysis:
    """One card played, double dummy.

    Attributes:
        action: the play's index in the game's history.
        hand: the hand's number in the game (0 first).
        trick: the trick's number in the hand (0-8).
        seat: who played it.
        card: the card played.
        best: the cards that keep the side's best value.
        lost: the points the card gave away (what the side makes with a best card, less what
            it makes after this one).
        points: what the side makes with this card and best play after it.
    """

    action: int
    hand: int
    trick: int
    seat: int
    card: Card
    best: tuple[Card, ...]
    lost: int
    points: int


@attrs.frozen
class Analysis:
    """The double-dummy analysis of a game: :class:`PlayAnalysis` of every card played.

    >>> play = PlayAnalysis(5, 0, 1, 1, Card.parse("AS"), (Card.parse("6S"),), 12, 40)
    >>> Analysis((play,)).key_plays() == (play,)
    True
    """

    plays: tuple[PlayAnalysis, ...]

    def key_plays(self, count: int = 3) -> tuple[PlayAnalysis, ...]:
        """The ``count`` plays that gave the most points away (earliest first on a tie)."""
        costly = sorted((p for p in self.plays if p.lost), key=lambda p: (-p.lost, p.action))
        return tuple(costly[:count])

    def text(self) -> str:
        """A table, one line a card; a star marks a card that gave points away."""
        lines = ["hand trick seat card  makes  lost  best"]
        for p in self.plays:
            mark = "*" if p.lost else " "
            best = " ".join(str(c) for c in p.best)
            lines.append(
                f"{p.hand:>4} {p.trick + 1:>5} {p.seat:>4} {p.card!s:>4}{mark} {p.points:>5}"
                f" {p.lost:>5}  {best}"
            )
        total = [sum(p.lost for p in self.plays if p.seat & 1 == team) for team in (0, 1)]
        lines.append(f"points given away: team 0 (seats 0, 2) {total[0]}, team 1 {total[1]}")
        return "\n".join(lines)
