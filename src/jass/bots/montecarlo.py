"""MonteCarloBot: perfect-information Monte Carlo over deals consistent with its view.

For each card it may play, the bot averages the outcome over deals drawn with
:func:`~jass.sample_deals`: in each deal it plays the card, then finishes the hand with the
exact solver when few tricks are left, and otherwise with fast rollouts in which every player
follows :func:`~jass.bots.rule.heuristic_card`. It plays the card with the best average
difference between its side's points and the opponents'. Contracts, shoves, Weis and thanks
are :class:`~jass.bots.RuleBot`'s.

The budget is a number of sampled deals, a time limit per decision, or both (whichever ends
first; at least one deal is always used). A time limit makes the play depend on the machine's
speed: for reproducible arenas, give ``samples`` and ``time_limit=None``.

>>> import jass
>>> g = jass.Game.new(seed=2).deal().choose("hearts")
>>> bot = MonteCarloBot(samples=4, seed=1)
>>> bot.choose_action(g.view(g.to_move)).card in g.legal_moves()
True
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Sequence
from typing import Final

from jass._budgets import count_or_none, seconds_or_none
from jass.bots._evaluate import declaring_team, tally
from jass.bots.rule import RuleBot, _heuristic_card
from jass.core.contracts import Contract
from jass.core.play import trick_winner
from jass.core.ruledata import rule_data
from jass.core.scoring import credit_card_play
from jass.engine.actions import PLAY_ACTIONS, Action, Play
from jass.engine.hand import Phase
from jass.engine.view import PlayerView
from jass.errors import InvalidInputError
from jass.rules import RuleSet
from jass.search.fast import play_out
from jass.search.sampling import DealSampler
from jass.solver import Solver

__all__ = ["MonteCarloBot"]

_FULL: Final = (1 << 36) - 1


class MonteCarloBot:
    """Perfect-information Monte Carlo (see the module's description).

    Args:
        seed: seed of the bot's random generator, for reproducible play.
        samples: deals to sample per decision (``None``: no count limit), at least 1.
        time_limit: seconds per decision (``None``: no time limit); 1 s by default. At least
            one of the two must be set; a bad budget raises :class:`~jass.InvalidInputError`.
        solve_tricks: finish with the exact solver when at most this many tricks are left.

    >>> MonteCarloBot(samples=8, time_limit=None).samples
    8
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        samples: int | None = None,
        time_limit: float | None = 1.0,
        solve_tricks: int = 4,
    ) -> None:
        self.samples = count_or_none("samples", samples)
        self.time_limit = seconds_or_none("time_limit", time_limit)
        if self.samples is None and self.time_limit is None:
            raise InvalidInputError(
                "MonteCarloBot needs a budget: samples, time_limit or both (not both None)"
            )
        if isinstance(solve_tricks, bool) or solve_tricks not in range(10):
            raise InvalidInputError(f"solve_tricks must be 0-9, got {solve_tricks!r}")
        self.solve_tricks = solve_tricks
        self._rng = random.Random(seed)
        self._rules_bot = RuleBot()

    def choose_action(self, view: PlayerView) -> Action:
        """The best card by Monte Carlo; every other decision as :class:`RuleBot` makes it.

        >>> import jass
        >>> g = jass.Game.new(seed=3).deal()
        >>> MonteCarloBot(samples=2).choose_action(g.view(g.to_move)) in g.legal_actions()
        True
        """
        if view.phase is not Phase.PLAY or view.can_declare_weis():
            return self._rules_bot.choose_action(view)
        actions = view.legal_actions()
        rule_choice = self._rules_bot.choose_action(view)
        if not isinstance(rule_choice, Play):
            return rule_choice  # a thank
        legal = view.legal_moves().cards()
        if len(legal) == 1:
            return PLAY_ACTIONS[legal[0]]
        totals = dict.fromkeys(legal, 0.0)
        sampler = DealSampler(view)
        deadline = time.perf_counter() + self.time_limit if self.time_limit else None
        count = 0
        while True:
            deal = sampler.sample(self._rng)
            for card in legal:
                totals[card] += self._evaluate(view, deal, card)
            count += 1
            if self.samples is not None and count >= self.samples:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        best = max(legal, key=lambda c: totals[c])
        assert PLAY_ACTIONS[best] in actions  # noqa: S101
        return PLAY_ACTIONS[best]

    def _evaluate(self, view: PlayerView, deal: Sequence[int], card: int) -> float:
        """The side's points minus the opponents' after playing ``card`` in ``deal``."""
        contract = view.contract
        assert contract is not None  # noqa: S101
        played = int(view.played)
        hands = [int(h) & ~played for h in deal]
        seat = int(view.seat)
        side = seat & 1
        hands[seat] &= ~(1 << card)
        trick = [*view.trick, card]
        leader = int(view.trick_leader) if view.trick_leader is not None else seat
        points_so_far, tricks_so_far = tally(view)
        taken = list(points_so_far)
        tricks = list(tricks_so_far)
        declaring = declaring_team(view)
        tricks_left = 9 - tricks[0] - tricks[1]
        data = rule_data(contract, view.ruleset)
        if len(trick) == 4:
            # Settle the trick the card completes, then go on from the next one.
            leader = (leader + trick_winner(trick, data)) & 3
            table = data.points
            team = leader & 1
            last = data.last_trick_bonus if tricks_left == 1 else 0
            taken[team] += sum(table[c] for c in trick) + last
            tricks[team] += 1
            trick = []
            tricks_left -= 1
            if tricks_left == 0:
                return self._final(taken, tricks, contract, view, declaring, side)
        if tricks_left <= self.solve_tricks:
            solver = _solver(contract, view.ruleset)
            result = solver.solve(
                hands, leader, trick, (tricks[0], tricks[1]), declaring_team=declaring
            )
            mover_side = ((leader + len(trick)) & 3) & 1
            sign = 1 if mover_side == side else -1
            # What each team is credited so far (its opponents' points under Misère).
            credited = [0, 0]
            for team in (0, 1):
                credited[team ^ data.credit_swap] += taken[team]
            return credited[side] - credited[side ^ 1] + sign * result.lower

        def policy(hand: int, legal: int, current: Sequence[int], _seat: int, held: int) -> int:
            unplayed = held | sum(1 << c for c in current)
            return _heuristic_card(hand, legal, current, contract, unplayed)

        points, _ = play_out(
            hands,
            contract,
            leader,
            policy,
            ruleset=view.ruleset,
            trick=trick,
            points=(taken[0], taken[1]),
            tricks=(tricks[0], tricks[1]),
            declaring_team=declaring,
        )
        return float(points[side] - points[side ^ 1])

    @staticmethod
    def _final(
        taken: list[int],
        tricks: list[int],
        contract: Contract,
        view: PlayerView,
        declaring: int,
        side: int,
    ) -> float:
        points, bonus = credit_card_play(taken, tricks, declaring, contract, view.ruleset)
        return float(points[side] + bonus[side] - points[side ^ 1] - bonus[side ^ 1])


#: Each thread's solvers, by contract and rule set: on the native core a solver's table
#: carries over from deal to deal (its keys hold every hand, so it stays valid).
_SOLVERS = threading.local()
#: Table entries a cached solver keeps (32 bytes each on the native core).
_TABLE_LIMIT = 1 << 18


def _solver(contract: Contract, ruleset: RuleSet) -> Solver:
    cache: dict[tuple[Contract, RuleSet], Solver] | None = getattr(_SOLVERS, "cache", None)
    if cache is None:
        cache = _SOLVERS.cache = {}
    solver = cache.get((contract, ruleset))
    if solver is None:
        if len(cache) >= 64:
            cache.clear()
        solver = cache[contract, ruleset] = Solver(contract, ruleset, table_limit=_TABLE_LIMIT)
    return solver
