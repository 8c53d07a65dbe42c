"""The card: one of 36, a small int (re-exported, with :class:`CardSet`, by :mod:`jass.core.cards`).

A card is ``9 * suit + rank``; :data:`CARDS` holds the 36 of them by index.

>>> from jass.core.cards import Card, CARDS
>>> Card.parse("JH") is CARDS[14], str(CARDS[0])
(True, '6S')
"""

from __future__ import annotations

import re
from typing import Final, SupportsIndex

from typing_extensions import Self

from jass._budgets import is_int
from jass.core.suits import (
    _RANK_LABELS,
    _RANK_WORDS,
    _SUIT_WORDS,
    Rank,
    Suit,
    SuitPairing,
    suit_and_rank,
)
from jass.errors import InvalidInputError, describe

__all__ = ["CARDS", "Card", "as_card"]

_and: Final = int.__and__
_or: Final = int.__or__
_xor: Final = int.__xor__


_PAIRING_DEFAULT: Final = SuitPairing.SWISSLOS


class _SetOfCards(int):
    """The base of :class:`~jass.CardSet`, so that a card knows a set when it meets one."""

    __slots__ = ()


# Rank token then suit token, or suit symbol then rank ("♥J").
_CARD_RE: Final = re.compile(r"^(10|[0-9]|[a-z])([shdc♠♥♦♣♤♡♢♧])$|^([♠♥♦♣♤♡♢♧])(10|[0-9]|[a-z])$")


