"""The native core's payoff-similar table entries against the pure-Python solver.

Two trick starts whose live cards of each suit, in power order, have the same owners have
isomorphic game trees; only the points differ. The core lets a stored bound serve such a
position, widened by the points that differ (the feature ``payoff``). These tests check that a
position settles from an isomorphic one's entries, and that the values stay the Python
solver's with the feature on and off, on fresh tables and on one table shared by many
positions (as the batch shares it between sampled worlds).
"""

from __future__ import annotations

import random

import pytest

from jass import Card, Contract, Game, RuleSet, rules
from jass.core.ruledata import rule_data
from jass.search import native
from jass.search.sampling import sample_deals
from jass.solver import Solver

from .test_native import POSITIONS, arguments, position

pytestmark = pytest.mark.skipif(not native.NATIVE, reason="the native core is not built")

EVERYTHING = sum(native.FEATURES.values())
WITHOUT = EVERYTHING ^ native.FEATURES["payoff"]


def solver(contract: Contract, ruleset: RuleSet, features: int | None = None) -> Solver:
    """A Solver on the pure-Python backend, or (features given) on a native context with
    these search features."""
    if features is None:
        return Solver(contract, ruleset, backend="python")
    made = Solver(contract, ruleset, backend="native")
    made.native = native.NativeContext(contract, ruleset, features=features)
    return made


def value(made: Solver, game: Game, hands: list[int]) -> tuple[int, int]:
    """made's exact value of game's position with these hands, and the positions searched."""
    _, leader, trick, tricks, declaring = arguments(game)
    solved = made.solve(hands, leader, trick, tricks, declaring_team=declaring)
    assert solved.exact
    return solved.lower, solved.nodes


def test_an_isomorphic_position_with_other_points_settles_from_the_first_ones_entries() -> None:
    """Seed 38's position with six tricks left (trumps diamonds): the 10H is gone and the JH
    live. With the 10H in the JH's place (the same owner, the same place among the live
    hearts, 8 points more), every position below has an isomorphic twin. Solved after the
    first on one context, the second needs far fewer positions than with the old keys (exact
    cards), where it is searched again. Both values are the Python solver's, in either
    order."""
    game = Game.new(rules.SCHIEBER, seed=38).deal().choose(Contract.standard()[38 % 6])
    rng = random.Random(38)
    for _ in range(12):
        game = game.play(rng.choice(game.legal_moves().cards()))
    hands = arguments(game)[0]
    ten, jack = int(Card.parse("10H")), int(Card.parse("JH"))
    live = hands[0] | hands[1] | hands[2] | hands[3]
    assert live >> jack & 1
    assert not live >> ten & 1
    twin = [h ^ (1 << ten | 1 << jack) if h >> jack & 1 else h for h in hands]
    assert game.contract is not None
    reference = solver(game.contract, game.ruleset)
    expected = {0: value(reference, game, hands)[0], 1: value(reference, game, twin)[0]}
    assert expected[0] != expected[1]  # the points differ, so do the values
    positions = {0: hands, 1: twin}
    searched = {}
    for features in (EVERYTHING, WITHOUT):
        for first in (0, 1):
            made = solver(game.contract, game.ruleset, features)
            assert value(made, game, positions[first])[0] == expected[first]
            second, searched[features, first] = value(made, game, positions[1 - first])
            assert second == expected[1 - first]
    # The JH's 2 points go to the side that lost 8 with the 10H: the bound from the first
    # position, widened by 8, is the second's value, so a probe or two settle it at its root.
    assert searched[EVERYTHING, 0] <= 10
    assert searched[WITHOUT, 0] > 1000
    # The other way round the widened bound is not the value, but the entries below still cut.
    assert searched[EVERYTHING, 1] < 0.6 * searched[WITHOUT, 1]


@pytest.mark.parametrize("shard", range(2))
def test_values_equal_python_with_payoff_similar_entries_off(shard: int) -> None:
    """The cross-check of test_native with the feature off: the search without it stays
    right (each feature may be switched off)."""
    for seed in range(shard, POSITIONS, 8):
        game, ruleset, contract = position(seed)
        hands = arguments(game)[0]
        mine = value(solver(contract, ruleset, WITHOUT), game, hands)[0]
        assert mine == value(solver(contract, ruleset), game, hands)[0], seed


def test_one_table_shared_by_sampled_worlds_keeps_every_value() -> None:
    """Worlds sampled for one decision share a context, as the batch shares it: entries of
    one world (other cards gone, other points) settle positions of the next ones, and every
    value is the Python solver's, with the feature on and off."""
    checked = 0
    for seed in range(12):
        # Misere is solved on a game played as Obenabe (SCHIEBER does not offer it).
        contract = Contract.all()[seed % 7]
        played = Contract.OBENABE if contract is Contract.MISERE else contract
        game = Game.new(rules.SCHIEBER, seed=seed).deal().choose(played)
        rng = random.Random(seed)
        for _ in range(16 + seed % 4):
            game = game.play(rng.choice(game.legal_moves().cards()))
        held = 0
        for hand in game.hands:
            held |= int(hand)
        assert game.to_move is not None
        worlds = sample_deals(game.view(game.to_move), 6, random.Random(seed))
        shared = [solver(contract, game.ruleset, f) for f in (EVERYTHING, WITHOUT)]
        for world in worlds:
            hands = [int(hand) & held for hand in world]
            expected = value(solver(contract, game.ruleset), game, hands)[0]
            for made in shared:
                assert value(made, game, hands)[0] == expected, seed
            checked += 1
    assert checked == 72


@pytest.mark.parametrize(("seed", "played"), [(105, 12), (151, 16), (248, 20)])
def test_a_lone_buur_is_not_a_lone_nell(seed: int, played: int) -> None:
    """A hand whose only trump is the Buur need not follow a trump lead (rule book R5.4); one
    whose only trump is the Nell must. Swapping the two (the Buur live, the Nell gone, or the
    other way round) keeps every owner in power order, but not the legal cards: the values
    differ by more than the 6 points that differ, so the two positions must not share their
    entries (the key holds whether the Buur is live). Seeded positions with a lone Buur,
    solved on one context in either order: both values are the Python solver's."""
    contract = Contract.standard()[seed % 4]
    game = Game.new(rules.SCHIEBER, seed=seed).deal().choose(contract)
    rng = random.Random(seed)
    for _ in range(played):
        game = game.play(rng.choice(game.legal_moves().cards()))
    hands = arguments(game)[0]
    data = rule_data(contract, rules.SCHIEBER)
    buur = data.buur_mask.bit_length() - 1
    nell = max(
        (card for card in range(36) if data.trump_mask >> card & 1 and card != buur),
        key=lambda card: data.win_keys[buur // 9][card],
    )
    lone = [h for h in hands if h & data.trump_mask == 1 << buur]
    assert lone  # a hand holds the Buur and no other trump; the Nell is gone
    assert not any(h >> nell & 1 for h in hands)
    twin = [h ^ (1 << buur | 1 << nell) if h >> buur & 1 else h for h in hands]
    reference = solver(contract, rules.SCHIEBER)
    expected = {0: value(reference, game, hands)[0], 1: value(reference, game, twin)[0]}
    assert abs(expected[0] - expected[1]) > 6
    positions = {0: hands, 1: twin}
    for first in (0, 1):
        made = solver(contract, rules.SCHIEBER, EVERYTHING)
        assert value(made, game, positions[first])[0] == expected[first]
        assert value(made, game, positions[1 - first])[0] == expected[1 - first]
