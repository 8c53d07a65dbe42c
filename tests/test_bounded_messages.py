"""Every error message that quotes its input stays short, however long the input is.

A parser that quotes a megabyte of input in full makes a megabyte of message (issue 23,
item 8); each message here must stay under 300 characters and still say what was wrong.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import jass
from jass import Card, CardSet, Contract, InvalidInputError
from jass.core.cards import Rank, Suit, SuitPairing, as_card

BIG = "x" * 1_000_000
HUGE = 10**5000  # Python refuses to write this int out at all


def play_big() -> object:
    return jass.Game.new(seed=1).deal().choose("hearts").play(BIG)


CASES: list[tuple[str, Callable[[], object], str]] = [
    ("Card.parse", lambda: Card.parse(BIG), "cannot parse card"),
    ("Card.parse-rank", lambda: Card.parse("1" * 500_000 + "H"), "cannot parse card"),
    ("CardSet.parse", lambda: CardSet.parse(BIG), "cannot parse card"),
    ("CardSet.parse-many", lambda: CardSet.parse("AS " + "x " * 300_000), "cannot parse card"),
    ("CardSet.parse-twice", lambda: CardSet.parse("AS AS " + "KS " * 1 + " " * 900_000), "twice"),
    ("CardSet-str", lambda: CardSet(BIG), "CardSet.parse"),
    ("Card-str", lambda: Card(BIG), "Card.parse"),  # type: ignore[arg-type]
    ("Card.of", lambda: Card.of(BIG, BIG), "Card.of takes"),  # type: ignore[arg-type]
    ("as_card", lambda: as_card(BIG), "cannot parse card"),
    ("Suit.parse", lambda: Suit.parse(BIG), "cannot parse suit"),
    ("Rank.parse", lambda: Rank.parse(BIG), "cannot parse rank"),
    ("SuitPairing.parse", lambda: SuitPairing.parse(BIG), "unknown suit pairing"),
    ("Contract.parse", lambda: Contract.parse(BIG), ""),
    ("Game.play", play_big, "cannot parse card"),
    ("Game.new", lambda: jass.Game.new(BIG), "unknown rule set"),
    ("Game.new list", lambda: jass.Game.new([BIG]), "must be a RuleSet"),  # type: ignore[arg-type]
    ("CardSet|huge", lambda: CardSet() | HUGE, "not a set of cards"),
    ("CardSet-suit", lambda: CardSet().suit(BIG), "is not a Suit"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("name", "call", "says"), CASES, ids=[c[0] for c in CASES])
def test_a_message_quoting_a_huge_input_stays_short(
    name: str, call: Callable[[], object], says: str
) -> None:
    with pytest.raises(InvalidInputError) as caught:
        call()
    message = str(caught.value)
    assert len(message) < 300, (name, len(message))
    assert says in message


def test_a_huge_int_compared_with_a_card_set_is_a_short_type_error() -> None:
    with pytest.raises(TypeError) as caught:
        CardSet() < HUGE  # noqa: B015
    assert "digits" in str(caught.value)
    assert len(str(caught.value)) < 300


def test_a_short_input_is_still_quoted_in_full() -> None:
    with pytest.raises(InvalidInputError, match="cannot parse card '1H': unknown rank '1'"):
        Card.parse("1H")
    with pytest.raises(InvalidInputError, match="card 10D appears twice in '10D, td'"):
        CardSet.parse("10D, td")
