"""The perfect-information solver (:mod:`jass.solver`) against brute force and against play.

1. Brute force: on many seeded endgames with one, two and three tricks left (some of them
   starting mid-trick), the exact minimax of the final credited difference is computed here
   by recursing over ``Game.legal_moves()`` and ``Game.play()`` and reading the hand's score
   (card points with the last trick's 5, the match bonus or counter-match, Misère credits;
   rule book §5, §6, R8.2-R8.4, §10). ``solve(game)`` must find exactly that value, less what
   was already taken, and a best card that keeps it.
2. The value is never beaten: the side following the solver's advice always ends with at
   least the solved value, whatever the opponents play, and exactly that value when the
   opponents follow the solver too.
3. Budgets and bad input: a small ``node_limit`` gives proven bounds and a legal card; bad
   positions raise :class:`jass.InvalidInputError`.

Weis and Stöck are off throughout: the solver values card play only.
"""

from __future__ import annotations

import inspect
import random
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from functools import partial

import pytest

from jass import (
    CARDS,
    Card,
    CardSet,
    Contract,
    Game,
    InvalidInputError,
    Phase,
    RuleSet,
    Suit,
    legal_cards,
    rules,
)
from jass import solver as solver_module
from jass.rules import UndertrumpRule
from jass.search.worlds import values
from jass.solver import NATIVE, Solution, Solver, solve
from tests.helpers import deal_in_playing_order

#: Card play only and all seven contracts (one hand scores 771 at most: no end inside it).
BASE = rules.SCHIEBER.evolve(contracts=Contract.all(), weis=False, stoeck=False)
VARIANTS: dict[str, RuleSet] = {
    "SAME_AS_MATCH": BASE,
    "NONE": BASE.evolve(counter_match="NONE"),
    "DOUBLE_TRICK_POINTS": rules.TRADITIONAL.evolve(weis=False, stoeck=False),
    "DOUBLE_MATCH": BASE.evolve(counter_match="DOUBLE_MATCH", match_bonus=50),
    "ONLY_IF_NO_HIGHER": BASE.evolve(undertrump_only_trumps="ONLY_IF_NO_HIGHER"),
    "OLD_UNDENUFE_NO_BONUS": BASE.evolve(old_undenufe=True, match_bonus=0),
}
TRUMPS = tuple(Contract.trump(suit) for suit in Suit)
OBENABE, UNDENUFE, MISERE = Contract.OBENABE, Contract.UNDENUFE, Contract.MISERE
HEARTS = Contract.trump(Suit.HEARTS)

#: (variant, contracts) for the brute-force comparison.
BRUTE_FORCE_CASES: list[tuple[str, tuple[Contract, ...]]] = [
    ("SAME_AS_MATCH", Contract.all()),
    ("NONE", (*TRUMPS[:2], OBENABE, UNDENUFE)),
    ("DOUBLE_TRICK_POINTS", (*TRUMPS[2:], OBENABE, UNDENUFE, MISERE)),
    ("DOUBLE_MATCH", (*TRUMPS[1:3], OBENABE, UNDENUFE, MISERE)),
    ("ONLY_IF_NO_HIGHER", TRUMPS),
    ("OLD_UNDENUFE_NO_BONUS", (UNDENUFE, OBENABE, TRUMPS[3])),
]
POSITIONS_PER_CONTRACT = 72  # the cards left cycle through 1..12: each count 6 times


# --------------------------------------------------------------------------------------------
# Positions
# --------------------------------------------------------------------------------------------


