"""Contracts, their rank orders and point tables (rule book §2)."""

from __future__ import annotations

import copy
import pickle
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jass import (
    CARDS,
    Card,
    CardSet,
    Contract,
    ContractKind,
    Game,
    InvalidInputError,
    Phase,
    Rank,
    Suit,
    SuitPairing,
    rules,
    trick_winner,
)
from jass.naming import parse_contract

HEARTS = Contract.trump(Suit.HEARTS)
SPADES = Contract.trump(Suit.SPADES)
DIAMONDS = Contract.trump(Suit.DIAMONDS)
CLUBS = Contract.trump(Suit.CLUBS)
OBENABE = Contract.OBENABE
UNDENUFE = Contract.UNDENUFE
SIX = (SPADES, HEARTS, DIAMONDS, CLUBS, OBENABE, UNDENUFE)

# rule book R2.1, highest first.
TRUMP_ORDER = ["J", "9", "A", "K", "Q", "10", "8", "7", "6"]
DOWN_ORDER = ["A", "K", "Q", "J", "10", "9", "8", "7", "6"]
UP_ORDER = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]

# rule book R2.2, by rank label.
TRUMP_POINTS = {"A": 11, "K": 4, "Q": 3, "J": 20, "10": 10, "9": 14, "8": 0, "7": 0, "6": 0}
PLAIN_POINTS = {"A": 11, "K": 4, "Q": 3, "J": 2, "10": 10, "9": 0, "8": 0, "7": 0, "6": 0}
OBENABE_POINTS = {"A": 11, "K": 4, "Q": 3, "J": 2, "10": 10, "9": 0, "8": 8, "7": 0, "6": 0}
UNDENUFE_POINTS = {"A": 0, "K": 4, "Q": 3, "J": 2, "10": 10, "9": 0, "8": 8, "7": 0, "6": 11}
OLD_UNDENUFE_POINTS = {"A": 11, "K": 4, "Q": 3, "J": 2, "10": 10, "9": 0, "8": 8, "7": 0, "6": 0}


def card(name: str) -> Card:
    return Card.parse(name)


# --- construction -------------------------------------------------------------------------


@pytest.mark.parametrize("suit", list(Suit))
def test_trump_contract(suit: Suit) -> None:
    contract = Contract.trump(suit)
    assert contract.kind is ContractKind.TRUMP
    assert contract.trump_suit is suit
    assert contract.is_trump
    assert contract.name == f"TRUMP_{suit.name}"
    assert str(contract) == contract.name
    assert contract.index == int(suit)
    assert Contract.trump(suit) is contract
    assert repr(contract) == f"Contract.trump(Suit.{suit.name})"
    assert eval(repr(contract), {"Contract": Contract, "Suit": Suit}) is contract  # noqa: S307


def test_obenabe_and_undenufe() -> None:
    assert OBENABE.kind is ContractKind.OBENABE
    assert UNDENUFE.kind is ContractKind.UNDENUFE
    for contract, name, index in ((OBENABE, "OBENABE", 4), (UNDENUFE, "UNDENUFE", 5)):
        assert contract.trump_suit is None
        assert not contract.is_trump
        assert contract.name == name
        assert str(contract) == name
        assert contract.index == index
        assert repr(contract) == f"Contract.{name}"
        assert eval(repr(contract), {"Contract": Contract}) is contract  # noqa: S307
    assert OBENABE is not UNDENUFE


@pytest.mark.parametrize("bad", ["H", "hearts", 1, None])
def test_trump_requires_a_suit(bad: Any) -> None:
    with pytest.raises(InvalidInputError):
        Contract.trump(bad)


def test_index_numbering_is_stable() -> None:
    assert [c.index for c in SIX] == [0, 1, 2, 3, 4, 5]
    assert Contract.standard() == SIX
    assert [c.name for c in Contract.standard()] == [
        "TRUMP_SPADES",
        "TRUMP_HEARTS",
        "TRUMP_DIAMONDS",
        "TRUMP_CLUBS",
        "OBENABE",
        "UNDENUFE",
    ]
    for i, contract in enumerate(SIX):
        assert Contract.from_index(i) is contract


