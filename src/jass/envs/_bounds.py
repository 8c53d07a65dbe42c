"""Bounds on what a hand can score under a rule set, for the environments' utility ranges.

A team's total for one hand is the contract's multiplier times its card points (at most
157), its match bonus, its Weis and its Stöck (R8.3-R8.6). :func:`max_hand_total` bounds that
sum over every contract the rule set allows, so the margin between the teams in one hand
(one team's total minus the other's, which is never negative) lies within
``±max_hand_total(ruleset)``. The Weis part is exact for one player
(:func:`max_weis_points`, the best nine-card hand) and doubled for a team, since the team
with the best Weis scores the Weis of both partners (R7.7).

>>> from jass import rules
>>> max_weis_points(rules.SCHIEBER), max_hand_total(rules.JASSKIT)
(370, 157)
"""

from __future__ import annotations

import functools
import itertools
from typing import Final

from jass.core.cards import CardSet
from jass.core.contracts import Contract, ContractKind
from jass.core.scoring import match_bonus
from jass.core.weis import find_weis
from jass.rules import RuleSet

__all__ = ["max_hand_total", "max_weis_points"]

_ALL_CARD_POINTS: Final = 157
_STOECK_POINTS: Final = 20
_HAND_SIZE: Final = 9
_SUIT: Final = 0x1FF


def max_weis_points(ruleset: RuleSet) -> int:
    """The most Weis points one nine-card hand can declare under ``ruleset`` (unmultiplied).

    Exact: the maximum of the points of :func:`~jass.find_weis` over every hand, found by
    combining the best sequences of each suit around the quartets the hand holds.

    >>> from jass import rules
    >>> max_weis_points(rules.SCHIEBER)  # four Jacks, four 9s and 9-10-J: 200 + 150 + 20
    370
    >>> max_weis_points(rules.TRADITIONAL)  # no Kreuzweis: the 9 and the Jack count once
    350
    >>> max_weis_points(rules.BEGINNER)
    0
    """
    if not ruleset.weis:
        return 0
    return _max_weis(ruleset.evolve(weis_declaration="AUTO"))


@functools.lru_cache(maxsize=32)
def _max_weis(ruleset: RuleSet) -> int:
    # Sequence points of each pattern of one suit (a suit alone holds no quartet).
    sequences = [sum(w.points for w in find_weis(CardSet(p), ruleset)) for p in range(512)]
    quartet = [
        sum(w.points for w in find_weis(CardSet(sum(1 << (9 * s + r) for s in range(4))), ruleset))
        for r in range(9)
    ]
    best = 0
    for size in range(_HAND_SIZE // 4 + 1):
        for held in itertools.combinations(range(9), size):
            # The hand holds (at least) the quartets of ``held``: each suit holds those ranks.
            needed = sum(1 << r for r in held)
            kept_sets = [()] if ruleset.kreuzweis else _subsets(held)
            for kept in kept_sets:
                # Without Kreuzweis the quartets ``kept`` are counted and their cards taken out
                # of the sequences (find_weis keeps the best such choice); with it, all count.
                counted = held if ruleset.kreuzweis else kept
                removed = sum(1 << r for r in kept)
                by_size = [-1] * (_HAND_SIZE + 1)
                for pattern in range(512):
                    if pattern & needed == needed:
                        count = pattern.bit_count()
                        if count <= _HAND_SIZE:
                            points = sequences[pattern & ~removed & _SUIT]
                            by_size[count] = max(by_size[count], points)
                total = _best_of_four_suits(by_size)
                if total >= 0:
                    best = max(best, total + sum(quartet[r] for r in counted))
    return best


def _subsets(items: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [c for n in range(len(items) + 1) for c in itertools.combinations(items, n)]


def _best_of_four_suits(by_size: list[int]) -> int:
    """The most points four suits can make with nine cards in all (-1: impossible)."""
    totals = [0] + [-1] * _HAND_SIZE  # best points with this many cards in the suits so far
    for _ in range(4):
        following = [-1] * (_HAND_SIZE + 1)
        for used, points in enumerate(totals):
            if points < 0:
                continue
            for count, extra in enumerate(by_size):
                if extra >= 0 and used + count <= _HAND_SIZE:
                    following[used + count] = max(following[used + count], points + extra)
        totals = following
    return totals[_HAND_SIZE]


def max_hand_total(ruleset: RuleSet) -> int:
    """An upper bound on what one team adds to its total in one hand, multiplied (R8.3-R8.6).

    The maximum over the allowed contracts of the multiplier times 157 card points, the
    larger match bonus (or counter-match), twice :func:`max_weis_points` and the Stöck. The
    other team's total is never negative, so this also bounds the margin of a hand.

    >>> from jass import rules
    >>> max_hand_total(rules.SCHIEBER)  # Obenabe x3: (157 + 100 + 2 x 370) x 3
    2991
    >>> max_hand_total(rules.TOURNAMENT_12)
    157
    """
    weis = 2 * max_weis_points(ruleset)
    bonus = max(match_bonus(declarer, ruleset) for declarer in (True, False))
    best = 0
    for contract in Contract.all():
        if contract not in ruleset.contracts:
            continue
        misere = contract.kind is ContractKind.MISERE
        stoeck = _STOECK_POINTS if ruleset.stoeck and contract.trump_suit is not None else 0
        points = _ALL_CARD_POINTS + (0 if misere else bonus) + weis + stoeck
        best = max(best, ruleset.multiplier(contract) * points)
    return best
