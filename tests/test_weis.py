"""Weis (melds): rule book §7 (R7.1-R7.13) and §11 options 13-18.

Every expected value here is written by hand from the rule book; none is computed by the library.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable

import pytest

from jass import (
    CardSet,
    Contract,
    DeclareWeis,
    Game,
    IllegalActionError,
    IllegalReason,
    InvalidInputError,
    RuleSet,
    Seat,
    Suit,
    Team,
    Weis,
    WeisKind,
    best_weis,
    find_weis,
    resolve_declared_weis,
    resolve_weis,
    rules,
)
from tests.helpers import play_cards, play_lowest, start

SCHIEBER = rules.SCHIEBER
SPADES = Contract.trump(Suit.SPADES)
DIAMONDS = Contract.trump(Suit.DIAMONDS)
CLUBS = Contract.trump(Suit.CLUBS)
OBENABE = Contract.OBENABE
UNDENUFE = Contract.UNDENUFE

SEQ = WeisKind.SEQUENCE
FOUR = WeisKind.QUARTET
RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")  # natural order, lowest first

Sig = tuple[WeisKind, int, CardSet]


def sig(weis: Weis) -> Sig:
    return (weis.kind, weis.points, weis.cards)


def sigs(found: Iterable[Weis]) -> Counter[Sig]:
    """A multiset of Weis, compared by kind, points and cards."""
    return Counter(sig(w) for w in found)


def expect(*items: tuple[WeisKind, int, str]) -> Counter[Sig]:
    return Counter((kind, points, CardSet.parse(text)) for kind, points, text in items)


def found(text: str, ruleset: RuleSet = SCHIEBER) -> Counter[Sig]:
    return sigs(find_weis(CardSet.parse(text), ruleset))


def total(text: str, ruleset: RuleSet = SCHIEBER) -> int:
    return sum(w.points for w in find_weis(CardSet.parse(text), ruleset))


def run(suit: str, start: int, length: int) -> str:
    """``length`` cards of ``suit`` in natural order from ``RANKS[start]``."""
    return " ".join(rank + suit for rank in RANKS[start : start + length])


def four(rank: str) -> str:
    return " ".join(rank + suit for suit in "SHDC")


# --- R7.1: sequences in the natural order, in every contract ---------------------------------


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("9S 10S JS", "9S 10S JS"),  # J-10-9 (a trump sequence when spades are trumps)
        ("6H 7H 8H", "6H 7H 8H"),  # the top of Undenufe is still a natural run
        ("QD KD AD", "QD KD AD"),
        ("8C 9C 10C 6S 8S", "8C 9C 10C"),
    ],
)
def test_three_in_natural_order_is_a_sequence(hand: str, expected: str) -> None:
    assert found(hand) == expect((SEQ, 20, expected))


@pytest.mark.parametrize(
    "hand",
    [
        "JS 9S AS",  # consecutive in trump order (J 9 A), not in natural order
        "AS KS 10S",  # A K _ 10: a gap
        "KH AH 6H 7H",  # no wrap-around from the Ace to the 6
        "6S 7S 6H 7H 6D 7D",  # runs of two only
        "6S 8S 10S QS AS 7H 9H JH KH",  # a nine-card hand with no Weis
        "AS AH AD KS KH KD 6C 8C 10C",  # three of a kind is not a quartet
        "6S 7H 8D 9C 10S JH QD KC AS",  # ranks in a row, suits mixed
    ],
)
def test_hands_without_weis(hand: str) -> None:
    assert find_weis(CardSet.parse(hand)) == ()
    assert find_weis(CardSet.parse(hand), SCHIEBER.evolve(small_weis=True, kreuzweis=False)) == ()


# --- R7.2: the value table, big and small -------------------------------------------------------

BIG_SEQUENCE = {3: 20, 4: 50, 5: 100, 6: 150, 7: 200, 8: 250, 9: 300}
SMALL_SEQUENCE = {3: 20, 4: 50, 5: 100, 6: 100, 7: 100, 8: 100, 9: 100}


@pytest.mark.parametrize("length", range(3, 10))
@pytest.mark.parametrize(("suit", "from_top"), [("H", False), ("S", True), ("D", False)])
def test_sequence_values_big_and_small(length: int, suit: str, from_top: bool) -> None:
    start = 9 - length if from_top else 0
    cards = run(suit, start, length)
    assert found(cards) == expect((SEQ, BIG_SEQUENCE[length], cards))
    small = SCHIEBER.evolve(small_weis=True)
    assert found(cards, small) == expect((SEQ, SMALL_SEQUENCE[length], cards))


@pytest.mark.parametrize(
    ("rank", "big", "small"),
    [
        ("A", 100, 100),
        ("K", 100, 100),
        ("Q", 100, 100),
        ("10", 100, 100),
        ("9", 150, 150),
        ("J", 200, 200),
        ("8", 100, None),
        ("7", 100, None),
        ("6", 100, None),
    ],
)
def test_quartet_values_big_and_small(rank: str, big: int, small: int | None) -> None:
    cards = four(rank)
    assert found(cards) == expect((FOUR, big, cards))
    small_rules = SCHIEBER.evolve(small_weis=True)
    assert found(cards, small_rules) == (expect((FOUR, small, cards)) if small else Counter())
    # In a nine-card hand whose other five cards form nothing.
    hand = quartet_hand(rank)
    assert len(CardSet.parse(hand)) == 9
    assert total(hand) == big
    assert total(hand, small_rules) == (small or 0)


def quartet_hand(rank: str) -> str:
    """Four of ``rank`` plus five cards three and six ranks away: no run, no other quartet."""
    i = RANKS.index(rank)
    three, six = RANKS[(i + 3) % 9], RANKS[(i + 6) % 9]
    return " ".join([four(rank), three + "S", three + "H", six + "D", six + "C", six + "S"])


def test_low_quartets_are_nothing_under_small_weis_also_in_a_nine_card_hand() -> None:
    hand = "6S 6H 6D 6C 7S 7H 7D 7C AS"
    assert total(hand) == 200  # four 6s + four 7s, big Weis
    assert find_weis(CardSet.parse(hand), SCHIEBER.evolve(small_weis=True)) == ()
    assert find_weis(CardSet.parse(hand), SCHIEBER.evolve(small_weis=True, kreuzweis=False)) == ()


# --- R7.5: Kreuzweis ------------------------------------------------------------------------

KREUZ = SCHIEBER.evolve(kreuzweis=True)
NO_KREUZ = SCHIEBER.evolve(kreuzweis=False)


def test_kreuzweis_default_is_allowed() -> None:
    assert SCHIEBER.kreuzweis is True


def test_kreuzweis_four_kings_and_sequence_from_the_ace_is_150() -> None:
    hand = "AH KH QH JH KS KD KC 6S 8D"
    assert found(hand, KREUZ) == expect((FOUR, 100, four("K")), (SEQ, 50, "JH QH KH AH"))
    assert total(hand, KREUZ) == 150


def test_kreuzweis_four_kings_and_sequence_from_the_king() -> None:
    hand = "KH QH JH 10H KS KD KC 6S 8D"
    assert found(hand, KREUZ) == expect((FOUR, 100, four("K")), (SEQ, 50, "10H JH QH KH"))


def test_kreuzweis_a_card_in_a_sequence_and_in_a_quartet_two_quartets() -> None:
    hand = "KS KH KD KC QS QH QD QC JH"
    assert found(hand, KREUZ) == expect(
        (FOUR, 100, four("K")), (FOUR, 100, four("Q")), (SEQ, 20, "JH QH KH")
    )
    assert found(hand, NO_KREUZ) == expect((FOUR, 100, four("K")), (FOUR, 100, four("Q")))


def test_kreuzweis_long_run_and_quartet_both_count_whole() -> None:
    hand = "6H 7H 8H 9H 10H JH 9S 9D 9C"
    assert found(hand, KREUZ) == expect((FOUR, 150, four("9")), (SEQ, 150, run("H", 0, 6)))


@pytest.mark.parametrize("small", [False, True])
def test_no_kreuzweis_four_kings_and_king_to_ten_is_120(small: bool) -> None:
    no_kreuz = NO_KREUZ.evolve(small_weis=small)
    hand = "KH QH JH 10H KS KD KC 6S 8D"
    assert found(hand, no_kreuz) == expect((FOUR, 100, four("K")), (SEQ, 20, "10H JH QH"))
    assert total(hand, no_kreuz) == 120


@pytest.mark.parametrize("small", [False, True])
def test_no_kreuzweis_four_kings_and_ace_to_jack_is_100(small: bool) -> None:
    no_kreuz = NO_KREUZ.evolve(small_weis=small)
    hand = "AH KH QH JH KS KD KC 6S 8D"
    assert found(hand, no_kreuz) == expect((FOUR, 100, four("K")))
    assert total(hand, no_kreuz) == 100


def test_no_kreuzweis_the_sub_run_above_the_quartet_card_counts() -> None:
    # Whole run 9-K: 100. Four 10s (100) + J-Q-K of hearts (20), the 9 left over: 120.
    hand = "9H 10H JH QH KH 10S 10D 10C 6S"
    assert found(hand, NO_KREUZ) == expect((FOUR, 100, four("10")), (SEQ, 20, "JH QH KH"))


def test_no_kreuzweis_equal_totals_sequence_and_quartet_of_100() -> None:
    # Whole run: 100. Four 8s (100) leave 6-7 and 9-10: also 100. The 5-sequence is the
    # better single Weis (R7.9 step 2), so the run stays whole.
    hand = "6H 7H 8H 9H 10H 8S 8D 8C AS"
    assert found(hand, NO_KREUZ) == expect((SEQ, 100, run("H", 0, 5)))


def test_no_kreuzweis_small_weis_low_quartet_splits_nothing() -> None:
    # Four 8s are no Weis under small Weis, so they cannot split the run.
    small = NO_KREUZ.evolve(small_weis=True)
    hand = "6H 7H 8H 9H 10H 8S 8D 8C AS"
    assert found(hand, small) == expect((SEQ, 100, run("H", 0, 5)))
    hand = "6H 7H 8H 9H 7S 7D 7C AS KD"
    assert found(hand, small) == expect((SEQ, 50, run("H", 0, 4)))


def test_no_kreuzweis_a_quartet_splits_a_run_when_that_scores_more() -> None:
    # Whole run: 150. Four 9s (150) + 6-7-8 of hearts (20), 10-J left over: 170.
    hand = "6H 7H 8H 9H 10H JH 9S 9D 9C"
    assert found(hand, NO_KREUZ) == expect((FOUR, 150, four("9")), (SEQ, 20, "6H 7H 8H"))


def test_no_kreuzweis_equal_totals_go_to_the_set_with_the_better_single_weis() -> None:
    # Whole run: 150. Four Kings (100) + 9-10-J-Q of hearts (50): also 150. The 150 wins.
    hand = "9H 10H JH QH KH AH KS KD KC"
    assert found(hand, NO_KREUZ) == expect((SEQ, 150, run("H", 3, 6)))


def test_no_kreuzweis_unrelated_quartet_and_run_both_count() -> None:
    hand = "AS AH AD AC 6D 7D 8D 9D 10C"
    assert found(hand, NO_KREUZ) == expect((FOUR, 100, four("A")), (SEQ, 50, "6D 7D 8D 9D"))


@pytest.mark.parametrize("kreuzweis", [True, False])
@pytest.mark.parametrize("split", [True, False])
def test_a_run_is_never_split_just_to_score_more(kreuzweis: bool, split: bool) -> None:
    small = SCHIEBER.evolve(small_weis=True, kreuzweis=kreuzweis, small_weis_split_long_runs=split)
    # Eight in a row under small Weis: 100, not 5 + 3 (100 + 20) nor anything else.
    eight = run("H", 0, 8) + " AS"
    assert found(eight, small) == expect((SEQ, 100, run("H", 0, 8)))
    # Six in a row: 100, not 3 + 3.
    six = run("D", 3, 6)
    assert found(six, small) == expect((SEQ, 100, six))
    # Big Weis: a 7-run is 200, not 4 + 3 (split_long_runs needs small_weis, R7.3).
    big = SCHIEBER.evolve(kreuzweis=kreuzweis)
    assert found(run("C", 1, 7), big) == expect((SEQ, 200, run("C", 1, 7)))


# --- R7.3: small_weis_split_long_runs ------------------------------------------------------------


@pytest.mark.parametrize("kreuzweis", [True, False])
def test_nine_in_a_row_under_small_weis_split_is_100_plus_50(kreuzweis: bool) -> None:
    split = SCHIEBER.evolve(small_weis=True, small_weis_split_long_runs=True, kreuzweis=kreuzweis)
    assert found(run("H", 0, 9), split) == expect(
        (SEQ, 100, "10H JH QH KH AH"), (SEQ, 50, "6H 7H 8H 9H")
    )
    assert total(run("H", 0, 9), split) == 150


@pytest.mark.parametrize("kreuzweis", [True, False])
def test_nine_in_a_row_under_small_weis_without_split_is_100(kreuzweis: bool) -> None:
    plain = SCHIEBER.evolve(small_weis=True, small_weis_split_long_runs=False, kreuzweis=kreuzweis)
    assert found(run("S", 0, 9), plain) == expect((SEQ, 100, run("S", 0, 9)))


@pytest.mark.parametrize("kreuzweis", [True, False])
def test_split_option_is_refused_under_big_weis(kreuzweis: bool) -> None:
    # R7.3 makes it a sub-option of small Weis: under the big table a nine-card run is one
    # 300, and a split could only lose points, so the combination is refused, not ignored.
    with pytest.raises(InvalidInputError, match=r"'small_weis_split_long_runs' and 'small_weis'"):
        SCHIEBER.evolve(small_weis=False, small_weis_split_long_runs=True, kreuzweis=kreuzweis)
    big = SCHIEBER.evolve(small_weis=False, kreuzweis=kreuzweis)
    assert found(run("C", 0, 9), big) == expect((SEQ, 300, run("C", 0, 9)))


# --- R7.9: comparison ---------------------------------------------------------------------------


def weis_of(text: str, ruleset: RuleSet = SCHIEBER) -> Weis:
    """The single Weis of ``text``."""
    weis = find_weis(CardSet.parse(text), ruleset)
    assert len(weis) == 1, weis
    return weis[0]


def best_seat(
    declared: dict[int, str],
    contract: Contract,
    forehand: int = 0,
    ruleset: RuleSet = SCHIEBER,
) -> int:
    """The seat whose single Weis wins; ``declared`` maps seats to the cards of their Weis."""
    lists = [[weis_of(declared[s], ruleset)] if s in declared else [] for s in range(4)]
    best = best_weis(lists, contract, Seat(forehand), ruleset)
    assert best is not None
    seat, weis = best
    assert weis == lists[seat][0]
    result = resolve_declared_weis(lists, contract, Seat(forehand), ruleset)
    assert result.winner == seat
    assert result.best == weis
    return int(seat)


# Step 1: points. In each case the loser sits at the forehand with every later advantage.
@pytest.mark.parametrize(
    ("contract", "loser", "winner"),
    [
        (CLUBS, "QC KC AC", "6H 7H 8H 9H"),  # trump 20 from the Ace loses to a plain 50
        (UNDENUFE, "6C 7C 8C", "JH QH KH AH"),  # the Undenufe-best 20 loses to the worst 50
        (CLUBS, "10C JC QC KC AC", four("9")),  # 150 beats a longer trump 100
        (UNDENUFE, "10C JC QC KC AC", four("9")),
        (CLUBS, four("9"), four("J")),  # 200 beats 150
        (UNDENUFE, four("9"), four("J")),
        (CLUBS, "9C 10C JC", "6H 7H 8H 9H 10H"),  # 100 beats a trump 20
    ],
)
def test_points_decide_first(contract: Contract, loser: str, winner: str) -> None:
    assert best_seat({0: loser, 3: winner}, contract) == 3


# Step 2: number of cards, with equal points.
@pytest.mark.parametrize(
    ("contract", "quartet", "sequence"),
    [
        (CLUBS, four("A"), "6H 7H 8H 9H 10H"),  # the best quartet loses to the lowest plain run
        (UNDENUFE, four("6"), "10H JH QH KH AH"),  # Undenufe-best quartet, Undenufe-worst run
        (OBENABE, four("A"), "6H 7H 8H 9H 10H"),
    ],
)
def test_equal_points_sequence_beats_quartet(
    contract: Contract, quartet: str, sequence: str
) -> None:
    assert SCHIEBER.weis_tie_sequence_vs_quartet.name == "SEQUENCE_FIRST"
    assert best_seat({0: quartet, 3: sequence}, contract) == 3
    first = SCHIEBER.evolve(weis_tie_sequence_vs_quartet="SEQUENCE_FIRST")
    assert best_seat({0: quartet, 3: sequence}, contract, ruleset=first) == 3


@pytest.mark.parametrize(
    ("contract", "sequence", "quartet"),
    [
        (CLUBS, "10C JC QC KC AC", four("6")),  # a trump run from the Ace loses to four 6s
        (UNDENUFE, "6H 7H 8H 9H 10H", four("A")),  # the Undenufe-best run loses to four Aces
    ],
)
def test_equal_points_quartet_first_option(contract: Contract, sequence: str, quartet: str) -> None:
    quartet_first = SCHIEBER.evolve(weis_tie_sequence_vs_quartet="QUARTET_FIRST")
    assert best_seat({0: sequence, 3: quartet}, contract, ruleset=quartet_first) == 3
    # The same Weis under the default: the sequence (at the forehand) wins.
    assert best_seat({0: sequence, 3: quartet}, contract) == 0


@pytest.mark.parametrize(
    ("contract", "five", "six"),
    [
        (CLUBS, "10C JC QC KC AC", "6H 7H 8H 9H 10H JH"),  # trump, from the Ace, at the forehand
        (UNDENUFE, "6C 7C 8C 9C 10C", "9H 10H JH QH KH AH"),  # the Undenufe-best five
    ],
)
def test_small_weis_longer_sequence_beats_shorter(contract: Contract, five: str, six: str) -> None:
    small = SCHIEBER.evolve(small_weis=True)
    assert weis_of(five, small).points == weis_of(six, small).points == 100
    assert best_seat({0: five, 3: six}, contract, ruleset=small) == 3


def test_small_weis_seven_beats_six() -> None:
    small = SCHIEBER.evolve(small_weis=True)
    assert best_seat({0: "9C 10C JC QC KC AC", 3: run("H", 0, 7)}, CLUBS, ruleset=small) == 3


# Step 3: height.
@pytest.mark.parametrize("contract", [CLUBS, OBENABE])
def test_higher_sequence_wins_outside_undenufe(contract: Contract) -> None:
    assert best_seat({0: "7H 8H 9H", 3: "8D 9D 10D"}, contract) == 3
    assert best_seat({0: "6S 7S 8S 9S", 3: "JD QD KD AD"}, contract) == 3


def test_lower_sequence_wins_in_undenufe() -> None:
    assert SCHIEBER.undenufe_reverse_weis is True
    assert best_seat({0: "7H 8H 9H", 3: "6D 7D 8D"}, UNDENUFE) == 3  # 6-7-8 beats 7-8-9
    assert best_seat({0: "8H 9H 10H", 3: "7D 8D 9D"}, UNDENUFE) == 3  # S3's example
    assert best_seat({0: "JS QS KS AS", 3: "6D 7D 8D 9D"}, UNDENUFE) == 3


def test_undenufe_without_reversal_keeps_the_higher_sequence() -> None:
    literal = SCHIEBER.evolve(undenufe_reverse_weis=False)
    assert best_seat({0: "6D 7D 8D", 3: "7H 8H 9H"}, UNDENUFE, ruleset=literal) == 3
    assert best_seat({0: "6D 7D 8D 9D", 3: "JS QS KS AS"}, UNDENUFE, ruleset=literal) == 3


QUARTET_ORDER = ("A", "K", "Q", "10", "8", "7", "6")  # highest first (R7.9)
ADJACENT = list(itertools.pairwise(QUARTET_ORDER))


@pytest.mark.parametrize(("higher", "lower"), [*ADJACENT, ("A", "6"), ("10", "7")])
@pytest.mark.parametrize("contract", [CLUBS, OBENABE])
def test_quartet_height(contract: Contract, higher: str, lower: str) -> None:
    assert best_seat({0: four(lower), 3: four(higher)}, contract) == 3


@pytest.mark.parametrize(("higher", "lower"), [*ADJACENT, ("A", "6"), ("10", "7")])
def test_quartet_height_reversed_in_undenufe(higher: str, lower: str) -> None:
    assert best_seat({0: four(higher), 3: four(lower)}, UNDENUFE) == 3  # four K beat four A


@pytest.mark.parametrize(("higher", "lower"), [*ADJACENT, ("A", "6")])
def test_quartet_height_not_reversed_without_the_option(higher: str, lower: str) -> None:
    literal = SCHIEBER.evolve(undenufe_reverse_weis=False)
    assert best_seat({0: four(lower), 3: four(higher)}, UNDENUFE, ruleset=literal) == 3


def test_height_is_compared_before_trump() -> None:
    # A trump 9-10-J (top J) loses to a plain 10-J-Q (top Q); trump order is not used.
    assert best_seat({0: "9C 10C JC", 3: "10H JH QH"}, CLUBS) == 3
    assert best_seat({0: "9S 10S JS QS", 3: "10H JH QH KH"}, SPADES) == 3
    # ... and the trump 6-7-8 is not "higher" in any way: a plain 7-8-9 beats it.
    assert best_seat({0: "6C 7C 8C", 3: "7H 8H 9H"}, CLUBS) == 3


def test_undenufe_height_comes_before_position() -> None:
    # Undenufe has no trump; height still comes before position.
    assert best_seat({0: "10H JH QH", 3: "9D 10D JD"}, UNDENUFE) == 3


# Step 4: trump.
@pytest.mark.parametrize(
    ("plain", "trump"),
    [("7H 8H 9H", "7C 8C 9C"), ("JD QD KD AD", "JC QC KC AC"), (run("S", 0, 5), run("C", 0, 5))],
)
def test_equal_sequences_the_trump_one_wins(plain: str, trump: str) -> None:
    assert best_seat({0: plain, 3: trump}, CLUBS) == 3
    assert best_seat({0: trump, 3: plain}, CLUBS) == 0


def test_no_trump_step_in_undenufe_or_obenabe() -> None:
    # The same two sequences without trumps: position (the forehand) decides.
    for contract in (UNDENUFE, OBENABE):
        assert best_seat({0: "7H 8H 9H", 3: "7C 8C 9C"}, contract) == 0
        assert best_seat({0: "7C 8C 9C", 3: "7H 8H 9H"}, contract) == 0


# Step 5: position, in trick-1 order from the forehand.
@pytest.mark.parametrize("contract", [CLUBS, UNDENUFE])
@pytest.mark.parametrize(
    ("seats", "forehand", "winner"),
    [
        ((1, 3), 0, 1),
        ((1, 3), 1, 1),
        ((1, 3), 2, 3),
        ((1, 3), 3, 3),
        ((0, 2), 1, 2),
        ((0, 2), 3, 0),
        ((0, 1), 1, 1),
        ((3, 0), 0, 0),
        ((3, 0), 3, 3),
    ],
)
def test_position_closest_to_the_forehand_wins(
    contract: Contract, seats: tuple[int, int], forehand: int, winner: int
) -> None:
    a, b = seats
    assert best_seat({a: "7H 8H 9H", b: "7D 8D 9D"}, contract, forehand) == winner
    assert best_seat({a: "7D 8D 9D", b: "7H 8H 9H"}, contract, forehand) == winner


def test_best_weis_none_when_nobody_declared() -> None:
    assert best_weis([[], [], [], []], CLUBS, Seat(0)) is None
    assert best_weis([(), (), (), ()], UNDENUFE, Seat(2)) is None


# --- R7.8: resolution ---------------------------------------------------------------------------


@pytest.mark.parametrize("contract", [SPADES, CLUBS, UNDENUFE])
def test_best_team_scores_all_weis_of_both_partners(contract: Contract) -> None:
    declared = [
        [weis_of("6H 7H 8H 9H"), weis_of("8D 9D 10D")],  # 50 + 20
        [weis_of("JH QH KH")],  # 20: equals the winner's second Weis
        [weis_of("JC QC KC")],  # 20
        [weis_of("6C 7C 8C")],  # 20
    ]
    result = resolve_declared_weis(declared, contract, Seat(0))
    assert result.winner == Seat(0)
    assert result.team == Team(0)
    assert result.best is not None
    assert sig(result.best) == (SEQ, 50, CardSet.parse("6H 7H 8H 9H"))
    assert result.points == (90, 0)


@pytest.mark.parametrize("contract", [SPADES, UNDENUFE])
def test_partner_lower_weis_scores_even_below_the_opponents(contract: Contract) -> None:
    declared = [
        [weis_of("6S 7S 8S 9S")],  # 50
        [weis_of("6D 7D 8D 9D 10D")],  # 100: the best
        [weis_of("JC QC KC AC")],  # 50
        [weis_of("7H 8H 9H")],  # 20: the partner's, lower than both opponents'
    ]
    result = resolve_declared_weis(declared, contract, Seat(0))
    assert result.winner == Seat(1)
    assert result.team == Team(1)
    assert result.points == (0, 120)


def test_other_team_scores_nothing_with_more_total_points() -> None:
    # Team 0 has 100 + 100 + 50 but its best single Weis (100) loses to four Jacks (200).
    declared = [
        [weis_of(four("A")), weis_of("6H 7H 8H 9H 10H")],
        [weis_of(four("J"))],
        [weis_of("6D 7D 8D 9D")],
        [],
    ]
    result = resolve_declared_weis(declared, CLUBS, Seat(0))
    assert result.winner == Seat(1)
    assert result.points == (0, 200)


@pytest.mark.parametrize("contract", [SPADES, OBENABE, UNDENUFE])
def test_nobody_declared_no_winner(contract: Contract) -> None:
    result = resolve_declared_weis([(), (), (), ()], contract, Seat(1))
    assert result.winner is None
    assert result.best is None
    assert result.team is None
    assert result.points == (0, 0)
    hands = [CardSet.parse(h) for h in NO_WEIS_DEAL]
    assert resolve_weis(hands, contract, Seat(0)).winner is None
    assert resolve_weis(hands, contract, Seat(0)).points == (0, 0)


def test_resolve_weis_trump_j_10_9_is_a_sequence() -> None:
    hands = [CardSet.parse(h) for h in ("9S 10S JS", "", "", "")]
    result = resolve_weis(hands, SPADES, Seat(0))
    assert result.winner == Seat(0)
    assert result.points == (20, 0)
    assert result.best is not None
    assert result.best.cards == CardSet.parse("9S 10S JS")


@pytest.mark.parametrize(
    ("contract", "quartet"), [(UNDENUFE, four("A")), (OBENABE, four("6")), (CLUBS, four("8"))]
)
def test_quartets_count_in_every_contract(contract: Contract, quartet: str) -> None:
    hands = [CardSet.parse(h) for h in ("", quartet, "", "")]
    result = resolve_weis(hands, contract, Seat(0))
    assert result.winner == Seat(1)
    assert result.points == (0, 100)


@pytest.mark.parametrize("contract", [SPADES, UNDENUFE])
def test_resolve_weis_on_a_full_deal(contract: Contract) -> None:
    result = resolve_weis([CardSet.parse(h) for h in DEAL], contract, Seat(0))
    assert result.winner == Seat(0)
    assert result.points == (90, 0)
    assert [sigs(d) for d in result.declared] == DEAL_WEIS


# --- Game level ---------------------------------------------------------------------------------

# Seat 0: 6-7-8-9 of hearts (50) and 8-9-10 of diamonds (20); seat 1: J-Q-K of hearts (20);
# seat 2: J-Q-K of clubs (20); seat 3: nothing. No Stöck in spades or diamonds.
DEAL = (
    "6S 8S 6H 7H 8H 9H 8D 9D 10D",
    "7S 9S JH QH KH 6D 7D 7C 9C",
    "10S QS AS 10H JD KD JC QC KC",
    "JS KS AH QD AD 6C 8C 10C AC",
)
S0_50 = (SEQ, 50, "6H 7H 8H 9H")
S0_20 = (SEQ, 20, "8D 9D 10D")
S1_20 = (SEQ, 20, "JH QH KH")
S2_20 = (SEQ, 20, "JC QC KC")
DEAL_WEIS = [expect(S0_50, S0_20), expect(S1_20), expect(S2_20), expect()]
# Trick 1, forehand seat 0: seat 3's Ace of diamonds takes it in every contract but Undenufe.
TRICK_1 = ("10D", "7D", "KD", "AD")
# Trick 2 (spades), seat 3 leads: seat 0 trumps in with the 6 and takes 2 points.
TRICK_2 = ("6C", "6S", "7C", "JC")

# Nobody holds a Weis (alternating ranks, no quartet).
NO_WEIS_DEAL = (
    "6S 8S 10S QS AS 7H 9H JH KH",
    "7S 9S JS KS 6H 8H 10H QH AH",
    "6D 8D 10D QD AD 7C 9C JC KC",
    "7D 9D JD KD 6C 8C 10C QC AC",
)

# Obenabe, seat 1 forehand: team 1 holds the top cards of every suit and takes all nine tricks
# whatever anyone plays; team 0's only Weis is 6-7-8 of spades (seat 0); team 1 has none.
MATCH_DEAL = (
    "6S 7S 8S 6H 8H 7D 9D 6C 8C",
    "10S QS AS JH KH QD AD JC KC",
    "9S 7H 9H 6D 8D 10D 7C 9C 10C",
    "JS KS 10H QH AH JD KD QC AC",
)


MANUAL = SCHIEBER.evolve(weis_declaration="MANUAL")


@pytest.mark.parametrize(
    ("contract", "after_trick_1"),
    [
        (SPADES, (2 * 90, 2 * 25)),  # x2; AD takes 10 + 0 + 4 + 11
        (DIAMONDS, (90, 25)),  # x1; trump 10 + 7 + K + A = 10 + 0 + 4 + 11
        (OBENABE, (3 * 90, 3 * 25)),  # x3
        (UNDENUFE, (3 * 90, 3 * 14)),  # x3; the 7D takes 10 + 0 + 4 + 0
    ],
)
def test_auto_weis_scored_at_the_end_of_trick_1(
    contract: Contract, after_trick_1: tuple[int, int]
) -> None:
    game = start(SCHIEBER, DEAL, contract)
    assert game.hand_info is not None
    assert game.hand_info.forehand == Seat(0)
    three = play_cards(game, TRICK_1[:3])
    assert three.scores == (0, 0)
    assert three.weis_result is None
    assert three.hand_weis_stoeck == ((0, 0), (0, 0))
    done = three.play(TRICK_1[3])
    assert done.scores == after_trick_1
    assert done.hand_weis_stoeck == ((90, 0), (0, 0))
    result = done.weis_result
    assert result is not None
    assert result.winner == Seat(0)
    assert result.points == (90, 0)


def test_auto_scores_change_exactly_by_weis_and_trick() -> None:
    game = play_cards(start(SCHIEBER, DEAL, SPADES), TRICK_1)
    assert game.scores == (180, 50)
    game = play_cards(game, TRICK_2)
    assert game.scores == (184, 50)  # the trick only: 2 x 2; the Weis are not scored again
    assert game.hand_weis_stoeck == ((90, 0), (0, 0))


def test_auto_declared_weis_appear_with_each_first_card() -> None:
    game = start(SCHIEBER, DEAL, SPADES)
    assert game.declared_weis == (None, None, None, None)
    game = game.play(TRICK_1[0])
    assert game.declared_weis[1:] == (None, None, None)
    first = game.declared_weis[0]
    assert first is not None
    assert sigs(first) == DEAL_WEIS[0]
    game = play_cards(game, TRICK_1[1:])
    declared = game.declared_weis
    assert all(d is not None for d in declared)
    assert [sigs(d or ()) for d in declared] == DEAL_WEIS


def test_auto_hand_score_weis() -> None:
    game = play_lowest(start(SCHIEBER, DEAL, SPADES))
    score = game.hand_results[-1]
    assert score.weis == (90, 0)
    assert score.stoeck == (0, 0)
    assert score.multiplier == 2
    assert score.totals == (
        2 * (score.card_points[0] + score.bonus[0] + 90),
        2 * (score.card_points[1] + score.bonus[1]),
    )
    assert game.scores == score.totals


def test_auto_no_weis_in_the_deal() -> None:
    game = play_lowest(start(SCHIEBER, NO_WEIS_DEAL, SPADES))
    assert game.hand_results[-1].weis == (0, 0)
    assert game.shown_weis == ()


def test_shown_weis_is_the_winning_teams_weis_after_trick_1_only() -> None:
    game = start(SCHIEBER, DEAL, SPADES)
    assert game.shown_weis == ()
    three = play_cards(game, TRICK_1[:3])
    assert three.shown_weis == ()
    done = three.play(TRICK_1[3])
    assert sigs(done.shown_weis) == expect(S0_50, S0_20, S2_20)  # not seat 1's J-Q-K
    assert sigs(play_cards(done, TRICK_2).shown_weis) == expect(S0_50, S0_20, S2_20)


def test_weis_off_scores_no_weis() -> None:
    off = SCHIEBER.evolve(weis=False)
    game = play_cards(start(off, DEAL, SPADES), TRICK_1)
    assert game.scores == (0, 50)
    assert game.weis_result is None
    assert game.shown_weis == ()
    assert game.hand_weis_stoeck == ((0, 0), (0, 0))
    assert play_lowest(game).hand_results[-1].weis == (0, 0)


def test_weis_off_in_manual_mode_scores_no_weis_either() -> None:
    off = MANUAL.evolve(weis=False)
    game = play_cards(start(off, DEAL, SPADES), TRICK_1)
    assert game.scores == (0, 50)
    assert game.weis_result is None


# weis_requires_trick ----------------------------------------------------------------------------


def test_weis_requires_trick_default_is_false() -> None:
    assert SCHIEBER.weis_requires_trick is False


@pytest.mark.parametrize("requires", [False, True])
def test_weis_credit_with_or_without_a_trick_first(requires: bool) -> None:
    ruleset = SCHIEBER.evolve(weis_requires_trick=requires)
    game = play_cards(start(ruleset, DEAL, SPADES), TRICK_1)  # team 1 takes trick 1
    result = game.weis_result
    assert result is not None
    assert result.winner == Seat(0)
    if requires:
        assert game.scores == (0, 50)
        assert game.hand_weis_stoeck == ((0, 0), (0, 0))
    else:
        assert game.scores == (180, 50)
        assert game.hand_weis_stoeck == ((90, 0), (0, 0))
    game = play_cards(game, TRICK_2)  # team 0's first trick: 2 points x 2
    assert game.scores == (184, 50)
    assert game.hand_weis_stoeck == ((90, 0), (0, 0))
    assert play_lowest(game).hand_results[-1].weis == (90, 0)


def test_weis_requires_trick_credited_at_once_when_the_team_takes_trick_1() -> None:
    ruleset = SCHIEBER.evolve(weis_requires_trick=True)
    game = play_cards(
        start(ruleset, DEAL, SPADES), ["10D", "7D", "KD", "QD"]
    )  # KD (seat 2) takes 17
    assert game.scores == (2 * 90 + 2 * 17, 0)
    assert game.hand_weis_stoeck == ((90, 0), (0, 0))


@pytest.mark.parametrize("requires", [False, True])
def test_weis_when_the_weis_team_takes_no_trick(requires: bool) -> None:
    ruleset = SCHIEBER.evolve(weis_requires_trick=requires)
    game = start(ruleset, MATCH_DEAL, OBENABE, forehand=Seat(1))
    assert game.hand_info is not None
    assert game.hand_info.forehand == Seat(1)
    for _ in range(4):
        game = game.play(min(game.legal_moves()))
    assert game.tricks_won == (0, 1)
    result = game.weis_result
    assert result is not None
    assert result.winner == Seat(0)
    assert result.points == (20, 0)
    assert game.scores[0] == (0 if requires else 3 * 20)
    end = play_lowest(game)
    score = end.hand_results[-1]
    assert score.tricks == (0, 9)
    assert score.match == Team(1)
    assert score.card_points == (0, 157)
    # R7.12: valid even against a match (default); void when no trick is won (True).
    assert score.weis == ((0, 0) if requires else (20, 0))
    assert score.totals == ((0, 3 * 257) if requires else (3 * 20, 3 * 257))
    assert end.scores == score.totals


# MANUAL declaration -----------------------------------------------------------------------------


def declare(game: Game, *items: tuple[WeisKind, int, str]) -> Game:
    """Declare the mover's Weis with these kinds, points and cards."""
    seat = game.to_move
    assert seat is not None
    wanted = expect(*items)
    chosen = [w for w in find_weis(game.hands[seat], game.ruleset) if sig(w) in wanted]
    assert sigs(chosen) == wanted
    return game.declare_weis(chosen)


