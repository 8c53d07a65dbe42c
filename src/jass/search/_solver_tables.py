"""The tables that the solver's searches share: the move-list caches and per-contract sums.

Internal to :mod:`jass.solver`: the card of each bit pattern, the two cards of a two-card
hand, and :class:`_Tables`, which every solver of one contract under the same point and
undertrump rules shares.

>>> _cards_of(0b101)
(0, 2)
>>> sorted(_PAIRS[0b110])
[1, 2]
"""

from __future__ import annotations

from typing import Final

from jass.core.cards import Suit
from jass.core.contracts import Contract
from jass.core.ruledata import RuleData

#: The suit of each card, as an index 0-3 (play._SUIT_MASK_OF gives it as a mask).
_SUIT_INDEX_OF: Final = tuple(card // 9 for card in range(36))
#: The two cards of each two-card mask (the last two tricks), ascending, and their sum.
_PAIRS: Final = {1 << a | 1 << b: (a, b) for a in range(36) for b in range(a + 1, 36)}
_PAIR_SUM: Final = {mask: a + b for mask, (a, b) in _PAIRS.items()}
#: Entries kept in each cache of move lists before it starts over.
_CACHE_LIMIT: Final = 1_000_000
#: Each suit's bit offset in a mask, and its number as placed in a class-table key.
_SHIFTS: Final = tuple((9 * suit, suit << 18) for suit in range(4))
#: Beyond any value.
_INFINITY: Final = 10_000
#: The cards (plain ints) of each 9-bit pattern of each suit.
_IN_SUIT: Final = tuple(
    tuple(tuple(9 * suit + r for r in range(9) if pattern >> r & 1) for pattern in range(512))
    for suit in range(4)
)


def _cards_of(mask: int) -> tuple[int, ...]:
    """The cards of a mask, ascending."""
    return (
        _IN_SUIT[0][mask & 0x1FF]
        + _IN_SUIT[1][(mask >> 9) & 0x1FF]
        + _IN_SUIT[2][(mask >> 18) & 0x1FF]
        + _IN_SUIT[3][mask >> 27]
    )



class _Tables:
    """What solvers of one contract under the same point and undertrump rules share."""

    def __init__(self, contract: Contract, data: RuleData) -> None:
        self.points = data.points
        self.power = tuple(data.win_keys[card // 9][card] for card in range(36))
        self.lead_rank = tuple(-(self.points[c] + 2 * self.power[c]) for c in range(36))
        # The cards that beat each card when it holds a trick (it is of the led suit or a
        # trump): the higher ones of its suit, and every trump unless it is one.
        trumps = contract.trump_mask
        self.beats = tuple(
            sum(1 << d for d in range(36) if d // 9 == c // 9 and self.power[d] > self.power[c])
            | (0 if trumps >> c & 1 else trumps)
            for c in range(36)
        )
        # Each suit's cards from the strongest down, for merging equivalent cards.
        self.orders = tuple(
            tuple(9 * suit + rank for rank in contract.rank_order(Suit(suit))) for suit in range(4)
        )
        # The card points of each 9-bit pattern of each suit.
        suit_points = []
        for suit in range(4):
            sums = [0] * 512
            for pattern in range(1, 512):
                low = pattern & -pattern
                sums[pattern] = sums[pattern ^ low] + self.points[9 * suit + low.bit_length() - 1]
            suit_points.append(tuple(sums))
        self.suit_points = tuple(suit_points)
        self.classes: dict[int, int] = {}
        self.leads: dict[int, tuple[int, ...]] = {}
        self.follows: dict[int, tuple[int, ...]] = {}
        self.sorted: dict[int, tuple[int, ...]] = {}


#: Tables kept, by (contract, undertrump rule, card points): a long-lived process that meets
#: many rule sets starts over rather than grow.
_TABLES_LIMIT: Final = 32
_TABLES: Final[dict[tuple[int, int, tuple[int, ...]], _Tables]] = {}


def _tables(contract: Contract, data: RuleData) -> _Tables:
    """The shared tables of ``contract`` under ``data``'s card points and undertrump rule.

    The undertrump rule changes the legal cards, and so the cached move lists: solvers
    under the two rules keep tables of their own. Other options (the bonuses, the
    multiplier) do not change them.
    """
    key = (data.contract, data.strict_undertrump, data.points)
    found = _TABLES.get(key)
    if found is None:
        if len(_TABLES) >= _TABLES_LIMIT:
            _TABLES.clear()
        found = _TABLES[key] = _Tables(contract, data)
    return found
