"""The fast path: card play on plain ints, for random or policy rollouts and for search.

The checked, immutable :class:`~jass.Game` validates every action and builds a new object per
card. Rollouts in a Monte Carlo bot need neither: they start from a position that is known to
be legal and play cards the engine itself picks. The functions here take hands as four int
bitmasks and play a hand out with no validation and no objects, using the same precomputed
contract tables as the rule functions. They agree with the state machine card for card; the
test suite proves it.

Only card play is modelled: trick points, the last trick's 5 and the match bonus. Weis and
Stöck do not depend on the cards played, so rollouts leave them out.

>>> import random, jass
>>> rng = random.Random(1)
>>> points, tricks = random_hand(jass.Contract.OBENABE, rng)
>>> sum(points) in (157, 257), sum(tricks)
(True, 9)
"""

from __future__ import annotations

import random
import struct
from collections.abc import Callable, Sequence
from typing import Final

from jass.cards import CARDS
from jass.contracts import Contract, ContractKind
from jass.rules import SCHIEBER, RuleSet, UndertrumpRule
from jass.scoring import match_bonus

__all__ = ["Policy", "legal_mask", "play_out", "random_hand"]

_DECK: Final = tuple(range(36))
_KEYS: Final = struct.Struct(">36I")
_BITS: Final = tuple(1 << card for card in range(36))
# The cards of each 12-bit third of a mask, as for CardSet.cards().
_THIRDS: Final = tuple(
    tuple(
        tuple(CARDS[12 * third + bit] for bit in range(12) if pattern >> bit & 1)
        for pattern in range(4096)
    )
    for third in range(3)
)
_LOW, _MIDDLE, _HIGH = _THIRDS
_SUIT_OF: Final = tuple(0x1FF << (9 * (card // 9)) for card in range(36))

#: A rollout policy: given (hand, legal mask, trick so far, seat, every card still held), return
#: the card to play.
Policy = Callable[[int, int, Sequence[int], int, int], int]


def legal_mask(hand: int, trick: Sequence[int], contract: Contract, strict: bool = False) -> int:
    """The legal cards of ``hand`` (an int mask) on ``trick``, as an int mask (RULES.md R5.5).

    ``strict`` is ``undertrump_only_trumps=ONLY_IF_NO_HIGHER``. It is :func:`jass.legal_cards`
    on plain ints.

    >>> from jass import CardSet, Card, Contract, Suit
    >>> hand, trick = CardSet.parse("6H 9H 7D"), [Card.parse("AS"), Card.parse("QH")]
    >>> legal_mask(hand, trick, Contract.trump(Suit.HEARTS)) == CardSet.parse("9H 7D")
    True
    """
    if not trick:
        return hand
    led = _SUIT_OF[trick[0]]
    follow = led & hand
    trumps = contract.trump_mask
    if not trumps:
        return follow or hand
    held = trumps & hand
    if led == trumps:
        return held if held & ~contract.buur else hand
    above = contract.above
    over = held
    for card in trick:
        over &= above[card]
    if follow:
        return follow | over
    if held == hand:
        return over if strict and over else hand
    return (~trumps & hand) | over


def play_out(
    hands: Sequence[int],
    contract: Contract,
    leader: int,
    policy: Policy | None = None,
    *,
    rng: random.Random | None = None,
    ruleset: RuleSet = SCHIEBER,
    trick: Sequence[int] = (),
    points: tuple[int, int] = (0, 0),
    tricks: tuple[int, int] = (0, 0),
    declaring_team: int = 0,
) -> tuple[tuple[int, int], tuple[int, int]]:
    """Play a hand out from a legal position; return (card points, tricks) by team.

    ``hands`` are the cards each seat holds (int masks), ``leader`` leads the current
    ``trick`` (the cards already in it), and ``points``/``tricks`` are what each team took so
    far. Cards come from ``policy`` (a function of hand, legal mask, trick, seat and every card
    still held), or at random
    from ``rng``. Card points include the last trick's 5 and, for a match, the match bonus of
    ``ruleset`` (counter-match rules included); in Misère each team gets its opponents' points.

    >>> import random
    >>> from jass import Game, Contract
    >>> g = Game.new(seed=3).deal()
    >>> hands = [int(h) for h in g.hands]
    >>> play_out(hands, Contract.UNDENUFE, int(g.to_move), rng=random.Random(0))[1]
    (..., ...)
    """
    uniform = (rng or random.Random()).random
    strict = ruleset.undertrump_only_trumps is UndertrumpRule.ONLY_IF_NO_HIGHER
    table = contract.card_points(old_undenufe=ruleset.old_undenufe)
    win_keys = contract.win_keys
    held = list(hands)
    taken = [points[0], points[1]]
    won = [tricks[0], tricks[1]]
    current = list(trick)
    low, middle, high, legal_of = _LOW, _MIDDLE, _HIGH, legal_mask  # locals: faster lookups
    while won[0] + won[1] < 9:
        seat = (leader + len(current)) & 3
        for _ in range(4 - len(current)):
            hand = held[seat]
            legal = legal_of(hand, current, contract, strict)
            card: int
            if policy is None:
                cards = low[legal & 0xFFF] + middle[(legal >> 12) & 0xFFF] + high[legal >> 24]
                card = cards[int(uniform() * len(cards))]
            else:
                card = policy(hand, legal, current, seat, held[0] | held[1] | held[2] | held[3])
            held[seat] = hand ^ (1 << card)
            current.append(card)
            seat = (seat + 1) & 3
        keys = win_keys[current[0] // 9]
        best, best_key = 0, keys[current[0]]
        for index in (1, 2, 3):
            if keys[current[index]] > best_key:
                best, best_key = index, keys[current[index]]
        leader = (leader + best) & 3
        team = leader & 1
        won[team] += 1
        taken[team] += table[current[0]] + table[current[1]] + table[current[2]] + table[current[3]]
        current = []
    taken[leader & 1] += 5
    if contract.kind is ContractKind.MISERE:
        taken.reverse()
    elif won[0] == 9 or won[1] == 9:
        team = 0 if won[0] == 9 else 1
        taken[team] += match_bonus(team == declaring_team, ruleset)
    return (taken[0], taken[1]), (won[0], won[1])


def random_hand(
    contract: Contract, rng: random.Random, ruleset: RuleSet = SCHIEBER
) -> tuple[tuple[int, int], tuple[int, int]]:
    """Deal at random and play a whole hand with random legal cards: the leanest rollout.

    >>> import random
    >>> from jass import Contract, Suit
    >>> sum(random_hand(Contract.trump(Suit.HEARTS), random.Random(5))[0]) >= 157
    True
    """
    # 36 random 32-bit keys in one call, sorted in C: ties (probability below 10**-6) keep
    # the natural order.
    keys = _KEYS.unpack(rng.randbytes(144))
    deck = sorted(_DECK, key=keys.__getitem__)
    hands = [
        sum(map(_BITS.__getitem__, deck[0:9])),
        sum(map(_BITS.__getitem__, deck[9:18])),
        sum(map(_BITS.__getitem__, deck[18:27])),
        sum(map(_BITS.__getitem__, deck[27:36])),
    ]
    return play_out(hands, contract, 0, rng=rng, ruleset=ruleset)
