"""Names in the words of the game: cards, contracts, Weis and seats as a Jass player says them.

:class:`Names` writes cards with suit symbols (``♥J``) or, in Swiss mode, with the Swiss suits
and ranks of the rule set's suit pairing (``Rosen Under``); contracts as ``Trumpf Herz ×1`` or
``Obenabe ×3``; Weis as ``Dreiblatt``, ``Vierblatt``, ``vier Buure``. :func:`parse_contract`
reads a contract the way a player types it, Swiss suit names under the rule set's pairing.

>>> from jass import Card, Contract, Suit, rules
>>> french, swiss = Names(), Names(rules.SCHIEBER.suit_pairing)
>>> french.card(Card.parse("JH")), swiss.card(Card.parse("JH"))
('♥J', 'Rosen Under')
>>> french.contract(Contract.trump(Suit.HEARTS), rules.SCHIEBER), swiss.contract(Contract.OBENABE)
('Trumpf Herz ×1', 'Obenabe')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import attrs

from jass.core.cards import Card, Rank, Suit, SuitPairing
from jass.core.contracts import Contract, ContractKind
from jass.core.seats import Seat, Team
from jass.core.weis import Weis, WeisKind
from jass.errors import InvalidInputError
from jass.rules import RuleSet

__all__ = ["Names", "counted", "parse_contract", "seat_label", "team_label"]

_BLATT: Final = {
    3: "Dreiblatt",
    4: "Vierblatt",
    5: "Fünfblatt",
    6: "Sechsblatt",
    7: "Siebenblatt",
    8: "Achtblatt",
    9: "Neunblatt",
}
# "vier ..." by rank 6..A; French-suited and Swiss where they differ.
_FOUR_FRENCH: Final = (
    "Sechser", "Siebner", "Achter", "Nell", "Zehner", "Buure", "Damen", "Könige", "Asse"
)  # fmt: skip
_FOUR_SWISS: Final = (
    "Sechser", "Siebner", "Achter", "Nell", "Banner", "Buure", "Ober", "Könige", "Asse"
)  # fmt: skip
_CONTRACT_WORDS: Final = {
    ContractKind.OBENABE: "Obenabe",
    ContractKind.UNDENUFE: "Undenufe",
    ContractKind.MISERE: "Misère",
}
_LABELS: Final = ("you", "right", "partner", "left")


def _pairing(value: SuitPairing | str | None) -> SuitPairing | None:
    """``None`` (French suits) or the pairing ``value`` names."""
    return None if value is None else SuitPairing.parse(value)


@attrs.frozen
class Names:
    """How cards, suits, contracts and Weis are written: French suits, or Swiss.

    ``pairing`` ``None`` writes French suits (``♥J``, ``Trumpf Herz``); a :class:`SuitPairing`
    writes the Swiss suits and ranks it pairs with them (``Rosen Under``, ``Trumpf Rosen``).
    ``symbols=False`` keeps to ASCII where a terminal cannot show ``♥`` or ``×``: French cards
    are then written ``JH``.

    >>> from jass import Card, rules
    >>> Names(symbols=False).card(Card.parse("10D")), Names("WIKIPEDIA").card(Card.parse("10D"))
    ('10D', 'Schellen Banner')
    """

    pairing: SuitPairing | None = attrs.field(default=None, converter=_pairing)
    symbols: bool = attrs.field(default=True, kw_only=True)

    @property
    def swiss(self) -> bool:
        """Whether Swiss suits and ranks are written.

        >>> Names().swiss, Names("SWISSLOS").swiss
        (False, True)
        """
        return self.pairing is not None

    def suit(self, suit: Suit) -> str:
        """The suit's name: German for French suits (``Herz``), or the Swiss suit.

        >>> from jass import Suit
        >>> Names().suit(Suit.DIAMONDS), Names("SWISSLOS").suit(Suit.DIAMONDS)
        ('Ecken', 'Eicheln')
        """
        return suit.swiss_name(self.pairing) if self.pairing is not None else suit.german_name

    def suit_mark(self, suit: Suit) -> str:
        """A short mark for the suit: its symbol (``♥``), or ``""`` in Swiss mode or in ASCII.

        >>> from jass import Suit
        >>> Names().suit_mark(Suit.HEARTS), Names("SWISSLOS").suit_mark(Suit.HEARTS)
        ('♥', '')
        """
        return suit.symbol if self.symbols and self.pairing is None else ""

    def rank(self, rank: Rank) -> str:
        """The rank's name: ``J``, ``10`` for French cards, ``Under``, ``Banner`` for Swiss.

        >>> from jass import Rank
        >>> Names().rank(Rank.JACK), Names("SWISSLOS").rank(Rank.JACK)
        ('J', 'Under')
        """
        return rank.swiss_name if self.pairing is not None else rank.label

    def card(self, card: Card) -> str:
        """The card: ``♥J`` (``JH`` without symbols), or ``Rosen Under`` in Swiss mode.

        :meth:`Card.parse <jass.Card.parse>` reads every form back (Swiss under the pairing).

        >>> from jass import Card
        >>> Names().card(Card.parse("6C")), Names("PARLETT").card(Card.parse("6C"))
        ('♣6', 'Eicheln 6')
        """
        if self.pairing is not None:
            return card.swiss_name(self.pairing)
        return card.symbol if self.symbols else str(card)

    def cards(self, cards: Iterable[Card]) -> str:
        """Cards in the order given, separated by spaces (commas between Swiss names).

        >>> from jass import CardSet
        >>> Names().cards(CardSet.parse("JH 9H")), Names("SWISSLOS").cards(CardSet.parse("JH 9H"))
        ('♥9 ♥J', 'Rosen 9, Rosen Under')
        """
        return (", " if self.pairing is not None else " ").join(self.card(c) for c in cards)

    def times(self, multiplier: int) -> str:
        """A multiplier: ``×2`` (``x2`` without symbols).

        >>> Names().times(3), Names(symbols=False).times(3)
        ('×3', 'x3')
        """
        return f"{'×' if self.symbols else 'x'}{multiplier}"

    def contract(self, contract: Contract, ruleset: RuleSet | None = None) -> str:
        """The contract as a player says it, with its multiplier under ``ruleset`` if given.

        >>> from jass import Contract, Suit, rules
        >>> Names().contract(Contract.UNDENUFE, rules.SCHIEBER)
        'Undenufe ×3'
        >>> Names("SWISSLOS").contract(Contract.trump(Suit.CLUBS), rules.SCHIEBER)
        'Trumpf Schellen ×2'
        """
        if contract.trump_suit is not None:
            words = f"Trumpf {self.suit(contract.trump_suit)}"
        else:
            words = _CONTRACT_WORDS[contract.kind]
        if ruleset is None:
            return words
        return f"{words} {self.times(ruleset.multiplier(contract))}"

    def weis(self, weis: Weis) -> str:
        """A Weis in the words of the game, with its points.

        >>> from jass import CardSet, find_weis
        >>> [Names().weis(w) for w in find_weis(CardSet.parse("JS JH JD JC 8H 9H 10H"))]
        ['vier Buure (200)', 'Vierblatt Herz 8–J (50)']
        >>> Names("SWISSLOS").weis(find_weis(CardSet.parse("10D JD QD"))[0])
        'Dreiblatt Eicheln Banner–Ober (20)'
        """
        if weis.kind is WeisKind.QUARTET:
            words = (_FOUR_SWISS if self.pairing is not None else _FOUR_FRENCH)[weis.rank]
            return f"vier {words} ({weis.points})"
        cards = weis.cards.cards()
        dash = "–" if self.symbols else "-"
        blatt = _BLATT[len(cards)]
        low, high = self.rank(cards[0].rank), self.rank(cards[-1].rank)
        return f"{blatt} {self.suit(weis.top.suit)} {low}{dash}{high} ({weis.points})"


def counted(number: int, word: str, plural: str | None = None) -> str:
    """``number`` and ``word``, plural unless the number is one: ``1 hand``, ``2 hands``.

    ``plural`` is the plural where adding ``s`` is wrong.

    >>> counted(1, "hand"), counted(0, "trick"), counted(3, "match", "matches")
    ('1 hand', '0 tricks', '3 matches')
    """
    return f"{number} {word if number == 1 else plural or word + 's'}"


def seat_label(seat: Seat | int, me: Seat | int = 0) -> str:
    """How the player at ``me`` calls ``seat``: ``you``, ``right``, ``partner`` or ``left``.

    Play goes to the right (rule book R3.2), so the seat after ``me`` sits on its right.

    >>> [seat_label(s) for s in range(4)], seat_label(0, me=1)
    (['you', 'right', 'partner', 'left'], 'left')
    """
    return _LABELS[(int(Seat(seat)) - int(Seat(me))) & 3]


def team_label(team: Team | int, me: Seat | int = 0) -> str:
    """How the player at ``me`` calls ``team``: ``us`` or ``them``.

    >>> team_label(0), team_label(1), team_label(1, me=3)
    ('us', 'them', 'us')
    """
    return "us" if int(Team(team)) == int(Seat(me)) & 1 else "them"


def parse_contract(text: str, ruleset: RuleSet) -> Contract:
    """Read a contract as a player types it, Swiss suit names under ``ruleset``'s pairing.

    Accepted: what :meth:`Contract.parse` reads (the same names as :meth:`Game.choose()
    <jass.Game.choose>`): a suit's name, symbol or letter with or without ``Trumpf`` (``Rose``,
    ``Trumpf Herz``, ``♥``), ``Obenabe`` (``obe``, ``oben``), ``Undenufe`` (``unde``,
    ``unten``), ``Misère``, and the engine's names (``TRUMP_HEARTS``); only the error message
    speaks to a player. Whether the rule set allows the contract is not checked here.

    >>> from jass import rules
    >>> parse_contract("Trumpf Eichel", rules.SCHIEBER), parse_contract("unde", rules.SCHIEBER)
    (Contract.trump(Suit.DIAMONDS), Contract.UNDENUFE)
    >>> parse_contract("eichel", rules.SCHIEBER.evolve(suit_pairing="WIKIPEDIA"))
    Contract.trump(Suit.CLUBS)
    """
    if not isinstance(text, str):
        raise InvalidInputError(f"cannot read contract {text!r}: expected a string")
    try:
        return Contract.parse(text, ruleset.suit_pairing)
    except InvalidInputError:
        raise InvalidInputError(
            f"cannot read contract {text!r}: say a suit (Trumpf Herz, Rose), Obenabe, "
            "Undenufe or Misère"
        ) from None
