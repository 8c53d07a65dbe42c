"""Reading a game state: the fields of :class:`~jass.Game` and every query on them.

:class:`GameReadout` holds the state and answers questions about it (whose turn, which cards,
the scores, the legal moves); the transitions live in :mod:`jass.state`, the scoring events in
:mod:`jass.events`.

>>> import jass
>>> g = jass.Game.new(seed=7).deal()
>>> isinstance(g, GameReadout), g.phase.name
(True, 'CHOOSE')
"""

from __future__ import annotations

from typing import Any, Final

from jass.actions import PLAY_ACTIONS, Action, Choose, Deal, DeclareWeis, Play, Shove, Thank
from jass.cards import Card, CardSet
from jass.contracts import Contract
from jass.dealing import DealtHands
from jass.hand import Hand, HandContext, HandEvents, Phase, Trick
from jass.play import legal_cards, trick_winner
from jass.rules import EndMode, RuleSet, WeisDeclaration
from jass.scoring import GameResult, HandScore
from jass.seats import Seat, Team
from jass.view import PlayerView
from jass.weis import Weis, WeisResult, find_weis

__all__ = ["GameReadout"]

_SEATS: Final = tuple(Seat)
_TEAMS: Final = tuple(Team)
_EMPTY: Final = CardSet(0)
_PLAY: Final = Phase.PLAY


