"""The fast path (:mod:`jass.search.fast`) agrees with the checked state machine, card for card.

- ``play_out`` against :class:`jass.Game`: the same deal, the same contract (all seven, Misère
  included) and the same deterministic policy, played through both. At every card the legal
  set, the seat, the hand and the trick must be the same, and at the end the tricks and the
  credited card points with the match bonus (rule book §6, R8.2-R8.4, §10).
- ``legal_mask`` against :func:`jass.legal_cards` on random positions, for both values of
  ``undertrump_only_trumps`` (rule book R5.5).
- ``random_hand`` always deals out 157 points, or 157 plus the match bonus (R8.2-R8.4).
"""

from __future__ import annotations

import random
import struct
from collections.abc import Sequence

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from jass import CARDS, Card, CardSet, Contract, Game, Phase, RuleSet, Suit, legal_cards, rules
from jass.core.ruledata import rule_data
from jass.rules import CounterMatch, UndertrumpRule
from jass.search.fast import legal_mask, play_out, random_hand
from tests.helpers import deal, deal_in_playing_order, endless

#: Every rule set here allows all seven contracts and never ends the game inside a hand.
SCHIEBER_ALL = endless(rules.SCHIEBER.evolve(contracts=Contract.all()))
TRADITIONAL = endless(rules.TRADITIONAL)  # Misère allowed, marker-card first hand
STRICT_RULES = rules.SCHIEBER.evolve(undertrump_only_trumps=UndertrumpRule.ONLY_IF_NO_HIGHER)

#: The policies: a seeded random choice, or one team plays its strongest card and the other its
#: weakest (so that matches and counter-matches happen).
RANDOM, TEAM0_STRONG, TEAM1_STRONG = "random", "team0", "team1"
POLICIES = (RANDOM, TEAM0_STRONG, TEAM1_STRONG)


def card_list(mask: int) -> list[int]:
    """The cards of an int mask, ascending."""
    return [card for card in range(36) if mask >> card & 1]


def pick(
    cards: Sequence[int],
    trick: Sequence[int],
    seat: int,
    contract: Contract,
    style: str,
    draw: float,
) -> int:
    """The policy both paths use: a function of the legal cards (ascending), the trick, the seat
    and a random number drawn for this card of the hand."""
    if style == RANDOM:
        return cards[int(draw * len(cards))]

    def strength(card: int) -> tuple[int, int]:
        led = trick[0] // 9 if trick else card // 9
        return contract.win_keys[led][card], card

    strong = (seat & 1) == (0 if style == TEAM0_STRONG else 1)
    return max(cards, key=strength) if strong else min(cards, key=strength)


def expected_bonus(ruleset: RuleSet, declarer: bool) -> int:
    """The match bonus of rule book R8.4, written out from the option values."""
    rule = ruleset.counter_match
    if declarer or rule is CounterMatch.SAME_AS_MATCH:
        return ruleset.match_bonus
    if rule is CounterMatch.NONE:
        return 0
    if rule is CounterMatch.DOUBLE_TRICK_POINTS:
        return 157
    return 157 + 2 * ruleset.match_bonus


#: seat, hand, legal mask, trick, every card still held, card chosen
Step = tuple[int, int, int, tuple[int, ...], int, int]


