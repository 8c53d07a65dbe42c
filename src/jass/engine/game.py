"""The immutable game state machine, :class:`Game`: its fields, queries, predicates and actions.

Every action returns a new :class:`Game`; a state never changes, so it can be kept as a
search node, shared between threads, or used as a dict key. Each action has a predicate that
never raises (``can_play(card)``, ``can_choose(contract)``, ``can_shove()``,
``can_declare_weis(weis)``, ``can_thank(team)``); the action itself applies or raises
:class:`~jass.IllegalActionError` and leaves the state as it was. Crediting scoring events is
done by the pure functions of :mod:`jass.engine._crediting`.

>>> import jass
>>> g = jass.Game.new(jass.rules.SCHIEBER, seed=7).deal()
>>> g.phase, g.to_move == g.hand_info.forehand
(<Phase.CHOOSE: 'choose'>, True)
>>> g = g.choose(jass.Contract.OBENABE)
>>> while g.phase is jass.Phase.PLAY:
...     g = g.play(min(g.legal_moves()))
>>> sum(g.hand_results[-1].card_points)
157
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, NoReturn

import attrs

from jass.core.cards import Card, CardSet, as_card
from jass.core.contracts import Contract
from jass.core.dealing import DealtHands, check_deal, next_dealer, seeded_deal
from jass.core.play import explain_illegal, legal_mask
from jass.core.scoring import (
    GameResult,
    HandScore,
    ScoringEvent,
    end_after_hand,
    score_hand_unchecked,
)
from jass.core.seats import Seat, Team
from jass.core.weis import Weis, WeisResult, find_weis
from jass.engine import _crediting as crediting
from jass.engine._crediting import STOECK_POINTS, Event, Ledger, add_to, needs_full_step
from jass.engine.actions import PLAY_ACTIONS, Action, Choose, Deal, DeclareWeis, Play, Shove, Thank
from jass.engine.hand import (
    NO_CREDITS,
    GameFacts,
    GameSetup,
    HandContext,
    HandCredits,
    HandInfo,
    Phase,
    Trick,
    completed_tricks,
)
from jass.engine.view import PlayerView
from jass.errors import IllegalActionError, IllegalReason, InvalidInputError, JassError
from jass.rules import SCHIEBER, EndMode, RuleSet, WeisDeclaration

__all__ = ["Game"]

_new: Final = object.__new__
_new_set: Final = int.__new__
# Int operations on card sets in the hot path: CardSet's own operators are Python methods.
_and: Final = int.__and__
_xor: Final = int.__xor__
_SEATS: Final = tuple(Seat)
_TEAMS: Final = tuple(Team)
_EMPTY: Final = CardSet(0)
_NO_HANDS: Final = (_EMPTY, _EMPTY, _EMPTY, _EMPTY)
_DEAL: Final = Phase.DEAL
_CHOOSE: Final = Phase.CHOOSE
_PLAY: Final = Phase.PLAY
_OVER: Final = Phase.OVER
#: The suit of each card, as a mask: a card of the led suit always follows (R5.1).
_SUIT_MASK_OF: Final = tuple(0x1FF << 9 * (card // 9) for card in range(36))

#: What a refused action gets: the reason and the message.
Refusal = tuple[IllegalReason, str]


class Game:
    """An immutable Schieber game: start it with :meth:`new`, then apply actions.

    Read-only properties describe the state; actions return the next state, and each has a
    ``can_*`` predicate. Equality and hash cover everything that shapes the rest of the game
    (the action history is not part of it). Setting an attribute raises ``AttributeError``.

    >>> import jass
    >>> g = jass.Game.new(seed=7).deal().shove()
    >>> g.to_move == g.hand_info.forehand.partner, g.hand_info.shoves
    (True, 1)
    >>> g2 = g.choose(jass.Contract.trump(jass.Suit.HEARTS))
    >>> g.phase, g2.phase
    (<Phase.CHOOSE: 'choose'>, <Phase.PLAY: 'play'>)
    """

    # The fields of a state, set only by _build, in the order of _FIELDS.
    __slots__ = (
        "_ctx",  # the hand and what changes a few times per hand at most (shared)
        "_hands",  # the cards each seat holds
        "_history",  # every action: a linked list (earlier, action)
        "_leader",  # the current trick's leader, -1 if none
        "_legal",  # a cache of legal_moves(): not a field (see legal_moves)
        "_phase",
        "_plays",  # the cards of this hand's completed tricks, with who played them
        "_points",  # card points taken this hand, by team
        "_scores",  # running totals, by team
        "_tally",  # what this hand's scoring events credited
        "_to_move",  # seat index, -1 if nobody
        "_trick",  # the current trick's cards
        "_tricks_won",  # tricks taken this hand, by team
    )

    _ctx: HandContext
    _tally: HandCredits
    _phase: Phase
    _to_move: int
    _hands: DealtHands
    _trick: tuple[Card, ...]
    _leader: int
    _points: tuple[int, int]
    _tricks_won: tuple[int, int]
    _scores: tuple[int, int]
    _history: tuple[Any, Action] | None
    _plays: tuple[tuple[Seat, Card], ...]
    _legal: CardSet | None

    # --- construction -------------------------------------------------------------------

    def __init__(self) -> None:
        """Refuse direct construction: a game starts with :meth:`new`."""
        raise InvalidInputError("start a game with Game.new(ruleset, seed=...)")

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"a Game is immutable: cannot set {name!r}; actions return new states")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"a Game is immutable: cannot delete {name!r}")

    def __copy__(self) -> Game:
        return self  # immutable: a copy is the same value

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # The action history is a linked list of pairs; pickle it flat, so that long games
        # do not hit the recursion limit.
        fields = tuple(getattr(self, name) for name in _FIELDS if name != "_history")
        return (_restore, (fields, self.history))

    @classmethod
    def new(
        cls,
        ruleset: RuleSet = SCHIEBER,
        *,
        seed: int | None = None,
        scores: Sequence[int] = (0, 0),
        dealer: Seat | int | None = None,
        hands_played: int = 0,
    ) -> Game:
        """A new game before its first deal; the same ``seed`` gives the same deals.

        Without a seed, one is drawn from the operating system; :attr:`seed` tells which. A
        game may also resume a score sheet: ``scores`` are the running totals before the
        first hand, ``dealer`` deals the first hand (overriding ``first_hand_rule``), and
        ``hands_played`` counts toward a ``hands=`` game's length. :attr:`setup` keeps them.

        >>> Game.new(seed=5).deal().hands == Game.new(seed=5).deal().hands
        True
        >>> g = Game.new(seed=5, scores=(2400, 1700), dealer=Seat(3)).deal()
        >>> g.scores, g.hand_info.dealer
        ((2400, 1700), <Seat.S3: 3>)
        >>> Game.new(seed=5, scores=(2600, 0))
        Traceback (most recent call last):
        ...
        jass.errors.InvalidInputError: scores (2600, 0): team 0 is already at the target 2500, ...
        """
        if not isinstance(ruleset, RuleSet):
            raise InvalidInputError(f"ruleset must be a RuleSet, got {ruleset!r}")
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidInputError(f"seed must be an int, got {seed!r}")
        setup = GameSetup.checked(ruleset, scores, dealer, hands_played)
        return _start(GameFacts.of(ruleset, seed, setup))

    def initial_state(self) -> Game:
        """The state this game started from: same rules, seed and set-up, before any action.

        Replaying :attr:`history` on it gives this state again.

        >>> g = Game.new(seed=3, scores=(100, 40)).deal().shove()
        >>> start = g.initial_state()
        >>> start.scores, start.apply(g.history[0]).apply(g.history[1]) == g
        ((100, 40), True)
        """
        return _start(self._ctx.facts)

    def _evolve(self, **changes: Any) -> Game:
        """This state with some fields changed (for the transitions that are not hot)."""
        values = list(_all_fields(self))
        for name, value in changes.items():
            values[_FIELD_INDEX[name]] = value
        return _build(*values)

    # --- reading the state --------------------------------------------------------------

    @property
    def ruleset(self) -> RuleSet:
        """The rule set in force.

        >>> Game.new(seed=1).ruleset.target
        2500
        """
        return self._ctx.rules

    @property
    def seed(self) -> int:
        """The seed from which the deals are drawn.

        >>> Game.new(seed=42).seed
        42
        """
        return self._ctx.facts.seed

    @property
    def setup(self) -> GameSetup:
        """Where the game started: the scores, the first dealer and the hands played before.

        >>> Game.new(seed=1, hands_played=3).setup.hands_played
        3
        """
        return self._ctx.facts.setup

    @property
    def phase(self) -> Phase:
        """The current :class:`Phase`.

        >>> Game.new(seed=1).phase
        <Phase.DEAL: 'deal'>
        """
        return self._phase

    @property
    def to_move(self) -> Seat | None:
        """The seat that must act, or ``None`` while dealing and after the game.

        >>> g = Game.new(seed=1)
        >>> g.to_move is None, g.deal().to_move == g.deal().hand_info.forehand
        (True, True)
        """
        return _SEATS[self._to_move] if self._to_move >= 0 else None

    @property
    def hand_info(self) -> HandInfo | None:
        """The current (or just finished) hand's record, or ``None`` before the first deal.

        >>> Game.new(seed=1).hand_info is None
        True
        """
        return self._ctx.hand_info

    @property
    def contract(self) -> Contract | None:
        """The contract of the current hand, once named.

        >>> Game.new(seed=1).deal().choose("obenabe").contract
        Contract.OBENABE
        """
        hand = self._ctx.hand_info
        return hand.contract if hand is not None else None

    @property
    def hands(self) -> DealtHands:
        """The cards each seat still holds, by seat (perfect information).

        >>> [len(h) for h in Game.new(seed=1).deal().hands]
        [9, 9, 9, 9]
        """
        return self._hands

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards of the current, incomplete trick, leader first.

        When the game ended at a Stöck scored with a trick's fourth card, it holds that
        uncredited trick (later events are not credited, rule book R9.3).

        >>> g = Game.new(seed=1).deal().choose("obenabe")
        >>> g.play(min(g.legal_moves())).trick == (min(g.legal_moves()),)
        True
        """
        return self._trick

    @property
    def trick_leader(self) -> Seat | None:
        """The seat that leads (or led) the current trick.

        >>> g = Game.new(seed=1).deal().choose("obenabe")
        >>> g.trick_leader == g.hand_info.forehand
        True
        """
        return _SEATS[self._leader] if self._leader >= 0 else None

    @property
    def tricks_won(self) -> tuple[int, int]:
        """Tricks won in the current hand, by team.

        >>> Game.new(seed=1).deal().tricks_won
        (0, 0)
        """
        return self._tricks_won

    @property
    def hand_points(self) -> tuple[int, int]:
        """Unmultiplied card points taken in the current hand, by team.

        >>> Game.new(seed=1).deal().hand_points
        (0, 0)
        """
        return self._points

    @property
    def scores(self) -> tuple[int, int]:
        """Running totals by team, including what this hand has credited so far (R9.2a).

        >>> Game.new(seed=1).scores[Team(0)]
        0
        """
        return self._scores

    @property
    def hand_results(self) -> tuple[HandScore, ...]:
        """The scores of the hands completed in this game, oldest first.

        >>> Game.new(seed=1).hand_results
        ()
        """
        return self._ctx.results

    @property
    def hands_played(self) -> int:
        """Hands completed, those before :meth:`new` (``setup.hands_played``) included.

        >>> Game.new(seed=1, hands_played=4).hands_played
        4
        """
        return self._ctx.facts.setup.hands_played + len(self._ctx.results)

    @property
    def result(self) -> GameResult | None:
        """How the game ended, or ``None`` while it goes on.

        >>> Game.new(seed=1).result is None
        True
        """
        return self._ctx.outcome

    @property
    def is_over(self) -> bool:
        """Whether the game has ended.

        >>> Game.new(seed=1).is_over
        False
        """
        return self._ctx.outcome is not None

    @property
    def winner(self) -> Team | None:
        """The winning team once the game is over; ``None`` before, or for a draw.

        >>> Game.new(seed=1).winner is None
        True
        """
        outcome = self._ctx.outcome
        return outcome.winner if outcome is not None else None

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action since the game began, deals included, oldest first.

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

        >>> Game.new(seed=1).deal().unchecked_plays
        frozenset()
        """
        return self._ctx.unchecked

    @property
    def plays(self) -> tuple[tuple[Seat, Card], ...]:
        """Every card played in the current hand, with the seat that played it, in order.

        >>> g = Game.new(seed=1).deal().choose("obenabe")
        >>> g = g.play(g.legal_moves().cards()[0])
        >>> g.plays == ((g.hand_info.forehand, g.trick[0]),)
        True
        """
        trick = self._trick
        if not trick:
            return self._plays
        leader = self._leader
        return self._plays + tuple(
            (_SEATS[(leader + index) & 3], card) for index, card in enumerate(trick)
        )

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks of the current hand, in order.

        >>> Game.new(seed=1).deal().tricks
        ()
        """
        return completed_tricks(self._plays, self._ctx.contract, self._ctx.data.points)

    @property
    def weis_result(self) -> WeisResult | None:
        """The Weis of the current hand, resolved when trick 1 is complete (rule book R7.8).

        >>> Game.new(seed=1).deal().choose("obenabe").weis_result is None
        True
        """
        return self._tally.weis

    @property
    def declared_weis(self) -> tuple[tuple[Weis, ...] | None, ...]:
        """The Weis each seat has declared in this hand, by seat; ``None`` before it declares.

        Declaring happens with a seat's first card of trick 1: every Weis it holds under
        ``weis_declaration=AUTO``, its choice under ``MANUAL``. At the table the others learn
        only the points; :attr:`shown_weis` gives the cards shown after trick 1.

        >>> Game.new(seed=1).deal().choose("obenabe").declared_weis
        (None, None, None, None)
        """
        ctx = self._ctx
        hand = ctx.hand_info
        if not ctx.weis_on or hand is None or self._phase is _CHOOSE:
            return (None, None, None, None)
        if self._tally.weis is not None:
            return self._tally.weis.declared
        if ctx.manual_weis:
            return self._tally.declared
        played = len(self._trick)
        first = int(hand.forehand)
        return tuple(
            ctx.found_weis(seat) if (seat - first) & 3 < played else None for seat in range(4)
        )

    @property
    def shown_weis(self) -> tuple[Weis, ...]:
        """The Weis shown after trick 1: all those declared by the winning team (R7.7).

        >>> Game.new(seed=1).deal().shown_weis
        ()
        """
        result = self._tally.weis
        if result is None or result.winner is None:
            return ()
        return tuple(w for seat in result.winner.team.seats for w in result.declared[seat])

    @property
    def stoeck(self) -> Seat | None:
        """The seat whose Stöck were scored (or shown to finish) in this hand, else ``None``.

        >>> Game.new(seed=1).deal().stoeck is None
        True
        """
        seat = self._ctx.stoeck_seat
        return _SEATS[seat] if seat >= 0 and self._tally.stoeck_done else None

    @property
    def hand_weis_stoeck(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """Unmultiplied Weis and Stöck points credited so far in this hand, by team.

        >>> Game.new(seed=1).deal().hand_weis_stoeck
        ((0, 0), (0, 0))
        """
        return self._tally.weis_credit, self._tally.stoeck_credit

    def view(self, seat: Seat | int) -> PlayerView:
        """What ``seat`` may know of this state: its own cards and everything public.

        >>> g = Game.new(seed=1).deal()
        >>> v = g.view(Seat(1))
        >>> v.hand == g.hands[1], hasattr(v, "hands")
        (True, False)
        """
        return PlayerView(self, seat)

    def legal_moves(self) -> CardSet:
        """The cards the player to move may play; empty outside the play phase.

        >>> g = Game.new(seed=1).deal().choose("obenabe")
        >>> g.legal_moves() == g.hands[g.to_move]
        True
        """
        if self._phase is not _PLAY:
            return _EMPTY
        legal = self._legal
        if legal is None:
            # play.legal_cards, minus one call: the kernel on the plain mask.
            trick = self._trick
            hand = self._hands[self._to_move]
            if trick:
                ctx = self._ctx
                legal = _new_set(
                    CardSet, legal_mask(int(hand), trick, ctx.data)
                )
            else:
                legal = hand  # any card may be led (R5.1)
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

        >>> import jass
        >>> g = Game.new(jass.rules.TOURNAMENT_12, seed=1).deal()
        >>> [a.index for a in g.legal_actions()]
        [36, 37, 38, 39, 40, 41, 43]
        """
        phase = self._phase
        actions: list[Play | Choose | Shove | DeclareWeis | Thank]
        if phase is _PLAY:
            actions = [PLAY_ACTIONS[c] for c in self.legal_moves()]
            if self._declaring_open():
                found = find_weis(self._hands[self._to_move], self._ctx.rules)
                for mask in range(1, 1 << len(found)):
                    chosen = tuple(w for i, w in enumerate(found) if mask >> i & 1)
                    actions.append(DeclareWeis(chosen))
        elif phase is _CHOOSE:
            allowed = self._ctx.rules.contracts
            actions = [Choose(c) for c in Contract.all() if c in allowed]
            if self._shove_refusal() is None:
                actions.append(Shove())
        else:
            return ()
        if self._thank_refusal() is None:
            actions.append(Thank(_TEAMS[self._to_move & 1]))
        return tuple(actions)

    # --- predicates: whether an action is allowed now; they never raise -------------------

    def can_deal(self) -> bool:
        """Whether the next hand may be dealt now.

        >>> Game.new(seed=1).can_deal(), Game.new(seed=1).deal().can_deal()
        (True, False)
        """
        return self._phase is _DEAL

    def can_shove(self) -> bool:
        """Whether the player to move may shove the choice to the partner now (rule book §4).

        >>> g = Game.new(seed=1).deal()
        >>> g.can_shove(), g.shove().can_shove()
        (True, False)
        """
        return self._shove_refusal() is None

    def can_choose(self, contract: Contract | str) -> bool:
        """Whether the player to move may name ``contract`` now.

        >>> import jass
        >>> g = Game.new(jass.rules.BEGINNER, seed=1).deal()
        >>> g.can_choose("hearts"), g.can_choose("obenabe"), g.can_choose("no such")
        (True, False, False)
        """
        try:
            contract = Contract.parse(contract)
        except JassError:
            return False
        return self._choose_refusal(contract) is None

    def can_play(self, card: Card | str) -> bool:
        """Whether the player to move may play ``card`` now.

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

        >>> import jass
        >>> manual = jass.rules.SCHIEBER.evolve(weis_declaration="MANUAL")
        >>> g = Game.new(manual, seed=4).deal().choose("obenabe")
        >>> g.can_declare_weis(), g.can_declare_weis(jass.find_weis(g.hands[g.to_move]))
        (True, True)
        """
        try:
            chosen = _weis_choice(weis)
        except JassError:
            return False
        return self._declare_refusal(chosen) is None

    def can_thank(self, team: Team | int) -> bool:
        """Whether ``team`` may thank now (rule book R9.2a: either team, at any time).

        >>> import jass
        >>> Game.new(seed=1).can_thank(Team(1)), Game.new(jass.rules.TOURNAMENT_12).can_thank(0)
        (True, False)
        """
        if isinstance(team, bool) or not isinstance(team, int) or team not in (0, 1):
            return False
        return self._thank_refusal() is None

    # --- actions ------------------------------------------------------------------------

    def apply(self, action: Action) -> Game:
        """Apply an action value; the same as calling the matching method.

        >>> g = Game.new(seed=1).deal()
        >>> g.apply(Shove()) == g.shove()
        True
        """
        if isinstance(action, Play):
            return self.play(action.card)
        if isinstance(action, Choose):
            return self.choose(action.contract)
        if isinstance(action, Shove):
            return self.shove()
        if isinstance(action, DeclareWeis):
            return self.declare_weis(action.weis)
        if isinstance(action, Thank):
            return self.thank(action.team)
        if isinstance(action, Deal):
            return self.deal(hands=action.hands)
        raise InvalidInputError(f"{action!r} is not an action")

    def deal(self, hands: Iterable[CardSet | str] | None = None) -> Game:
        """Deal the next hand: from the seeded deck, or the four ``hands`` given by seat.

        The seeded deal follows rule book R3.5: three rounds of 3-card packets, forehand first.
        Injected hands may be card sets or strings of card names.

        >>> g = Game.new(seed=1).deal(hands=["6S 7S 8S 9S 10S JS QS KS AS", CardSet(0x1FF << 9),
        ...                                   CardSet(0x1FF << 18), CardSet(0x1FF << 27)])
        >>> str(g.hands[0])
        '6S 7S 8S 9S 10S JS QS KS AS'
        """
        if self._phase is not _DEAL:
            self._refuse(None, self._phase_refusal("deal"))
        ctx = self._ctx
        number = self.hands_played
        setup = ctx.facts.setup
        last_dealer = ctx.hand_info.dealer if ctx.hand_info is not None else None
        cards = check_deal(hands) if hands is not None else None
        if last_dealer is None and setup.dealer is not None:
            dealer = int(setup.dealer)
        else:
            dealer = next_dealer(ctx.rules, ctx.facts.seed, last_dealer, ctx.results, cards)
        if cards is None:
            cards = seeded_deal(ctx.facts.seed, number, (dealer + 1) & 3)
            if dealer < 0:  # marker-card first hand: dealt as if seat 3 dealt (R3.7)
                dealer = next_dealer(ctx.rules, ctx.facts.seed, last_dealer, ctx.results, cards)
        hand = HandInfo(number, _SEATS[dealer], cards, scores_before=self._scores)
        return _build(
            ctx.with_hand(hand),
            NO_CREDITS,
            _CHOOSE,
            (dealer + 1) & 3,
            cards,
            (),
            -1,
            (0, 0),
            (0, 0),
            self._scores,
            (self._history, _deal_action(cards)),
            (),
        )

    def shove(self) -> Game:
        """Shove the choice to the partner (rule book §4).

        >>> Game.new(seed=1).deal().shove().shove()
        Traceback (most recent call last):
        ...
        jass.errors.IllegalActionError: cannot shove: the choice was already shoved and ...
        """
        action = Shove()
        refusal = self._shove_refusal()
        if refusal is not None:
            self._refuse(action, refusal)
        hand = self._ctx.hand_info
        assert hand is not None  # noqa: S101
        return self._evolve(
            _ctx=self._ctx.with_hand(attrs.evolve(hand, shoves=hand.shoves + 1)),
            _to_move=(self._to_move + 2) & 3,
            _history=(self._history, action),
        )

    def choose(self, contract: Contract | str) -> Game:
        """Name the contract (a :class:`~jass.Contract` or its name); the forehand then leads.

        >>> import jass
        >>> Game.new(jass.rules.BEGINNER, seed=1).deal().choose("obenabe")
        Traceback (most recent call last):
        ...
        jass.errors.IllegalActionError: OBENABE is not allowed by this rule set; allowed: ...
        """
        contract = Contract.parse(contract)
        action = Choose(contract)
        refusal = self._choose_refusal(contract)
        if refusal is not None:
            self._refuse(action, refusal)
        hand = self._ctx.hand_info
        assert hand is not None  # noqa: S101
        chosen = HandInfo(
            hand.number,
            hand.dealer,
            hand.dealt,
            contract,
            _SEATS[self._to_move],
            hand.shoves,
            hand.scores_before,
        )
        leader = (hand.dealer + 1) & 3
        game = _build(
            self._ctx.with_hand(chosen),
            self._tally,
            _PLAY,
            leader,
            self._hands,
            (),
            leader,
            (0, 0),
            (0, 0),
            self._scores,
            (self._history, action),
            (),
        )
        if game._ctx.stoeck_seat >= 0 and game._ctx.facts.claim_stoeck:
            return game._credited([], game._ctx.hand_step)  # Stöck that finish at once (R9.4)
        return game

    def play(self, card: Card | str) -> Game:
        """Play ``card`` (a :class:`~jass.Card` or its name) for the player to move.

        >>> g = Game.new(seed=1).deal().choose("hearts")
        >>> other = g.hands[(g.to_move + 1) % 4].cards()[0]
        >>> g.play(other)
        Traceback (most recent call last):
        ...
        jass.errors.IllegalActionError: ... is not in the hand of seat ...
        """
        if card.__class__ is not Card:
            card = as_card(card)
        seat = self._to_move
        hands = self._hands
        hand = hands[seat]
        trick = self._trick
        bit = 1 << card
        # A lead, or a card of the led suit, is legal if held (R5.1); the rest asks the rule.
        if (
            self._phase is not _PLAY
            or not _and(hand, bit)
            or (
                trick
                and not _SUIT_MASK_OF[trick[0]] & bit
                and not _and(self._legal or self.legal_moves(), bit)
            )
        ):
            self._refuse(PLAY_ACTIONS[card], self._play_refusal(card))
        ctx = self._ctx
        left = _new_set(CardSet, _xor(hand, bit))
        tally = self._tally
        if ctx.manual_weis and self._declaring_open():
            # Playing the first card of trick 1 undeclared declares nothing (R7.7).
            declared = list(tally.declared)
            declared[seat] = ()
            tally = tally._replace(declared=tuple(declared))
        hands = (
            (left, hands[1], hands[2], hands[3])
            if seat == 0
            else (hands[0], left, hands[2], hands[3])
            if seat == 1
            else (hands[0], hands[1], left, hands[3])
            if seat == 2
            else (hands[0], hands[1], hands[2], left)
        )
        history = (self._history, PLAY_ACTIONS[card])
        plays = self._plays
        scores = self._scores
        if (
            ctx.stoeck_mask & bit
            and seat == ctx.stoeck_seat
            and not _and(left, ctx.stoeck_mask)  # the second of trump King and Queen (R8.1)
            and not tally.stoeck_done
        ):
            ledger = crediting.credit_step(
                (ctx, tally, scores),
                [(ScoringEvent.STOECK, seat & 1, STOECK_POINTS)],
                ctx.hand_step + self._tricks_won[0] + self._tricks_won[1],
            )
            ctx, tally, scores = ledger
            if ctx.outcome is not None:  # the Stöck ended the game: the trick stays as it is
                return _build(
                    ctx,
                    tally,
                    _OVER,
                    -1,
                    hands,
                    (*trick, card),
                    self._leader,
                    self._points,
                    self._tricks_won,
                    scores,
                    history,
                    plays,
                )
        if len(trick) == 3:
            return _trick_completed(
                ctx,
                tally,
                scores,
                hands,
                (trick[0], trick[1], trick[2], card),
                self._leader,
                self._points,
                self._tricks_won,
                history,
                plays,
            )
        return _build(
            ctx,
            tally,
            _PLAY,
            (seat + 1) & 3,
            hands,
            (*trick, card),
            self._leader,
            self._points,
            self._tricks_won,
            scores,
            history,
            plays,
        )

    def declare_weis(self, weis: Weis | Iterable[Weis] = ()) -> Game:
        """Declare Weis before playing the first card of trick 1 (``weis_declaration=MANUAL``).

        ``weis`` is any choice of the Weis :func:`~jass.find_weis` finds in the mover's hand;
        undeclared Weis never score (rule book R7.7).

        >>> import jass
        >>> manual = jass.rules.SCHIEBER.evolve(weis_declaration="MANUAL")
        >>> g = Game.new(manual, seed=4).deal().choose("obenabe")
        >>> g = g.declare_weis(jass.find_weis(g.hands[g.to_move])[:1])
        >>> g.declared_weis[g.to_move] is not None
        True
        """
        chosen = _weis_choice(weis)
        action = DeclareWeis(chosen)
        refusal = self._declare_refusal(chosen)
        if refusal is not None:
            self._refuse(action, refusal)
        declared = list(self._tally.declared)
        declared[self._to_move] = chosen
        return self._evolve(
            _tally=self._tally._replace(declared=tuple(declared)),
            _history=(self._history, action),
        )

    def thank(self, team: Team | int) -> Game:
        """Team ``team`` thanks: it claims the target (rule book R9.2). True wins, false loses.

        Counted are the running totals with this hand's credited events, and Stöck that may be
        shown to finish (R9.4); the cards of an incomplete trick never count. If both teams
        reached the target within the current scoring step, the ausmach order decides.

        >>> g = Game.new(seed=1).deal().thank(Team(0))
        >>> g.is_over, g.winner, g.result.reason.name
        (True, <Team.T1: 1>, 'FALSE_THANK')
        """
        if isinstance(team, bool) or not isinstance(team, int) or team not in (0, 1):
            raise InvalidInputError(f"team must be Team(0) or Team(1), got {team!r}")
        team = _TEAMS[team]
        action = Thank(team)
        refusal = self._thank_refusal()
        if refusal is not None:
            self._refuse(action, refusal)
        ctx = self._ctx
        completed = self._tricks_won[0] + self._tricks_won[1] if self._phase is not _CHOOSE else 0
        ledger = crediting.thank(
            (ctx, self._tally, self._scores),
            team,
            crediting.current_step(ctx, self._tally, completed),
            hand_open=self._phase is not _DEAL,
        )
        return self._ended(ledger, (self._history, action))

    # --- refusals: why an action is not allowed now, or None ------------------------------

    def _phase_refusal(self, what: str) -> Refusal:
        if self._ctx.outcome is not None:
            return IllegalReason.GAME_OVER, f"cannot {what}: the game is over"
        return IllegalReason.WRONG_PHASE, f"cannot {what} in phase {self._phase.name}"

    def _shove_refusal(self) -> Refusal | None:
        if self._phase is not _CHOOSE:
            return self._phase_refusal("shove")
        hand = self._ctx.hand_info
        assert hand is not None  # noqa: S101
        back = self._ctx.rules.allow_shove_back
        if hand.shoves == 0 or (hand.shoves == 1 and back):
            return None
        return (
            IllegalReason.SHOVE_NOT_ALLOWED,
            "cannot shove: the choice was already shoved"
            + ("" if back else " and allow_shove_back is off"),
        )

    def _choose_refusal(self, contract: Contract) -> Refusal | None:
        if self._phase is not _CHOOSE:
            return self._phase_refusal(f"choose {contract}")
        rules = self._ctx.rules
        if contract in rules.contracts:
            return None
        allowed = ", ".join(c.name for c in Contract.all() if c in rules.contracts)
        return (
            IllegalReason.CONTRACT_NOT_ALLOWED,
            f"{contract} is not allowed by this rule set; allowed: {allowed}",
        )

    def _play_refusal(self, card: Card) -> Refusal | None:
        if self._phase is not _PLAY:
            return self._phase_refusal(f"play {card}")
        hand = self._hands[self._to_move]
        ctx = self._ctx
        explained = explain_illegal(hand, self._trick, ctx.contract, card, ctx.rules)
        if explained is None:
            return None
        reason, text = explained
        if reason is IllegalReason.NOT_IN_HAND:
            text = f"{card} is not in the hand of seat {self._to_move} ({hand})"
        return reason, text

    def _declaring_open(self) -> bool:
        """Whether the mover may still declare Weis by hand (``MANUAL``, trick 1)."""
        return (
            self._ctx.manual_weis
            and self._tricks_won == (0, 0)
            and self._phase is _PLAY
            and self._tally.declared[self._to_move] is None
        )

    def _declare_refusal(self, chosen: tuple[Weis, ...]) -> Refusal | None:
        if self._phase is not _PLAY:
            return self._phase_refusal("declare Weis")
        rules = self._ctx.rules
        if not self._declaring_open():
            why = (
                "this rule set has no Weis"
                if not rules.weis
                else "Weis are declared automatically (weis_declaration=AUTO)"
                if rules.weis_declaration is WeisDeclaration.AUTO
                else "Weis are declared only before one's first card of trick 1, once"
            )
            return IllegalReason.WEIS_NOT_DECLARABLE, f"cannot declare Weis: {why}"
        found = find_weis(self._hands[self._to_move], rules)
        for index, item in enumerate(chosen):
            if item not in found or item in chosen[:index]:
                return (
                    IllegalReason.WEIS_NOT_IN_HAND,
                    f"cannot declare {item}: the Weis of seat {self._to_move} are "
                    + (", ".join(str(w) for w in found) or "none"),
                )
        return None

    def _thank_refusal(self) -> Refusal | None:
        ctx = self._ctx
        if ctx.outcome is not None:
            return IllegalReason.GAME_OVER, "cannot thank: the game is over"
        if ctx.rules.hands is not None:
            return (
                IllegalReason.THANK_NOT_ALLOWED,
                "cannot thank: the game has a fixed number of hands",
            )
        if ctx.rules.end_mode is EndMode.END_OF_HAND:
            return (
                IllegalReason.THANK_NOT_ALLOWED,
                "cannot thank: end_mode=END_OF_HAND decides the game at the end of a hand",
            )
        return None

    def _refuse(self, action: object, refusal: Refusal | None) -> NoReturn:
        assert refusal is not None  # noqa: S101  (the fast checks agree with the refusals)
        reason, text = refusal
        raise IllegalActionError(text, reason, action, self)

    # --- crediting: build the next state from the pure functions' ledger -------------------

    def _ended(self, ledger: Ledger, history: tuple[Any, Action] | None) -> Game:
        """This state with ``ledger`` applied, finished, and ``history``."""
        ctx, tally, scores = ledger
        return self._evolve(
            _ctx=ctx,
            _tally=tally,
            _scores=scores,
            _phase=_OVER,
            _to_move=-1,
            _history=history,
        )

    def _credited(self, events: list[Event], step: int) -> Game:
        """This state after one scoring step (see :func:`jass.engine._crediting.credit_step`)."""
        ledger = crediting.credit_step((self._ctx, self._tally, self._scores), events, step)
        ctx, tally, scores = ledger
        if ctx.outcome is not None:
            return self._ended(ledger, self._history)
        return self._evolve(_ctx=ctx, _tally=tally, _scores=scores)

    def _hand_completed(self) -> Game:
        """Score the hand just completed, even if its last trick ended the game."""
        ctx = self._ctx
        hand = ctx.hand_info
        assert hand is not None  # noqa: S101
        tally = self._tally
        score = score_hand_unchecked(
            ctx.contract,
            self._points,
            self._tricks_won,
            hand.declaring_team,
            ctx.rules,
            tally.weis_credit,
            tally.stoeck_credit,
        )
        start = hand.scores_before
        scores = (start[0] + score.totals[0], start[1] + score.totals[1])
        if ctx.outcome is not None:
            # The last trick ended the game: the hand counts if every event of it was credited.
            return self._evolve(_ctx=ctx.with_result(score)) if scores == self._scores else self
        ctx = ctx.with_result(score)
        game = self._evolve(_ctx=ctx, _scores=scores, _phase=_DEAL, _to_move=-1, _leader=-1)
        ending = end_after_hand(ctx.rules, scores, ctx.facts.setup.hands_played + len(ctx.results))
        if ending is None:
            return game
        ledger = crediting.end_game((ctx, tally, scores), *ending, hand_open=False)
        return game._ended(ledger, game._history)

    # --- equality -----------------------------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        return (
            self._ctx.key(),
            self._tally,
            self._phase,
            self._to_move,
            self._hands,
            self._trick,
            self._leader,
            self._points,
            self._tricks_won,
            self._scores,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        ctx = self._ctx
        parts = [f"seed={ctx.facts.seed}", self._phase.name]
        if ctx.hand_info is not None:
            parts.append(f"hand {ctx.hand_info.number}")
            if ctx.hand_info.contract is not None:
                parts.append(str(ctx.hand_info.contract))
        if self._to_move >= 0:
            parts.append(f"seat {self._to_move} to move")
        parts.append(f"scores {self._scores[0]}:{self._scores[1]}")
        return f"<Game {', '.join(parts)}>"

    def _repr_svg_(self) -> str:
        """The table seen by the seat to move, which notebooks show (see :func:`jass.svg.table`).

        >>> Game.new(seed=5).deal()._repr_svg_().count('class="seat"')
        4
        """
        from jass import svg  # noqa: PLC0415 (svg sits above state in the import order)

        return svg.table(self)


class _Draft(Game):
    """A :class:`Game` under construction: plain attribute setting, then it becomes a Game."""

    __slots__ = ()
    # Both, so that the type's one C setter slot is object's own (fast); see _build.
    __setattr__ = object.__setattr__  # type: ignore[assignment]
    __delattr__ = object.__delattr__  # type: ignore[assignment]


#: The fields of a state, in the order of _build's parameters (the slots but the cache).
_FIELDS: Final = (
    "_ctx",
    "_tally",
    "_phase",
    "_to_move",
    "_hands",
    "_trick",
    "_leader",
    "_points",
    "_tricks_won",
    "_scores",
    "_history",
    "_plays",
)
_set_legal: Final[Callable[[Game, CardSet], None]] = Game.__dict__["_legal"].__set__
_set_ctx: Final[Callable[[Game, HandContext], None]] = Game.__dict__["_ctx"].__set__
_FIELD_INDEX: Final = {name: index for index, name in enumerate(_FIELDS)}
_all_fields: Final = operator.attrgetter(*_FIELDS)


def _build(
    ctx: HandContext,
    tally: HandCredits,
    phase: Phase,
    to_move: int,
    hands: DealtHands,
    trick: tuple[Card, ...],
    leader: int,
    points: tuple[int, int],
    tricks_won: tuple[int, int],
    scores: tuple[int, int],
    history: tuple[Any, Action] | None,
    plays: tuple[tuple[Seat, Card], ...],
) -> Game:
    """The one place where the fields of a state are set (in the order of ``Game.__slots__``)."""
    game = _new(_Draft)
    game._ctx = ctx
    game._tally = tally
    game._phase = phase
    game._to_move = to_move
    game._hands = hands
    game._trick = trick
    game._leader = leader
    game._points = points
    game._tricks_won = tricks_won
    game._scores = scores
    game._history = history
    game._plays = plays
    game._legal = None
    game.__class__ = Game  # type: ignore[assignment]
    return game


def _trick_completed(
    ctx: HandContext,
    tally: HandCredits,
    scores: tuple[int, int],
    hands: DealtHands,
    trick: tuple[Card, Card, Card, Card],
    leader: int,
    points: tuple[int, int],
    tricks_won: tuple[int, int],
    history: tuple[Any, Action],
    plays: tuple[tuple[Seat, Card], ...],
) -> Game:
    """The state after a trick's fourth card: the trick credited, and the hand if it was last."""
    # play.trick_winner, inlined for speed; tests/test_view_fresh.py cross-checks the seats
    # this gives against the kernel.
    keys = ctx.data.win_keys[trick[0] // 9]
    best = 0
    best_key = keys[trick[0]]
    for index in (1, 2, 3):
        key = keys[trick[index]]
        if key > best_key:
            best = index
            best_key = key
    winner = (leader + best) & 3
    team = winner & 1
    plays += (
        (_SEATS[leader], trick[0]),
        (_SEATS[(leader + 1) & 3], trick[1]),
        (_SEATS[(leader + 2) & 3], trick[2]),
        (_SEATS[(leader + 3) & 3], trick[3]),
    )
    data = ctx.data
    table = data.points
    taken = table[trick[0]] + table[trick[1]] + table[trick[2]] + table[trick[3]]
    tricks_won = (tricks_won[0] + 1 - team, tricks_won[1] + team)
    completed = tricks_won[0] + tricks_won[1]
    step = ctx.hand_step + completed - 1
    if needs_full_step(ctx, tally, completed):
        ledger, events = crediting.trick_events(
            (ctx, tally, scores), winner, taken, tricks_won
        )
        ctx, tally, scores = crediting.credit_step(ledger, events, step)
    else:
        # Only the trick scores: crediting.credit, inlined for speed, unless it reaches the
        # target (then credit does it, the end of the game included). The property tests
        # check every hand's totals against scoring.score_hand.
        credited = team ^ data.credit_swap
        before = scores[credited]
        after = before + taken * data.multiplier
        target = ctx.facts.reach_target
        if target is not None and before < target <= after:
            ctx, tally, scores = crediting.credit(
                (ctx, tally, scores), ScoringEvent.TRICK, credited, taken, step
            )
        else:
            scores = (after, scores[1]) if credited == 0 else (scores[0], after)
    over = ctx.outcome is not None
    game = _build(
        ctx,
        tally,
        _OVER if over else _PLAY,
        -1 if over else winner,
        hands,
        (),
        winner,
        add_to(points, team, taken + 5 if completed == 9 else taken),
        tricks_won,
        scores,
        history,
        plays,
    )
    return game._hand_completed() if completed == 9 else game


def _start(facts: GameFacts) -> Game:
    """A game before its first deal."""
    return _build(
        HandContext(facts), NO_CREDITS, _DEAL, -1, _NO_HANDS, (), -1, (0, 0), (0, 0),
        facts.setup.scores, None, (),
    )


def _restore(fields: tuple[Any, ...], history: tuple[Action, ...]) -> Game:
    """Rebuild a pickled :class:`Game` (see ``Game.__reduce__``)."""
    node: tuple[Any, Action] | None = None
    for action in history:
        node = (node, action)
    values = list(fields)
    values.insert(_FIELDS.index("_history"), node)
    return _build(*values)


def _deal_action(cards: DealtHands) -> Deal:
    """A :class:`Deal` value for hands already checked (skips the converter)."""
    action = object.__new__(Deal)
    object.__setattr__(action, "hands", cards)
    return action


def _weis_choice(weis: object) -> tuple[Weis, ...]:
    """A choice of Weis as a tuple; strings and other non-Weis values are refused."""
    if isinstance(weis, Weis):
        return (weis,)
    if isinstance(weis, (str, bytes)):
        raise InvalidInputError(
            f"declare_weis takes Weis values (see jass.find_weis), not the string {weis!r}"
        )
    if not isinstance(weis, Iterable):
        raise InvalidInputError(f"declare_weis takes Weis values, got {weis!r}")
    chosen = tuple(weis)
    for item in chosen:
        if not isinstance(item, Weis):
            raise InvalidInputError(f"declare_weis takes Weis values, got {item!r} in {weis!r}")
    return chosen


def play_unchecked(game: Game, card: Card) -> Game:
    """``game.play(card)`` for a held card that the rules may refuse.

    For replaying another engine's records, where that engine allowed the card (an
    undertrump that only jass-kit's issue #10 allows); the result is a game in which a rule
    may have been broken, so this is not for play. The play is listed in
    :attr:`Game.unchecked_plays`, so that views draw no inference from it. ``game`` itself
    must be a throwaway step of the replay: its cache of legal cards is widened.

    >>> g = Game.new(seed=1).deal().choose("hearts")
    >>> card = g.legal_moves().cards()[0]
    >>> after = play_unchecked(g, card)
    >>> after.trick == (card,), after.unchecked_plays
    (True, frozenset({0}))
    """
    index = len(game.plays)
    _set_legal(game, CardSet(int(game.legal_moves()) | 1 << card))
    after = game.play(card)
    _set_ctx(after, after._ctx.with_unchecked(index))  # a fresh state: no one holds it yet
    return after
