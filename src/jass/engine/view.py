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

from collections.abc import Callable, Iterable
from typing import Any, Final, Protocol

from jass._budgets import is_int
from jass.core.cards import SUIT_MASKS, Card, CardSet, Suit, as_card
from jass.core.contracts import Contract
from jass.core.scoring import GameResult, HandScore
from jass.core.seats import Seat, Team
from jass.core.weis import Weis
from jass.engine._public import (
    PLAY_ORDER,
    PublicHand,
    Round,
    choose_refusal,
    declare_refusal,
    legal_actions,
    legal_now,
    play_refusal,
    shove_refusal,
    thank_refusal,
    weis_choice,
)
from jass.engine.actions import Action, Choose, DeclareWeis, Play, Shove, Thank
from jass.engine.hand import GameSetup, Phase, Trick, completed_tricks
from jass.engine.inference import excluded_cards, known_holdings
from jass.errors import InvalidInputError, JassError
from jass.rules import RuleSet

__all__ = ["PlayerView", "excluded_cards"]

_SEATS: Final = tuple(Seat)
_EMPTY: Final = CardSet(0)
_NO_CARDS: Final = (_EMPTY, _EMPTY, _EMPTY, _EMPTY)
_PLAY: Final = Phase.PLAY
_new: Final = object.__new__


class _Viewable(Protocol):
    """Whatever has views by seat: a :class:`jass.Game` (typed here without importing it).

    >>> import jass
    >>> isinstance(jass.Game.new(seed=1).view(0), PlayerView)
    True
    """

    def view(self, seat: Seat | int) -> PlayerView: ...


