"""The fast path: card play on plain ints, for random or policy rollouts and for search.

The checked, immutable :class:`~jass.Game` validates every action and builds a new object per
card. Rollouts in a Monte Carlo bot need neither: they start from a position that is known to
be legal and play cards the engine itself picks. The functions here take hands as four int
bitmasks and play a hand out with no validation and no objects, using the same precomputed
contract tables as the rule functions. They agree with the state machine card for card; the
test suite proves it. The rules come from their kernels (:func:`jass.core.play.legal_mask`,
re-exported here, :func:`jass.core.play.trick_winner` and
:func:`jass.core.scoring.credit_card_play`);
the random loop inlines the first two, and ``tests/test_kernels.py`` checks those copies.
With the native core (:data:`jass.search.native.NATIVE`) the random play-outs run in C, on
the same random draws, so they play the very same cards.

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

from jass.core.contracts import Contract
from jass.core.play import legal_mask, trick_winner
from jass.core.ruledata import rule_data
from jass.core.scoring import credit_card_play
from jass.rules import SCHIEBER, RuleSet, UndertrumpRule
from jass.search.native import core

__all__ = ["Policy", "legal_mask", "play_out", "random_hand"]

_DECK: Final = tuple(range(36))
_DRAWS: Final = struct.Struct(">36I")
_DEAL_AND_DRAWS: Final = struct.Struct(">72I")
_BITS: Final = tuple(1 << card for card in range(36))
_ALL: Final = (1 << 36) - 1
_FOLLOWERS: Final = tuple(((lead + 1) & 3, (lead + 2) & 3, (lead + 3) & 3) for lead in range(4))
# The cards (plain ints, ascending) of each 12-bit third of a mask.
_THIRDS: Final = tuple(
    tuple(
        tuple(12 * third + bit for bit in range(12) if pattern >> bit & 1)
        for pattern in range(4096)
    )
    for third in range(3)
)
_LOW, _MIDDLE, _HIGH = _THIRDS
# The cards of every mask within one suit (what following usually leaves).
_ONE_SUIT: Final = {
    pattern << (9 * suit): tuple(9 * suit + r for r in range(9) if pattern >> r & 1)
    for suit in range(4)
    for pattern in range(1, 512)
}
_SUIT_OF: Final = tuple(0x1FF << (9 * (card // 9)) for card in range(36))

#: A rollout policy: given (hand, legal mask, trick so far, seat, every card still held), return
#: the card to play.
Policy = Callable[[int, int, Sequence[int], int, int], int]


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
    still held), or at random from ``rng``: 36 unsigned 32-bit draws from one
    ``rng.randbytes(144)`` (big-endian), used in turn as ``cards[draw * len(cards) >> 32]`` on
    the legal cards in ascending order; a forced card takes no draw. Card points include the
    last trick's 5 and, for a match, the match bonus of ``ruleset`` (counter-match rules
    included); in Misère each team gets its opponents' points.

    >>> import random
    >>> from jass import Game, Contract
    >>> g = Game.new(seed=3).deal()
    >>> hands = [int(h) for h in g.hands]
    >>> play_out(hands, Contract.UNDENUFE, int(g.to_move), rng=random.Random(0))[1]
    (..., ...)
    """
    # Random cards come from 32-bit draws (at most 36 in a hand), all made in one call.
    draws = (rng or random.Random()).randbytes(144)
    if policy is None and core is not None:
        taken0, taken1, won0, won1 = core.play_out(
            rule_data(contract, ruleset), [int(h) for h in hands], leader,
            [int(c) for c in trick], points[0], points[1], tricks[0], tricks[1], draws,
        )  # fmt: skip
        return _credit([taken0, taken1], [won0, won1], declaring_team, contract, ruleset)
    draw = iter(_DRAWS.unpack(draws)).__next__
    if policy is None and not trick:
        return _random_out(
            [int(h) for h in hands], contract, leader, draw, ruleset, points, tricks, declaring_team
        )
    strict = ruleset.undertrump_only_trumps is UndertrumpRule.ONLY_IF_NO_HIGHER
    table = contract.card_points(old_undenufe=ruleset.old_undenufe)
    held = [int(h) for h in hands]  # CardSets too: they have no shifts
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
                card = cards[draw() * len(cards) >> 32] if len(cards) > 1 else cards[0]
            else:
                card = policy(hand, legal, current, seat, held[0] | held[1] | held[2] | held[3])
            held[seat] = hand ^ (1 << card)
            current.append(card)
            seat = (seat + 1) & 3
        leader = (leader + trick_winner(current, contract)) & 3
        team = leader & 1
        won[team] += 1
        taken[team] += table[current[0]] + table[current[1]] + table[current[2]] + table[current[3]]
        current = []
    taken[leader & 1] += 5
    return _credit(taken, won, declaring_team, contract, ruleset)


def _credit(
    taken: list[int], won: list[int], declaring_team: int, contract: Contract, ruleset: RuleSet
) -> tuple[tuple[int, int], tuple[int, int]]:
    """A rollout's result: the credited card points with the match bonus, and the tricks."""
    (first, second), (bonus, other) = credit_card_play(
        taken, won, declaring_team, contract, ruleset
    )
    return (first + bonus, second + other), (won[0], won[1])


