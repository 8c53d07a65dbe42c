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

from jass.core.cards import SUIT_MASKS, Card, CardSet, Suit
from jass.core.contracts import Contract
from jass.core.dealing import DealtHands
from jass.core.ruledata import rule_data
from jass.core.scoring import GameResult, HandScore
from jass.core.seats import Seat, Team
from jass.core.weis import Weis, WeisResult
from jass.engine.actions import Action, Choose, DeclareWeis, Play, Shove, Thank
from jass.engine.hand import GameSetup, HandInfo, Phase, Trick, completed_tricks
from jass.engine.inference import excluded_cards, known_holdings, marker_holder
from jass.errors import InvalidInputError
from jass.rules import RuleSet

__all__ = ["PlayerView", "excluded_cards"]

_SEATS: Final = tuple(Seat)
_FULL: Final = (1 << 36) - 1
_EMPTY: Final = CardSet(0)
_PLAY: Final = Phase.PLAY
_CHOOSE: Final = Phase.CHOOSE


class _GameState(Protocol):
    """The public face of :class:`jass.Game` that a view reads (so this module need not import it).

    >>> import jass
    >>> isinstance(jass.Game.new(seed=1), jass.Game)
    True
    """

    @property
    def ruleset(self) -> RuleSet: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def to_move(self) -> Seat | None: ...
    @property
    def hands(self) -> DealtHands: ...
    @property
    def hand_info(self) -> HandInfo | None: ...
    @property
    def setup(self) -> GameSetup: ...
    @property
    def contract(self) -> Contract | None: ...
    @property
    def plays(self) -> tuple[tuple[Seat, Card], ...]: ...
    @property
    def unchecked_plays(self) -> frozenset[int]: ...
    @property
    def trick(self) -> tuple[Card, ...]: ...
    @property
    def trick_leader(self) -> Seat | None: ...
    @property
    def declared_weis(self) -> tuple[tuple[Weis, ...] | None, ...]: ...
    @property
    def weis_result(self) -> WeisResult | None: ...
    @property
    def stoeck(self) -> Seat | None: ...
    @property
    def scores(self) -> tuple[int, int]: ...
    @property
    def hand_points(self) -> tuple[int, int]: ...
    @property
    def hand_results(self) -> tuple[HandScore, ...]: ...
    @property
    def result(self) -> GameResult | None: ...
    def legal_moves(self) -> CardSet: ...
    def legal_actions(self) -> tuple[Play | Choose | Shove | DeclareWeis | Thank, ...]: ...
    def can_shove(self) -> bool: ...
    def can_choose(self, contract: Contract | str) -> bool: ...
    def can_play(self, card: Card | str) -> bool: ...
    def can_declare_weis(self, weis: Weis | Iterable[Weis] = ()) -> bool: ...
    def can_thank(self, team: Team | int) -> bool: ...


