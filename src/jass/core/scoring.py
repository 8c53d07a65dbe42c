"""Scoring a hand: card points, the match bonus, counter-match and multipliers (rule book §8).

>>> from jass import Contract, Suit, Team, rules
>>> score = score_hand(Contract.trump(Suit.CLUBS), (55, 102), (3, 6), Team(1), rules.SCHIEBER,
...                    weis=(0, 50), stoeck=(0, 20))
>>> score.totals  # the seed example: (102 + 50 + 20) x 2 against 55 x 2
(110, 344)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

import attrs

from jass.core.contracts import Contract, ContractKind
from jass.core.seats import Team
from jass.errors import InvalidInputError
from jass.rules import AusmachOrder, CounterMatch, EndMode, RuleSet

__all__ = [
    "EndReason",
    "GameResult",
    "HandScore",
    "ScoringEvent",
    "credit_card_play",
    "credited_team",
    "end_after_hand",
    "event_order",
    "match_bonus",
    "schneider",
    "score_hand",
    "score_hand_unchecked",
    "team_match_bonus",
]

_ALL_CARD_POINTS = 157


@attrs.frozen
class HandScore:
    """The score of one complete hand. Pairs are indexed by :class:`~jass.Team`.

    Attributes:
        contract: the contract played.
        multiplier: the contract's multiplier under the rule set.
        declaring_team: the team that named the contract (the forehand's team).
        card_points: unmultiplied card points credited per team, the last trick's 5 included
            (in Misère each team is credited the points its opponents took).
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
    """Score a complete hand (rule book R8.3-R8.6).

    ``card_points`` are the points each team took, the last trick's 5 included (157 in all),
    and ``tricks`` the tricks each took (9 in all). The match bonus is earned by tricks, not
    points, under the ``counter_match`` and ``match_bonus`` options. In Misère each team is
    credited the points its opponents took, with no match bonus (rule book §10).

    >>> from jass import Contract, Team, rules
    >>> rs = rules.SCHIEBER.evolve(counter_match="DOUBLE_MATCH", multipliers="FLAT")
    >>> score_hand(Contract.OBENABE, (0, 157), (0, 9), Team(0), rs).totals
    (0, 514)
    """
    if not isinstance(contract, Contract):
        raise InvalidInputError(f"{contract!r} is not a Contract")
    if not isinstance(ruleset, RuleSet):
        raise InvalidInputError(f"{ruleset!r} is not a RuleSet")
    declaring_team = Team(declaring_team)
    for name, pair in (("card_points", card_points), ("tricks", tricks)):
        if (
            not isinstance(pair, tuple)
            or len(pair) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in pair)
        ):
            raise InvalidInputError(f"{name} must be two non-negative ints, got {pair!r}")
    for name, pair in (("weis", weis), ("stoeck", stoeck)):
        if not isinstance(pair, tuple) or len(pair) != 2 or min(pair) < 0:
            raise InvalidInputError(f"{name} must be two non-negative ints, got {pair!r}")
    if card_points[0] + card_points[1] != _ALL_CARD_POINTS or tricks[0] + tricks[1] != 9:
        raise InvalidInputError(
            f"a complete hand has 157 card points in 9 tricks, got {card_points} in {tricks}"
        )
    return score_hand_unchecked(
        contract, card_points, tricks, declaring_team, ruleset, weis, stoeck
    )


def score_hand_unchecked(
    contract: Contract,
    card_points: tuple[int, int],
    tricks: tuple[int, int],
    declaring_team: Team,
    ruleset: RuleSet,
    weis: tuple[int, int],
    stoeck: tuple[int, int],
) -> HandScore:
    """:func:`score_hand` without checking its input, for the state machine's hot path.

    >>> from jass import Contract, Team, rules
    >>> score_hand_unchecked(Contract.OBENABE, (57, 100), (4, 5), Team(0), rules.SCHIEBER,
    ...             (0, 0), (0, 0)).totals
    (171, 300)
    """
    match = Team(0) if tricks[0] == 9 else Team(1) if tricks[1] == 9 else None
    card_points, bonus = credit_card_play(card_points, tricks, declaring_team, contract, ruleset)
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
        bonus=bonus,
        weis=weis,
        stoeck=stoeck,
        totals=totals,
    )


def match_bonus(declarer: bool, ruleset: RuleSet) -> int:
    """Unmultiplied extra points for taking all nine tricks (rule book R8.4).

    ``declarer`` tells whether the team that took them named the contract.

    >>> from jass import rules
    >>> match_bonus(True, rules.SCHIEBER), match_bonus(False, rules.TRADITIONAL)
    (100, 157)
    """
    rule = ruleset.counter_match
    if declarer or rule is CounterMatch.SAME_AS_MATCH:
        return ruleset.match_bonus
    if rule is CounterMatch.NONE:
        return 0
    if rule is CounterMatch.DOUBLE_TRICK_POINTS:
        return _ALL_CARD_POINTS  # 2 x 157 in all
    return _ALL_CARD_POINTS + 2 * ruleset.match_bonus  # DOUBLE_MATCH: 2 x (157 + bonus)


def credited_team(team: int, contract: Contract) -> int:
    """The team credited with the points ``team`` takes: the kernel of the Misère swap.

    Under Misère each team is credited the trick points its opponents took (rule book §10);
    under every other contract a team keeps its own. ``team`` is 0 or 1 (a
    :class:`~jass.Team` or a plain int). The swap is its own inverse: the team credited to
    ``team`` is also the one whose points ``team`` is credited.

    >>> from jass import Contract
    >>> credited_team(0, Contract.OBENABE), credited_team(0, Contract.MISERE)
    (0, 1)
    """
    return team ^ 1 if contract.kind is ContractKind.MISERE else team


