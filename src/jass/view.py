"""What one seat may know: :class:`PlayerView`, and the public inference of who holds what.

A view holds the seat's own hand and everything that happened in the open: the contract and
who chose it, the shoves, every card played and by whom, the points each seat declared in
Weis, the Weis shown after trick 1, the Stöck, and the scores. It never holds another seat's
hidden cards. From the cards played it also deduces which cards each seat cannot hold
(:attr:`PlayerView.excluded`): a seat that did not follow suit is void in it (unless it
trumped, which it may do instead of following), a seat that did not follow a trump lead
holds no trump but perhaps the Buur, and a seat that undertrumped holds only trumps.

>>> import jass
>>> g = jass.Game.new(seed=3).deal().choose("obenabe")
>>> v = g.view(g.to_move)
>>> v.hand == g.hands[g.to_move], v.legal_moves() == g.legal_moves()
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

import attrs

from jass.actions import PLAY_ACTIONS, Choose, DeclareWeis, Play, Shove, Thank
from jass.cards import SUIT_MASKS, Card, CardSet, Rank, Suit
from jass.contracts import Contract
from jass.hand import Phase, Trick
from jass.play import legal_cards
from jass.rules import FirstHandRule, RuleSet, UndertrumpRule
from jass.scoring import GameResult, HandScore
from jass.seats import Seat, Team
from jass.weis import Weis, find_weis

if TYPE_CHECKING:
    from jass.readout import GameReadout

__all__ = ["PlayerView", "excluded_cards"]

_SEATS: Final = tuple(Seat)
_FULL: Final = (1 << 36) - 1


@attrs.frozen
class PlayerView:
    """Everything one seat may know, and nothing more; build it with :meth:`jass.Game.view`.

    Attributes:
        seat: whose view it is.
        ruleset: the rules in force.
        phase: the game's phase.
        to_move: the seat that must act, or ``None``.
        hand: the seat's own cards, as they are now.
        hand_number: the number of the current hand, from 0, or ``None`` before the first deal.
        dealer: the dealer of the current hand.
        contract: the contract, once named.
        chooser: the seat that named it.
        shoves: how often the choice was shoved.
        plays: every card played in this hand, with the seat that played it, in order.
        trick: the cards of the current trick, leader first.
        trick_leader: the seat that leads the current trick.
        tricks: the completed tricks of this hand.
        declared_points: the points of the Weis each seat declared (``None`` until it declares).
        own_weis: the Weis this seat declared, or ``None``.
        shown_weis: the winning team's Weis, shown after trick 1, with the seat holding each.
        weis_winner: the seat with the best Weis, known after trick 1, or ``None``.
        stoeck: the seat whose Stöck were scored in this hand, or ``None``.
        scores: the running totals by team.
        hand_points: unmultiplied card points taken in this hand, by team.
        hand_results: the scores of the completed hands.
        result: how the game ended, or ``None``.
        excluded: for each seat, the cards it is known not to hold (public inference).
        may_declare: whether this seat may still declare Weis by hand now.
        may_shove: whether this seat may shove now.
        may_thank: whether thanking is part of this game's end.

    >>> import jass
    >>> g = jass.Game.new(seed=5).deal()
    >>> v = g.view(jass.Seat(0))
    >>> v.seat, v.hand == g.hands[0], v.contract
    (<Seat.S0: 0>, True, None)
    """

    seat: Seat
    ruleset: RuleSet
    phase: Phase
    to_move: Seat | None
    hand: CardSet
    hand_number: int | None
    dealer: Seat | None
    contract: Contract | None
    chooser: Seat | None
    shoves: int
    plays: tuple[tuple[Seat, Card], ...]
    trick: tuple[Card, ...]
    trick_leader: Seat | None
    tricks: tuple[Trick, ...]
    declared_points: tuple[tuple[int, ...] | None, ...]
    own_weis: tuple[Weis, ...] | None
    shown_weis: tuple[tuple[Seat, Weis], ...]
    weis_winner: Seat | None
    stoeck: Seat | None
    scores: tuple[int, int]
    hand_points: tuple[int, int]
    hand_results: tuple[HandScore, ...]
    result: GameResult | None
    excluded: tuple[CardSet, CardSet, CardSet, CardSet]
    may_declare: bool
    may_shove: bool
    may_thank: bool

    @classmethod
    def of(cls, game: GameReadout, seat: Seat | int) -> PlayerView:
        """The view of ``seat`` on ``game`` (what :meth:`jass.Game.view` returns).

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal()
        >>> PlayerView.of(g, 2) == g.view(jass.Seat(2))
        True
        """
        seat = Seat(seat)
        hand = game.hand
        plays = game.plays
        declared = game.declared_weis
        shown: list[tuple[Seat, Weis]] = []
        result = game.weis_result
        if result is not None and result.winner is not None:
            for holder in result.winner.team.seats:
                shown.extend((holder, weis) for weis in result.declared[holder])
        contract = game.contract
        excluded = (
            excluded_cards(plays, contract, game.ruleset)
            if contract is not None
            else (CardSet(0),) * 4
        )
        mover = game.to_move
        return cls(
            seat=seat,
            ruleset=game.ruleset,
            phase=game.phase,
            to_move=mover,
            hand=game.hands[seat],
            hand_number=hand.number if hand is not None else None,
            dealer=hand.dealer if hand is not None else None,
            contract=contract,
            chooser=hand.chooser if hand is not None else None,
            shoves=hand.shoves if hand is not None else 0,
            plays=plays,
            trick=game.trick,
            trick_leader=game.trick_leader,
            tricks=game.tricks,
            declared_points=tuple(
                None if weis is None else tuple(w.points for w in weis) for weis in declared
            ),
            own_weis=declared[seat],
            shown_weis=tuple(shown),
            weis_winner=result.winner if result is not None else None,
            stoeck=game.stoeck,
            scores=game.scores,
            hand_points=game.hand_points,
            hand_results=game.hand_results,
            result=game.result,
            excluded=(excluded[0], excluded[1], excluded[2], excluded[3]),
            may_declare=mover == seat and game._may_declare(),
            may_shove=mover == seat and game.phase is Phase.CHOOSE and game._can_shove(),
            may_thank=game._thank_allowed(),
        )

    @property
    def team(self) -> Team:
        """The seat's team.

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(jass.Seat(3)).team
        <Team.T1: 1>
        """
        return self.seat.team

    @property
    def played(self) -> CardSet:
        """Every card played in this hand.

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(jass.Seat(0)).played
        CardSet.parse('')
        """
        bits = 0
        for _, card in self.plays:
            bits |= 1 << card
        return CardSet(bits)

    def unknown(self) -> CardSet:
        """The cards the other three seats hold between them.

        >>> import jass
        >>> len(jass.Game.new(seed=5).deal().view(jass.Seat(0)).unknown())
        27
        """
        if self.hand_number is None:
            return CardSet(0)
        return ~(self.hand | self.played)

    def cards_left(self, seat: Seat | int) -> int:
        """How many cards ``seat`` still holds.

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(jass.Seat(0)).cards_left(1)
        9
        """
        if self.hand_number is None:
            return 0
        return 9 - sum(1 for player, _ in self.plays if player == seat)

    def known_cards(self, seat: Seat | int) -> CardSet:
        """The unplayed cards ``seat`` is known to hold.

        They are its own hand (for this seat), its shown Weis, and in the first hand under
        ``first_hand_rule=MARKER_CARD`` the marker card of the forehand.

        >>> import jass
        >>> v = jass.Game.new(seed=5).deal().view(jass.Seat(0))
        >>> v.known_cards(0) == v.hand, v.known_cards(1)
        (True, CardSet.parse(''))
        """
        seat = Seat(seat)
        if seat == self.seat:
            return self.hand
        bits = 0
        for holder, weis in self.shown_weis:
            if holder == seat:
                bits |= weis.cards
        suit = self.contract.trump_suit if self.contract is not None else None
        if self.stoeck == seat and suit is not None:
            # Stöck shown to finish (R9.4) may still be in the hand: trump King and Queen.
            bits |= 1 << Card.of(suit, Rank.KING) | 1 << Card.of(suit, Rank.QUEEN)
        if (
            self.hand_number == 0
            and self.ruleset.first_hand_rule is FirstHandRule.MARKER_CARD
            and self.dealer is not None
            and seat == self.dealer.next
        ):
            bits |= 1 << self.ruleset.first_hand_marker  # its holder leads the first hand
        return CardSet(bits) - self.played

    def voids(self, seat: Seat | int) -> tuple[Suit, ...]:
        """The suits ``seat`` is known to hold no card of (from :attr:`excluded`).

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(jass.Seat(0)).voids(1)
        ()
        """
        excluded = self.excluded[Seat(seat)] | self.played
        return tuple(suit for suit in Suit if excluded & SUIT_MASKS[suit] == SUIT_MASKS[suit])

    def legal_moves(self) -> CardSet:
        """The cards this seat may play now; empty if it is not its turn to play.

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal().choose("hearts")
        >>> g.view(g.to_move).legal_moves() == g.legal_moves()
        True
        """
        if self.phase is not Phase.PLAY or self.to_move != self.seat or self.contract is None:
            return CardSet(0)
        return legal_cards(self.hand, self.trick, self.contract, self.ruleset)

    def legal_actions(self) -> tuple[Play | Choose | Shove | DeclareWeis | Thank, ...]:
        """The actions this seat may take now (those of :meth:`jass.Game.legal_actions`).

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal()
        >>> g.view(g.to_move).legal_actions() == g.legal_actions()
        True
        """
        if self.to_move != self.seat:
            return ()
        actions: list[Play | Choose | Shove | DeclareWeis | Thank]
        if self.phase is Phase.PLAY:
            actions = [PLAY_ACTIONS[c] for c in self.legal_moves()]
            if self.may_declare:
                found = find_weis(self.hand, self.ruleset)
                for mask in range(1, 1 << len(found)):
                    chosen = tuple(w for i, w in enumerate(found) if mask >> i & 1)
                    actions.append(DeclareWeis(chosen))
        elif self.phase is Phase.CHOOSE:
            allowed = self.ruleset.contracts
            actions = [Choose(c) for c in Contract.all() if c in allowed]
            if self.may_shove:
                actions.append(Shove())
        else:
            return ()
        if self.may_thank:
            actions.append(Thank(self.seat.team))
        return tuple(actions)


def excluded_cards(
    plays: Sequence[tuple[Seat, Card]], contract: Contract, ruleset: RuleSet
) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    """For each seat, the cards the rules show it cannot hold, from the cards played.

    Each card played was legal (RULES.md §5), which tells:

    - a card of neither the led suit nor trumps: the seat had no card of the led suit;
    - no trump on a trump lead: the seat's only trump, if any, is the Buur;
    - a trump under the best trump of the trick on a plain lead: the seat held only trumps
      (and under ``ONLY_IF_NO_HIGHER``, no trump that would have beaten it).

    >>> from jass import Card, Contract, Seat, rules
    >>> plays = [(Seat(0), Card.parse("AH")), (Seat(1), Card.parse("6S"))]
    >>> excluded_cards(plays, Contract.OBENABE, rules.SCHIEBER)[1].suit(Suit.HEARTS)
    CardSet.parse('6H 7H 8H 9H 10H JH QH KH AH')
    """
    excluded = [0, 0, 0, 0]
    trumps = contract.trump_mask
    above = contract.above
    for start in range(0, len(plays), 4):
        trick = plays[start : start + 4]
        led_mask = SUIT_MASKS[trick[0][1] // 9]
        top = _FULL  # the trumps that beat every trump in the trick so far
        for seat, card in trick[1:]:
            bit = 1 << card
            if not bit & led_mask:
                if not bit & trumps:
                    # Neither followed nor trumped: no card of the led suit (or, on a trump
                    # lead, no trump but the Buur).
                    excluded[seat] |= led_mask & ~contract.buur if led_mask == trumps else led_mask
                elif led_mask != trumps and top != _FULL and not bit & top:
                    # Undertrumped on a plain lead: the hand held trumps only.
                    excluded[seat] |= _FULL & ~trumps
                    if ruleset.undertrump_only_trumps is UndertrumpRule.ONLY_IF_NO_HIGHER:
                        excluded[seat] |= top
            if bit & trumps:
                top &= above[card]
    return (
        CardSet(excluded[0]),
        CardSet(excluded[1]),
        CardSet(excluded[2]),
        CardSet(excluded[3]),
    )
