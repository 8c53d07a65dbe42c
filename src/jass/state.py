"""The immutable game state machine, :class:`Game`.

Every transition returns a new :class:`Game`; a state never changes, so it can be kept as a
search node, shared between threads, or used as a dict key. Illegal actions raise
:class:`~jass.IllegalActionError` and leave the state as it was.

>>> import jass
>>> g = jass.Game.new(jass.rules.SCHIEBER, seed=7).deal()
>>> g.phase, g.to_move == g.hand.forehand
(<Phase.CHOOSE: 'choose'>, True)
>>> g = g.choose(jass.Contract.OBENABE)
>>> while g.phase is jass.Phase.PLAY:
...     g = g.play(min(g.legal_moves()))
>>> sum(g.hand_results[-1].card_points)
157
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, Final, NoReturn

import attrs

from jass.actions import PLAY_ACTIONS, Action, Choose, Deal, DeclareWeis, Play, Shove, Thank
from jass.cards import Card, CardSet, as_card
from jass.contracts import Contract
from jass.dealing import DealtHands, check_deal, next_dealer, seeded_deal
from jass.errors import IllegalActionError, IllegalReason, InvalidInputError
from jass.events import STOECK_POINTS, ScoringSteps, add_to
from jass.hand import NO_EVENTS, GameFacts, Hand, HandContext, HandEvents, Phase
from jass.play import explain_illegal, legal_cards
from jass.readout import GameReadout
from jass.rules import SCHIEBER, RuleSet, WeisDeclaration
from jass.scoring import EndReason, ScoringEvent, end_after_hand, scored_hand
from jass.seats import Seat, Team
from jass.weis import Weis, find_weis

__all__ = ["Game"]

_new_set: Final = int.__new__
_SEATS: Final = tuple(Seat)
_TEAMS: Final = tuple(Team)
_EMPTY: Final = CardSet(0)


_PLAY: Final = Phase.PLAY


class Game(ScoringSteps):
    """An immutable Schieber game: construct it with :meth:`new`, then apply actions.

    Read-only properties describe the state; methods return the next state. Equality and hash
    cover everything that shapes the rest of the game (the action history is not part of it).

    >>> import jass
    >>> g = jass.Game.new(seed=7).deal().shove()
    >>> g.to_move == g.hand.forehand.partner, g.hand.shoves
    (True, 1)
    >>> g2 = g.choose(jass.Contract.trump(jass.Suit.HEARTS))
    >>> g.phase, g2.phase
    (<Phase.CHOOSE: 'choose'>, <Phase.PLAY: 'play'>)
    """

    __slots__ = ()  # the fields live in ScoringSteps

    _ctx: HandContext
    _ev: HandEvents
    _phase: Phase
    _to_move: int
    _hands: DealtHands
    _trick: tuple[Card, ...]
    _leader: int
    _points: tuple[int, int]
    _tricks: tuple[int, int]
    _scores: tuple[int, int]
    _history: tuple[Any, Action] | None
    _legal: CardSet | None

    # --- construction -------------------------------------------------------------------

    def __init__(self) -> None:
        """Refuse direct construction: a game starts with :meth:`new`."""
        raise InvalidInputError("start a game with Game.new(ruleset, seed=...)")

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
    def new(cls, ruleset: RuleSet = SCHIEBER, *, seed: int | None = None) -> Game:
        """A new game before the first deal. The same ``seed`` gives the same deals.

        Without a seed, one is drawn from the operating system; :attr:`seed` tells which.

        >>> Game.new(seed=5).deal().hands == Game.new(seed=5).deal().hands
        True
        """
        if not isinstance(ruleset, RuleSet):
            raise InvalidInputError(f"ruleset must be a RuleSet, got {ruleset!r}")
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidInputError(f"seed must be an int, got {seed!r}")
        game = object.__new__(cls)
        game._ctx = HandContext(GameFacts.of(ruleset, seed))
        game._ev = NO_EVENTS
        game._phase = Phase.DEAL
        game._to_move = -1
        game._hands = (_EMPTY, _EMPTY, _EMPTY, _EMPTY)
        game._trick = ()
        game._leader = -1
        game._points = (0, 0)
        game._tricks = (0, 0)
        game._scores = (0, 0)
        game._history = None
        game._legal = None
        return game

    def _copy(self) -> Game:
        new = object.__new__(Game)
        new._ctx = self._ctx
        new._ev = self._ev
        new._phase = self._phase
        new._to_move = self._to_move
        new._hands = self._hands
        new._trick = self._trick
        new._leader = self._leader
        new._points = self._points
        new._tricks = self._tricks
        new._scores = self._scores
        new._history = self._history
        new._legal = None
        return new

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

        The seeded deal follows RULES.md R3.5: three rounds of 3-card packets, forehand first.
        Injected hands may be card sets or strings of card names.

        >>> g = Game.new(seed=1).deal(hands=["6S 7S 8S 9S 10S JS QS KS AS", CardSet(0x1FF << 9),
        ...                                   CardSet(0x1FF << 18), CardSet(0x1FF << 27)])
        >>> str(g.hands[0])
        '6S 7S 8S 9S 10S JS QS KS AS'
        """
        if self._phase is not Phase.DEAL:
            self._refuse(None, IllegalReason.WRONG_PHASE, "deal")
        ctx = self._ctx
        number = len(ctx.results)
        last_dealer = ctx.hand.dealer if ctx.hand is not None else None
        if hands is not None:
            cards = check_deal(hands)
            dealer = next_dealer(ctx.rules, ctx.facts.seed, last_dealer, ctx.results, cards)
        else:
            dealer = next_dealer(ctx.rules, ctx.facts.seed, last_dealer, ctx.results, None)
            cards = seeded_deal(ctx.facts.seed, number, (dealer + 1) & 3)
            if dealer < 0:  # marker-card first hand: dealt as if seat 3 dealt (R3.7)
                dealer = next_dealer(ctx.rules, ctx.facts.seed, last_dealer, ctx.results, cards)
        game = self._copy()
        game._ctx = ctx.with_hand(Hand(number, _SEATS[dealer], cards, scores_before=self._scores))
        game._ev = NO_EVENTS
        game._phase = Phase.CHOOSE
        game._to_move = (dealer + 1) & 3
        game._hands = cards
        game._trick = ()
        game._leader = -1
        game._points = (0, 0)
        game._tricks = (0, 0)
        game._history = (self._history, _deal_action(cards))
        return game

    def shove(self) -> Game:
        """Shove the choice to the partner (RULES.md §4).

        >>> Game.new(seed=1).deal().shove().shove()
        Traceback (most recent call last):
        ...
        jass.errors.IllegalActionError: cannot shove: the choice was already shoved and ...
        """
        action = Shove()
        if self._phase is not Phase.CHOOSE:
            self._refuse(action, IllegalReason.WRONG_PHASE, "shove")
        if not self._can_shove():
            self._refuse(
                action,
                IllegalReason.SHOVE_NOT_ALLOWED,
                "cannot shove: the choice was already shoved"
                + ("" if self._ctx.rules.allow_shove_back else " and allow_shove_back is off"),
            )
        hand = self._ctx.hand
        assert hand is not None  # noqa: S101
        game = self._copy()
        game._ctx = self._ctx.with_hand(attrs.evolve(hand, shoves=hand.shoves + 1))
        game._to_move = (self._to_move + 2) & 3
        game._history = (self._history, action)
        return game

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
        if self._phase is not Phase.CHOOSE:
            self._refuse(action, IllegalReason.WRONG_PHASE, f"choose {contract}")
        rules = self._ctx.rules
        if contract not in rules.contracts:
            allowed = ", ".join(c.name for c in Contract.all() if c in rules.contracts)
            self._refuse(
                action,
                IllegalReason.CONTRACT_NOT_ALLOWED,
                f"{contract} is not allowed by this rule set; allowed: {allowed}",
            )
        hand = self._ctx.hand
        assert hand is not None  # noqa: S101
        chooser = _SEATS[self._to_move]
        game = self._copy()
        game._ctx = self._ctx.with_hand(
            Hand(
                hand.number,
                hand.dealer,
                hand.dealt,
                contract,
                chooser,
                hand.shoves,
                hand.scores_before,
            )
        )
        game._phase = _PLAY
        game._to_move = game._leader = (hand.dealer + 1) & 3
        game._history = (self._history, action)
        if game._ctx.stoeck_seat >= 0 and game._ctx.facts.claim_stoeck:
            game._credit_step([], game._ctx.hand_step)  # Stöck that finish at once (R9.4)
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
        if self._phase is not _PLAY:
            self._refuse(PLAY_ACTIONS[card], IllegalReason.WRONG_PHASE, f"play {card}")
        seat = self._to_move
        hands = self._hands
        hand = hands[seat]
        ctx = self._ctx
        legal = self._legal
        if legal is None:
            legal = legal_cards(hand, self._trick, ctx.contract, ctx.rules)
        if not int.__and__(legal, 1 << card):
            self._refuse_card(card)
        game = object.__new__(Game)
        game._ctx = ctx
        game._ev = self._ev
        game._phase = _PLAY
        left = _new_set(CardSet, int.__xor__(hand, 1 << card))
        game._hands = (
            (left, hands[1], hands[2], hands[3])
            if seat == 0
            else (hands[0], left, hands[2], hands[3])
            if seat == 1
            else (hands[0], hands[1], left, hands[3])
            if seat == 2
            else (hands[0], hands[1], hands[2], left)
        )
        game._history = (self._history, PLAY_ACTIONS[card])
        game._legal = None
        game._leader = self._leader
        game._points = self._points
        game._tricks = self._tricks
        game._scores = self._scores
        trick = (*self._trick, card)
        game._trick = trick
        game._to_move = (seat + 1) & 3
        if ctx.manual_weis and self._may_declare():
            # Playing the first card of trick 1 undeclared declares nothing (R7.7).
            declared = list(self._ev.declared)
            declared[seat] = ()
            game._ev = game._ev._replace(declared=tuple(declared))
        if (
            ctx.stoeck_mask >> card & 1
            and seat == ctx.stoeck_seat
            and not ctx.stoeck_mask & left  # the second of trump King and Queen (R8.1)
            and not self._ev.stoeck_done
        ):
            game._credit_step(
                [(ScoringEvent.STOECK, seat & 1, STOECK_POINTS)],
                ctx.hand_step + self._tricks[0] + self._tricks[1],
            )
            if game._ctx.outcome is not None:
                return game
        if len(trick) == 4:
            self._finish_trick(game, trick)
        return game

    def declare_weis(self, weis: Weis | Iterable[Weis] = ()) -> Game:
        """Declare Weis before playing the first card of trick 1 (``weis_declaration=MANUAL``).

        ``weis`` is any choice of the Weis :func:`~jass.find_weis` finds in the mover's hand;
        undeclared Weis never score (RULES.md R7.7).

        >>> import jass
        >>> manual = jass.rules.SCHIEBER.evolve(weis_declaration="MANUAL")
        >>> g = Game.new(manual, seed=4).deal().choose("obenabe")
        >>> g = g.declare_weis(jass.find_weis(g.hands[g.to_move])[:1])
        >>> g.declared_weis[g.to_move] is not None
        True
        """
        if isinstance(weis, Weis):
            weis = (weis,)
        try:
            chosen = tuple(weis)
        except TypeError:
            raise InvalidInputError(f"declare_weis takes Weis values, got {weis!r}") from None
        action = DeclareWeis(chosen)
        if self._phase is not _PLAY:
            self._refuse(action, IllegalReason.WRONG_PHASE, "declare Weis")
        ctx = self._ctx
        if not self._may_declare():
            why = (
                "this rule set has no Weis"
                if not ctx.rules.weis
                else "Weis are declared automatically (weis_declaration=AUTO)"
                if ctx.rules.weis_declaration is WeisDeclaration.AUTO
                else "Weis are declared only before one's first card of trick 1, once"
            )
            self._refuse(action, IllegalReason.WEIS_NOT_DECLARABLE, f"cannot declare Weis: {why}")
        found = find_weis(self._hands[self._to_move], ctx.rules)
        for index, item in enumerate(chosen):
            if item not in found or item in chosen[:index]:
                self._refuse(
                    action,
                    IllegalReason.WEIS_NOT_IN_HAND,
                    f"cannot declare {item}: the Weis of seat {self._to_move} are "
                    + (", ".join(str(w) for w in found) or "none"),
                )
        game = self._copy()
        declared = list(self._ev.declared)
        declared[self._to_move] = chosen
        game._ev = self._ev._replace(declared=tuple(declared))
        game._history = (self._history, action)
        return game

    def thank(self, team: Team | int) -> Game:
        """Team ``team`` thanks: it claims the target (RULES.md R9.2). True wins, false loses.

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
        ctx = self._ctx
        if ctx.outcome is not None:
            self._refuse(action, IllegalReason.GAME_OVER, "cannot thank: the game is over")
        if not self._thank_allowed():
            self._refuse(
                action,
                IllegalReason.THANK_NOT_ALLOWED,
                "cannot thank: "
                + (
                    "the game has a fixed number of hands"
                    if ctx.rules.hands is not None
                    else "end_mode=END_OF_HAND decides the game at the end of a hand"
                ),
            )
        game = self._copy()
        game._history = (self._history, action)
        target = ctx.rules.target
        step = self._current_step()
        if self._scores[team] < target and self._stoeck_claimable(team):
            stoeck = STOECK_POINTS * ctx.multiplier
            if self._scores[team] + stoeck >= target:
                game._credit_step([(ScoringEvent.STOECK, int(team), STOECK_POINTS)], step)
                if game._ctx.outcome is not None:  # AUTO: the claim itself ended the game
                    return game
        reached = game._ctx.reached
        mine, theirs = reached[team], reached[team.other]
        if game._scores[team] < target:
            game._end(team.other, EndReason.FALSE_THANK)
        elif mine is not None and theirs is not None and mine[0] == theirs[0] == step:
            first = team if mine[1] < theirs[1] else team.other
            game._end(first, EndReason.THANKED, self._event_of(first, game._ctx))
        else:
            game._end(team, EndReason.THANKED, self._event_of(team, game._ctx))
        return game

    # --- internals ----------------------------------------------------------------------

    def _stoeck_claimable(self, team: Team) -> bool:
        """Whether ``team`` holds unscored Stöck it may show to finish (R9.4)."""
        ctx = self._ctx
        return (
            ctx.rules.stoeck_claim_anytime_to_finish
            and ctx.stoeck_seat >= 0
            and ctx.stoeck_seat & 1 == team
            and not self._ev.stoeck_done
            and self._phase is _PLAY
        )

    def _current_step(self) -> int:
        """The game-wide trick index of the latest scoring step (R9.2a c)."""
        hand = self._ctx.hand
        if hand is None:
            return -1
        completed = self._tricks[0] + self._tricks[1] if self._phase is not Phase.CHOOSE else 0
        return max(self._ev.stoeck_step, 9 * hand.number + completed - 1)

    @staticmethod
    def _event_of(team: Team, ctx: HandContext) -> ScoringEvent | None:
        reached = ctx.reached[team]
        if reached is None:
            return None
        ranks = ctx.facts.event_rank
        return next(event for event, rank in ranks.items() if rank == reached[1])

    def _refuse(self, action: object, reason: IllegalReason, what: str) -> NoReturn:
        if reason is IllegalReason.WRONG_PHASE:
            if self._ctx.outcome is not None:
                reason = IllegalReason.GAME_OVER
                what = f"cannot {what}: the game is over"
            else:
                what = f"cannot {what} in phase {self._phase.name}"
        raise IllegalActionError(what, reason, action, self)

    def _refuse_card(self, card: Card) -> NoReturn:
        hand = self._hands[self._to_move]
        ctx = self._ctx
        explained = explain_illegal(hand, self._trick, ctx.contract, card, ctx.rules)
        assert explained is not None  # noqa: S101
        reason, text = explained
        if reason is IllegalReason.NOT_IN_HAND:
            text = f"{card} is not in the hand of seat {self._to_move} ({hand})"
        raise IllegalActionError(text, reason, PLAY_ACTIONS[card], self)

    def _finish_trick(self, game: Game, trick: tuple[Card, Card, Card, Card]) -> None:
        """Credit a complete trick to ``game`` (a fresh copy), and the hand if it was the last."""
        ctx = self._ctx
        keys = ctx.contract.win_keys[trick[0] // 9]  # trick_winner, inlined for speed
        best = 0
        best_key = keys[trick[0]]
        for index in (1, 2, 3):
            key = keys[trick[index]]
            if key > best_key:
                best = index
                best_key = key
        winner = (self._leader + best) & 3
        team = winner & 1
        table = ctx.table
        points = table[trick[0]] + table[trick[1]] + table[trick[2]] + table[trick[3]]
        tricks = (self._tricks[0] + 1 - team, self._tricks[1] + team)
        completed = tricks[0] + tricks[1]
        game._trick = ()
        game._leader = game._to_move = winner
        game._tricks = tricks
        taken = points + 5 if completed == 9 else points
        game._points = add_to(self._points, team, taken)
        hand = ctx.hand
        assert hand is not None  # noqa: S101
        step = ctx.hand_step + completed - 1
        ev = self._ev
        if (
            completed == 9
            or (completed == 1 and ctx.weis_on)
            or ev.weis_pending >= 0
            or (ctx.facts.claim_stoeck and ctx.stoeck_seat >= 0 and not ev.stoeck_done)
        ):
            game._credit_step(game._trick_events(winner, points, tricks), step)
        else:  # only the trick itself scores: _credit, inlined for speed
            credited = team ^ ctx.misere
            scores = game._scores  # a Stöck on this trick's last card may already be in
            before = scores[credited]
            after = before + points * ctx.multiplier
            game._scores = (after, scores[1]) if credited == 0 else (scores[0], after)
            target = ctx.facts.reach_target
            if target is not None and before < target <= after:
                game._scores = scores  # let _credit do the rare case, reach and end included
                game._credit(ScoringEvent.TRICK, credited, points, step)
        if completed < 9:
            return
        # The hand is complete: score it, even if its last trick ended the game.
        ctx = game._ctx
        ev = game._ev
        score = scored_hand(
            ctx.contract,
            game._points,
            tricks,
            hand.declaring_team,
            ctx.rules,
            ev.weis_credit,
            ev.stoeck_credit,
        )
        start = hand.scores_before
        scores = (start[0] + score.totals[0], start[1] + score.totals[1])
        if ctx.outcome is not None:
            # The last trick ended the game: the hand counts if every event of it was credited.
            if scores == game._scores:
                game._ctx = ctx.with_result(score)
            return
        game._ctx = ctx.with_result(score)
        game._scores = scores
        game._phase = Phase.DEAL
        game._to_move = -1
        game._leader = -1
        ending = end_after_hand(ctx.rules, game._scores, len(game._ctx.results))
        if ending is not None:
            game._end(*ending)


_FIELDS: Final[tuple[str, ...]] = GameReadout.__slots__


def _restore(fields: tuple[object, ...], history: tuple[Action, ...]) -> Game:
    """Rebuild a pickled :class:`Game` (see ``Game.__reduce__``)."""
    game = object.__new__(Game)
    values = iter(fields)
    for name in _FIELDS:
        if name != "_history":
            object.__setattr__(game, name, next(values))
    node: tuple[Any, Action] | None = None
    for action in history:
        node = (node, action)
    game._history = node
    return game


def _deal_action(cards: DealtHands) -> Deal:
    """A :class:`Deal` value for hands already checked (skips the converter)."""
    action = object.__new__(Deal)
    object.__setattr__(action, "hands", cards)
    return action