def test_manual_declaring_a_subset_scores_only_that_subset() -> None:
    game = start(MANUAL, DEAL, SPADES)
    game = declare(game, S0_50).play("10D")  # seat 0 keeps its 8-9-10 of diamonds secret
    game = game.play("7D")  # seat 1 plays without declaring
    game = declare(game, S2_20).play("KD")
    game = game.play("AD")
    assert game.scores == (2 * (50 + 20), 2 * 25)
    assert game.hand_weis_stoeck == ((70, 0), (0, 0))
    result = game.weis_result
    assert result is not None
    assert result.points == (70, 0)
    assert [sigs(d or ()) for d in game.declared_weis] == [
        expect(S0_50),
        expect(),
        expect(S2_20),
        expect(),
    ]
    assert sigs(game.shown_weis) == expect(S0_50, S2_20)
    assert play_lowest(game).hand_results[-1].weis == (70, 0)


def test_manual_undeclared_weis_never_score() -> None:
    # Seat 0 declares only its 20; seat 1's J-Q-K of hearts beats it (height) and beats seat 2's
    # equal J-Q-K of clubs (position). Seat 0's undeclared 50 would have won: it never counts.
    game = start(MANUAL, DEAL, SPADES)
    game = declare(game, S0_20).play("10D")
    game = declare(game, S1_20).play("7D")
    game = declare(game, S2_20).play("KD")
    game = game.play("AD")
    result = game.weis_result
    assert result is not None
    assert result.winner == Seat(1)
    assert result.points == (0, 20)
    assert game.scores == (0, 2 * 20 + 2 * 25)
    assert sigs(game.shown_weis) == expect(S1_20)
    assert play_lowest(game).hand_results[-1].weis == (0, 20)


