"""Determinization: complete deals drawn uniformly among those consistent with a view.

:func:`sample_deals` hands a bot that searches with perfect information (Monte Carlo over
deals) the worlds it may be in. Every deal it returns agrees with everything the view knows:
the seat's own cards, the cards played and by whom, the number of cards each seat still
holds, the Weis shown after trick 1, and the cards each seat cannot hold
(:attr:`~jass.PlayerView.excluded`).

The method is exact: the ways of giving the unseen cards to the other three seats that respect
where cards can and cannot be are counted by dynamic programming over the cards (with the
seats' remaining room as the state), and each deal is then drawn card by card with
probabilities proportional to those counts. A drawn deal must also explain the Weis declared
in trick 1 (each seat's declared points, and who won the Weis); one that does not is drawn
again (rejection keeps the draw uniform). So every consistent deal is equally likely; the test
suite measures it against a full enumeration.

One exception is documented: when rare Weis were declared (four Jacks with a sequence, say),
consistent deals can be too rare to find by drawing again. After 5,000 draws the sampler
returns the draw that explains the most declarations and counts it in
:attr:`DealSampler.fallbacks`.

>>> import jass, random
>>> g = jass.Game.new(seed=4).deal().choose("hearts")
>>> deals = sample_deals(g.view(g.to_move), 3, random.Random(1))
>>> all(deal[g.to_move] == g.hands[g.to_move] for deal in deals)
True
"""

from __future__ import annotations

import itertools
import random
from typing import Final

from jass._budgets import is_int
from jass.core.cards import CardSet
from jass.core.dealing import DealtHands
from jass.core.seats import Seat
from jass.core.weis import Weis, best_weis, find_weis, weis_key
from jass.engine.view import PlayerView
from jass.errors import InvalidInputError
from jass.rules import WeisDeclaration

__all__ = ["DealSampler", "sample_deals"]

_new_set: Final = int.__new__
_MAX_DRAWS: Final = 5_000


