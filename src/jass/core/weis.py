"""Weis (melds): finding them in a hand, comparing them, and resolving who scores (rule book §7).

A Weis is a sequence of three or more cards of one suit in the natural order
A K Q J 10 9 8 7 6 (also in trumps and in Undenufe), or four cards of one rank. The single
best declared Weis at the table decides: its team scores every Weis of both partners, and the
other team scores none.

>>> from jass import CardSet
>>> [str(w) for w in find_weis(CardSet.parse("JS QS KS AS 9H 9D 9C 9S 6C"))]
['four 9s (150)', 'J-Q-K-A of spades (50)']
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable, Sequence
from typing import Final

import attrs

from jass.core.cards import CARDS, Card, CardSet, Rank, Suit
from jass.core.contracts import Contract, ContractKind
from jass.core.seats import Seat, Team
from jass.errors import InvalidInputError
from jass.rules import SCHIEBER, RuleSet, WeisTie

__all__ = [
    "Weis",
    "WeisKind",
    "WeisResult",
    "best_weis",
    "find_weis",
    "resolve_declared_weis",
    "resolve_weis",
    "weis_key",
]


class WeisKind(enum.Enum):
    """A sequence (*Blatt*) or four of a kind.

    >>> WeisKind.QUARTET.value
    'quartet'
    """

    SEQUENCE = "sequence"
    QUARTET = "quartet"


_SEQUENCE_BIG: Final = {3: 20, 4: 50, 5: 100, 6: 150, 7: 200, 8: 250, 9: 300}
_SEQUENCE_SMALL: Final = {3: 20, 4: 50, 5: 100, 6: 100, 7: 100, 8: 100, 9: 100}
_QUARTET_POINTS: Final = {Rank.JACK: 200, Rank.NINE: 150}
_LOW_QUARTETS: Final = frozenset({Rank.SIX, Rank.SEVEN, Rank.EIGHT})
_SEATS: Final = tuple(Seat)
_PLURALS: Final = ("6s", "7s", "8s", "9s", "10s", "Jacks", "Queens", "Kings", "Aces")


@attrs.frozen
class Weis:
    """One Weis: its kind, its cards, its points (unmultiplied) and its top card.

    The top card of a sequence is its highest card in natural order; for a quartet it is the
    spade of its rank.

    >>> w = find_weis(CardSet.parse("9H 10H JH QH 6C"))[0]
    >>> w.kind.name, w.points, w.top, len(w), w.suit
    ('SEQUENCE', 50, Card.parse('QH'), 4, <Suit.HEARTS: 1>)
    """

    kind: WeisKind
    cards: CardSet
    points: int
    top: Card
    # Parts of the comparison key (R7.9), derived once: number of cards, natural height of the
    # top card, trump suit index for sequences (-1 for quartets).
    _length: int = attrs.field(init=False, eq=False, repr=False)
    _height: int = attrs.field(init=False, eq=False, repr=False)
    _suit: int = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        """Derive the parts of the comparison key."""
        object.__setattr__(self, "_length", len(self.cards))
        object.__setattr__(self, "_height", self.top % 9)
        sequence = self.kind is WeisKind.SEQUENCE
        object.__setattr__(self, "_suit", self.top // 9 if sequence else -1)

    @property
    def suit(self) -> Suit | None:
        """The suit of a sequence; ``None`` for a quartet.

        >>> find_weis(CardSet.parse("6S 6H 6D 6C"))[0].suit is None
        True
        """
        return self.top.suit if self.kind is WeisKind.SEQUENCE else None

    @property
    def rank(self) -> Rank:
        """The rank of a quartet, or the top rank of a sequence.

        >>> find_weis(CardSet.parse("KS KH KD KC"))[0].rank
        <Rank.KING: 7>
        """
        return self.top.rank

    def __len__(self) -> int:
        return self._length

    def __str__(self) -> str:
        if self.kind is WeisKind.QUARTET:
            return f"four {_PLURALS[self.rank]} ({self.points})"
        ranks = "-".join(card.rank.label for card in self.cards)
        return f"{ranks} of {self.top.suit.name.lower()} ({self.points})"


def _runs_of(pattern: int) -> tuple[tuple[int, int], ...]:
    """The maximal runs of three or more set bits of a 9-bit suit pattern, lowest first."""
    runs = []
    start = 0
    for rank in range(10):
        if rank == 9 or not pattern >> rank & 1:
            if rank - start >= 3:
                runs.append((start, rank - start))
            start = rank + 1
    return tuple(runs)


# Maximal runs of three or more set bits in each 9-bit suit pattern: (lowest rank, length).
_RUNS: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(map(_runs_of, range(512)))


def _sequence(suit: int, start: int, length: int, table: dict[int, int]) -> Weis:
    bits = ((1 << length) - 1) << (9 * suit + start)
    return Weis(
        WeisKind.SEQUENCE, CardSet(bits), table[length], CARDS[9 * suit + start + length - 1]
    )


@functools.cache
def _sequence_table(small: bool, split: bool) -> tuple[tuple[tuple[Weis, ...], ...], ...]:
    """For each suit and each 9-bit pattern of it, its sequences (built once per variant)."""
    table = _SEQUENCE_SMALL if small else _SEQUENCE_BIG
    by_suit = []
    for suit in range(4):
        patterns = []
        for pattern in range(512):
            found: list[Weis] = []
            for start, length in _RUNS[pattern]:
                if length == 9 and small and split:
                    # Nine in a row under small Weis: 100 from the Ace plus 50 from the 9 (R7.3).
                    found += (_sequence(suit, 4, 5, table), _sequence(suit, 0, 4, table))
                else:
                    found.append(_sequence(suit, start, length, table))
            patterns.append(tuple(found))
        by_suit.append(tuple(patterns))
    return tuple(by_suit)


class _SequenceTables(dict[tuple[bool, bool], tuple[tuple[tuple[Weis, ...], ...], ...]]):
    """Sequence tables by (small_weis, small_weis_split_long_runs), built on first use."""

    def __missing__(self, key: tuple[bool, bool]) -> tuple[tuple[tuple[Weis, ...], ...], ...]:
        small, split = key
        table = self[key] = _sequence_table(small=small, split=small and split)
        return table


_SEQUENCE_TABLES: Final = _SequenceTables()
# Quartet of each rank (big and small Weis; None where small Weis has none).
_QUARTETS: Final = {
    small: tuple(
        None
        if small and rank in _LOW_QUARTETS
        else Weis(
            WeisKind.QUARTET,
            CardSet(sum(1 << (9 * suit + rank) for suit in range(4))),
            _QUARTET_POINTS.get(rank, 100),
            CARDS[rank],
        )
        for rank in Rank
    )
    for small in (False, True)
}


def _sequences(hand: int, ruleset: RuleSet) -> list[Weis]:
    table = _SEQUENCE_TABLES[ruleset.small_weis, ruleset.small_weis_split_long_runs]
    return [
        *table[0][hand & 0x1FF],
        *table[1][(hand >> 9) & 0x1FF],
        *table[2][(hand >> 18) & 0x1FF],
        *table[3][(hand >> 27) & 0x1FF],
    ]


def _quartets(hand: int, ruleset: RuleSet) -> list[Weis]:
    common = hand & (hand >> 9) & (hand >> 18) & (hand >> 27) & 0x1FF  # ranks held four times
    if not common:
        return []
    table = _QUARTETS[ruleset.small_weis]
    return [q for rank, q in enumerate(table) if common >> rank & 1 and q is not None]


def _neutral_key(weis: Weis, ruleset: RuleSet) -> tuple[int, ...]:
    """A contract-free order: points, then the R7.9 length step, then natural height."""
    if ruleset.weis_tie_sequence_vs_quartet is WeisTie.QUARTET_FIRST:
        return (weis.points, weis._suit < 0, weis._length, weis._height, -weis.top)
    return (weis.points, weis._length, weis._height, -weis.top)


def find_weis(hand: CardSet, ruleset: RuleSet = SCHIEBER) -> tuple[Weis, ...]:
    """Every Weis that ``hand`` may declare under ``ruleset``, best first (rule book R7.1-R7.5).

    With ``kreuzweis`` a card may sit in one sequence and one quartet; without it the Weis are
    the card-disjoint set with the most points, where only quartets split runs.

    >>> from jass import rules
    >>> hand = CardSet.parse("AH KH QH JH KS KD KC 6S 7S")
    >>> [w.points for w in find_weis(hand)]
    [100, 50]
    >>> [w.points for w in find_weis(hand, rules.SCHIEBER.evolve(kreuzweis=False))]
    [100]
    """
    bits = int(hand)
    if not bits & (bits >> 9) & (bits >> 18) & (bits >> 27) & 0x1FF:  # no quartet: fast path
        table = _SEQUENCE_TABLES[ruleset.small_weis, ruleset.small_weis_split_long_runs]
        runs = (
            table[0][bits & 0x1FF]
            + table[1][(bits >> 9) & 0x1FF]
            + table[2][(bits >> 18) & 0x1FF]
            + table[3][bits >> 27]
        )
        if len(runs) < 2:
            return runs
        found = list(runs)
    else:
        quartets = _quartets(bits, ruleset)
        if ruleset.kreuzweis or not quartets:
            found = quartets + _sequences(bits, ruleset)
        else:
            found = _best_disjoint(bits, quartets, ruleset)
    if len(found) < 2:
        return tuple(found)
    return tuple(sorted(found, key=lambda w: _neutral_key(w, ruleset), reverse=True))


def _best_disjoint(hand: int, quartets: list[Weis], ruleset: RuleSet) -> list[Weis]:
    """Without Kreuzweis: the quartet choice that scores most; runs split only by quartets."""
    best: list[Weis] = []
    best_rank: tuple[object, ...] = ()
    for mask in range(1 << len(quartets)):
        chosen = [q for i, q in enumerate(quartets) if mask >> i & 1]
        rest = hand
        for quartet in chosen:
            rest &= ~int(quartet.cards)
        candidate = chosen + _sequences(rest, ruleset)
        top = max((_neutral_key(w, ruleset) for w in candidate), default=())
        rank = (sum(w.points for w in candidate), top)
        if rank > best_rank:
            best, best_rank = candidate, rank
    return best


def weis_key(
    weis: Weis, seat: Seat | int, contract: Contract, forehand: Seat, ruleset: RuleSet = SCHIEBER
) -> tuple[int, ...]:
    """The comparison key of R7.9: points, cards, height, trump, position; bigger wins.

    Height is the top card for sequences and the rank for quartets, reversed in Undenufe
    under ``undenufe_reverse_weis``; the trump step favours a sequence in trumps; position
    favours the seat closer to the forehand.

    >>> from jass import CardSet, Contract
    >>> low = find_weis(CardSet.parse("7S 8S 9S"))[0]
    >>> high = find_weis(CardSet.parse("8H 9H 10H"))[0]
    >>> f = Seat(0)
    >>> weis_key(high, Seat(1), Contract.OBENABE, f) > weis_key(low, Seat(2), Contract.OBENABE, f)
    True
    >>> weis_key(low, Seat(2), Contract.UNDENUFE, f) > weis_key(high, Seat(1), Contract.UNDENUFE, f)
    True
    """
    height = weis._height
    if contract.kind is ContractKind.UNDENUFE and ruleset.undenufe_reverse_weis:
        height = -height
    trump = int(weis._suit == contract.trump_suit)  # trump_suit is None without trumps
    position = -((seat - forehand) & 3)
    if ruleset.weis_tie_sequence_vs_quartet is WeisTie.QUARTET_FIRST:
        return (weis.points, weis._suit < 0, weis._length, height, trump, position)
    return (weis.points, weis._length, height, trump, position)


def best_weis(
    declared: Sequence[Iterable[Weis]],
    contract: Contract,
    forehand: Seat,
    ruleset: RuleSet = SCHIEBER,
) -> tuple[Seat, Weis] | None:
    """The seat with the single best declared Weis and that Weis, or ``None`` if none.

    >>> from jass import CardSet, Contract
    >>> declared = [[], find_weis(CardSet.parse("6D 7D 8D"))]
    >>> seat, weis = best_weis(declared, Contract.OBENABE, Seat(0))
    >>> seat, weis.points
    (<Seat.S1: 1>, 20)
    """
    best: tuple[tuple[int, ...], int, Weis] | None = None
    for seat, weis_list in enumerate(declared):
        for weis in weis_list:
            key = weis_key(weis, seat, contract, forehand, ruleset)
            if best is None or key > best[0]:
                best = (key, seat, weis)
    return None if best is None else (_SEATS[best[1]], best[2])


@attrs.frozen
class WeisResult:
    """The outcome of the Weis of one hand.

    Attributes:
        winner: the seat with the best Weis, or ``None`` when nobody declared one.
        best: that Weis.
        points: unmultiplied Weis points per team; only the winner's team scores.
        declared: the Weis each seat declared, by seat.

    >>> WeisResult(None, None, (0, 0), ((), (), (), ())).points
    (0, 0)
    """

    winner: Seat | None
    best: Weis | None
    points: tuple[int, int]
    declared: tuple[tuple[Weis, ...], tuple[Weis, ...], tuple[Weis, ...], tuple[Weis, ...]]

    @property
    def team(self) -> Team | None:
        """The team that scores its Weis, or ``None``.

        >>> WeisResult(None, None, (0, 0), ((), (), (), ())).team is None
        True
        """
        return self.winner.team if self.winner is not None else None


def resolve_declared_weis(
    declared: Sequence[Iterable[Weis]],
    contract: Contract,
    forehand: Seat,
    ruleset: RuleSet = SCHIEBER,
) -> WeisResult:
    """Resolve declared Weis (rule book R7.8): the best Weis's team scores all of its Weis.

    >>> from jass import CardSet, Contract
    >>> hands = [find_weis(CardSet.parse(h)) for h in ("6S 7S 8S", "9H 10H JH QH", "", "KC QC JC")]
    >>> result = resolve_declared_weis(hands, Contract.OBENABE, Seat(0))
    >>> result.winner, result.points
    (<Seat.S1: 1>, (0, 70))
    """
    if len(declared) != 4:
        raise InvalidInputError(f"Weis are declared by four seats, got {len(declared)}")
    lists = (
        declared[0] if type(declared[0]) is tuple else tuple(declared[0]),
        declared[1] if type(declared[1]) is tuple else tuple(declared[1]),
        declared[2] if type(declared[2]) is tuple else tuple(declared[2]),
        declared[3] if type(declared[3]) is tuple else tuple(declared[3]),
    )
    if not (lists[0] or lists[1] or lists[2] or lists[3]):
        return WeisResult(None, None, (0, 0), lists)
    found = best_weis(lists, contract, forehand, ruleset)
    assert found is not None  # noqa: S101
    seat, weis = found
    team = seat & 1
    team_points = sum(w.points for w in lists[team]) + sum(w.points for w in lists[team + 2])
    points = (team_points, 0) if team == 0 else (0, team_points)
    return WeisResult(seat, weis, points, lists)


def resolve_weis(
    hands: Sequence[CardSet], contract: Contract, forehand: Seat, ruleset: RuleSet = SCHIEBER
) -> WeisResult:
    """Resolve the Weis of four hands, each declaring everything it holds.

    ``hands`` are the hands as dealt, by seat.

    >>> from jass import CardSet, Contract, Suit
    >>> hands = [CardSet.parse(h) for h in ("6S 7S 8S 9S", "9H 10H JH", "AD KD QD", "")]
    >>> resolve_weis(hands, Contract.trump(Suit.SPADES), Seat(0)).points  # 50 wins, with its 20
    (70, 0)
    """
    if len(hands) != 4:
        raise InvalidInputError(f"resolve_weis needs four hands, got {len(hands)}")
    return resolve_declared_weis(
        [find_weis(hand, ruleset) for hand in hands], contract, forehand, ruleset
    )
