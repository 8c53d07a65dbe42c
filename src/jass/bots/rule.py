"""RuleBot: a solid heuristic player.

It names the contract where its hand is strongest and shoves a weak hand; it draws trumps
while it holds the best one; it leads its sure winners (*Bock*) and otherwise a low card;
it smears points (*schmieren*) onto a trick its partner holds safely; it takes a trick with
its cheapest winning card when the trick is worth it; it throws its least valuable card
otherwise; it declares every Weis; and it thanks as soon as its team has reached the target.

>>> import jass
>>> from jass.bots import RandomBot
>>> game = jass.Game.new(jass.rules.SCHIEBER_1000, seed=5)
>>> bots = [RuleBot(), RandomBot(seed=1), RuleBot(), RandomBot(seed=2)]
>>> jass.bots.play_game(game, bots).is_over
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from jass.bots.base import _DecidingBot
from jass.core.cards import CARDS, SUIT_MASKS
from jass.core.contracts import Contract, ContractKind
from jass.core.play import trick_winner
from jass.engine.actions import PLAY_ACTIONS, Action, Choose, DeclareWeis, Shove
from jass.engine.view import PlayerView

__all__ = ["RuleBot", "contract_rating", "heuristic_card", "trumps_suit"]

_FULL: Final = (1 << 36) - 1


def contract_rating(hand: int, contract: Contract) -> float:
    """How promising ``hand`` (an int mask or a card set) is for ``contract``: about its points.

    >>> from jass import CardSet, Contract, Suit
    >>> strong = CardSet.parse("JH 9H AH KH 10H 6S AD AC 7C")
    >>> contract_rating(strong, Contract.trump(Suit.HEARTS)) > contract_rating(
    ...     strong, Contract.OBENABE)
    True
    """
    hand = int(hand)  # a CardSet is a set: its shifts raise, so work on the plain bitmask
    table = contract.card_points()
    trumps = contract.trump_mask
    rating = 0.0
    for suit in range(4):
        mask = SUIT_MASKS[suit]
        held = hand & mask
        if not held:
            continue
        order = [9 * suit + rank for rank in contract.rank_order(CARDS[9 * suit].suit)]
        length = held.bit_count()
        if mask == trumps:
            # Trumps: the top ones win tricks, length keeps control.
            for position, card in enumerate(order):
                if held >> card & 1:
                    rating += table[card] + max(0, 14 - 3 * position)
            rating += 8 * max(0, length - 2)
            continue
        # Plain suits: count the sure winners from the top down.
        for card in order:
            if not held >> card & 1:
                break
            rating += table[card] + 10
    if contract.kind in (ContractKind.OBENABE, ContractKind.UNDENUFE):
        rating *= 0.9
    return rating


def heuristic_card(
    hand: int,
    legal: int,
    trick: Sequence[int],
    contract: Contract,
    unplayed: int,
) -> int:
    """The card a sensible player would play (see the module's description).

    ``unplayed`` is every card not yet played, this hand and the trick's cards excepted. The
    masks may be ints or :class:`~jass.CardSet` values; it is usable as a rollout policy.

    >>> from jass import CardSet, Card, Contract
    >>> hand = CardSet.parse("AS 6S 7H")
    >>> Card(heuristic_card(hand, hand, [], Contract.OBENABE, ~hand & (1 << 36) - 1))
    Card.parse('AS')
    """
    return _heuristic_card(int(hand), int(legal), trick, contract, int(unplayed))


def _heuristic_card(
    hand: int, legal: int, trick: Sequence[int], contract: Contract, unplayed: int
) -> int:
    """:func:`heuristic_card` on plain int masks, for rollouts (no conversion)."""
    table = contract.card_points()
    cards = [c for c in range(36) if legal >> c & 1]
    if len(cards) == 1:
        return cards[0]
    others = unplayed & ~hand
    trumps = contract.trump_mask
    if not trick:
        # Draw trumps with the best one, else lead a sure winner (Bock), else a low card.
        held_trumps = hand & trumps & legal
        if held_trumps and others & trumps:
            top = max(
                (c for c in cards if (1 << c) & held_trumps),
                key=contract.win_keys[trumps_suit(contract)].__getitem__,
            )
            if _is_boss(top, others, contract):
                return top
        for card in sorted(cards, key=lambda c: -table[c]):
            if _is_boss(card, others, contract):
                return card
        return min(cards, key=lambda c: (table[c], contract.win_keys[c // 9][c]))
    led = trick[0] // 9
    keys = contract.win_keys[led]
    best = trick_winner(trick, contract)
    winner_card = trick[best]
    partner_winning = (len(trick) - best) % 2 == 0
    points = sum(table[c] for c in trick)
    last = len(trick) == 3
    if partner_winning and (last or _is_boss(winner_card, others, contract, led)):
        # Schmieren: give the partner the most points without spending a trump for nothing.
        return max(cards, key=lambda c: (table[c] - (5 if (1 << c) & trumps else 0), -keys[c]))
    winning = [c for c in cards if keys[c] > keys[winner_card]]
    if winning and (points >= 10 or last or not partner_winning):
        cheapest = min(winning, key=lambda c: (keys[c], table[c]))
        if last or points + table[cheapest] >= 10 or _is_boss(cheapest, others, contract, led):
            return cheapest
    return min(cards, key=lambda c: (table[c], keys[c]))


def trumps_suit(contract: Contract) -> int:
    """The index of the trump suit (0 without trumps: only used where trumps exist).

    >>> from jass import Contract, Suit
    >>> trumps_suit(Contract.trump(Suit.CLUBS))
    3
    """
    return int(contract.trump_suit) if contract.trump_suit is not None else 0


def _is_boss(card: int, others: int, contract: Contract, led: int | None = None) -> bool:
    """Whether no card left in other hands beats ``card`` in a trick led in ``led``."""
    suit = card // 9 if led is None else led
    keys = contract.win_keys[suit]
    mine = keys[card]
    rivals = others & (SUIT_MASKS[suit] | contract.trump_mask)
    return all(keys[c] <= mine for c in range(36) if rivals >> c & 1)


class RuleBot(_DecidingBot):
    """A heuristic player: see the module's description.

    >>> import jass
    >>> g = jass.Game.new(seed=2).deal()
    >>> RuleBot().choose_action(g.view(g.to_move)) in g.legal_actions()
    True
    """

    def __init__(self, seed: int | None = None, *, shove_below: float = 60.0) -> None:
        # ``seed`` is accepted so that every bot class is a factory of seeded bots (see
        # :mod:`jass.matches`); RuleBot plays deterministically and does not use it.
        self.seed = seed
        self.shove_below = shove_below

    def _declare(self, view: PlayerView, options: Sequence[DeclareWeis]) -> Action:  # noqa: ARG002
        return max(options, key=lambda a: sum(w.points for w in a.weis))  # the most points

    def _play(self, view: PlayerView) -> Action:
        contract = view.contract
        assert contract is not None  # noqa: S101
        unplayed = _FULL & ~int(view.played)
        card = heuristic_card(
            int(view.hand), int(view.legal_moves()), view.trick, contract, unplayed
        )
        return PLAY_ACTIONS[card]

    def _choose(self, view: PlayerView, actions: Sequence[Action]) -> Action:
        choices = [a for a in actions if isinstance(a, Choose)]
        hand = int(view.hand)
        best = max(choices, key=lambda a: contract_rating(hand, a.contract))
        if any(isinstance(a, Shove) for a in actions) and (
            contract_rating(hand, best.contract) < self.shove_below
        ):
            return Shove()
        return best