class DealSampler:
    """Draws deals consistent with one view; build it once and sample as often as needed.

    >>> import jass, random
    >>> g = jass.Game.new(seed=4).deal()
    >>> sampler = DealSampler(g.view(jass.Seat(0)))
    >>> sampler.count() > 10**11, len(sampler.sample(random.Random(2))[1])
    (True, 9)
    """

    def __init__(self, view: PlayerView) -> None:
        if view.hand_number is None:
            raise InvalidInputError("no cards have been dealt yet: there is nothing to sample")
        self._view = view
        self._others = [seat for seat in Seat if seat != view.seat]
        played_by = [0, 0, 0, 0]
        for seat, card in view.plays:
            played_by[seat] |= 1 << card
        self._played_by = played_by
        known = [int(view.known_cards(seat)) for seat in Seat]
        self._known = known
        pool = int(view.unknown())
        for seat in self._others:
            pool &= ~known[seat]
        self._cards = [card for card in range(36) if pool >> card & 1]
        self._need = [view.cards_left(seat) - len(CardSet(known[seat])) for seat in self._others]
        if sum(self._need) != len(self._cards) or min(self._need) < 0:
            raise InvalidInputError("the view is inconsistent: the unseen cards do not fit")
        # allowed[i]: for card i of the pool, which of the three other seats may hold it.
        excluded = [int(view.excluded[seat]) for seat in self._others]
        self._allowed = [tuple(not (bits >> card & 1) for bits in excluded) for card in self._cards]
        self._counts = self._count_table()
        #: How often :meth:`sample` fell back to a deal that does not explain every Weis.
        self.fallbacks = 0

    def _count_table(self) -> list[dict[tuple[int, int], int]]:
        """ways[i][(a, b)]: the assignments of cards i.. with room a, b left in seats 0, 1."""
        cards = len(self._cards)
        ways: list[dict[tuple[int, int], int]] = [{} for _ in range(cards + 1)]
        ways[cards][0, 0] = 1
        for i in range(cards - 1, -1, -1):
            left = cards - i  # cards still to place, i included
            first, second, third = self._allowed[i]
            row = ways[i]
            following = ways[i + 1]
            for a in range(min(self._need[0], left) + 1):
                for b in range(min(self._need[1], left - a) + 1):
                    if left - a - b > self._need[2]:
                        continue
                    total = 0
                    if first and a:
                        total += following.get((a - 1, b), 0)
                    if second and b:
                        total += following.get((a, b - 1), 0)
                    if third and left - a - b:
                        total += following.get((a, b), 0)
                    if total:
                        row[a, b] = total
        return ways

    def count(self) -> int:
        """How many deals are consistent with the view.

        >>> import jass
        >>> g = jass.Game.new(seed=4).deal()
        >>> DealSampler(g.view(jass.Seat(0))).count()  # 27! / (9!)**3
        227873431500
        """
        return self._counts[0].get((self._need[0], self._need[1]), 0)

    def sample(self, rng: random.Random) -> DealtHands:
        """One consistent deal, as the four hands dealt (played cards included), by seat.

        >>> import jass, random
        >>> g = jass.Game.new(seed=4).deal()
        >>> DealSampler(g.view(jass.Seat(0))).sample(random.Random(1))[0] == g.hands[0]
        True
        """
        best: tuple[int, DealtHands] | None = None
        for _ in range(_MAX_DRAWS):
            deal = self._draw(rng)
            unexplained = self._unexplained(deal)
            if not unexplained:
                return deal
            if best is None or unexplained < best[0]:
                best = (unexplained, deal)
        # Rare Weis declared (four Jacks, say) can make consistent deals too rare to draw:
        # fall back to the draw that explains the most, so that a bot never gets stuck.
        assert best is not None  # noqa: S101
        self.fallbacks += 1
        return best[1]

    def _explains_manual_weis(self, found: list[tuple[Weis, ...]], shown: list[list[Weis]]) -> bool:
        """Whether each seat holds what it showed, and a choice with its declared points.

        Under ``MANUAL`` a seat may declare part of its Weis; a seat of the losing team must
        have a choice that loses to the winner's best Weis.
        """
        view = self._view
        contract = view.contract
        assert contract is not None  # noqa: S101
        rules = view.ruleset
        forehand = Seat(((view.dealer or 0) + 1) & 3)
        winner = view.weis_winner
        best = None
        if winner is not None:
            best = max(
                weis_key(w, holder, contract, forehand, rules)
                for holder, w in view.shown_weis
                if holder == winner
            )
        for seat, points in enumerate(view.declared_points):
            if any(weis not in found[seat] for weis in shown[seat]):
                return False
            if points is None or shown[seat]:
                continue
            wanted = sorted(points)
            choices = [
                combo
                for size in range(len(wanted), len(wanted) + 1)
                for combo in itertools.combinations(found[seat], size)
                if sorted(w.points for w in combo) == wanted
            ]
            if not choices:
                return False
            if best is not None and not any(
                all(weis_key(w, seat, contract, forehand, rules) < best for w in combo)
                for combo in choices
            ):
                return False
        return True

    def _unexplained(self, deal: DealtHands) -> int:
        """How many seats' declared Weis ``deal`` fails to explain (0: it explains them all)."""
        if self._explains_weis(deal):
            return 0
        view = self._view
        found = [find_weis(deal[seat], view.ruleset) for seat in Seat]
        return 1 + sum(
            1
            for seat, points in enumerate(view.declared_points)
            if points is not None and points != tuple(w.points for w in found[seat])
        )

    def _explains_weis(self, deal: DealtHands) -> bool:
        """Whether ``deal`` explains the declared Weis: points, shown cards and winner."""
        view = self._view
        declared = view.declared_points
        if all(points is None for points in declared) or view.contract is None:
            return True
        rules = view.ruleset
        found = [find_weis(deal[seat], rules) for seat in Seat]
        shown: list[list[Weis]] = [[], [], [], []]
        for holder, weis in view.shown_weis:
            shown[holder].append(weis)
        if rules.weis_declaration is WeisDeclaration.MANUAL:
            return self._explains_manual_weis(found, shown)
        for seat, points in enumerate(declared):
            if points is not None and points != tuple(w.points for w in found[seat]):
                return False
            if shown[seat] and set(shown[seat]) != set(found[seat]):
                return False
        winner = view.weis_winner
        if winner is None:
            return True
        forehand = Seat((view.dealer or 0) + 1 & 3)
        best = best_weis(found, view.contract, forehand, rules)
        return best is not None and best[0] == winner

    def _draw(self, rng: random.Random) -> DealtHands:
        a, b = self._need[0], self._need[1]
        if not self._counts[0].get((a, b)):
            raise InvalidInputError("no deal is consistent with the view")
        bits = [0, 0, 0]
        ways = self._counts
        for i, card in enumerate(self._cards):
            left = len(self._cards) - i
            first, second, third = self._allowed[i]
            options = []
            if first and a:
                options.append((0, ways[i + 1].get((a - 1, b), 0)))
            if second and b:
                options.append((1, ways[i + 1].get((a, b - 1), 0)))
            if third and left - a - b:
                options.append((2, ways[i + 1].get((a, b), 0)))
            pick = rng.randrange(sum(weight for _, weight in options))
            holder = options[-1][0]
            for option, weight in options:
                if pick < weight:
                    holder = option
                    break
                pick -= weight
            bits[holder] |= 1 << card
            if holder == 0:
                a -= 1
            elif holder == 1:
                b -= 1
        view = self._view
        hands = [0, 0, 0, 0]
        hands[view.seat] = int(view.hand)
        for index, seat in enumerate(self._others):
            hands[seat] = bits[index] | self._known[seat]
        dealt = [_new_set(CardSet, hands[s] | self._played_by[s]) for s in range(4)]
        return (dealt[0], dealt[1], dealt[2], dealt[3])


def sample_deals(view: PlayerView, n: int, rng: random.Random) -> list[DealtHands]:
    """``n`` deals drawn uniformly among those consistent with ``view`` (see module docs).

    Each deal gives the four hands as dealt, by seat; the cards a seat still holds are its
    hand minus :attr:`~jass.PlayerView.played`.

    >>> import jass, random
    >>> g = jass.Game.new(seed=4).deal()
    >>> len(sample_deals(g.view(jass.Seat(2)), 5, random.Random(0)))
    5
    """
    if not is_int(n) or n < 0:
        raise InvalidInputError(f"the number of deals must be a non-negative int, got {n!r}")
    sampler = DealSampler(view)
    return [sampler.sample(rng) for _ in range(n)]
