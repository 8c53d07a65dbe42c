"""The immutable game state machine: :class:`Game`, :class:`Hand` and :class:`Phase`.

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

import enum
import random
from typing import Any, Final, NoReturn

import attrs

from jass.actions import PLAY_ACTIONS, Action, Choose, Deal, Play, Shove, Thank
from jass.cards import CARDS, Card, CardSet
from jass.contracts import Contract
from jass.errors import IllegalActionError, IllegalReason, InvalidInputError, NotSupportedError
from jass.play import explain_illegal, legal_cards, trick_winner
from jass.rules import SCHIEBER, DealerRotation, EndMode, FirstHandRule, RuleSet
from jass.scoring import EndReason, GameResult, HandScore, score_hand
from jass.seats import Seat, Team

__all__ = ["Game", "Hand", "Phase", "Trick"]

_new_set: Final = int.__new__
_SEATS: Final = tuple(Seat)
_TEAMS: Final = tuple(Team)
_FULL_DECK: Final = (1 << 36) - 1


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

    >>> g = Game.new(seed=3).deal()
    >>> g.hand.number, g.hand.forehand == g.hand.dealer.next, len(g.hand.dealt[0])
    (0, True, 9)
    """

    number: int
    dealer: Seat
    dealt: tuple[CardSet, CardSet, CardSet, CardSet]
    contract: Contract | None = None
    chooser: Seat | None = None
    shoves: int = 0
    scores_before: tuple[int, int] = (0, 0)

    @property
    def forehand(self) -> Seat:
        """The seat to the dealer's right, who chooses first and leads trick 1.

        >>> Game.new(seed=3).deal().hand.forehand in tuple(Seat)
        True
        """
        return _SEATS[(self.dealer + 1) & 3]

    @property
    def declaring_team(self) -> Team:
        """The team that names the contract: always the forehand's (RULES.md R4.4).

        >>> h = Game.new(seed=3).deal().hand
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


class Game:
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

    __slots__ = (
        "_contract",
        "_hand",
        "_hands",
        "_history",
        "_leader",
        "_legal",
        "_outcome",
        "_phase",
        "_points",
        "_results",
        "_rules",
        "_scores",
        "_seed",
        "_table",
        "_to_move",
        "_trick",
        "_tricks",
    )

    _rules: RuleSet
    _seed: int
    _hand: Hand | None
    _contract: Contract  # a placeholder until a contract is named; read only in PLAY
    _phase: Phase
    _to_move: int
    _hands: tuple[CardSet, CardSet, CardSet, CardSet]
    _trick: tuple[Card, ...]
    _leader: int
    _points: tuple[int, int]
    _tricks: tuple[int, int]
    _scores: tuple[int, int]
    _history: tuple[Any, Action] | None
    _results: tuple[HandScore, ...]
    _outcome: GameResult | None
    _table: tuple[int, ...]
    _legal: CardSet | None

    # --- construction -------------------------------------------------------------------

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
        game._rules = ruleset
        game._seed = seed
        game._hand = None
        game._contract = Contract.OBENABE
        game._phase = Phase.DEAL
        game._to_move = -1
        game._hands = (CardSet(0), CardSet(0), CardSet(0), CardSet(0))
        game._trick = ()
        game._leader = -1
        game._points = (0, 0)
        game._tricks = (0, 0)
        game._scores = (0, 0)
        game._history = None
        game._results = ()
        game._outcome = None
        game._table = ()
        game._legal = None
        return game

    def _copy(self) -> Game:
        new = object.__new__(Game)
        new._rules = self._rules
        new._seed = self._seed
        new._hand = self._hand
        new._contract = self._contract
        new._phase = self._phase
        new._to_move = self._to_move
        new._hands = self._hands
        new._trick = self._trick
        new._leader = self._leader
        new._points = self._points
        new._tricks = self._tricks
        new._scores = self._scores
        new._history = self._history
        new._results = self._results
        new._outcome = self._outcome
        new._table = self._table
        new._legal = None
        return new

    # --- reading the state --------------------------------------------------------------

    @property
    def ruleset(self) -> RuleSet:
        """The rule set in force.

        >>> Game.new(seed=1).ruleset.target
        2500
        """
        return self._rules

    @property
    def seed(self) -> int:
        """The seed from which the deals are drawn.

        >>> Game.new(seed=42).seed
        42
        """
        return self._seed

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
        >>> g.to_move is None, g.deal().to_move == g.deal().hand.forehand
        (True, True)
        """
        return _SEATS[self._to_move] if self._to_move >= 0 else None

    @property
    def hand(self) -> Hand | None:
        """The current (or just finished) hand, or ``None`` before the first deal.

        >>> Game.new(seed=1).hand is None
        True
        """
        return self._hand

    @property
    def contract(self) -> Contract | None:
        """The contract of the current hand, once named.

        >>> Game.new(seed=1).deal().choose("obenabe").contract
        Contract.OBENABE
        """
        return self._hand.contract if self._hand is not None else None

    @property
    def hands(self) -> tuple[CardSet, CardSet, CardSet, CardSet]:
        """The cards each seat still holds, by seat (perfect information).

        >>> [len(h) for h in Game.new(seed=1).deal().hands]
        [9, 9, 9, 9]
        """
        return self._hands

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards of the current, incomplete trick, leader first.

        >>> g = Game.new(seed=1).deal().choose("obenabe")
        >>> g.play(min(g.legal_moves())).trick == (min(g.legal_moves()),)
        True
        """
        return self._trick

    @property
    def trick_leader(self) -> Seat | None:
        """The seat that leads (or led) the current trick.

        >>> g = Game.new(seed=1).deal().choose("obenabe")
        >>> g.trick_leader == g.hand.forehand
        True
        """
        return _SEATS[self._leader] if self._leader >= 0 else None

    @property
    def tricks_won(self) -> tuple[int, int]:
        """Tricks won in the current hand, by team.

        >>> Game.new(seed=1).deal().tricks_won
        (0, 0)
        """
        return self._tricks

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
        """The scores of the completed hands, oldest first.

        >>> Game.new(seed=1).hand_results
        ()
        """
        return self._results

    @property
    def result(self) -> GameResult | None:
        """How the game ended, or ``None`` while it goes on.

        >>> Game.new(seed=1).result is None
        True
        """
        return self._outcome

    @property
    def is_over(self) -> bool:
        """Whether the game has ended.

        >>> Game.new(seed=1).is_over
        False
        """
        return self._outcome is not None

    @property
    def winner(self) -> Team | None:
        """The winning team once the game is over; ``None`` before, or for a draw.

        >>> Game.new(seed=1).winner is None
        True
        """
        return self._outcome.winner if self._outcome is not None else None

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action since the game began, deals included, oldest first.

        >>> g = Game.new(seed=1).deal().shove()
        >>> [type(a).__name__ for a in g.history]
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
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks of the current hand, in order.

        >>> Game.new(seed=1).deal().tricks
        ()
        """
        hand = self._hand
        if hand is None or hand.contract is None:
            return ()
        plays: list[Card] = []
        for action in reversed(self.history):
            if isinstance(action, Deal):
                break
            if isinstance(action, Play):
                plays.append(action.card)
        plays.reverse()
        tricks = []
        leader = hand.forehand
        for start in range(0, len(plays) - len(plays) % 4, 4):
            cards = (plays[start], plays[start + 1], plays[start + 2], plays[start + 3])
            winner = leader.offset(trick_winner(cards, hand.contract))
            points = sum(self._table[c] for c in cards) + (5 if start == 32 else 0)
            tricks.append(Trick(leader, cards, winner, points))
            leader = winner
        return tuple(tricks)

    def legal_moves(self) -> CardSet:
        """The cards the player to move may play; empty outside the play phase.

        >>> g = Game.new(seed=1).deal().choose("obenabe")
        >>> g.legal_moves() == g.hands[g.to_move]
        True
        """
        if self._phase is not Phase.PLAY:
            return CardSet(0)
        legal = self._legal
        if legal is None:
            legal = legal_cards(
                self._hands[self._to_move], self._trick, self._contract, self._rules
            )
            self._legal = legal  # a cache: invisible to equality and to users
        return legal

    def legal_actions(self) -> tuple[Play | Choose | Shove | Thank, ...]:
        """Every action the player to move may take, as values for :meth:`apply`.

        ``Thank`` is offered to the mover's team whenever thanking is allowed (RULES.md R9.2a).

        >>> import jass
        >>> g = Game.new(jass.rules.TOURNAMENT_12, seed=1).deal()
        >>> [a.index for a in g.legal_actions()]
        [36, 37, 38, 39, 40, 41, 43]
        """
        phase = self._phase
        actions: list[Play | Choose | Shove | Thank] = []
        if phase is Phase.PLAY:
            actions = [PLAY_ACTIONS[c] for c in self.legal_moves()]
        elif phase is Phase.CHOOSE:
            actions = [
                Choose(c) for c in Contract.all() if c in self._rules.contracts
            ]
            if self._can_shove():
                actions.append(Shove())
        else:
            return ()
        if self._thank_allowed():
            actions.append(Thank(_TEAMS[self._to_move & 1]))
        return tuple(actions)

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
        if isinstance(action, Thank):
            return self.thank(action.team)
        if isinstance(action, Deal):
            return self.deal(hands=action.hands)
        raise InvalidInputError(f"{action!r} is not an action")

    def deal(self, hands: Any = None) -> Game:
        """Deal the next hand: from the seeded deck, or the four ``hands`` given by seat.

        The seeded deal follows RULES.md R3.5: three rounds of 3-card packets, forehand first.

        >>> from jass import CardSet
        >>> four = [CardSet(0x1FF << (9 * s)) for s in range(4)]
        >>> g = Game.new(seed=1).deal(hands=four)
        >>> g.hands[3] == four[3]
        True
        """
        if self._phase is not Phase.DEAL:
            self._refuse(None, IllegalReason.WRONG_PHASE, "deal")
        number = len(self._results)
        if hands is not None:
            cards = _check_deal(hands)
            dealer = self._next_dealer(cards)
        else:
            dealer = self._next_dealer(None)
            cards = _seeded_deal(self._seed, number, (dealer + 1) & 3)
            if dealer < 0:  # marker-card first hand: dealt as if seat 3 dealt (R3.7)
                dealer = self._next_dealer(cards)
        game = self._copy()
        game._hand = Hand(number, _SEATS[dealer], cards, scores_before=self._scores)
        game._phase = Phase.CHOOSE
        game._to_move = (dealer + 1) & 3
        game._hands = cards
        game._trick = ()
        game._leader = -1
        game._points = (0, 0)
        game._tricks = (0, 0)
        game._history = (self._history, Deal(cards))
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
                + ("" if self._rules.allow_shove_back else " and allow_shove_back is off"),
            )
        hand = self._hand
        assert hand is not None  # noqa: S101
        game = self._copy()
        game._hand = attrs.evolve(hand, shoves=hand.shoves + 1)
        game._to_move = (self._to_move + 2) & 3
        game._history = (self._history, action)
        return game

    def choose(self, contract: Contract | str) -> Game:
        """Name the contract; the forehand then leads trick 1.

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
        if contract not in self._rules.contracts:
            allowed = ", ".join(c.name for c in Contract.all() if c in self._rules.contracts)
            self._refuse(
                action,
                IllegalReason.CONTRACT_NOT_ALLOWED,
                f"{contract} is not allowed by this rule set; allowed: {allowed}",
            )
        hand = self._hand
        assert hand is not None  # noqa: S101
        game = self._copy()
        game._hand = attrs.evolve(hand, contract=contract, chooser=_SEATS[self._to_move])
        game._phase = Phase.PLAY
        game._to_move = game._leader = (hand.dealer + 1) & 3
        game._contract = contract
        game._table = contract.card_points(old_undenufe=self._rules.old_undenufe)
        game._history = (self._history, action)
        return game

    def play(self, card: Card | str) -> Game:
        """Play ``card`` (a :class:`~jass.Card` or its name) for the player to move.

        >>> g = Game.new(seed=1).deal().choose("hearts")
        >>> other = next(iter(g.hands[(g.to_move + 1) % 4]))
        >>> g.play(other)
        Traceback (most recent call last):
        ...
        jass.errors.IllegalActionError: ... is not in the hand ...
        """
        if card.__class__ is not Card:
            card = _as_card(card)
        if self._phase is not Phase.PLAY:
            self._refuse(PLAY_ACTIONS[card], IllegalReason.WRONG_PHASE, f"play {card}")
        seat = self._to_move
        hand = self._hands[seat]
        legal = self._legal
        if legal is None:
            legal = legal_cards(hand, self._trick, self._contract, self._rules)
        if not (legal >> card) & 1:
            self._refuse_card(card)
        game = self._copy()
        hands = list(self._hands)
        hands[seat] = _new_set(CardSet, hand ^ (1 << card))
        game._hands = (hands[0], hands[1], hands[2], hands[3])
        game._history = (self._history, PLAY_ACTIONS[card])
        trick = (*self._trick, card)
        if len(trick) < 4:
            game._trick = trick
            game._to_move = (seat + 1) & 3
            return game
        self._finish_trick(game, trick)  # type: ignore[arg-type]
        return game

    def thank(self, team: Team | int) -> Game:
        """Team ``team`` thanks: it claims the target (RULES.md R9.2). True wins, false loses.

        Counted are the running totals with this hand's credited tricks; the cards of an
        incomplete trick never count.

        >>> g = Game.new(seed=1).deal().thank(Team(0))
        >>> g.is_over, g.winner, g.result.reason.name
        (True, <Team.T1: 1>, 'FALSE_THANK')
        """
        if isinstance(team, bool) or not isinstance(team, int) or team not in (0, 1):
            raise InvalidInputError(f"team must be Team(0) or Team(1), got {team!r}")
        team = _TEAMS[team]
        action = Thank(team)
        if self._outcome is not None:
            self._refuse(action, IllegalReason.GAME_OVER, "thank")
        if not self._thank_allowed():
            self._refuse(
                action,
                IllegalReason.THANK_NOT_ALLOWED,
                "cannot thank: "
                + (
                    "the game has a fixed number of hands"
                    if self._rules.hands is not None
                    else "end_mode=END_OF_HAND decides the game at the end of a hand"
                ),
            )
        reached = self._scores[team] >= self._rules.target
        game = self._copy()
        game._history = (self._history, action)
        game._end(
            team if reached else team.other,
            EndReason.THANKED if reached else EndReason.FALSE_THANK,
        )
        return game

    def declare_weis(self, *weis: object) -> Game:  # noqa: ARG002
        """Declare Weis by hand. Not supported yet: Weis come in a later version.

        >>> Game.new(seed=1).declare_weis()
        Traceback (most recent call last):
        ...
        jass.errors.NotSupportedError: declaring Weis is not supported yet by jass 0.1
        """
        raise NotSupportedError("declaring Weis is not supported yet by jass 0.1")

    # --- equality -----------------------------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        return (
            self._rules,
            self._seed,
            self._hand,
            self._phase,
            self._to_move,
            self._hands,
            self._trick,
            self._leader,
            self._points,
            self._tricks,
            self._scores,
            self._results,
            self._outcome,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        parts = [f"seed={self._seed}", self._phase.name]
        if self._hand is not None:
            parts.append(f"hand {self._hand.number}")
            if self._hand.contract is not None:
                parts.append(str(self._hand.contract))
        if self._to_move >= 0:
            parts.append(f"seat {self._to_move} to move")
        parts.append(f"scores {self._scores[0]}:{self._scores[1]}")
        return f"<Game {', '.join(parts)}>"

    # --- internals ----------------------------------------------------------------------

    def _can_shove(self) -> bool:
        hand = self._hand
        assert hand is not None  # noqa: S101
        return hand.shoves == 0 or (hand.shoves == 1 and self._rules.allow_shove_back)

    def _thank_allowed(self) -> bool:
        rules = self._rules
        return (
            self._outcome is None
            and rules.hands is None
            and rules.end_mode is not EndMode.END_OF_HAND
        )

    def _refuse(self, action: object, reason: IllegalReason, what: str) -> NoReturn:
        if reason is IllegalReason.WRONG_PHASE:
            if self._outcome is not None:
                reason = IllegalReason.GAME_OVER
                what = f"cannot {what}: the game is over"
            else:
                what = f"cannot {what} in phase {self._phase.name}"
        raise IllegalActionError(what, reason, action, self)

    def _refuse_card(self, card: Card) -> NoReturn:
        hand = self._hands[self._to_move]
        explained = explain_illegal(hand, self._trick, self._contract, card, self._rules)
        assert explained is not None  # noqa: S101
        reason, text = explained
        if reason is IllegalReason.NOT_IN_HAND:
            text = f"{card} is not in the hand of seat {self._to_move} ({hand})"
        raise IllegalActionError(text, reason, PLAY_ACTIONS[card], self)

    def _finish_trick(self, game: Game, trick: tuple[Card, Card, Card, Card]) -> None:
        """Credit a complete trick to ``game`` (a fresh copy), and the hand if it was the last."""
        hand = self._hand
        assert hand is not None  # noqa: S101
        contract = self._contract
        winner = (self._leader + trick_winner(trick, contract)) & 3
        team = winner & 1
        table = self._table
        points = table[trick[0]] + table[trick[1]] + table[trick[2]] + table[trick[3]]
        tricks = (self._tricks[0] + 1 - team, self._tricks[1] + team)
        game._trick = ()
        game._leader = game._to_move = winner
        game._tricks = tricks
        if tricks[0] + tricks[1] < 9:
            game._points = (
                (self._points[0] + points, self._points[1])
                if team == 0
                else (self._points[0], self._points[1] + points)
            )
            credit = points * self._rules.multiplier(contract)
            game._scores = (
                (self._scores[0] + credit, self._scores[1])
                if team == 0
                else (self._scores[0], self._scores[1] + credit)
            )
            if (
                self._rules.end_mode is EndMode.AUTO
                and self._rules.hands is None
                and game._scores[team] >= self._rules.target
            ):
                game._end(_TEAMS[team], EndReason.TARGET_REACHED)
            return
        points += 5
        card_points = (
            (self._points[0] + points, self._points[1])
            if team == 0
            else (self._points[0], self._points[1] + points)
        )
        game._points = card_points
        score = score_hand(contract, card_points, tricks, hand.declaring_team, self._rules)
        game._results = (*self._results, score)
        before = hand.scores_before
        game._scores = (before[0] + score.totals[0], before[1] + score.totals[1])
        game._phase = Phase.DEAL
        game._to_move = -1
        game._leader = -1
        game._end_of_hand(_TEAMS[team])

    def _end_of_hand(self, last_trick_team: Team) -> None:
        rules = self._rules
        scores = self._scores
        if rules.hands is not None:
            if len(self._results) >= rules.hands:
                winner = None if scores[0] == scores[1] else _TEAMS[scores[1] > scores[0]]
                self._end(winner, EndReason.HAND_LIMIT)
            return
        if rules.end_mode is EndMode.AUTO:
            if scores[last_trick_team] >= rules.target:
                self._end(last_trick_team, EndReason.TARGET_REACHED)
        elif (
            rules.end_mode is EndMode.END_OF_HAND
            and max(scores) >= rules.target
            and scores[0] != scores[1]
        ):
            self._end(_TEAMS[scores[1] > scores[0]], EndReason.END_OF_HAND_TARGET)

    def _end(self, winner: Team | None, reason: EndReason) -> None:
        """Mark this fresh copy as finished."""
        self._outcome = GameResult(winner, reason, self._scores, len(self._results) + (
            1 if self._phase is not Phase.DEAL else 0
        ))
        self._phase = Phase.OVER
        self._to_move = -1

    def _next_dealer(self, dealt: tuple[CardSet, ...] | None) -> int:
        """The dealer of the next hand; -1 if it depends on a deal not yet made."""
        rules = self._rules
        if not self._results:
            hand_rule = rules.first_hand_rule
            if hand_rule is FirstHandRule.MARKER_CARD:
                if dealt is None:
                    return -1
                holder = next(s for s in range(4) if (dealt[s] >> rules.first_hand_marker) & 1)
                return (holder - 1) & 3
            return _draw_for_dealer(self._seed, lowest=hand_rule is FirstHandRule.DRAW_LOWEST_DEALS)
        last = self._hand
        assert last is not None  # noqa: S101
        dealer = int(last.dealer)
        if rules.dealer_rotation is DealerRotation.WINNER_DEALS:
            totals = self._results[-1].totals
            if totals[0] != totals[1]:
                best = 1 if totals[1] > totals[0] else 0
                return next(s for s in ((dealer + k) & 3 for k in (1, 2)) if s & 1 == best)
        return (dealer + 1) & 3


def _as_card(card: object) -> Card:
    if isinstance(card, str):
        return Card.parse(card)
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 36:
        return CARDS[card]
    raise InvalidInputError(f"{card!r} is not a card")


def _check_deal(hands: Any) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    """Validate an injected deal: four disjoint hands of nine cards covering the deck."""
    try:
        parsed = [CardSet.parse(h) if isinstance(h, str) else CardSet(h) for h in hands]
    except TypeError:
        raise InvalidInputError(f"a deal is four hands of nine cards, got {hands!r}") from None
    if len(parsed) != 4:
        raise InvalidInputError(f"a deal has four hands, got {len(parsed)}")
    seen = 0
    for seat, cards in enumerate(parsed):
        if len(cards) != 9:
            raise InvalidInputError(f"hand {seat} of the deal has {len(cards)} cards, not 9")
        if seen & cards:
            raise InvalidInputError(
                f"hand {seat} of the deal repeats {CardSet(seen & cards)} from an earlier hand"
            )
        seen |= cards
    return (parsed[0], parsed[1], parsed[2], parsed[3])


def _rng(seed: int, purpose: str) -> random.Random:
    # String seeds hash with SHA-512: stable across runs, platforms and Python versions.
    return random.Random(f"jass/{seed}/{purpose}")


_Deal = tuple[CardSet, CardSet, CardSet, CardSet]


def _seeded_deal(seed: int, number: int, forehand: int) -> _Deal:
    deck = list(range(36))
    _rng(seed, f"deal/{number}").shuffle(deck)
    bits = [0, 0, 0, 0]
    for packet in range(12):  # packet p = 4r + k goes to forehand + k (R3.5)
        seat = (forehand + packet) & 3
        for card in deck[3 * packet : 3 * packet + 3]:
            bits[seat] |= 1 << card
    return (
        _new_set(CardSet, bits[0]),
        _new_set(CardSet, bits[1]),
        _new_set(CardSet, bits[2]),
        _new_set(CardSet, bits[3]),
    )


def _draw_for_dealer(seed: int, *, lowest: bool) -> int:
    """Draw for the first deal (R3.7): lowest (or highest) natural rank deals; ties redraw."""
    rng = _rng(seed, "draw")
    deck: list[int] = []
    seats = [0, 1, 2, 3]
    while len(seats) > 1:
        if len(deck) < len(seats):
            deck = list(range(36))
            rng.shuffle(deck)
        ranks = {seat: deck.pop() % 9 for seat in seats}
        best = min(ranks.values()) if lowest else max(ranks.values())
        seats = [seat for seat in seats if ranks[seat] == best]
    return seats[0]