class GameReadout:
    """The fields of a game state and the queries on them; the base of :class:`~jass.Game`.

    >>> import jass
    >>> jass.Game.new(seed=1).scores
    (0, 0)
    """

    # The fields of every game state (the subclasses add none).
    __slots__ = (
        "_ctx",
        "_ev",
        "_hands",
        "_history",
        "_leader",
        "_legal",
        "_phase",
        "_points",
        "_scores",
        "_to_move",
        "_trick",
        "_tricks",
    )

    _ctx: HandContext
    _ev: HandEvents
    _phase: Phase
    _to_move: int
    _scores: tuple[int, int]
    _hands: DealtHands
    _trick: tuple[Card, ...]
    _tricks: tuple[int, int]
    _leader: int
    _points: tuple[int, int]
    _history: tuple[Any, Action] | None
    _legal: CardSet | None

    # --- reading the state --------------------------------------------------------------

    @property
    def ruleset(self) -> RuleSet:
        """The rule set in force.

        >>> import jass
        >>> jass.Game.new(seed=1).ruleset.target
        2500
        """
        return self._ctx.rules

    @property
    def seed(self) -> int:
        """The seed from which the deals are drawn.

        >>> import jass
        >>> jass.Game.new(seed=42).seed
        42
        """
        return self._ctx.facts.seed

    @property
    def phase(self) -> Phase:
        """The current :class:`Phase`.

        >>> import jass
        >>> jass.Game.new(seed=1).phase
        <Phase.DEAL: 'deal'>
        """
        return self._phase

    @property
    def to_move(self) -> Seat | None:
        """The seat that must act, or ``None`` while dealing and after the game.

        >>> import jass
        >>> g = jass.Game.new(seed=1)
        >>> g.to_move is None, g.deal().to_move == g.deal().hand.forehand
        (True, True)
        """
        return _SEATS[self._to_move] if self._to_move >= 0 else None

    @property
    def hand(self) -> Hand | None:
        """The current (or just finished) hand, or ``None`` before the first deal.

        >>> import jass
        >>> jass.Game.new(seed=1).hand is None
        True
        """
        return self._ctx.hand

    @property
    def contract(self) -> Contract | None:
        """The contract of the current hand, once named.

        >>> import jass
        >>> jass.Game.new(seed=1).deal().choose("obenabe").contract
        Contract.OBENABE
        """
        hand = self._ctx.hand
        return hand.contract if hand is not None else None

    @property
    def hands(self) -> DealtHands:
        """The cards each seat still holds, by seat (perfect information).

        >>> import jass
        >>> [len(h) for h in jass.Game.new(seed=1).deal().hands]
        [9, 9, 9, 9]
        """
        return self._hands

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards of the current, incomplete trick, leader first.

        When the game ended at a Stöck scored with a trick's fourth card, it holds that
        uncredited trick (later events are not credited, RULES.md R9.3).

        >>> import jass
        >>> g = jass.Game.new(seed=1).deal().choose("obenabe")
        >>> g.play(min(g.legal_moves())).trick == (min(g.legal_moves()),)
        True
        """
        return self._trick

    @property
    def trick_leader(self) -> Seat | None:
        """The seat that leads (or led) the current trick.

        >>> import jass
        >>> g = jass.Game.new(seed=1).deal().choose("obenabe")
        >>> g.trick_leader == g.hand.forehand
        True
        """
        return _SEATS[self._leader] if self._leader >= 0 else None

    @property
    def tricks_won(self) -> tuple[int, int]:
        """Tricks won in the current hand, by team.

        >>> import jass
        >>> jass.Game.new(seed=1).deal().tricks_won
        (0, 0)
        """
        return self._tricks

    @property
    def hand_points(self) -> tuple[int, int]:
        """Unmultiplied card points taken in the current hand, by team.

        >>> import jass
        >>> jass.Game.new(seed=1).deal().hand_points
        (0, 0)
        """
        return self._points

    @property
    def scores(self) -> tuple[int, int]:
        """Running totals by team, including what this hand has credited so far (R9.2a).

        >>> import jass
        >>> jass.Game.new(seed=1).scores[Team(0)]
        0
        """
        return self._scores

    @property
    def hand_results(self) -> tuple[HandScore, ...]:
        """The scores of the completed hands, oldest first.

        >>> import jass
        >>> jass.Game.new(seed=1).hand_results
        ()
        """
        return self._ctx.results

    @property
    def result(self) -> GameResult | None:
        """How the game ended, or ``None`` while it goes on.

        >>> import jass
        >>> jass.Game.new(seed=1).result is None
        True
        """
        return self._ctx.outcome

    @property
    def is_over(self) -> bool:
        """Whether the game has ended.

        >>> import jass
        >>> jass.Game.new(seed=1).is_over
        False
        """
        return self._ctx.outcome is not None

    @property
    def winner(self) -> Team | None:
        """The winning team once the game is over; ``None`` before, or for a draw.

        >>> import jass
        >>> jass.Game.new(seed=1).winner is None
        True
        """
        outcome = self._ctx.outcome
        return outcome.winner if outcome is not None else None

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action since the game began, deals included, oldest first.

        >>> import jass
        >>> g = jass.Game.new(seed=1).deal().shove()
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

        >>> import jass
        >>> jass.Game.new(seed=1).deal().tricks
        ()
        """
        plays = self.plays
        contract = self._ctx.contract
        table = self._ctx.table
        tricks = []
        for start in range(0, len(plays) - len(plays) % 4, 4):
            leader = plays[start][0]
            cards = (plays[start][1], plays[start + 1][1], plays[start + 2][1], plays[start + 3][1])
            winner = leader.offset(trick_winner(cards, contract))
            points = sum(table[c] for c in cards) + (5 if start == 32 else 0)
            tricks.append(Trick(leader, cards, winner, points))
        return tuple(tricks)

    @property
    def weis_result(self) -> WeisResult | None:
        """The Weis of the current hand, resolved when trick 1 is complete (RULES.md R7.8).

        >>> import jass
        >>> g = jass.Game.new(seed=1).deal().choose("obenabe")
        >>> g.weis_result is None
        True
        """
        return self._ev.weis

    @property
    def declared_weis(self) -> tuple[tuple[Weis, ...] | None, ...]:
        """The Weis each seat has declared in this hand, by seat; ``None`` before it declares.

        Declaring happens with a seat's first card of trick 1: every Weis it holds under
        ``weis_declaration=AUTO``, its choice under ``MANUAL``. At the table the others learn
        only the points; :attr:`shown_weis` gives the cards shown after trick 1.

        >>> import jass
        >>> g = jass.Game.new(seed=1).deal().choose("obenabe")
        >>> g.declared_weis
        (None, None, None, None)
        """
        ctx = self._ctx
        hand = ctx.hand
        if not ctx.weis_on or hand is None or self._phase is Phase.CHOOSE:
            return (None, None, None, None)
        if self._ev.weis is not None:
            return self._ev.weis.declared
        if ctx.rules.weis_declaration is WeisDeclaration.MANUAL:
            return self._ev.declared
        played = len(self._trick)
        first = int(hand.forehand)
        return tuple(
            find_weis(hand.dealt[seat], ctx.rules) if (seat - first) & 3 < played else None
            for seat in range(4)
        )

    @property
    def shown_weis(self) -> tuple[Weis, ...]:
        """The Weis shown after trick 1: all those declared by the winning team (R7.7).

        >>> import jass
        >>> jass.Game.new(seed=1).deal().shown_weis
        ()
        """
        result = self._ev.weis
        if result is None or result.winner is None:
            return ()
        return tuple(w for seat in result.winner.team.seats for w in result.declared[seat])

    @property
    def stoeck(self) -> Seat | None:
        """The seat whose Stöck were scored (or shown to finish) in this hand, else ``None``.

        >>> import jass
        >>> jass.Game.new(seed=1).deal().stoeck is None
        True
        """
        seat = self._ctx.stoeck_seat
        return _SEATS[seat] if seat >= 0 and self._ev.stoeck_done else None

    @property
    def hand_weis_stoeck(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """Unmultiplied Weis and Stöck points credited so far in this hand, by team.

        >>> import jass
        >>> jass.Game.new(seed=1).deal().hand_weis_stoeck
        ((0, 0), (0, 0))
        """
        return self._ev.weis_credit, self._ev.stoeck_credit

    @property
    def plays(self) -> tuple[tuple[Seat, Card], ...]:
        """Every card played in the current hand, with the seat that played it, in order.

        >>> import jass
        >>> g = jass.Game.new(seed=1).deal().choose("obenabe")
        >>> g = g.play(g.legal_moves().cards()[0])
        >>> g.plays == ((g.hand.forehand, g.trick[0]),)
        True
        """
        hand = self._ctx.hand
        if hand is None or hand.contract is None:
            return ()
        cards: list[Card] = []
        node = self._history
        while node is not None:
            node, action = node
            if isinstance(action, Deal):
                break
            if isinstance(action, Play):
                cards.append(action.card)
        cards.reverse()
        plays: list[tuple[Seat, Card]] = []
        leader = int(hand.forehand)
        contract = hand.contract
        for start in range(0, len(cards), 4):
            trick = cards[start : start + 4]
            plays.extend((_SEATS[(leader + i) & 3], card) for i, card in enumerate(trick))
            if len(trick) == 4:
                leader = (leader + trick_winner(trick, contract)) & 3
        return tuple(plays)

    def view(self, seat: Seat | int) -> PlayerView:
        """What ``seat`` may know of this state: its own cards and everything public.

        >>> import jass
        >>> g = jass.Game.new(seed=1).deal()
        >>> v = g.view(jass.Seat(1))
        >>> v.hand == g.hands[1], hasattr(v, "hands")
        (True, False)
        """
        return PlayerView.of(self, seat)

    def legal_moves(self) -> CardSet:
        """The cards the player to move may play; empty outside the play phase.

        >>> import jass
        >>> g = jass.Game.new(seed=1).deal().choose("obenabe")
        >>> g.legal_moves() == g.hands[g.to_move]
        True
        """
        if self._phase is not _PLAY:
            return _EMPTY
        legal = self._legal
        if legal is None:
            ctx = self._ctx
            legal = legal_cards(self._hands[self._to_move], self._trick, ctx.contract, ctx.rules)
            self._legal = legal  # a cache: invisible to equality and to users
        return legal

    def legal_actions(self) -> tuple[Play | Choose | Shove | DeclareWeis | Thank, ...]:
        """Every action the player to move may take, as values for :meth:`apply`.

        ``Thank`` is offered to the mover's team whenever thanking is allowed (RULES.md R9.2a),
        and under ``weis_declaration=MANUAL`` each non-empty choice of the mover's Weis while
        it may declare.

        >>> import jass
        >>> g = jass.Game.new(jass.rules.TOURNAMENT_12, seed=1).deal()
        >>> [a.index for a in g.legal_actions()]
        [36, 37, 38, 39, 40, 41, 43]
        """
        phase = self._phase
        actions: list[Play | Choose | Shove | DeclareWeis | Thank]
        if phase is _PLAY:
            actions = [PLAY_ACTIONS[c] for c in self.legal_moves()]
            if self._may_declare():
                found = find_weis(self._hands[self._to_move], self._ctx.rules)
                for mask in range(1, 1 << len(found)):
                    chosen = tuple(w for i, w in enumerate(found) if mask >> i & 1)
                    actions.append(DeclareWeis(chosen))
        elif phase is Phase.CHOOSE:
            allowed = self._ctx.rules.contracts
            actions = [Choose(c) for c in Contract.all() if c in allowed]
            if self._can_shove():
                actions.append(Shove())
        else:
            return ()
        if self._thank_allowed():
            actions.append(Thank(_TEAMS[self._to_move & 1]))
        return tuple(actions)

    # --- equality -----------------------------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        return (
            self._ctx.key(),
            self._ev,
            self._phase,
            self._to_move,
            self._hands,
            self._trick,
            self._leader,
            self._points,
            self._tricks,
            self._scores,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameReadout):
            return NotImplemented
        return type(self) is type(other) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        ctx = self._ctx
        parts = [f"seed={ctx.facts.seed}", self._phase.name]
        if ctx.hand is not None:
            parts.append(f"hand {ctx.hand.number}")
            if ctx.hand.contract is not None:
                parts.append(str(ctx.hand.contract))
        if self._to_move >= 0:
            parts.append(f"seat {self._to_move} to move")
        parts.append(f"scores {self._scores[0]}:{self._scores[1]}")
        return f"<Game {', '.join(parts)}>"

    # --- internals ----------------------------------------------------------------------

    def _can_shove(self) -> bool:
        hand = self._ctx.hand
        assert hand is not None  # noqa: S101
        return hand.shoves == 0 or (hand.shoves == 1 and self._ctx.rules.allow_shove_back)

    def _may_declare(self) -> bool:
        """Whether the mover may still declare Weis by hand (``MANUAL``, trick 1)."""
        ctx = self._ctx
        return (
            ctx.manual_weis
            and self._tricks == (0, 0)
            and self._phase is _PLAY
            and self._ev.declared[self._to_move] is None
        )

    def _thank_allowed(self) -> bool:
        ctx = self._ctx
        return (
            ctx.outcome is None
            and ctx.rules.hands is None
            and ctx.rules.end_mode is not EndMode.END_OF_HAND
        )
