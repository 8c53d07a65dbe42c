"""Pure rule functions of card play: legal cards, trick winner, trick points (rule book §5-§6).

They take plain values (a :class:`~jass.CardSet` hand, a trick as a sequence of cards in playing
order, a :class:`~jass.Contract`) and trust them: the state machine checks its input once, and
these functions stay fast enough for search.

Each rule has one kernel on plain ints here, which everything else calls: :func:`legal_mask`
(the legal cards, R5.5; :func:`legal_cards` is its :class:`~jass.CardSet` face) and
:func:`trick_winner` (R6.1-R6.2). The few copies inlined in search loops for speed say which
kernel they copy, and ``tests/test_kernels.py`` checks each against its kernel.

>>> from jass import CardSet, Contract, Suit
>>> spades = Contract.trump(Suit.SPADES)
>>> trick = Card.parse("AH"), Card.parse("8S")
>>> legal_cards(CardSet.parse("7S KH 6D"), trick, spades)
CardSet.parse('KH')
>>> trick_winner([Card.parse(c) for c in ("AH", "8S", "KH", "9S")], spades)
3
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import index as _bits
from typing import Final

from jass.core.cards import SUIT_MASKS, Card, CardSet, Suit, as_card
from jass.core.contracts import Contract
from jass.core.ruledata import RuleData, rule_data
from jass.errors import IllegalReason, InvalidInputError
from jass.rules import SCHIEBER, RuleSet

__all__ = ["explain_illegal", "legal_cards", "legal_mask", "trick_points", "trick_winner"]

_new_set: Final = int.__new__
#: The suit mask of each card's suit.
_SUIT_MASK_OF: Final = tuple(SUIT_MASKS[c // 9] for c in range(36))


def legal_mask(hand: int, trick: Sequence[int], data: RuleData) -> int:
    """The legal cards of ``hand`` on ``trick``, as an int mask: the kernel of rule book R5.5.

    ``hand`` is an int bitmask (bit ``i`` is card ``i``), ``trick`` the cards (ints) already
    played to the current trick, leader first, and ``data`` the rule data of the contract
    under the rule set (:func:`~jass.core.ruledata.rule_data`: its trump and Buur masks, and
    ``strict_undertrump`` for R5.3e). It trusts its input. Every other computation of the
    legal cards calls it; :func:`legal_cards` is its :class:`~jass.CardSet` face, and the
    copies inlined in the search loops (:mod:`jass.search.fast`) are tested against it.

    >>> from jass import CardSet, Contract, Suit, rules
    >>> from jass.core.ruledata import rule_data
    >>> hearts = rule_data(Contract.trump(Suit.HEARTS), rules.SCHIEBER)
    >>> hand = int(CardSet.parse("6H 9H 7D"))
    >>> CardSet(legal_mask(hand, [Card.parse("AS"), Card.parse("QH")], hearts))
    CardSet.parse('9H 7D')
    >>> legal_mask(hand, [], hearts) == hand  # the leader may play any card
    True
    """
    if not trick:
        return hand  # R5.1
    led = _SUIT_MASK_OF[trick[0]]
    follow = led & hand
    trumps = data.trump_mask
    if not trumps:
        return follow or hand  # R5.2
    held = trumps & hand
    if led == trumps:
        # Trump led: follow with any trump, unless the Buur is the only one (R5.4).
        return held if held & ~data.buur_mask else hand
    # The trumps that beat every trump in the trick (R5.3c).
    above = data.above
    over = held
    for card in trick:
        over &= above[card]
    if follow:
        return follow | over  # R5.3a
    if held == hand:
        return over if data.strict_undertrump and over else hand  # R5.3d/e: only trumps left
    return (~trumps & hand) | over  # R5.3b


def legal_cards(
    hand: CardSet, trick: Sequence[Card], contract: Contract, ruleset: RuleSet = SCHIEBER
) -> CardSet:
    """The cards of ``hand`` that may be played to ``trick`` (rule book R5.5).

    ``trick`` holds the cards already played to the current trick, leader first (empty when
    leading). ``ruleset`` matters only for ``undertrump_only_trumps``. This is
    :func:`legal_mask` on a :class:`~jass.CardSet`.

    >>> from jass import CardSet, Contract, Suit
    >>> hearts = Contract.trump(Suit.HEARTS)
    >>> # Trump led: the Buur alone need not follow, so any card may be played.
    >>> legal_cards(CardSet.parse("JH 6S 7S"), [Card.parse("AH")], hearts)
    CardSet.parse('6S 7S JH')
    >>> # Undertrumping is banned while the hand has other cards.
    >>> legal_cards(CardSet.parse("6H 9H 7D"), [Card.parse("AS"), Card.parse("QH")], hearts)
    CardSet.parse('9H 7D')
    """
    if not trick:
        # Inlined copy of play.legal_mask's R5.1 line: the leader's hand comes back as it is,
        # without a call (11% fewer instructions in benchmarks/bench_play.py);
        # cross-checked in tests/test_kernels.py.
        return hand
    return _new_set(CardSet, legal_mask(_bits(hand), trick, rule_data(contract, ruleset)))


def trick_winner(trick: Sequence[int], contract: Contract | RuleData) -> int:
    """The index in ``trick`` of the card that wins it, 0 being the leader (rule book §6).

    For an incomplete trick this is the card that holds it so far. This is the kernel of
    R6.1-R6.2: ``trick`` may hold :class:`~jass.Card` values or plain ints, ``contract`` is
    a :class:`~jass.Contract` or its :class:`~jass.core.ruledata.RuleData` (the same
    ``win_keys``), and every other
    computation of a trick's winner calls it (the copies inlined in the search loops of
    :mod:`jass.search.fast` and :mod:`jass.solver` are tested against it).

    >>> from jass import Card, Contract, Suit, trick_winner
    >>> cards = [Card.parse(c) for c in ("7D", "6C", "AC", "KD")]
    >>> trick_winner(cards, Contract.trump(Suit.CLUBS)), trick_winner(cards, Contract.UNDENUFE)
    (2, 0)
    """
    if not trick:
        raise InvalidInputError("trick_winner needs at least one card, got an empty trick")
    keys = contract.win_keys[trick[0] // 9]
    best = trick[0]
    top = keys[best]
    for card in trick:
        key = keys[card]
        if key > top:
            best, top = card, key
    return trick.index(best)  # the cards of a trick are distinct


def trick_points(
    trick: Sequence[Card],
    contract: Contract,
    ruleset: RuleSet = SCHIEBER,
    *,
    last: bool = False,
) -> int:
    """The card points of ``trick``, plus 5 if it is the ``last`` trick (unmultiplied).

    ``ruleset`` matters only for ``old_undenufe``.

    >>> from jass import Contract, Suit
    >>> trick_points([Card.parse(c) for c in ("AH", "8S", "KH", "9S")], Contract.trump(Suit.SPADES))
    29
    >>> trick_points([Card.parse("6D")], Contract.UNDENUFE, last=True)
    16
    """
    if not isinstance(contract, Contract):
        raise InvalidInputError(f"{contract!r} is not a Contract")
    data = rule_data(contract, ruleset)
    table = data.points
    points = data.last_trick_bonus if last else 0
    for card in trick:
        points += table[as_card(card)]
    return points


def explain_illegal(
    hand: CardSet,
    trick: Sequence[Card],
    contract: Contract,
    card: Card,
    ruleset: RuleSet = SCHIEBER,
) -> tuple[IllegalReason, str] | None:
    """Why ``card`` may not be played from ``hand`` to ``trick``, or ``None`` if it may.

    The message names the card and the rule, in the words of the game.

    >>> from jass import CardSet, Contract, Suit
    >>> hand, trick = CardSet.parse("9H 7D"), [Card.parse("AD"), Card.parse("JH")]
    >>> reason, text = explain_illegal(hand, trick, Contract.trump(Suit.HEARTS), Card.parse("9H"))
    >>> reason.name, text
    ('UNDERTRUMP', '9H is not allowed: you hold diamonds and 9H would undertrump JH')
    """
    card = as_card(card)
    if not isinstance(hand, CardSet) or not isinstance(contract, Contract):
        raise InvalidInputError(
            f"explain_illegal takes a CardSet and a Contract, got {hand!r}, {contract!r}"
        )
    trick = tuple(as_card(c) for c in trick)
    bits = int(hand)  # int arithmetic on the plain mask
    if not bits >> card & 1:
        return IllegalReason.NOT_IN_HAND, f"{card} is not in the hand ({_show(bits)})"
    if legal_mask(bits, trick, rule_data(contract, ruleset)) >> card & 1:
        return None
    led_card = trick[0]
    led = Suit(led_card // 9)
    led_name = led.name.lower()
    trump_suit = contract.trump_suit
    if trump_suit is not None and led is trump_suit:
        held = bits & contract.trump_mask
        buur = " (only a lone Buur is exempt)" if held & contract.buur else ""
        return (
            IllegalReason.MUST_FOLLOW_TRUMP,
            f"{card} is not allowed: trumps were led ({led_card}) and you hold trumps"
            f"{buur}: {_show(held)}",
        )
    # The card holding the trick is its highest trump, if it holds a trump (R6.1).
    top = trick[trick_winner(trick, contract)]
    if trump_suit is not None and card // 9 == trump_suit and top // 9 == trump_suit:
        if bits & SUIT_MASKS[led]:
            holding = f"you hold {led_name}"
        elif bits & ~contract.trump_mask:
            holding = "you hold cards other than trumps"
        else:
            return (
                IllegalReason.MUST_OVERTRUMP,
                f"{card} is not allowed: you hold only trumps and can overtrump {top} "
                "(undertrump_only_trumps=ONLY_IF_NO_HIGHER)",
            )
        return (
            IllegalReason.UNDERTRUMP,
            f"{card} is not allowed: {holding} and {card} would undertrump {top}",
        )
    trump_clause = " (or a trump)" if trump_suit is not None else ""
    return (
        IllegalReason.MUST_FOLLOW_SUIT,
        f"{card} is not allowed: {led_card} was led and you hold {led_name}{trump_clause}: "
        f"{_show(bits & SUIT_MASKS[led])}",
    )


def _show(bits: int) -> str:
    return str(_new_set(CardSet, bits))
