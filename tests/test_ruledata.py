"""The rule data of every contract under every preset, field by field against the rules.

Each field of :class:`jass.core.ruledata.RuleData` is checked against the functions that carry
its rule: the :class:`~jass.Contract` tables, :func:`~jass.core.play.legal_mask` and
:func:`~jass.core.play.trick_points`, and the scoring of a whole hand
(:func:`~jass.core.scoring.score_hand`), so a field that drifts from its rule fails here.
"""

from __future__ import annotations

import pickle

import pytest

from jass import Card, Contract, RuleSet, Suit, Team, rules
from jass.core.play import trick_points
from jass.core.ruledata import COUNTER_MATCH_RULES, RuleData, rule_data
from jass.core.scoring import credited_team, score_hand
from jass.errors import InvalidInputError
from jass.rules import CounterMatch, UndertrumpRule

#: Every preset, and variants of the options that rule data reads.
RULESETS: tuple[RuleSet, ...] = (
    *rules.PRESETS.values(),
    rules.SCHIEBER.evolve(undertrump_only_trumps=UndertrumpRule.ONLY_IF_NO_HIGHER),
    rules.SCHIEBER.evolve(old_undenufe=True, counter_match=CounterMatch.DOUBLE_MATCH),
    rules.SCHIEBER.evolve(counter_match=CounterMatch.NONE, match_bonus=50),
    rules.SCHIEBER.evolve(multipliers=(2, 3, 4, 5, 6, 7)),
)
PAIRS = [(c, rs) for c in Contract.all() for rs in RULESETS]


def _plain(value: object) -> bool:
    """Whether ``value`` is built of plain ints and tuples only (no bools, enums or objects)."""
    if isinstance(value, tuple):
        return all(_plain(item) for item in value)
    return type(value) is int


@pytest.mark.parametrize(("contract", "ruleset"), PAIRS)
def test_every_field_follows_its_rule(contract: Contract, ruleset: RuleSet) -> None:
    data = rule_data(contract, ruleset)
    assert _plain(tuple(data))
    assert data.contract == contract.index
    assert Contract.from_index(data.contract) is contract
    suit = contract.trump_suit
    if suit is None:
        assert (data.trump, data.trump_mask, data.buur, data.buur_mask) == (-1, 0, -1, 0)
        assert data.buur_exception == 0
    else:
        assert data.trump == suit
        assert data.trump_mask == sum(1 << c for c in range(36) if c // 9 == suit)
        assert Card(data.buur) == Card.parse(f"J{'SHDC'[suit]}")
        assert data.buur_mask == 1 << data.buur == contract.buur
        assert data.buur_exception == 1
    assert data.above == contract.above
    assert data.win_keys == contract.win_keys
    assert data.points == contract.card_points(old_undenufe=ruleset.old_undenufe)
    for card in range(36):
        assert data.points[card] == trick_points([Card(card)], contract, ruleset)
    assert data.last_trick_bonus == trick_points([], contract, ruleset, last=True) == 5
    assert data.strict_undertrump == int(
        ruleset.undertrump_only_trumps is UndertrumpRule.ONLY_IF_NO_HIGHER
    )
    assert data.credit_swap == credited_team(0, contract) == credited_team(1, contract) ^ 1
    assert COUNTER_MATCH_RULES[data.counter_match] is ruleset.counter_match
    assert data.multiplier == ruleset.multiplier(contract)


@pytest.mark.parametrize(("contract", "ruleset"), PAIRS)
def test_the_bonuses_are_what_a_hand_scores(contract: Contract, ruleset: RuleSet) -> None:
    """A hand of nine tricks to one team scores its bonus; the swap says who is credited."""
    data = rule_data(contract, ruleset)
    declarer = score_hand(contract, (157, 0), (9, 0), Team(0), ruleset)
    other = score_hand(contract, (157, 0), (9, 0), Team(1), ruleset)
    assert declarer.bonus == (data.match_bonus, 0)
    assert other.bonus == (data.counter_match_bonus, 0)
    assert declarer.multiplier == data.multiplier
    split = score_hand(contract, (100, 57), (5, 4), Team(0), ruleset)
    assert split.card_points == ((57, 100) if data.credit_swap else (100, 57))


def test_cached_and_immutable() -> None:
    data = rule_data(Contract.UNDENUFE, rules.SCHIEBER)
    assert rule_data(Contract.UNDENUFE, rules.SCHIEBER) is data
    assert rule_data(Contract.UNDENUFE, rules.SCHIEBER.evolve(target=1000)) == data
    assert pickle.loads(pickle.dumps(data)) == data
    with pytest.raises(AttributeError):
        data.multiplier = 2  # type: ignore[misc]
    assert isinstance(data, tuple)
    assert RuleData._fields[0] == "contract"


def test_bad_input_is_named() -> None:
    with pytest.raises(InvalidInputError, match="needs a Contract"):
        rule_data(Suit.HEARTS, rules.SCHIEBER)
    with pytest.raises(InvalidInputError, match="needs a RuleSet"):
        rule_data(Contract.OBENABE, "SCHIEBER")
