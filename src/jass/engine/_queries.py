"""What a :class:`~jass.Game` tells and allows: its fields, queries and predicates (internal).

:class:`GameQueries` is the base of :class:`~jass.Game`: it holds the fields (its slots),
the read-only properties, the views, ``legal_moves`` and ``legal_actions``, the ``can_*``
predicates and their refusals (from :mod:`jass.engine._public`, which the views ask too),
and equality. :mod:`jass.engine.game` adds construction and the transitions.

>>> import jass
>>> issubclass(jass.Game, GameQueries)
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import index as _bits
from typing import Any, Final, NoReturn

from jass._budgets import is_int
from jass.core.cards import Card, CardSet, as_card
from jass.core.contracts import Contract
from jass.core.dealing import DealtHands
from jass.core.play import legal_mask
from jass.core.scoring import GameResult, HandScore
from jass.core.seats import Seat, Team
from jass.core.weis import Weis, WeisResult
from jass.engine._context import HandContext, HandCredits
from jass.engine._public import (
    PLAY_ORDER,
    PublicHand,
    Refusal,
    Round,
    choose_refusal,
    declare_refusal,
    legal_actions,
    phase_refusal,
    play_refusal,
    public_hand,
    shove_refusal,
    thank_refusal,
    weis_choice,
)
from jass.engine.actions import Action, Choose, DeclareWeis, Play, Shove, Thank
from jass.engine.hand import GameSetup, HandInfo, Phase, Trick, completed_tricks
from jass.engine.view import PlayerView
from jass.errors import IllegalActionError, InvalidInputError, JassError
from jass.rules import RuleSet

__all__ = ["GameQueries"]

_new_set: Final = int.__new__
_SEATS: Final = tuple(Seat)
_TEAMS: Final = tuple(Team)
_EMPTY: Final = CardSet(0)
_DEAL: Final = Phase.DEAL
_PLAY: Final = Phase.PLAY
_view_of: Final = PlayerView._of


class GameQueries:
    """The fields, queries and predicates of a :class:`~jass.Game` (see the module).

    >>> import jass
    >>> jass.Game.new(seed=1).deal().can_shove()
    True
    """

    # The fields of a state, set only by _build, in the order of _FIELDS; each has a type of
    # its own, so that two cannot change places unnoticed (the round's are set by keyword).
    __slots__ = (
        "_ctx",  # the hand and what changes a few times per hand at most (shared)
        "_hands",  # the cards each seat holds
        "_hash",  # a cache of hash(): not a field
        "_history",  # every action: a linked list (earlier, action)
        "_legal",  # a cache of legal_moves(): not a field (see legal_moves)
        "_round",  # what changes once a trick: leader, points, tricks, the completed tricks
        "_scores",  # running totals, by team
        "_tally",  # what this hand's scoring events credited
        "_to_move",  # seat index, -1 if nobody
        "_trick",  # the current trick's cards
        "phase",
    )

    _ctx: HandContext
    _tally: HandCredits
    #: The current :class:`Phase` (a slot: read on every step of a loop).
    phase: Phase
    _to_move: int
    _hands: DealtHands
    _trick: tuple[Card, ...]
    _round: Round
    _scores: tuple[int, int]
    _history: tuple[Any, Action] | None
    _legal: CardSet | None
    _hash: int

    # --- reading the state --------------------------------------------------------------

    @property
    def ruleset(self) -> RuleSet:
        """The rule set in force."""
        return self._ctx.rules

    @property
    def seed(self) -> int:
        """The seed from which the deals are drawn."""
        return self._ctx.facts.seed

    @property
    def setup(self) -> GameSetup:
        """Where the game started: the scores, the first dealer and the hands played before."""
        return self._ctx.facts.setup

    @property
    def to_move(self) -> Seat | None:
        """The seat that must act, or ``None`` while dealing and after the game."""
        return _SEATS[self._to_move] if self._to_move >= 0 else None

    @property
    def hand_info(self) -> HandInfo | None:
        """The current (or just finished) hand's record, or ``None`` before the first deal."""
        return self._ctx.hand_info

    @property
    def contract(self) -> Contract | None:
        """The contract of the current hand, once named."""
        hand = self._ctx.hand_info
        return hand.contract if hand is not None else None

    @property
    def hands(self) -> DealtHands:
        """The cards each seat still holds, by seat (perfect information)."""
        return self._hands

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards of the current, incomplete trick, leader first.

        When the game ended at a Stöck scored with a trick's fourth card, it holds that
        uncredited trick (later events are not credited, rule book R9.3).
        """
        return self._trick

    @property
    def trick_leader(self) -> Seat | None:
        """The seat that leads (or led) the current trick."""
        leader = self._round.leader
        return _SEATS[leader] if leader >= 0 else None

    @property
    def tricks_won(self) -> tuple[int, int]:
        """Tricks won in the current hand, by team."""
        return self._round.tricks_won

    @property
    def hand_points(self) -> tuple[int, int]:
        """Unmultiplied card points taken in the current hand, by team."""
        return self._round.points

    @property
    def scores(self) -> tuple[int, int]:
        """Running totals by team, including what this hand has credited so far (R9.2a)."""
        return self._scores

    @property
    def hand_results(self) -> tuple[HandScore, ...]:
        """The scores of the hands completed in this game, oldest first."""
        return self._ctx.results

    @property
    def hands_played(self) -> int:
        """Hands completed, those before :meth:`new` (``setup.hands_played``) included."""
        return self._ctx.facts.setup.hands_played + len(self._ctx.results)

    @property
    def result(self) -> GameResult | None:
        """How the game ended, or ``None`` while it goes on."""
        return self._ctx.outcome

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._ctx.outcome is not None

    @property
    def winner(self) -> Team | None:
        """The winning team once the game is over; ``None`` before, or for a draw."""
        outcome = self._ctx.outcome
        return outcome.winner if outcome is not None else None

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action since the game began, deals included, oldest first.

        >>> from jass import Game
        >>> [type(a).__name__ for a in Game.new(seed=1).deal().shove().history]
        ['Deal', 'Shove']
        """
        actions: list[Action] = []
        node = self._history
        while node is not None:
            node, action = node
            actions.append(action)
        actions.reverse()
        return tuple(actions)

    @property
    def unchecked_plays(self) -> frozenset[int]:
        """The indexes into :attr:`plays` of cards played without the rules' check.

        Empty unless the hand was replayed from another engine's records with cards that
        engine allowed and the rules do not (see :func:`jass.records.from_jasskit`); such a
        card tells nothing about the hand it came from.
        """
        return self._ctx.unchecked

    @property
    def plays(self) -> tuple[tuple[Seat, Card], ...]:
        """Every card played in the current hand, with the seat that played it, in order.

        >>> from jass import Game
        >>> g = Game.new(seed=1).deal().choose("obenabe")
        >>> g = g.play(g.legal_moves().cards()[0])
        >>> g.plays == ((g.hand_info.forehand, g.trick[0]),)
        True
        """
        trick = self._trick
        done = self._round.plays
        if not trick:
            return done
        leader = self._round.leader
        return done + tuple(zip(PLAY_ORDER[leader], trick, strict=False))  # the trick is shorter

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks of the current hand, in order.

        >>> from jass import Game
        >>> Game.new(seed=1).deal().tricks
        ()
        """
        return completed_tricks(self._round.plays, self._ctx.contract, self._ctx.data.points)

    @property
    def weis_result(self) -> WeisResult | None:
        """The Weis of the current hand, resolved when trick 1 is complete (rule book R7.8)."""
        return self._tally.weis

    @property
    def declared_weis(self) -> tuple[tuple[Weis, ...] | None, ...]:
        """The Weis each seat has declared in this hand, by seat; ``None`` before it declares.

        Declaring happens with a seat's first card of trick 1: every Weis it holds under
        ``weis_declaration=AUTO``, its choice under ``MANUAL``. At the table the others learn
        only the points; :attr:`shown_weis` gives the cards shown after trick 1.

        >>> from jass import Game
        >>> Game.new(seed=1).deal().choose("obenabe").declared_weis
        (None, None, None, None)
        """
        ctx = self._ctx
        if not ctx.weis_on:
            return (None, None, None, None)
        if self._tally.weis is not None:
            return self._tally.weis.declared
        if ctx.manual_weis:
            return self._tally.declared
        declared = self._declared_by
        return (declared(0), declared(1), declared(2), declared(3))

    def _declared_by(self, seat: int) -> tuple[Weis, ...] | None:
        """The Weis ``seat`` has declared in this hand, or ``None`` (see :attr:`declared_weis`)."""
        ctx = self._ctx
        if not ctx.weis_on:  # no Weis, or no contract yet
            return None
        tally = self._tally
        if tally.weis is not None:
            return tally.weis.declared[seat]
        if ctx.manual_weis:
            return tally.declared[seat]
        # Declared automatically with the seat's first card of trick 1 (R7.7).
        hand = ctx.hand_info
        assert hand is not None  # noqa: S101  (a contract was named)
        first = (hand.dealer + 1) & 3
        return ctx.found_weis(seat) if (seat - first) & 3 < len(self._trick) else None

    @property
    def shown_weis(self) -> tuple[Weis, ...]:
        """The Weis shown after trick 1: all those declared by the winning team (R7.7).

        >>> from jass import Game
        >>> Game.new(seed=1).deal().shown_weis
        ()
        """
        result = self._tally.weis
        if result is None or result.winner is None:
            return ()
        return tuple(w for seat in result.winner.team.seats for w in result.declared[seat])

    @property
    def stoeck(self) -> Seat | None:
        """The seat whose Stöck were scored (or shown to finish) in this hand, else ``None``."""
        seat = self._ctx.stoeck_seat
        return _SEATS[seat] if seat >= 0 and self._tally.stoeck_done else None

    @property
    def hand_weis_stoeck(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """Unmultiplied Weis and Stöck points credited so far in this hand, by team."""
        return self._tally.weis_credit, self._tally.stoeck_credit

    def view(self, seat: Seat | int) -> PlayerView:
        """What ``seat`` may know of this state: its own cards and everything public.

        >>> from jass import Game
        >>> g = Game.new(seed=1).deal()
        >>> v = g.view(Seat(1))
        >>> v.hand == g.hands[1], hasattr(v, "hands")
        (True, False)
        """
        if seat.__class__ is not Seat:
            seat = _seat_of(seat)
        return _view_of(
            self._public(),
            self._round,
            self.phase,
            self._to_move,
            self._trick,
            self._scores,
            seat,
            self._hands[seat],
            self._declared_by(seat),
            self._legal if seat == self._to_move else None,
        )

    def _public(self) -> PublicHand:
        """The public record of this state's hand, shared by its views (cached on the context).

        It changes with the hand context, the tally, and in trick 1 with each card (each
        declares a seat's Weis): those three are the cache's key.
        """
        ctx = self._ctx
        tally = self._tally
        stage = len(self._trick) if self._round.tricks_won == (0, 0) else -1
        cached = ctx.public
        if cached is not None and cached[0] is tally and cached[1] == stage:
            found: PublicHand = cached[2]
            return found
        public = public_hand(
            rules=ctx.rules,
            setup=ctx.facts.setup,
            hand=ctx.hand_info,
            results=ctx.results,
            outcome=ctx.outcome,
            unchecked=ctx.unchecked,
            declared_weis=self.declared_weis,
            weis=tally.weis,
            stoeck=self.stoeck,
        )
        ctx.public = (tally, stage, public)  # a cache: the same value whoever stores it
        return public

    def legal_moves(self) -> CardSet:
        """The cards the player to move may play; empty outside the play phase.

        >>> from jass import Game
        >>> g = Game.new(seed=1).deal().choose("obenabe")
        >>> g.legal_moves() == g.hands[g.to_move]
        True
        """
        legal = self._legal
        if legal is None:
            # _public.legal_now, inlined: one call fewer per card in the play loop.
            if self.phase is not _PLAY:
                return _EMPTY
            trick = self._trick
            hand = self._hands[self._to_move]
            if not trick:
                return hand  # any card may be led (R5.1); play() asks no more of a lead
            held = _bits(hand)
            mask = legal_mask(held, trick, self._ctx.data)
            legal = hand if mask == held else _new_set(CardSet, mask)
            # A cache that pays (play() checks off-suit cards against it): invisible to
            # equality, hashing and pickling, and thread-safe, since whoever computes it
            # stores the same value in one step.
            _set_legal(self, legal)
        return legal

    def legal_actions(self) -> tuple[Play | Choose | Shove | DeclareWeis | Thank, ...]:
        """Every action the player to move may take, as values for :meth:`apply`.

        ``Thank`` is offered to the mover's team whenever thanking is allowed (rule book R9.2a),
        and under ``weis_declaration=MANUAL`` each non-empty choice of the mover's Weis while
        it may declare.

        >>> from jass import Game
        >>> import jass
        >>> g = Game.new(jass.rules.TOURNAMENT_12, seed=1).deal()
        >>> [a.index for a in g.legal_actions()]
        [36, 37, 38, 39, 40, 41, 43]
        """
        ctx = self._ctx
        hand = ctx.hand_info
        return legal_actions(
            self.phase,
            ctx.outcome,
            ctx.rules,
            self.legal_moves(),
            self._hands[self._to_move],
            hand.shoves if hand is not None else 0,
            self._declaring_open(),
            self._to_move,
        )

    # --- predicates: whether an action is allowed now; they never raise -------------------

    def can_deal(self) -> bool:
        """Whether the next hand may be dealt now.

        >>> from jass import Game
        >>> Game.new(seed=1).can_deal(), Game.new(seed=1).deal().can_deal()
        (True, False)
        """
        return self.phase is _DEAL

    def can_shove(self) -> bool:
        """Whether the player to move may shove the choice to the partner now (rule book §4).

        >>> from jass import Game
        >>> g = Game.new(seed=1).deal()
        >>> g.can_shove(), g.shove().can_shove()
        (True, False)
        """
        return self._shove_refusal() is None

    def can_choose(self, contract: Contract | str) -> bool:
        """Whether the player to move may name ``contract`` now.

        >>> from jass import Game
        >>> import jass
        >>> g = Game.new(jass.rules.BEGINNER, seed=1).deal()
        >>> g.can_choose("hearts"), g.can_choose("obenabe"), g.can_choose("no such")
        (True, False, False)
        """
        try:
            contract = Contract.parse(contract, self.ruleset.suit_pairing)
        except JassError:
            return False
        return self._choose_refusal(contract) is None

    def can_play(self, card: Card | str) -> bool:
        """Whether the player to move may play ``card`` now.

        >>> from jass import Game
        >>> g = Game.new(seed=1).deal().choose("obenabe")
        >>> all(g.can_play(c) for c in g.legal_moves()), g.can_play("XX")
        (True, False)
        """
        try:
            card = as_card(card)
        except JassError:
            return False
        return self._play_refusal(card) is None

    def can_declare_weis(self, weis: Weis | Iterable[Weis] = ()) -> bool:
        """Whether the player to move may declare ``weis`` now (``weis_declaration=MANUAL``).

        With no argument: whether it may declare at all now.

        >>> from jass import Game
        >>> import jass
        >>> manual = jass.rules.SCHIEBER.evolve(weis_declaration="MANUAL")
        >>> g = Game.new(manual, seed=4).deal().choose("obenabe")
        >>> g.can_declare_weis(), g.can_declare_weis(jass.find_weis(g.hands[g.to_move]))
        (True, True)
        """
        try:
            chosen = weis_choice(weis)
        except JassError:
            return False
        return self._declare_refusal(chosen) is None

    def can_thank(self, team: Team | int) -> bool:
        """Whether ``team`` may thank now (rule book R9.2a: either team, at any time).

        >>> from jass import Game
        >>> import jass
        >>> Game.new(seed=1).can_thank(Team(1)), Game.new(jass.rules.TOURNAMENT_12).can_thank(0)
        (True, False)
        """
        if not is_int(team) or team not in (0, 1):
            return False
        return self._thank_refusal() is None

    # --- refusals: why an action is not allowed now, or None ------------------------------

    def _phase_refusal(self, what: str) -> Refusal:
        return phase_refusal(self.phase, self._ctx.outcome, what)

    def _shove_refusal(self) -> Refusal | None:
        ctx = self._ctx
        hand = ctx.hand_info
        shoves = hand.shoves if hand is not None else 0
        return shove_refusal(self.phase, ctx.outcome, shoves, ctx.rules)

    def _choose_refusal(self, contract: Contract) -> Refusal | None:
        return choose_refusal(self.phase, self._ctx.outcome, self._ctx.rules, contract)

    def _play_refusal(self, card: Card) -> Refusal | None:
        ctx = self._ctx
        seat = self._to_move
        return play_refusal(
            self.phase, ctx.outcome, self._hands[seat], self._trick, ctx.contract, ctx.rules,
            card, seat,
        )  # fmt: skip

    def _declaring_open(self) -> bool:
        """Whether the mover may still declare Weis by hand (``MANUAL``, trick 1)."""
        return (
            self._ctx.manual_weis
            and self._round.tricks_won == (0, 0)
            and self.phase is _PLAY
            and self._tally.declared[self._to_move] is None
        )

    def _declare_refusal(self, chosen: tuple[Weis, ...]) -> Refusal | None:
        ctx = self._ctx
        seat = self._to_move
        hand = self._hands[seat] if seat >= 0 else _EMPTY
        open_ = self._declaring_open()
        return declare_refusal(self.phase, ctx.outcome, ctx.rules, open_, hand, chosen, seat)

    def _thank_refusal(self) -> Refusal | None:
        return thank_refusal(self._ctx.outcome, self._ctx.rules)

    def _refuse(self, action: object, refusal: Refusal | None) -> NoReturn:
        assert refusal is not None  # noqa: S101  (the fast checks agree with the refusals)
        reason, text = refusal
        raise IllegalActionError(text, reason, action, self)

    # --- equality -----------------------------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        return (
            self._ctx.key(),
            self._tally,
            self.phase,
            self._to_move,
            self._hands,
            self._trick,
            self._round.leader,
            self._round.points,
            self._round.tricks_won,
            self._scores,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameQueries):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        # Worked out once: a key of the shared context and records costs more than a play().
        try:
            return self._hash
        except AttributeError:
            pass
        value = hash(self._key())
        _set_hash(self, value)  # a cache: the same value whoever stores it
        return value

    def __repr__(self) -> str:
        ctx = self._ctx
        parts = [f"seed={ctx.facts.seed}", self.phase.name]
        if ctx.hand_info is not None:
            parts.append(f"hand {ctx.hand_info.number}")
            if ctx.hand_info.contract is not None:
                parts.append(str(ctx.hand_info.contract))
        if self._to_move >= 0:
            parts.append(f"seat {self._to_move} to move")
        parts.append(f"scores {self._scores[0]}:{self._scores[1]}")
        return f"<Game {', '.join(parts)}>"


_set_legal: Final[Callable[[GameQueries, CardSet], None]] = GameQueries.__dict__["_legal"].__set__
_set_hash: Final[Callable[[GameQueries, int], None]] = GameQueries.__dict__["_hash"].__set__


def _seat_of(seat: object) -> Seat:
    """``seat`` (0-3) as a :class:`~jass.Seat`; anything else raises."""
    if not is_int(seat) or seat not in range(4):
        raise InvalidInputError(f"seat must be a Seat (0-3), got {seat!r}")
    return _SEATS[seat]