@pytest.mark.parametrize("bad", [-1, 7, 42, True, "1", None])
def test_from_index_rejects(bad: Any) -> None:
    with pytest.raises(InvalidInputError) as info:
        Contract.from_index(bad)
    assert repr(bad) in str(info.value)


def test_contracts_are_hashable_and_distinct() -> None:
    assert len(set(SIX)) == 6
    assert {c: c.index for c in SIX}[Contract.parse("hearts")] == 1
    assert Contract.trump(Suit.HEARTS) == HEARTS
    assert HEARTS != SPADES
    assert OBENABE != UNDENUFE


@pytest.mark.parametrize("contract", SIX, ids=[c.name for c in SIX])
@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_singletons_survive_pickle(contract: Contract, protocol: int) -> None:
    assert pickle.loads(pickle.dumps(contract, protocol)) is contract


@pytest.mark.parametrize("contract", SIX, ids=[c.name for c in SIX])
def test_singletons_survive_copy(contract: Contract) -> None:
    assert copy.copy(contract) is contract
    assert copy.deepcopy(contract) is contract
    assert copy.deepcopy([contract])[0] is contract


# --- parsing ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("TRUMP_HEARTS", HEARTS),
        ("trump_hearts", HEARTS),
        ("Trump_Spades", SPADES),
        ("trump-diamonds", DIAMONDS),
        ("TRUMP CLUBS", CLUBS),
        ("hearts", HEARTS),
        ("HEARTS", HEARTS),
        ("heart", HEARTS),
        ("spades", SPADES),
        ("diamonds", DIAMONDS),
        ("Clubs", CLUBS),
        ("H", HEARTS),
        ("h", HEARTS),
        ("S", SPADES),
        ("D", DIAMONDS),
        ("c", CLUBS),
        ("♥", HEARTS),
        ("♠", SPADES),
        ("♦", DIAMONDS),
        ("♣", CLUBS),
        ("♡", HEARTS),
        ("obenabe", OBENABE),
        ("OBENABE", OBENABE),
        ("Obenabe", OBENABE),
        ("obe", OBENABE),
        ("top-down", OBENABE),
        ("Top Down", OBENABE),
        ("undenufe", UNDENUFE),
        ("UNDENUFE", UNDENUFE),
        ("unde", UNDENUFE),
        ("bottom-up", UNDENUFE),
        ("  undenufe  ", UNDENUFE),
        # German names of the French suits.
        ("Herz", HEARTS),
        ("Ecken", DIAMONDS),
        ("Karo", DIAMONDS),
        ("Schaufel", SPADES),
        ("Pik", SPADES),
        ("Kreuz", CLUBS),
        ("trump_herz", HEARTS),
        # Swiss names, under the Swisslos pairing (R1.4).
        ("Rosen", HEARTS),
        ("eicheln", DIAMONDS),
        ("Schilten", SPADES),
        ("SCHELLEN", CLUBS),
    ],
)
def test_parse_spellings(text: str, expected: Contract) -> None:
    assert Contract.parse(text) is expected


def test_parse_returns_contract_unchanged() -> None:
    for contract in SIX:
        assert Contract.parse(contract) is contract
        assert Contract.parse(contract.name) is contract
        assert Contract.parse(str(contract)) is contract