def compare(game: Game, prefix: int, style: str, policy_seed: int) -> Game:
    """Play ``game`` (in the play phase) out through the state machine and through ``play_out``.

    The first ``prefix`` cards are played through the state machine only; ``play_out`` takes
    the position from there (leader, trick, points and tricks so far). Returns the finished
    game.
    """
    contract = game.contract
    hand = game.hand_info
    assert contract is not None
    assert hand is not None
    rng = random.Random(policy_seed)
    draws = [rng.random() for _ in range(36)]  # one per card of the hand
    played = 0
    steps: list[Step] = []
    start = game
    while game.phase is Phase.PLAY:
        if played == prefix:
            start = game
        assert game.to_move is not None
        seat = int(game.to_move)
        legal = game.legal_moves()
        card = pick(legal.cards(), game.trick, seat, contract, style, draws[played])
        if played >= prefix:
            held = sum(int(h) for h in game.hands)
            steps.append((seat, int(game.hands[seat]), int(legal), tuple(game.trick), held, card))
        game = game.play(CARDS[card])
        played += 1
    assert played == 36
    assert start.trick_leader is not None
    calls: list[Step] = []

    def policy(hand_mask: int, legal: int, trick: Sequence[int], seat: int, held: int) -> int:
        card = pick(card_list(legal), trick, seat, contract, style, draws[prefix + len(calls)])
        calls.append((seat, hand_mask, legal, tuple(trick), held, card))
        return card

    points, tricks = play_out(
        [int(h) for h in start.hands],
        contract,
        int(start.trick_leader),
        policy,
        ruleset=start.ruleset,
        trick=start.trick,
        points=start.hand_points,
        tricks=start.tricks_won,
        declaring_team=int(hand.declaring_team),
    )
    assert len(calls) == len(steps) == 36 - prefix
    for index, (fast, checked) in enumerate(zip(calls, steps, strict=True)):
        where = f"card {prefix + index} of the hand"
        assert fast[0] == checked[0], f"{where}: the seat to move differs"
        assert fast[1] == checked[1], f"{where}: the hand differs"
        assert CardSet(fast[2]) == CardSet(checked[2]), f"{where}: the legal cards differ"
        assert fast[3] == checked[3], f"{where}: the trick differs"
        assert fast[4] == checked[4], f"{where}: the cards still held differ"
        assert fast[5] == checked[5], f"{where}: the card chosen differs"
    score = game.hand_results[-1]
    assert tricks == score.tricks
    assert points == (
        score.card_points[0] + score.bonus[0],
        score.card_points[1] + score.bonus[1],
    )
    # And from first principles: 157 in all, plus the bonus of a match (none in Misère).
    if contract is Contract.MISERE or 9 not in tricks:
        assert sum(points) == 157
    else:
        winner = tricks.index(9)
        declarer = winner == int(hand.declaring_team)
        assert points[winner] == 157 + expected_bonus(start.ruleset, declarer)
        assert points[1 - winner] == 0
    return game


# --------------------------------------------------------------------------------------------
# play_out against the state machine
# --------------------------------------------------------------------------------------------

rulesets = st.builds(
    lambda base, undertrump, counter, bonus, old: base.evolve(
        undertrump_only_trumps=undertrump,
        counter_match=counter,
        match_bonus=bonus,
        old_undenufe=old,
    ),
    st.sampled_from([SCHIEBER_ALL, TRADITIONAL]),
    st.sampled_from(list(UndertrumpRule)),
    st.sampled_from(list(CounterMatch)),
    st.sampled_from([0, 50, 100]),
    st.booleans(),
)


@pytest.mark.slow
@settings(max_examples=1000)
@given(
    ruleset=rulesets,
    seed=st.integers(min_value=0, max_value=2**32),
    contract=st.sampled_from(Contract.all()),
    shove=st.booleans(),
    style=st.sampled_from(POLICIES),
    policy_seed=st.integers(min_value=0, max_value=2**32),
    prefix=st.sampled_from([0, 0, 0, 1, 2, 3, 4, 7, 13, 22, 30, 35]),
)
@example(
    ruleset=SCHIEBER_ALL,
    seed=1,
    contract=Contract.MISERE,
    shove=False,
    style=RANDOM,
    policy_seed=1,
    prefix=0,
)
def test_play_out_agrees_with_the_state_machine_card_for_card(
    ruleset: RuleSet,
    seed: int,
    contract: Contract,
    shove: bool,
    style: str,
    policy_seed: int,
    prefix: int,
) -> None:
    game = Game.new(ruleset, seed=seed).deal()
    if shove:
        game = game.shove()
    game = game.choose(contract)
    final = compare(game, prefix, style, policy_seed)
    assert final.phase is Phase.DEAL
    assert len(final.hand_results) == 1


#: The forehand holds every heart: with hearts trump the declarers take all nine tricks.
ALL_HEARTS = (
    "6H 7H 8H 9H 10H JH QH KH AH",
    "6S 7S 8S 9S 10S JS QS KS AS",
    "6D 7D 8D 9D 10D JD QD KD AD",
    "6C 7C 8C 9C 10C JC QC KC AC",
)
#: The declarers hold the low cards, the opponents the high ones: with Obenabe (or Misère) the
#: opponents take all nine tricks, whatever is played.
LOW_DECLARERS = (
    "6S 7S 8S 9S 10S 6H 7H 8H 9H",
    "JS QS KS AS JH QH KH AH 10D",
    "6D 7D 8D 9D 10H 6C 7C 8C 9C",
    "JD QD KD AD JC QC KC AC 10C",
)


