"""The bounds on a hand's score behind the environments' utility ranges (jass.envs._bounds)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numpy", reason="needs the rl extra")
from jass import CardSet, Game, RuleSet, find_weis, rules
from jass.envs._bounds import max_hand_total, max_weis_points
from tests.helpers import play_random

WEIS_VARIANTS = [
    rules.SCHIEBER,
    rules.SCHIEBER_1000,
    rules.TRADITIONAL,
    rules.TRADITIONAL.evolve(small_weis_split_long_runs=True),
    rules.SCHIEBER.evolve(small_weis=True),
    rules.SCHIEBER.evolve(small_weis=True, kreuzweis=False),
]
hands = st.lists(st.integers(0, 35), min_size=9, max_size=9, unique=True).map(
    lambda cards: CardSet(sum(1 << c for c in cards))
)
# Hands rich in Weis: quartets and long runs, which random hands rarely hold.
RICH_HANDS = [
    "JS JH JD JC 9S 9H 9D 9C 10S",
    "6H 7H 8H 9H 10H JH QH KH AH",
    "JS JH JD JC 9S 9H 9D 9C QS",
    "AS KS QS JS 10S JH JD JC 9S",
    "6S 7S 8S 6H 6D 6C 7H 7D 7C",
    "10S JS QS KS AS 10H 10D 10C 9S",
]


def weis_points(hand: CardSet, ruleset: RuleSet) -> int:
    return sum(w.points for w in find_weis(hand, ruleset))


@settings(max_examples=300)
@given(hand=hands, ruleset=st.sampled_from(WEIS_VARIANTS))
def test_no_hand_declares_more_than_the_bound(hand: CardSet, ruleset: RuleSet) -> None:
    assert weis_points(hand, ruleset) <= max_weis_points(ruleset)


@pytest.mark.parametrize("ruleset", WEIS_VARIANTS)
def test_the_weis_bound_is_reached(ruleset: RuleSet) -> None:
    best = max(weis_points(CardSet.parse(text), ruleset) for text in RICH_HANDS)
    assert best == max_weis_points(ruleset)


def test_the_weis_bound_by_rule_set() -> None:
    assert max_weis_points(rules.SCHIEBER) == 200 + 150 + 20  # Kreuzweis: 9-10-J counts too
    assert max_weis_points(rules.TRADITIONAL) == 200 + 150
    assert max_weis_points(rules.TRADITIONAL.evolve(small_weis_split_long_runs=True)) == 350
    assert max_weis_points(rules.BEGINNER) == 0


def test_the_hand_bound_by_rule_set() -> None:
    assert max_hand_total(rules.SCHIEBER) == 3 * (157 + 100 + 2 * 370)
    assert max_hand_total(rules.TRADITIONAL) == 4 * (157 + 157 + 2 * 350)  # Undenufe x4
    assert max_hand_total(rules.BEGINNER) == 157 + 100
    assert max_hand_total(rules.SCHIEBER_1000) == 157 + 100 + 2 * 350 + 20
    assert max_hand_total(rules.JASSKIT) == 157


@pytest.mark.parametrize("name", list(rules.PRESETS))
def test_every_hand_played_stays_within_the_bound(name: str) -> None:
    ruleset = rules.PRESETS[name]
    bound = max_hand_total(ruleset)
    rng = random.Random(name)
    for seed in range(60):
        game = Game.new(ruleset, seed=seed).deal()
        if rng.random() < 0.3:
            game = game.shove()
        contract = rng.choice(sorted(ruleset.contracts, key=lambda c: c.index))
        game = play_random(game.choose(contract), rng)
        for totals in (r.totals for r in game.hand_results):
            assert max(totals) <= bound
            assert abs(totals[0] - totals[1]) <= bound
