"""The seeded shuffle against its definition: SHAKE-256 keys, sorted, ties in card order."""

from __future__ import annotations

import hashlib
import struct

import pytest

from jass.core.dealing import _deck_order, draw_for_dealer, seeded_deal, shuffled_deck


def _by_definition(seed: int, purpose: str, count: int) -> list[int]:
    # Written from the docstring, not from the code: card i's key is the i-th big-endian
    # 64-bit word of SHAKE-256 over "jass/{seed}/{purpose}", and ties keep the card order.
    digest = hashlib.shake_256(f"jass/{seed}/{purpose}".encode()).digest(288)
    keys = [int.from_bytes(digest[8 * i : 8 * i + 8], "big") for i in range(36)]
    return sorted(range(36), key=lambda card: (keys[card], card))[:count]


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 36])
def test_shuffled_deck_follows_its_definition(count: int) -> None:
    for seed in range(300):
        for purpose in ("deal/0", "deal/7", "draw/0", "draw/3"):
            assert shuffled_deck(seed, purpose, count) == _by_definition(seed, purpose, count)


@pytest.mark.parametrize(
    "keys",
    [
        (9, 5, 7, 5, 1, 9, *range(100, 130)),  # whole keys tied
        (3 << 48 | 9, 3 << 48 | 2, 1 << 48 | 5, 1 << 48 | 4, *range(200 << 48, 232 << 48, 1 << 48)),
        (1 << 48, 2 << 48 | 7, 2 << 48 | 3, 4 << 48, *range(9 << 48, 41 << 48, 1 << 48)),
    ],
)
def test_ties_of_keys_or_of_their_top_bits_keep_the_order(keys: tuple[int, ...]) -> None:
    # The second and third rows tie in the top 16 bits only, inside and at the edge of the
    # first four cards: the short path must step aside for the whole keys.
    expected = sorted(range(36), key=lambda card: (keys[card], card))
    digest = struct.pack(">36Q", *keys)
    for count in range(1, 37):
        assert _deck_order(digest, count) == expected[:count]


def test_the_draw_and_the_deal_follow_the_shuffle() -> None:
    for seed in range(200):
        seats, round_number = [0, 1, 2, 3], 0
        while len(seats) > 1:
            ranks = [card % 9 for card in _by_definition(seed, f"draw/{round_number}", len(seats))]
            seats = [s for s, rank in zip(seats, ranks, strict=True) if rank == min(ranks)]
            round_number += 1
        assert draw_for_dealer(seed, lowest=True) == seats[0]
        deck = _by_definition(seed, "deal/0", 36)
        hands = seeded_deal(seed, 0, forehand=2)
        for position, card in enumerate(deck):
            seat = (2 + position // 3) & 3  # packets of three, forehand first (R3.5)
            assert card in hands[seat]