@pytest.mark.parametrize("counter", list(CounterMatch))
@pytest.mark.parametrize("bonus", [0, 50, 100])
@pytest.mark.parametrize(
    ("hands", "contract", "winner"),
    [
        (ALL_HEARTS, Contract.trump(Suit.HEARTS), "declarers"),
        (LOW_DECLARERS, Contract.OBENABE, "opponents"),
        (LOW_DECLARERS, Contract.MISERE, "opponents"),
    ],
)
@pytest.mark.parametrize("style", POLICIES)
def test_play_out_scores_match_and_counter_match_like_the_state_machine(
    counter: CounterMatch,
    bonus: int,
    hands: tuple[str, str, str, str],
    contract: Contract,
    winner: str,
    style: str,
) -> None:
    ruleset = SCHIEBER_ALL.evolve(counter_match=counter, match_bonus=bonus)
    game = deal_in_playing_order(ruleset, 11, hands).choose(contract)
    hand = game.hand_info
    assert hand is not None
    for prefix in (0, 5, 17):
        final = compare(game, prefix, style, 1000 + prefix)
        score = final.hand_results[-1]
        team = int(hand.declaring_team) if winner == "declarers" else 1 - int(hand.declaring_team)
        assert score.tricks[team] == 9
        if contract is Contract.MISERE:
            assert score.bonus == (0, 0)
            assert score.card_points[team] == 0  # credited the opponents' (empty) tricks
            assert score.card_points[1 - team] == 157
        else:
            assert score.card_points[team] + score.bonus[team] == 157 + expected_bonus(
                ruleset, winner == "declarers"
            )


# --------------------------------------------------------------------------------------------
# legal_mask against legal_cards
# --------------------------------------------------------------------------------------------


@settings(max_examples=400)
@given(
    deck=st.permutations(range(36)),
    size=st.integers(min_value=1, max_value=9),
    trick_size=st.integers(min_value=0, max_value=3),
    contract=st.sampled_from(Contract.all()),
)
def test_legal_mask_equals_legal_cards_on_random_positions(
    deck: list[int], size: int, trick_size: int, contract: Contract
) -> None:
    hand = CardSet(CARDS[c] for c in deck[:size])
    trick = [CARDS[c] for c in deck[size : size + trick_size]]
    for option in UndertrumpRule:
        ruleset = rules.SCHIEBER.evolve(undertrump_only_trumps=option)
        expected = legal_cards(hand, trick, contract, ruleset)
        data = rule_data(contract, ruleset)
        assert CardSet(legal_mask(int(hand), trick, data)) == expected
        assert legal_mask(int(hand), [int(c) for c in trick], data) == int(expected)


@pytest.mark.parametrize(
    ("hand", "trick", "any_trump", "only_higher"),
    [
        # R5.3d/e: only trumps left, a higher trump in the trick; hearts trump.
        ("6H KH", "AS 9H", "6H KH", "6H KH"),  # nothing above the Nell: any trump either way
        ("6H JH", "AS 9H", "6H JH", "JH"),  # the Buur can overtrump: must under ONLY_IF
        ("6H 7H", "AS", "6H 7H", "6H 7H"),  # no trump in the trick
        # R5.4: a lone Buur need not follow trumps.
        ("JH 6S", "AH", "JH 6S", "JH 6S"),
        ("JH 6H 6S", "AH", "JH 6H", "JH 6H"),
    ],
)
def test_legal_mask_undertrump_cases(
    hand: str, trick: str, any_trump: str, only_higher: str
) -> None:
    hearts = Contract.trump(Suit.HEARTS)
    held = int(CardSet.parse(hand))
    cards = [Card.parse(t) for t in trick.split()]
    loose, strict = rule_data(hearts, rules.SCHIEBER), rule_data(hearts, STRICT_RULES)
    assert CardSet(legal_mask(held, cards, loose)) == CardSet.parse(any_trump)
    assert CardSet(legal_mask(held, cards, strict)) == CardSet.parse(only_higher)


# --------------------------------------------------------------------------------------------
# random_hand
# --------------------------------------------------------------------------------------------


@settings(max_examples=200)
@given(
    rng_seed=st.integers(min_value=0, max_value=2**32),
    contract=st.sampled_from(Contract.all()),
    counter=st.sampled_from(list(CounterMatch)),
    bonus=st.sampled_from([0, 50, 100]),
)
def test_random_hand_totals_157_or_157_plus_the_match_bonus(
    rng_seed: int, contract: Contract, counter: CounterMatch, bonus: int
) -> None:
    ruleset = rules.SCHIEBER.evolve(counter_match=counter, match_bonus=bonus)
    points, tricks = random_hand(contract, random.Random(rng_seed), ruleset)
    assert sum(tricks) == 9
    assert min(points) >= 0
    assert min(tricks) >= 0
    if contract is Contract.MISERE or 9 not in tricks:
        assert sum(points) == 157
    else:
        team = tricks.index(9)  # random_hand's declaring team is team 0
        assert points[team] == 157 + expected_bonus(ruleset, team == 0)
    # The same seed gives the same hand.
    assert random_hand(contract, random.Random(rng_seed), ruleset) == (points, tricks)


