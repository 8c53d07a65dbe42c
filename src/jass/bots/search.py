"""SearchBot: perfect-information Monte Carlo over sampled worlds, for every decision.

**Card play.** The bot draws ``samples`` worlds (complete deals) consistent with its view
with :class:`~jass.DealSampler`. In each it values every legal card
(:mod:`jass.bots._evaluate`): exactly with the solver when few tricks are left; before
that, with heuristic rollouts, which on the native core stop at five tricks left, where the
solver values the rest. It plays the card of the best total.

**Inference** (``candidates`` above 1). It draws ``candidates`` times as many worlds, weighs
each by how likely it makes the other seats' decisions so far (the contract, the shove and
every card played) under a model of them built on RuleBot's heuristics
(:mod:`jass.bots._inference`), and keeps ``samples`` of them drawn in proportion to those
weights. Off by default: in pure Python the same time spent on more uniform worlds
measured stronger (see the docs' bots page).

**Contract and shove.** Each contract allowed is valued over ``contract_samples`` sampled
hands of the other three seats: the rule set's multiplier times the side's margin when all
four play it out with the heuristic, Weis and Stöck included. A shove is valued likewise
with the contract the partner's hand rates best (RuleBot's rating,
:func:`~jass.bots.rule.contract_rating`). The best value wins.

**Weis** (under ``weis_declaration=MANUAL``): the declaration with the best expected Weis
margin over sampled worlds; ties go to the one that shows fewer Weis (it tells the
opponents less). **Thanks:** only when the view's scores prove the target reached.

**Budget.** ``samples`` worlds per card, a ``time_limit`` in seconds, or both (whichever ends
first; at least one world is searched). Give ``samples`` and ``time_limit=None`` for play
that is the same on every machine. The default, :data:`DEFAULT_SAMPLES` worlds, solved
exactly from six tricks left on the native core (rollouts before that end in an exact
solve from five; in pure Python exact from four tricks left), takes a few hundredths of a
second a card on one core (the docs' bots page has the figures).

>>> import jass
>>> g = jass.Game.new(seed=2).deal().choose("hearts")
>>> bot = SearchBot(seed=1, samples=4)
>>> bot.choose_action(g.view(g.to_move)).card in g.legal_moves()
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Final

from jass._budgets import count_or_none, seconds_or_none
from jass.bots._evaluate import Evaluator, Position, make_evaluator, remaining, rollout_margin
from jass.bots._inference import InferenceModel, log_likelihood, resample
from jass.bots.base import _DecidingBot
from jass.bots.rule import contract_rating
from jass.core.cards import CardSet
from jass.core.contracts import Contract
from jass.core.seats import Seat
from jass.core.weis import Weis, best_weis, find_weis
from jass.engine.actions import PLAY_ACTIONS, Action, Choose, DeclareWeis, Shove
from jass.engine.hand import Phase
from jass.engine.view import PlayerView
from jass.errors import InvalidInputError
from jass.rules import RuleSet
from jass.search.sampling import DealSampler

__all__ = ["DEFAULT_CANDIDATES", "DEFAULT_SAMPLES", "SearchBot"]

#: Worlds searched per card by default (a few hundredths of a second a card).
DEFAULT_SAMPLES: Final = 32
#: Worlds drawn per world searched by default: 1, no inference. In pure Python, weighing
#: 4 x 16 worlds costs as much as searching 32 uniform ones, which measured stronger.
DEFAULT_CANDIDATES: Final = 1
# Worlds searched between two looks at the clock under a time limit.
_BATCH: Final = 4


class SearchBot(_DecidingBot):
    """PIMC over sampled worlds, inference optional (see the module's description).

    Args:
        seed: seed of the bot's random generator, for reproducible play.
        samples: worlds searched per card (``None``: no count limit), at least 1;
            :data:`DEFAULT_SAMPLES` by default.
        time_limit: seconds per decision (``None``, the default: no time limit). At least one
            of the two must be set; a bad budget raises :class:`~jass.InvalidInputError`.
        candidates: worlds drawn per world searched, for the inference to choose from
            (:data:`DEFAULT_CANDIDATES`, 1: no inference, uniform worlds as MonteCarloBot's;
            4 is a good value to turn it on).
        contract_samples: worlds per contract when choosing the contract.
        solve_tricks: solve each world exactly from this many tricks left (``None``: 4 in
            pure Python, 6 on the native core), with heuristic rollouts before.
        backend: ``"auto"`` (the native core if present), ``"native"`` or ``"python"``.
        model: the model of the other players (:class:`~jass.bots._inference.InferenceModel`).
        solve_tail: on the native core, before ``solve_tricks`` tricks are left, roll each
            world out heuristically only down to this many tricks left and solve the rest
            exactly; 0 rolls out to the end (``None``: 5 on the native core; the pure-Python
            path always rolls out to the end).

    >>> SearchBot(samples=8).samples, SearchBot(samples=None, time_limit=0.1).time_limit
    (8, 0.1)
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        samples: int | None = DEFAULT_SAMPLES,
        time_limit: float | None = None,
        candidates: int = DEFAULT_CANDIDATES,
        contract_samples: int = 24,
        solve_tricks: int | None = None,
        backend: str = "auto",
        model: InferenceModel | None = None,
        solve_tail: int | None = None,
    ) -> None:
        self.samples = count_or_none("samples", samples)
        self.time_limit = seconds_or_none("time_limit", time_limit)
        if self.samples is None and self.time_limit is None:
            raise InvalidInputError(
                "SearchBot needs a budget: samples, time_limit or both (not both None)"
            )
        count = count_or_none("candidates", candidates)
        contract_count = count_or_none("contract_samples", contract_samples)
        assert count is not None  # noqa: S101
        assert contract_count is not None  # noqa: S101
        self.candidates = count
        self.contract_samples = contract_count
        if solve_tricks is not None and (
            isinstance(solve_tricks, bool) or solve_tricks not in range(10)
        ):
            raise InvalidInputError(f"solve_tricks must be 0-9 or None, got {solve_tricks!r}")
        if solve_tail is not None and (
            isinstance(solve_tail, bool) or solve_tail not in range(10)
        ):
            raise InvalidInputError(f"solve_tail must be 0-9 or None, got {solve_tail!r}")
        self._evaluator: Evaluator = make_evaluator(
            backend, solve_tricks=solve_tricks, solve_tail=solve_tail
        )
        #: The engine that values the worlds: "native" or "python".
        self.backend = self._evaluator.name
        #: Tricks left from which each world is solved exactly.
        self.solve_tricks: int = self._evaluator.solve_tricks
        #: Tricks left at which earlier rollouts hand over to the solver (``None``: none).
        self.solve_tail: int | None = getattr(self._evaluator, "solve_tail", None)
        self.model = model if model is not None else InferenceModel()
        self._rng = random.Random(seed)
        #: How often the sampler fell back to a deal that does not explain every Weis.
        self.fallbacks = 0

    # --- card play ---------------------------------------------------------------------

    def _worlds(
        self, view: PlayerView, sampler: DealSampler, n: int
    ) -> list[tuple[Sequence[int], int]]:
        """``n`` worlds for ``view`` as (dealt hands, count), drawn by inference if it can."""
        informed = self.candidates > 1 and (
            any(seat != view.seat for seat, _ in view.plays)
            or (view.chooser is not None and view.chooser != view.seat)
            or view.shoves > 0
            or (view.dealer is not None and view.seat != (int(view.dealer) + 1) & 3)
        )
        drawn = n * self.candidates if informed else n
        deals = [sampler.sample(self._rng) for _ in range(drawn)]
        self.fallbacks += sampler.fallbacks
        sampler.fallbacks = 0
        if not informed:
            return [(deal, 1) for deal in deals]
        weights = [log_likelihood(view, deal, self.model) for deal in deals]
        return [(deals[index], count) for index, count in resample(weights, n, self._rng)]

    def _play(self, view: PlayerView) -> Action:
        legal = view.legal_moves().cards()
        if len(legal) == 1:
            return PLAY_ACTIONS[legal[0]]
        cards = [int(c) for c in legal]
        position = Position.of(view)
        sampler = DealSampler(view)
        played = int(view.played)
        totals = [0.0] * len(cards)
        deadline = time.perf_counter() + self.time_limit if self.time_limit else None
        searched = 0
        while True:
            batch = self.samples - searched if self.samples is not None else _BATCH
            if deadline is not None:
                batch = min(batch, _BATCH)
            worlds = self._worlds(view, sampler, batch)
            values = self._evaluator.card_values(
                position, [remaining(deal, played) for deal, _ in worlds], cards
            )
            for (_, count), row in zip(worlds, values, strict=True):
                for i, value in enumerate(row):
                    totals[i] += count * value
            searched += batch
            if self.samples is not None and searched >= self.samples:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        best = max(range(len(cards)), key=lambda i: (totals[i], -cards[i]))
        return PLAY_ACTIONS[cards[best]]

    # --- contract and shove ------------------------------------------------------------

    def _choose(self, view: PlayerView, actions: Sequence[Action]) -> Action:
        choices = [a for a in actions if isinstance(a, Choose)]
        can_shove = any(isinstance(a, Shove) for a in actions)
        values = self.contract_values(view)
        best = max(choices, key=lambda a: (values[a.contract], -a.index))
        if can_shove and values[None] > values[best.contract]:
            return Shove()
        return best

    def contract_values(self, view: PlayerView) -> dict[Contract | None, float]:
        """The mean value for the seat's team of each contract it may name (``None``: shove).

        In the contract choice only. Each value is the multiplied margin of the team's points
        over the opponents' (card play, Weis and Stöck) when all four play heuristically,
        averaged over sampled hands of the other seats.

        >>> import jass
        >>> g = jass.Game.new(seed=3).deal()
        >>> values = SearchBot(seed=1, contract_samples=4).contract_values(g.view(g.to_move))
        >>> len(values), None in values  # the six contracts and the shove
        (7, True)
        """
        if view.phase is not Phase.CHOOSE or view.dealer is None:
            raise InvalidInputError("contract values are for the contract choice")
        actions = view.legal_actions()
        contracts = [a.contract for a in actions if isinstance(a, Choose)]
        can_shove = any(isinstance(a, Shove) for a in actions)
        rules = view.ruleset
        seat = int(view.seat)
        side = seat & 1
        forehand = (int(view.dealer) + 1) & 3
        sampler = DealSampler(view)
        worlds = self._worlds(view, sampler, self.contract_samples)
        values: dict[Contract | None, float] = dict.fromkeys(contracts, 0.0)
        if can_shove:
            values[None] = 0.0
        total = sum(count for _, count in worlds)
        partner = (seat + 2) & 3
        allowed = sorted(rules.contracts, key=lambda c: Choose(c).index)
        for deal, count in worlds:
            hands = [int(h) for h in deal]
            weis = _weis_found(hands, rules)
            for contract in contracts:
                value = _contract_value(hands, weis, contract, rules, forehand, side)
                values[contract] += count * value / total
            if can_shove:
                pick = max(allowed, key=lambda c: (contract_rating(hands[partner], c),
                                                   -Choose(c).index))
                value = _contract_value(hands, weis, pick, rules, forehand, side)
                values[None] += count * value / total
        return values

    # --- Weis ----------------------------------------------------------------------------

    def _declare(self, view: PlayerView, options: Sequence[DeclareWeis]) -> Action:
        if len(options) == 1:
            return options[0]
        contract = view.contract
        dealer = view.dealer
        assert contract is not None  # noqa: S101
        assert dealer is not None  # noqa: S101
        rules = view.ruleset
        forehand = Seat((int(dealer) + 1) & 3)
        seat = int(view.seat)
        sampler = DealSampler(view)
        worlds = self._worlds(view, sampler, self.contract_samples)
        scores = [0.0] * len(options)
        for deal, count in worlds:
            found = _weis_found([int(h) for h in deal], rules)
            for i, option in enumerate(options):
                declared = [*found]
                declared[seat] = list(option.weis)
                scores[i] += count * _weis_margin(declared, contract, forehand, rules, seat & 1)
        best = max(
            range(len(options)), key=lambda i: (scores[i], -len(options[i].weis), -i)
        )
        return options[best]


