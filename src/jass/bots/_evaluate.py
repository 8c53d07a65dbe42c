"""SearchBot's evaluation: what each legal card is worth in each sampled world.

One small interface, :class:`Evaluator`, separates the search from the engine that solves
the worlds. :class:`PythonEvaluator` finishes each world with the exact pure-Python
:class:`~jass.Solver` when few tricks are left and with heuristic rollouts
(:func:`jass.search.fast.play_out`) before that. When the native search core is present
(:data:`jass.solver.NATIVE`), :func:`make_evaluator` returns :class:`NativeEvaluator`, which
solves every world exactly on the core from more tricks left, every legal card's value in one
call; ``JASS_PURE=1`` or ``backend="python"`` keeps the pure path.

A value is the moving side's credited card points minus the opponents' for the whole hand
(the tricks already taken, the last trick's 5 and the match bonus included; Weis and Stöck do
not depend on the card play and are left out).

>>> import jass
>>> g = jass.Game.new(seed=2).deal().choose("hearts")
>>> view = g.view(g.to_move)
>>> position = Position.of(view)
>>> worlds = [remaining(g.hands, view.played)]
>>> values = PythonEvaluator(solve_tricks=4).card_values(position, worlds, [int(c) for c in
...     g.legal_moves()])
>>> len(values[0]) == len(g.legal_moves())
True
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Final, Protocol

import attrs

from jass import solver as solver_module
from jass.bots.rule import _heuristic_card
from jass.core.cards import CARDS
from jass.core.contracts import Contract, ContractKind
from jass.core.play import legal_mask, trick_winner
from jass.core.ruledata import rule_data
from jass.core.scoring import credit_card_play, credited_team
from jass.engine.view import PlayerView
from jass.errors import InvalidInputError
from jass.rules import RuleSet
from jass.search.fast import Policy, play_out
from jass.search.worlds import values as card_values_of
from jass.solver import Solver

__all__ = [
    "NATIVE_SOLVE_TAIL",
    "NATIVE_SOLVE_TRICKS",
    "PYTHON_SOLVE_TRICKS",
    "Evaluator",
    "NativeEvaluator",
    "Position",
    "PythonEvaluator",
    "declaring_team",
    "heuristic_policy",
    "make_evaluator",
    "misere_card",
    "remaining",
    "rollout_margin",
    "tail_value",
    "tally",
]

_FULL: Final = (1 << 36) - 1
#: Tricks left from which the pure-Python evaluator solves exactly (a few ms a world).
PYTHON_SOLVE_TRICKS: Final = 4
#: Tricks left from which the native evaluator solves exactly.
NATIVE_SOLVE_TRICKS: Final = 6
#: Tricks left at which the native evaluator's rollouts hand over to the solver (earlier).
NATIVE_SOLVE_TAIL: Final = 5


@attrs.frozen
class Position:
    """The public part of a card-play decision: everything but the hidden hands.

    >>> import jass
    >>> g = jass.Game.new(seed=2).deal().choose("hearts")
    >>> Position.of(g.view(g.to_move)).tricks_left
    9
    """

    contract: Contract
    ruleset: RuleSet
    seat: int
    leader: int
    trick: tuple[int, ...]
    taken: tuple[int, int]
    tricks: tuple[int, int]
    declaring: int

    @classmethod
    def of(cls, view: PlayerView) -> Position:
        """The position of ``view``, which must be in the card play.

        >>> import jass
        >>> Position.of(jass.Game.new(seed=2).deal().view(0))
        Traceback (most recent call last):
        ...
        jass.errors.InvalidInputError: a card-play position needs a contract and a trick leader
        """
        contract = view.contract
        if contract is None or view.trick_leader is None or view.dealer is None:
            raise InvalidInputError("a card-play position needs a contract and a trick leader")
        taken, tricks = tally(view)
        return cls(
            contract,
            view.ruleset,
            int(view.seat),
            int(view.trick_leader),
            tuple(int(c) for c in view.trick),
            taken,
            tricks,
            declaring_team(view),
        )

    @property
    def tricks_left(self) -> int:
        """The tricks not yet complete, the current one included.

        >>> import jass
        >>> g = jass.Game.new(seed=2).deal().choose("hearts")
        >>> Position.of(g.view(g.to_move)).tricks_left
        9
        """
        return 9 - self.tricks[0] - self.tricks[1]


def tally(view: PlayerView) -> tuple[tuple[int, int], tuple[int, int]]:
    """The card points (last trick's 5 included) and the tricks each team took so far.

    >>> import jass
    >>> g = jass.Game.new(seed=2).deal().choose("hearts")
    >>> for _ in range(4):
    ...     g = g.play(min(g.legal_moves()))
    >>> points, tricks = tally(g.view(0))
    >>> sum(tricks), sum(points) == g.tricks[0].points
    (1, True)
    """
    taken = [0, 0]
    tricks = [0, 0]
    for done in view.tricks:
        team = int(done.winner) & 1
        taken[team] += done.points
        tricks[team] += 1
    return (taken[0], taken[1]), (tricks[0], tricks[1])


def declaring_team(view: PlayerView) -> int:
    """The declaring team: the forehand's, shove or not (rule book R4.4).

    >>> import jass
    >>> g = jass.Game.new(seed=2).deal()
    >>> declaring_team(g.view(0)) == int(g.hand_info.declaring_team)
    True
    """
    if view.dealer is None:
        raise InvalidInputError("the declaring team needs a dealt hand (no dealer yet)")
    return (int(view.dealer) + 1) & 1


def remaining(deal: Sequence[int], played: int) -> tuple[int, int, int, int]:
    """The cards each seat still holds: the dealt hands minus the cards played.

    >>> remaining([0b11, 0b100, 0b1000, 0b10000], 0b1)
    (2, 4, 8, 16)
    """
    played = int(played)
    return (
        int(deal[0]) & ~played,
        int(deal[1]) & ~played,
        int(deal[2]) & ~played,
        int(deal[3]) & ~played,
    )


def heuristic_policy(contract: Contract) -> Policy:
    """RuleBot's card play as a rollout policy of :func:`jass.search.fast.play_out`.

    >>> from jass import Contract
    >>> from jass import Card, CardSet
    >>> hand = int(CardSet.parse("AS 6S"))
    >>> Card(heuristic_policy(Contract.OBENABE)(hand, hand, [], 0, (1 << 36) - 1))  # Bock
    Card.parse('AS')
    """
    if contract.kind is ContractKind.MISERE:

        def misere(_hand: int, legal: int, current: Sequence[int], _seat: int, _held: int) -> int:
            return misere_card(legal, current, contract)

        return misere

    def policy(hand: int, legal: int, current: Sequence[int], _seat: int, held: int) -> int:
        unplayed = held | sum(1 << c for c in current)
        return _heuristic_card(hand, legal, current, contract, unplayed)

    return policy


def misere_card(legal: int, trick: Sequence[int], contract: Contract) -> int:
    """A card for Misère, where tricks count against their taker: duck and shed points.

    It leads its lowest card; it follows with its most valuable card that does not take the
    trick; when every card takes it, it plays its highest card last in the trick, else its
    lowest.

    >>> from jass import CardSet, Card, Contract
    >>> Card(misere_card(int(CardSet.parse("AS 6S 10S")), [int(Card.parse("QS"))],
    ...     Contract.MISERE))
    Card.parse('10S')
    """
    cards = [c for c in range(36) if legal >> c & 1]
    if len(cards) == 1:
        return cards[0]
    if not trick:
        return min(cards, key=lambda c: (contract.win_keys[c // 9][c], c))
    keys = contract.win_keys[trick[0] // 9]
    table = contract.card_points()
    top = max(keys[c] for c in trick)
    ducking = [c for c in cards if keys[c] < top]
    if ducking:
        return max(ducking, key=lambda c: (table[c], keys[c], c))
    if len(trick) == 3:
        return max(cards, key=lambda c: (keys[c], c))
    return min(cards, key=lambda c: (keys[c], c))


def rollout_margin(
    hands: Sequence[int],
    contract: Contract,
    ruleset: RuleSet,
    leader: int,
    declaring: int,
    side: int,
) -> float:
    """``side``'s credited points minus the opponents' when all four play heuristically.

    >>> import jass
    >>> g = jass.Game.new(seed=2).deal()
    >>> abs(rollout_margin(g.hands, jass.Contract.OBENABE, g.ruleset, 0, 0, 0)) <= 257
    True
    """
    points, _ = play_out(
        [int(h) for h in hands],
        contract,
        leader,
        heuristic_policy(contract),
        ruleset=ruleset,
        declaring_team=declaring,
    )
    return float(points[side] - points[side ^ 1])


class Evaluator(Protocol):
    """What the search needs from an engine: every card's value in every world.

    ``worlds`` give the cards each seat still holds (four int masks); ``cards`` are the
    legal cards of the seat to move. The answer has one row per world, one value per card.
    :class:`PythonEvaluator` and :class:`NativeEvaluator` are the two engines.

    >>> engine: Evaluator = PythonEvaluator(solve_tricks=4)
    >>> engine.name
    'python'
    """

    name: str
    solve_tricks: int

    def card_values(
        self, position: Position, worlds: Sequence[Sequence[int]], cards: Sequence[int]
    ) -> list[list[float]]:
        """The value of each card in each world (see the module's description).

        >>> import jass
        >>> g = jass.Game.new(seed=2).deal().choose("hearts")
        >>> engine: Evaluator = PythonEvaluator(solve_tricks=4)
        >>> rows = engine.card_values(Position.of(g.view(g.to_move)), [[int(h) for h in g.hands]],
        ...                           [int(c) for c in g.legal_moves()])
        >>> len(rows)
        1
        """
        ...


class PythonEvaluator:
    """The pure-Python engine: exact from ``solve_tricks`` tricks left, rollouts before.

    >>> PythonEvaluator(solve_tricks=4).name
    'python'
    """

    name = "python"

    def __init__(self, *, solve_tricks: int, backend: str = "python") -> None:
        self.solve_tricks = solve_tricks
        self._backend = backend

    def card_values(
        self, position: Position, worlds: Sequence[Sequence[int]], cards: Sequence[int]
    ) -> list[list[float]]:
        """The value of each card in each world: solved or rolled out after the card.

        >>> import jass
        >>> g = jass.Game.new(seed=2).deal().choose("hearts")
        >>> cards = [int(c) for c in g.legal_moves()]
        >>> engine = PythonEvaluator(solve_tricks=4)
        >>> view = g.view(g.to_move)
        >>> rows = engine.card_values(Position.of(view), [[int(h) for h in g.hands]], cards)
        >>> len(rows), len(rows[0]) == len(cards)
        (1, True)
        """
        solver = (
            Solver(position.contract, position.ruleset, backend=self._backend)
            if position.tricks_left <= self.solve_tricks
            else None
        )
        policy = heuristic_policy(position.contract)
        return [[self._value(position, world, card, solver, policy) for card in cards]
                for world in worlds]

    @staticmethod
    def _value(
        position: Position, world: Sequence[int], card: int, solver: Solver | None, policy: Policy
    ) -> float:
        contract, ruleset, seat = position.contract, position.ruleset, position.seat
        side = seat & 1
        hands = [int(h) for h in world]
        hands[seat] &= ~(1 << card)
        trick = [*position.trick, card]
        leader = position.leader
        taken = list(position.taken)
        tricks = list(position.tricks)
        if len(trick) == 4:
            # Settle the trick the card completes, then go on from the next one.
            leader = (leader + trick_winner(trick, contract)) & 3
            table = contract.card_points(old_undenufe=ruleset.old_undenufe)
            team = leader & 1
            last = tricks[0] + tricks[1] == 8
            taken[team] += sum(table[c] for c in trick) + (5 if last else 0)
            tricks[team] += 1
            trick = []
            if last:
                points, bonus = credit_card_play(
                    taken, tricks, position.declaring, contract, ruleset
                )
                return float(points[side] + bonus[side] - points[side ^ 1] - bonus[side ^ 1])
        if solver is not None:
            result = solver.solve(
                hands, leader, trick, (tricks[0], tricks[1]), declaring_team=position.declaring
            )
            mover_side = ((leader + len(trick)) & 3) & 1
            sign = 1 if mover_side == side else -1
            # What each team is credited so far (its opponents' points under Misère).
            credited = [0, 0]
            for team in (0, 1):
                credited[credited_team(team, contract)] += taken[team]
            return float(credited[side] - credited[side ^ 1] + sign * result.lower)
        points, _ = play_out(
            hands,
            contract,
            leader,
            policy,
            ruleset=ruleset,
            trick=trick,
            points=(taken[0], taken[1]),
            tricks=(tricks[0], tricks[1]),
            declaring_team=position.declaring,
        )
        return float(points[side] - points[side ^ 1])


class NativeEvaluator:
    """The native core's engine: exact from ``solve_tricks`` tricks left, rollouts before.

    Each world gives every legal card's value in one call (:func:`jass.search.worlds.values`).

    >>> NativeEvaluator(solve_tricks=6).name
    'native'
    """

    name = "native"

    def __init__(self, *, solve_tricks: int, solve_tail: int | None = None) -> None:
        self.solve_tricks = solve_tricks
        #: Before ``solve_tricks``: roll out down to this many tricks left, then solve
        #: (``None``: roll out to the end).
        self.solve_tail = solve_tail or None
        self._rollouts = PythonEvaluator(solve_tricks=0, backend="python")

    def card_values(
        self, position: Position, worlds: Sequence[Sequence[int]], cards: Sequence[int]
    ) -> list[list[float]]:
        """The value of each card in each world: exact on the core, or rolled out.

        >>> import jass
        >>> from jass.solver import NATIVE
        >>> g = jass.Game.new(seed=2).deal().choose("hearts")
        >>> cards = [int(c) for c in g.legal_moves()]
        >>> if NATIVE:
        ...     engine = NativeEvaluator(solve_tricks=6)
        ...     view = g.view(g.to_move)
        ...     rows = engine.card_values(Position.of(view), [[int(h) for h in g.hands]], cards)
        ...     assert len(rows) == 1 and len(rows[0]) == len(cards)
        """
        tail = self.solve_tail
        if position.tricks_left > self.solve_tricks and tail is None:
            return self._rollouts.card_values(position, worlds, cards)
        contract = position.contract
        solver = Solver(contract, position.ruleset, backend="native")
        if tail is not None and position.tricks_left > self.solve_tricks:
            return [[tail_value(position, world, card, solver, tail) for card in cards]
                    for world in worlds]
        side = position.seat & 1
        # What each team is credited so far (its opponents' points under Misère).
        credited = [0, 0]
        for team in (0, 1):
            credited[credited_team(team, contract)] += position.taken[team]
        base = credited[side] - credited[side ^ 1]
        rows = []
        for world in worlds:
            found = card_values_of(
                solver,
                [int(h) for h in world],
                position.leader,
                position.trick,
                position.tricks,
                declaring_team=position.declaring,
            ).differences
            rows.append([float(base + found[CARDS[card]]) for card in cards])
        return rows


def tail_value(
    position: Position, world: Sequence[int], card: int, solver: Solver, solve_tricks: int
) -> float:
    """``card``'s value in ``world``: heuristic play down to ``solve_tricks`` tricks, then exact.

    Every seat plays RuleBot's card (:func:`heuristic_policy`) until ``solve_tricks`` tricks
    are left at a trick's start; ``solver`` values the rest. The rules come from their kernels
    (:func:`~jass.core.play.legal_mask`, :func:`~jass.core.play.trick_winner`).

    >>> import jass
    >>> g = jass.Game.new(seed=2).deal().choose("hearts")
    >>> view = g.view(g.to_move)
    >>> solver = Solver(g.contract, g.ruleset)
    >>> card = int(min(g.legal_moves()))
    >>> abs(tail_value(Position.of(view), remaining(g.hands, 0), card, solver, 3)) <= 257
    True
    """
    contract, seat = position.contract, position.seat
    data = rule_data(contract, position.ruleset)
    policy = heuristic_policy(contract)
    held = [int(h) for h in world]
    held[seat] &= ~(1 << card)
    current = [*position.trick, card]
    leader = position.leader
    taken = list(position.taken)
    tricks = list(position.tricks)
    while True:
        if len(current) == 4:
            leader = (leader + trick_winner(current, data)) & 3
            team = leader & 1
            tricks[team] += 1
            last = data.last_trick_bonus if tricks[0] + tricks[1] == 9 else 0
            taken[team] += sum(data.points[c] for c in current) + last
            current = []
        if not current and 9 - tricks[0] - tricks[1] <= solve_tricks:
            break
        mover = (leader + len(current)) & 3
        hand = held[mover]
        legal = legal_mask(hand, current, data)
        chosen = policy(hand, legal, current, mover, held[0] | held[1] | held[2] | held[3])
        held[mover] = hand & ~(1 << chosen)
        current.append(chosen)
    side = seat & 1
    if tricks[0] + tricks[1] == 9:
        points, bonus = credit_card_play(taken, tricks, position.declaring, contract,
                                         position.ruleset)
        return float(points[side] + bonus[side] - points[side ^ 1] - bonus[side ^ 1])
    result = solver.solve(held, leader, [], (tricks[0], tricks[1]),
                          declaring_team=position.declaring)
    # What each team is credited so far (its opponents' points under Misère).
    credited = [0, 0]
    for team in (0, 1):
        credited[credited_team(team, contract)] += taken[team]
    sign = 1 if leader & 1 == side else -1
    return float(credited[side] - credited[side ^ 1] + sign * result.lower)


def native_available() -> bool:
    """Whether the native search core is there and not disabled (``JASS_PURE=1``).

    >>> isinstance(native_available(), bool)
    True
    """
    return bool(solver_module.NATIVE) and os.environ.get("JASS_PURE") != "1"


def make_evaluator(
    backend: str, *, solve_tricks: int | None = None, solve_tail: int | None = None
) -> Evaluator:
    """The evaluator for ``backend``: ``"auto"`` (native if present), ``"native"``, ``"python"``.

    ``solve_tricks`` is where exact solving starts: :data:`PYTHON_SOLVE_TRICKS` in Python,
    :data:`NATIVE_SOLVE_TRICKS` on the core by default. ``solve_tail`` (the native core
    only) is where the rollouts before it hand over to the solver (:func:`tail_value`):
    :data:`NATIVE_SOLVE_TAIL` by default, 0 for rollouts to the end.

    >>> make_evaluator("python", solve_tricks=3).name
    'python'
    """
    if backend not in ("auto", "native", "python"):
        raise InvalidInputError(f"backend must be 'auto', 'native' or 'python', got {backend!r}")
    if backend == "native" and not native_available():
        raise InvalidInputError("backend='native' needs the native search core (not present)")
    if backend != "python" and native_available():
        return NativeEvaluator(
            solve_tricks=NATIVE_SOLVE_TRICKS if solve_tricks is None else solve_tricks,
            solve_tail=NATIVE_SOLVE_TAIL if solve_tail is None else solve_tail,
        )
    return PythonEvaluator(
        solve_tricks=PYTHON_SOLVE_TRICKS if solve_tricks is None else solve_tricks
    )
