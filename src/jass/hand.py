"""The records of one hand: :class:`Phase`, :class:`Hand` and :class:`Trick`.

>>> import jass
>>> g = jass.Game.new(seed=3).deal()
>>> g.phase, g.hand.number, g.hand.forehand == g.hand.dealer.next
(<Phase.CHOOSE: 'choose'>, 0, True)
"""

from __future__ import annotations

import enum
from typing import Final

import attrs

from jass.cards import Card
from jass.contracts import Contract
from jass.dealing import DealtHands
from jass.rules import EndMode, RuleSet
from jass.scoring import GameResult, HandScore
from jass.seats import Seat, Team

__all__ = ["Hand", "HandContext", "Phase", "Trick"]

_SEATS: Final = tuple(Seat)
_TEAMS: Final = tuple(Team)


class Phase(enum.Enum):
    """Where a game stands.

    >>> [p.name for p in Phase]
    ['DEAL', 'CHOOSE', 'PLAY', 'OVER']
    """

    DEAL = "deal"  # the next hand must be dealt: a chance move, see Game.deal
    CHOOSE = "choose"  # the forehand, or after a shove the partner, names a contract
    PLAY = "play"
    OVER = "over"


@attrs.frozen
class Hand:
    """What is fixed for one hand once dealt: who dealt, the deal, and the contract.

    Attributes:
        number: the hand's number in the game, from 0.
        dealer: the seat that dealt.
        dealt: the nine cards each seat received, by seat.
        contract: the contract, once named.
        chooser: the seat that named it.
        shoves: how often the choice was shoved (at most 1 unless ``allow_shove_back``).
        scores_before: the running totals when the hand began.

    >>> import jass
    >>> g = jass.Game.new(seed=3).deal()
    >>> g.hand.number, g.hand.forehand == g.hand.dealer.next, len(g.hand.dealt[0])
    (0, True, 9)
    """

    number: int
    dealer: Seat
    dealt: DealtHands
    contract: Contract | None = None
    chooser: Seat | None = None
    shoves: int = 0
    scores_before: tuple[int, int] = (0, 0)

    @property
    def forehand(self) -> Seat:
        """The seat to the dealer's right, who chooses first and leads trick 1.

        >>> import jass
        >>> h = jass.Game.new(seed=3).deal().hand
        >>> h.forehand == h.dealer.next
        True
        """
        return _SEATS[(self.dealer + 1) & 3]

    @property
    def declaring_team(self) -> Team:
        """The team that names the contract: always the forehand's (RULES.md R4.4).

        >>> import jass
        >>> h = jass.Game.new(seed=3).deal().hand
        >>> h.declaring_team == h.forehand.team
        True
        """
        return _TEAMS[(self.dealer + 1) & 1]


@attrs.frozen
class Trick:
    """A completed trick.

    Attributes:
        leader: the seat that led.
        cards: the four cards, in playing order from the leader.
        winner: the seat that won it.
        points: its unmultiplied card points, with the last trick's 5.

    >>> import jass
    >>> g = jass.Game.new(seed=1).deal().choose(jass.Contract.OBENABE)
    >>> for _ in range(4):
    ...     g = g.play(min(g.legal_moves()))
    >>> t = g.tricks[0]
    >>> t.leader == g.hand.forehand, len(t.cards), g.trick_leader == t.winner
    (True, 4, True)
    """

    leader: Seat
    cards: tuple[Card, Card, Card, Card]
    winner: Seat
    points: int


class HandContext:
    """The part of a game state that changes a few times per hand at most (internal).

    States share it, so that playing a card copies a handful of references only.

    >>> import jass
    >>> jass.Game.new(seed=3).deal()._ctx.hand.number
    0
    """

    __slots__ = (
        "auto_target",
        "contract",
        "hand",
        "multiplier",
        "outcome",
        "results",
        "rules",
        "seed",
        "table",
    )

    def __init__(
        self,
        rules: RuleSet,
        seed: int,
        hand: Hand | None,
        results: tuple[HandScore, ...],
        outcome: GameResult | None,
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.hand = hand
        self.results = results
        self.outcome = outcome
        contract = hand.contract if hand is not None else None
        # A placeholder contract before one is named: read only in the PLAY phase.
        self.contract = contract if contract is not None else Contract.OBENABE
        self.table = self.contract.card_points(old_undenufe=rules.old_undenufe)
        self.multiplier = rules.multiplier(self.contract)
        # The target that ends the game at a scoring event, or None (R9.3).
        self.auto_target = (
            rules.target if rules.end_mode is EndMode.AUTO and rules.hands is None else None
        )

    def with_hand(self, hand: Hand) -> HandContext:
        """The same context for another :class:`Hand` record."""
        return HandContext(self.rules, self.seed, hand, self.results, self.outcome)

    def key(self) -> tuple[object, ...]:
        """What equality and hashing of a state compare (the rest is derived)."""
        return (self.rules, self.seed, self.hand, self.results, self.outcome)
