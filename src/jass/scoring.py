"""Scoring a hand: card points, the match bonus, counter-match and multipliers (RULES.md §8).

>>> from jass import Contract, Suit, Team, rules
>>> score = score_hand(Contract.trump(Suit.CLUBS), (55, 102), (3, 6), Team(1), rules.SCHIEBER,
...                    weis=(0, 50), stoeck=(0, 20))
>>> score.totals  # the seed example: (102 + 50 + 20) x 2 against 55 x 2
(110, 344)
"""

from __future__ import annotations

import enum

import attrs

from jass.contracts import Contract
from jass.errors import InvalidInputError
from jass.rules import CounterMatch, EndMode, RuleSet
from jass.seats import Team

__all__ = ["EndReason", "GameResult", "HandScore", "end_after_hand", "score_hand"]

_ALL_CARD_POINTS = 157


@attrs.frozen
class HandScore:
    """The score of one complete hand. Pairs are indexed by :class:`~jass.Team`.

    Attributes:
        contract: the contract played.
        multiplier: the contract's multiplier under the rule set.
        declaring_team: the team that named the contract (the forehand's team).
        card_points: unmultiplied card points per team, the last trick's 5 included.
        tricks: tricks won per team.
        match: the team that took all nine tricks, or ``None``.
        bonus: unmultiplied match or counter-match points per team.
        weis: unmultiplied Weis points per team.
        stoeck: unmultiplied Stöck points per team.
        totals: what each team adds to its running total: multiplier x (the four above).

    >>> from jass import Contract, Team, rules
    >>> s = score_hand(Contract.OBENABE, (157, 0), (9, 0), Team(0), rules.SCHIEBER)
    >>> s.match, s.bonus, s.totals
    (<Team.T0: 0>, (100, 0), (771, 0))
    """

    contract: Contract
    multiplier: int
    declaring_team: Team
    card_points: tuple[int, int]
    tricks: tuple[int, int]
    match: Team | None
    bonus: tuple[int, int]
    weis: tuple[int, int]
    stoeck: tuple[int, int]
    totals: tuple[int, int]


def score_hand(
    contract: Contract,
    card_points: tuple[int, int],
    tricks: tuple[int, int],
    declaring_team: Team,
    ruleset: RuleSet,
    *,
    weis: tuple[int, int] = (0, 0),
    stoeck: tuple[int, int] = (0, 0),
) -> HandScore:
    """Score a complete hand (RULES.md R8.3-R8.6).

    ``card_points`` must include the last trick's 5 and add up to 157, and ``tricks`` to 9.
    The match bonus is earned by tricks, not points, under the ``counter_match`` and
    ``match_bonus`` options.

    >>> from jass import Contract, Team, rules
    >>> rs = rules.SCHIEBER.evolve(counter_match="DOUBLE_MATCH", multipliers="FLAT")
    >>> score_hand(Contract.OBENABE, (0, 157), (0, 9), Team(0), rs).totals
    (0, 514)
    """
    if card_points[0] + card_points[1] != _ALL_CARD_POINTS or tricks[0] + tricks[1] != 9:
        raise InvalidInputError(
            f"a complete hand has 157 card points in 9 tricks, got {card_points} in {tricks}"
        )
    match = Team(0) if tricks[0] == 9 else Team(1) if tricks[1] == 9 else None
    bonus = [0, 0]
    if match is not None:
        bonus[match] = _match_bonus(match is declaring_team, ruleset)
    multiplier = ruleset.multiplier(contract)
    totals = (
        multiplier * (card_points[0] + bonus[0] + weis[0] + stoeck[0]),
        multiplier * (card_points[1] + bonus[1] + weis[1] + stoeck[1]),
    )
    return HandScore(
        contract=contract,
        multiplier=multiplier,
        declaring_team=declaring_team,
        card_points=card_points,
        tricks=tricks,
        match=match,
        bonus=(bonus[0], bonus[1]),
        weis=weis,
        stoeck=stoeck,
        totals=totals,
    )


def _match_bonus(declarer: bool, ruleset: RuleSet) -> int:
    """Unmultiplied extra points for taking all nine tricks (RULES.md R8.4)."""
    rule = ruleset.counter_match
    if declarer or rule is CounterMatch.SAME_AS_MATCH:
        return ruleset.match_bonus
    if rule is CounterMatch.NONE:
        return 0
    if rule is CounterMatch.DOUBLE_TRICK_POINTS:
        return _ALL_CARD_POINTS  # 2 x 157 in all
    return _ALL_CARD_POINTS + 2 * ruleset.match_bonus  # DOUBLE_MATCH: 2 x (157 + bonus)


class EndReason(enum.Enum):
    """Why a game ended.

    >>> EndReason.FALSE_THANK.value
    'a team thanked without having reached the target and lost'
    """

    TARGET_REACHED = "a team reached the target at a scoring event"
    THANKED = "a team thanked, having reached the target"
    FALSE_THANK = "a team thanked without having reached the target and lost"
    HAND_LIMIT = "the fixed number of hands was played"
    END_OF_HAND_TARGET = "a team was past the target at the end of a hand"


@attrs.frozen
class GameResult:
    """How a game ended.

    Attributes:
        winner: the winning team, or ``None`` for a draw (only in a fixed-length game).
        reason: why the game ended.
        scores: the final running totals, indexed by team.
        hands_played: the number of hands started, the last one possibly unfinished.

    >>> GameResult(Team(0), EndReason.HAND_LIMIT, (1200, 900), 12).winner
    <Team.T0: 0>
    """

    winner: Team | None
    reason: EndReason
    scores: tuple[int, int]
    hands_played: int


def end_after_hand(
    ruleset: RuleSet, scores: tuple[int, int], hands_played: int, last_trick_team: Team
) -> tuple[Team | None, EndReason] | None:
    """Whether a hand just scored ends the game: ``(winner, reason)``, or ``None`` to go on.

    ``scores`` are the running totals with the hand; ``last_trick_team`` took the last trick,
    the last scoring event of the hand (RULES.md R9.1, R9.3).

    >>> from jass import rules
    >>> end_after_hand(rules.TOURNAMENT_12, (900, 900), 12, Team(0))
    (None, <EndReason.HAND_LIMIT: 'the fixed number of hands was played'>)
    >>> end_after_hand(rules.BEGINNER, (1010, 1040), 5, Team(0))[0]
    <Team.T1: 1>
    """
    if ruleset.hands is not None:
        if hands_played < ruleset.hands:
            return None
        winner = None if scores[0] == scores[1] else Team(int(scores[1] > scores[0]))
        return winner, EndReason.HAND_LIMIT
    if ruleset.end_mode is EndMode.AUTO:
        if scores[last_trick_team] >= ruleset.target:
            return last_trick_team, EndReason.TARGET_REACHED
    elif (
        ruleset.end_mode is EndMode.END_OF_HAND
        and max(scores) >= ruleset.target
        and scores[0] != scores[1]
    ):
        return Team(int(scores[1] > scores[0])), EndReason.END_OF_HAND_TARGET
    return None