def _weis_found(hands: Sequence[int], rules: RuleSet) -> list[list[Weis]]:
    """Each seat's Weis (all of them declared), or none when the rule set has no Weis."""
    if not rules.weis:
        return [[], [], [], []]
    return [list(find_weis(CardSet(h), rules)) for h in hands]


def _weis_margin(
    declared: Sequence[Sequence[Weis]],
    contract: Contract,
    forehand: Seat,
    rules: RuleSet,
    side: int,
) -> float:
    """``side``'s Weis points minus the opponents' (the team of the best Weis scores all)."""
    best = best_weis(declared, contract, forehand, rules)
    if best is None:
        return 0.0
    team = int(best[0]) & 1
    points = sum(
        w.points
        for s in range(4)
        if s & 1 == team
        for w in declared[s]
    )
    return float(points if team == side else -points)


def _contract_value(
    hands: Sequence[int],
    weis: Sequence[Sequence[Weis]],
    contract: Contract,
    rules: RuleSet,
    forehand: int,
    side: int,
) -> float:
    """The multiplied margin of ``side`` under ``contract``: card play, Weis, Stöck."""
    margin = rollout_margin(hands, contract, rules, forehand, side, side)
    if rules.weis:
        margin += _weis_margin(weis, contract, Seat(forehand), rules, side)
    if rules.stoeck and contract.trump_suit is not None:
        suit = int(contract.trump_suit)
        stoeck = (1 << (9 * suit + 6)) | (1 << (9 * suit + 7))  # the queen and king of trumps
        for s in range(4):
            if hands[s] & stoeck == stoeck:
                margin += 20 if s & 1 == side else -20
    return rules.multiplier(contract) * margin