class PlayerView:
    """Everything one seat may know, and nothing more; get it with :meth:`jass.Game.view`.

    A view costs almost nothing to build: it keeps its game privately and reads the public
    parts on demand, sharing the game's records (the cards played, the trick, the scores);
    what takes work (the completed tricks, :attr:`excluded`, the declared points) is worked
    out once, when first asked. Views are immutable and compare by what the seat may know.

    A bot gets its information from the view's public attributes only. A program that must
    not trust the code it hands a view to (a tournament server) should send that code the
    public fields, not the object, since a Python object cannot hide its private reference.

    >>> import jass
    >>> g = jass.Game.new(seed=5).deal()
    >>> v = g.view(jass.Seat(0))
    >>> v.seat, v.hand == g.hands[0], v.contract
    (<Seat.S0: 0>, True, None)
    """

    __slots__ = ("_declared", "_excluded", "_game", "_tricks", "seat")

    seat: Seat
    _game: _GameState
    _tricks: tuple[Trick, ...]
    _excluded: tuple[CardSet, CardSet, CardSet, CardSet]
    _declared: tuple[tuple[Weis, ...] | None, ...]

    def __init__(self, game: _GameState, seat: Seat | int) -> None:
        """The view of ``seat`` on ``game`` (what :meth:`jass.Game.view` returns).

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal()
        >>> PlayerView(g, 2) == g.view(jass.Seat(2))
        True
        """
        if seat.__class__ is not Seat:
            if isinstance(seat, bool) or not isinstance(seat, int) or seat not in range(4):
                raise InvalidInputError(f"seat must be a Seat (0-3), got {seat!r}")
            seat = _SEATS[seat]
        _set_seat(self, seat)
        _set_game(self, game)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a PlayerView is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a PlayerView is immutable: cannot delete {name!r}")

    # --- what the seat may know ---------------------------------------------------------

    @property
    def ruleset(self) -> RuleSet:
        """The rules in force.

        >>> import jass
        >>> jass.Game.new(seed=5).view(0).ruleset is jass.rules.SCHIEBER
        True
        """
        return self._game.ruleset

    @property
    def setup(self) -> GameSetup:
        """Where the game started: the scores, a given first dealer, the hands played before.

        >>> import jass
        >>> jass.Game.new(seed=5, dealer=2).view(0).setup.dealer
        <Seat.S2: 2>
        """
        return self._game.setup

    @property
    def phase(self) -> Phase:
        """The game's phase.

        >>> import jass
        >>> jass.Game.new(seed=5).view(0).phase
        <Phase.DEAL: 'deal'>
        """
        return self._game.phase

    @property
    def to_move(self) -> Seat | None:
        """The seat that must act, or ``None``.

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal()
        >>> g.view(0).to_move == g.to_move
        True
        """
        return self._game.to_move

    @property
    def hand(self) -> CardSet:
        """The seat's own cards, as they are now.

        >>> import jass
        >>> len(jass.Game.new(seed=5).deal().view(0).hand)
        9
        """
        return self._game.hands[self.seat]

    @property
    def hand_number(self) -> int | None:
        """The number of the current hand, from 0, or ``None`` before the first deal.

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(0).hand_number
        0
        """
        hand = self._game.hand_info
        return hand.number if hand is not None else None

    @property
    def dealer(self) -> Seat | None:
        """The dealer of the current hand, or ``None`` before the first deal.

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal()
        >>> g.view(0).dealer == g.hand_info.dealer
        True
        """
        hand = self._game.hand_info
        return hand.dealer if hand is not None else None

    @property
    def contract(self) -> Contract | None:
        """The contract, once named.

        >>> import jass
        >>> jass.Game.new(seed=5).deal().choose("obenabe").view(1).contract
        Contract.OBENABE
        """
        return self._game.contract

    @property
    def chooser(self) -> Seat | None:
        """The seat that named the contract, once named.

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal().shove().choose("obenabe")
        >>> g.view(0).chooser == g.hand_info.forehand.partner
        True
        """
        hand = self._game.hand_info
        return hand.chooser if hand is not None else None

    @property
    def shoves(self) -> int:
        """How often the choice was shoved in this hand.

        >>> import jass
        >>> jass.Game.new(seed=5).deal().shove().view(0).shoves
        1
        """
        hand = self._game.hand_info
        return hand.shoves if hand is not None else 0

    @property
    def plays(self) -> tuple[tuple[Seat, Card], ...]:
        """Every card played in this hand, with the seat that played it, in order.

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(0).plays
        ()
        """
        return self._game.plays

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards of the current trick, leader first.

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(0).trick
        ()
        """
        return self._game.trick

    @property
    def trick_leader(self) -> Seat | None:
        """The seat that leads the current trick, or ``None`` before the play.

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal().choose("obenabe")
        >>> g.view(0).trick_leader == g.hand_info.forehand
        True
        """
        return self._game.trick_leader

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks of this hand.

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(0).tricks
        ()
        """
        try:
            return self._tricks
        except AttributeError:
            pass
        contract = self._game.contract
        tricks = (
            completed_tricks(
                self._game.plays,
                contract,
                rule_data(contract, self._game.ruleset).points,
            )
            if contract is not None
            else ()
        )
        _set_tricks(self, tricks)
        return tricks

    @property
    def declared_points(self) -> tuple[tuple[int, ...] | None, ...]:
        """The points of the Weis each seat declared, by seat (``None`` until it declares).

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(0).declared_points
        (None, None, None, None)
        """
        return tuple(
            None if weis is None else tuple(w.points for w in weis) for weis in self._declared_weis
        )

    @property
    def own_weis(self) -> tuple[Weis, ...] | None:
        """The Weis this seat declared, or ``None`` before it declares.

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(0).own_weis is None
        True
        """
        return self._declared_weis[self.seat]

    @property
    def _declared_weis(self) -> tuple[tuple[Weis, ...] | None, ...]:
        try:
            return self._declared
        except AttributeError:
            pass
        declared = self._game.declared_weis
        _set_declared(self, declared)
        return declared

    @property
    def shown_weis(self) -> tuple[tuple[Seat, Weis], ...]:
        """The winning team's Weis, shown after trick 1, with the seat holding each.

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(0).shown_weis
        ()
        """
        result = self._game.weis_result
        if result is None or result.winner is None:
            return ()
        return tuple(
            (holder, weis)
            for holder in result.winner.team.seats
            for weis in result.declared[holder]
        )

    @property
    def weis_winner(self) -> Seat | None:
        """The seat with the best Weis, known after trick 1, or ``None``.

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(0).weis_winner is None
        True
        """
        result = self._game.weis_result
        return result.winner if result is not None else None

    @property
    def stoeck(self) -> Seat | None:
        """The seat whose Stöck were scored (or shown) in this hand, or ``None``.

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(0).stoeck is None
        True
        """
        return self._game.stoeck

    @property
    def scores(self) -> tuple[int, int]:
        """The running totals by team.

        >>> import jass
        >>> jass.Game.new(seed=5, scores=(300, 200)).view(0).scores
        (300, 200)
        """
        return self._game.scores

    @property
    def hand_points(self) -> tuple[int, int]:
        """Unmultiplied card points taken in this hand, by team.

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(0).hand_points
        (0, 0)
        """
        return self._game.hand_points

    @property
    def hand_results(self) -> tuple[HandScore, ...]:
        """The scores of the completed hands.

        >>> import jass
        >>> jass.Game.new(seed=5).view(0).hand_results
        ()
        """
        return self._game.hand_results

    @property
    def result(self) -> GameResult | None:
        """How the game ended, or ``None``.

        >>> import jass
        >>> jass.Game.new(seed=5).view(0).result is None
        True
        """
        return self._game.result

    @property
    def excluded(self) -> tuple[CardSet, CardSet, CardSet, CardSet]:
        """For each seat, the cards it is known not to hold (public inference).

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(0).excluded[1]
        CardSet.parse('')
        """
        try:
            return self._excluded
        except AttributeError:
            pass
        contract = self._game.contract
        game = self._game
        excluded = (
            excluded_cards(game.plays, contract, game.ruleset, unchecked=game.unchecked_plays)
            if contract is not None
            else (_EMPTY, _EMPTY, _EMPTY, _EMPTY)
        )
        _set_excluded(self, excluded)
        return excluded

    # --- what the seat may do -----------------------------------------------------------

    def can_shove(self) -> bool:
        """Whether this seat may shove now.

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal()
        >>> g.view(g.to_move).can_shove(), g.view(g.to_move.next).can_shove()
        (True, False)
        """
        return self._game.to_move == self.seat and self._game.can_shove()

    def can_choose(self, contract: Contract | str) -> bool:
        """Whether this seat may name ``contract`` now.

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal()
        >>> g.view(g.to_move).can_choose("obenabe"), g.view(g.to_move.next).can_choose("obenabe")
        (True, False)
        """
        return self._game.to_move == self.seat and self._game.can_choose(contract)

    def can_play(self, card: Card | str) -> bool:
        """Whether this seat may play ``card`` now.

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal().choose("obenabe")
        >>> v = g.view(g.to_move)
        >>> all(v.can_play(c) for c in v.hand)
        True
        """
        return self._game.to_move == self.seat and self._game.can_play(card)

    def can_declare_weis(self, weis: Weis | Iterable[Weis] = ()) -> bool:
        """Whether this seat may declare ``weis`` now (with no argument: declare at all).

        >>> import jass
        >>> jass.Game.new(seed=5).deal().choose("obenabe").view(0).can_declare_weis()
        False
        """
        return self._game.to_move == self.seat and self._game.can_declare_weis(weis)

    def can_thank(self) -> bool:
        """Whether this seat's team may thank now (at any time, on turn or not, R9.2a).

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(3).can_thank()
        True
        """
        return self._game.can_thank(self.seat.team)

    def legal_moves(self) -> CardSet:
        """The cards this seat may play now; empty if it is not its turn to play.

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal().choose("hearts")
        >>> g.view(g.to_move).legal_moves() == g.legal_moves()
        True
        """
        game = self._game
        return game.legal_moves() if game.to_move == self.seat else _EMPTY

    def legal_actions(self) -> tuple[Play | Choose | Shove | DeclareWeis | Thank, ...]:
        """The actions this seat may take now (those of :meth:`jass.Game.legal_actions`).

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal()
        >>> g.view(g.to_move).legal_actions() == g.legal_actions()
        True
        """
        game = self._game
        return game.legal_actions() if game.to_move == self.seat else ()

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is one this seat may take now.

        >>> import jass
        >>> g = jass.Game.new(seed=5).deal()
        >>> g.view(g.to_move).is_legal(jass.Shove()), g.view(g.to_move.next).is_legal(jass.Shove())
        (True, False)
        """
        return action in self.legal_actions()

    # --- derived ------------------------------------------------------------------------

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
        for _, card in self._game.plays:
            bits |= 1 << card
        return CardSet(bits)

    def unknown(self) -> CardSet:
        """The cards the other three seats hold between them.

        >>> import jass
        >>> len(jass.Game.new(seed=5).deal().view(jass.Seat(0)).unknown())
        27
        """
        if self._game.hand_info is None:
            return _EMPTY
        return ~(self.hand | self.played)

    def cards_left(self, seat: Seat | int) -> int:
        """How many cards ``seat`` still holds.

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(jass.Seat(0)).cards_left(1)
        9
        """
        if self._game.hand_info is None:
            return 0
        return 9 - sum(1 for player, _ in self._game.plays if player == seat)

    def known_cards(self, seat: Seat | int) -> CardSet:
        """The unplayed cards ``seat`` is known to hold.

        They are its own hand (for this seat), its shown Weis, and in the first hand under
        ``first_hand_rule=MARKER_CARD`` the marker card of the forehand (unless the game was
        started with a given dealer, which overrides the rule, R3.7).

        >>> import jass
        >>> v = jass.Game.new(seed=5).deal().view(jass.Seat(0))
        >>> v.known_cards(0) == v.hand, v.known_cards(1)
        (True, CardSet.parse(''))
        """
        seat = Seat(seat)
        if seat == self.seat:
            return self.hand
        marker = marker_holder(
            self.ruleset, self.hand_number, self.dealer, self.setup.dealer is not None
        )
        known = known_holdings(self.shown_weis, self.stoeck, self.contract, marker, self.ruleset)
        return CardSet(known[seat]) - self.played

    def voids(self, seat: Seat | int) -> tuple[Suit, ...]:
        """The suits ``seat`` is known to hold no card of (from :attr:`excluded`).

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(jass.Seat(0)).voids(1)
        ()
        """
        excluded = self.excluded[Seat(seat)] | self.played
        return tuple(suit for suit in Suit if excluded & SUIT_MASKS[suit] == SUIT_MASKS[suit])

    # --- equality -----------------------------------------------------------------------

    def _key(self) -> tuple[Any, ...]:
        return (
            self.seat,
            self.ruleset,
            self.phase,
            self.to_move,
            self.hand,
            self.hand_number,
            self.dealer,
            self.contract,
            self.chooser,
            self.shoves,
            self.plays,
            self.trick,
            self.trick_leader,
            self.declared_points,
            self.own_weis,
            self.shown_weis,
            self.weis_winner,
            self.stoeck,
            self.scores,
            self.hand_points,
            self.hand_results,
            self.result,
            self.can_shove(),
            self.can_declare_weis(),
            self.can_thank(),
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
        return (PlayerView, (self._game, self.seat))

    def _repr_svg_(self) -> str:
        """The table as this seat sees it, which notebooks show (see :func:`jass.svg.table`).

        >>> import jass
        >>> jass.Game.new(seed=5).deal().view(1)._repr_svg_().count('class="card"')
        9
        """
        from jass import svg  # noqa: PLC0415 (svg sits above view in the import order)

        return svg.table(self)


_set_seat: Final[Callable[[PlayerView, Any], None]] = PlayerView.__dict__["seat"].__set__
_set_game: Final[Callable[[PlayerView, Any], None]] = PlayerView.__dict__["_game"].__set__
_set_tricks: Final[Callable[[PlayerView, Any], None]] = PlayerView.__dict__["_tricks"].__set__
_set_excluded: Final[Callable[[PlayerView, Any], None]] = PlayerView.__dict__["_excluded"].__set__
_set_declared: Final[Callable[[PlayerView, Any], None]] = PlayerView.__dict__["_declared"].__set__
