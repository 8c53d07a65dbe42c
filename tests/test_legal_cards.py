"""Legal cards: rule book §5 (R5.1-R5.5), ``undertrump_only_trumps`` and ``explain_illegal``.

Every case is written out by hand from the rule book, and a slow reference implementation of the
normative algorithm R5.5 (written here from ``Card.suit`` / ``Card.rank`` and rank-order lists,
not from the library's precomputed tables) is compared with :func:`jass.legal_cards` on random
positions, and with the state machine on random hands played to the end.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jass
from jass import (
    CARDS,
    Card,
    CardSet,
    Contract,
    Game,
    IllegalActionError,
    IllegalReason,
    Play,
    Rank,
    RuleSet,
    Suit,
    rules,
)
from jass.rules import UndertrumpRule
from tests.helpers import deal_in_playing_order

ANY = rules.SCHIEBER
ONLY = rules.SCHIEBER.evolve(undertrump_only_trumps="ONLY_IF_NO_HIGHER")
OPTIONS = {"ANY": ANY, "ONLY_IF_NO_HIGHER": ONLY}

SPADES = Contract.trump(Suit.SPADES)
HEARTS = Contract.trump(Suit.HEARTS)
CLUBS = Contract.trump(Suit.CLUBS)


def cards(text: str) -> list[Card]:
    """A trick, in playing order, from card names separated by spaces."""
    return [Card.parse(token) for token in text.split()]


def test_option_values() -> None:
    assert ANY.undertrump_only_trumps is UndertrumpRule.ANY
    assert RuleSet().undertrump_only_trumps is UndertrumpRule.ANY
    assert ONLY.undertrump_only_trumps is UndertrumpRule.ONLY_IF_NO_HIGHER


# --------------------------------------------------------------------------------------------
# The reference implementation of R5.5
# --------------------------------------------------------------------------------------------

#: Trump order, highest first (R2.1).
TRUMP_ORDER_HIGH_FIRST = (
    Rank.JACK, Rank.NINE, Rank.ACE, Rank.KING, Rank.QUEEN,
    Rank.TEN, Rank.EIGHT, Rank.SEVEN, Rank.SIX,
)  # fmt: skip


def ref_trump_strength(card: Card) -> int:
    """Higher is stronger: the Buur is 8, the trump 6 is 0."""
    return 8 - TRUMP_ORDER_HIGH_FIRST.index(card.rank)


def ref_legal(
    hand: Sequence[Card], trick: Sequence[Card], contract: Contract, only_if_no_higher: bool
) -> set[Card]:
    """rule book R5.5, transcribed line by line."""
    whole = set(hand)
    if not trick:
        return whole
    led = trick[0].suit
    follow = {c for c in hand if c.suit == led}
    trump = contract.trump_suit
    if trump is None:  # OBENABE / UNDENUFE
        return follow or whole
    tr = {c for c in hand if c.suit == trump}
    if led == trump:  # R5.4
        return tr if {c for c in tr if c.rank != Rank.JACK} else whole
    trumps_in_trick = [c for c in trick if c.suit == trump]
    if trumps_in_trick:  # R5.3c, against the highest trump in the trick
        top = max(trumps_in_trick, key=ref_trump_strength)
        ok = {t for t in tr if ref_trump_strength(t) > ref_trump_strength(top)}
    else:
        ok = tr
    if follow:  # R5.3a
        return follow | ok
    if tr == whole:  # R5.3d/e
        return (ok or whole) if only_if_no_higher else whole
    return (whole - tr) | ok  # R5.3b


def ref_reason(
    hand: Sequence[Card], trick: Sequence[Card], contract: Contract, card: Card
) -> IllegalReason:
    """Which rule a card outside the reference legal set breaks."""
    if card not in hand:
        return IllegalReason.NOT_IN_HAND
    trump = contract.trump_suit
    if trump is not None and trick[0].suit == trump:
        return IllegalReason.MUST_FOLLOW_TRUMP
    if trump is not None and card.suit == trump:
        if all(c.suit == trump for c in hand):
            return IllegalReason.MUST_OVERTRUMP
        return IllegalReason.UNDERTRUMP
    return IllegalReason.MUST_FOLLOW_SUIT


def test_reference_reproduces_the_library_docstring_examples() -> None:
    # A sanity check of the reference itself on cases worked out in the rule book.
    assert ref_legal(cards("7S KH 6D"), cards("AH 8S"), SPADES, False) == {Card.parse("KH")}
    assert ref_legal(cards("KC JC 8D"), cards("7D 6C AC"), CLUBS, False) == set(cards("JC 8D"))
    assert ref_legal(cards("KH 9H"), cards("7S AH"), HEARTS, True) == {Card.parse("9H")}
    assert ref_legal(cards("KH 9H"), cards("7S AH"), HEARTS, False) == set(cards("KH 9H"))


# --------------------------------------------------------------------------------------------
# Hand-written cases, one or more per rule
# --------------------------------------------------------------------------------------------

BOTH = ("ANY", "ONLY_IF_NO_HIGHER")

# (hand, trick, contract, options, expected legal set)
CASES = [
    # R5.1 the leader may play any card
    pytest.param("JH 6S 7D AC", "", "hearts", BOTH, "JH 6S 7D AC", id="R5.1-leader-trump"),
    pytest.param("JH 6S 7D AC", "", "obenabe", BOTH, "JH 6S 7D AC", id="R5.1-leader-obenabe"),
    pytest.param("JH 6S 7D AC", "", "undenufe", BOTH, "JH 6S 7D AC", id="R5.1-leader-undenufe"),
    pytest.param("6H 7H", "", "hearts", BOTH, "6H 7H", id="R5.1-leader-only-trumps"),
    # R5.2 Obenabe / Undenufe: follow suit, otherwise anything
    pytest.param("AH 6H KS 7D", "9H", "obenabe", BOTH, "AH 6H", id="R5.2-obenabe-follow"),
    pytest.param("KS 7D JC", "9H QH", "obenabe", BOTH, "KS 7D JC", id="R5.2-obenabe-void"),
    pytest.param("JH 7S 8D", "AH", "obenabe", BOTH, "JH", id="R5.2-obenabe-no-buur-exception"),
    pytest.param("6S AS 7H 8C", "10S", "undenufe", BOTH, "6S AS", id="R5.2-undenufe-follow"),
    pytest.param("7H 8C", "10S 6S KD", "undenufe", BOTH, "7H 8C", id="R5.2-undenufe-void"),
    pytest.param("AS 6H 7H", "10S 6S", "undenufe", BOTH, "AS", id="R5.2-undenufe-follow-loser"),
    pytest.param("6S 7S", "10S 6D", "obenabe", BOTH, "6S 7S", id="R5.2-obenabe-no-undertrump"),
    # R5.3a plain suit led: follow with any card of the led suit, or trump in
    pytest.param("KS 6S 7H AD", "AS", "hearts", BOTH, "KS 6S 7H", id="R5.3a-follow-or-trump"),
    pytest.param("6S AD KC", "AS", "hearts", BOTH, "6S", id="R5.3a-must-follow"),
    pytest.param("KS 6H", "AS", "hearts", BOTH, "KS 6H", id="R5.3a-trump-in-able-to-follow"),
    pytest.param("JH KS 7D", "AS", "hearts", BOTH, "JH KS", id="R5.3a-buur-no-exception"),
    # R5.3b void in the led suit: any card, no obligation to trump
    pytest.param("7H AD 6C", "AS", "hearts", BOTH, "7H AD 6C", id="R5.3b-void-any-card"),
    pytest.param("JH 7D", "AS", "hearts", BOTH, "JH 7D", id="R5.3b-void-buur-discard"),
    pytest.param("7D AC 6H", "AS QH", "hearts", BOTH, "7D AC", id="R5.3b-void-may-discard"),
    # R5.3c undertrump ban
    pytest.param("6H 9H 7D", "AS QH", "hearts", BOTH, "9H 7D", id="R5.3c-void"),
    pytest.param("KS 6H 9H", "AS QH", "hearts", BOTH, "KS 9H", id="R5.3c-while-following"),
    pytest.param("AH 7D", "AS 9H", "hearts", BOTH, "7D", id="R5.3c-trump-order-nell-over-ace"),
    pytest.param("JH 7D", "AS 9H", "hearts", BOTH, "JH 7D", id="R5.3c-buur-over-nell"),
    pytest.param("10H 8D", "AS 6H", "hearts", BOTH, "10H 8D", id="R5.3c-over-the-six"),
    # R5.6: judged against the HIGHEST trump in the trick, not the lowest (jass-kit bug)
    pytest.param("KC JC 8D", "7D 6C AC", "clubs", BOTH, "JC 8D", id="R5.3c-highest-follow"),
    pytest.param("KC JC 9S", "7D 6C AC", "clubs", BOTH, "9S JC", id="R5.3c-highest-void"),
    pytest.param("KC 9S", "7D 6C AC", "clubs", BOTH, "9S", id="R5.3c-highest-void-no-over"),
    pytest.param("KC 9S", "7D AC 6C", "clubs", BOTH, "9S", id="R5.3c-highest-not-last"),
    # the ban applies over the partner's trump too (the 4th player's partner played QH)
    pytest.param("6H 9H 7D", "AS QH 7S", "hearts", BOTH, "9H 7D", id="R5.3c-partner-void"),
    pytest.param("KS 6H", "AS QH 7S", "hearts", BOTH, "KS", id="R5.3c-partner-following"),
    pytest.param("8D 7D", "6D JD 10D", "diamonds", BOTH, "8D 7D", id="R5.3-trump-led-diamonds"),
    # R5.3d a hand of only trumps may play any of them (ANY) ...
    pytest.param("6H 7H", "AS QH", "hearts", BOTH, "6H 7H", id="R5.3d-only-trumps-all-lower"),
    pytest.param("6H", "7S JH", "hearts", BOTH, "6H", id="R5.3d-single-trump-under-buur"),
    pytest.param("KH 6H", "7S", "hearts", BOTH, "KH 6H", id="R5.3d-only-trumps-no-trump-in"),
    pytest.param("KH 9H", "7S AH", "hearts", ("ANY",), "KH 9H", id="R5.3e-any-jo-king-nell"),
    pytest.param("JH 9H 6H", "7S AH 8S", "hearts", ("ANY",), "JH 9H 6H", id="R5.3e-any-undertrump"),
    # R5.3e ... or must overtrump if able (ONLY_IF_NO_HIGHER)
    pytest.param(
        "KH 9H", "7S AH", "hearts", ("ONLY_IF_NO_HIGHER",), "9H", id="R5.3e-strict-jo-king-nell"
    ),
    pytest.param(
        "JH 9H 6H", "7S AH 8S", "hearts", ("ONLY_IF_NO_HIGHER",), "JH 9H", id="R5.3e-strict-two"
    ),
    pytest.param(
        "JH 9H 6H", "7S 8H 9S", "hearts", ("ONLY_IF_NO_HIGHER",), "JH 9H", id="R5.3e-strict-low"
    ),
    pytest.param(
        "QH 6H", "7S 8H AH", "hearts", ("ONLY_IF_NO_HIGHER",), "QH 6H", id="R5.3e-strict-cannot"
    ),
    pytest.param(
        "KH 6H", "7S 9H", "hearts", ("ONLY_IF_NO_HIGHER",), "KH 6H", id="R5.3e-strict-cannot-2"
    ),
    # the option does not touch hands with other cards
    pytest.param("6H 9H 7D", "AS QH", "hearts", BOTH, "9H 7D", id="R5.3e-irrelevant-discard"),
    pytest.param("KS 6H 9H", "AS QH", "hearts", BOTH, "KS 9H", id="R5.3e-irrelevant-follow"),
    # R5.4 trump led
    pytest.param("6H KS 7D", "AH", "hearts", BOTH, "6H", id="R5.4a-must-follow-trump"),
    pytest.param("JH 6S 7S", "AH", "hearts", BOTH, "JH 6S 7S", id="R5.4a-buur-alone"),
    pytest.param("JH", "AH", "hearts", BOTH, "JH", id="R5.4a-buur-alone-last-card"),
    pytest.param("JH 6S 7S", "AH 9H KH", "hearts", BOTH, "JH 6S 7S", id="R5.4a-buur-alone-late"),
    pytest.param("JH 6H 7S", "AH", "hearts", BOTH, "JH 6H", id="R5.4b-buur-plus-one"),
    pytest.param("JH 6H 7S AD", "AH 9H", "hearts", BOTH, "JH 6H", id="R5.4b-buur-plus-one-2"),
    pytest.param("JC QC 7S AD", "6C", "clubs", BOTH, "JC QC", id="R5.4b-buur-plus-one-clubs"),
    pytest.param("6H 9H KS", "AH", "hearts", BOTH, "6H 9H", id="R5.4c-no-stichzwang"),
    pytest.param("6H 7H KS", "AH JH", "hearts", BOTH, "6H 7H", id="R5.4c-lower-trump-allowed"),
    pytest.param("6H 7S", "JH", "hearts", BOTH, "6H", id="R5.4c-buur-led"),
    pytest.param("6H 7H", "AH 9H", "hearts", BOTH, "6H 7H", id="R5.4c-only-trumps-no-over"),
    pytest.param("KS 7D 6C", "AH", "hearts", BOTH, "KS 7D 6C", id="R5.4d-no-trumps"),
    # The seed example (S0): spades trump, Anna leads AH ...
    pytest.param(
        "8S JS 7H 10H 6D 10D AD 8C QC", "AH", "spades", BOTH, "8S JS 7H 10H", id="seed-ben"
    ),
    pytest.param(
        "7S QS 8H JH KH 9D KD 7C JC", "AH 8S", "spades", BOTH, "QS 8H JH KH", id="seed-carla"
    ),
    pytest.param("7S KH 6D", "AH 8S", "spades", BOTH, "KH", id="seed-carla-short"),
    pytest.param("7S 9D", "AH 8S", "spades", BOTH, "9D", id="seed-carla-no-hearts"),
    pytest.param("7S", "AH 8S", "spades", BOTH, "7S", id="seed-carla-only-7S"),
    pytest.param(
        "9S KS 6H 9H 7D JD 6C 10C AC", "AH 8S KH", "spades", BOTH, "9S KS 6H 9H", id="seed-dan"
    ),
]


@pytest.mark.parametrize(("hand", "trick", "contract", "options", "expected"), CASES)
def test_legal_cards(
    hand: str, trick: str, contract: str, options: tuple[str, ...], expected: str
) -> None:
    for option in options:
        got = jass.legal_cards(
            CardSet.parse(hand), cards(trick), Contract.parse(contract), OPTIONS[option]
        )
        assert isinstance(got, CardSet)
        assert str(got) == str(CardSet.parse(expected)), option
        # the hand-written expectation is also what the reference says
        ref = ref_legal(cards(hand), cards(trick), Contract.parse(contract), option != "ANY")
        assert ref == set(cards(expected)), option


@pytest.mark.parametrize(("hand", "trick", "contract", "options", "expected"), CASES)
def test_explain_illegal_agrees_with_legal_cards(
    hand: str, trick: str, contract: str, options: tuple[str, ...], expected: str
) -> None:
    allowed = CardSet.parse(expected)
    for option in options:
        for card in CARDS:
            explained = jass.explain_illegal(
                CardSet.parse(hand), cards(trick), Contract.parse(contract), card, OPTIONS[option]
            )
            if card in allowed:
                assert explained is None, (option, str(card))
            else:
                assert explained is not None, (option, str(card))
                reason, message = explained
                expected_reason = ref_reason(
                    cards(hand), cards(trick), Contract.parse(contract), card
                )
                assert reason is expected_reason
                assert str(card) in message


def test_default_ruleset_is_any() -> None:
    hand, trick = CardSet.parse("KH 9H"), cards("7S AH")
    assert jass.legal_cards(hand, trick, HEARTS) == hand
    assert jass.legal_cards(hand, trick, HEARTS, ONLY) == CardSet.parse("9H")


def test_jass_kit_counterexample_king_of_clubs_is_illegal() -> None:
    # R5.6: 7D, 6C, AC with clubs trump. KC beats 6C but not AC, the highest trump: illegal.
    for hand in ("KC 8D", "KC 9S", "KC JC 8D", "KC 9S 10S"):
        for ruleset in (ANY, ONLY):
            legal = jass.legal_cards(CardSet.parse(hand), cards("7D 6C AC"), CLUBS, ruleset)
            assert Card.parse("KC") not in legal, hand
    explained = jass.explain_illegal(
        CardSet.parse("KC 9S"), cards("7D 6C AC"), CLUBS, Card.parse("KC")
    )
    assert explained is not None
    assert explained[0] is IllegalReason.UNDERTRUMP
    assert "KC" in explained[1]
    assert "AC" in explained[1]  # the trump it would undertrump is the highest one


def test_legal_cards_never_empty_and_subset_of_hand_for_every_single_card() -> None:
    # With one card left, that card is always legal, whatever the trick and contract.
    for contract in Contract.standard():
        for ruleset in (ANY, ONLY):
            for card in CARDS:
                hand = CardSet([card])
                for lead in CARDS:
                    if lead == card:
                        continue
                    assert jass.legal_cards(hand, [lead], contract, ruleset) == hand


# --------------------------------------------------------------------------------------------
# explain_illegal: each reason, and the message names the card
# --------------------------------------------------------------------------------------------


R = IllegalReason


@pytest.mark.parametrize(
    ("hand", "trick", "contract", "card", "reason"),
    [
        pytest.param("6H 7S", "", "hearts", "AS", R.NOT_IN_HAND, id="lead"),
        pytest.param("6H 7S", "8S", "hearts", "9S", R.NOT_IN_HAND, id="trick"),
        pytest.param("6H 7S", "8S", "hearts", "8S", R.NOT_IN_HAND, id="led"),
        pytest.param("KS 7D", "AS", "hearts", "7D", R.MUST_FOLLOW_SUIT, id="follow-trump"),
        pytest.param("KS 7D", "AS", "obenabe", "7D", R.MUST_FOLLOW_SUIT, id="follow-obe"),
        pytest.param("KS 7D", "AS", "undenufe", "7D", R.MUST_FOLLOW_SUIT, id="follow-unde"),
        pytest.param("JH 7D", "AH", "obenabe", "7D", R.MUST_FOLLOW_SUIT, id="follow-jack"),
        pytest.param("6H 7S", "AH", "hearts", "7S", R.MUST_FOLLOW_TRUMP, id="trump"),
        pytest.param("JH 6H 7S", "AH", "hearts", "7S", R.MUST_FOLLOW_TRUMP, id="buur+1"),
        pytest.param("9H 7D", "AD JH", "hearts", "9H", R.UNDERTRUMP, id="undertrump"),
        pytest.param("KS 6H", "AS QH 7S", "hearts", "6H", R.UNDERTRUMP, id="under-partner"),
        pytest.param("KC 9S", "7D 6C AC", "clubs", "KC", R.UNDERTRUMP, id="under-highest"),
        pytest.param("KH 9H", "7S AH", "hearts", "KH", R.MUST_OVERTRUMP, id="must-overtrump"),
        pytest.param("JH 9H 6H", "7S AH 8S", "hearts", "6H", R.MUST_OVERTRUMP, id="overtrump-2"),
    ],
)
def test_explain_illegal_reason(
    hand: str, trick: str, contract: str, card: str, reason: IllegalReason
) -> None:
    # MUST_OVERTRUMP exists only under ONLY_IF_NO_HIGHER; every other reason under both options.
    options = ("ONLY_IF_NO_HIGHER",) if reason is R.MUST_OVERTRUMP else BOTH
    for option in options:
        explained = jass.explain_illegal(
            CardSet.parse(hand),
            cards(trick),
            Contract.parse(contract),
            Card.parse(card),
            OPTIONS[option],
        )
        assert explained is not None, option
        got_reason, message = explained
        assert got_reason is reason, option
        assert isinstance(message, str)
        assert card in message
        assert len(message) > len(card)
    if reason is R.MUST_OVERTRUMP:  # the same card is fine under the default ANY
        assert (
            jass.explain_illegal(
                CardSet.parse(hand), cards(trick), Contract.parse(contract), Card.parse(card), ANY
            )
            is None
        )


@pytest.mark.parametrize(
    ("hand", "trick", "contract", "card", "option"),
    [
        ("6H 7S", "", "hearts", "7S", "ANY"),
        ("KS 7D", "AS", "hearts", "KS", "ANY"),
        ("JH 6S", "AH", "hearts", "6S", "ANY"),
        ("KH 9H", "7S AH", "hearts", "KH", "ANY"),
        ("KH 9H", "7S AH", "hearts", "9H", "ONLY_IF_NO_HIGHER"),
        ("8S 10H", "AH", "spades", "8S", "ANY"),
    ],
)
def test_explain_illegal_is_none_for_a_legal_card(
    hand: str, trick: str, contract: str, card: str, option: str
) -> None:
    assert (
        jass.explain_illegal(
            CardSet.parse(hand),
            cards(trick),
            Contract.parse(contract),
            Card.parse(card),
            OPTIONS[option],
        )
        is None
    )


def test_explain_illegal_undertrump_message_is_the_documented_one() -> None:
    explained = jass.explain_illegal(
        CardSet.parse("9H 7D"), cards("AD JH"), HEARTS, Card.parse("9H")
    )
    assert explained == (
        IllegalReason.UNDERTRUMP,
        "9H is not allowed: you hold diamonds and 9H would undertrump JH",
    )


# --------------------------------------------------------------------------------------------
# Through the state machine
# --------------------------------------------------------------------------------------------


# The seed example as a whole deal (no Weis, no Stöck): Anna, Ben, Carla, Dan from the forehand.
SEED_DEAL = (
    "6S 10S AS QH AH 8D QD 9C KC",  # Anna
    "8S JS 7H 10H 6D 10D AD 8C QC",  # Ben
    "7S QS 8H JH KH 9D KD 7C JC",  # Carla
    "9S KS 6H 9H 7D JD 6C 10C AC",  # Dan
)


def snapshot(game: Game) -> tuple[object, ...]:
    return (
        game.phase,
        game.to_move,
        game.hands,
        game.trick,
        game.history,
        game.scores,
        game.hand_points,
        game.tricks_won,
        game.legal_moves(),
    )


def assert_refused(game: Game, card: str, reason: IllegalReason) -> None:
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as info:
        game.play(Card.parse(card))
    assert info.value.reason is reason
    assert card in str(info.value)
    assert info.value.action == Play(Card.parse(card))
    assert info.value.state == game
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, jass.JassError)
    assert snapshot(game) == before  # the state is unchanged
    with pytest.raises(IllegalActionError):  # and the card name is accepted too
        game.play(card)
    assert snapshot(game) == before


def test_seed_example_through_the_game() -> None:
    g = deal_in_playing_order(ANY, 0, SEED_DEAL).choose(SPADES)
    anna = g.to_move
    assert anna is not None
    assert g.hands[anna] == CardSet.parse(SEED_DEAL[0])
    g = g.play(Card.parse("AH"))
    # Ben trumps with 8S although he holds hearts
    assert g.legal_moves() == CardSet.parse("8S JS 7H 10H")
    assert_refused(g, "6D", IllegalReason.MUST_FOLLOW_SUIT)
    g = g.play(Card.parse("8S"))
    # Carla may not play her 7S while she has other cards
    assert Card.parse("7S") not in g.legal_moves()
    assert g.legal_moves() == CardSet.parse("QS 8H JH KH")
    assert_refused(g, "7S", IllegalReason.UNDERTRUMP)
    assert_refused(g, "9D", IllegalReason.MUST_FOLLOW_SUIT)
    g = g.play(Card.parse("KH"))
    # Dan trumps with the Nell and wins 29 points, x2 = 58
    assert g.legal_moves() == CardSet.parse("9S KS 6H 9H")
    assert_refused(g, "7D", IllegalReason.MUST_FOLLOW_SUIT)
    assert_refused(g, "KH", IllegalReason.NOT_IN_HAND)
    g = g.play(Card.parse("9S"))
    dan = anna.offset(3)
    assert g.to_move == dan  # the winner leads the next trick
    assert g.trick == ()
    assert g.hand_points[dan.team] == 29
    assert g.hand_points[anna.team] == 0
    assert g.scores[dan.team] == 58
    assert g.scores[anna.team] == 0


def test_illegal_play_reasons_through_the_game() -> None:
    g = deal_in_playing_order(ANY, 0, SEED_DEAL).choose(SPADES)
    assert_refused(g, "8S", IllegalReason.NOT_IN_HAND)  # Ben's card, Anna to lead
    assert_refused(g, "7S", IllegalReason.NOT_IN_HAND)  # Carla's card
    # trump led: Ben holds the Buur and 8S, so he must play a trump (either one)
    led = g.play(Card.parse("AS"))
    assert led.legal_moves() == CardSet.parse("8S JS")
    assert_refused(led, "7H", IllegalReason.MUST_FOLLOW_TRUMP)
    after = led.play(Card.parse("8S"))  # a lower trump than AS: allowed on a trump lead
    assert after.trick == tuple(cards("AS 8S"))
    assert led.trick == tuple(cards("AS"))  # the old state did not change
    # Carla: QS is her only trump but not the Buur: she must follow with it
    assert after.legal_moves() == CardSet.parse("7S QS")
    assert_refused(after, "KH", IllegalReason.MUST_FOLLOW_TRUMP)


# Carla holds eight trumps and one spade; after trick 1 she holds only trumps.
OVERTRUMP_DEAL = (
    "AS KS 8S 9S 6D 7D 8D 9D 10D",  # Anna
    "6S QH JD QD KD AD 6C 7C 8C",  # Ben
    "7S 6H 7H 8H 9H 10H JH KH AH",  # Carla
    "10S JS QS 9C 10C JC QC KC AC",  # Dan
)


@pytest.mark.parametrize("option", BOTH)
def test_only_trumps_through_the_game(option: str) -> None:
    g = deal_in_playing_order(OPTIONS[option], 0, OVERTRUMP_DEAL).choose(HEARTS)
    for card in ("AS", "6S", "7S", "10S"):
        g = g.play(Card.parse(card))
    anna = g.to_move
    assert anna is not None
    assert g.hands[anna] == CardSet.parse("KS 8S 9S 6D 7D 8D 9D 10D")  # Anna won trick 1
    g = g.play(Card.parse("KS")).play(Card.parse("QH"))  # Ben, void in spades, trumps
    carla_hand = CardSet.parse("6H 7H 8H 9H 10H JH KH AH")
    assert g.hands[g.to_move or 0] == carla_hand
    if option == "ANY":
        assert g.legal_moves() == carla_hand  # she may undertrump
        g2 = g.play(Card.parse("6H"))
        assert g2.trick == tuple(cards("KS QH 6H"))
    else:
        assert g.legal_moves() == CardSet.parse("9H JH KH AH")  # she must overtrump
        assert_refused(g, "6H", IllegalReason.MUST_OVERTRUMP)
        assert_refused(g, "10H", IllegalReason.MUST_OVERTRUMP)
        assert_refused(g, "QH", IllegalReason.NOT_IN_HAND)


def test_play_before_a_contract_is_refused() -> None:
    g = deal_in_playing_order(ANY, 0, SEED_DEAL)
    before = snapshot(g)
    with pytest.raises(IllegalActionError) as info:
        g.play(Card.parse("AH"))
    assert info.value.reason is IllegalReason.WRONG_PHASE
    assert snapshot(g) == before


# --------------------------------------------------------------------------------------------
# Property tests against the reference
# --------------------------------------------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn) -> tuple[list[Card], list[Card], Contract, bool]:
    """A random hand and a disjoint trick of 0-3 cards from a shuffled deck.

    The hand is drawn from a random subset of suits, so that voids and all-trump hands, the
    interesting cases, come up often.
    """
    deck: list[Card] = draw(st.permutations(CARDS))
    suits = draw(st.sets(st.sampled_from(list(Suit)), min_size=1, max_size=4))
    pool = [c for c in deck if c.suit in suits]
    size = draw(st.integers(min_value=1, max_value=min(9, len(pool))))
    hand = pool[:size]
    rest = [c for c in deck if c not in hand]
    trick_size = draw(st.integers(min_value=0, max_value=3))
    trick = rest[:trick_size]
    contract = draw(st.sampled_from(Contract.standard()))
    only_if_no_higher = draw(st.booleans())
    return hand, trick, contract, only_if_no_higher


@pytest.mark.slow
@settings(max_examples=400)
@given(positions())
def test_legal_cards_matches_the_reference(
    position: tuple[list[Card], list[Card], Contract, bool],
) -> None:
    hand, trick, contract, only_if_no_higher = position
    ruleset = ONLY if only_if_no_higher else ANY
    got = jass.legal_cards(CardSet(hand), trick, contract, ruleset)
    expected = ref_legal(hand, trick, contract, only_if_no_higher)
    assert set(got) == expected
    assert got  # never empty for a non-empty hand
    assert got - CardSet(hand) == CardSet(0)


@pytest.mark.slow
@settings(max_examples=300)
@given(positions(), st.sampled_from(CARDS))
def test_explain_illegal_matches_the_reference(
    position: tuple[list[Card], list[Card], Contract, bool], card: Card
) -> None:
    hand, trick, contract, only_if_no_higher = position
    ruleset = ONLY if only_if_no_higher else ANY
    explained = jass.explain_illegal(CardSet(hand), trick, contract, card, ruleset)
    if card in ref_legal(hand, trick, contract, only_if_no_higher):
        assert explained is None
    else:
        assert explained is not None
        assert explained[0] is ref_reason(hand, trick, contract, card)
        assert str(card) in explained[1]


@settings(max_examples=60)
@given(
    st.integers(min_value=0, max_value=2**32),
    st.sampled_from(Contract.standard()),
    st.booleans(),
)
def test_state_machine_matches_the_reference_over_a_whole_hand(
    seed: int, contract: Contract, only_if_no_higher: bool
) -> None:
    ruleset = ONLY if only_if_no_higher else ANY
    game = Game.new(ruleset, seed=seed).deal().choose(contract)
    rng = random.Random(seed)
    for _ in range(36):
        seat = game.to_move
        assert seat is not None
        hand = list(game.hands[seat])
        trick = list(game.trick)
        legal = game.legal_moves()
        expected = ref_legal(hand, trick, contract, only_if_no_higher)
        assert set(legal) == expected
        illegal = sorted(set(hand) - expected)
        if illegal:
            card = rng.choice(illegal)
            before = snapshot(game)
            with pytest.raises(IllegalActionError) as info:
                game.play(card)
            assert info.value.reason is ref_reason(hand, trick, contract, card)
            assert str(card) in str(info.value)
            assert snapshot(game) == before
        game = game.play(rng.choice(sorted(expected)))
    assert sum(game.hand_points) == 157
    assert all(len(h) == 0 for h in game.hands)
