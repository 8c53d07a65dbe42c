"""One kernel per rule, and every inlined copy checked against its kernel.

The kernels (plain ints in, plain ints out):

- :func:`jass.core.play.legal_mask`: the legal cards (rule book R5.5);
- :func:`jass.core.play.trick_winner`: the card that wins a trick (R6.1-R6.2);
- :func:`jass.core.scoring.credited_team`: the Misère swap (§10);
- :func:`jass.core.scoring.team_match_bonus` over :func:`jass.core.scoring.match_bonus`: the
  match bonus (R8.3-R8.4, none in Misère); :func:`jass.core.scoring.credit_card_play` settles a
  hand with both.

Each kernel is checked against a reference written from the rules. Then each copy that a hot
loop keeps for speed is checked against the kernels:

- ``legal_cards`` answers the leader itself (R5.1) without calling ``legal_mask``;
- ``fast._tricks`` (the random rollout loop) inlines ``legal_mask`` and ``trick_winner``: it
  must play the very cards a loop built on the kernels plays, draw for draw;
- the solver keeps each trick's holder card by card in ``_trick`` and ``_two``: its values
  must equal a minimax built on the kernels alone, on thousands of endgames;
- the solver asks ``legal_mask`` about a trick summed up as its led card and its holder.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jass import CARDS, CardSet, Contract, RuleSet, rules
from jass.core.play import legal_cards, legal_mask, trick_winner
from jass.core.ruledata import rule_data
from jass.core.scoring import (
    credit_card_play,
    credited_team,
    match_bonus,
    team_match_bonus,
)
from jass.rules import CounterMatch, UndertrumpRule
from jass.search.fast import _tricks
from jass.search.fast import legal_mask as fast_legal_mask
from jass.search.native import NATIVE, core
from jass.solver import Solver
from tests.test_legal_cards import ref_legal
from tests.test_tricks import ref_winner

STRICT = rules.SCHIEBER.evolve(undertrump_only_trumps=UndertrumpRule.ONLY_IF_NO_HIGHER)
#: Rule sets that change what card play scores or allows.
VARIANTS: tuple[RuleSet, ...] = (
    rules.SCHIEBER,
    STRICT,
    rules.SCHIEBER.evolve(counter_match=CounterMatch.NONE, match_bonus=50),
    rules.SCHIEBER.evolve(counter_match=CounterMatch.DOUBLE_TRICK_POINTS, old_undenufe=True),
    rules.SCHIEBER.evolve(counter_match=CounterMatch.DOUBLE_MATCH, match_bonus=0),
)


def strict_of(ruleset: RuleSet) -> bool:
    return ruleset.undertrump_only_trumps is UndertrumpRule.ONLY_IF_NO_HIGHER


def cards_of(mask: int) -> list[int]:
    """The cards of an int mask, ascending."""
    return [card for card in range(36) if mask >> card & 1]


def mask_of(cards: list[int]) -> int:
    return sum(1 << card for card in cards)


# --------------------------------------------------------------------------------------------
# The kernels against the rules
# --------------------------------------------------------------------------------------------


@settings(max_examples=500)
@given(
    deck=st.permutations(range(36)),
    size=st.integers(min_value=1, max_value=9),
    trick_size=st.integers(min_value=0, max_value=3),
    contract=st.sampled_from(Contract.all()),
    strict=st.booleans(),
)
def test_legal_mask_is_rule_r5_5(
    deck: list[int], size: int, trick_size: int, contract: Contract, strict: bool
) -> None:
    hand, trick = deck[:size], deck[size : size + trick_size]
    expected = ref_legal([CARDS[c] for c in hand], [CARDS[c] for c in trick], contract, strict)
    legal = legal_mask(mask_of(hand), trick, contract, strict)
    assert type(legal) is int
    assert legal == mask_of([int(c) for c in expected])
    assert fast_legal_mask is legal_mask  # jass.search.fast re-exports the kernel


@settings(max_examples=500)
@given(
    deck=st.permutations(range(36)),
    size=st.integers(min_value=1, max_value=4),
    contract=st.sampled_from(Contract.all()),
)
def test_trick_winner_is_rules_r6_1_and_r6_2(
    deck: list[int], size: int, contract: Contract
) -> None:
    trick = deck[:size]
    expected = ref_winner([CARDS[c] for c in trick], contract)
    assert trick_winner(trick, contract) == expected  # plain ints
    assert trick_winner(tuple(CARDS[c] for c in trick), contract) == expected  # Cards


def expected_bonus(team: int, declaring_team: int, contract: Contract, ruleset: RuleSet) -> int:
    """rule book R8.3-R8.4 and §10 written out from the option values."""
    if contract is Contract.MISERE:
        return 0  # no match bonus and no counter-match in Misère
    rule = ruleset.counter_match
    if team == declaring_team or rule is CounterMatch.SAME_AS_MATCH:
        return ruleset.match_bonus
    if rule is CounterMatch.NONE:
        return 0
    if rule is CounterMatch.DOUBLE_TRICK_POINTS:
        return 157  # 2 x 157 in all
    return 157 + 2 * ruleset.match_bonus  # 2 x (157 + bonus) in all


@pytest.mark.parametrize("contract", Contract.all(), ids=str)
@pytest.mark.parametrize("ruleset", VARIANTS)
def test_scoring_kernels_are_the_misere_swap_and_the_match_bonus(
    contract: Contract, ruleset: RuleSet
) -> None:
    misere = contract is Contract.MISERE
    for team in (0, 1):
        assert credited_team(team, contract) == (1 - team if misere else team)
        for declaring in (0, 1):
            bonus = team_match_bonus(team, declaring, contract, ruleset)
            assert bonus == expected_bonus(team, declaring, contract, ruleset)
            if not misere:
                assert bonus == match_bonus(team == declaring, ruleset)
    rng = random.Random(contract.index)
    for _ in range(200):
        won = rng.randrange(10)
        tricks = (won, 9 - won)
        first = 0 if won == 0 else 157 if won == 9 else rng.randrange(158)
        taken = (first, 157 - first)
        declaring = rng.randrange(2)
        credited, bonuses = credit_card_play(taken, tricks, declaring, contract, ruleset)
        assert credited == ((taken[1], taken[0]) if misere else taken)
        assert bonuses == tuple(
            expected_bonus(team, declaring, contract, ruleset) if tricks[team] == 9 else 0
            for team in (0, 1)
        )


# --------------------------------------------------------------------------------------------
# legal_cards: the leader's case is answered without the kernel
# --------------------------------------------------------------------------------------------


@settings(max_examples=500)
@given(
    deck=st.permutations(range(36)),
    size=st.integers(min_value=1, max_value=9),
    trick_size=st.sampled_from([0, 0, 1, 2, 3]),
    contract=st.sampled_from(Contract.all()),
    ruleset=st.sampled_from([rules.SCHIEBER, STRICT]),
)
def test_legal_cards_copy_agrees_with_legal_mask(
    deck: list[int], size: int, trick_size: int, contract: Contract, ruleset: RuleSet
) -> None:
    hand = CardSet(CARDS[c] for c in deck[:size])
    trick = [CARDS[c] for c in deck[size : size + trick_size]]
    legal = legal_cards(hand, trick, contract, ruleset)
    assert isinstance(legal, CardSet)
    assert int(legal) == legal_mask(int(hand), trick, contract, strict_of(ruleset))


# --------------------------------------------------------------------------------------------
# fast._tricks: R5.5 and R6.1-R6.2 inlined in the random rollout loop
# --------------------------------------------------------------------------------------------

Snapshot = tuple[int, ...]


def kernel_tricks(
    held: list[int],
    contract: Contract,
    leader: int,
    draw: Callable[[], int],
    table: tuple[int, ...],
    strict: bool,
    taken: list[int],
    won: list[int],
) -> int:
    """What ``fast._tricks`` does, built on the kernels: every trick but the last at random.

    The leader draws for its card; a follower draws only when it has a choice. Each card is
    ``cards[draw() * len(cards) >> 32]`` of the legal cards in ascending order.
    """
    for _ in range(8 - won[0] - won[1]):
        trick: list[int] = []
        for step in range(4):
            seat = (leader + step) & 3
            cards = cards_of(legal_mask(held[seat], trick, contract, strict))
            card = cards[draw() * len(cards) >> 32] if step == 0 or len(cards) > 1 else cards[0]
            held[seat] ^= 1 << card
            trick.append(card)
        leader = (leader + trick_winner(trick, contract)) & 3
        taken[leader & 1] += sum(table[card] for card in trick)
        won[leader & 1] += 1
    return leader


def run_tricks(
    loop: Callable[..., int],
    hands: list[int],
    contract: Contract,
    leader: int,
    numbers: tuple[int, ...],
    ruleset: RuleSet,
    won: tuple[int, int],
) -> tuple[list[Snapshot], list[int], list[int], list[int], int]:
    """Run ``loop`` and record every hand at each draw: the cards played, one by one."""
    held = list(hands)
    log: list[Snapshot] = []
    supply = iter(numbers)

    def draw() -> int:
        log.append(tuple(held))
        return next(supply)

    table = contract.card_points(old_undenufe=ruleset.old_undenufe)
    taken, tricks = [0, 0], [won[0], won[1]]
    last = loop(held, contract, leader, draw, table, strict_of(ruleset), taken, tricks)
    return log, held, taken, tricks, last


@pytest.mark.parametrize("contract", Contract.all(), ids=str)
@pytest.mark.parametrize("ruleset", [rules.SCHIEBER, STRICT])
def test_random_loop_copies_agree_with_the_kernels(contract: Contract, ruleset: RuleSet) -> None:
    """fast._tricks against kernel_tricks, draw for draw, on 1,500 random positions."""
    rng = random.Random(1000 * contract.index + strict_of(ruleset))
    for _ in range(1500):
        size = rng.choice([9, 9, 9, 8, 7, 5, 4, 3, 2])  # cards a hand; more than one trick left
        deck = rng.sample(range(36), 4 * size)
        hands = [mask_of(deck[size * seat : size * (seat + 1)]) for seat in range(4)]
        before = rng.randrange(9 - size + 1)
        won = (before, 9 - size - before)
        leader = rng.randrange(4)
        numbers = struct.unpack(">36I", rng.randbytes(144))
        fast = run_tricks(_tricks, hands, contract, leader, numbers, ruleset, won)
        kernels = run_tricks(kernel_tricks, hands, contract, leader, numbers, ruleset, won)
        assert fast == kernels, f"{contract}, hands {[CardSet(h) for h in hands]}, lead {leader}"
        log, held = fast[0], fast[1]
        assert all(h.bit_count() == 1 for h in held)  # the last trick is left to play
        assert len(log) >= size - 1  # each leader drew


# --------------------------------------------------------------------------------------------
# The solver: each trick's holder kept card by card (_trick, _two)
# --------------------------------------------------------------------------------------------


def kernel_minimax(
    hands: list[int],
    leader: int,
    trick: list[int],
    before: tuple[int, int],
    declaring_team: int,
    contract: Contract,
    ruleset: RuleSet,
) -> int:
    """The difference the side to move makes from here with best play, on the kernels alone.

    What each team is credited from here (its card points, or its opponents' in Misère, the
    last 5 included) plus its match bonus, less the other team's (as ``Solution.difference``).
    """
    side = ((leader + len(trick)) & 3) & 1
    table = contract.card_points(old_undenufe=ruleset.old_undenufe)
    strict = strict_of(ruleset)

    def value(leader: int, trick: list[int], taken: tuple[int, int], won: tuple[int, int]) -> int:
        if len(trick) == 4:
            team = (leader + trick_winner(trick, contract)) & 1
            points = sum(table[card] for card in trick)
            last = not (hands[0] | hands[1] | hands[2] | hands[3])
            if last:
                points += 5
            taken = (taken[0] + points, taken[1]) if team == 0 else (taken[0], taken[1] + points)
            won = (won[0] + 1, won[1]) if team == 0 else (won[0], won[1] + 1)
            if not last:
                return value((leader + trick_winner(trick, contract)) & 3, [], taken, won)
            credited, bonus = credit_card_play(taken, won, declaring_team, contract, ruleset)
            return credited[side] + bonus[side] - credited[side ^ 1] - bonus[side ^ 1]
        seat = (leader + len(trick)) & 3
        results = []
        for card in cards_of(legal_mask(hands[seat], trick, contract, strict)):
            hands[seat] ^= 1 << card
            results.append(value(leader, [*trick, card], taken, won))
            hands[seat] ^= 1 << card
        return max(results) if seat & 1 == side else min(results)

    return value(leader, list(trick), (0, 0), before)


def endgame(
    rng: random.Random, contract: Contract, ruleset: RuleSet, cards_left: int
) -> tuple[list[int], int, list[int], tuple[int, int]]:
    """Random legal play (on the kernels) until ``cards_left`` cards are held, mid-trick or not.

    The tricks taken before are made up half the time, so that a match is often still on.
    """
    deck = rng.sample(range(36), 36)
    hands = [mask_of(deck[9 * seat : 9 * seat + 9]) for seat in range(4)]
    leader = rng.randrange(4)
    trick: list[int] = []
    won = [0, 0]
    strict = strict_of(ruleset)
    for _ in range(36 - cards_left):
        seat = (leader + len(trick)) & 3
        card = rng.choice(cards_of(legal_mask(hands[seat], trick, contract, strict)))
        hands[seat] ^= 1 << card
        trick.append(card)
        if len(trick) == 4:
            leader = (leader + trick_winner(trick, contract)) & 3
            won[leader & 1] += 1
            trick = []
    if rng.random() < 0.5:
        done = won[0] + won[1]
        won = [done, 0] if rng.random() < 0.5 else [0, done]
    return hands, leader, trick, (won[0], won[1])


#: Cards left in the hands: up to 12 from a trick boundary (three tricks: the solver's nested
#: loops, then ``_two``), and a few more mid-trick (the root's trick first).
CARDS_LEFT = (4, 5, 6, 7, 8, 9, 10, 11, 12, 12, 12, 12, 12, 13, 14)


@pytest.mark.parametrize("contract", Contract.all(), ids=str)
@pytest.mark.parametrize("ruleset", VARIANTS)
@pytest.mark.parametrize("backend", ["python", *(["native"] if NATIVE else [])])
def test_solver_copies_agree_with_the_kernels(
    contract: Contract, ruleset: RuleSet, backend: str
) -> None:
    """Solver values against kernel_minimax on 45 random endgames per contract and rule set."""
    rng = random.Random(f"{contract}-{VARIANTS.index(ruleset)}")
    solver = Solver(contract, ruleset, backend=backend)
    for index in range(45):
        cards_left = CARDS_LEFT[index % len(CARDS_LEFT)]
        hands, leader, trick, before = endgame(rng, contract, ruleset, cards_left)
        declaring = rng.randrange(2)
        expected = kernel_minimax(hands, leader, trick, before, declaring, contract, ruleset)
        result = solver.solve(list(hands), leader, trick, before, declaring_team=declaring)
        assert result.exact
        assert (result.lower, result.upper) == (expected, expected), (
            f"{contract}, hands {[CardSet(h) for h in hands]}, leader {leader}, "
            f"trick {[CARDS[c] for c in trick]}, tricks before {before}, declaring {declaring}"
        )


@settings(max_examples=500)
@given(
    deck=st.permutations(range(36)),
    size=st.integers(min_value=1, max_value=9),
    trick_size=st.integers(min_value=1, max_value=3),
    contract=st.sampled_from(Contract.all()),
    strict=st.booleans(),
)
def test_a_trick_sums_up_as_its_led_card_and_its_holder(
    deck: list[int], size: int, trick_size: int, contract: Contract, strict: bool
) -> None:
    """The solver asks legal_mask about ``[led, holder]`` in place of the whole trick."""
    hand, trick = mask_of(deck[:size]), deck[size : size + trick_size]
    holder = trick[trick_winner(trick, contract)]
    summary = [trick[0]] if holder == trick[0] else [trick[0], holder]
    assert legal_mask(hand, summary, contract, strict) == legal_mask(hand, trick, contract, strict)


# --------------------------------------------------------------------------------------------
# The native core's copies (jass.search._native): legal() and the trick's holder
# --------------------------------------------------------------------------------------------


@pytest.mark.skipif(not NATIVE, reason="the native core is not built")
@pytest.mark.parametrize("contract", Contract.all(), ids=str)
@pytest.mark.parametrize("ruleset", [rules.SCHIEBER, STRICT], ids=["schieber", "strict"])
def test_native_kernel_copies_agree_with_the_kernels(contract: Contract, ruleset: RuleSet) -> None:
    """4,000 random hands and tricks per contract and undertrump rule, all hand sizes."""
    assert core is not None
    data = rule_data(contract, ruleset)
    strict = strict_of(ruleset)
    rng = random.Random(contract.index * 7 + strict)
    for _ in range(4000):
        deck = list(range(36))
        rng.shuffle(deck)
        size = rng.randint(1, 9)
        trick = deck[: rng.randint(0, 3)]
        hand = mask_of(deck[4 : 4 + size])
        assert core.legal_mask(data, hand, trick) == legal_mask(hand, trick, contract, strict)
        full = deck[:4][: rng.randint(1, 4)]
        assert core.trick_winner(data, full) == trick_winner(full, contract)


@pytest.mark.skipif(not NATIVE, reason="the native core is not built")
@pytest.mark.parametrize("ruleset", VARIANTS, ids=range(len(VARIANTS)))
def test_native_play_out_plays_the_cards_of_the_python_loop(
    ruleset: RuleSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The native random play-out, draw for draw, against fast.play_out in Python."""
    from jass.search import fast  # noqa: PLC0415

    cases = []
    for seed in range(200):
        rng = random.Random(seed)
        contract = Contract.all()[seed % 7]
        deck = list(range(36))
        rng.shuffle(deck)
        hands = [mask_of(deck[9 * s : 9 * s + 9]) for s in range(4)]
        trick: list[int] = []
        if seed % 2:  # a trick in progress: its cards leave the hands they came from
            for pos in range(seed % 4):
                seat = pos
                card = min(CardSet(legal_mask(hands[seat], trick, contract, strict_of(ruleset))))
                hands[seat] ^= 1 << card
                trick.append(int(card))
        cases.append((hands, contract, trick, seed))
    native_results = [
        fast.play_out(h, c, 0, rng=random.Random(s), ruleset=ruleset, trick=t)
        for h, c, t, s in cases
    ]
    native_hands = [fast.random_hand(c, random.Random(s), ruleset) for _, c, _, s in cases]
    monkeypatch.setattr(fast, "core", None)
    assert native_results == [
        fast.play_out(h, c, 0, rng=random.Random(s), ruleset=ruleset, trick=t)
        for h, c, t, s in cases
    ]
    assert native_hands == [fast.random_hand(c, random.Random(s), ruleset) for _, c, _, s in cases]
