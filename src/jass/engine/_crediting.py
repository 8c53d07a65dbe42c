"""Crediting scoring events in the ausmach order, as pure functions (rule book §8-§9).

A completed trick, a Stöck or a thank turns into points on the running totals here. The
functions take a :class:`Ledger` (the values crediting may change) and return a new one; the
state machine in :mod:`jass.engine.game` builds the next :class:`~jass.Game` from it. They end the
game at the first event that reaches the target (``end_mode=AUTO``, R9.3), claim Stöck when
they are needed to finish (R9.4), and decide a thank (R9.2a).

>>> import jass
>>> plain = jass.rules.SCHIEBER.evolve(target=30, weis=False, stoeck=False)
>>> g = jass.Game.new(plain, seed=2).deal().choose("obenabe")
>>> while not g.is_over:
...     g = g.play(g.legal_moves().cards()[0])
>>> g.result.reason.name, g.result.event.name
('TARGET_REACHED', 'TRICK')
"""

from __future__ import annotations

from typing import Final

from jass.core.cards import Card
from jass.core.scoring import (
    EndReason,
    GameResult,
    ScoringEvent,
    schneider,
)
from jass.core.seats import Team
from jass.core.weis import Weis, WeisResult, resolve_declared_weis
from jass.engine._context import HandContext, HandCredits
from jass.engine._public import PLAY_ORDER, Round

_tuple_new: Final = tuple.__new__

__all__ = [
    "STOECK_POINTS",
    "Event",
    "Ledger",
    "add_to",
    "credit",
    "credit_step",
    "current_step",
    "end_game",
    "stoeck_to_show",
    "thank",
    "trick_completed",
    "trick_events",
]

#: Unmultiplied value of the Stöck (rule book R8.1).
STOECK_POINTS: Final = 20
_TEAMS: Final = tuple(Team)
_STOECK: Final = ScoringEvent.STOECK
_WEIS: Final = ScoringEvent.WEIS
_TRICK: Final = ScoringEvent.TRICK

#: One event of a scoring step: (kind, team credited, unmultiplied points).
Event = tuple[ScoringEvent, int, int]


#: What crediting may change: the game context (who reached the target, the outcome), the
#: hand's tally, and the running totals. A plain tuple: it is built once per trick.
Ledger = tuple[HandContext, HandCredits, tuple[int, int]]


def add_to(pair: tuple[int, int], team: int, amount: int) -> tuple[int, int]:
    """``pair`` (a value per team) with ``amount`` added for ``team``.

    >>> add_to((10, 20), 1, 5)
    (10, 25)
    """
    return (pair[0] + amount, pair[1]) if team == 0 else (pair[0], pair[1] + amount)


def credit_step(ledger: Ledger, events: list[Event], step: int) -> Ledger:
    """Credit one scoring step in the ausmach order; ``step`` is its game-wide trick index.

    Under ``end_mode=AUTO`` unscored Stöck are claimed when needed (R9.4): *alone* when their
    20 (x m) finish by themselves, ahead of the step's events; *together* with the holder's
    team's Weis or trick event when that event alone falls short and the two finish.
    Crediting stops at the event that ends the game.

    >>> import jass
    >>> from jass.engine._context import NO_CREDITS, GameFacts
    >>> ctx = HandContext(GameFacts.of(jass.rules.SCHIEBER.evolve(target=100), 1))
    >>> after = credit_step((ctx, NO_CREDITS, (90, 0)), [(ScoringEvent.TRICK, 0, 12)], 0)
    >>> after[2], after[0].outcome.winner
    ((126, 0), <Team.T0: 0>)
    """
    ctx = ledger[0]
    facts = ctx.facts
    if len(events) > 1:
        rank = facts.event_rank
        if len(events) == 2:  # the usual case: a trick and a Weis
            if rank[events[0][0]] > rank[events[1][0]]:
                events = [events[1], events[0]]
        else:
            events = sorted(events, key=lambda event: rank[event[0]])
    claimer = -1  # the team that may still claim unscored Stöck now (R9.4)
    stoeck = STOECK_POINTS * ctx.data.multiplier
    target = facts.auto_target
    if (
        facts.claim_stoeck
        and target is not None
        and not (events and events[0][0] is _STOECK)  # being scored at the second card
    ):
        claimer = stoeck_to_show(ctx, ledger[1])
    if claimer >= 0 and target is not None and ledger[2][claimer] + stoeck >= target:  # alone
        return credit(ledger, _STOECK, claimer, STOECK_POINTS, step)
    for kind, team, points in events:
        if team == claimer and target is not None:
            total = ledger[2][team] + points * ctx.data.multiplier
            if total < target <= total + stoeck:  # together; not when the event alone finishes
                ledger = credit(ledger, _STOECK, team, STOECK_POINTS, step)
                claimer = -1
        ledger = credit(ledger, kind, team, points, step)
        if ledger[0].outcome is not None:
            break
    return ledger