def test_manual_playing_without_declaring_declares_nothing() -> None:
    game = start(MANUAL, DEAL, SPADES)
    assert game.declared_weis == (None, None, None, None)
    game = game.play("10D")
    assert game.declared_weis == ((), None, None, None)
    game = play_cards(game, TRICK_1[1:])
    assert game.declared_weis == ((), (), (), ())
    result = game.weis_result
    assert result is not None
    assert result.winner is None
    assert game.scores == (0, 50)
    assert game.shown_weis == ()
    assert play_lowest(game).hand_results[-1].weis == (0, 0)


def test_manual_declaring_none_explicitly() -> None:
    game = start(MANUAL, DEAL, SPADES).declare_weis(())
    assert game.declared_weis[0] == ()
    game = play_cards(game, TRICK_1)
    assert game.scores == (0, 50)


def test_manual_declaring_everything_is_the_same_as_auto() -> None:
    game = start(MANUAL, DEAL, SPADES)
    game = declare(game, S0_50, S0_20).play("10D")
    game = declare(game, S1_20).play("7D")
    game = declare(game, S2_20).play("KD")
    game = game.play("AD")
    assert game.scores == (180, 50)


def refused(game: Game, weis: object) -> IllegalReason:
    with pytest.raises(IllegalActionError) as info:
        game.declare_weis(weis)  # type: ignore[arg-type]
    assert info.value.state == game
    return info.value.reason


