"""Suits, ranks, cards and card sets.

A :class:`Card` is a small int, ``9 * suit + rank``, and a :class:`CardSet` is an int bitmask
with bit ``card`` set for each card it holds, in the spirit of python-chess. Both are ``int``
subclasses, so bot code may use plain integer arithmetic on them in hot loops.

The engine works in French suits (``S H D C``); the Swiss-German names are a display layer
whose suit pairing is disputed (RULES.md R1.4), hence :class:`SuitPairing`.

>>> Card.parse("JH"), str(Card.parse("10d")), Card.parse("♥J") == Card.parse("JH")
(Card.parse('JH'), '10D', True)
>>> CardSet.parse("JH 9H AS")
CardSet.parse('AS 9H JH')
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Iterator
from typing import Final, SupportsIndex

from typing_extensions import Self

from jass.errors import InvalidInputError

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


class Suit(enum.IntEnum):
    """The four French suits, in the order of their letters ``S H D C``.

    >>> Suit.HEARTS.letter, Suit.HEARTS.symbol, Suit.parse("herz")
    ('H', '♥', <Suit.HEARTS: 1>)
    """

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        """The one-letter French name: ``S``, ``H``, ``D`` or ``C``.

        >>> Suit.CLUBS.letter
        'C'
        """
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol.

        >>> Suit.DIAMONDS.symbol
        '♦'
        """
        return "♠♥♦♣"[self]

    @property
    def german_name(self) -> str:
        """The French suit's name as used in Switzerland (Schaufel, Herz, Ecken, Kreuz).

        >>> Suit.DIAMONDS.german_name
        'Ecken'
        """
        return ("Schaufel", "Herz", "Ecken", "Kreuz")[self]

    def swiss_name(self, pairing: SuitPairing | str | None = None) -> str:
        """The Swiss-German suit that corresponds to this suit under ``pairing``.

        >>> Suit.CLUBS.swiss_name(), Suit.CLUBS.swiss_name(SuitPairing.WIKIPEDIA)
        ('Schellen', 'Eicheln')
        """
        return SuitPairing.parse(pairing).swiss_names[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse a suit from its letter, symbol, English, German or Swiss name.

        Swiss names are read under the ``SWISSLOS`` pairing.

        >>> Suit.parse("S"), Suit.parse("♣"), Suit.parse("Rosen")
        (<Suit.SPADES: 0>, <Suit.CLUBS: 3>, <Suit.HEARTS: 1>)
        """
        suit = _SUIT_WORDS.get(text.strip().casefold()) if isinstance(text, str) else None
        if suit is None:
            raise InvalidInputError(f"cannot parse suit {text!r}")
        return suit

    def __str__(self) -> str:
        return self.letter


class SuitPairing(enum.Enum):
    """Which Swiss suit stands for which French suit (RULES.md R1.4, option ``suit_pairing``).

    The value lists the Swiss suit for ♠, ♥, ♦, ♣.

    >>> SuitPairing.SWISSLOS.swiss_names
    ('Schilten', 'Rosen', 'Eicheln', 'Schellen')
    """

    SWISSLOS = ("Schilten", "Rosen", "Eicheln", "Schellen")
    WIKIPEDIA = ("Schilten", "Rosen", "Schellen", "Eicheln")
    PARLETT = ("Rosen", "Schilten", "Schellen", "Eicheln")

    @property
    def swiss_names(self) -> tuple[str, str, str, str]:
        """The Swiss suit names for ♠, ♥, ♦, ♣ under this pairing.

        >>> SuitPairing.PARLETT.swiss_names[Suit.HEARTS]
        'Schilten'
        """
        names: tuple[str, str, str, str] = self.value
        return names

    @classmethod
    def parse(cls, pairing: SuitPairing | str | None) -> SuitPairing:
        """A pairing from its name (any case); ``None`` is the default, ``SWISSLOS``.

        >>> SuitPairing.parse("parlett"), SuitPairing.parse(None)
        (<SuitPairing.PARLETT: ...>, <SuitPairing.SWISSLOS: ...>)
        """
        if pairing is None:
            return cls.SWISSLOS
        if isinstance(pairing, cls):
            return pairing
        if isinstance(pairing, str) and pairing.strip().upper() in cls.__members__:
            return cls[pairing.strip().upper()]
        names = ", ".join(cls.__members__)
        raise InvalidInputError(f"unknown suit pairing {pairing!r}; pairings: {names}")


class Rank(enum.IntEnum):
    """The nine ranks in natural order, 6 lowest and Ace highest.

    The natural order is the sequence order of Weis; the trick-taking order depends on the
    contract (see :mod:`jass.contracts`).

    >>> Rank.parse("10") is Rank.parse("T") is Rank.TEN, Rank.JACK.swiss_name
    (True, 'Under')
    """

    SIX = 0
    SEVEN = 1
    EIGHT = 2
    NINE = 3
    TEN = 4
    JACK = 5
    QUEEN = 6
    KING = 7
    ACE = 8

    @property
    def label(self) -> str:
        """The French short name: ``6`` … ``10``, ``J``, ``Q``, ``K``, ``A``.

        >>> Rank.QUEEN.label
        'Q'
        """
        return _RANK_LABELS[self]

    @property
    def swiss_name(self) -> str:
        """The Swiss-German name: 6 … 9, Banner, Under, Ober, König, Ass.

        >>> Rank.TEN.swiss_name, Rank.QUEEN.swiss_name
        ('Banner', 'Ober')
        """
        return ("6", "7", "8", "9", "Banner", "Under", "Ober", "König", "Ass")[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse a rank: ``6``-``10``, ``T``, ``J``, ``Q``, ``K``, ``A`` (any case).

        >>> Rank.parse("k")
        <Rank.KING: 7>
        """
        rank = _RANK_WORDS.get(text.strip().casefold()) if isinstance(text, str) else None
        if rank is None:
            raise InvalidInputError(f"cannot parse rank {text!r}")
        return rank

    def __str__(self) -> str:
        return self.label


_RANK_LABELS: Final = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
_RANK_WORDS: Final[dict[str, Rank]] = {
    label.casefold(): Rank(i) for i, label in enumerate(_RANK_LABELS)
}
_RANK_WORDS.update({"t": Rank.TEN, "banner": Rank.TEN, "under": Rank.JACK, "ober": Rank.QUEEN})
_RANK_WORDS.update({"ass": Rank.ACE, "as": Rank.ACE, "könig": Rank.KING, "koenig": Rank.KING})
_SUIT_WORDS: Final[dict[str, Suit]] = {}
for _suit in Suit:
    for _word in (_suit.letter, _suit.symbol, _suit.name, _suit.german_name):
        _SUIT_WORDS[_word.casefold()] = _suit
    _SUIT_WORDS[_suit.name.casefold().rstrip("s")] = _suit
    _swiss = SuitPairing.SWISSLOS.swiss_names[_suit].casefold()
    _SUIT_WORDS[_swiss] = _SUIT_WORDS[_swiss.removesuffix("n")] = _suit  # Rosen and Rose
_SUIT_WORDS.update({"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS})
_SUIT_WORDS.update({"pik": Suit.SPADES, "karo": Suit.DIAMONDS})

# Rank token then suit token, or suit symbol then rank ("♥J").
_CARD_RE: Final = re.compile(r"^(10|[0-9]|[a-z])([shdc♠♥♦♣♤♡♢♧])$|^([♠♥♦♣♤♡♢♧])(10|[0-9]|[a-z])$")


class Card(int):
    """One of the 36 cards, stored as the int ``9 * suit + rank``.

    Use :meth:`parse`, :meth:`of` or the table :data:`CARDS`; ``Card(n)`` takes an index 0-35.

    >>> c = Card.of(Suit.HEARTS, Rank.JACK)
    >>> c, int(c), c.suit, c.rank, str(c)
    (Card.parse('JH'), 14, <Suit.HEARTS: 1>, <Rank.JACK: 5>, 'JH')
    """

    __slots__ = ()

    def __new__(cls, index: SupportsIndex) -> Self:
        """Return the card with index ``index`` (0-35)."""
        if isinstance(index, str):
            raise InvalidInputError(f"Card() takes an index 0-35; use Card.parse({index!r})")
        if isinstance(index, bool) or not isinstance(index, int):
            raise InvalidInputError(f"card index must be an int 0-35, got {index!r}")
        if not 0 <= index < 36:
            raise InvalidInputError(f"card index {index!r} is outside 0-35")
        return int.__new__(cls, index)

    def __eq__(self, other: object) -> bool:
        # A card is never equal to a card set, though both are ints.
        return False if isinstance(other, CardSet) else int.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return True if isinstance(other, CardSet) else int.__ne__(self, other)

    __hash__ = int.__hash__

    @classmethod
    def of(cls, suit: Suit, rank: Rank) -> Card:
        """The card of ``suit`` and ``rank``.

        >>> Card.of(Suit.SPADES, Rank.ACE)
        Card.parse('AS')
        """
        if not isinstance(suit, Suit) or not isinstance(rank, Rank):
            raise InvalidInputError(f"Card.of takes a Suit and a Rank, got {suit!r}, {rank!r}")
        return CARDS[9 * suit + rank]

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Parse French notation (``JH``, ``10D``, ``TD``) or Unicode (``♥J``, ``J♥``).

        Case is ignored. A :class:`Card` is returned as it is.

        >>> Card.parse("td"), Card.parse("♦10"), Card.parse(" qs ")
        (Card.parse('10D'), Card.parse('10D'), Card.parse('QS'))
        """
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise InvalidInputError(f"cannot parse card {text!r}: expected a string like 'JH'")
        token = text.strip().casefold()
        match = _CARD_RE.match(token)
        if match is None:
            raise InvalidInputError(
                f"cannot parse card {text!r}: expected rank then suit letter, like 'JH' or '10D'"
            )
        rank_text, suit_text = (
            (match[1], match[2]) if match[1] is not None else (match[4], match[3])
        )
        rank = _RANK_WORDS.get(rank_text)
        if rank is None:
            raise InvalidInputError(f"cannot parse card {text!r}: unknown rank {rank_text!r}")
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


_SUITS: Final = tuple(Suit)
_RANKS: Final = tuple(Rank)
_CARD_NAMES: Final = tuple(_RANK_LABELS[i % 9] + "SHDC"[i // 9] for i in range(36))

#: The 36 cards by index: ``CARDS[9 * suit + rank]``.
CARDS: Final[tuple[Card, ...]] = tuple(int.__new__(Card, i) for i in range(36))


def _third_table(third: int) -> tuple[tuple[Card, ...], ...]:
    """The cards of each 12-bit pattern of one third of a card set, in order."""
    table: list[tuple[Card, ...]] = [()]
    for pattern in range(1, 4096):
        top = pattern.bit_length() - 1  # the pattern without its top bit is already built
        table.append((*table[pattern ^ (1 << top)], CARDS[12 * third + top]))
    return tuple(table)


_LOW, _MIDDLE, _HIGH = _third_table(0), _third_table(1), _third_table(2)
#: Bitmask of each suit's nine cards, indexed by :class:`Suit`.
SUIT_MASKS: Final[tuple[int, int, int, int]] = (0x1FF, 0x1FF << 9, 0x1FF << 18, 0x1FF << 27)
_FULL: Final = (1 << 36) - 1


class CardSet(int):
    """An immutable set of cards, stored as an int bitmask (bit ``i`` is card ``i``).

    It iterates in canonical order (by suit ``S H D C``, then by natural rank), and supports
    ``len``, ``in``, ``|``, ``&``, ``-`` (difference), ``^``, ``==`` and ``hash``. Since it is an
    ``int``, it equals the plain bitmask with the same bits.

    >>> hand = CardSet.parse("JH 9H AS")
    >>> len(hand), Card.parse("9H") in hand, list(hand)
    (3, True, [Card.parse('AS'), Card.parse('9H'), Card.parse('JH')])
    >>> str(hand - CardSet.parse("AS")), hand & CardSet.parse("AS 6C") == CardSet.parse("AS")
    ('9H JH', True)
    >>> CardSet([Card.parse("6C")]) | CardSet.parse("7C")
    CardSet.parse('6C 7C')
    """

    __slots__ = ()

    def __new__(cls, cards: SupportsIndex | Iterable[Card | str] = 0) -> Self:
        """Build a set from a bitmask, one card, or cards (or card names)."""
        if isinstance(cards, Card):
            return int.__new__(cls, 1 << cards)
        if isinstance(cards, CardSet):
            return int.__new__(cls, cards)
        if isinstance(cards, str):
            raise InvalidInputError(f"use CardSet.parse({cards!r}) to read card names")
        if isinstance(cards, Iterable) and not isinstance(cards, bytes):
            bits = 0
            for card in cards:
                bit = 1 << as_card(card)
                if bits & bit:
                    raise InvalidInputError(f"card {CARDS[bit.bit_length() - 1]} appears twice")
                bits |= bit
            return int.__new__(cls, bits)
        if isinstance(cards, bool) or not isinstance(cards, int):
            raise InvalidInputError(f"a card set is built from cards or a bitmask, got {cards!r}")
        if not 0 <= cards <= _FULL:
            raise InvalidInputError(f"card set bitmask {cards!r} is outside 0 to 2**36 - 1")
        return int.__new__(cls, cards)

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Parse card names separated by spaces or commas; a repeated card is an error.

        >>> CardSet.parse("10D, td")
        Traceback (most recent call last):
        ...
        jass.errors.InvalidInputError: card 10D appears twice in '10D, td'
        """
        if not isinstance(text, str):
            raise InvalidInputError(f"CardSet.parse reads a string like 'JH 9H', got {text!r}")
        bits = 0
        for token in re.split(r"[\s,;]+", text.strip()):
            if not token:
                continue
            card = Card.parse(token)
            bit = 1 << card
            if bits & bit:
                raise InvalidInputError(f"card {card} appears twice in {text!r}")
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
            raise InvalidInputError(f"{suit!r} is not a Suit")
        return int.__new__(CardSet, self & SUIT_MASKS[suit])

    def cards(self) -> tuple[Card, ...]:
        """The cards as a tuple, in canonical order (fast: three table lookups).

        >>> CardSet.parse("AS 6H").cards()
        (Card.parse('AS'), Card.parse('6H'))
        """
        # int & CardSet runs int.__and__: no CardSet is made on the way.
        return _LOW[0xFFF & self] + _MIDDLE[(self >> 12) & 0xFFF] + _HIGH[self >> 24]

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards())

    def __len__(self) -> int:
        return int(self).bit_count()

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            card = Card.parse(card)
        if isinstance(card, int) and not isinstance(card, (bool, CardSet)) and 0 <= card < 36:
            return bool(self >> card & 1)
        return False

    def __bool__(self) -> bool:
        return int(self) != 0

    def __eq__(self, other: object) -> bool:
        # A card set equals its plain int bitmask, but never a Card.
        return False if isinstance(other, Card) else int.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return True if isinstance(other, Card) else int.__ne__(self, other)

    __hash__ = int.__hash__

    def __or__(self, other: object) -> CardSet:
        bits = _operand(other, strict=True)
        return int.__new__(CardSet, int.__or__(self, bits))

    def __and__(self, other: object) -> CardSet:
        bits = _operand(other, strict=False)
        return int.__new__(CardSet, int.__and__(self, bits))

    def __xor__(self, other: object) -> CardSet:
        bits = _operand(other, strict=True)
        return int.__new__(CardSet, int.__xor__(self, bits))

    def __sub__(self, other: object) -> CardSet:
        bits = _operand(other, strict=True)
        return int.__new__(CardSet, int(self) & ~bits)

    def __invert__(self) -> CardSet:
        return int.__new__(CardSet, _FULL ^ int(self))

    def __str__(self) -> str:
        return " ".join(_CARD_NAMES[c] for c in self)

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _operand(other: object, *, strict: bool) -> int:
    """The bitmask of a set operand: a card set, a card, or an int bitmask.

    Any int mask may intersect a set (``&``, e.g. ``hand & ~trumps``); other operators need a
    36-bit mask (``strict``).
    """
    if isinstance(other, Card):
        return 1 << other
    if isinstance(other, bool) or not isinstance(other, int):
        # Raised here: returning NotImplemented would let int or float arithmetic take over.
        raise InvalidInputError(f"{other!r} is not a card or a set of cards")
    if strict and not 0 <= other <= _FULL:
        raise InvalidInputError(f"{other!r} is not a set of cards (a bitmask of 36 bits)")
    return other


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
    raise InvalidInputError(f"{value!r} is not a card")


#: The full deck.
ALL_CARDS: Final = int.__new__(CardSet, _FULL)