def credit(ledger: Ledger, kind: ScoringEvent, team: int, points: int, step: int) -> Ledger:
    """Credit one event: ``points`` (unmultiplied) of ``kind`` to ``team``.

    Records when a team first reaches the target, and under ``end_mode=AUTO`` ends the game
    there (R9.3).

    >>> import jass
    >>> from jass.engine._context import NO_CREDITS, GameFacts
    >>> ctx = HandContext(GameFacts.of(jass.rules.SCHIEBER, 1))
    >>> credit((ctx, NO_CREDITS, (0, 0)), ScoringEvent.WEIS, 1, 50, 0)[1].weis_credit
    (0, 50)
    """
    ctx, tally, scores = ledger
    amount = points * ctx.data.multiplier
    before = scores[team]
    scores = add_to(scores, team, amount)
    if kind is _WEIS:
        tally = tally._replace(weis_credit=add_to(tally.weis_credit, team, points))
    elif kind is _STOECK:
        tally = tally._replace(
            stoeck_credit=add_to(tally.stoeck_credit, team, points),
            stoeck_done=True,
            stoeck_step=step,
        )
    facts = ctx.facts
    target = facts.reach_target
    if target is not None and before < target <= before + amount:
        if ctx.reached[team] is None:
            ctx = ctx.with_reached(team, (step, facts.event_rank[kind]))
        if facts.auto_target is not None:
            return end_game((ctx, tally, scores), _TEAMS[team], EndReason.TARGET_REACHED, kind)
    return (ctx, tally, scores)


def trick_events(
    ledger: Ledger, winner: int, points: int, tricks_won: tuple[int, int]
) -> tuple[Ledger, list[Event]]:
    """The events of a completed trick, and the ledger with the Weis resolved where due.

    ``points`` are the trick's card points without the last trick's 5; ``tricks_won`` counts
    this trick. The events are the trick (with +5 and the match bonus on trick 9, credited to
    the other team in Misère) and the Weis: after trick 1, or, under ``weis_requires_trick``,
    after the Weis team's first trick.

    >>> import jass
    >>> from jass.engine._context import NO_CREDITS, GameFacts
    >>> ctx = HandContext(GameFacts.of(jass.rules.SCHIEBER, 1))
    >>> trick_events((ctx, NO_CREDITS, (0, 0)), 1, 20, (4, 1))[1]
    [(<ScoringEvent.TRICK: 'trick'>, 1, 20)]
    """
    ctx, tally, scores = ledger
    team = winner & 1
    completed = tricks_won[0] + tricks_won[1]
    data = ctx.data
    if completed == 9:
        points += data.last_trick_bonus
        if tricks_won[team] == 9:
            hand = ctx.hand_info
            assert hand is not None  # noqa: S101
            declarer = team == hand.declaring_team
            points += data.match_bonus if declarer else data.counter_match_bonus
    events: list[Event] = [(_TRICK, team ^ data.credit_swap, points)]
    if not ctx.weis_on:
        return ledger, events
    if completed == 1:
        result = _resolve_weis(ctx, tally)
        pending = -1
        if result.winner is not None:
            weis_team = result.winner & 1
            if ctx.rules.weis_requires_trick and weis_team != team:
                pending = weis_team
            else:
                events.append((_WEIS, weis_team, result.points[weis_team]))
        tally = tally._replace(weis=result, weis_pending=pending)
    elif tally.weis_pending == team:
        weis = tally.weis
        assert weis is not None  # noqa: S101
        tally = tally._replace(weis_pending=-1)
        events.append((_WEIS, team, weis.points[team]))
    return (ctx, tally, scores), events