def deal_for(rng: random.Random, contract: Contract) -> tuple[list[CardSet] | None, int | None]:
    """Hands to deal (or None for the seeded deal), and the team meant to win every trick.

    Besides plain seeded deals: trumps split between two hands (the undertrump rules come into
    play), or one team holding the strongest cards (so that a match or counter-match is on).
    """
    kind = rng.random()
    seats: list[list[int]] = [[], [], [], []]
    if contract.trump_suit is not None and kind < 0.35:
        suit = contract.trump_suit
        trumps = [9 * suit + rank for rank in range(9)]
        others = [card for card in range(36) if card // 9 != suit]
        rng.shuffle(trumps)
        rng.shuffle(others)
        first, second = rng.sample(range(4), 2)
        seats[first] = trumps[:5] + others[:4]
        seats[second] = trumps[5:] + others[4:9]
        rest = others[9:]
        for seat in range(4):
            if seat not in (first, second):
                seats[seat], rest = rest[:9], rest[9:]
        return [CardSet(CARDS[c] for c in cards) for cards in seats], None
    if kind > 0.65:
        team = rng.randrange(2)
        ranked = sorted(
            range(36), key=lambda c: (contract.win_keys[c // 9][c], rng.random()), reverse=True
        )
        top, bottom = ranked[:18], ranked[18:]
        for _ in range(rng.randrange(3)):  # not always a clean sweep
            i, j = rng.randrange(18), rng.randrange(18)
            top[i], bottom[j] = bottom[j], top[i]
        rng.shuffle(top)
        rng.shuffle(bottom)
        strong = [seat for seat in range(4) if seat & 1 == team]
        weak = [seat for seat in range(4) if seat & 1 != team]
        seats[strong[0]], seats[strong[1]] = top[:9], top[9:]
        seats[weak[0]], seats[weak[1]] = bottom[:9], bottom[9:]
        return [CardSet(CARDS[c] for c in cards) for cards in seats], team
    return None, None


def endgame(seed: int, contract: Contract, ruleset: RuleSet, cards_left: int) -> Game:
    """A seeded position with ``cards_left`` cards in the hands (mid-trick unless a multiple of 4).

    The cards before it are played in one of four styles: at random; one team plays its
    strongest cards and the other its weakest (so that a match is still on); or everybody
    gets rid of two suits first (so that the endgame is crowded into two suits).
    """
    rng = random.Random(seed)
    hands, strong_team = deal_for(rng, contract)
    game = Game.new(ruleset, seed=seed).deal(hands=hands)
    if rng.random() < 0.25:
        game = game.shove()
    game = game.choose(contract)
    if strong_team is not None:
        style = ("team0", "team1")[strong_team]
    else:
        style = rng.choice(["random", "team0", "team1", "two suits"])
    dump = set(rng.sample(range(4), 2))
    while sum(len(hand) for hand in game.hands) > cards_left:
        assert game.to_move is not None
        moves = game.legal_moves().cards()
        if style == "random":
            card = rng.choice(moves)
        elif style == "two suits":
            card = rng.choice([c for c in moves if c // 9 in dump] or moves)
        else:
            led = game.trick[0] // 9 if game.trick else None

            def strength(card: Card, led: int | None = led) -> tuple[int, int]:
                return contract.win_keys[card // 9 if led is None else led][card], card

            strong = (int(game.to_move) & 1) == (0 if style == "team0" else 1)
            card = max(moves, key=strength) if strong else min(moves, key=strength)
        game = game.play(card)
    assert game.phase is Phase.PLAY
    return game


def side_of(game: Game) -> int:
    """The team of the player to move."""
    assert game.to_move is not None
    return int(game.to_move) & 1


def credited(game: Game, team: int) -> int:
    """The card points credited to ``team`` so far in this hand (the opponents' in Misère)."""
    taken = game.hand_points
    return taken[1 - team] if game.contract is MISERE else taken[team]


def already(game: Game, side: int) -> int:
    """The credited difference the side has already made in this hand."""
    return credited(game, side) - credited(game, 1 - side)


def outcome(game: Game, side: int) -> tuple[int, int]:
    """(the side's final credited points minus the opponents', the side's) of a finished hand."""
    assert game.phase is not Phase.PLAY
    score = game.hand_results[-1]
    mine = score.card_points[side] + score.bonus[side]
    theirs = score.card_points[1 - side] + score.bonus[1 - side]
    return mine - theirs, mine


class BruteForce:
    """Exact minimax over the state machine, with counts of what the trees held."""

    def __init__(self, game: Game) -> None:
        self.side = side_of(game)
        ruleset = game.ruleset
        flipped = (
            UndertrumpRule.ANY
            if ruleset.undertrump_only_trumps is UndertrumpRule.ONLY_IF_NO_HIGHER
            else UndertrumpRule.ONLY_IF_NO_HIGHER
        )
        self._other = ruleset.evolve(undertrump_only_trumps=flipped)
        self.matches = 0  # leaves with a match (by the declarers) that scores a bonus ...
        self.counter_matches = 0  # ... or a counter-match (by the opponents)
        self.option_mattered = 0  # nodes where the other undertrump option changes the cards

    def value(self, game: Game) -> tuple[int, int]:
        """(final difference, the side's final points) with best play, the side maximizing."""
        if game.phase is not Phase.PLAY:
            score = game.hand_results[-1]
            hand = game.hand_info
            assert hand is not None
            if score.match is not None and game.contract is not MISERE:
                if score.match == hand.declaring_team:
                    self.matches += 1
                else:
                    self.counter_matches += 1
            return outcome(game, self.side)
        self._check_option(game)
        values = [self.value(game.play(card)) for card in game.legal_moves()]
        if side_of(game) == self.side:
            return max(values, key=lambda v: v[0])
        return min(values, key=lambda v: v[0])

    def children(self, game: Game) -> dict[Card, tuple[int, int]]:
        """The value after each legal card of the player to move."""
        self._check_option(game)
        return {card: self.value(game.play(card)) for card in game.legal_moves()}

    def _check_option(self, game: Game) -> None:
        contract = game.contract
        assert contract is not None
        assert game.to_move is not None
        hand = game.hands[int(game.to_move)]
        if legal_cards(hand, game.trick, contract, self._other) != game.legal_moves():
            self.option_mattered += 1


def describe(game: Game) -> str:
    """A position, for failure messages."""
    hand = game.hand_info
    return (
        f"{game.contract} [{variant_name(game.ruleset)}] "
        f"hands {[str(h) for h in game.hands]} trick {[str(c) for c in game.trick]} "
        f"leader {game.trick_leader} tricks {game.tricks_won} "
        f"declarers {hand.declaring_team if hand else None}"
    )


def variant_name(ruleset: RuleSet) -> str:
    """The name of a variant here, for messages."""
    return next((name for name, rs in VARIANTS.items() if rs == ruleset), "custom")


def brute_force_problems(game: Game, oracle: BruteForce) -> list[str]:
    """What ``solve(game)`` gets wrong, compared with the exact minimax."""
    side = side_of(game)
    children = oracle.children(game)
    difference, points = max(children.values(), key=lambda v: v[0])
    expected = (difference - already(game, side), points - credited(game, side))
    solution = solve(game)
    problems = []
    if not solution.exact:
        problems.append("not exact")
    if (solution.lower, solution.points) != expected:
        problems.append(
            f"(difference, points) = {(solution.lower, solution.points)}, "
            f"brute force {expected}"
        )
    if solution.lower != solution.upper:
        problems.append(f"bounds {solution.lower}..{solution.upper}")
    if solution.best not in children:
        problems.append(f"best card {solution.best} is not legal")
    elif children[solution.best][0] != difference:
        made = children[solution.best][0] - already(game, side)
        problems.append(f"best card {solution.best} makes only {made}")
    return [f"{describe(game)}: {'; '.join(problems)}"] if problems else []


# --------------------------------------------------------------------------------------------
# 1. Brute force
# --------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "contracts"), BRUTE_FORCE_CASES, ids=[v for v, _ in BRUTE_FORCE_CASES]
)
def test_solve_equals_brute_force_minimax_on_small_endgames(
    variant: str, contracts: tuple[Contract, ...]
) -> None:
    ruleset = VARIANTS[variant]
    failures: list[str] = []
    live = matches = counter_matches = option_mattered = 0
    for contract in contracts:
        for index in range(POSITIONS_PER_CONTRACT):
            seed = 7919 * index + 104729 * contract.index + 31 * len(variant)
            game = endgame(seed, contract, ruleset, 1 + index % 12)
            oracle = BruteForce(game)
            failures += brute_force_problems(game, oracle)
            live += 0 in game.tricks_won
            matches += oracle.matches
            counter_matches += oracle.counter_matches
            option_mattered += oracle.option_mattered
    assert failures == []
    # The positions are not all alike: some still have a match on, matches and
    # counter-matches are scored in the trees, and under ONLY_IF_NO_HIGHER the option
    # changes the legal cards somewhere.
    assert live > 0
    assert matches > 0
    assert counter_matches > 0
    if variant == "ONLY_IF_NO_HIGHER":
        assert option_mattered > 0


#: Positions in real hands (dealt in playing order from the forehand, then the cards played)
#: with the exact (difference, points) of the side to move, found by brute force. In the first
#: four a card of the current trick lies between two cards of equal points in one hand (9C
#: and 7C around the 8C; 9D and AD around the J-Q-K; 8H and 6H around the 7H), and it matters
#: which of the two is played: they are not equivalent. In the last two the undertrump option
#: decides the value.
CROWDED_ENDGAMES: list[tuple[str, Contract, tuple[str, str, str, str], str, tuple[int, int]]] = [
    (
        "SAME_AS_MATCH",
        MISERE,
        (
            "6S 7S AS KH AH 9D 8C 10C JC",
            "JS 8H QH 10D JD KD 7C 9C AC",
            "10S QS 6H 7H 10H JH QD QC KC",
            "8S 9S KS 9H 6D 7D 8D AD 6C",
        ),
        "AH 8H 10H 9H 6S JS QS 8S QC 6C JC AC JD QD 8D 9D 10S KS 7S 10D AD KH KD KC 9S AS QH JH 8C",
        (23, 23),
    ),
    (
        "SAME_AS_MATCH",
        UNDENUFE,
        (
            "6S 8S 6H 9H JH QH 8D QD 9C",
            "JS KS 7H 8H 7D 10D KD 8C 10C",
            "9S 10S QS KH AH JD JC QC KC",
            "7S AS 10H 6D 9D AD 6C 7C AC",
        ),
        "QH 7H KH 10H JS QS 7S 6S 9C 10C JC AC 9H 8H AH 7C KS 10S AS 8S JH 10D 9S 6C 6H 7D KC"
        " 6D QD KD JD",
        (15, 24),
    ),
    (
        "SAME_AS_MATCH",
        OBENABE,
        (
            "AS 7H JH AH 9D 10D 8C 10C AC",
            "8S JS KS 8H QH 8D JD 9C JC",
            "6S 7S 9S 6D 7D KD AD 6C 7C",
            "10S QS 6H 9H 10H KH QD QC KC",
        ),
        "AC 9C 6C KC 8C JC 7C QC QD 9D JD 7D KH AH QH 6D 10C JS KD 10S 10D 8D AD QS 9S 10H",
        (22, 35),
    ),
    (
        "SAME_AS_MATCH",
        HEARTS,
        (
            "7S 9S 10S 8D 9D 6C 9C QC AC",
            "6S AS 7H 9H 10D JD 7C 8C JC",
            "QS KS 10H AH 6D 7D AD 10C KC",
            "8S JS 6H 8H JH QH KH QD KD",
        ),
        "8D 9H 7D JH 8S 10S 6S KS 6D QH 9D JD QD 7S 10D AD QS JS 9S AS 7C KC KD AC 6C",
        (7, 26),
    ),  # Hearts trump; seat 3 holds only trumps, 8H and JH, over partner's 9H. Under ANY it
    # undertrumps and keeps the Buur for the last trick; under ONLY_IF_NO_HIGHER it must
    # play the Buur now, and the 10H takes the last trick.
    *(
        (
            variant,
            HEARTS,
            (
                "8S JS AS 10H 8D JD 9C QC AC",
                "7S 10S KS 9H QH 7D 6C 8C JC",
                "6S 9S 6H KH 6D 9D 10D QD AD",
                "QS 7H 8H JH AH KD 7C 10C KC",
            ),
            "8D 7D KH AH 7C 9C QH 6S JC AD 7H AC QS AS KS 9S 8S 10S 10D KD 7S QD KC JS QC 6C 6D"
            " 10C JD 9H",
            exact,
        )
        for variant, exact in (("SAME_AS_MATCH", (-51, 0)), ("ONLY_IF_NO_HIGHER", (-21, 15)))
    ),
]


def crowded(variant: str, contract: Contract, hands: Sequence[str], cards: str) -> Game:
    """The position after ``cards`` in a hand dealt ``hands`` (from the forehand)."""
    game = deal_in_playing_order(VARIANTS[variant], 1, hands).choose(contract)
    for card in cards.split():
        game = game.play(card)
    assert game.phase is Phase.PLAY
    return game


CROWDED_IDS = [
    "misere-7C-9C-around-8C",
    "undenufe-9D-AD-around-JD",
    "obenabe-9H-6H-around-8H-7H",
    "hearts-8H-6H-around-7H",
    "hearts-undertrump-ANY",
    "hearts-undertrump-ONLY_IF_NO_HIGHER",
]


@pytest.mark.parametrize(
    ("variant", "contract", "hands", "cards", "exact"), CROWDED_ENDGAMES, ids=CROWDED_IDS
)
def test_solve_equals_brute_force_in_crowded_endgames(
    variant: str,
    contract: Contract,
    hands: tuple[str, str, str, str],
    cards: str,
    exact: tuple[int, int],
) -> None:
    game = crowded(variant, contract, hands, cards)
    oracle = BruteForce(game)
    side = side_of(game)
    difference, points = oracle.value(game)
    assert (difference - already(game, side), points - credited(game, side)) == exact
    assert brute_force_problems(game, BruteForce(game)) == []


def test_misere_ducking_under_a_trick_card_minimal_case() -> None:
    """Misère, two tricks left; seat 0 led 8C and keeps 10C, seat 1 holds 7C 9C.

    Seat 1 ducks twice (7C under the 8C, then 9C under the 10C): seat 0's team takes all 23
    points (8 + 10 + the last 5), which Misère credits to seat 1's team. 9C and 7C have the
    same points, but the 8C between them is in the trick: they are not equivalent.
    """
    hands = [CardSet.parse(h) for h in ("10C", "7C 9C", "6H 7H", "6D 7D")]
    solution = Solver(MISERE).solve(hands, 0, [Card.parse("8C")], (3, 4))
    assert (solution.lower, solution.points) == (23, 23)
    assert solution.best == Card.parse("7C")


# --------------------------------------------------------------------------------------------
# 2. The value is never beaten
# --------------------------------------------------------------------------------------------

SPOT_CHECKS: list[tuple[str, Contract]] = [
    (variant, contract) for variant, contracts in BRUTE_FORCE_CASES for contract in contracts
]
RANDOM_LINES = 3


def play_line(root: Game, value: int, rng: random.Random | None) -> list[str]:
    """Play ``root`` out: the side follows the solver, the opponents too (``rng`` None) or at
    random. Returns what went wrong: the side's result below ``value``, or (all following the
    solver) different from it, or a solved value along the way that breaks the guarantee.
    """
    side = side_of(root)
    start = already(root, side)
    problems: list[str] = []
    game = root
    while game.phase is Phase.PLAY:
        mover_is_side = side_of(game) == side
        if mover_is_side or rng is None:
            solution = solve(game)
            assert solution.exact
            here = already(game, side) - start
            seen = here + (solution.lower if mover_is_side else -solution.lower)
            if (seen < value) if rng is not None else (seen != value):
                problems.append(f"after {len(game.history)} actions the solver sees {seen}")
            card = solution.best
            assert card is not None
        else:
            card = rng.choice(game.legal_moves().cards())
        assert card in game.legal_moves()
        game = game.play(card)
    result = outcome(game, side)[0] - start
    if result < value or (rng is None and result != value):
        problems.append(f"the side made {result}")
    return [f"{describe(root)} value {value}: {p}" for p in problems]


@pytest.mark.parametrize(
    ("variant", "contract"), SPOT_CHECKS, ids=[f"{v}-{c.name}" for v, c in SPOT_CHECKS]
)
def test_solver_value_is_never_beaten(variant: str, contract: Contract) -> None:
    index = SPOT_CHECKS.index((variant, contract))
    rng = random.Random(index)
    tricks_left = 3 + index % 3
    root = endgame(
        1_000_003 * index + 17, contract, VARIANTS[variant], 4 * tricks_left - rng.randrange(4)
    )
    solution = solve(root)
    assert solution.exact
    value = solution.lower
    problems = play_line(root, value, None)
    for _ in range(RANDOM_LINES):
        problems += play_line(root, value, rng)
    assert problems == []


@pytest.mark.parametrize(
    ("variant", "contract", "hands", "cards", "exact"), CROWDED_ENDGAMES, ids=CROWDED_IDS
)
def test_solver_value_holds_against_every_line_in_crowded_endgames(
    variant: str,
    contract: Contract,
    hands: tuple[str, str, str, str],
    cards: str,
    exact: tuple[int, int],
) -> None:
    """The side follows the solver; the opponents try every legal line."""
    root = crowded(variant, contract, hands, cards)
    side = side_of(root)
    start = already(root, side)
    value = solve(root).lower

    def worst(game: Game) -> int:
        if game.phase is not Phase.PLAY:
            return outcome(game, side)[0] - start
        if side_of(game) == side:
            best = solve(game).best
            assert best is not None
            return worst(game.play(best))
        return min(worst(game.play(card)) for card in game.legal_moves())

    assert worst(root) >= value
    assert value == exact[0]


# --------------------------------------------------------------------------------------------
# 3. Budgets and bad input
# --------------------------------------------------------------------------------------------


def check_bounds(game: Game, solution: Solution, exact: Solution | None) -> list[str]:
    """What is wrong with a budgeted solution: its bounds, its card, its consistency."""
    problems = []
    if not solution.lower <= solution.upper:
        problems.append(f"lower {solution.lower} > upper {solution.upper}")
    if solution.best not in game.legal_moves():
        problems.append(f"best {solution.best} is not one of {game.legal_moves()}")
    if not solution.lower <= solution.lower <= solution.upper:
        problems.append(f"difference {solution.lower} outside its bounds")
    if exact is not None and not solution.lower <= exact.lower <= solution.upper:
        problems.append(
            f"exact {exact.lower} outside the bounds {solution.lower}..{solution.upper}"
        )
    if exact is not None and solution.exact and solution.lower != exact.lower:
        problems.append(f"exact {solution.lower}, but the value is {exact.lower}")
    return [f"{describe(game)}: {'; '.join(problems)}"] if problems else []


@pytest.mark.parametrize("cards_left", [36, 34, 28, 27, 20, 13])
def test_a_small_node_limit_gives_bounds_and_a_legal_card(cards_left: int) -> None:
    problems: list[str] = []
    inexact = 0
    for index, contract in enumerate(Contract.all()):
        game = endgame(500 + index, contract, VARIANTS["SAME_AS_MATCH"], cards_left)
        exact = solve(game) if cards_left <= 20 else None
        for node_limit in (1, 2, 5, 20, 100, 1000):
            solution = solve(game, node_limit=node_limit)
            problems += check_bounds(game, solution, exact)
            inexact += not solution.exact
            if cards_left >= 27 and node_limit <= 100 and solution.exact:
                # Only where sure points settle it at once (one team takes every trick).
                full = solve(game, backend="python")
                assert (solution.lower, solution.upper) == (full.lower, full.upper)
                assert abs(full.lower) > 157, "seven tricks solved in 100 positions?"
    assert problems == []
    assert inexact > 0


def test_a_time_limit_gives_bounds_and_a_legal_card() -> None:
    for index, contract in enumerate(Contract.all()):
        game = endgame(900 + index, contract, VARIANTS["DOUBLE_MATCH"], 36 - index % 4)
        # The Python search (the core solves some of these within the limit).
        solution = solve(game, time_limit=0.02, backend="python")
        assert not solution.exact
        assert check_bounds(game, solution, None) == []


def test_an_ample_node_limit_solves_exactly() -> None:
    for index, contract in enumerate(Contract.all()):
        game = endgame(700 + index, contract, VARIANTS["NONE"], 12)
        exact = solve(game)
        limited = solve(game, node_limit=10**7)
        assert limited.exact
        assert (limited.lower, limited.points, limited.lower, limited.upper) == (
            exact.lower,
            exact.points,
            exact.lower,
            exact.upper,
        )


def test_the_budget_minimal_case_returns_a_legal_card() -> None:
    """Obenabe; seat 0 led AS, seat 1 holds KS and 6H, so must play KS (rule book R5.2)."""
    hands = [CardSet.parse(h) for h in ("9S", "KS 6H", "6D 7D", "6C 7C")]
    for node_limit in range(1, 12):
        solution = Solver(OBENABE).solve(
            hands, 0, [Card.parse("AS")], (3, 4), node_limit=node_limit
        )
        assert solution.best == Card.parse("KS")
        # Seat 1's team takes nothing: AS takes the spades, seat 0 the last trick (-20).
        assert solution.lower <= -20 <= solution.upper


@pytest.mark.parametrize(
    ("hands", "leader", "trick"),
    [
        (("AS KS", "6H 7H", "6D 7D", "6C"), 0, ""),  # a hand short
        (("AS KS", "6H 7H", "6D 7D", "6C 7C 8C"), 0, ""),  # a hand long
        (("AS", "6H 7H", "6D 7D", "6C 7C"), 0, ""),  # the leader short, nothing led
        (("AS KS", "6H 7H", "6D 7D", "6C 7C"), 0, "QS"),  # QS led, but the leader kept 2
        (("AS", "6H", "6D", "6C 7C"), 0, "KS 7H"),  # seat 2 is short, not seat 3
        (("AS", "6H", "6D", "6C"), 0, "KS 7H 7D 7C"),  # a complete trick
        (("", "", "", ""), 0, "KS 7H 7D 7C"),  # a complete trick, nothing held
    ],
)
def test_solver_rejects_hands_that_do_not_make_a_position(
    hands: tuple[str, str, str, str], leader: int, trick: str
) -> None:
    cards = [CardSet.parse(h) if h else CardSet(0) for h in hands]
    played = [Card.parse(c) for c in trick.split()]
    with pytest.raises(InvalidInputError):
        Solver(OBENABE).solve(cards, leader, played, (3, 4))
    # The native core checks the position itself; its refusal reads as the Python check's,
    # for a solve and for card values alike.
    messages = set()
    for backend in ("python", "native") if NATIVE else ("python",):
        solver = Solver(OBENABE, backend=backend)
        for call in (solver.solve, partial(values, solver)):
            with pytest.raises(InvalidInputError) as refused:
                call(cards, leader, played, (3, 4))
            messages.add(str(refused.value))
    assert len(messages) == 1, messages


def test_solve_rejects_games_outside_the_play_phase() -> None:
    new = Game.new(BASE, seed=5)
    dealt = new.deal()
    finished = dealt.choose(OBENABE)
    while finished.phase is Phase.PLAY:
        finished = finished.play(finished.legal_moves().cards()[0])
    for game in (new, dealt, dealt.shove(), finished):
        assert game.phase is not Phase.PLAY
        with pytest.raises(InvalidInputError):
            solve(game)


def test_solver_rejects_a_non_contract() -> None:
    with pytest.raises(InvalidInputError):
        Solver("obenabe")  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# A reused Solver
# --------------------------------------------------------------------------------------------


def test_a_reused_solver_answers_like_a_fresh_one() -> None:
    """``Solver`` keeps its table between solves: the answers must not depend on it."""
    problems: list[str] = []
    for seed in range(12):
        contract = Contract.all()[seed % 7]
        ruleset = VARIANTS["DOUBLE_MATCH"]
        game = endgame(3000 + seed, contract, ruleset, 16)
        reused = Solver(contract, ruleset)
        rng = random.Random(seed)
        while game.phase is Phase.PLAY:
            hand = game.hand_info
            assert hand is not None
            assert game.trick_leader is not None
            again = reused.solve(
                [int(h) for h in game.hands],
                int(game.trick_leader),
                game.trick,
                game.tricks_won,
                declaring_team=int(hand.declaring_team),
            )
            fresh = solve(game)
            if (again.lower, again.points, again.lower, again.upper) != (
                fresh.lower,
                fresh.points,
                fresh.lower,
                fresh.upper,
            ):
                problems.append(f"{describe(game)}: reused {again}, fresh {fresh}")
            game = game.play(rng.choice(game.legal_moves().cards()))
    assert problems == []


def test_a_reused_solver_minimal_case() -> None:
    """Obenabe, two tricks left: solve for seat 3 to lead, then for seat 0 after QD is led.

    Seat 3 leads QD, which holds (nobody else has diamonds): seat 1 throws JS on it, seat 0
    JH, seat 2 9C (7 points). Seat 0 keeps 10H, which takes the 8H, the 8S and the last 5 (31
    points). Seat 3's team makes 7 - 31 = -24; after the QD, seat 0's team makes +24. The
    second solve is for the other team: a table kept from the first must not leak into it.
    """
    solver = Solver(OBENABE)
    hands = [CardSet.parse(h) for h in ("10H JH", "JS 7C", "8S 9C", "8H QD")]
    assert solver.solve(hands, 3, (), (2, 5)).lower == -24
    after = [*hands[:3], CardSet.parse("8H")]
    assert Solver(OBENABE).solve(after, 3, [Card.parse("QD")], (2, 5)).lower == 24
    assert solver.solve(after, 3, [Card.parse("QD")], (2, 5)).lower == 24


@pytest.mark.slow
def test_a_reused_solver_answers_like_a_fresh_one_across_deals() -> None:
    """The tables are keyed by the cards left: when the same cards lie in other hands (another
    deal), a reused solver must not take the old values for them."""
    problems: list[str] = []
    for seed in range(30):
        contract = Contract.standard()[seed % 6]
        game = endgame(4000 + seed, contract, VARIANTS["SAME_AS_MATCH"], 20)
        assert game.trick_leader is not None
        hands = [int(h) for h in game.hands]
        swapped = [hands[1], hands[0], hands[3], hands[2]]  # the same cards, other owners
        other = endgame(5000 + seed, contract, VARIANTS["SAME_AS_MATCH"], 20)
        leader = int(game.trick_leader)
        positions = [
            (hands, leader, game.tricks_won),
            (swapped, leader, game.tricks_won),
            ([int(h) for h in other.hands], int(other.trick_leader or 0), other.tricks_won),
            (hands, leader, game.tricks_won),
        ]
        reused = Solver(contract, VARIANTS["SAME_AS_MATCH"])
        for position, first, tricks in positions:
            again = reused.solve(position, first, (), tricks)
            fresh = Solver(contract, VARIANTS["SAME_AS_MATCH"]).solve(position, first, (), tricks)
            if (again.lower, again.best) != (fresh.lower, fresh.best):
                problems.append(f"seed {seed}: reused {again}, fresh {fresh}")
    assert problems == []


@pytest.mark.slow
@pytest.mark.parametrize("table_limit", [1, 10, 200])
def test_a_small_table_limit_keeps_the_table_small_and_the_answers_exact(table_limit: int) -> None:
    """The memory cap: a full table starts over, which costs time but never changes a value."""
    for seed in range(8):
        contract = Contract.all()[seed % 7]
        game = endgame(6000 + seed, contract, VARIANTS["DOUBLE_MATCH"], 24 - seed % 3)
        hand = game.hand_info
        assert hand is not None
        assert game.trick_leader is not None
        capped = Solver(
            contract, VARIANTS["DOUBLE_MATCH"], table_limit=table_limit, backend="python"
        ).solve(
            [int(h) for h in game.hands],
            int(game.trick_leader),
            game.trick,
            game.tricks_won,
            declaring_team=int(hand.declaring_team),
        )
        free = solve(game)
        assert capped.exact
        assert capped.table_size <= table_limit
        assert (capped.lower, capped.points) == (free.lower, free.points)
        assert capped.best in game.legal_moves()


def test_long_solves_run_on_a_fresh_stack_and_stop_on_an_interrupt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From six cards a hand the search runs in a thread of its own; an interrupt while the
    caller waits stops it at its next position and reaches the caller."""
    game = endgame(7000, HEARTS, VARIANTS["SAME_AS_MATCH"], 36)
    assert game.trick_leader is not None
    names: list[str] = []
    real_join = threading.Thread.join
    calls = 0

    def interrupted_join(thread: threading.Thread, timeout: float | None = None) -> None:
        nonlocal calls
        names.append(thread.name)
        calls += 1
        if calls == 1:
            raise KeyboardInterrupt
        real_join(thread, timeout)

    monkeypatch.setattr(threading.Thread, "join", interrupted_join)
    solver = Solver(HEARTS, VARIANTS["SAME_AS_MATCH"], backend="python")
    started = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        solver.solve([int(h) for h in game.hands], int(game.trick_leader), (), (0, 0))
    assert time.perf_counter() - started < 5  # a full hand, stopped at once
    assert names == ["jass-solver", "jass-solver"]
    monkeypatch.undo()
    # The solver is still usable, and a short solve runs in the caller's thread.
    small = endgame(7001, HEARTS, VARIANTS["SAME_AS_MATCH"], 12)
    assert small.trick_leader is not None
    before = threading.active_count()
    result = Solver(HEARTS, VARIANTS["SAME_AS_MATCH"], backend="python").solve(
        [int(h) for h in small.hands], int(small.trick_leader), small.trick, small.tricks_won
    )
    assert result.exact
    assert threading.active_count() == before


def refuse_threads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make every thread start fail as it does under Pyodide; the names of those tried."""
    tried: list[str] = []

    def refuse(thread: threading.Thread) -> None:
        tried.append(thread.name)
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)
    return tried


@pytest.mark.slow
def test_where_no_thread_starts_deep_solves_run_on_the_calling_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pyodide cannot start a thread: a solve from six cards a hand or more then searches on
    the calling thread and answers exactly as on its own thread (nine tricks on a node budget,
    seven exactly, seven mid-trick), in few frames."""
    positions = [
        (endgame(7100, HEARTS, VARIANTS["SAME_AS_MATCH"], 36), 30_000),
        (endgame(7100, HEARTS, VARIANTS["SAME_AS_MATCH"], 28), None),
        (endgame(7101, OBENABE, VARIANTS["DOUBLE_MATCH"], 25), None),
    ]
    threaded = [solve(game, node_limit=budget, backend="python") for game, budget in positions]
    assert [solution.exact for solution in threaded] == [False, True, True]
    tried = refuse_threads(monkeypatch)
    before = threading.active_count()
    # The search is one frame a trick deep: it fits the caller's stack with room to spare.
    depth = len(inspect.stack(0))
    recursion_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + 40)
    try:
        alone = [solve(game, node_limit=budget, backend="python") for game, budget in positions]
    finally:
        sys.setrecursionlimit(recursion_limit)
    assert tried == ["jass-solver"] * 3
    assert threading.active_count() == before
    assert alone == threaded
    for (game, _), solution in zip(positions, alone, strict=True):
        assert solution.best in game.legal_moves()


@pytest.mark.slow
def test_on_a_platform_without_threads_no_thread_is_tried(monkeypatch: pytest.MonkeyPatch) -> None:
    game = endgame(7102, HEARTS, VARIANTS["SAME_AS_MATCH"], 24)
    threaded = solve(game)
    tried = refuse_threads(monkeypatch)
    monkeypatch.setattr(solver_module, "_THREADS", False)
    assert solve(game) == threaded
    assert tried == []


@pytest.mark.slow
@pytest.mark.parametrize("platform", ["emscripten", "wasi"])
def test_pyodide_and_wasi_are_known_to_have_no_threads(platform: str) -> None:
    """Under Pyodide ``sys.platform`` is "emscripten" (and "wasi" under WASI): the solver
    never tries a thread there. A fresh interpreter imports it as if it ran there."""
    code = "import sys; sys.platform = {!r}; import jass.solver; print(jass.solver._THREADS)"
    for name, expected in ((platform, "False"), ("linux", "True")):
        done = subprocess.run(
            [sys.executable, "-c", code.format(name)], capture_output=True, text=True, check=True
        )
        assert done.stdout.strip() == expected
