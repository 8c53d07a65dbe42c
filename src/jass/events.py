"""Crediting scoring events: Stöck, Weis and tricks, in the ausmach order (RULES.md §8-§9).

This is the part of :class:`~jass.Game` that turns a completed trick (or a Stöck) into points
on the running totals, ends the game at the first event that reaches the target
(``end_mode=AUTO``), claims Stöck that suffice to finish (R9.4), and decides thanks (R9.2a).
It works on a fresh copy of a state, before that copy is handed out.

>>> import jass
>>> plain = jass.rules.SCHIEBER.evolve(target=30, weis=False, stoeck=False)
>>> g = jass.Game.new(plain, seed=2).deal().choose("obenabe")
>>> while not g.is_over:
...     g = g.play(g.legal_moves().cards()[0])
>>> g.result.reason.name, g.result.event.name
('TARGET_REACHED', 'TRICK')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from jass.hand import HandEvents, Phase
from jass.readout import GameReadout
from jass.scoring import EndReason, GameResult, ScoringEvent, match_bonus, schneider
from jass.seats import Team
from jass.weis import Weis, WeisResult, find_weis, resolve_declared_weis

if TYPE_CHECKING:
    pass

__all__ = ["STOECK_POINTS", "ScoringSteps", "add_to"]

#: Unmultiplied value of the Stöck (RULES.md R8.1).
STOECK_POINTS: Final = 20
_TEAMS: Final = tuple(Team)
_STOECK: Final = ScoringEvent.STOECK
_WEIS: Final = ScoringEvent.WEIS
_TRICK: Final = ScoringEvent.TRICK

#: One event of a scoring step: (kind, team credited, unmultiplied points).
Event = tuple[ScoringEvent, int, int]


def add_to(pair: tuple[int, int], team: int, amount: int) -> tuple[int, int]:
    """``pair`` (a value per team) with ``amount`` added for ``team``.

    >>> add_to((10, 20), 1, 5)
    (10, 25)
    """
    return (pair[0] + amount, pair[1]) if team == 0 else (pair[0], pair[1] + amount)


class ScoringSteps(GameReadout):
    """Mixin of :class:`~jass.Game`: the scoring events of a hand (internal).

    >>> ScoringSteps.__mro__[1].__name__
    'GameReadout'
    """

    __slots__ = ()

    def _credit_step(self, events: list[Event], step: int) -> None:
        """Credit one scoring step; ``step`` is the game-wide index of its trick."""
        ctx = self._ctx
        ev = self._ev
        facts = ctx.facts
        if len(events) > 1:
            rank = facts.event_rank
            if len(events) == 2:
                if rank[events[0][0]] > rank[events[1][0]]:
                    events = [events[1], events[0]]
            else:
                events.sort(key=lambda event: rank[event[0]])
        if (
            facts.claim_stoeck
            and ctx.stoeck_seat >= 0
            and not ev.stoeck_done
            and events[:1] != [(_STOECK, ctx.stoeck_seat & 1, STOECK_POINTS)]  # already scoring
            and self._claim_finishes(ctx.stoeck_seat & 1, events)
        ):
            events = [(_STOECK, ctx.stoeck_seat & 1, STOECK_POINTS), *events]  # shown (R9.4)
        for kind, team, points in events:
            self._credit(kind, team, points, step)
            if self._ctx.outcome is not None:
                return

    def _claim_finishes(self, team: int, events: list[Event]) -> bool:
        """Whether unscored Stöck shown now take ``team`` to the target first (R9.4).

        They count ahead of the step's ``events`` (in ausmach order); the claim stands only if
        the team then reaches the target before the opponents do.
        """
        target = self._ctx.facts.auto_target
        if target is None:
            return False
        multiplier = self._ctx.multiplier
        gain = sum(points for _, credited, points in events if credited == team)
        if self._scores[team] + (STOECK_POINTS + gain) * multiplier < target:
            return False  # the usual case, decided without playing the step through
        scores = [self._scores[0], self._scores[1]]
        scores[team] += STOECK_POINTS * multiplier
        if scores[team] >= target:
            return True
        for _, credited, points in events:
            scores[credited] += points * multiplier
            if scores[credited] >= target:
                return credited == team
        return False

    def _credit(self, kind: ScoringEvent, team: int, points: int, step: int) -> None:
        ctx = self._ctx
        amount = points * ctx.multiplier
        before = self._scores[team]
        self._scores = add_to(self._scores, team, amount)
        if kind is not _TRICK:
            ev = self._ev
            if kind is _WEIS:
                self._ev = ev._replace(weis_credit=add_to(ev.weis_credit, team, points))
            else:
                self._ev = ev._replace(
                    stoeck_credit=add_to(ev.stoeck_credit, team, points),
                    stoeck_done=True,
                    stoeck_step=step,
                )
        facts = ctx.facts
        target = facts.reach_target
        if target is not None and before < target <= before + amount:
            if ctx.reached[team] is None:
                self._ctx = ctx.with_reached(team, (step, facts.event_rank[kind]))
            if facts.auto_target is not None:
                self._end(_TEAMS[team], EndReason.TARGET_REACHED, kind)

    def _trick_events(self, winner: int, points: int, tricks: tuple[int, int]) -> list[Event]:
        """The events of a completed trick: the trick, and the Weis where they fall due."""
        ctx = self._ctx
        team = winner & 1
        completed = tricks[0] + tricks[1]
        events: list[Event] = []
        if completed == 9:
            points += 5
            if (tricks[0] == 9 or tricks[1] == 9) and not ctx.misere:
                hand = ctx.hand
                assert hand is not None  # noqa: S101
                points += match_bonus(team == hand.declaring_team, ctx.rules)
        events.append((_TRICK, team ^ ctx.misere, points))
        if not ctx.weis_on:
            return events
        ev = self._ev
        if completed == 1:
            result = self._resolve_weis()
            pending = -1
            if result.winner is not None:
                weis_team = result.winner & 1
                if ctx.rules.weis_requires_trick and weis_team != team:
                    pending = weis_team
                else:
                    events.append((_WEIS, weis_team, result.points[weis_team]))
            self._ev = HandEvents(
                ev.declared,
                result,
                ev.weis_credit,
                ev.stoeck_credit,
                pending,
                ev.stoeck_done,
                ev.stoeck_step,
            )
        elif ev.weis_pending == team:
            assert ev.weis is not None  # noqa: S101
            self._ev = ev._replace(weis_pending=-1)
            events.append((_WEIS, team, ev.weis.points[team]))
        return events

    def _resolve_weis(self) -> WeisResult:
        ctx = self._ctx
        hand = ctx.hand
        assert hand is not None  # noqa: S101
        declared = self._ev.declared
        lists: list[tuple[Weis, ...]] = []
        for seat in range(4):
            chosen = declared[seat]  # None: declared automatically, everything (AUTO)
            lists.append(find_weis(hand.dealt[seat], ctx.rules) if chosen is None else chosen)
        return resolve_declared_weis(lists, ctx.contract, hand.forehand, ctx.rules)

    def _end(
        self, winner: Team | None, reason: EndReason, event: ScoringEvent | None = None
    ) -> None:
        """Mark this fresh copy as finished."""
        ctx = self._ctx
        started = len(ctx.results) + (0 if self._phase is Phase.DEAL else 1)
        reached_target = reason in (
            EndReason.TARGET_REACHED,
            EndReason.THANKED,
            EndReason.END_OF_HAND_TARGET,
        )
        is_schneider = (
            reached_target and winner is not None and schneider(ctx.rules, self._scores, winner)
        )
        outcome = GameResult(
            winner,
            reason,
            self._scores,
            started,
            event,
            is_schneider,
            2 if is_schneider else 1,
        )
        self._ctx = ctx.with_outcome(outcome)
        self._phase = Phase.OVER
        self._to_move = -1