def _resolve_weis(ctx: HandContext, tally: HandCredits) -> WeisResult:
    hand = ctx.hand_info
    assert hand is not None  # noqa: S101
    lists: list[tuple[Weis, ...]] = []
    for seat in range(4):
        chosen = tally.declared[seat]  # None: declared automatically, everything (AUTO)
        lists.append(ctx.found_weis(seat) if chosen is None else chosen)
    return resolve_declared_weis(lists, ctx.contract, hand.forehand, ctx.rules)


def end_game(
    ledger: Ledger,
    winner: Team | None,
    reason: EndReason,
    event: ScoringEvent | None = None,
    *,
    hand_open: bool = True,
) -> Ledger:
    """The ledger of a game that ends now; ``hand_open`` tells whether a hand was started.

    >>> import jass
    >>> from jass.engine._context import NO_CREDITS, GameFacts
    >>> ctx = HandContext(GameFacts.of(jass.rules.SCHIEBER, 1))
    >>> end_game((ctx, NO_CREDITS, (0, 0)), Team(1), EndReason.FALSE_THANK,
    ...          hand_open=False)[0].outcome.hands_played
    0
    """
    ctx, tally, scores = ledger
    started = ctx.facts.setup.hands_played + len(ctx.results) + (1 if hand_open else 0)
    reached_target = reason in (
        EndReason.TARGET_REACHED,
        EndReason.THANKED,
        EndReason.END_OF_HAND_TARGET,
    )
    is_schneider = reached_target and winner is not None and schneider(ctx.rules, scores, winner)
    outcome = GameResult(
        winner, reason, scores, started, event, is_schneider, 2 if is_schneider else 1
    )
    return (ctx.with_outcome(outcome), tally, scores)


def current_step(ctx: HandContext, tally: HandCredits, completed: int) -> int:
    """The game-wide trick index of the latest scoring step (R9.2a c).

    A step stays current until the next trick is completed; ``completed`` counts the tricks
    of this hand completed so far.

    >>> import jass
    >>> from jass.engine._context import NO_CREDITS, GameFacts
    >>> current_step(HandContext(GameFacts.of(jass.rules.SCHIEBER, 1)), NO_CREDITS, 0)
    -1
    """
    hand = ctx.hand_info
    if hand is None:
        return -1
    return max(tally.stoeck_step, ctx.hand_step + completed - 1)


def stoeck_to_show(ctx: HandContext, tally: HandCredits) -> int:
    """The team that holds unscored Stöck it may still show to finish (R9.4), or -1.

    Only under ``stoeck_claim_anytime_to_finish``, once a trump contract is named.

    >>> import jass
    >>> from jass.engine._context import NO_CREDITS, GameFacts
    >>> stoeck_to_show(HandContext(GameFacts.of(jass.rules.SCHIEBER, 1)), NO_CREDITS)
    -1
    """
    if ctx.stoeck_seat < 0 or tally.stoeck_done or not ctx.rules.stoeck_claim_anytime_to_finish:
        return -1
    return ctx.stoeck_seat & 1


def thank(ledger: Ledger, team: Team, step: int, *, hand_open: bool) -> Ledger:
    """Decide a thank by ``team`` (R9.2a): the ledger of the finished game.

    The team's unscored Stöck are claimed if they are needed and suffice (R9.4). If both
    teams reached the target within the current scoring ``step``, the ausmach order decides;
    otherwise a true thank wins and a false one loses. ``hand_open`` tells whether a hand is
    under way.

    >>> import jass
    >>> from jass.engine._context import NO_CREDITS, GameFacts
    >>> ctx = HandContext(GameFacts.of(jass.rules.SCHIEBER, 1))
    >>> thank((ctx, NO_CREDITS, (0, 0)), Team(0), -1,
    ...       hand_open=False)[0].outcome.reason.name
    'FALSE_THANK'
    """
    ctx, tally, scores = ledger
    target = ctx.rules.target
    stoeck = STOECK_POINTS * ctx.data.multiplier
    if stoeck_to_show(ctx, tally) == team and scores[team] < target <= scores[team] + stoeck:
        ledger = credit(ledger, _STOECK, team, STOECK_POINTS, step)
        if ledger[0].outcome is not None:  # AUTO: the claim itself ended the game
            return ledger
    ctx, _, scores = ledger
    if scores[team] < target:
        return end_game(ledger, team.other, EndReason.FALSE_THANK, hand_open=hand_open)
    winner = team
    mine, theirs = ctx.reached[team], ctx.reached[team.other]
    if mine is not None and theirs is not None and mine[0] == theirs[0] == step:
        winner = team if mine[1] < theirs[1] else team.other
    return end_game(ledger, winner, EndReason.THANKED, _event_of(winner, ctx), hand_open=hand_open)


