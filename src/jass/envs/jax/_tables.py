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
>>> t.win_keys.shape, int(t.points[4].sum()), t.target
((7, 4, 36), 152, 2500)
>>> int(t.seq_points[0, 0b111, 0]), int(t.quartet_points[5])  # 6-7-8 of spades, four Jacks
(20, 200)
"""

from __future__ import annotations

import functools
from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

from jass.core.cards import CardSet, Rank
from jass.core.contracts import Contract, ContractKind
from jass.core.ruledata import rule_data
from jass.core.weis import WeisKind, find_weis
from jass.errors import InvalidInputError
from jass.rules import (
    AusmachOrder,
    DealerRotation,
    EndMode,
    FirstHandRule,
    RuleSet,
    WeisTie,
)

__all__ = ["MAX_SEQUENCES", "Tables", "check_supported", "tables"]

#: Sequences a single suit can hold at most (two runs of three, or a split nine-card run).
MAX_SEQUENCES: Final = 2
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
    above: Bools  # (7, 36, 36): for each card, the trumps that beat it (all cards: not a trump)
    points: Ints  # (7, 36)
    win_keys: Ints  # (7, 4, 36)
    multiplier: Ints  # (7,)
    credit_swap: Ints  # (7,)
    match_bonus: Ints  # (7,)
    counter_match_bonus: Ints  # (7,)
    trump_suit: Ints  # (7,): -1 without trumps
    reverse_height: Ints  # (7,): 1 where Weis heights count downwards (Undenufe)
    stoeck_pair: Bools  # (7, 36): trump King and Queen, empty without trumps or Stöck
    allowed: Bools  # (7,)
    # Weis by suit and 9-bit pattern: up to MAX_SEQUENCES sequences each.
    seq_points: Ints  # (4, 512, 2), 0: no sequence in that slot
    seq_length: Ints  # (4, 512, 2)
    seq_top: Ints  # (4, 512, 2): the top card
    seq_ranks: Ints  # (4, 512, 2): the 9-bit rank pattern of the sequence's cards
    quartet_points: Ints  # (9,): by rank, 0: no quartet of that rank
    # Flags and numbers.
    strict_undertrump: bool
    shove_back: bool
    weis: bool
    kreuzweis: bool
    quartet_first: bool
    target: int
    reach_target: bool  # a target counts at all (not a game of fixed length)
    auto_end: bool  # end_mode=AUTO: the game ends at the event that reaches the target
    end_of_hand: bool  # end_mode=END_OF_HAND
    hands: int  # a game of fixed length: its hands; else 0
    claim_stoeck: bool  # Stöck may be shown to finish (R9.4)
    weis_before_trick: bool  # ausmach order Stöck, Weis, Stich


def check_supported(ruleset: RuleSet) -> None:
    """Raise :class:`~jass.InvalidInputError` naming an option the JAX environment lacks.

    >>> from jass import rules
    >>> check_supported(rules.SCHIEBER)
    >>> check_supported(rules.TRADITIONAL)
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: the JAX environment does not support RuleSet option 'first_hand_rule' = MARKER_CARD (...)
    """
    refused: list[tuple[str, object, str]] = []
    if ruleset.first_hand_rule is FirstHandRule.MARKER_CARD:
        refused.append(("first_hand_rule", "MARKER_CARD", "the dealer is drawn or given"))
    if ruleset.dealer_rotation is not DealerRotation.ROTATE:
        refused.append(("dealer_rotation", ruleset.dealer_rotation.name, "the deal rotates"))
    if ruleset.weis and ruleset.weis_requires_trick:
        refused.append(("weis_requires_trick", True, "Weis score after trick 1"))
    if ruleset.hands is None and ruleset.end_mode is EndMode.THANK:
        refused.append(("end_mode", "THANK", "the environment does not thank"))
    if refused:
        name, value, why = refused[0]
        raise InvalidInputError(
            f"the JAX environment does not support RuleSet option {name!r} = {value} ({why}); "
            "it plays SCHIEBER, SCHIEBER_1000, BEGINNER, JASSKIT and their variants otherwise"
        )


def _weis_tables(ruleset: RuleSet) -> tuple[Ints, Ints, Ints, Ints, Ints]:
    """The sequences of every suit pattern and the quartet of every rank, by find_weis."""
    shape = (4, 512, MAX_SEQUENCES)
    points, length, top, ranks = (np.zeros(shape, np.int32) for _ in range(4))
    for suit in range(4):
        for pattern in range(512):
            found = find_weis(CardSet(pattern << (9 * suit)), ruleset)
            # A single suit holds sequences only; keep them in find_weis's order.
            for slot, weis in enumerate(found):
                points[suit, pattern, slot] = weis.points
                length[suit, pattern, slot] = len(weis)
                top[suit, pattern, slot] = int(weis.top)
                ranks[suit, pattern, slot] = int(weis.cards) >> (9 * suit)
    quartets = np.zeros(9, np.int32)
    for rank in Rank:
        found = find_weis(CardSet(sum(1 << (9 * suit + rank) for suit in range(4))), ruleset)
        quartets[rank] = sum(w.points for w in found if w.kind is WeisKind.QUARTET)
    return points, length, top, ranks, quartets


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
    seq_points, seq_length, seq_top, seq_ranks, quartets = _weis_tables(ruleset)
    reach = ruleset.hands is None
    return Tables(
        trump_mask=np.array([bits(d.trump_mask) for d in data], np.bool_),
        buur_mask=np.array([bits(d.buur_mask) for d in data], np.bool_),
        above=np.array([[bits(mask) for mask in d.above] for d in data], np.bool_),
        points=np.array([d.points for d in data], np.int32),
        win_keys=np.array([d.win_keys for d in data], np.int32),
        multiplier=np.array([d.multiplier for d in data], np.int32),
        credit_swap=np.array([d.credit_swap for d in data], np.int32),
        match_bonus=np.array([d.match_bonus for d in data], np.int32),
        counter_match_bonus=np.array([d.counter_match_bonus for d in data], np.int32),
        trump_suit=np.array([d.trump for d in data], np.int32),
        reverse_height=np.array(
            [
                int(c.kind is ContractKind.UNDENUFE and ruleset.undenufe_reverse_weis)
                for c in _CONTRACTS
            ],
            np.int32,
        ),
        stoeck_pair=np.array(pair, np.bool_),
        allowed=np.array([ruleset.allows(c) for c in _CONTRACTS], np.bool_),
        seq_points=seq_points,
        seq_length=seq_length,
        seq_top=seq_top,
        seq_ranks=seq_ranks,
        quartet_points=quartets,
        strict_undertrump=bool(data[0].strict_undertrump),
        shove_back=ruleset.allow_shove_back,
        weis=ruleset.weis,
        kreuzweis=ruleset.kreuzweis,
        quartet_first=ruleset.weis_tie_sequence_vs_quartet is WeisTie.QUARTET_FIRST,
        target=ruleset.target,
        reach_target=reach,
        auto_end=reach and ruleset.end_mode is EndMode.AUTO,
        end_of_hand=reach and ruleset.end_mode is EndMode.END_OF_HAND,
        hands=ruleset.hands or 0,
        claim_stoeck=reach
        and ruleset.end_mode is EndMode.AUTO
        and ruleset.stoeck_claim_anytime_to_finish,
        weis_before_trick=ruleset.ausmach_order is AusmachOrder.STOECK_WEIS_STICH,
    )
