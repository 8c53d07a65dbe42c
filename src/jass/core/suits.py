"""Suits and ranks, with their French, German and Swiss names.

Re-exported by :mod:`jass.core.cards`.

The engine works in French suits (``S H D C``); the Swiss-German names are a display layer
whose suit pairing is disputed (rule book R1.4), hence :class:`SuitPairing`.

>>> Suit.parse("Rosen"), Rank.parse("Ober"), str(Rank.TEN)
(<Suit.HEARTS: 1>, <Rank.QUEEN: 6>, '10')
"""

from __future__ import annotations

import enum
import re
from typing import Final

from jass.errors import InvalidInputError, describe

__all__ = ["Rank", "Suit", "SuitPairing"]


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
    def parse(cls, text: str, pairing: SuitPairing | str | None = None) -> Suit:
        """Parse a suit from its letter, symbol, English, German or Swiss name.

        Swiss names (also the singular and dialect forms ``Rose``, ``Eichel``, ``Schelle``,
        ``Schälle``, ``Schilte``) are read under ``pairing``, by default ``SWISSLOS``.

        >>> Suit.parse("S"), Suit.parse("♣"), Suit.parse("Rosen")
        (<Suit.SPADES: 0>, <Suit.CLUBS: 3>, <Suit.HEARTS: 1>)
        >>> Suit.parse("Eichel"), Suit.parse("Eichel", "WIKIPEDIA")
        (<Suit.DIAMONDS: 2>, <Suit.CLUBS: 3>)
        """
        chosen = SuitPairing.parse(pairing)
        suit = suit_word(text.strip().casefold(), chosen) if isinstance(text, str) else None
        if suit is None:
            raise InvalidInputError(f"cannot parse suit {describe(text, typed=False)}")
        return suit

    def __str__(self) -> str:
        return self.letter


class SuitPairing(enum.Enum):
    """Which Swiss suit stands for which French suit (rule book R1.4, option ``suit_pairing``).

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
        raise InvalidInputError(
            f"unknown suit pairing {describe(pairing, typed=False)}; pairings: {names}"
        )


class Rank(enum.IntEnum):
    """The nine ranks in natural order, 6 lowest and Ace highest.

    The natural order is the sequence order of Weis; the trick-taking order depends on the
    contract (see :mod:`jass.core.contracts`).

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
            raise InvalidInputError(f"cannot parse rank {describe(text, typed=False)}")
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
# German names of the French-suited ranks (Bube, Dame) and the English words.
_RANK_WORDS.update({"bube": Rank.JACK, "bauer": Rank.JACK, "dame": Rank.QUEEN})
_RANK_WORDS.update({"jack": Rank.JACK, "queen": Rank.QUEEN, "king": Rank.KING, "ace": Rank.ACE})

# The Swiss suits' spellings (casefolded): the plural of SuitPairing, the singular, dialect.
_SWISS_FORMS: Final = {
    "Rosen": ("rosen", "rose"),
    "Eicheln": ("eicheln", "eichel", "eichle"),
    "Schellen": ("schellen", "schelle", "schälle", "schaelle"),
    "Schilten": ("schilten", "schilte", "schilt"),
}
# Suit words that mean the same under every pairing: letters, symbols, English and German.
_FRENCH_WORDS: Final = {
    word: suit
    for word, suit in _SUIT_WORDS.items()
    if not any(word in forms for forms in _SWISS_FORMS.values())
}
_SWISS_WORDS: Final = {
    pairing: {
        form: Suit(pairing.swiss_names.index(name))
        for name, forms in _SWISS_FORMS.items()
        for form in forms
    }
    for pairing in SuitPairing
}


def suit_word(word: str, pairing: SuitPairing) -> Suit | None:
    """The suit a casefolded word names under ``pairing``, or ``None`` (internal).

    >>> suit_word("schelle", SuitPairing.SWISSLOS), suit_word("x", SuitPairing.SWISSLOS)
    (<Suit.CLUBS: 3>, None)
    """
    suit = _SWISS_WORDS[pairing].get(word)
    return _FRENCH_WORDS.get(word) if suit is None else suit


def is_suit_name(word: str) -> bool:
    """Whether a casefolded word is a suit's name, not its letter or symbol (internal).

    >>> is_suit_name("herz"), is_suit_name("h"), is_suit_name("schilte")
    (True, False, True)
    """
    return len(word) > 1 and (word in _FRENCH_WORDS or word in _SWISS_WORDS[SuitPairing.SWISSLOS])


_WORD_SPLIT: Final = re.compile(r"[\s_-]+")


def suit_and_rank(token: str, pairing: SuitPairing) -> tuple[Suit, Rank] | None:
    """The suit and rank a casefolded name of two words gives, in either order (internal).

    The suit must be a name, not a letter or a symbol, so that ``J H`` stays an error.

    >>> swisslos = SuitPairing.SWISSLOS
    >>> suit_and_rank("rosen under", swisslos), suit_and_rank("j h", swisslos)
    ((<Suit.HEARTS: 1>, <Rank.JACK: 5>), None)
    """
    words = _WORD_SPLIT.split(token)
    if len(words) == 3 and words[1] == "of":  # jack of hearts
        words = [words[0], words[2]]
    if len(words) != 2:
        return None
    for suit_text, rank_text in (words, words[::-1]):
        suit = suit_word(suit_text, pairing) if is_suit_name(suit_text) else None
        rank = _RANK_WORDS.get(rank_text)
        if suit is not None and rank is not None:
            return suit, rank
    return None
