"""Trick winner and trick points: rule book §2 (R2.1-R2.4) and §6 (R6.1-R6.5)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jass
from jass import CARDS, Card, CardSet, Contract, Game, Suit, rules

SCHIEBER = rules.SCHIEBER
OLD_UNDENUFE = rules.SCHIEBER.evolve(old_undenufe=True)
SPADES = Contract.trump(Suit.SPADES)
HEARTS = Contract.trump(Suit.HEARTS)
CLUBS = Contract.trump(Suit.CLUBS)
TRUMPS = tuple(Contract.trump(s) for s in Suit)


def cards(text: str) -> list[Card]:
    return [Card.parse(token) for token in text.split()]


# Orders, highest first, written as labels (R2.1).
TRUMP_ORDER = ("J", "9", "A", "K", "Q", "10", "8", "7", "6")
PLAIN_ORDER = ("A", "K", "Q", "J", "10", "9", "8", "7", "6")
UNDENUFE_ORDER = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")

# R2.2, columns: trump, plain (trump contract), OBENABE, UNDENUFE, UNDENUFE old.
POINTS = {
    "A": (11, 11, 11, 0, 11),
    "K": (4, 4, 4, 4, 4),
    "Q": (3, 3, 3, 3, 3),
    "J": (20, 2, 2, 2, 2),
    "10": (10, 10, 10, 10, 10),
    "9": (14, 0, 0, 0, 0),
    "8": (0, 0, 8, 8, 8),
    "7": (0, 0, 0, 0, 0),
    "6": (0, 0, 0, 11, 0),
}
TRUMP_COL, PLAIN_COL, OBENABE_COL, UNDENUFE_COL, OLD_UNDENUFE_COL = range(5)


def order_of(contract: Contract, suit: Suit) -> tuple[str, ...]:
    if contract.trump_suit is suit:
        return TRUMP_ORDER
    if contract is Contract.UNDENUFE:
        return UNDENUFE_ORDER
    return PLAIN_ORDER


def column(contract: Contract, suit: Suit, old_undenufe: bool) -> int:
    if contract.trump_suit is not None:
        return TRUMP_COL if contract.trump_suit is suit else PLAIN_COL
    if contract is Contract.OBENABE:
        return OBENABE_COL
    return OLD_UNDENUFE_COL if old_undenufe else UNDENUFE_COL


def ref_points(card: Card, contract: Contract, old_undenufe: bool = False) -> int:
    return POINTS[card.rank.label][column(contract, card.suit, old_undenufe)]


def ref_winner(trick: Sequence[Card], contract: Contract) -> int:
    """R6.1/R6.2 written from the order lists: trumps beat the led suit, off-suit never wins."""
    led = trick[0].suit

    def key(card: Card) -> tuple[int, int]:
        strength = len(PLAIN_ORDER) - order_of(contract, card.suit).index(card.rank.label)
        if card.suit is contract.trump_suit:
            return (2, strength)
        if card.suit is led:
            return (1, strength)
        return (0, 0)

    return max(range(len(trick)), key=lambda i: key(trick[i]))


# --------------------------------------------------------------------------------------------
# Trick winner
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("contract", Contract.standard(), ids=str)
@pytest.mark.parametrize("suit", list(Suit), ids=str)
def test_rank_order_of_every_suit(contract: Contract, suit: Suit) -> None:
    order = order_of(contract, suit)
    ranked = [Card.parse(label + suit.letter) for label in order]  # highest first
    for high, low in itertools.combinations(range(9), 2):
        # whoever plays it, the higher card of the suit wins a trick led in that suit
        assert jass.trick_winner([ranked[high], ranked[low]], contract) == 0
        assert jass.trick_winner([ranked[low], ranked[high]], contract) == 1
    assert [str(r) for r in contract.rank_order(suit)] == list(order)


@pytest.mark.parametrize(
    ("trick", "contract", "winner"),
    [
        # trump order J 9 A K Q 10 8 7 6
        pytest.param("AH JH 9H KH", "hearts", 1, id="buur-wins"),
        pytest.param("AH 9H KH 10H", "hearts", 1, id="nell-beats-ace"),
        pytest.param("6H 10H 8H 7H", "hearts", 1, id="ten-beats-eight-in-trumps"),
        pytest.param("QH 10H", "hearts", 0, id="queen-beats-ten-in-trumps"),
        # highest trump wins, whatever was led
        pytest.param("AS 6H 7H KS", "hearts", 2, id="highest-trump"),
        pytest.param("AS 6H JH 9H", "hearts", 2, id="buur-over-nell"),
        pytest.param("AH 8S KH 9S", "spades", 3, id="seed-example"),
        pytest.param("AS KS QS 6H", "hearts", 3, id="six-of-trumps-beats-ace"),
        pytest.param("7D 6C AC KD", "clubs", 2, id="jass-kit-example"),
        # no trump: the highest card of the led suit; off-suit never wins
        pytest.param("6S AH AD AC", "hearts", 1, id="trump-ace-wins"),
        pytest.param("6S AD AC KD", "hearts", 0, id="off-suit-never-wins"),
        pytest.param("JS 9S AS KS", "hearts", 2, id="plain-order-ace-high"),
        pytest.param("9S JS 10S 6S", "hearts", 1, id="plain-jack-over-ten"),
        pytest.param("10S 9S", "hearts", 0, id="plain-ten-over-nine"),
        # Obenabe: A high, no trumps
        pytest.param("6S AH AD AC", "obenabe", 0, id="obenabe-off-suit"),
        pytest.param("KS AS JS 9S", "obenabe", 1, id="obenabe-ace"),
        pytest.param("9H JH", "obenabe", 1, id="obenabe-jack-is-plain"),
        # Undenufe: 6 high
        pytest.param("KS AS 6S 7S", "undenufe", 2, id="undenufe-six"),
        pytest.param("KS AS", "undenufe", 0, id="undenufe-ace-lowest"),
        pytest.param("AS 6H 6D 6C", "undenufe", 0, id="undenufe-off-suit"),
        pytest.param("10D 9D 8D 7D", "undenufe", 3, id="undenufe-seven"),
        # incomplete tricks: the card that holds the trick so far
        pytest.param("AH", "spades", 0, id="one-card"),
        pytest.param("AH 8S", "spades", 1, id="two-cards"),
    ],
)
def test_trick_winner_examples(trick: str, contract: str, winner: int) -> None:
    played = cards(trick)
    assert jass.trick_winner(played, Contract.parse(contract)) == winner
    assert ref_winner(played, Contract.parse(contract)) == winner


def test_trick_winner_of_an_empty_trick_raises() -> None:
    with pytest.raises(jass.InvalidInputError):
        jass.trick_winner([], HEARTS)


@pytest.mark.parametrize("contract", Contract.standard(), ids=str)
def test_off_suit_non_trump_never_wins(contract: Contract) -> None:
    for led in CARDS:
        if led.suit is contract.trump_suit:
            continue
        off_suit = [c for c in CARDS if c.suit not in (led.suit, contract.trump_suit)]
        for other in off_suit:
            assert jass.trick_winner([led, other], contract) == 0
        # the led card is the lowest of its suit, the others the highest off-suit cards
        lowest = Card.parse(order_of(contract, led.suit)[-1] + led.suit.letter)
        assert jass.trick_winner([lowest, *off_suit[-3:]], contract) == 0


@pytest.mark.parametrize("contract", TRUMPS, ids=str)
def test_any_trump_beats_any_non_trump(contract: Contract) -> None:
    trump_suit = contract.trump_suit
    assert trump_suit is not None
    for trump in CardSet.full().suit(trump_suit):
        for other in CARDS:
            if other.suit is trump_suit:
                continue
            assert jass.trick_winner([other, trump], contract) == 1
            assert jass.trick_winner([trump, other], contract) == 0


@st.composite
def tricks(draw: st.DrawFn) -> tuple[list[Card], Contract]:
    deck: list[Card] = draw(st.permutations(CARDS))
    size = draw(st.integers(min_value=1, max_value=4))
    return deck[:size], draw(st.sampled_from(Contract.standard()))


@pytest.mark.slow
@settings(max_examples=500)
@given(tricks())
def test_trick_winner_matches_the_reference(case: tuple[list[Card], Contract]) -> None:
    trick, contract = case
    assert jass.trick_winner(trick, contract) == ref_winner(trick, contract)


# --------------------------------------------------------------------------------------------
# Trick points
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rank", list(POINTS))
@pytest.mark.parametrize("contract", Contract.standard(), ids=str)
@pytest.mark.parametrize("old_undenufe", [False, True])
def test_point_table(rank: str, contract: Contract, old_undenufe: bool) -> None:
    ruleset = OLD_UNDENUFE if old_undenufe else SCHIEBER
    for suit in Suit:
        card = Card.parse(rank + suit.letter)
        expected = POINTS[rank][column(contract, suit, old_undenufe)]
        assert jass.trick_points([card], contract, ruleset) == expected, str(card)
        assert contract.points(card, old_undenufe=old_undenufe) == expected


@pytest.mark.parametrize(
    ("card", "contract", "old_undenufe", "points"),
    [
        ("JH", "hearts", False, 20),
        ("9H", "hearts", False, 14),
        ("JS", "hearts", False, 2),
        ("9S", "hearts", False, 0),
        ("8S", "hearts", False, 0),
        ("8S", "obenabe", False, 8),
        ("8S", "undenufe", False, 8),
        ("8S", "undenufe", True, 8),
        ("6S", "undenufe", False, 11),
        ("AS", "undenufe", False, 0),
        ("6S", "undenufe", True, 0),
        ("AS", "undenufe", True, 11),
        ("6S", "obenabe", True, 0),  # old_undenufe changes only Undenufe
        ("AS", "obenabe", True, 11),
        ("JH", "hearts", True, 20),
        ("6H", "hearts", True, 0),
    ],
)
def test_point_table_highlights(card: str, contract: str, old_undenufe: bool, points: int) -> None:
    ruleset = OLD_UNDENUFE if old_undenufe else SCHIEBER
    assert jass.trick_points([Card.parse(card)], Contract.parse(contract), ruleset) == points


@pytest.mark.parametrize("contract", Contract.standard(), ids=str)
@pytest.mark.parametrize("old_undenufe", [False, True])
def test_deck_is_worth_152_and_a_hand_157(contract: Contract, old_undenufe: bool) -> None:
    ruleset = OLD_UNDENUFE if old_undenufe else SCHIEBER
    deck = list(CARDS)
    random.Random(contract.index).shuffle(deck)
    nine = [deck[4 * i : 4 * i + 4] for i in range(9)]
    card_points = sum(jass.trick_points(t, contract, ruleset) for t in nine)
    assert card_points == 152
    with_last = sum(
        jass.trick_points(t, contract, ruleset, last=i == 8) for i, t in enumerate(nine)
    )
    assert with_last == 157
    assert jass.trick_points(deck, contract, ruleset) == 152
    assert sum(ref_points(c, contract, old_undenufe) for c in CARDS) == 152
    assert sum(contract.card_points(old_undenufe=old_undenufe)) == 152


@pytest.mark.parametrize(
    ("trick", "contract"),
    [("AH 8S KH 9S", "spades"), ("6D", "undenufe"), ("7S 7H 7D 7C", "obenabe"), ("JC", "clubs")],
)
def test_last_trick_adds_five(trick: str, contract: str) -> None:
    played = cards(trick)
    plain = jass.trick_points(played, Contract.parse(contract))
    assert jass.trick_points(played, Contract.parse(contract), last=True) == plain + 5
    assert jass.trick_points(played, Contract.parse(contract), last=False) == plain
    assert jass.trick_points(played, Contract.parse(contract), SCHIEBER, last=True) == plain + 5


@pytest.mark.slow
@settings(max_examples=300)
@given(tricks(), st.booleans(), st.booleans())
def test_trick_points_match_the_reference(
    case: tuple[list[Card], Contract], old_undenufe: bool, last: bool
) -> None:
    trick, contract = case
    ruleset = OLD_UNDENUFE if old_undenufe else SCHIEBER
    expected = sum(ref_points(c, contract, old_undenufe) for c in trick) + (5 if last else 0)
    assert jass.trick_points(trick, contract, ruleset, last=last) == expected


# --------------------------------------------------------------------------------------------
# The seed example (R6.5) and whole hands
# --------------------------------------------------------------------------------------------


def test_seed_example_trick() -> None:
    trick = cards("AH 8S KH 9S")
    assert jass.trick_winner(trick, SPADES) == 3  # the Nell
    assert jass.trick_points(trick, SPADES) == 11 + 0 + 4 + 14 == 29


def test_seed_example_multiplied() -> None:
    # rule book R6.5: 29 x 2 = 58 under spades x2 (SWISSLOS_2500: black suits double).
    multiplier = rules.SCHIEBER.multiplier(SPADES)
    assert multiplier == 2
    assert jass.trick_points(cards("AH 8S KH 9S"), SPADES) * multiplier == 58


@pytest.mark.parametrize(
    ("contract", "multiplier"),
    [("hearts", 1), ("diamonds", 1), ("spades", 2), ("clubs", 2), ("obenabe", 3), ("undenufe", 3)],
)
def test_schieber_multipliers(contract: str, multiplier: int) -> None:
    # rule book R8.5 / §12: SWISSLOS_2500 is (♥ 1, ♦ 1, ♠ 2, ♣ 2, Obenabe 3, Undenufe 3).
    assert rules.SCHIEBER.multiplier(Contract.parse(contract)) == multiplier


@settings(max_examples=40)
@given(
    st.integers(min_value=0, max_value=2**32), st.sampled_from(Contract.standard()), st.booleans()
)
def test_a_played_hand_is_worth_157(seed: int, contract: Contract, old_undenufe: bool) -> None:
    ruleset = OLD_UNDENUFE if old_undenufe else SCHIEBER
    game = Game.new(ruleset, seed=seed).deal().choose(contract)
    rng = random.Random(seed)
    played: list[Card] = []
    leader = game.to_move
    assert leader is not None
    won = [0, 0]
    for trick_number in range(9):
        trick: list[Card] = []
        for _ in range(4):
            card = rng.choice(sorted(game.legal_moves()))
            trick.append(card)
            game = game.play(card)
        played.extend(trick)
        winner = leader.offset(ref_winner(trick, contract))
        won[winner.team] += sum(ref_points(c, contract, old_undenufe) for c in trick)
        if trick_number == 8:
            won[winner.team] += 5
        else:
            assert game.to_move == winner  # the winner leads the next trick (R6.3)
        leader = winner
    assert sorted(played) == sorted(CARDS)
    assert sum(won) == 157
    assert tuple(game.hand_points) == (won[0], won[1])