def test_manual_declaring_twice_is_refused() -> None:
    game = declare(start(MANUAL, DEAL, SPADES), S0_20)
    assert refused(game, find_weis(game.hands[0])) is IllegalReason.WEIS_NOT_DECLARABLE
    assert refused(game, ()) is IllegalReason.WEIS_NOT_DECLARABLE
    empty = start(MANUAL, DEAL, SPADES).declare_weis(())
    assert refused(empty, find_weis(empty.hands[0])) is IllegalReason.WEIS_NOT_DECLARABLE


def test_manual_declaring_after_ones_first_card_is_refused() -> None:
    game = play_cards(
        start(MANUAL, DEAL, SPADES), [*TRICK_1, "6C"]
    )  # trick 2: seat 3 led, seat 0 to move
    assert game.to_move == Seat(0)
    own = find_weis(CardSet.parse(DEAL[0]))
    assert refused(game, own) is IllegalReason.WEIS_NOT_DECLARABLE
    assert refused(game, ()) is IllegalReason.WEIS_NOT_DECLARABLE


def test_manual_declaring_a_weis_not_in_hand_is_refused() -> None:
    game = start(MANUAL, DEAL, SPADES)
    assert refused(game, [weis_of("JH QH KH")]) is IllegalReason.WEIS_NOT_IN_HAND  # seat 1's
    assert refused(game, [weis_of("6H 7H 8H")]) is IllegalReason.WEIS_NOT_IN_HAND  # part of a run
    assert refused(game, [weis_of(four("9"))]) is IllegalReason.WEIS_NOT_IN_HAND