class PlayerView:
    """Everything one seat may know, and nothing more; get it with :meth:`jass.Game.view`.

    A view is the game's public record (:class:`~jass.engine._public.PublicHand` and the
    trick's round, shared with the game by reference), the phase, the seat to move, the
    current trick and the scores, plus the seat's own hand and own Weis. It holds no other
    seat's hidden cards, not even in its pickle, so it may be sent to a bot in another
    process as it is. ``legal_moves``, ``legal_actions`` and the ``can_*`` predicates come
    from its own data, through the same functions as :class:`~jass.Game`. Views are
    immutable; equality, hashing and pickling are structural, by what the seat may know.

    >>> import jass
    >>> g = jass.Game.new(seed=5).deal()
    >>> v = g.view(jass.Seat(0))
    >>> v.seat, v.hand == g.hands[0], v.contract
    (<Seat.S0: 0>, True, None)
    """

    __slots__ = (
        "_excluded",
        "_legal",
        "_own_weis",
        "_pub",
        "_round",
        "_tricks",
        "hand",
        "phase",
        "scores",
        "seat",
        "to_move",
        "trick",
    )

    #: The viewing seat.
    seat: Seat
    #: The seat's own cards, as they are now.
    hand: CardSet
    #: The game's phase.
    phase: Phase
    #: The seat that must act, or ``None``.
    to_move: Seat | None
    #: The cards of the current trick, leader first.
    trick: tuple[Card, ...]
    #: The running totals by team.
    scores: tuple[int, int]
    _pub: PublicHand
    _round: Round
    _own_weis: tuple[Weis, ...] | None
    _legal: CardSet | None  # legal_moves(), when the game had them (not part of the value)
    _tricks: tuple[Trick, ...]
    _excluded: tuple[CardSet, CardSet, CardSet, CardSet]

    def __new__(cls, game: _Viewable, seat: Seat | int) -> PlayerView:
        """The view of ``seat`` on ``game``: the same as ``game.view(seat)``.

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal()
        >>> PlayerView(g, 2) == g.view(jass.Seat(2))
        True
        """
        return game.view(seat)

    @classmethod
    def _of(
        cls,
        pub: PublicHand,
        round_: Round,
        phase: Phase,
        to_move: int,
        trick: tuple[Card, ...],
        scores: tuple[int, int],
        seat: Seat | int,
        hand: CardSet,
        own_weis: tuple[Weis, ...] | None,
        legal: CardSet | None = None,
    ) -> PlayerView:
        """A view from its parts (what :meth:`jass.Game.view` calls; ``legal``: its cache)."""
        if seat.__class__ is not Seat:
            if not is_int(seat) or seat not in range(4):
                raise InvalidInputError(f"seat must be a Seat (0-3), got {seat!r}")
            seat = _SEATS[seat]
        view = _new(_Draft)  # plain slot stores, then a PlayerView (as jass.Game is built)
        view._pub = pub
        view._round = round_
        view.phase = phase
        view.to_move = _SEATS[to_move] if to_move >= 0 else None
        view.trick = trick
        view.scores = scores
        view.seat = seat
        view.hand = hand
        view._own_weis = own_weis
        view._legal = legal
        view.__class__ = cls  # type: ignore[assignment]
        return view

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a PlayerView is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a PlayerView is immutable: cannot delete {name!r}")

    # --- what the seat may know: plain accessors (checked in tests/test_docstrings.py) ----

    @property
    def ruleset(self) -> RuleSet:
        """The rules in force."""
        return self._pub.rules

    @property
    def setup(self) -> GameSetup:
        """Where the game started: the scores, a given first dealer, the hands played before."""
        return self._pub.setup

    @property
    def hand_number(self) -> int | None:
        """The number of the current hand, from 0, or ``None`` before the first deal."""
        return self._pub.number

    @property
    def dealer(self) -> Seat | None:
        """The dealer of the current hand, or ``None`` before the first deal."""
        return self._pub.dealer

    @property
    def contract(self) -> Contract | None:
        """The contract, once named."""
        return self._pub.contract

    @property
    def chooser(self) -> Seat | None:
        """The seat that named the contract, once named."""
        return self._pub.chooser

    @property
    def shoves(self) -> int:
        """How often the choice was shoved in this hand."""
        return self._pub.shoves

    @property
    def trick_leader(self) -> Seat | None:
        """The seat that leads the current trick, or ``None`` before the play."""
        leader = self._round.leader
        return _SEATS[leader] if leader >= 0 else None

    @property
    def declared_points(self) -> tuple[tuple[int, ...] | None, ...]:
        """The points of the Weis each seat declared, by seat (``None`` until it declares)."""
        return self._pub.declared

    @property
    def own_weis(self) -> tuple[Weis, ...] | None:
        """The Weis this seat declared, or ``None`` before it declares."""
        return self._own_weis

    @property
    def shown_weis(self) -> tuple[tuple[Seat, Weis], ...]:
        """The winning team's Weis, shown after trick 1, with the seat holding each."""
        return self._pub.shown

    @property
    def weis_winner(self) -> Seat | None:
        """The seat with the best Weis, known after trick 1, or ``None``."""
        return self._pub.weis_winner

    @property
    def stoeck(self) -> Seat | None:
        """The seat whose Stöck were scored (or shown) in this hand, or ``None``."""
        return self._pub.stoeck

    @property
    def hand_points(self) -> tuple[int, int]:
        """Unmultiplied card points taken in this hand, by team."""
        return self._round.points

    @property
    def tricks_won(self) -> tuple[int, int]:
        """Tricks taken in this hand, by team."""
        return self._round.tricks_won

    @property
    def hand_results(self) -> tuple[HandScore, ...]:
        """The scores of the completed hands."""
        return self._pub.results

    @property
    def result(self) -> GameResult | None:
        """How the game ended, or ``None``."""
        return self._pub.outcome

    @property
    def unchecked_plays(self) -> frozenset[int]:
        """The indexes into :attr:`plays` of cards played without the rules' check."""
        return self._pub.unchecked

    @property
    def team(self) -> Team:
        """The seat's team."""
        return self.seat.team

    # --- what the seat may know: worked out ---------------------------------------------

    @property
    def plays(self) -> tuple[tuple[Seat, Card], ...]:
        """Every card played in this hand, with the seat that played it, in order.

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal().choose("obenabe")
        >>> g = g.play(g.legal_moves().cards()[0])
        >>> g.view(2).plays == g.plays == ((g.trick_leader, g.trick[0]),)
        True
        """
        trick = self.trick
        done = self._round.plays
        if not trick:
            return done
        leader = self._round.leader
        return done + tuple(zip(PLAY_ORDER[leader], trick, strict=False))  # the trick is shorter

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks of this hand.

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal().choose("obenabe")
        >>> for _ in range(4):
        ...     g = g.play(g.legal_moves().cards()[0])
        >>> g.view(1).tricks == g.tricks and len(g.tricks) == 1
        True
        """
        try:
            return self._tricks
        except AttributeError:
            pass
        pub = self._pub
        contract = pub.contract
        done = self._round.plays
        tricks = completed_tricks(done, contract, pub.data.points) if contract and done else ()
        _set_tricks(self, tricks)
        return tricks

    @property
    def excluded(self) -> tuple[CardSet, CardSet, CardSet, CardSet]:
        """For each seat, the cards it is known not to hold (public inference).

        See :mod:`jass.engine.inference` for the rules it follows.

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal().choose("obenabe")
        >>> for _ in range(4):
        ...     g = g.play(g.legal_moves().cards()[0])
        >>> v = g.view(0)
        >>> all(not v.excluded[seat] & g.hands[seat] for seat in range(4))
        True
        """
        try:
            return self._excluded
        except AttributeError:
            pass
        pub = self._pub
        contract = pub.contract
        excluded = (
            excluded_cards(self.plays, contract, pub.rules, unchecked=pub.unchecked)
            if contract is not None
            else _NO_CARDS
        )
        _set_excluded(self, excluded)
        return excluded

    @property
    def played(self) -> CardSet:
        """Every card played in this hand.

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal().choose("obenabe")
        >>> g = g.play(g.legal_moves().cards()[0])
        >>> g.view(3).played == jass.CardSet(g.trick)
        True
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
        if self._pub.number is None:
            return _EMPTY
        return ~(self.hand | self.played)

    def cards_left(self, seat: Seat | int) -> int:
        """How many cards ``seat`` still holds.

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(jass.Seat(0)).cards_left(1)
        9
        """
        if self._pub.number is None:
            return 0
        return 9 - sum(1 for player, _ in self.plays if player == seat)

    def known_cards(self, seat: Seat | int) -> CardSet:
        """The unplayed cards ``seat`` is known to hold (:mod:`jass.engine.inference`).

        They are its own hand (for this seat), its shown Weis, its shown Stöck, and in the
        first hand under ``first_hand_rule=MARKER_CARD`` the marker card of the forehand
        (unless the game was started with a given dealer, which overrides the rule, R3.7).

        >>> import jass
        >>> v = jass.Game.new(seed=5).deal().view(jass.Seat(0))
        >>> v.known_cards(0) == v.hand, v.known_cards(1)
        (True, CardSet.parse(''))
        """
        seat = Seat(seat)
        if seat == self.seat:
            return self.hand
        pub = self._pub
        known = known_holdings(pub.shown, pub.stoeck, pub.contract, pub.marker, pub.rules)
        return CardSet(known[seat]) - self.played

    def voids(self, seat: Seat | int) -> tuple[Suit, ...]:
        """The suits ``seat`` is known to hold no card of (from :attr:`excluded`).

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(jass.Seat(0)).voids(1)
        ()
        """
        excluded = self.excluded[Seat(seat)] | self.played
        return tuple(suit for suit in Suit if excluded & SUIT_MASKS[suit] == SUIT_MASKS[suit])

    # --- what the seat may do: the game's refusals, on the view's own data ----------------

    def _moving(self) -> bool:
        return self.to_move is self.seat

    def _declaring_open(self) -> bool:
        return (
            self._pub.manual_weis
            and self.phase is _PLAY
            and self._round.tricks_won == (0, 0)
            and self._own_weis is None
        )

    def can_shove(self) -> bool:
        """Whether this seat may shove now.

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal()
        >>> g.view(g.to_move).can_shove(), g.view(g.to_move.next).can_shove()
        (True, False)
        """
        pub = self._pub
        return self._moving() and (
            shove_refusal(self.phase, pub.outcome, pub.shoves, pub.rules) is None
        )

    def can_choose(self, contract: Contract | str) -> bool:
        """Whether this seat may name ``contract`` now.

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal()
        >>> g.view(g.to_move).can_choose("obenabe"), g.view(g.to_move.next).can_choose("obenabe")
        (True, False)
        """
        try:
            contract = Contract.parse(contract, self.ruleset.suit_pairing)
        except JassError:
            return False
        pub = self._pub
        refusal = choose_refusal(self.phase, pub.outcome, pub.rules, contract)
        return self._moving() and refusal is None

    def can_play(self, card: Card | str) -> bool:
        """Whether this seat may play ``card`` now.

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal().choose("obenabe")
        >>> v = g.view(g.to_move)
        >>> all(v.can_play(c) for c in v.hand), g.view(g.to_move.next).can_play(v.hand.cards()[0])
        (True, False)
        """
        try:
            card = as_card(card)
        except JassError:
            return False
        pub = self._pub
        contract = pub.contract
        return (
            self._moving()
            and contract is not None
            and play_refusal(
                self.phase, pub.outcome, self.hand, self.trick, contract, pub.rules, card, self.seat
            )
            is None
        )

    def can_declare_weis(self, weis: Weis | Iterable[Weis] = ()) -> bool:
        """Whether this seat may declare ``weis`` now (with no argument: declare at all).

        >>> import jass
        >>> jass.Game.new(seed=5).deal().choose("obenabe").view(0).can_declare_weis()
        False
        """
        try:
            chosen = weis_choice(weis)
        except JassError:
            return False
        pub = self._pub
        return self._moving() and declare_refusal(
            self.phase, pub.outcome, pub.rules, self._declaring_open(), self.hand, chosen, self.seat
        ) is None

    def can_thank(self) -> bool:
        """Whether this seat's team may thank now (at any time, on turn or not, R9.2a).

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(3).can_thank()
        True
        """
        return thank_refusal(self._pub.outcome, self._pub.rules) is None

    def legal_moves(self) -> CardSet:
        """The cards this seat may play now; empty if it is not its turn to play.

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal().choose("hearts")
        >>> g.view(g.to_move).legal_moves() == g.legal_moves()
        True
        """
        if not self._moving():
            return _EMPTY
        return self._legal or legal_now(self.phase, self.hand, self.trick, self._pub.data)

    def legal_actions(self) -> tuple[Play | Choose | Shove | DeclareWeis | Thank, ...]:
        """The actions this seat may take now (those of :meth:`jass.Game.legal_actions`).

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal()
        >>> g.view(g.to_move).legal_actions() == g.legal_actions()
        True
        """
        if not self._moving():
            return ()
        pub = self._pub
        return legal_actions(
            self.phase,
            pub.outcome,
            pub.rules,
            self.legal_moves(),
            self.hand,
            pub.shoves,
            self._declaring_open(),
            self.seat,
        )

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is one this seat may take now.

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal()
        >>> g.view(g.to_move).is_legal(jass.Shove()), g.view(g.to_move.next).is_legal(jass.Shove())
        (True, False)
        """
        return action in self.legal_actions()

    # --- equality, pickling -------------------------------------------------------------

    def _key(self) -> tuple[Any, ...]:
        return (
            self.seat,
            self.hand,
            self.phase,
            self.to_move,
            self.trick,
            self.scores,
            self._round,
            self._pub,
            self._own_weis,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayerView):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        parts = [f"seat {int(self.seat)}", self.phase.name]
        if self.contract is not None:
            parts.append(str(self.contract))
        parts.append(f"hand {self.hand}")
        return f"<PlayerView {', '.join(parts)}>"

    def __reduce__(self) -> tuple[Any, ...]:
        to_move = -1 if self.to_move is None else int(self.to_move)
        return (
            _restore,
            (self._pub, self._round, self.phase, to_move, self.trick, self.scores, self.seat,
             self.hand, self._own_weis),
        )

    def _repr_svg_(self) -> str:
        """The table as this seat sees it, which notebooks show (see :func:`jass.svg.table`).

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(1)._repr_svg_().count('class="card"')
        9
        """
        from jass import svg  # noqa: PLC0415 (svg sits above view in the import order)

        return svg.table(self)


_restore: Final = PlayerView._of


class _Draft(PlayerView):
    """A :class:`PlayerView` under construction: plain slot stores (see ``PlayerView._of``)."""

    __slots__ = ()
    __setattr__ = object.__setattr__  # type: ignore[assignment]
    __delattr__ = object.__delattr__


_set_tricks: Final[Callable[[PlayerView, Any], None]] = PlayerView.__dict__["_tricks"].__set__
_set_excluded: Final[Callable[[PlayerView, Any], None]] = PlayerView.__dict__["_excluded"].__set__
