"""The tables the JAX environment reads, built in Python from the library's own rules (private).

Nothing here is a second copy of a rule: every number comes from a rule function or a rule
table of the lower layers, read once per rule set.

- Per contract: :func:`jass.core.ruledata.rule_data` (trumps, Buur, the overtrump sets,
  points, win keys, the Misère swap, match and counter-match bonus, multiplier).
- Weis: :func:`jass.find_weis` over every 9-bit pattern of each suit (the sequences) and
  over the four cards of each rank (the quartets), under the rule set.
- The options that shape the play and the end of a game, as plain flags.

A rule set the environment does not play is refused by :func:`check_supported`, naming the
option. The arrays are NumPy; the environment turns them into JAX constants.

>>> from jass import rules
>>> t = tables(rules.SCHIEBER)
>>> t.strength.shape, int(t.points[4].sum()), t.target
((7, 36), 152, 2500)
>>> int(t.seq_points[0, 0b111]), int(t.quartet_points[5])  # 6-7-8 of spades, four Jacks
(20, 200)
"""

from __future__ import annotations

import functools
from typing import Any, Final, NamedTuple

import numpy as np
import numpy.typing as npt

from jass.core.cards import CardSet, Rank
from jass.core.contracts import Contract
from jass.core.ruledata import rule_data
from jass.core.seats import Seat
from jass.core.weis import Weis, WeisKind, _neutral_key, find_weis, weis_key
from jass.errors import InvalidInputError
from jass.rules import (
    AusmachOrder,
    DealerRotation,
    EndMode,
    FirstHandRule,
    RuleSet,
)

__all__: list[str] = []  # private: read by the environment only
_CONTRACTS: Final = Contract.all()

Bools = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int32]


class Tables(NamedTuple):
    """The rule data of one rule set, as arrays and flags (see the module docstring).

    >>> from jass import rules
    >>> tables(rules.BEGINNER).allowed.tolist()
    [True, True, True, True, False, False, False]
    """

    # Per contract (index 0-6).
    trump_mask: Bools  # (7, 36)
    buur_mask: Bools  # (7, 36)
    points: Ints  # (7, 36)
    strength: Ints  # (7, 36): each card's win key in a trick led in its own suit
    multiplier: Ints  # (7,)
    credit_swap: Ints  # (7,)
    match_bonus: Ints  # (7,)
    counter_match_bonus: Ints  # (7,)
    trump_suit: Ints  # (7,): -1 without trumps
    stoeck_pair: Bools  # (7, 36): trump King and Queen, empty without trumps or Stöck
    allowed: Bools  # (7,)
    # The sequences of each suit's 9-bit pattern (find_weis of those cards alone) and the
    # quartet of each rank: points, cards, find_weis's order (neutral key) and weis_key.
    seq_points: Ints  # (4, 512): their points, summed
    seq_ranks: Ints  # (4, 512): the 9-bit rank pattern of their cards
    seq_neutral: Ints  # (4, 512): the best neutral key, -1 for none
    seq_key: Ints  # (4, 512, 7): the best weis_key by contract (position left out), -1
    quartet_points: Ints  # (9,): by rank, 0: no quartet of that rank
    quartet_neutral: Ints  # (9,)
    quartet_key: Ints  # (9, 7)
    # Flags and numbers: Python values here, JAX arrays on the device (``_weis.device``).
    strict_undertrump: Any
    shove_back: Any
    weis: Any
    kreuzweis: Any
    target: Any
    reach_target: Any  # a target counts at all (not a game of fixed length)
    auto_end: Any  # end_mode=AUTO: the game ends at the event that reaches the target
    end_of_hand: Any  # end_mode=END_OF_HAND
    hands: Any  # a game of fixed length: its hands; else 0
    claim_stoeck: Any  # Stöck may be shown to finish (R9.4)


def check_supported(ruleset: RuleSet) -> None:
    """Raise :class:`~jass.InvalidInputError` naming an option the JAX environment lacks.

    >>> from jass import rules
    >>> check_supported(rules.SCHIEBER)
    >>> check_supported(rules.TRADITIONAL)
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: ... RuleSet option 'first_hand_rule' = MARKER_CARD ...
    """
    refused: list[tuple[str, object, str]] = []
    if ruleset.first_hand_rule is FirstHandRule.MARKER_CARD:
        refused.append(("first_hand_rule", "MARKER_CARD", "the dealer is drawn or given"))
    if ruleset.dealer_rotation is not DealerRotation.ROTATE:
        refused.append(("dealer_rotation", ruleset.dealer_rotation.name, "the deal rotates"))
    if ruleset.weis and ruleset.weis_requires_trick:
        refused.append(("weis_requires_trick", True, "Weis score after trick 1"))
    if ruleset.ausmach_order is not AusmachOrder.STOECK_WEIS_STICH:
        refused.append(("ausmach_order", ruleset.ausmach_order.name, "Stöck, Weis, Stich only"))
    if ruleset.hands is None and ruleset.end_mode is EndMode.THANK:
        refused.append(("end_mode", "THANK", "the environment does not thank"))
    if refused:
        name, value, why = refused[0]
        raise InvalidInputError(
            f"the JAX environment does not support RuleSet option {name!r} = {value} ({why}); "
            "it plays SCHIEBER, SCHIEBER_1000, BEGINNER, JASSKIT and their variants otherwise"
        )


def pack_neutral(key: tuple[int, ...]) -> int:
    """find_weis's sort key (``_neutral_key``) as one int of the same order.

    >>> from jass import CardSet, find_weis, rules
    >>> pack_neutral(_neutral_key(find_weis(CardSet.parse("6S 7S 8S"))[0], rules.SCHIEBER))
    130677
    """
    points, *middle, height, minus_top = key
    quartet, length = (0, *middle) if len(middle) == 1 else middle
    return (((points * 2 + int(quartet)) * 10 + length) * 9 + height) * 36 + 35 + minus_top