def team_match_bonus(team: int, declaring_team: int, contract: Contract, ruleset: RuleSet) -> int:
    """The unmultiplied bonus ``team`` earns by taking all nine tricks (rule book R8.3-R8.4).

    :func:`match_bonus` under the ``counter_match`` and ``match_bonus`` options, for the
    declaring team or the other one; none under Misère (rule book §10). It is the same
    whichever team is credited the card points.

    >>> from jass import Contract, rules
    >>> team_match_bonus(1, 0, Contract.OBENABE, rules.TRADITIONAL)  # a counter-match
    157
    >>> team_match_bonus(0, 0, Contract.MISERE, rules.SCHIEBER)
    0
    """
    if contract.kind is ContractKind.MISERE:
        return 0
    return match_bonus(team == declaring_team, ruleset)


def credit_card_play(
    card_points: Sequence[int],
    tricks: Sequence[int],
    declaring_team: int,
    contract: Contract,
    ruleset: RuleSet,
) -> tuple[tuple[int, int], tuple[int, int]]:
    """What each team is credited for the card play of a complete hand, unmultiplied.

    ``card_points`` and ``tricks`` are what each team took (the last trick's 5 included).
    Returns the card points credited to each team (:func:`credited_team`) and each team's
    match bonus (:func:`team_match_bonus`, for the team that took all nine tricks). Every
    settlement of a hand's card play calls it: :func:`score_hand` and the rollouts of
    :mod:`jass.search.fast`.

    >>> from jass import Contract, rules
    >>> credit_card_play((157, 0), (9, 0), 0, Contract.OBENABE, rules.SCHIEBER)
    ((157, 0), (100, 0))
    >>> credit_card_play((100, 57), (5, 4), 0, Contract.MISERE, rules.SCHIEBER)
    ((57, 100), (0, 0))
    """
    first = credited_team(0, contract)
    credited = (card_points[first], card_points[first ^ 1])
    if tricks[0] == 9:
        return credited, (team_match_bonus(0, declaring_team, contract, ruleset), 0)
    if tricks[1] == 9:
        return credited, (0, team_match_bonus(1, declaring_team, contract, ruleset))
    return credited, (0, 0)


class ScoringEvent(enum.Enum):
    """The kinds of scoring event, credited in the ausmach order (rule book R9.3-R9.4).

    >>> [e.value for e in ScoringEvent]
    ['Stöck', 'Weis', 'trick']
    """

    STOECK = "Stöck"
    WEIS = "Weis"
    TRICK = "trick"


def event_order(ruleset: RuleSet) -> tuple[ScoringEvent, ScoringEvent, ScoringEvent]:
    """The order in which simultaneous scoring events count (``ausmach_order``).

    >>> from jass import rules
    >>> [e.name for e in event_order(rules.SCHIEBER.evolve(ausmach_order="STOECK_STICH_WEIS"))]
    ['STOECK', 'TRICK', 'WEIS']
    """
    if ruleset.ausmach_order is AusmachOrder.STOECK_STICH_WEIS:
        return (ScoringEvent.STOECK, ScoringEvent.TRICK, ScoringEvent.WEIS)
    return (ScoringEvent.STOECK, ScoringEvent.WEIS, ScoringEvent.TRICK)


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
        event: the scoring event by which the winner reached the target, if it did.
        schneider: whether the loser is *schneider* (rule book R9.5, option ``schneider``).
        stake: 2 for a schneider, else 1.

    >>> GameResult(Team(0), EndReason.HAND_LIMIT, (1200, 900), 12).winner
    <Team.T0: 0>
    """

    winner: Team | None
    reason: EndReason
    scores: tuple[int, int]
    hands_played: int
    event: ScoringEvent | None = None
    schneider: bool = False
    stake: int = 1


def end_after_hand(
    ruleset: RuleSet, scores: tuple[int, int], hands_played: int
) -> tuple[Team | None, EndReason] | None:
    """Whether a complete hand ends a game of fixed length or in ``END_OF_HAND`` mode.

    Returns ``(winner, reason)``, or ``None`` to go on (rule book R9.1, R9.3). Games that end
    at a scoring event (``AUTO``) or by thanking are decided as the points are credited.

    >>> from jass import rules
    >>> end_after_hand(rules.TOURNAMENT_12, (900, 900), 12)
    (None, <EndReason.HAND_LIMIT: 'the fixed number of hands was played'>)
    >>> end_after_hand(rules.BEGINNER, (1010, 1040), 5)[0]
    <Team.T1: 1>
    >>> end_after_hand(rules.BEGINNER, (1040, 1040), 5) is None  # equal totals: play on
    True
    """
    if ruleset.hands is not None:
        if hands_played < ruleset.hands:
            return None
        winner = None if scores[0] == scores[1] else Team(int(scores[1] > scores[0]))
        return winner, EndReason.HAND_LIMIT
    if (
        ruleset.end_mode is EndMode.END_OF_HAND
        and max(scores) >= ruleset.target
        and scores[0] != scores[1]
    ):
        return Team(int(scores[1] > scores[0])), EndReason.END_OF_HAND_TARGET
    return None


def schneider(ruleset: RuleSet, scores: tuple[int, int], winner: Team) -> bool:
    """Whether the loser is *schneider*: less than half the target (rule book R9.5).

    Only with the ``schneider`` option, and only for a game won by reaching the target.

    >>> from jass import rules
    >>> schneider(rules.SCHIEBER.evolve(schneider=True), (2510, 1200), Team(0))
    True
    >>> schneider(rules.SCHIEBER, (2510, 1200), Team(0))
    False
    """
    return ruleset.schneider and 2 * scores[1 - winner] < ruleset.target