@pytest.mark.parametrize(
    "text", ["", "  ", "trump", "trump_", "TRUMP_OBENABE", "slalom", "guschti", "X", "hearts!"]
)
def test_parse_rejects(text: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        Contract.parse(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("bad", [None, 1, Suit.HEARTS])
def test_parse_rejects_non_strings(bad: Any) -> None:
    with pytest.raises(InvalidInputError):
        Contract.parse(bad)


# What a player types at ``jass play``, which the API reads too.
PLAYER_NAMES = [
    ("trumpf herz", HEARTS), ("Trumpf Kreuz", CLUBS), ("rosen", HEARTS), ("Trumpf Rose", HEARTS),
    ("Trumpf-Schilte", SPADES), ("trumpfeichel", DIAMONDS), ("Trumpf Schälle", CLUBS),
    ("TRUMPF ECKEN", DIAMONDS), ("trumpf ♠", SPADES), ("Oben", OBENABE), ("Obeabe", OBENABE),
    ("unten", UNDENUFE), ("Uneufe", UNDENUFE), ("Misère", Contract.MISERE),
    ("top_down", OBENABE), ("bottom up", UNDENUFE),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), PLAYER_NAMES)
def test_parse_reads_what_jass_play_reads(text: str, expected: Contract) -> None:
    assert Contract.parse(text) is expected
    assert parse_contract(text, rules.SCHIEBER) is expected


@pytest.mark.parametrize(("text", "expected"), PLAYER_NAMES)
def test_choose_reads_what_jass_play_reads(text: str, expected: Contract) -> None:
    every = (*Contract.standard(), Contract.MISERE)
    game = Game.new(rules.SCHIEBER.evolve(contracts=every), seed=4).deal()
    assert game.can_choose(text)
    assert game.choose(text).contract is expected


@pytest.mark.parametrize(
    ("pairing", "eichel", "rose", "schilte"),
    [
        ("SWISSLOS", DIAMONDS, HEARTS, SPADES),
        ("WIKIPEDIA", CLUBS, HEARTS, SPADES),
        ("PARLETT", CLUBS, SPADES, HEARTS),
    ],
)
def test_swiss_names_follow_the_pairing(
    pairing: str, eichel: Contract, rose: Contract, schilte: Contract
) -> None:
    # R1.4: which Swiss suit is which French suit depends on the pairing; a game reads the
    # names under its rule set's pairing, as jass play does.
    assert (Contract.parse("Trumpf Eichel", pairing), Contract.parse("rose", pairing)) == (
        eichel,
        rose,
    )
    assert Contract.parse("Schilten", SuitPairing[pairing]) is schilte
    assert Contract.parse("Trumpf Herz", pairing) is HEARTS  # French names never depend on it
    game = Game.new(rules.SCHIEBER.evolve(suit_pairing=pairing), seed=4).deal()
    assert game.choose("trumpf eichel").contract is eichel
    assert game.choose("Rosen").contract is rose


@pytest.mark.parametrize("text", ["Trumpf", "trumpf obenabe", "Herzen", "oben abe x", "trumpf 7"])
def test_parse_and_choose_name_a_bad_name(text: str) -> None:
    with pytest.raises(InvalidInputError, match="cannot parse contract") as info:
        Contract.parse(text)
    assert repr(text) in str(info.value)
    game = Game.new(seed=4).deal()
    assert not game.can_choose(text)
    with pytest.raises(InvalidInputError) as chosen:
        game.choose(text)
    assert repr(text) in str(chosen.value)
    assert game.phase is Phase.CHOOSE  # nothing half-applied


def test_parse_refuses_an_unknown_pairing() -> None:
    with pytest.raises(InvalidInputError, match="unknown suit pairing 'FRENCH'"):
        Contract.parse("rosen", "FRENCH")


# --- rank orders (R2.1) -------------------------------------------------------------------


@pytest.mark.parametrize("trump", list(Suit))
def test_rank_order_trump_contract(trump: Suit) -> None:
    contract = Contract.trump(trump)
    for suit in Suit:
        labels = [r.label for r in contract.rank_order(suit)]
        assert labels == (TRUMP_ORDER if suit is trump else DOWN_ORDER)


@pytest.mark.parametrize(("contract", "order"), [(OBENABE, DOWN_ORDER), (UNDENUFE, UP_ORDER)])
def test_rank_order_no_trump(contract: Contract, order: list[str]) -> None:
    for suit in Suit:
        ranks = contract.rank_order(suit)
        assert [r.label for r in ranks] == order
        assert all(isinstance(r, Rank) for r in ranks)


@pytest.mark.parametrize("contract", SIX, ids=[c.name for c in SIX])
def test_beats_follows_rank_order(contract: Contract) -> None:
    for suit in Suit:
        order = [Card.of(suit, r) for r in contract.rank_order(suit)]
        for hi in range(9):
            for lo in range(hi + 1, 9):
                assert contract.beats(order[hi], order[lo], suit)
                assert not contract.beats(order[lo], order[hi], suit)


def test_trump_beats_every_non_trump() -> None:
    contract = HEARTS
    for led in Suit:
        for other in CardSet.full() - CardSet.full().suit(Suit.HEARTS):
            assert contract.beats(card("6H"), other, led)
            assert not contract.beats(other, card("6H"), led)


def test_off_suit_card_cannot_win_without_trumps() -> None:
    for contract in (OBENABE, UNDENUFE, SPADES):
        # led hearts: an ace or six of diamonds never beats the lowest heart
        assert not contract.beats(card("AD"), card("6H"), Suit.HEARTS)
        assert not contract.beats(card("6D"), card("AH"), Suit.HEARTS)


# --- strength order (by_strength, strongest, weakest, strength) -------------------------------

ALL_SEVEN = Contract.all()
SEVEN_IDS = [c.name for c in ALL_SEVEN]


def expected_ranking(contract: Contract) -> list[str]:
    """The deck strongest first, written out from rule book R2.1 (not from the tables)."""
    trump = contract.trump_suit
    plain = UP_ORDER if contract is UNDENUFE else DOWN_ORDER  # Misère plays as Obenabe
    names = [rank + trump.letter for rank in TRUMP_ORDER] if trump is not None else []
    for rank in plain:  # then place by place, equal places in suit order S H D C
        names += [rank + suit.letter for suit in Suit if suit is not trump]
    return names


@pytest.mark.parametrize("contract", ALL_SEVEN, ids=SEVEN_IDS)
def test_by_strength_of_the_whole_deck(contract: Contract) -> None:
    ranking = contract.by_strength(CardSet.full())
    assert [str(c) for c in ranking] == expected_ranking(contract)
    assert all(type(c) is Card for c in ranking)
    strengths = [contract.strength(c) for c in ranking]
    assert strengths == sorted(strengths, reverse=True)


def test_by_strength_examples() -> None:
    hand = CardSet.parse("AS 6H 9H JH KD 10C")
    assert [str(c) for c in HEARTS.by_strength(hand)] == ["JH", "9H", "6H", "AS", "KD", "10C"]
    assert [str(c) for c in OBENABE.by_strength(hand)] == ["AS", "KD", "JH", "10C", "9H", "6H"]
    assert [str(c) for c in UNDENUFE.by_strength(hand)] == ["6H", "9H", "10C", "JH", "KD", "AS"]
    assert HEARTS.strongest(hand) == card("JH")
    assert HEARTS.weakest(hand) == card("10C")
    assert OBENABE.strongest(hand) == card("AS")
    assert UNDENUFE.strongest(hand) == card("6H")
    assert UNDENUFE.weakest(hand) == card("AS")
    # The Buur beats the Nell, the Nell the trump Ace; a lone trump 6 beats a plain Ace.
    assert CLUBS.strongest("9C AC JC") == card("JC")
    assert CLUBS.strongest("9C AC") == card("9C")
    assert CLUBS.strongest("6C AS AH AD") == card("6C")


def test_equal_strength_keeps_suit_order() -> None:
    aces = CardSet.parse("AC AH AD AS")
    assert [str(c) for c in OBENABE.by_strength(aces)] == ["AS", "AH", "AD", "AC"]
    assert OBENABE.strongest(aces) == card("AS")
    assert OBENABE.weakest(aces) == card("AC")
    assert len({OBENABE.strength(c) for c in aces}) == 1
    assert [str(c) for c in SPADES.by_strength(aces)] == ["AS", "AH", "AD", "AC"]


def test_misere_ranks_as_obenabe() -> None:
    full = CardSet.full()
    assert Contract.MISERE.by_strength(full) == OBENABE.by_strength(full)


@pytest.mark.parametrize("contract", ALL_SEVEN, ids=SEVEN_IDS)
def test_strength_agrees_with_trick_winner_on_every_pair(contract: Contract) -> None:
    """An independent check: two-card tricks decide which of two cards is stronger."""
    strength = contract.strength
    trump = contract.trump_suit
    for a in CARDS:
        for b in CARDS:
            if a == b:
                continue
            a_over_b = trick_winner([b, a], contract) == 1  # b leads, a follows
            if a.suit is b.suit or trump in (a.suit, b.suit):
                # Comparable in a trick: the stronger one takes it whoever leads.
                assert (strength(a) > strength(b)) is a_over_b
                assert (strength(a) > strength(b)) is (trick_winner([a, b], contract) == 0)
            else:
                # Two plain suits: the card led wins; strength compares places in the suits,
                # as a against the card of b's rank in a's suit.
                assert not a_over_b
                proxy = Card.of(a.suit, b.rank)
                if proxy == a:
                    assert strength(a) == strength(b)
                else:
                    assert (strength(a) > strength(b)) is (trick_winner([proxy, a], contract) == 1)


@given(st.integers(min_value=0, max_value=(1 << 36) - 1), st.sampled_from(ALL_SEVEN))
def test_by_strength_filters_the_deck_ranking(mask: int, contract: Contract) -> None:
    cards = CardSet(mask)
    ranking = contract.by_strength(cards)
    assert ranking == tuple(c for c in contract.by_strength(CardSet.full()) if c in cards)
    assert CardSet(ranking) == cards
    assert contract.by_strength(list(cards)) == ranking
    assert contract.by_strength([str(c) for c in reversed(ranking)]) == ranking
    if cards:
        assert contract.strongest(cards) == ranking[0]
        assert contract.weakest(cards) == ranking[-1]
        assert contract.strength(ranking[0]) == max(contract.strength(c) for c in cards)
        assert contract.strength(ranking[-1]) == min(contract.strength(c) for c in cards)


def test_strength_input_forms() -> None:
    assert HEARTS.by_strength("9H JH") == (card("JH"), card("9H"))
    assert HEARTS.by_strength([card("9H"), "JH"]) == (card("JH"), card("9H"))
    assert HEARTS.by_strength(c for c in CardSet.parse("9H JH")) == (card("JH"), card("9H"))
    assert HEARTS.by_strength(CardSet()) == ()
    assert HEARTS.by_strength("") == ()
    assert HEARTS.strength(card("JH")) == HEARTS.strength("jh") == 18
    assert HEARTS.strength(cast(Any, 14)) == 18  # a card index, as everywhere
    assert HEARTS.strongest([card("6S")]) == card("6S")


@pytest.mark.parametrize("method", ["strongest", "weakest"])
def test_strongest_and_weakest_of_no_cards_raise(method: str) -> None:
    with pytest.raises(InvalidInputError, match="at least one card") as info:
        getattr(HEARTS, method)(CardSet())
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("bad", ["JH JH", "JH XX", ["JH", "jh"], [36]])
def test_strength_refuses_bad_cards(bad: Any) -> None:
    with pytest.raises(InvalidInputError):
        HEARTS.by_strength(bad)
    with pytest.raises(InvalidInputError):
        HEARTS.strongest(bad)


def test_strength_of_a_bad_card_raises() -> None:
    with pytest.raises(InvalidInputError):
        HEARTS.strength("XX")
    with pytest.raises(InvalidInputError):
        HEARTS.strength(cast(Any, 36))


# --- point tables (R2.2, R2.3) -------------------------------------------------------------


def expected_table(contract: Contract, *, old_undenufe: bool = False) -> list[int]:
    if contract is OBENABE:
        plain = OBENABE_POINTS
    elif contract is UNDENUFE:
        plain = OLD_UNDENUFE_POINTS if old_undenufe else UNDENUFE_POINTS
    else:
        plain = PLAIN_POINTS
    return [
        (TRUMP_POINTS if c.suit is contract.trump_suit else plain)[c.rank.label]
        for c in CardSet.full()
    ]


@pytest.mark.parametrize("contract", SIX, ids=[c.name for c in SIX])
@pytest.mark.parametrize("old_undenufe", [False, True])
def test_point_table(contract: Contract, old_undenufe: bool) -> None:
    table = contract.card_points(old_undenufe=old_undenufe)
    assert len(table) == 36
    assert list(table) == expected_table(contract, old_undenufe=old_undenufe)
    for c in CardSet.full():
        assert contract.points(c, old_undenufe=old_undenufe) == table[c]


@pytest.mark.parametrize("contract", SIX, ids=[c.name for c in SIX])
@pytest.mark.parametrize("old_undenufe", [False, True])
def test_every_table_sums_to_152(contract: Contract, old_undenufe: bool) -> None:
    assert sum(contract.card_points(old_undenufe=old_undenufe)) == 152


@pytest.mark.parametrize("trump", list(Suit))
def test_trump_column(trump: Suit) -> None:
    contract = Contract.trump(trump)
    for rank_label, points in TRUMP_POINTS.items():
        assert contract.points(card(rank_label + trump.letter)) == points
    assert contract.points(card("J" + trump.letter)) == 20  # Puur
    assert contract.points(card("9" + trump.letter)) == 14  # Näll
    for suit in Suit:
        if suit is not trump:
            for rank_label, points in PLAIN_POINTS.items():
                assert contract.points(card(rank_label + suit.letter)) == points


def test_obenabe_column() -> None:
    for suit in Suit:
        for rank_label, points in OBENABE_POINTS.items():
            assert OBENABE.points(card(rank_label + suit.letter)) == points
    assert OBENABE.points(card("8S")) == 8
    assert OBENABE.points(card("6S")) == 0


def test_undenufe_column() -> None:
    for suit in Suit:
        for rank_label, points in UNDENUFE_POINTS.items():
            assert UNDENUFE.points(card(rank_label + suit.letter)) == points
    assert UNDENUFE.points(card("6C")) == 11
    assert UNDENUFE.points(card("AC")) == 0
    assert UNDENUFE.points(card("8C")) == 8


def test_old_undenufe_column() -> None:
    for suit in Suit:
        for rank_label, points in OLD_UNDENUFE_POINTS.items():
            assert UNDENUFE.points(card(rank_label + suit.letter), old_undenufe=True) == points
    assert UNDENUFE.points(card("6C"), old_undenufe=True) == 0
    assert UNDENUFE.points(card("AC"), old_undenufe=True) == 11
    assert UNDENUFE.points(card("8C"), old_undenufe=True) == 8


@pytest.mark.parametrize("contract", [*SIX[:5]], ids=[c.name for c in SIX[:5]])
def test_old_undenufe_changes_only_undenufe(contract: Contract) -> None:
    assert contract.card_points(old_undenufe=True) == contract.card_points()
    assert UNDENUFE.card_points(old_undenufe=True) != UNDENUFE.card_points()


def test_default_is_modern_undenufe() -> None:
    assert UNDENUFE.card_points() == UNDENUFE.card_points(old_undenufe=False)
    assert UNDENUFE.card_points()[card("6H")] == 11