def _random_out(
    held: list[int],
    contract: Contract,
    leader: int,
    draw: Callable[[], int],
    ruleset: RuleSet,
    points: tuple[int, int],
    tricks: tuple[int, int],
    declaring_team: int,
) -> tuple[tuple[int, int], tuple[int, int]]:
    """:func:`play_out` with random cards from a trick boundary, R5.5 and R6.1-R6.2 inlined.

    Each card is ``cards[draw() * len(cards) >> 32]`` of the legal cards in ascending order
    (``draw`` gives 32-bit random ints), exactly as the general loop picks them; a forced card
    takes no draw.
    """
    table = contract.card_points(old_undenufe=ruleset.old_undenufe)
    taken = [points[0], points[1]]
    won = [tricks[0], tricks[1]]
    strict = ruleset.undertrump_only_trumps is UndertrumpRule.ONLY_IF_NO_HIGHER
    leader = _tricks(held, contract, leader, draw, table, strict, taken, won)
    # The last trick: every card is forced.
    a = held[leader].bit_length() - 1
    b = held[(leader + 1) & 3].bit_length() - 1
    c = held[(leader + 2) & 3].bit_length() - 1
    d = held[(leader + 3) & 3].bit_length() - 1
    team = (leader + trick_winner((a, b, c, d), contract)) & 1
    taken[team] += table[a] + table[b] + table[c] + table[d] + 5
    won[team] += 1
    return _credit(taken, won, declaring_team, contract, ruleset)


def _tricks(
    held: list[int],
    contract: Contract,
    leader: int,
    draw: Callable[[], int],
    table: tuple[int, ...],
    strict: bool,
    taken: list[int],
    won: list[int],
) -> int:
    """All tricks but the last at random; return the last trick's leader.

    The hottest loop of the library: it inlines two kernels, which
    ``tests/test_kernels.py::test_random_loop_copies_agree_with_the_kernels`` checks card by
    card. Calling either kernel instead costs the fast path 14% more instructions a hand
    (callgrind) and about as much of its speed.
    """
    low, middle, high, suit_of, bits, one_suit = _LOW, _MIDDLE, _HIGH, _SUIT_OF, _BITS, _ONE_SUIT
    win_keys, above, trumps = contract.win_keys, contract.above, contract.trump_mask
    plain, lone_buur = ~trumps, contract.buur
    for _ in range(8 - won[0] - won[1]):
        hand = held[leader]
        cards = low[hand & 0xFFF] + middle[(hand >> 12) & 0xFFF] + high[hand >> 24]
        card = cards[draw() * len(cards) >> 32]
        held[leader] = hand ^ bits[card]
        led = suit_of[card]
        keys = win_keys[card // 9]
        top = keys[card]
        winner = leader
        trick_points = table[card]
        over = above[card]  # the trumps that would beat the trick so far
        for seat in _FOLLOWERS[leader]:
            hand = held[seat]
            # Inlined copy of play.legal_mask (R5.5), with the trumps above the trick kept as
            # the trick grows; cross-checked in tests/test_kernels.py.
            follow = hand & led
            if not trumps:
                legal = follow or hand
            elif led == trumps:
                legal = hand if follow == lone_buur or not follow else follow
            else:
                beat = hand & trumps & over
                if follow:
                    legal = follow | beat
                elif not hand & plain:
                    legal = beat if strict and beat else hand
                else:
                    legal = (hand & plain) | beat
            if legal & (legal - 1):
                cards = one_suit.get(legal) or (
                    low[legal & 0xFFF] + middle[(legal >> 12) & 0xFFF] + high[legal >> 24]
                )
                card = cards[draw() * len(cards) >> 32]
            else:  # a forced card takes no draw
                card = legal.bit_length() - 1
            held[seat] = hand ^ bits[card]
            # Inlined copy of play.trick_winner (R6.1-R6.2), one card at a time;
            # cross-checked in tests/test_kernels.py. Only a new top card changes which trumps
            # would beat the trick.
            if keys[card] > top:
                top, winner, over = keys[card], seat, above[card]
            trick_points += table[card]
        leader = winner
        taken[winner & 1] += trick_points
        won[winner & 1] += 1
    return leader


def random_hand(
    contract: Contract, rng: random.Random, ruleset: RuleSet = SCHIEBER
) -> tuple[tuple[int, int], tuple[int, int]]:
    """Deal at random and play a whole hand with random legal cards: the leanest rollout.

    >>> import random
    >>> from jass import Contract, Suit
    >>> sum(random_hand(Contract.trump(Suit.HEARTS), random.Random(5))[0]) >= 157
    True
    """
    data = rng.randbytes(288)
    if core is not None:
        taken0, taken1, won0, won1 = core.random_hand(rule_data(contract, ruleset), data)
        return _credit([taken0, taken1], [won0, won1], 0, contract, ruleset)
    numbers = _DEAL_AND_DRAWS.unpack(data)
    # The deck sorted by 36 random keys (a tie, with probability below 10**-6, keeps the
    # natural order).
    deck = sorted(_DECK, key=numbers.__getitem__)
    bit = _BITS.__getitem__
    first, second, third = (
        sum(map(bit, deck[0:9])),
        sum(map(bit, deck[9:18])),
        sum(map(bit, deck[18:27])),
    )
    hands = [first, second, third, _ALL ^ first ^ second ^ third]
    draw = iter(numbers[36:]).__next__
    return _random_out(hands, contract, 0, draw, ruleset, (0, 0), (0, 0), 0)