def _event_of(team: Team, ctx: HandContext) -> ScoringEvent | None:
    reached = ctx.reached[team]
    if reached is None:
        return None
    ranks = ctx.facts.event_rank
    return next(event for event, rank in ranks.items() if rank == reached[1])


def trick_completed(
    ledger: Ledger, trick: tuple[Card, Card, Card, Card], before: Round
) -> tuple[HandContext, HandCredits, tuple[int, int], Round]:
    """The ledger and the round after ``trick``'s fourth card, the trick credited.

    ``before`` is the round the trick was played in. Most tricks only add their points to
    one team's total, inline here. The others take the full step (:func:`trick_events`,
    :func:`credit_step`): the last trick (the 5 and the match), trick 1 when Weis are played
    (they are resolved then, R7.8), the tricks while a Weis waits for its team's first trick
    (``weis_requires_trick``), and those while Stöck may still be claimed to finish (R9.4).
    The hand itself is scored by the state machine when the ninth trick is in.

    >>> import jass
    >>> from jass.engine._context import NO_CREDITS, GameFacts
    >>> from jass.engine._public import new_round
    >>> plain = jass.rules.SCHIEBER.evolve(weis=False, stoeck=False)
    >>> g = jass.Game.new(plain, seed=1).deal().choose("obenabe")
    >>> start = new_round(leader=0, points=(0, 0), tricks_won=(0, 0), plays=())
    >>> after = trick_completed((g._ctx, NO_CREDITS, (0, 0)), tuple(jass.Card.parse(c) for c in
    ...     ("AS", "KS", "QS", "JS")), start)[3]
    >>> after.leader, after.points, after.tricks_won
    (0, (20, 0), (1, 0))
    """
    ctx, tally, scores = ledger
    data = ctx.data
    # play.trick_winner, inlined for speed; tests/test_view_fresh.py cross-checks the seats
    # this gives against the kernel.
    keys = data.win_keys[trick[0] // 9]
    best = 0
    best_key = keys[trick[0]]
    for index in (1, 2, 3):
        key = keys[trick[index]]
        if key > best_key:
            best = index
            best_key = key
    leader = before.leader
    winner = (leader + best) & 3
    team = winner & 1
    seats = PLAY_ORDER[leader]
    plays = before.plays + (  # noqa: RUF005  (a concatenation: faster than unpacking)
        (seats[0], trick[0]),
        (seats[1], trick[1]),
        (seats[2], trick[2]),
        (seats[3], trick[3]),
    )
    table = data.points
    taken = table[trick[0]] + table[trick[1]] + table[trick[2]] + table[trick[3]]
    won = before.tricks_won
    tricks_won = (won[0] + 1 - team, won[1] + team)
    completed = tricks_won[0] + tricks_won[1]
    step = ctx.hand_step + completed - 1
    if (
        completed == 9
        or (completed == 1 and ctx.weis_on)
        or tally.weis_pending >= 0
        or (ctx.facts.claim_stoeck and ctx.stoeck_seat >= 0 and not tally.stoeck_done)
    ):
        ledger, events = trick_events((ctx, tally, scores), winner, taken, tricks_won)
        ctx, tally, scores = credit_step(ledger, events, step)
    else:
        # Only the trick scores: credit(), inlined for speed, unless it reaches the target
        # (then credit() does it, the end of the game included). The property tests check
        # every hand's totals against scoring.score_hand.
        credited = team ^ data.credit_swap
        start = scores[credited]
        end = start + taken * data.multiplier
        target = ctx.facts.reach_target
        if target is not None and start < target <= end:
            ctx, tally, scores = credit((ctx, tally, scores), _TRICK, credited, taken, step)
        else:
            scores = (end, scores[1]) if credited == 0 else (scores[0], end)
    if completed == 9:
        taken += data.last_trick_bonus
    had = before.points
    points = (had[0] + taken, had[1]) if team == 0 else (had[0], had[1] + taken)
    # By position, as new_round costs twice as much: tests/test_fields.py fails on a swap.
    return ctx, tally, scores, _tuple_new(Round, (winner, points, tricks_won, plays))