class Card(int):
    """One of the 36 cards, stored as the int ``9 * suit + rank``.

    Use :meth:`parse`, :meth:`of` or the table :data:`CARDS`; ``Card(n)`` takes an index 0-35.
    Cards compare and sort by index. Next to a :class:`CardSet`, a card counts as the set of
    that one card: ``card | cards`` is a card set, and ``card + cards`` or ``card < cards``
    raise :class:`TypeError`, as they do with the card set on the left.

    >>> from jass import CardSet, Rank, Suit
    >>> c = Card.of(Suit.HEARTS, Rank.JACK)
    >>> c, int(c), c.suit, c.rank, str(c)
    (Card.parse('JH'), 14, <Suit.HEARTS: 1>, <Rank.JACK: 5>, 'JH')
    >>> c | CardSet.parse("AS"), c in CardSet.parse("JH 9H")
    (CardSet.parse('AS JH'), True)
    """

    __slots__ = ()

    def __new__(cls, index: SupportsIndex) -> Self:
        """Return the card with index ``index`` (0-35)."""
        if isinstance(index, str):
            raise InvalidInputError(
                f"Card() takes an index 0-35; use Card.parse({describe(index, typed=False)})"
            )
        if not is_int(index):
            raise InvalidInputError(
                f"card index must be an int 0-35, got {describe(index, typed=False)}"
            )
        if not 0 <= index < 36:
            raise InvalidInputError(f"card index {describe(index, typed=False)} is outside 0-35")
        return int.__new__(cls, index)

    def __eq__(self, other: object) -> bool:
        # A card is never equal to a card set, though both are ints.
        return False if isinstance(other, _SetOfCards) else int.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return True if isinstance(other, _SetOfCards) else int.__ne__(self, other)

    __hash__ = int.__hash__

    # With a card set on the right, let the card set answer: ``card | cards`` is a union, and
    # ``card + cards`` or ``card < cards`` raise TypeError instead of doing int arithmetic.

    def __or__(self, other: int) -> int:
        return NotImplemented if isinstance(other, _SetOfCards) else _or(self, other)

    def __and__(self, other: int) -> int:
        return NotImplemented if isinstance(other, _SetOfCards) else _and(self, other)

    def __xor__(self, other: int) -> int:
        return NotImplemented if isinstance(other, _SetOfCards) else _xor(self, other)

    def __sub__(self, other: int) -> int:
        return NotImplemented if isinstance(other, _SetOfCards) else int.__sub__(self, other)

    def __add__(self, other: int) -> int:
        return NotImplemented if isinstance(other, _SetOfCards) else int.__add__(self, other)

    def __lt__(self, other: int) -> bool:
        return NotImplemented if isinstance(other, _SetOfCards) else int.__lt__(self, other)

    def __le__(self, other: int) -> bool:
        return NotImplemented if isinstance(other, _SetOfCards) else int.__le__(self, other)

    def __gt__(self, other: int) -> bool:
        return NotImplemented if isinstance(other, _SetOfCards) else int.__gt__(self, other)

    def __ge__(self, other: int) -> bool:
        return NotImplemented if isinstance(other, _SetOfCards) else int.__ge__(self, other)

    @classmethod
    def of(cls, suit: Suit, rank: Rank) -> Card:
        """The card of ``suit`` and ``rank``.

        >>> Card.of(Suit.SPADES, Rank.ACE)
        Card.parse('AS')
        """
        if not isinstance(suit, Suit) or not isinstance(rank, Rank):
            raise InvalidInputError(
                f"Card.of takes a Suit and a Rank, got {describe(suit)}, {describe(rank)}"
            )
        return CARDS[9 * suit + rank]

    @classmethod
    def parse(cls, text: str | Card, pairing: SuitPairing | str | None = None) -> Card:
        """Parse a card: French notation, Unicode, or the suit's and the rank's names.

        Read are ``JH``, ``10D``, ``TD``, ``♥J``, ``J♥``, and a suit name with a rank in
        either order, as :meth:`swiss_name` writes it (``Rosen Under``) or in German or
        English (``Herz Bube``, ``Ecken 10``, ``jack of hearts``). Swiss suit names, also
        singular (``Rose``, ``Eichel``, ``Schelle``, ``Schilte``), are read under ``pairing``
        (default ``SWISSLOS``), so ``Card.parse(card.swiss_name(p), p) == card``. Case is
        ignored. A :class:`Card` is returned as it is.

        >>> Card.parse("td"), Card.parse("♦10"), Card.parse(" qs "), Card.parse("Herz Bube")
        (Card.parse('10D'), Card.parse('10D'), Card.parse('QS'), Card.parse('JH'))
        >>> Card.parse("Eicheln Ass"), Card.parse("Eicheln Ass", "WIKIPEDIA")
        (Card.parse('AD'), Card.parse('AC'))
        """
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise InvalidInputError(
                f"cannot parse card {describe(text, typed=False)}: expected a string like 'JH'"
            )
        chosen = _PAIRING_DEFAULT if pairing is None else SuitPairing.parse(pairing)
        token = text.strip().casefold()
        match = _CARD_RE.match(token)
        if match is None:
            card = _card_from_words(token, chosen)
            if card is None:
                raise InvalidInputError(
                    f"cannot parse card {describe(text, typed=False)}: expected a rank and a "
                    "suit, like 'JH', "
                    "'10D', '♥J' or 'Rosen Under'"
                )
            return card
        rank_text, suit_text = (
            (match[1], match[2]) if match[1] is not None else (match[4], match[3])
        )
        rank = _RANK_WORDS.get(rank_text)
        if rank is None:
            raise InvalidInputError(
                f"cannot parse card {describe(text, typed=False)}: unknown rank "
                f"{describe(rank_text, typed=False)}"
            )
        return CARDS[9 * _SUIT_WORDS[suit_text] + rank]

    @property
    def suit(self) -> Suit:
        """The card's suit.

        >>> Card.parse("7C").suit
        <Suit.CLUBS: 3>
        """
        return _SUITS[self // 9]

    @property
    def rank(self) -> Rank:
        """The card's rank.

        >>> Card.parse("7C").rank
        <Rank.SEVEN: 1>
        """
        return _RANKS[self % 9]

    @property
    def symbol(self) -> str:
        """The card with a Unicode suit symbol, suit first: ``♥J``.

        >>> Card.parse("10S").symbol
        '♠10'
        """
        return _SUITS[self // 9].symbol + _RANK_LABELS[self % 9]

    def swiss_name(self, pairing: SuitPairing | str | None = None) -> str:
        """The Swiss-German name, suit first, under ``pairing`` (default ``SWISSLOS``).

        >>> Card.parse("JH").swiss_name(), Card.parse("10C").swiss_name("WIKIPEDIA")
        ('Rosen Under', 'Eicheln Banner')
        """
        return f"{_SUITS[self // 9].swiss_name(pairing)} {_RANKS[self % 9].swiss_name}"

    def __str__(self) -> str:
        return _CARD_NAMES[self]

    def __repr__(self) -> str:
        return f"Card.parse({_CARD_NAMES[self]!r})"

    def __format__(self, spec: str) -> str:
        return format(_CARD_NAMES[self], spec)

    def _repr_svg_(self) -> str:
        """The card as a picture, which notebooks show (see :func:`jass.svg.card`).

        >>> 'data-card="JH"' in Card.parse("JH")._repr_svg_()
        True
        """
        from jass import svg  # noqa: PLC0415 (svg sits above cards in the import order)

        return svg.card(self)


_SUITS: Final = tuple(Suit)
_RANKS: Final = tuple(Rank)
_CARD_NAMES: Final = tuple(_RANK_LABELS[i % 9] + "SHDC"[i // 9] for i in range(36))

#: The 36 cards by index: ``CARDS[9 * suit + rank]``.
CARDS: Final[tuple[Card, ...]] = tuple(int.__new__(Card, i) for i in range(36))



def as_card(value: object) -> Card:
    """A card from a :class:`Card`, its name, or its index 0-35.

    >>> as_card("JH"), as_card(14), as_card(Card.parse("JH"))
    (Card.parse('JH'), Card.parse('JH'), Card.parse('JH'))
    """
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return Card.parse(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 36:
        return CARDS[value]
    raise InvalidInputError(f"{describe(value, typed=False)} is not a card")


def _card_from_words(token: str, pairing: SuitPairing) -> Card | None:
    found = suit_and_rank(token, pairing)
    return None if found is None else CARDS[9 * found[0] + found[1]]