def pack_key(key: tuple[int, ...]) -> int:
    """:func:`~jass.core.weis.weis_key` without the position, as one int of the same order.

    >>> from jass import CardSet, Contract, Seat, find_weis, weis_key
    >>> w = find_weis(CardSet.parse("6S 7S 8S"))[0]
    >>> pack_key(weis_key(w, Seat(0), Contract.UNDENUFE, Seat(0))[:-1])
    13714
    """
    points, *middle, height, trump = key
    quartet, length = (0, *middle) if len(middle) == 1 else middle
    return (((points * 2 + int(quartet)) * 10 + length) * 17 + height + 8) * 2 + trump


def _best(weis: tuple[Weis, ...], ruleset: RuleSet) -> tuple[int, int, int, list[int]]:
    """Points, cards, best neutral key and best key by contract of some Weis."""
    points = sum(w.points for w in weis)
    cards = 0
    for w in weis:
        cards |= int(w.cards)
    neutral = max((pack_neutral(_neutral_key(w, ruleset)) for w in weis), default=-1)
    keys = [
        max((pack_key(weis_key(w, Seat(0), c, Seat(0), ruleset)[:-1]) for w in weis), default=-1)
        for c in _CONTRACTS
    ]
    return points, cards, neutral, keys


def _weis_tables(ruleset: RuleSet) -> dict[str, Ints]:
    """The sequences of every suit pattern and the quartet of every rank, by find_weis."""
    points, ranks, neutral = (np.zeros((4, 512), np.int32) for _ in range(3))
    keys = np.zeros((4, 512, len(_CONTRACTS)), np.int32)
    for suit in range(4):
        for pattern in range(512):
            found = find_weis(CardSet(pattern << (9 * suit)), ruleset)  # sequences only
            total, cards, best, by_contract = _best(found, ruleset)
            points[suit, pattern], neutral[suit, pattern] = total, best
            ranks[suit, pattern] = cards >> (9 * suit)
            keys[suit, pattern] = by_contract
    q_points, q_neutral = np.zeros(9, np.int32), np.zeros(9, np.int32)
    q_keys = np.zeros((9, len(_CONTRACTS)), np.int32)
    for rank in Rank:
        found = find_weis(CardSet(sum(1 << (9 * suit + rank) for suit in range(4))), ruleset)
        quartets = tuple(w for w in found if w.kind is WeisKind.QUARTET)
        total, _, best, by_contract = _best(quartets, ruleset)
        q_points[rank], q_neutral[rank], q_keys[rank] = total, best, by_contract
    return {
        "seq_points": points,
        "seq_ranks": ranks,
        "seq_neutral": neutral,
        "seq_key": keys,
        "quartet_points": q_points,
        "quartet_neutral": q_neutral,
        "quartet_key": q_keys,
    }


@functools.lru_cache(maxsize=16)
def tables(ruleset: RuleSet) -> Tables:
    """The :class:`Tables` of ``ruleset`` (built once per rule set; check it first).

    >>> from jass import rules
    >>> tables(rules.SCHIEBER_1000).kreuzweis, tables(rules.JASSKIT).hands
    (False, 1)
    """
    data = [rule_data(contract, ruleset) for contract in _CONTRACTS]

    def bits(mask: int) -> list[bool]:
        return [bool(mask >> card & 1) for card in range(36)]

    pair = []
    for contract in _CONTRACTS:
        suit = contract.trump_suit
        cards = 0
        if ruleset.stoeck and suit is not None:
            cards = 1 << (9 * suit + Rank.KING) | 1 << (9 * suit + Rank.QUEEN)
        pair.append(bits(cards))
    reach = ruleset.hands is None
    strength = np.array([[d.win_keys[c // 9][c] for c in range(36)] for d in data], np.int32)
    if not 0 <= strength.min() <= strength.max() < 64:  # _game.pack_row gives them 6 bits
        raise InvalidInputError(f"the win keys of {ruleset!r} do not fit in 6 bits")
    return Tables(
        trump_mask=np.array([bits(d.trump_mask) for d in data], np.bool_),
        buur_mask=np.array([bits(d.buur_mask) for d in data], np.bool_),
        points=np.array([d.points for d in data], np.int32),
        strength=strength,
        multiplier=np.array([d.multiplier for d in data], np.int32),
        credit_swap=np.array([d.credit_swap for d in data], np.int32),
        match_bonus=np.array([d.match_bonus for d in data], np.int32),
        counter_match_bonus=np.array([d.counter_match_bonus for d in data], np.int32),
        trump_suit=np.array([d.trump for d in data], np.int32),
        stoeck_pair=np.array(pair, np.bool_),
        allowed=np.array([ruleset.allows(c) for c in _CONTRACTS], np.bool_),
        **_weis_tables(ruleset),
        strict_undertrump=bool(data[0].strict_undertrump),
        shove_back=ruleset.allow_shove_back,
        weis=ruleset.weis,
        kreuzweis=ruleset.kreuzweis,
        target=ruleset.target,
        reach_target=reach,
        auto_end=reach and ruleset.end_mode is EndMode.AUTO,
        end_of_hand=reach and ruleset.end_mode is EndMode.END_OF_HAND,
        hands=ruleset.hands or 0,
        claim_stoeck=reach
        and ruleset.end_mode is EndMode.AUTO
        and ruleset.stoeck_claim_anytime_to_finish,
    )
