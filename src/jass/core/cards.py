"""Suits, ranks, cards and card sets.

A :class:`Card` is a small int, ``9 * suit + rank``, and a :class:`CardSet` is an int bitmask
with bit ``card`` set for each card it holds, in the spirit of python-chess. Both are ``int``
subclasses, so they cost no more than an int. A card set behaves as a set, not as a number: its
operators are the set operators and subset tests, and arithmetic on it raises ``TypeError``.
Code that wants integer arithmetic in a hot loop works on ``int(cards)``, the plain bitmask.

The engine works in French suits (``S H D C``); the Swiss-German names are a display layer
whose suit pairing is disputed (rule book R1.4), hence :class:`SuitPairing`.

>>> Card.parse("JH"), str(Card.parse("10d")), Card.parse("♥J") == Card.parse("JH")
(Card.parse('JH'), '10D', True)
>>> CardSet.parse("JH 9H AS")
CardSet.parse('AS 9H JH')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from operator import index as _bits
from typing import Final, NoReturn, SupportsIndex

from typing_extensions import Self

from jass._budgets import is_int
from jass.core._card import (
    _CARD_NAMES,
    _PAIRING_DEFAULT,
    CARDS,
    Card,
    _card_from_words,
    _SetOfCards,
    as_card,
)
from jass.core.suits import (
    Rank,
    Suit,
    SuitPairing,
)
from jass.errors import InvalidInputError, describe

__all__ = [
    "ALL_CARDS",
    "CARDS",
    "SUIT_MASKS",
    "Card",
    "CardSet",
    "Rank",
    "Suit",
    "SuitPairing",
    "as_card",
]


def _third_table(third: int) -> tuple[tuple[Card, ...], ...]:
    """The cards of each 12-bit pattern of one third of a card set, in order."""
    table: list[tuple[Card, ...]] = [()]
    # Doubling: the patterns with bit k set are those below 2**k, each with card k added.
    for card in CARDS[12 * third : 12 * third + 12]:
        # Concatenation, not (*cards, card): four times faster.
        table += [cards + (card,) for cards in table]  # noqa: RUF005
    return tuple(table)


_LOW, _MIDDLE, _HIGH = _third_table(0), _third_table(1), _third_table(2)
#: Bitmask of each suit's nine cards, indexed by :class:`Suit`.
SUIT_MASKS: Final[tuple[int, int, int, int]] = (0x1FF, 0x1FF << 9, 0x1FF << 18, 0x1FF << 27)
_FULL: Final = (1 << 36) - 1


class CardSet(_SetOfCards):
    """An immutable set of cards, stored as an int bitmask (bit ``i`` is card ``i``).

    It behaves like a :class:`frozenset` of cards. It iterates in canonical order (by suit
    ``S H D C``, then by natural rank; for the trick-taking order of a contract see
    :meth:`Contract.by_strength() <jass.Contract.by_strength>`) and supports ``len``, ``in``
    (a card, a card name or an index), ``==``, ``hash`` and ``bool``.

    The set operators ``|`` (union), ``&`` (intersection), ``-`` (difference) and ``^``
    (symmetric difference) return a :class:`CardSet`, with the card set on either side. The
    other operand may be a card set, a single :class:`Card`, or a plain int bitmask (of 36
    bits; ``&`` takes any int, as in ``hand & ~trumps``). ``~`` is the complement within the
    36-card deck. :meth:`union`, :meth:`intersection`, :meth:`difference`,
    :meth:`symmetric_difference`, :meth:`issubset`, :meth:`issuperset` and :meth:`isdisjoint`
    also take iterables of cards or card names, as :class:`frozenset`'s methods do.

    ``<``, ``<=``, ``>`` and ``>=`` are the proper-subset, subset, proper-superset and superset
    tests of :class:`frozenset`. Both sides must be card sets: comparing with a plain int, a
    :class:`Card` or anything else raises :class:`TypeError` (use ``CardSet(mask)`` for a
    bitmask, or ``card in cards``). Equality is different: a card set equals the plain int
    bitmask with the same bits (and never a :class:`Card`).

    A card set is not a number: ``+``, ``*``, ``/``, ``//``, ``%``, ``divmod``, ``**``, the
    shifts ``<<`` and ``>>``, unary ``-`` and ``+`` and ``abs`` raise :class:`TypeError`, also
    with the card set on the right, so ``sum(sets)`` raises too: use ``|``, or
    ``CardSet().union(*sets)``. ``int(cards)`` is the bitmask, for code that wants integer
    arithmetic. (A ``float`` or ``bool`` on the left of an operator is the one exception
    Python leaves no way to catch: its own method treats the card set as an int.)

    >>> hand = CardSet.parse("JH 9H AS")
    >>> len(hand), Card.parse("9H") in hand, list(hand)
    (3, True, [Card.parse('AS'), Card.parse('9H'), Card.parse('JH')])
    >>> str(hand - CardSet.parse("AS")), hand & CardSet.parse("AS 6C") == CardSet.parse("AS")
    ('9H JH', True)
    >>> CardSet([Card.parse("6C")]) | CardSet.parse("7C")
    CardSet.parse('6C 7C')
    >>> CardSet.parse("AS") < hand, hand <= hand, hand < hand, CardSet.parse("AS 6C") <= hand
    (True, True, False, False)
    >>> hand + CardSet.parse("6C")
    Traceback (most recent call last):
    ...
    TypeError: CardSet does not support +: use | for a union (and CardSet().union(*sets) \
for sum(sets))
    """

    __slots__ = ()

    def __new__(cls, cards: SupportsIndex | Iterable[Card | str] = 0) -> Self:
        """Build a set from a bitmask, one card, or cards (or card names)."""
        if isinstance(cards, Card):
            return int.__new__(cls, 1 << cards)
        if isinstance(cards, CardSet):
            return int.__new__(cls, cards)
        if isinstance(cards, str):
            raise InvalidInputError(
                f"use CardSet.parse({describe(cards, typed=False)}) to read card names"
            )
        if isinstance(cards, Iterable) and not isinstance(cards, bytes):
            bits = 0
            for card in cards:
                bit = 1 << as_card(card)
                if bits & bit:
                    raise InvalidInputError(f"card {CARDS[bit.bit_length() - 1]} appears twice")
                bits |= bit
            return int.__new__(cls, bits)
        if not is_int(cards):
            raise InvalidInputError(
                f"a card set is built from cards or a bitmask, got {describe(cards, typed=False)}"
            )
        if not 0 <= cards <= _FULL:
            raise InvalidInputError(
                f"card set bitmask {describe(cards, typed=False)} is outside 0 to 2**36 - 1"
            )
        return int.__new__(cls, cards)

    @classmethod
    def parse(cls, text: str, pairing: SuitPairing | str | None = None) -> CardSet:
        """Parse cards separated by spaces or commas; a repeated card is an error.

        Each card is read as :meth:`Card.parse` reads it (``pairing`` for Swiss suit names),
        so a card of two words needs no quotes: ``"Rosen Under, Rosen 9"``.

        >>> CardSet.parse("Rosen Under Schellen 9 AS")
        CardSet.parse('AS JH 9C')
        >>> CardSet.parse("10D, td")
        Traceback (most recent call last):
        ...
        jass.errors.InvalidInputError: card 10D appears twice in '10D, td'
        """
        if not isinstance(text, str):
            raise InvalidInputError(
                f"CardSet.parse reads a string like 'JH 9H', got {describe(text, typed=False)}"
            )
        chosen = _PAIRING_DEFAULT if pairing is None else SuitPairing.parse(pairing)
        tokens = [token for token in _SEPARATORS.split(text.strip()) if token]
        bits = 0
        index = 0
        while index < len(tokens):
            card, used = _next_card(tokens, index, chosen, text)
            index += used
            bit = 1 << card
            if bits & bit:
                raise InvalidInputError(
                    f"card {card} appears twice in {describe(text, typed=False)}"
                )
            bits |= bit
        return int.__new__(cls, bits)

    @classmethod
    def full(cls) -> CardSet:
        """The whole deck of 36 cards.

        >>> len(CardSet.full())
        36
        """
        return ALL_CARDS

    def suit(self, suit: Suit) -> CardSet:
        """The cards of this set in ``suit``.

        >>> CardSet.parse("JH 9H AS").suit(Suit.HEARTS)
        CardSet.parse('9H JH')
        """
        if not isinstance(suit, Suit):
            raise InvalidInputError(f"{describe(suit, typed=False)} is not a Suit")
        return _new(CardSet, _bits(self) & SUIT_MASKS[suit])

    def cards(self) -> tuple[Card, ...]:
        """The cards as a tuple, in canonical order (fast: three table lookups).

        The order is by suit, then natural rank; for the trick-taking order of a contract use
        :meth:`Contract.by_strength() <jass.Contract.by_strength>`.

        >>> CardSet.parse("AS 6H").cards()
        (Card.parse('AS'), Card.parse('6H'))
        """
        bits = _bits(self)
        return _LOW[bits & 0xFFF] + _MIDDLE[bits >> 12 & 0xFFF] + _HIGH[bits >> 24]

    def union(self, *others: CardSet | Card | Iterable[Card | str]) -> CardSet:
        """The cards in this set or in any of ``others`` (like ``|``).

        Each of ``others`` may be a card set, a card, or an iterable of cards or card names.
        ``CardSet().union(*sets)`` is the union of any number of sets (where ``sum`` raises).

        >>> CardSet().union(CardSet.parse("JH"), ["9H", "AS"], Card.parse("6C"))
        CardSet.parse('AS 9H JH 6C')
        """
        bits = _bits(self)
        for other in others:
            bits |= _bits_of(other)
        return _new(CardSet, bits)

    def intersection(self, *others: CardSet | Card | Iterable[Card | str]) -> CardSet:
        """The cards in this set and in every one of ``others`` (like ``&``).

        >>> CardSet.parse("JH 9H AS").intersection(["AS", "9H", "6C"], CardSet.parse("AS"))
        CardSet.parse('AS')
        """
        bits = _bits(self)
        for other in others:
            bits &= _bits_of(other)
        return _new(CardSet, bits)

    def difference(self, *others: CardSet | Card | Iterable[Card | str]) -> CardSet:
        """The cards in this set and in none of ``others`` (like ``-``).

        >>> CardSet.parse("JH 9H AS").difference(["AS"], Card.parse("9H"))
        CardSet.parse('JH')
        """
        bits = _bits(self)
        for other in others:
            bits &= ~_bits_of(other)
        return _new(CardSet, bits)

    def symmetric_difference(self, other: CardSet | Card | Iterable[Card | str]) -> CardSet:
        """The cards in exactly one of this set and ``other`` (like ``^``).

        >>> CardSet.parse("JH 9H").symmetric_difference(["9H", "AS"])
        CardSet.parse('AS JH')
        """
        return _new(CardSet, _bits(self) ^ _bits_of(other))

    def issubset(self, other: CardSet | Card | Iterable[Card | str]) -> bool:
        """Whether every card of this set is in ``other`` (like ``<=``).

        >>> CardSet.parse("JH").issubset(["JH", "9H"]), CardSet.parse("JH AS").issubset(["JH"])
        (True, False)
        """
        return not _bits(self) & ~_bits_of(other)

    def issuperset(self, other: CardSet | Card | Iterable[Card | str]) -> bool:
        """Whether every card of ``other`` is in this set (like ``>=``).

        >>> CardSet.parse("JH 9H").issuperset(["9H"]), CardSet.parse("JH").issuperset(["AS"])
        (True, False)
        """
        return not _bits_of(other) & ~_bits(self)

    def isdisjoint(self, other: CardSet | Card | Iterable[Card | str]) -> bool:
        """Whether this set and ``other`` have no card in common.

        >>> CardSet.parse("JH 9H").isdisjoint(["AS", "6C"]), CardSet.parse("JH").isdisjoint(["JH"])
        (True, False)
        """
        return not _bits(self) & _bits_of(other)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards())

    def __len__(self) -> int:
        return self.bit_count()

    def __contains__(self, card: object) -> bool:
        if isinstance(card, Card):
            return bool(_bits(self) & 1 << card)
        if isinstance(card, str):
            card = Card.parse(card)
        if isinstance(card, int) and not isinstance(card, (bool, CardSet)) and 0 <= card < 36:
            return bool(_bits(self) & 1 << card)
        return False

    def __eq__(self, other: object) -> bool:
        # A card set equals its plain int bitmask, but never a Card.
        return False if isinstance(other, Card) else int.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return True if isinstance(other, Card) else int.__ne__(self, other)

    __hash__ = int.__hash__

    # Subset tests, as for frozenset. Against any other int they raise: returning NotImplemented
    # would let int's numeric comparison answer instead.

    def __le__(self, other: object) -> bool:
        if not isinstance(other, CardSet):
            return _not_comparable(other)
        return not _bits(self) & ~_bits(other)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, CardSet):
            return _not_comparable(other)
        return not _bits(self) & ~_bits(other) and _bits(self) != _bits(other)

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, CardSet):
            return _not_comparable(other)
        return not _bits(other) & ~_bits(self)

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, CardSet):
            return _not_comparable(other)
        return not _bits(other) & ~_bits(self) and _bits(self) != _bits(other)

    # Set operators; the plain int methods do the work, so they stay cheap.

    def __or__(self, other: object) -> CardSet:
        if other.__class__ is CardSet:
            return _new(CardSet, _bits(self) | _bits(other))
        return _new(CardSet, _bits(self) | _operand(other, strict=True))

    def __and__(self, other: object) -> CardSet:
        cls = other.__class__
        if cls is CardSet or cls is int:  # any int mask may intersect, e.g. hand & ~trumps
            return _new(CardSet, _bits(self) & _bits(other))  # type: ignore[arg-type]
        return _new(CardSet, _bits(self) & _operand(other, strict=False))

    def __xor__(self, other: object) -> CardSet:
        if other.__class__ is CardSet:
            return _new(CardSet, _bits(self) ^ _bits(other))
        return _new(CardSet, _bits(self) ^ _operand(other, strict=True))

    def __sub__(self, other: object) -> CardSet:
        if other.__class__ is CardSet:
            return _new(CardSet, _bits(self) & ~_bits(other))
        return _new(CardSet, _bits(self) & ~_operand(other, strict=True))

    __ror__ = __or__
    __rand__ = __and__
    __rxor__ = __xor__

    def __rsub__(self, other: object) -> CardSet:
        return _new(CardSet, _operand(other, strict=True) & ~_bits(self))

    def __invert__(self) -> CardSet:
        return _new(CardSet, _bits(self) ^ _FULL)

    # A card set is not a number: arithmetic raises, in both directions (sum() calls 0 + set).

    def __add__(self, other: object) -> NoReturn:
        raise _not_a_number("+")

    def __mul__(self, other: object) -> NoReturn:
        raise _not_a_number("*")

    def __truediv__(self, other: object) -> NoReturn:
        raise _not_a_number("/")

    def __floordiv__(self, other: object) -> NoReturn:
        raise _not_a_number("//")

    def __mod__(self, other: object) -> NoReturn:
        raise _not_a_number("%")

    def __divmod__(self, other: object) -> NoReturn:
        raise _not_a_number("divmod()")

    def __pow__(self, other: object, modulo: object = None) -> NoReturn:
        raise _not_a_number("**")

    def __lshift__(self, other: object) -> NoReturn:
        raise _not_a_number("<<")

    def __rshift__(self, other: object) -> NoReturn:
        raise _not_a_number(">>")

    __radd__ = __add__
    __rmul__ = __mul__
    __rtruediv__ = __truediv__
    __rfloordiv__ = __floordiv__
    __rmod__ = __mod__
    __rdivmod__ = __divmod__
    __rpow__ = __pow__
    __rlshift__ = __lshift__
    __rrshift__ = __rshift__

    def __neg__(self) -> NoReturn:
        raise _not_a_number("unary -")

    def __pos__(self) -> NoReturn:
        raise _not_a_number("unary +")

    def __abs__(self) -> NoReturn:
        raise _not_a_number("abs()")

    def __str__(self) -> str:
        return " ".join(_CARD_NAMES[c] for c in self)

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def _repr_svg_(self) -> str:
        """The cards as a picture, rows of nine, which notebooks show (see :func:`jass.svg.cards`).

        >>> CardSet.parse("JH 9H AS")._repr_svg_().count('class="card"')
        3
        """
        from jass import svg  # noqa: PLC0415 (svg sits above cards in the import order)

        return svg.cards(self)


_new: Final = int.__new__

_HINTS: Final = {
    "+": "use | for a union (and CardSet().union(*sets) for sum(sets))",
    "unary -": "use ~ for the complement",
    "<<": "use `card in cards` to test a card, or int(cards) for the bitmask",
    ">>": "use `card in cards` to test a card, or int(cards) for the bitmask",
}


def _not_a_number(operation: str) -> TypeError:
    """The error for arithmetic on a card set."""
    hint = _HINTS.get(operation, "a card set is not a number; int(cards) is its bitmask")
    return TypeError(f"CardSet does not support {operation}: {hint}")


def _not_comparable(other: object) -> NoReturn:
    """Refuse to order a card set against anything but a card set.

    Raised here, even for types that cannot compare with an int: returning NotImplemented
    would let an int's or a float's numeric comparison answer instead.
    """
    if isinstance(other, Card):
        what = f"the card {other}: use `card in cards` to test a card"
    elif isinstance(other, int) and not isinstance(other, bool):
        shown = describe(other, typed=False)
        what = f"the int {shown}: use CardSet({shown}) for a bitmask, or int(cards) for numbers"
    else:
        what = describe(other)
    raise TypeError(f"card set comparisons are subset tests between card sets, not with {what}")


def _operand(other: object, *, strict: bool) -> int:
    """The bitmask of a set operand: a card set, a card, or an int bitmask.

    Any int mask may intersect a set (``&``, e.g. ``hand & ~trumps``); other operators need a
    36-bit mask (``strict``).
    """
    if other.__class__ is int:
        if strict and not 0 <= other <= _FULL:
            raise InvalidInputError(
                f"{describe(other, typed=False)} is not a set of cards (a bitmask of 36 bits)"
            )
        return other
    if isinstance(other, Card):
        return 1 << other
    if not is_int(other):
        # Raised here: returning NotImplemented would let int or float arithmetic take over.
        raise InvalidInputError(f"{describe(other, typed=False)} is not a card or a set of cards")
    if strict and not 0 <= other <= _FULL:
        raise InvalidInputError(
            f"{describe(other, typed=False)} is not a set of cards (a bitmask of 36 bits)"
        )
    return _bits(other)


def _bits_of(other: object) -> int:
    """The bitmask of the argument of a named set method (anything ``CardSet()`` takes)."""
    if isinstance(other, CardSet):
        return _bits(other)
    return int(CardSet(other))  # type: ignore[arg-type]


_SEPARATORS: Final = re.compile(r"[\s,;]+")


def _next_card(tokens: list[str], index: int, pairing: SuitPairing, text: str) -> tuple[Card, int]:
    """The card at ``tokens[index]`` (one token, or a name of two or three) and how many it used."""
    try:
        return Card.parse(tokens[index], pairing), 1
    except InvalidInputError as exc:
        error = exc
    for used in (2, 3):
        if index + used <= len(tokens):
            card = _card_from_words(" ".join(tokens[index : index + used]).casefold(), pairing)
            if card is not None:
                return card, used
    raise InvalidInputError(f"{error} (in {describe(text, typed=False)})") from None


#: The full deck.
ALL_CARDS: Final = int.__new__(CardSet, _FULL)
