"""Dealing: the seeded shuffle, the packets of three, and the draw for the first dealer.

Deals are pure functions of the game's seed and the hand's number, so a state never carries
a random generator and the same seed deals the same cards on every platform.

>>> hands = seeded_deal(7, 0, forehand=1)
>>> [len(h) for h in hands], CardSet().union(*hands) == CardSet.full()
([9, 9, 9, 9], True)
"""

from __future__ import annotations

import hashlib
import operator
import struct
from collections.abc import Iterable
from typing import Final

from jass.core.cards import CardSet
from jass.core.scoring import HandScore
from jass.core.seats import Seat
from jass.errors import InvalidInputError
from jass.rules import DealerRotation, FirstHandRule, RuleSet

__all__ = [
    "DealtHands",
    "check_deal",
    "draw_for_dealer",
    "next_dealer",
    "seeded_deal",
    "shuffled_deck",
]

#: Four hands, by seat.
DealtHands = tuple[CardSet, CardSet, CardSet, CardSet]

_new_set: Final = int.__new__
_KEYS: Final = struct.Struct(">36Q")
_TOPS: Final = struct.Struct(">" + "H6x" * 36)  # the top 16 bits of each key
# A list: its __getitem__ is cheaper to call through map() than a tuple's.
_BITS: Final = [1 << card for card in range(36)]
# For each forehand, for each seat, the deck positions it is dealt: packet p = 4r + k holds
# positions 3p..3p+2 and goes to seat forehand + k (rule book R3.5).
_PACKETS: Final = tuple(
    tuple(
        operator.itemgetter(
            *(3 * (4 * r + ((seat - forehand) & 3)) + j for r in range(3) for j in range(3))
        )
        for seat in range(4)
    )
    for forehand in range(4)
)


def shuffled_deck(seed: int, purpose: str, count: int = 36) -> list[int]:
    """The top ``count`` cards (indices) of a deck shuffled for ``seed`` and ``purpose``.

    Each card gets a 64-bit key from SHAKE-256 over the seed and purpose, and the deck is
    sorted by key. Every order is equally likely but for key ties, which happen with a
    probability below 10**-16 per shuffle (ties keep the natural order).

    >>> sorted(shuffled_deck(1, "demo")) == list(range(36)), shuffled_deck(1, "demo", 4)
    (True, [...])
    """
    digest = hashlib.shake_256(f"jass/{seed}/{purpose}".encode()).digest(288)
    return _deck_order(digest, count)


def _deck_order(digest: bytes, count: int) -> list[int]:
    """The ``count`` cards of smallest key in ``digest``, in key order, ties in card order.

    Card ``i``'s key is the ``i``-th big-endian 64-bit word. A few cards (the draw for the
    dealer) come from the keys' top 16 bits when those already rank them (cheaper to sort,
    and each names its card); else the whole keys are sorted, a list's ``__getitem__`` as
    the sort key (a tuple's is a slot wrapper, dearer to call).

    >>> keys = (30, 10, 20, 10, *range(40, 72))
    >>> digest = _KEYS.pack(*keys)
    >>> _deck_order(digest, 3), _deck_order(digest, 1), _deck_order(digest, 36)[:4]
    ([1, 3, 2], [1], [1, 3, 2, 0])
    """
    if count <= 4:
        tops = _TOPS.unpack(digest)
        first = sorted(tops)[: count + 1]
        if len(set(first)) == count + 1:  # all apart: the top bits alone rank these cards
            return [tops.index(top) for top in first[:count]]
    return sorted(range(36), key=list(_KEYS.unpack(digest)).__getitem__)[:count]


def seeded_deal(seed: int, number: int, forehand: int) -> DealtHands:
    """Deal hand ``number`` of the game with ``seed``, as rule book R3.5 describes.

    Three rounds of 3-card packets from the top of the shuffled deck, the forehand first.

    >>> seeded_deal(7, 0, 1) == seeded_deal(7, 0, 1), seeded_deal(7, 0, 1) == seeded_deal(7, 1, 1)
    (True, False)
    """
    deck = shuffled_deck(seed, f"deal/{number}")
    hands = [
        _new_set(CardSet, sum(map(_BITS.__getitem__, packets(deck))))
        for packets in _PACKETS[forehand & 3]
    ]
    return (hands[0], hands[1], hands[2], hands[3])


def draw_for_dealer(seed: int, *, lowest: bool) -> int:
    """Draw for the first deal (rule book R3.7): the seat that deals hand 1.

    From seat 0 on, each seat draws a card; the lowest (or highest) natural rank deals, suits
    ignored, and tied seats draw again among themselves.

    >>> draw_for_dealer(7, lowest=True) in range(4)
    True
    """
    seats = [0, 1, 2, 3]
    round_number = 0
    while len(seats) > 1:
        ranks = [card % 9 for card in shuffled_deck(seed, f"draw/{round_number}", len(seats))]
        best = min(ranks) if lowest else max(ranks)
        seats = [seat for seat, rank in zip(seats, ranks, strict=True) if rank == best]
        round_number += 1
    return seats[0]


def check_deal(hands: Iterable[CardSet | str]) -> DealtHands:
    """Validate an injected deal: four disjoint hands of nine cards, as card sets or names.

    >>> check_deal(["6S 7S", "", "", ""])
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: hand 0 of the deal has 2 cards, not 9
    """
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Iterable):
        raise InvalidInputError(f"a deal is four hands of nine cards, got {hands!r}")
    parsed = [CardSet.parse(h) if isinstance(h, str) else CardSet(h) for h in hands]
    if len(parsed) != 4:
        raise InvalidInputError(f"a deal has four hands, got {len(parsed)}")
    seen = 0
    for seat, cards in enumerate(parsed):
        if len(cards) != 9:
            raise InvalidInputError(f"hand {seat} of the deal has {len(cards)} cards, not 9")
        if seen & cards:
            raise InvalidInputError(
                f"hand {seat} of the deal repeats {CardSet(seen & cards)} from an earlier hand"
            )
        seen |= cards
    return (parsed[0], parsed[1], parsed[2], parsed[3])


def next_dealer(
    ruleset: RuleSet,
    seed: int,
    last_dealer: Seat | None,
    results: tuple[HandScore, ...],
    dealt: DealtHands | None,
) -> int:
    """The seat that deals the next hand (rule book R3.6-R3.8); -1 if ``dealt`` is needed first.

    The first hand's dealer comes from the draw, or from the holder of the marker card in
    ``dealt``; later dealers follow ``dealer_rotation``.

    >>> from jass import rules
    >>> next_dealer(rules.SCHIEBER, 7, Seat(3), (), None) == draw_for_dealer(7, lowest=True)
    True
    """
    if not results or last_dealer is None:
        hand_rule = ruleset.first_hand_rule
        if hand_rule is FirstHandRule.MARKER_CARD:
            if dealt is None:
                return -1
            marker = ruleset.first_hand_marker
            holder = next(seat for seat in range(4) if int(dealt[seat]) >> marker & 1)
            return (holder - 1) & 3
        return draw_for_dealer(seed, lowest=hand_rule is FirstHandRule.DRAW_LOWEST_DEALS)
    dealer = int(last_dealer)
    if ruleset.dealer_rotation is DealerRotation.WINNER_DEALS:
        totals = results[-1].totals
        if totals[0] != totals[1]:
            best = 1 if totals[1] > totals[0] else 0
            # The first seat from the old forehand on that belongs to the winning team.
            return next(s for s in ((dealer + 1) & 3, (dealer + 2) & 3) if s & 1 == best)
    return (dealer + 1) & 3
