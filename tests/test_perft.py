"""Perft: the number of legal card sequences from fixed deals, to pin move generation down.

For each position (a fixed deal and a contract) the test counts the legal card sequences over
the first trick (4 cards) and the first two tricks (8 cards) twice:

- through the library, recursively over ``Game.legal_moves()`` and ``Game.play``;
- through a plain-python simulation written here: its own legal-card rule (rule book R5.5,
  from ``Card.suit`` / ``Card.rank`` and order lists) and its own trick winner (R6.1/R6.2).

The literals in ``PERFT`` were computed once with the plain-python simulation; both counts must
equal them.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from jass import Card, CardSet, Contract, Game, Rank, RuleSet, rules
from tests.helpers import start

ANY = rules.SCHIEBER
ONLY = rules.SCHIEBER.evolve(undertrump_only_trumps="ONLY_IF_NO_HIGHER")

# Each deal lists the hands in playing order from the forehand (who leads trick 1).
DEALS = {
    # the seed example deal: no Weis, no Stöck
    "A": (
        "6S 10S AS QH AH 8D QD 9C KC",
        "8S JS 7H 10H 6D 10D AD 8C QC",
        "7S QS 8H JH KH 9D KD 7C JC",
        "9S KS 6H 9H 7D JD 6C 10C AC",
    ),
    # a shuffled deal (random.Random(2024).shuffle of the 36 cards)
    "B": (
        "6S 7S 10S JS 6D 6C 7C 10C QC",
        "8S 9S 6H 7H JH 9D KD 8C JC",
        "QS KS 10H QH KH AH 8D JD KC",
        "AS 8H 9H 7D 10D QD AD 9C AC",
    ),
    # the third player holds eight trumps (hearts) and one spade: the undertrump option matters
    "C": (
        "AS KS 6D 7D 8D 9D 10D JD QD",
        "6S QH KD AD 6C 7C 8C 9C 10C",
        "7S 6H 7H 8H 9H 10H JH KH AH",
        "8S 9S 10S JS QS JC QC KC AC",
    ),
}

# (deal, contract, undertrump option) -> {number of cards played: number of legal sequences}.
# 4 cards = the first trick, 8 = the first two tricks. In deal C the option first matters at the
# 7th card: the third player, left with only trumps, plays to a trick that holds a trump.
PERFT: dict[tuple[str, str, str], dict[int, int]] = {
    ("A", "TRUMP_SPADES", "ANY"): {4: 398, 8: 134430},
    ("A", "UNDENUFE", "ANY"): {4: 96, 8: 7104},
    ("B", "TRUMP_HEARTS", "ANY"): {4: 632, 8: 262824},
    ("B", "OBENABE", "ANY"): {4: 48, 8: 11328},
    ("C", "TRUMP_HEARTS", "ANY"): {4: 1589, 6: 96386, 7: 693232},
    ("C", "TRUMP_HEARTS", "ONLY_IF_NO_HIGHER"): {4: 1589, 6: 96386, 7: 692912},
}
CASES = [(*key, depth) for key, counts in PERFT.items() for depth in counts]

# --------------------------------------------------------------------------------------------
# The plain-python reference
# --------------------------------------------------------------------------------------------

TRUMP_ORDER = ("J", "9", "A", "K", "Q", "10", "8", "7", "6")  # highest first
PLAIN_ORDER = ("A", "K", "Q", "J", "10", "9", "8", "7", "6")
UNDENUFE_ORDER = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")


def trump_strength(card: Card) -> int:
    return 8 - TRUMP_ORDER.index(card.rank.label)


def ref_legal(
    hand: Sequence[Card], trick: Sequence[Card], contract: Contract, only_if_no_higher: bool
) -> list[Card]:
    """rule book R5.5, in canonical (sorted) order."""
    whole = set(hand)
    if not trick:
        return sorted(whole)
    led = trick[0].suit
    follow = {c for c in hand if c.suit == led}
    trump = contract.trump_suit
    if trump is None:
        return sorted(follow or whole)
    tr = {c for c in hand if c.suit == trump}
    if led == trump:
        return sorted(tr if {c for c in tr if c.rank != Rank.JACK} else whole)
    in_trick = [c for c in trick if c.suit == trump]
    if in_trick:
        top = max(trump_strength(c) for c in in_trick)
        ok = {t for t in tr if trump_strength(t) > top}
    else:
        ok = tr
    if follow:
        return sorted(follow | ok)
    if tr == whole:
        return sorted((ok or whole) if only_if_no_higher else whole)
    return sorted((whole - tr) | ok)


def ref_winner(trick: Sequence[Card], contract: Contract) -> int:
    led = trick[0].suit
    best, best_key = 0, (-1, -1)
    for index, card in enumerate(trick):
        if card.suit == contract.trump_suit:
            key = (2, trump_strength(card))
        elif card.suit == led:
            order = UNDENUFE_ORDER if contract is Contract.UNDENUFE else PLAIN_ORDER
            key = (1, 8 - order.index(card.rank.label))
        else:
            key = (0, 0)
        if key > best_key:
            best, best_key = index, key
    return best


def ref_perft(
    hands: list[list[Card]],
    trick: list[Card],
    to_move: int,
    *,
    contract: Contract,
    only_if_no_higher: bool,
    depth: int,
) -> int:
    """Card sequences of length ``depth``; ``hands`` are indexed by position from the forehand."""
    if depth == 0:
        return 1
    total = 0
    for card in ref_legal(hands[to_move], trick, contract, only_if_no_higher):
        hands[to_move].remove(card)
        trick.append(card)
        if len(trick) == 4:
            leader = (to_move + 1) % 4  # the 4th card was played by the seat before the leader
            winner = (leader + ref_winner(trick, contract)) % 4
            total += ref_perft(
                hands,
                [],
                winner,
                contract=contract,
                only_if_no_higher=only_if_no_higher,
                depth=depth - 1,
            )
        else:
            total += ref_perft(
                hands,
                trick,
                (to_move + 1) % 4,
                contract=contract,
                only_if_no_higher=only_if_no_higher,
                depth=depth - 1,
            )
        trick.pop()
        hands[to_move].append(card)
    return total


def reference_count(deal: str, contract: Contract, only_if_no_higher: bool, depth: int) -> int:
    hands = [[Card.parse(t) for t in text.split()] for text in DEALS[deal]]
    return ref_perft(
        hands, [], 0, contract=contract, only_if_no_higher=only_if_no_higher, depth=depth
    )


# --------------------------------------------------------------------------------------------
# The library
# --------------------------------------------------------------------------------------------


def new_game(deal_name: str, contract: Contract, ruleset: RuleSet) -> Game:
    """The game after the deal and the contract, seat 0 the forehand holding ``DEALS[...][0]``."""
    game = start(ruleset, DEALS[deal_name], contract)
    assert game.hands[0] == CardSet.parse(DEALS[deal_name][0])
    return game


def library_perft(game: Game, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(library_perft(game.play(card), depth - 1) for card in game.legal_moves())


def library_divide(game: Game, depth: int) -> dict[str, int]:
    return {str(card): library_perft(game.play(card), depth - 1) for card in game.legal_moves()}


# --------------------------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("deal", "contract", "option", "depth"), CASES)
def test_perft(deal: str, contract: str, option: str, depth: int) -> None:
    parsed = Contract.parse(contract)
    expected = PERFT[deal, contract, option][depth]
    assert reference_count(deal, parsed, option != "ANY", depth) == expected
    game = new_game(deal, parsed, ANY if option == "ANY" else ONLY)
    assert library_perft(game, depth) == expected


def test_perft_literals_cover_one_and_two_tricks() -> None:
    for (deal, _, _), counts in PERFT.items():
        if deal != "C":
            assert set(counts) == {4, 8}
    # the undertrump option changes the count exactly where it first applies
    only, any_ = PERFT["C", "TRUMP_HEARTS", "ONLY_IF_NO_HIGHER"], PERFT["C", "TRUMP_HEARTS", "ANY"]
    assert only[6] == any_[6]
    assert only[7] < any_[7]


@pytest.mark.parametrize(("deal", "contract", "option"), list(PERFT))
def test_perft_divide_one_trick(deal: str, contract: str, option: str) -> None:
    # Per first card, so that a disagreement points at the move that differs.
    parsed = Contract.parse(contract)
    only = option != "ANY"
    game = new_game(deal, parsed, ONLY if only else ANY)
    hands = [[Card.parse(t) for t in text.split()] for text in DEALS[deal]]
    expected: dict[str, int] = {}
    for card in ref_legal(hands[0], [], parsed, only):
        hands[0].remove(card)
        expected[str(card)] = ref_perft(
            hands, [card], 1, contract=parsed, only_if_no_higher=only, depth=3
        )
        hands[0].append(card)
    assert library_divide(game, 4) == expected
    assert sum(expected.values()) == PERFT[deal, contract, option][4]