def test_declaring_in_auto_mode_is_refused() -> None:
    game = start(SCHIEBER, DEAL, SPADES)
    assert refused(game, find_weis(game.hands[0])) is IllegalReason.WEIS_NOT_DECLARABLE
    assert refused(game, ()) is IllegalReason.WEIS_NOT_DECLARABLE


@pytest.mark.parametrize("mode", ["AUTO", "MANUAL"])
def test_declaring_with_weis_off_is_refused(mode: str) -> None:
    game = start(SCHIEBER.evolve(weis=False, weis_declaration=mode), DEAL, SPADES)
    assert refused(game, find_weis(game.hands[0])) is IllegalReason.WEIS_NOT_DECLARABLE


def offered(game: Game) -> set[frozenset[Sig]]:
    return {
        frozenset(sig(w) for w in a.weis)
        for a in game.legal_actions()
        if isinstance(a, DeclareWeis)
    }


def frozen(*items: tuple[WeisKind, int, str]) -> frozenset[Sig]:
    return frozenset(expect(*items))


def test_legal_actions_offer_declarations_only_in_manual_before_the_first_card() -> None:
    game = start(MANUAL, DEAL, SPADES)
    assert offered(game) == {frozen(S0_50), frozen(S0_20), frozen(S0_50, S0_20)}
    assert offered(declare(game, S0_50)) == set()  # declared: seat 0 now only plays
    game = game.play("10D")
    assert offered(game) == {frozen(S1_20)}
    game = game.play("7D")
    assert offered(game) == {frozen(S2_20)}
    game = game.play("KD")
    assert offered(game) == set()  # seat 3 has no Weis
    game = game.play("AD")
    assert offered(game) == set()  # trick 2
    assert offered(game.play("6C")) == set()  # seat 0 in trick 2


def test_legal_actions_offer_no_declarations_in_auto_or_without_weis() -> None:
    assert offered(start(SCHIEBER, DEAL, SPADES)) == set()
    assert offered(start(MANUAL.evolve(weis=False), DEAL, SPADES)) == set()


def test_legal_declarations_can_be_applied() -> None:
    game = start(MANUAL, DEAL, SPADES)
    for action in game.legal_actions():
        if isinstance(action, DeclareWeis):
            after = game.apply(action)
            assert after.declared_weis[0] == action.weis
            assert offered(after) == set()
