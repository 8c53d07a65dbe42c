"""Contracts (what is "trumps" this hand), with their rank orders and point tables.

There are six standard contracts: the four trump suits, ``OBENABE`` (top down, no trumps) and
``UNDENUFE`` (bottom up, no trumps). ``MISERE`` is a seventh, for rule sets that allow it
(rule book §10): it is played like Obenabe, and each team scores the tricks its opponents took.
Every table a contract needs is computed once at import (rule book §2), so the rule functions
only index tuples.

>>> Contract.trump(Suit.HEARTS), Contract.parse("obenabe"), Contract.parse("TRUMP_CLUBS")
(Contract.trump(Suit.HEARTS), Contract.OBENABE, Contract.trump(Suit.CLUBS))
>>> [str(r) for r in Contract.trump(Suit.HEARTS).rank_order(Suit.HEARTS)]
['J', '9', 'A', 'K', 'Q', '10', '8', '7', '6']
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import ClassVar, Final, final

from jass._budgets import is_int
from jass.core.cards import CARDS, SUIT_MASKS, Card, CardSet, Rank, Suit, SuitPairing, as_card
from jass.errors import InvalidInputError, describe

__all__ = ["Contract", "ContractKind"]


class ContractKind(enum.Enum):
    """The kinds of contract. Rule functions dispatch on a contract's tables, scoring on its kind.

    >>> Contract.UNDENUFE.kind
    <ContractKind.UNDENUFE: 'undenufe'>
    """

    TRUMP = "trump"
    OBENABE = "obenabe"
    UNDENUFE = "undenufe"
    MISERE = "misère"  # Obenabe card play; each team is credited its opponents' tricks


_NATURAL_DOWN: Final[tuple[Rank, ...]] = tuple(reversed(Rank))  # A K Q J 10 9 8 7 6
_NATURAL_UP: Final[tuple[Rank, ...]] = tuple(Rank)  # 6 7 8 9 10 J Q K A
_TRUMP_ORDER: Final[tuple[Rank, ...]] = tuple(Rank[name] for name in (
    "JACK", "NINE", "ACE", "KING", "QUEEN", "TEN", "EIGHT", "SEVEN", "SIX"
))  # fmt: skip
# Card points by rank 6..A (rule book R2.2).
_PLAIN_POINTS: Final = (0, 0, 0, 0, 10, 2, 3, 4, 11)
_TRUMP_POINTS: Final = (0, 0, 0, 14, 10, 20, 3, 4, 11)
_OBENABE_POINTS: Final = (0, 0, 8, 0, 10, 2, 3, 4, 11)
_UNDENUFE_POINTS: Final = (11, 0, 8, 0, 10, 2, 3, 4, 0)
_OLD_UNDENUFE_POINTS: Final = (0, 0, 8, 0, 10, 2, 3, 4, 11)


@final
class Contract:
    """A contract: one of the four trump suits, ``OBENABE``, ``UNDENUFE`` or ``MISERE``.

    Contracts are singletons, compared by identity; get them with :meth:`trump`,
    :attr:`OBENABE`, :attr:`UNDENUFE`, :attr:`MISERE`, :meth:`parse` or :meth:`all`. ``index``
    is a stable number (0-3 the trump suits in :class:`Suit` order, 4 Obenabe, 5 Undenufe,
    6 Misère).

    >>> c = Contract.trump(Suit.SPADES)
    >>> c.kind.name, c.trump_suit, c.index, c.name, c.is_trump
    ('TRUMP', <Suit.SPADES: 0>, 0, 'TRUMP_SPADES', True)
    """

    __slots__ = (
        "_old_points",
        "_place",
        "_points",
        "_ranking",
        "_strength",
        "above",
        "buur",
        "index",
        "kind",
        "name",
        "orders",
        "trump_mask",
        "trump_suit",
        "win_keys",
    )

    OBENABE: ClassVar[Contract]
    UNDENUFE: ClassVar[Contract]
    MISERE: ClassVar[Contract]
    _ALL: ClassVar[tuple[Contract, ...]]
    _sealed: ClassVar[bool] = False  # True once the seven contracts are built

    kind: ContractKind
    trump_suit: Suit | None
    index: int
    name: str
    #: Trick-taking rank order of each suit, highest first.
    orders: tuple[tuple[Rank, ...], ...]
    #: Bitmask of the trump suit (0 without trumps).
    trump_mask: int
    #: Bitmask of the trump Jack (the Buur), 0 without trumps.
    buur: int
    #: For each card: the trumps that beat it, or all cards for a non-trump (undertrump test).
    above: tuple[int, ...]
    #: For each led suit: for each card, its strength in a trick led in that suit (-1: cannot win).
    win_keys: tuple[tuple[int, ...], ...]

    def __init__(self, kind: ContractKind, trump_suit: Suit | None, index: int) -> None:
        """Build a contract's tables; used once per contract at import."""
        self.kind = kind
        self.trump_suit = trump_suit
        self.index = index
        self.name = f"TRUMP_{trump_suit.name}" if trump_suit is not None else kind.name
        orders: list[tuple[Rank, ...]] = []
        for suit in Suit:
            if suit is trump_suit:
                orders.append(_TRUMP_ORDER)
            elif kind is ContractKind.UNDENUFE:
                orders.append(_NATURAL_UP)
            else:
                orders.append(_NATURAL_DOWN)
        self.orders = tuple(orders)
        # power: 8 for the strongest card of its suit down to 0.
        power = [8 - self.orders[c // 9].index(Rank(c % 9)) for c in range(36)]
        if trump_suit is None:
            self.trump_mask = 0
            self.buur = 0
            self.above = tuple([(1 << 36) - 1] * 36)
        else:
            self.trump_mask = SUIT_MASKS[trump_suit]
            self.buur = 1 << (9 * trump_suit + Rank.JACK)
            trumps = range(9 * trump_suit, 9 * trump_suit + 9)
            self.above = tuple(
                sum(1 << t for t in trumps if power[t] > power[c]) if c in trumps else (1 << 36) - 1
                for c in range(36)
            )
        self.win_keys = tuple(
            tuple(
                power[c] + 10 if c // 9 == trump_suit else (power[c] if c // 9 == led else -1)
                for c in range(36)
            )
            for led in Suit
        )
        # Strength: each card's key in a trick led in its own suit. The ranking lists the deck
        # strongest first, equal cards (same place in two plain suits) in suit order.
        self._strength = tuple(self.win_keys[c // 9][c] for c in range(36))
        self._ranking = tuple(sorted(CARDS, key=lambda c: -self._strength[c]))
        place = [0] * 36
        for position, card in enumerate(self._ranking):
            place[card] = position
        self._place = tuple(place)
        if kind is ContractKind.UNDENUFE:
            points, old = _UNDENUFE_POINTS, _OLD_UNDENUFE_POINTS
        elif kind in (ContractKind.OBENABE, ContractKind.MISERE):
            points = old = _OBENABE_POINTS
        else:
            points = old = _PLAIN_POINTS
        self._points = tuple(
            (_TRUMP_POINTS if c // 9 == trump_suit else points)[c % 9] for c in range(36)
        )
        self._old_points = tuple(
            (_TRUMP_POINTS if c // 9 == trump_suit else old)[c % 9] for c in range(36)
        )

    @classmethod
    def trump(cls, suit: Suit) -> Contract:
        """The trump contract of ``suit``.

        >>> Contract.trump(Suit.DIAMONDS).trump_suit
        <Suit.DIAMONDS: 2>
        """
        if not isinstance(suit, Suit):
            raise InvalidInputError(f"{describe(suit, typed=False)} is not a Suit")
        return cls._ALL[suit]

    @classmethod
    def all(cls) -> tuple[Contract, ...]:
        """Every contract, Misère included, in ``index`` order.

        >>> [c.name for c in Contract.all()][3:]
        ['TRUMP_CLUBS', 'OBENABE', 'UNDENUFE', 'MISERE']
        """
        return cls._ALL

    @classmethod
    def standard(cls) -> tuple[Contract, ...]:
        """The six standard contracts of rule book §2 (no Misère), in ``index`` order.

        >>> len(Contract.standard()), Contract.MISERE in Contract.standard()
        (6, False)
        """
        return cls._ALL[:6]

    @classmethod
    def from_index(cls, index: int) -> Contract:
        """The contract with the stable number ``index``.

        >>> Contract.from_index(4)
        Contract.OBENABE
        """
        if not is_int(index) or not 0 <= index < len(cls._ALL):
            raise InvalidInputError(
                f"contract index {describe(index, typed=False)} is outside 0-{len(cls._ALL) - 1}"
            )
        return cls._ALL[index]

    @classmethod
    def parse(cls, text: str | Contract, pairing: SuitPairing | str | None = None) -> Contract:
        """Parse a contract as the engine writes it or a player types it, any case.

        Accepted: a suit, with or without ``trump`` / ``Trumpf`` in front (``TRUMP_HEARTS``,
        ``hearts``, ``H``, ``♥``, ``Trumpf Herz``, ``Trumpf Kreuz``, ``Rosen``, ``Rose``);
        ``OBENABE`` (also ``Obeabe``, ``obe``, ``oben``, ``top-down``); ``UNDENUFE`` (also
        ``Uneufe``, ``unde``, ``unten``, ``bottom-up``); and ``MISERE`` (also ``Misère``).
        Spaces, ``-`` and ``_`` are ignored. Swiss suit names (Rosen, Schellen, Eicheln,
        Schilten) are read under ``pairing``, by default ``SWISSLOS``; :meth:`Game.choose()
        <jass.Game.choose>` passes its rule set's. These are the names ``jass play`` reads.

        >>> Contract.parse("Trump_Spades"), Contract.parse("♦"), Contract.parse("undenufe")
        (Contract.trump(Suit.SPADES), Contract.trump(Suit.DIAMONDS), Contract.UNDENUFE)
        >>> Contract.parse("trumpf herz"), Contract.parse("Trumpf Kreuz"), Contract.parse("rosen")
        (Contract.trump(Suit.HEARTS), Contract.trump(Suit.CLUBS), Contract.trump(Suit.HEARTS))
        >>> Contract.parse("Trumpf Eichel"), Contract.parse("Trumpf Eichel", "WIKIPEDIA")
        (Contract.trump(Suit.DIAMONDS), Contract.trump(Suit.CLUBS))
        >>> Contract.parse("Trumpf")
        Traceback (most recent call last):
        ...
        jass.errors.InvalidInputError: cannot parse contract 'Trumpf': expected a suit, ...
        """
        if isinstance(text, Contract):
            return text
        if not isinstance(text, str):
            raise InvalidInputError(
                f"cannot parse contract {describe(text, typed=False)}: expected a string"
            )
        chosen = SuitPairing.parse(pairing)
        word = "".join(text.casefold().split()).replace("-", "").replace("_", "")
        if word in _NAMED:
            return _NAMED[word]
        word = word.removeprefix("trumpf").removeprefix("trump")
        try:
            return cls._ALL[Suit.parse(word, chosen)]
        except InvalidInputError:
            raise InvalidInputError(
                f"cannot parse contract {describe(text, typed=False)}: expected a suit, with or"
                " without Trumpf (TRUMP_HEARTS, Trumpf Herz, Rosen, ♥), Obenabe, Undenufe or"
                " Misère"
            ) from None

    @property
    def is_trump(self) -> bool:
        """Whether the contract has a trump suit.

        >>> Contract.OBENABE.is_trump
        False
        """
        return self.trump_mask != 0

    def rank_order(self, suit: Suit) -> tuple[Rank, ...]:
        """The trick-taking order of ``suit`` under this contract, highest first.

        >>> [str(r) for r in Contract.UNDENUFE.rank_order(Suit.SPADES)][:3]
        ['6', '7', '8']
        """
        return self.orders[suit]

    def card_points(self, *, old_undenufe: bool = False) -> tuple[int, ...]:
        """The point table: the points of each card, indexed by card (rule book R2.2).

        ``old_undenufe`` selects the old Undenufe values (A = 11, 6 = 0); it changes only Undenufe.

        >>> table = Contract.UNDENUFE.card_points()
        >>> table[Card.parse("6S")], table[Card.parse("AS")], sum(table)
        (11, 0, 152)
        >>> Contract.UNDENUFE.card_points(old_undenufe=True)[Card.parse("6S")]
        0
        """
        return self._old_points if old_undenufe else self._points

    def points(self, card: Card, *, old_undenufe: bool = False) -> int:
        """The points of one card under this contract.

        >>> Contract.trump(Suit.HEARTS).points(Card.parse("9H"))
        14
        """
        return (self._old_points if old_undenufe else self._points)[card]

    def beats(self, card: Card, other: Card, led: Suit) -> bool:
        """Whether ``card`` beats ``other`` in a trick led in ``led``.

        >>> Contract.trump(Suit.SPADES).beats(Card.parse("6S"), Card.parse("AH"), Suit.HEARTS)
        True
        """
        keys = self.win_keys[led]
        return keys[card] > keys[other]

    def strength(self, card: Card | str) -> int:
        """How strong ``card`` is at taking tricks under this contract; bigger is stronger.

        A card's strength is its key in a trick led in its own suit (see :attr:`win_keys`):
        trumps have 10 to 18 (the Buur 18, the Nell 17, then the trump Ace 16 and so on), other
        cards 0 to 8 by the order of their suit (the Ace 8, or the 6 in Undenufe). So trumps
        rank above every other card. Cards of two different plain suits that hold the same
        place in their suits (two Aces in Obenabe) have the same strength: neither can beat the
        other, since a trick is won only by a trump or a card of the suit led. To compare cards
        within one trick, use :meth:`beats`.

        >>> hearts = Contract.trump(Suit.HEARTS)
        >>> [hearts.strength(card) for card in ("JH", "9H", "AH", "6H", "AS", "6S")]
        [18, 17, 16, 10, 8, 0]
        >>> Contract.UNDENUFE.strength("6C"), Contract.UNDENUFE.strength("AC")
        (8, 0)
        """
        return self._strength[as_card(card)]

    def by_strength(self, cards: CardSet | Iterable[Card | str] | str) -> tuple[Card, ...]:
        """The cards in trick-taking order under this contract, strongest first.

        The order is :meth:`strength`: trumps first (Buur, Nell, Ace, King, ...), then the
        other cards by their place in their own suit. Cards of equal strength (the same place
        in two plain suits) keep suit order ``S H D C``. ``cards`` is a :class:`~jass.CardSet`,
        an iterable of cards or card names, or a string of card names.

        >>> hand = CardSet.parse("AS 6H 9H JH KD 10C")
        >>> [str(c) for c in Contract.trump(Suit.HEARTS).by_strength(hand)]
        ['JH', '9H', '6H', 'AS', 'KD', '10C']
        >>> [str(c) for c in Contract.OBENABE.by_strength("6S KD AH AS")]
        ['AS', 'AH', 'KD', '6S']
        >>> [str(c) for c in Contract.UNDENUFE.by_strength("6S KD AH AS")]
        ['6S', 'KD', 'AS', 'AH']
        """
        return tuple(sorted(_card_set(cards).cards(), key=self._place.__getitem__))

    def strongest(self, cards: CardSet | Iterable[Card | str] | str) -> Card:
        """The strongest of ``cards``: the first of :meth:`by_strength`.

        This is the card most able to take a trick: the highest trump if there is one, else
        the highest card of its suit. Raises :class:`~jass.InvalidInputError` (a
        ``ValueError``) if ``cards`` is empty.

        >>> legal = CardSet.parse("KS 7H QD")
        >>> Contract.trump(Suit.HEARTS).strongest(legal), Contract.OBENABE.strongest(legal)
        (Card.parse('7H'), Card.parse('KS'))
        """
        found = _card_set(cards).cards()
        if not found:
            raise InvalidInputError("strongest() needs at least one card, got none")
        return min(found, key=self._place.__getitem__)

    def weakest(self, cards: CardSet | Iterable[Card | str] | str) -> Card:
        """The weakest of ``cards``: the last of :meth:`by_strength`.

        Raises :class:`~jass.InvalidInputError` (a ``ValueError``) if ``cards`` is empty.

        >>> legal = CardSet.parse("KS 7H QD")
        >>> Contract.trump(Suit.HEARTS).weakest(legal), Contract.UNDENUFE.weakest(legal)
        (Card.parse('QD'), Card.parse('KS'))
        """
        found = _card_set(cards).cards()
        if not found:
            raise InvalidInputError("weakest() needs at least one card, got none")
        return max(found, key=self._place.__getitem__)

    def __setattr__(self, name: str, value: object) -> None:
        if Contract._sealed:
            raise AttributeError(f"contracts are immutable: cannot set {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"contracts are immutable: cannot delete {name!r}")

    def __repr__(self) -> str:
        if self.trump_suit is not None:
            return f"Contract.trump(Suit.{self.trump_suit.name})"
        return f"Contract.{self.name}"

    def __str__(self) -> str:
        return self.name

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[object, tuple[int]]:
        # Keep singletons singletons across pickling (process pools).
        return (Contract.from_index, (self.index,))


Contract._ALL = (
    *(Contract(ContractKind.TRUMP, suit, int(suit)) for suit in Suit),
    Contract(ContractKind.OBENABE, None, 4),
    Contract(ContractKind.UNDENUFE, None, 5),
    Contract(ContractKind.MISERE, None, 6),
)
Contract.OBENABE = Contract._ALL[4]
Contract.UNDENUFE = Contract._ALL[5]
Contract.MISERE = Contract._ALL[6]
Contract._sealed = True
# The contracts without trumps by every spelling :meth:`Contract.parse` reads (casefolded,
# without spaces, "-" or "_").
_NAMED: Final[dict[str, Contract]] = {
    "obenabe": Contract.OBENABE,
    "obeabe": Contract.OBENABE,
    "obe": Contract.OBENABE,
    "oben": Contract.OBENABE,
    "topdown": Contract.OBENABE,
    "undenufe": Contract.UNDENUFE,
    "uneufe": Contract.UNDENUFE,
    "unde": Contract.UNDENUFE,
    "unten": Contract.UNDENUFE,
    "bottomup": Contract.UNDENUFE,
    "misere": Contract.MISERE,
    "misère": Contract.MISERE,
}


def _card_set(cards: CardSet | Iterable[Card | str] | str) -> CardSet:
    """``cards`` as a card set: a card set as it is, a string parsed, else ``CardSet(cards)``."""
    if isinstance(cards, CardSet):
        return cards
    if isinstance(cards, str):
        return CardSet.parse(cards)
    return CardSet(cards)
