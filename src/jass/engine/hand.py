"""The records of a game: :class:`Phase`, :class:`GameSetup`, :class:`HandInfo` and :class:`Trick`.

What the state machine keeps privately per game and per hand is in :mod:`jass.engine._context`.

>>> import jass
>>> g = jass.Game.new(seed=3).deal()
>>> g.phase, g.hand_info.number, g.hand_info.forehand == g.hand_info.dealer.next
(<Phase.CHOOSE: 'choose'>, 0, True)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import Final

import attrs

from jass._budgets import is_int
from jass.core.cards import Card
from jass.core.contracts import Contract
from jass.core.dealing import DealtHands
from jass.core.play import trick_winner
from jass.core.seats import Seat, Team
from jass.errors import InvalidInputError
from jass.rules import EndMode, RuleSet

__all__ = ["GameSetup", "HandInfo", "Phase", "Trick"]  # the rest is internal to the state machine

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
class HandInfo:
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
    >>> info = jass.Game.new(seed=3).deal().hand_info
    >>> info.number, info.forehand == info.dealer.next, len(info.dealt[0])
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
        >>> h = jass.Game.new(seed=3).deal().hand_info
        >>> h.forehand == h.dealer.next
        True
        """
        return _SEATS[(self.dealer + 1) & 3]

    @property
    def declaring_team(self) -> Team:
        """The team that names the contract: always the forehand's (rule book R4.4).

        >>> import jass
        >>> h = jass.Game.new(seed=3).deal().hand_info
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
    >>> t.leader == g.hand_info.forehand, len(t.cards), g.trick_leader == t.winner
    (True, 4, True)
    """

    leader: Seat
    cards: tuple[Card, Card, Card, Card]
    winner: Seat
    points: int


def completed_tricks(
    plays: Sequence[tuple[Seat, Card]], contract: Contract, table: Sequence[int]
) -> tuple[Trick, ...]:
    """The completed tricks among ``plays`` (a hand's cards in order, with their seats).

    ``table`` gives each card's points under ``contract``; the ninth trick gets its 5.

    >>> import jass
    >>> g = jass.Game.new(seed=1).deal().choose("obenabe")
    >>> for _ in range(4):
    ...     g = g.play(min(g.legal_moves()))
    >>> completed_tricks(g.plays, g.contract, g.contract.card_points()) == g.tricks
    True
    """
    tricks = []
    for start in range(0, len(plays) - len(plays) % 4, 4):
        leader = plays[start][0]
        cards = (plays[start][1], plays[start + 1][1], plays[start + 2][1], plays[start + 3][1])
        winner = leader.offset(trick_winner(cards, contract))
        points = sum(table[c] for c in cards) + (5 if start == 32 else 0)
        tricks.append(Trick(leader, cards, winner, points))
    return tuple(tricks)


@attrs.frozen
class GameSetup:
    """Where a game starts: the score sheet it resumes, and who deals first.

    Attributes:
        scores: the running totals before the first hand, by team.
        dealer: the seat that deals the first hand, or ``None`` to let ``first_hand_rule``
            decide (rule book R3.7).
        hands_played: hands played before this game object began; they count toward the
            ``hands`` option's fixed length and number the hands that follow.

    >>> import jass
    >>> jass.Game.new(seed=1, scores=(1200, 940), dealer=jass.Seat(2)).setup
    GameSetup(scores=(1200, 940), dealer=<Seat.S2: 2>, hands_played=0)
    """

    scores: tuple[int, int] = (0, 0)
    dealer: Seat | None = None
    hands_played: int = 0

    @classmethod
    def checked(
        cls, ruleset: RuleSet, scores: object, dealer: object = None, hands_played: object = 0
    ) -> GameSetup:
        """The set-up of :meth:`jass.Game.new` under ``ruleset``, checked.

        A bad value raises :class:`~jass.InvalidInputError` that names it and says why.

        >>> import jass
        >>> GameSetup.checked(jass.rules.SCHIEBER, [100, 20], dealer=2)
        GameSetup(scores=(100, 20), dealer=<Seat.S2: 2>, hands_played=0)
        """
        if (
            scores.__class__ is tuple
            and scores == (0, 0)
            and dealer is None
            and hands_played.__class__ is int
            and hands_played == 0
        ):
            return FRESH_START  # the usual new game, valid under every rule set (target >= 1)
        if isinstance(scores, (str, bytes)) or not isinstance(scores, Iterable):
            raise InvalidInputError(f"scores must be two ints (team 0, team 1), got {scores!r}")
        pair = tuple(scores)
        if len(pair) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in pair):
            raise InvalidInputError(f"scores must be two ints (team 0, team 1), got {scores!r}")
        totals = (int(pair[0]), int(pair[1]))
        for team, total in enumerate(totals):
            if total < 0:
                raise InvalidInputError(f"scores {totals}: team {team} has a negative total")
        if ruleset.hands is None:
            target = ruleset.target
            if ruleset.end_mode is EndMode.AUTO:
                for team, total in enumerate(totals):
                    if total >= target:
                        raise InvalidInputError(
                            f"scores {totals}: team {team} is already at the target {target}, "
                            "so the game would be over (end_mode=AUTO)"
                        )
            elif (
                ruleset.end_mode is EndMode.END_OF_HAND
                and max(totals) >= target
                and totals[0] != totals[1]
            ):
                raise InvalidInputError(
                    f"scores {totals}: a team is past the target {target} with the higher total, "
                    "so the game would be over (end_mode=END_OF_HAND)"
                )
        if dealer is not None:
            if not is_int(dealer) or dealer not in range(4):
                raise InvalidInputError(f"dealer must be a Seat (0-3) or None, got {dealer!r}")
            dealer = _SEATS[dealer]
        if not is_int(hands_played) or hands_played < 0:
            raise InvalidInputError(f"hands_played must be an int >= 0, got {hands_played!r}")
        if ruleset.hands is not None and hands_played >= ruleset.hands:
            raise InvalidInputError(
                f"hands_played={hands_played}: a game of hands={ruleset.hands} would be over"
            )
        setup = cls(totals, dealer, hands_played)
        return FRESH_START if setup == FRESH_START else setup


#: A game from the start: no points, the first dealer by the rule set.
FRESH_START: Final = GameSetup()
