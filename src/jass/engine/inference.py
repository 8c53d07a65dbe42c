"""The public inference: which cards each seat is known to hold, and known not to hold.

Every seat can work these out from what happened in the open, and they are written here
once: :class:`~jass.PlayerView` (``known_cards``, ``excluded``), the observation encoding
(:func:`jass.envs.encoding.encode` and its incremental ``Encoder``) and the deal sampler
(:mod:`jass.search.sampling`) all call these functions.

- **Known cards** (:func:`known_holdings`): a seat's shown Weis (rule book R7.8), the trump
  King and Queen of Stöck it showed (R8.1, R9.4), and in the first hand under
  ``first_hand_rule=MARKER_CARD`` the marker card, which the forehand holds (R3.7), unless
  the game was started with a given dealer, which overrides the rule (:func:`marker_holder`).
- **Excluded cards** (:func:`excluded_masks`): what each legal card shows its player cannot
  hold, one card at a time (:func:`play_exclusion`, which the fold calls card by card).

>>> from jass import Card, CardSet, Contract, Suit, rules
>>> from jass.core.ruledata import rule_data
>>> data = rule_data(Contract.trump(Suit.SPADES), rules.SCHIEBER)
>>> led, card = Card.parse("AH"), Card.parse("7D")  # neither followed nor trumped
>>> CardSet(play_exclusion(led, card, FULL, data)) == CardSet.parse("6H 7H 8H 9H 10H JH QH KH AH")
True
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Final

from jass.core.cards import SUIT_MASKS, Card, CardSet, Rank
from jass.core.contracts import Contract
from jass.core.ruledata import RuleData, rule_data
from jass.core.seats import Seat
from jass.core.weis import Weis
from jass.rules import FirstHandRule, RuleSet

__all__ = [
    "FULL",
    "excluded_cards",
    "excluded_masks",
    "known_holdings",
    "marker_holder",
    "play_exclusion",
]

#: Every card: the mask of "no trump in the trick yet" for :func:`play_exclusion`'s ``top``.
FULL: Final = (1 << 36) - 1
_SUIT_MASK_OF: Final = tuple(SUIT_MASKS[c // 9] for c in range(36))
_MARKER: Final = FirstHandRule.MARKER_CARD


def play_exclusion(led: int, card: int, top: int, data: RuleData) -> int:
    """The cards that playing legal ``card`` to a trick led by ``led`` shows its player lacks.

    ``top`` is the AND of ``data.above`` over the cards played to the trick before ``card``
    (:data:`FULL` if none was a trump): the trumps that beat every trump in it. A card of
    the led suit tells nothing. Otherwise (rule book R5.3-R5.5):

    - neither the led suit nor a trump: no card of the led suit (on a trump lead, no trump
      but perhaps the Buur, R5.4);
    - a trump under the trick's best trump on a plain lead: only trumps were held (R5.3d),
      and under ``ONLY_IF_NO_HIGHER`` none that would have beaten it (R5.3e).

    >>> from jass import Card, Contract, Suit, rules
    >>> from jass.core.ruledata import rule_data
    >>> data = rule_data(Contract.trump(Suit.HEARTS), rules.SCHIEBER)
    >>> top = FULL & data.above[Card.parse("9H")]  # the Nell was played before
    >>> CardSet(play_exclusion(Card.parse("AS"), Card.parse("6H"), top, data)).suit(Suit.HEARTS)
    CardSet.parse('')
    >>> len(CardSet(play_exclusion(Card.parse("AS"), Card.parse("6H"), top, data)))  # trumps only
    27
    """
    led_mask = _SUIT_MASK_OF[led]
    bit = 1 << card
    if bit & led_mask:
        return 0
    trumps = data.trump_mask
    if not bit & trumps:
        return led_mask & ~data.buur_mask if led_mask == trumps else led_mask
    if led_mask != trumps and top != FULL and not bit & top:
        return (FULL & ~trumps) | (top if data.strict_undertrump else 0)
    return 0


def excluded_masks(
    plays: Sequence[tuple[int, int]], data: RuleData, unchecked: Collection[int] = ()
) -> list[int]:
    """For each seat, the cards the cards played show it cannot hold, as int masks.

    ``plays`` are ``(seat, card)`` pairs of this hand in order, complete tricks of four then
    the current one. Each play whose index is in ``unchecked`` (a card another engine
    allowed, read from its records) tells nothing. This folds :func:`play_exclusion` over the
    plays.

    >>> from jass import Card, Contract, rules
    >>> from jass.core.ruledata import rule_data
    >>> plays = [(0, Card.parse("AH")), (1, Card.parse("6S"))]
    >>> CardSet(excluded_masks(plays, rule_data(Contract.OBENABE, rules.SCHIEBER))[1])
    CardSet.parse('6H 7H 8H 9H 10H JH QH KH AH')
    """
    excluded = [0, 0, 0, 0]
    above = data.above
    for start in range(0, len(plays), 4):
        led = plays[start][1]
        top = FULL
        for index in range(start + 1, min(start + 4, len(plays))):
            seat, card = plays[index]
            if index not in unchecked:
                excluded[seat] |= play_exclusion(led, card, top, data)
            top &= above[card]
    return excluded


def excluded_cards(
    plays: Sequence[tuple[Seat, Card]],
    contract: Contract,
    ruleset: RuleSet,
    *,
    unchecked: Collection[int] = (),
) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    """For each seat, the cards the rules show it cannot hold, from the cards played.

    :func:`excluded_masks` as card sets (see it, and :func:`play_exclusion`, for the rules).

    >>> from jass import Card, Contract, Seat, Suit, rules
    >>> plays = [(Seat(0), Card.parse("AH")), (Seat(1), Card.parse("6S"))]
    >>> excluded_cards(plays, Contract.OBENABE, rules.SCHIEBER)[1].suit(Suit.HEARTS)
    CardSet.parse('6H 7H 8H 9H 10H JH QH KH AH')
    """
    masks = excluded_masks(plays, rule_data(contract, ruleset), unchecked)
    return CardSet(masks[0]), CardSet(masks[1]), CardSet(masks[2]), CardSet(masks[3])


def marker_holder(
    ruleset: RuleSet, hand_number: int | None, dealer: Seat | int | None, given_dealer: bool
) -> int:
    """The seat known to hold the marker card, or -1 (rule book R3.7).

    In the first hand under ``first_hand_rule=MARKER_CARD``, the holder of the marker card
    leads, so the forehand (the seat after the dealer) is known to hold it, unless the
    game was started with a given dealer (``given_dealer``), which overrides the rule.

    >>> from jass import rules
    >>> marker = rules.TRADITIONAL
    >>> marker_holder(marker, 0, 2, False), marker_holder(marker, 0, 2, True)
    (3, -1)
    >>> marker_holder(marker, 1, 2, False), marker_holder(rules.SCHIEBER, 0, 2, False)
    (-1, -1)
    """
    if (
        hand_number == 0
        and dealer is not None
        and not given_dealer
        and ruleset.first_hand_rule is _MARKER
    ):
        return (dealer + 1) & 3
    return -1


def known_holdings(
    shown: Iterable[tuple[Seat, Weis]],
    stoeck: Seat | int | None,
    contract: Contract | None,
    marker: int,
    ruleset: RuleSet,
) -> list[int]:
    """The cards each seat is known to have held this hand, played or not, as int masks.

    ``shown`` are the Weis shown after trick 1 with their holders, ``stoeck`` the seat that
    showed Stöck, ``marker`` the seat known to hold the marker card (:func:`marker_holder`,
    -1 for none). Remove the cards played to get what each seat is known to hold now.

    >>> from jass import Contract, Suit, rules
    >>> known = known_holdings((), 1, Contract.trump(Suit.HEARTS), -1, rules.SCHIEBER)
    >>> [str(CardSet(k)) for k in known]
    ['', 'QH KH', '', '']
    """
    known = [0, 0, 0, 0]
    for holder, weis in shown:
        known[holder] |= int(weis.cards)
    suit = contract.trump_suit if contract is not None else None
    if stoeck is not None and suit is not None:
        known[stoeck] |= 1 << Card.of(suit, Rank.KING) | 1 << Card.of(suit, Rank.QUEEN)
    if marker >= 0:
        known[marker] |= 1 << ruleset.first_hand_marker
    return known
