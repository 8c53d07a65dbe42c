"""Inference for SearchBot: how likely a sampled world makes what the other seats did.

:class:`~jass.DealSampler` draws the deals consistent with a view uniformly. The other seats'
decisions say more: a seat that named hearts trumps probably holds hearts, a seat that shoved
holds a weak hand, and a seat that threw a low card while it could take a trick worth points
probably had nothing better. This module scores a deal by the probability of those decisions
under a simple model of the other players, the heuristic policy of :mod:`jass.bots.rule`:

- **Card play:** a seat plays the heuristic card with probability ``1 - noise``, and any legal
  card with probability ``noise`` (a mixture, so that a surprising play makes a world less
  likely but never impossible).
- **Contract:** the chooser names a contract with softmax probabilities over
  :func:`~jass.bots.rule.contract_rating`, divided by ``temperature``.
- **Shove:** the forehand shoves with a logistic probability of its best rating being below
  RuleBot's threshold.

:func:`log_likelihood` is the log of that probability (the seat's own decisions count 0), and
:func:`resample` draws worlds in proportion to it.

>>> import jass, random
>>> g = jass.Game.new(seed=4).deal().choose("hearts")
>>> view = g.view(g.to_move.partner)  # a seat that saw the forehand name hearts trumps
>>> sampler = jass.DealSampler(view)
>>> deal = sampler.sample(random.Random(1))
>>> log_likelihood(view, deal) < 0
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final

from jass.bots._evaluate import misere_card
from jass.bots.rule import _heuristic_card, contract_rating
from jass.core.contracts import Contract, ContractKind
from jass.core.play import legal_mask
from jass.core.ruledata import rule_data
from jass.core.seats import Seat
from jass.engine.actions import Choose
from jass.engine.view import PlayerView
from jass.rules import RuleSet

__all__ = ["InferenceModel", "log_likelihood", "resample"]

_FULL: Final = (1 << 36) - 1


class InferenceModel:
    """The parameters of the model of the other players (see the module's description).

    Args:
        noise: the weight of a uniformly random card in the card-play mixture, in (0, 1].
        temperature: the softmax temperature of the contract choice, in rating points.
        shove_below: the rating under which a hand is shoved (RuleBot's 60).
        shove_scale: the width of the logistic shove probability, in rating points.
        plays: whether card plays count; ``contract``: whether the contract and shove count.

    >>> InferenceModel().noise
    0.4
    """

    def __init__(
        self,
        *,
        noise: float = 0.4,
        temperature: float = 12.0,
        shove_below: float = 60.0,
        shove_scale: float = 8.0,
        plays: bool = True,
        contract: bool = True,
    ) -> None:
        self.noise = noise
        self.temperature = temperature
        self.shove_below = shove_below
        self.shove_scale = shove_scale
        self.plays = plays
        self.contract = contract


_DEFAULT: Final = InferenceModel()


def _contracts(ruleset: RuleSet) -> list[Contract]:
    return sorted(ruleset.contracts, key=lambda c: Choose(c).index)


def _contract_log_p(
    view: PlayerView, deal: Sequence[int], model: InferenceModel
) -> float:
    """The log probability of the shoves and the contract named, given the deal's hands."""
    dealer = view.dealer
    if dealer is None:
        return 0.0
    forehand = Seat((int(dealer) + 1) & 3)
    contracts = _contracts(view.ruleset)
    chooser, contract = view.chooser, view.contract
    total = 0.0
    if forehand != view.seat and (view.shoves or chooser is not None):
        best = max(contract_rating(int(deal[forehand]), c) for c in contracts)
        z = (model.shove_below - best) / model.shove_scale
        p_shove = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
        total += math.log(max(1e-9, p_shove if view.shoves else 1.0 - p_shove))
    if chooser is not None and contract is not None and chooser != view.seat:
        hand = int(deal[chooser])
        ratings = [contract_rating(hand, c) / model.temperature for c in contracts]
        top = max(ratings)
        norm = math.log(sum(math.exp(r - top) for r in ratings)) + top
        total += ratings[contracts.index(contract)] - norm
    return total


def _play_log_p(view: PlayerView, deal: Sequence[int], model: InferenceModel) -> float:
    """The log probability of the other seats' cards played so far, given the deal's hands."""
    contract = view.contract
    if contract is None:
        return 0.0
    data = rule_data(contract, view.ruleset)
    held = [int(h) for h in deal]
    played = 0
    trick: list[int] = []
    total = 0.0
    me = view.seat
    misere = contract.kind is ContractKind.MISERE
    for seat, card in view.plays:
        if seat != me:
            hand = held[seat]
            legal = legal_mask(hand, trick, data)
            options = legal.bit_count()
            if options > 1:
                choice = (
                    misere_card(legal, trick, contract)
                    if misere
                    else _heuristic_card(hand, legal, trick, contract, _FULL & ~played)
                )
                p = model.noise / options + (1.0 - model.noise if choice == card else 0.0)
                total += math.log(p)
        held[seat] &= ~(1 << card)
        played |= 1 << card
        trick.append(card)
        if len(trick) == 4:
            trick = []
    return total


def log_likelihood(
    view: PlayerView, deal: Sequence[int], model: InferenceModel = _DEFAULT
) -> float:
    """The log probability of the other seats' decisions so far if ``deal`` was dealt.

    ``deal`` gives the four hands as dealt (played cards included), as
    :meth:`~jass.DealSampler.sample` returns them.

    >>> import jass, random
    >>> g = jass.Game.new(seed=4).deal()
    >>> deal = jass.DealSampler(g.view(0)).sample(random.Random(1))
    >>> log_likelihood(g.view(0), deal)  # nobody has decided anything yet
    0.0
    """
    total = 0.0
    if model.contract:
        total += _contract_log_p(view, deal, model)
    if model.plays:
        total += _play_log_p(view, deal, model)
    return total


def resample(
    log_weights: Sequence[float], n: int, rng: random.Random
) -> list[tuple[int, int]]:
    """Draw ``n`` of the worlds in proportion to their weights (systematic resampling).

    Returns ``(index, count)`` pairs, in index order: how often each drawn world was drawn,
    so that a world drawn twice is evaluated once and counted twice.

    >>> resample([0.0, -50.0, 0.0], 4, random.Random(3))
    [(0, 2), (2, 2)]
    """
    top = max(log_weights)
    weights = [math.exp(w - top) for w in log_weights]
    total = sum(weights)
    step = total / n
    point = rng.random() * step
    counts: list[tuple[int, int]] = []
    cumulative = 0.0
    for index, weight in enumerate(weights):
        cumulative += weight
        count = 0
        while point < cumulative and sum(c for _, c in counts) + count < n:
            count += 1
            point += step
        if count:
            counts.append((index, count))
    drawn = sum(c for _, c in counts)
    if drawn < n:  # rounding at the far end: the last world takes the rest
        index, count = counts[-1] if counts else (len(weights) - 1, 0)
        counts = [*counts[:-1], (index, count + n - drawn)] if counts else [(index, n)]
    return counts
