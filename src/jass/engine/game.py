"""The immutable game state machine, :class:`Game`: construction and the transitions.

Every action returns a new :class:`Game`; a state never changes, so it can be kept as a
search node, shared between threads, or used as a dict key. Each action has a predicate that
never raises (``can_play(card)``, ``can_shove()``, ...; in :mod:`jass.engine._queries`);
the action applies or raises :class:`~jass.IllegalActionError` and leaves the state as it
was. Scoring events are credited by the pure functions of :mod:`jass.engine._crediting`.

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
from collections.abc import Iterable, Sequence
from operator import index as _bits
from typing import Any, Final, NoReturn

import attrs

from jass._budgets import is_int
from jass.core.cards import Card, CardSet, as_card
from jass.core.contracts import Contract
from jass.core.dealing import DealtHands, check_deal, next_dealer, seeded_deal
from jass.core.play import legal_mask
from jass.core.scoring import ScoringEvent, end_after_hand, score_hand_unchecked
from jass.core.seats import Seat, Team
from jass.core.weis import Weis
from jass.engine import _crediting as crediting
from jass.engine._context import NO_CREDITS, GameFacts, HandContext, HandCredits
from jass.engine._crediting import STOECK_POINTS, Event, Ledger
from jass.engine._public import NO_ROUND, Round, new_round, weis_choice
from jass.engine._queries import GameQueries, _set_legal
from jass.engine.actions import PLAY_ACTIONS, Action, Choose, Deal, DeclareWeis, Play, Shove, Thank
from jass.engine.hand import GameSetup, HandInfo, Phase
from jass.errors import InvalidInputError, describe
from jass.rules import SCHIEBER, RuleSet, find_ruleset

__all__ = ["Game"]

_new: Final = object.__new__
_tuple_new: Final = tuple.__new__
_new_set: Final = int.__new__
# Int operations on card sets in the hot path: CardSet's own operators are Python methods.
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


class Game(GameQueries):
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

    __slots__ = ()  # the fields are GameQueries' slots

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
        # The action history is a linked list: pickled flat, for long games' recursion limit.
        fields = tuple(getattr(self, name) for name in _FIELDS if name != "_history")
        return (_restore, (fields, self.history))

    @classmethod
    def new(
        cls,
        ruleset: RuleSet | str = SCHIEBER,
        *,
        seed: int | None = None,
        scores: Sequence[int] = (0, 0),
        dealer: Seat | int | None = None,
        hands_played: int = 0,
    ) -> Game:
        """A new game before its first deal; the same ``seed`` gives the same deals.

        ``ruleset`` is a :class:`~jass.RuleSet` or a preset's name (``"SCHIEBER"``, any case).
        Without a seed, one is drawn from the operating system; :attr:`seed` tells which. A
        game may also resume a score sheet: ``scores`` are the totals before the first hand,
        ``dealer`` deals the first hand (overriding ``first_hand_rule``), and
        ``hands_played`` counts toward a ``hands=`` game's length. :attr:`setup` keeps them.

        >>> Game.new(seed=5).deal().hands == Game.new(seed=5).deal().hands
        True
        >>> Game.new("tournament_12", seed=5).ruleset.hands
        12
        >>> g = Game.new(seed=5, scores=(2400, 1700), dealer=Seat(3)).deal()
        >>> g.scores, g.hand_info.dealer
        ((2400, 1700), <Seat.S3: 3>)
        >>> Game.new(seed=5, scores=(2600, 0))
        Traceback (most recent call last):
        ...
        jass.errors.InvalidInputError: scores (2600, 0): team 0 is already at the target 2500, ...
        """
        if isinstance(ruleset, str):
            ruleset = find_ruleset(ruleset)  # a preset name, as the CLI and the envs take
        elif not isinstance(ruleset, RuleSet):
            raise InvalidInputError(
                f"ruleset must be a RuleSet or a preset name, got {describe(ruleset)}"
            )
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        elif not is_int(seed):
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
        if self.phase is not _DEAL:
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
            NO_ROUND,
            self._scores,
            (self._history, _deal_action(cards)),
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
        """Name the contract (a :class:`~jass.Contract`, or a name :meth:`Contract.parse` reads).

        >>> import jass
        >>> Game.new(seed=1).deal().choose("Trumpf Eichel").contract
        Contract.trump(Suit.DIAMONDS)
        >>> Game.new(jass.rules.BEGINNER, seed=1).deal().choose("obenabe")
        Traceback (most recent call last):
        ...
        jass.errors.IllegalActionError: OBENABE is not allowed by this rule set; allowed: ...
        """
        contract = Contract.parse(contract, self.ruleset.suit_pairing)
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
            new_round(leader=leader, points=(0, 0), tricks_won=(0, 0), plays=()),
            self._scores,
            (self._history, action),
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
        held = _bits(hands[seat])  # plain ints: a CardSet's own operators cost more
        trick = self._trick
        bit = 1 << card
        # A lead, or a card of the led suit, is legal if held (R5.1); the rest asks the rule.
        if (
            self.phase is not _PLAY
            or not held & bit
            or (
                trick
                and not _SUIT_MASK_OF[trick[0]] & bit
                and not _bits(self._legal or self.legal_moves()) & bit
            )
        ):
            self._refuse(PLAY_ACTIONS[card], self._play_refusal(card))
        ctx = self._ctx
        held ^= bit
        left = _new_set(CardSet, held)
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
        tally = self._tally
        if ctx.manual_weis and self._declaring_open():
            # Playing the first card of trick 1 undeclared declares nothing (R7.7).
            declared = list(tally.declared)
            declared[seat] = ()
            tally = tally._replace(declared=tuple(declared))
        scores = self._scores
        if (
            ctx.stoeck_mask & bit
            and seat == ctx.stoeck_seat
            and not held & ctx.stoeck_mask  # the second of trump King and Queen (R8.1)
            and not tally.stoeck_done
        ):
            ctx, tally, scores = self._stoeck_scored(tally, seat)
            if ctx.outcome is not None:  # the Stöck ended the game: the trick stays as it is
                return _build(
                    ctx, tally, _OVER, -1, hands, (*trick, card), self._round, scores, history
                )
        if len(trick) == 3:
            ctx, tally, scores, after = crediting.trick_completed(
                (ctx, tally, scores), (trick[0], trick[1], trick[2], card), self._round
            )
            won = after.tricks_won
            if won[0] + won[1] == 9:
                return _hand_completed((ctx, tally, scores), hands, after, history)
            over = ctx.outcome is not None
            return _build(
                ctx, tally, _OVER if over else _PLAY, -1 if over else after.leader, hands, (),
                after, scores, history,
            )  # fmt: skip
        more = trick + (card,)  # noqa: RUF005  (a concatenation: faster than unpacking)
        to_move = (seat + 1) & 3
        # The next legal cards (as legal_moves() computes them), cached cheapest while built.
        hand = hands[to_move]
        held = _bits(hand)
        mask = legal_mask(held, more, ctx.data)
        legal = hand if mask == held else _new_set(CardSet, mask)
        return _build(
            ctx, tally, _PLAY, to_move, hands, more, self._round, scores, history, legal=legal
        )

    def _stoeck_scored(self, tally: HandCredits, seat: int) -> Ledger:
        """The ledger after ``seat`` plays the second of its Stöck (rule book R8.1)."""
        round_ = self._round
        return crediting.credit_step(
            (self._ctx, tally, self._scores),
            [(ScoringEvent.STOECK, seat & 1, STOECK_POINTS)],
            self._ctx.hand_step + round_.tricks_won[0] + round_.tricks_won[1],
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
        chosen = weis_choice(weis)
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
        if not is_int(team) or team not in (0, 1):
            raise InvalidInputError(f"team must be Team(0) or Team(1), got {team!r}")
        team = _TEAMS[team]
        action = Thank(team)
        refusal = self._thank_refusal()
        if refusal is not None:
            self._refuse(action, refusal)
        ctx = self._ctx
        won = self._round.tricks_won
        completed = won[0] + won[1] if self.phase is not _CHOOSE else 0
        ledger = crediting.thank(
            (ctx, self._tally, self._scores),
            team,
            crediting.current_step(ctx, self._tally, completed),
            hand_open=self.phase is not _DEAL,
        )
        return self._ended(ledger, (self._history, action))

    # --- crediting: build the next state from the pure functions' ledger -------------------

    def _ended(self, ledger: Ledger, history: tuple[Any, Action] | None) -> Game:
        """This state with ``ledger`` applied, finished, and ``history``."""
        ctx, tally, scores = ledger
        return self._evolve(
            _ctx=ctx,
            _tally=tally,
            _scores=scores,
            phase=_OVER,
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


#: The fields of a state, in the order of _build's parameters (the slots but the caches).
_FIELDS: Final = (
    "_ctx",
    "_tally",
    "phase",
    "_to_move",
    "_hands",
    "_trick",
    "_round",
    "_scores",
    "_history",
)
_FIELD_INDEX: Final = {name: index for index, name in enumerate(_FIELDS)}
_all_fields: Final = operator.attrgetter(*_FIELDS)


def _build(
    ctx: HandContext,
    tally: HandCredits,
    phase: Phase,
    to_move: int,
    hands: DealtHands,
    trick: tuple[Card, ...],
    round_: Round,
    scores: tuple[int, int],
    history: tuple[Any, Action] | None,
    *,
    legal: CardSet | None = None,
) -> Game:
    """The one place where the fields of a state are set (in the order of :data:`_FIELDS`).

    Each parameter has a type of its own, so a type checker refuses two swapped arguments;
    the round's leader, points and tricks are set by keyword (:class:`Round`). ``legal``
    fills the cache of :meth:`legal_moves` (``None``: computed when asked).
    """
    game = _new(_Draft)
    game._ctx = ctx
    game._tally = tally
    game.phase = phase
    game._to_move = to_move
    game._hands = hands
    game._trick = trick
    game._round = round_
    game._scores = scores
    game._history = history
    game._legal = legal
    game.__class__ = Game  # type: ignore[assignment]
    return game


def _hand_completed(
    ledger: Ledger, hands: DealtHands, after: Round, history: tuple[Any, Action] | None
) -> Game:
    """The state after the ninth trick, credited in ``ledger``, scored even if it ended the game."""
    ctx, tally, scores = ledger
    hand = ctx.hand_info
    assert hand is not None  # noqa: S101
    score = score_hand_unchecked(
        ctx.contract, after.points, after.tricks_won, hand.declaring_team, ctx.rules,
        tally.weis_credit, tally.stoeck_credit,
    )  # fmt: skip
    start = hand.scores_before
    totals = (start[0] + score.totals[0], start[1] + score.totals[1])
    if ctx.outcome is not None:
        # The last trick ended the game: the hand counts if every event of it was credited.
        if totals == scores:
            ctx = ctx.with_result(score)
        return _build(ctx, tally, _OVER, -1, hands, (), after, scores, history)
    ctx = ctx.with_result(score)
    done = _tuple_new(Round, (-1, *after[1:]))  # the leader cleared, the rest kept in place
    game = _build(ctx, tally, _DEAL, -1, hands, (), done, totals, history)
    ending = end_after_hand(ctx.rules, totals, ctx.facts.setup.hands_played + len(ctx.results))
    if ending is None:
        return game
    return game._ended(crediting.end_game((ctx, tally, totals), *ending, hand_open=False), history)


def _start(facts: GameFacts) -> Game:
    """A game before its first deal."""
    return _build(
        HandContext(facts), NO_CREDITS, _DEAL, -1, _NO_HANDS, (), NO_ROUND, facts.setup.scores, None
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


def play_unchecked(game: Game, card: Card) -> Game:
    """``game.play(card)`` for a held card that the rules may refuse.

    For replaying another engine's records, where that engine allowed the card (an
    undertrump that only jass-kit's issue #10 allows); the result is a game in which a rule
    may have been broken, so this is not for play. The play is listed in
    :attr:`Game.unchecked_plays`, so that views draw no inference from it. ``game`` itself
    is left as it was.

    >>> g = Game.new(seed=1).deal().choose("hearts")
    >>> card = g.legal_moves().cards()[0]
    >>> after = play_unchecked(g, card)
    >>> after.trick == (card,), after.unchecked_plays
    (True, frozenset({0}))
    """
    # A fresh state, marked before the play and never seen by anyone else, whose cache of
    # legal cards lets the card through; ``game`` itself is left as it was.
    marked = game._evolve(_ctx=game._ctx.with_unchecked(len(game.plays)))
    _set_legal(marked, CardSet(int(game.legal_moves()) | 1 << card))
    return marked.play(card)
