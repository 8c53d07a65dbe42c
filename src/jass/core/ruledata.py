"""The rule data of one contract under one rule set: plain ints and tuples, computed once.

Everything the card-play kernels and the fast loops read about a ``(contract, rule set)``
pair is gathered in one :class:`RuleData`: the trump and Buur masks, the card points (with
``old_undenufe`` applied), the win keys, the undertrump flag, the Misère swap, the match
bonuses and the multiplier. It holds no behaviour, only ints and tuples of ints, so it is
what a compiled core or an array program receives: a :class:`RuleData` is a ``NamedTuple``,
which C reads as a tuple and JAX as a pytree. :func:`rule_data` builds it once per pair and
caches it.

Each field is derived from the rule it carries (the :class:`~jass.Contract` tables and the
:mod:`jass.core.scoring` kernels), and ``tests/test_ruledata.py`` checks every field against
them for every contract under every preset.

>>> from jass import Contract, Suit, rules
>>> data = rule_data(Contract.trump(Suit.HEARTS), rules.SCHIEBER)
>>> data.contract, data.trump, data.buur, data.multiplier, sum(data.points)
(1, 1, 14, 1, 152)
>>> data.strict_undertrump, data.credit_swap, data.match_bonus, data.last_trick_bonus
(0, 0, 100, 5)
>>> rule_data(Contract.MISERE, rules.SCHIEBER)[:4]  # no trumps: -1 and empty masks
(6, -1, 0, -1)
>>> rule_data(Contract.MISERE, rules.SCHIEBER).credit_swap  # each team scores the other's
1
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final, NamedTuple

from jass.core.cards import Rank
from jass.core.contracts import Contract
from jass.core.scoring import credited_team, team_match_bonus
from jass.errors import InvalidInputError, describe
from jass.rules import CounterMatch, RuleSet, UndertrumpRule

__all__ = ["COUNTER_MATCH_RULES", "LAST_TRICK_BONUS", "RuleData", "rule_data"]

#: The points of the last trick (rule book R2.3).
LAST_TRICK_BONUS: Final = 5
#: The ``counter_match`` options in the order of :attr:`RuleData.counter_match`'s numbers.
COUNTER_MATCH_RULES: Final[tuple[CounterMatch, ...]] = tuple(CounterMatch)


class RuleData(NamedTuple):
    """The rule data of one contract under one rule set (see :func:`rule_data`).

    Masks are ints with bit ``i`` for card ``i`` (:class:`~jass.Card` numbering), flags are
    0 or 1, and ``-1`` stands for "none".

    Attributes:
        contract: the contract's ``index`` (0-3 trump suits, 4 Obenabe, 5 Undenufe, 6 Misère).
        trump: the trump suit (0-3), or -1 without trumps.
        trump_mask: the cards of the trump suit (0 without trumps).
        buur: the trump Jack's card number, or -1 without trumps.
        buur_mask: the trump Jack's bit, or 0.
        buur_exception: 1 if a lone Buur need not follow a trump lead (rule book R5.4): under
            every trump contract.
        above: for each card, the trumps that beat it, or every card for a non-trump (the
            overtrump test of R5.3c, :attr:`Contract.above`).
        points: the points of each of the 36 cards, ``old_undenufe`` applied (rule book R2.2).
        win_keys: for each led suit, each card's strength in a trick led in that suit, -1 if
            it cannot win it (rule book §6, :attr:`Contract.win_keys`).
        strict_undertrump: 1 if ``undertrump_only_trumps`` is ``ONLY_IF_NO_HIGHER`` (R5.3e).
        credit_swap: what the team that takes points is XOR-ed with to give the team credited
            with them: 1 under Misère (rule book §10), else 0
            (:func:`~jass.core.scoring.credited_team`).
        last_trick_bonus: the last trick's extra points (5).
        match_bonus: what the declaring team earns by taking all nine tricks, 0 under Misère.
        counter_match: the ``counter_match`` option, as its place in :data:`COUNTER_MATCH_RULES`.
        counter_match_bonus: what the other team earns by taking all nine tricks (R8.4), 0
            under Misère.
        multiplier: the contract's multiplier (rule book R8.5).

    >>> from jass import Contract, rules
    >>> data = rule_data(Contract.OBENABE, rules.TRADITIONAL)
    >>> data.match_bonus, data.counter_match_bonus, COUNTER_MATCH_RULES[data.counter_match].name
    (100, 157, 'DOUBLE_TRICK_POINTS')
    """

    contract: int
    trump: int
    trump_mask: int
    buur: int
    buur_mask: int
    buur_exception: int
    above: tuple[int, ...]
    points: tuple[int, ...]
    win_keys: tuple[tuple[int, ...], ...]
    strict_undertrump: int
    credit_swap: int
    last_trick_bonus: int
    match_bonus: int
    counter_match: int
    counter_match_bonus: int
    multiplier: int


@lru_cache(maxsize=256)  # seven contracts under a few rule sets; bounded all the same
def rule_data(contract: Contract, ruleset: RuleSet) -> RuleData:
    """The :class:`RuleData` of ``contract`` under ``ruleset``, built once and cached.

    Raises :class:`~jass.InvalidInputError` if ``contract`` is not a
    :class:`~jass.Contract` or ``ruleset`` not a :class:`~jass.RuleSet`.

    >>> from jass import Card, Contract, rules
    >>> old = rules.SCHIEBER.evolve(old_undenufe=True)
    >>> rule_data(Contract.UNDENUFE, old).points[Card.parse("6S")]
    0
    >>> rule_data(Contract.UNDENUFE, rules.SCHIEBER) is rule_data(Contract.UNDENUFE, rules.SCHIEBER)
    True
    >>> rule_data("obenabe", rules.SCHIEBER)
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: rule_data needs a Contract, got str 'obenabe'
    """
    if not isinstance(contract, Contract):
        raise InvalidInputError(f"rule_data needs a Contract, got {describe(contract)}")
    if not isinstance(ruleset, RuleSet):
        raise InvalidInputError(f"rule_data needs a RuleSet, got {describe(ruleset)}")
    suit = contract.trump_suit
    buur = -1 if suit is None else int(9 * suit + Rank.JACK)
    return RuleData(
        contract=contract.index,
        trump=-1 if suit is None else int(suit),
        trump_mask=contract.trump_mask,
        buur=buur,
        buur_mask=contract.buur,
        buur_exception=int(suit is not None),
        above=contract.above,
        points=contract.card_points(old_undenufe=ruleset.old_undenufe),
        win_keys=contract.win_keys,
        strict_undertrump=int(ruleset.undertrump_only_trumps is UndertrumpRule.ONLY_IF_NO_HIGHER),
        credit_swap=credited_team(0, contract),
        last_trick_bonus=LAST_TRICK_BONUS,
        # Team 0 declaring: its own bonus, and team 1's counter-match.
        match_bonus=team_match_bonus(0, 0, contract, ruleset),
        counter_match=COUNTER_MATCH_RULES.index(ruleset.counter_match),
        counter_match_bonus=team_match_bonus(1, 0, contract, ruleset),
        multiplier=ruleset.multiplier(contract),
    )