def test_random_hand_sums_over_many_hands() -> None:
    rng = random.Random(2024)
    totals = {sum(random_hand(contract, rng)[0]) for contract in Contract.all() for _ in range(300)}
    assert 157 in totals
    assert totals <= {157, 257}


# --------------------------------------------------------------------------------------------
# The random path: the same cards as the state machine given the same draws
# --------------------------------------------------------------------------------------------


def replay_random(game: Game, draws: Sequence[int]) -> tuple[Game, int]:
    """Play ``game`` out through the state machine with play_out's documented random rule.

    Each card is ``cards[draw * len(cards) >> 32]`` of the legal cards in ascending order; a
    forced card takes no draw. Returns the finished game and the number of draws used.
    """
    used = 0
    while game.phase is Phase.PLAY:
        cards = [int(card) for card in game.legal_moves().cards()]
        assert cards == sorted(cards)
        if len(cards) == 1:
            card = cards[0]
        else:
            card = cards[draws[used] * len(cards) >> 32]
            used += 1
        game = game.play(CARDS[card])
    return game, used


def credited(game: Game) -> tuple[tuple[int, int], tuple[int, int]]:
    score = game.hand_results[-1]
    points = (score.card_points[0] + score.bonus[0], score.card_points[1] + score.bonus[1])
    return points, score.tricks


@pytest.mark.slow
@settings(max_examples=600)
@given(
    ruleset=rulesets,
    seed=st.integers(min_value=0, max_value=2**32),
    contract=st.sampled_from(Contract.all()),
    rng_seed=st.integers(min_value=0, max_value=2**32),
    prefix=st.sampled_from([0, 0, 0, 1, 3, 4, 6, 8, 16, 21, 28, 32, 35]),
)
def test_random_play_out_plays_the_state_machines_cards(
    ruleset: RuleSet, seed: int, contract: Contract, rng_seed: int, prefix: int
) -> None:
    """From a trick boundary play_out takes its own random loop, else the general one: both
    must make the state machine's choices under the documented rule, using the same draws."""
    game = Game.new(ruleset, seed=seed).deal().choose(contract)
    for _ in range(prefix):  # a few cards played the plain way first
        game = game.play(game.legal_moves().cards()[0])
    hand = game.hand_info
    assert hand is not None
    assert game.trick_leader is not None
    draws = struct.unpack(">36I", random.Random(rng_seed).randbytes(144))
    finished, used = replay_random(game, draws)
    start_points = game.hand_points
    result = play_out(
        [int(h) for h in game.hands],
        contract,
        int(game.trick_leader),
        rng=random.Random(rng_seed),
        ruleset=ruleset,
        trick=game.trick,
        points=start_points,
        tricks=game.tricks_won,
        declaring_team=int(hand.declaring_team),
    )
    assert result == credited(finished)
    assert used <= 36 - prefix


@settings(max_examples=300)
@given(
    rng_seed=st.integers(min_value=0, max_value=2**32),
    contract=st.sampled_from(Contract.all()),
    ruleset=rulesets,
)
def test_random_hand_is_the_documented_deal_and_play(
    rng_seed: int, contract: Contract, ruleset: RuleSet
) -> None:
    """random_hand: 72 draws from one randbytes(288); the first 36 sort the deck (seat 0 gets
    the first nine cards and leads, team 0 declares), the rest choose the cards."""
    numbers = struct.unpack(">72I", random.Random(rng_seed).randbytes(288))
    deck = sorted(range(36), key=lambda card: numbers[card])
    hands = [CardSet(sum(1 << card for card in deck[9 * seat : 9 * seat + 9])) for seat in range(4)]
    game = deal(ruleset, hands, forehand=0)  # seat 0 holds hands[0] and leads: team 0 declares
    finished, _ = replay_random(game.choose(contract), numbers[36:])
    assert random_hand(contract, random.Random(rng_seed), ruleset) == credited(finished)


@pytest.mark.parametrize("seed", range(20))
def test_play_out_takes_card_sets_as_well_as_int_masks(seed: int) -> None:
    # Before card sets refused arithmetic, the random loop read CardSet hands wrongly
    # (``legal - 1`` was a set difference), so the result depended on the type of the hands.
    game = Game.new(seed=seed).deal().choose(Contract.OBENABE)
    assert game.to_move is not None
    leader = int(game.to_move)
    as_sets = play_out(list(game.hands), Contract.OBENABE, leader, rng=random.Random(seed))
    as_ints = play_out(
        [int(h) for h in game.hands], Contract.OBENABE, leader, rng=random.Random(seed)
    )
    assert as_sets == as_ints
