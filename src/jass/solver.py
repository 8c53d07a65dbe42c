"""An exact perfect-information solver for the card play of a hand.

Given all four hands, :func:`solve` finds what the side to move makes from here with best play
by both sides, and a card that makes it. The value counts card points, the last trick's 5 and
the match bonus (a match of the side to move counts for it, one of the opponents against it);
Weis and Stöck are fixed before the play and left out.

The search works on the difference between the two sides' points, on plain ints with
make/unmake. Null-window searches ("can the side make at least d?") return fail-soft bounds
and are driven by bisection on d. The recursion has one level a trick: the four cards of a
trick are four nested loops, which keeps the Python stack shallow. A transposition table at
trick boundaries (keyed by the cards left, the leader and which team can still make a match)
keeps lower and upper bounds, the leads in the order to try (the one that last worked first)
and each hand's equivalent cards merged (adjacent in rank among the cards left, same points,
same hand). The last two tricks are solved exactly once and remembered. Move lists come
from tables that solvers of the same contract share. With a node or time budget it returns
proven bounds and the best card found so far when it cannot finish.

The same search runs in C when the native core is there (:data:`NATIVE`; see
:mod:`jass.search.native`): ``backend="auto"`` (the default) takes it, ``"python"`` forces
the code here, ``"native"`` insists on the core. Both give the same values, and
``JASS_PURE=1`` in the environment makes every solve pure Python. :func:`card_values` gives
the value of every legal card, :func:`card_values_batch` of many sampled worlds of one
decision, and :func:`analyze` a double-dummy analysis of a whole game record.

>>> import jass
>>> g = jass.Game.new(seed=3).deal().choose("obenabe")
>>> for _ in range(28):
...     g = g.play(g.legal_moves().cards()[0])
>>> result = solve(g)
>>> result.exact, result.best in g.legal_moves(), 0 <= result.points <= 257
(True, True, True)
"""

from __future__ import annotations

import functools
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

import attrs

from jass._budgets import count_or_none, seconds_or_none
from jass.core.cards import CARDS, Card, Suit
from jass.core.contracts import Contract
from jass.core.play import legal_mask, trick_winner
from jass.core.scoring import credited_team, team_match_bonus
from jass.engine.hand import Phase
from jass.errors import InvalidInputError
from jass.rules import SCHIEBER, RuleSet, UndertrumpRule
from jass.search.native import NATIVE, NativeContext

if TYPE_CHECKING:
    from collections.abc import Mapping

    from jass.engine.game import Game
    from jass.search.values import Analysis, CardValues

__all__ = [
    "BACKENDS",
    "NATIVE",
    "Solution",
    "Solver",
    "analyze",
    "card_values",
    "card_values_batch",
    "native_backend",
    "solve",
]

#: The backends a solve may ask for.
BACKENDS: Final = ("auto", "native", "python")


def native_backend(backend: str) -> bool:
    """Whether ``backend`` ("auto", "native" or "python") runs on the native core.

    ``"native"`` without the core raises :class:`~jass.InvalidInputError`.

    >>> native_backend("python"), native_backend("auto") == NATIVE
    (False, True)
    >>> native_backend("fortran")
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: backend must be one of 'auto', 'native', 'python', got 'fortran'
    """
    if backend not in BACKENDS:
        raise InvalidInputError(
            f"backend must be one of 'auto', 'native', 'python', got {backend!r}"
        )
    if backend == "native" and not NATIVE:
        raise InvalidInputError(
            "backend='native' but the native core is not available (not built, or JASS_PURE=1)"
        )
    return backend != "python" and NATIVE

#: The suit of each card, as an index 0-3 (play._SUIT_MASK_OF gives it as a mask).
_SUIT_INDEX_OF: Final = tuple(card // 9 for card in range(36))
#: The two cards of each two-card mask (the last two tricks), ascending, and their sum.
_PAIRS: Final = {1 << a | 1 << b: (a, b) for a in range(36) for b in range(a + 1, 36)}
_PAIR_SUM: Final = {mask: a + b for mask, (a, b) in _PAIRS.items()}
#: Entries kept in each cache of move lists before it starts over.
_CACHE_LIMIT: Final = 1_000_000
#: From this many cards a hand, a solve runs on a fresh frame stack (a thread of its own).
#: Shorter solves take too little time to pay for the thread.
_FRESH_STACK_CARDS: Final = 6
#: Whether to try a thread at all: Pyodide (emscripten) and WASI builds cannot start one,
#: and every solve runs on the calling thread there.
_THREADS = sys.platform not in ("emscripten", "wasi")
#: Each suit's bit offset in a mask, and its number as placed in a class-table key.
_SHIFTS: Final = tuple((9 * suit, suit << 18) for suit in range(4))
#: Beyond any value.
_INFINITY: Final = 10_000
#: The cards (plain ints) of each 9-bit pattern of each suit.
_IN_SUIT: Final = tuple(
    tuple(tuple(9 * suit + r for r in range(9) if pattern >> r & 1) for pattern in range(512))
    for suit in range(4)
)


def _cards_of(mask: int) -> tuple[int, ...]:
    """The cards of a mask, ascending."""
    return (
        _IN_SUIT[0][mask & 0x1FF]
        + _IN_SUIT[1][(mask >> 9) & 0x1FF]
        + _IN_SUIT[2][(mask >> 18) & 0x1FF]
        + _IN_SUIT[3][mask >> 27]
    )


class _Budget(Exception):  # noqa: N818  (internal control flow, never escapes)
    """The node or time budget ran out."""


@attrs.frozen
class Solution:
    """The result of a solve.

    Attributes:
        points: what the side to move makes from here (card points, last trick, its match
            bonus); the lower bound when the solve did not finish.
        difference: its points minus the opponents' from here, both bonuses counted.
        lower, upper: proven bounds on the difference (equal when exact).
        best: a card for the player to move that achieves the value (the best found so far
            when not exact).
        exact: whether the search finished.
        nodes: positions searched at trick boundaries (each a loop over a whole trick).
        table_size: entries in the transposition table at the end (about 400 bytes each, with
            the two-trick values).

    >>> Solution(10, -137, -137, -137, Card.parse("6S"), True, 1, 0).exact
    True
    """

    points: int
    difference: int
    lower: int
    upper: int
    best: Card | None
    exact: bool
    nodes: int
    table_size: int


class _Tables:
    """What solvers of one contract under the same point and undertrump rules share."""

    def __init__(self, contract: Contract, old_undenufe: bool) -> None:
        self.points = contract.card_points(old_undenufe=old_undenufe)
        self.power = tuple(contract.win_keys[card // 9][card] for card in range(36))
        self.lead_rank = tuple(-(self.points[c] + 2 * self.power[c]) for c in range(36))
        # The cards that beat each card when it holds a trick (it is of the led suit or a
        # trump): the higher ones of its suit, and every trump unless it is one.
        trumps = contract.trump_mask
        self.beats = tuple(
            sum(1 << d for d in range(36) if d // 9 == c // 9 and self.power[d] > self.power[c])
            | (0 if trumps >> c & 1 else trumps)
            for c in range(36)
        )
        # Each suit's cards from the strongest down, for merging equivalent cards.
        self.orders = tuple(
            tuple(9 * suit + rank for rank in contract.rank_order(Suit(suit))) for suit in range(4)
        )
        # The card points of each 9-bit pattern of each suit.
        suit_points = []
        for suit in range(4):
            sums = [0] * 512
            for pattern in range(1, 512):
                low = pattern & -pattern
                sums[pattern] = sums[pattern ^ low] + self.points[9 * suit + low.bit_length() - 1]
            suit_points.append(tuple(sums))
        self.suit_points = tuple(suit_points)
        self.classes: dict[int, int] = {}
        self.leads: dict[int, tuple[int, ...]] = {}
        self.follows: dict[int, tuple[int, ...]] = {}
        self.sorted: dict[int, tuple[int, ...]] = {}


@functools.cache
def _tables(contract: Contract, old_undenufe: bool, strict: bool) -> _Tables:  # noqa: ARG001
    # ``strict`` changes the legal cards and so the cached move lists: a table of its own.
    return _Tables(contract, old_undenufe)


class Solver:
    """A reusable solver for one contract and rule set (its table is kept between solves).

    One solver answers one solve at a time: give each thread its own (solvers of a contract
    share their move tables safely). ``table_limit`` caps the transposition table (and the
    table of two-trick values): when it is full it starts over, so memory stays below about
    ``table_limit`` x 400 bytes (1.6 GB for the default; a search of seven tricks or fewer
    needs far less).

    >>> import jass
    >>> g = jass.Game.new(seed=3).deal().choose("hearts")
    >>> for _ in range(24):
    ...     g = g.play(g.legal_moves().cards()[-1])
    >>> solver = Solver(g.contract)
    >>> hands = [int(h) for h in g.hands]
    >>> solver.solve(hands, int(g.trick_leader), g.trick, g.tricks_won).exact
    True
    """

    def __init__(
        self,
        contract: Contract,
        ruleset: RuleSet = SCHIEBER,
        *,
        table_limit: int = 4_000_000,
        backend: str = "auto",
    ) -> None:
        if not isinstance(contract, Contract):
            raise InvalidInputError(f"{contract!r} is not a Contract")
        #: The native context, when this solver runs on the core.
        self.native: NativeContext | None = (
            NativeContext(contract, ruleset, table_limit=table_limit)
            if native_backend(backend)
            else None
        )
        self.contract = contract
        self.ruleset = ruleset
        self.table_limit = table_limit
        self._strict = ruleset.undertrump_only_trumps is UndertrumpRule.ONLY_IF_NO_HIGHER
        # The Misère swap (scoring.credited_team) as the sign of what a team takes.
        self._sign = 1 if credited_team(0, contract) == 0 else -1
        tables = _tables(contract, ruleset.old_undenufe, self._strict)
        self._table = tables.points
        self._keys = contract.win_keys
        self._lead_rank = tables.lead_rank
        self._orders = tables.orders
        self._suit_points = tables.suit_points
        # Shared by every solver of the same contract and rules: pure functions of their keys.
        self._classes = tables.classes
        self._leads = tables.leads
        self._follows = tables.follows
        self._sorted = tables.sorted
        self._power = tables.power
        self._beats = tables.beats
        # At trick boundaries, keyed by cards left, leader and match chances: lower and upper
        # bounds for the leader's team, the best lead, and each seat's equivalence classes.
        self._tt: dict[int, list[Any]] = {}
        # Exact values of the last two tricks (same key), which every probe reuses.
        self._exact: dict[int, int] = {}
        self._bonus = (0, 0)  # each team's match bonus
        self._most = 0  # the larger of the two
        self._owners = [0, 0, 0, 0]  # the cards each seat held in the solves the tables hold
        self.nodes = 0
        self._limit = 0
        self._deadline = 0.0

    def solve(
        self,
        hands: Sequence[int],
        leader: int,
        trick: Sequence[int] = (),
        tricks: tuple[int, int] = (0, 0),
        *,
        declaring_team: int = 0,
        node_limit: int | None = None,
        time_limit: float | None = None,
    ) -> Solution:
        """Solve the position: ``hands`` held (int masks), ``leader`` of the current ``trick``.

        ``tricks`` are the tricks each team took so far (for the match);
        ``declaring_team`` matters for counter-match rules. ``node_limit`` counts positions at
        trick boundaries (:attr:`Solution.nodes`); ``time_limit`` is in seconds. When either
        runs out the solution has ``exact=False`` and proven bounds. Each must be ``None`` or
        positive; another value raises :class:`~jass.InvalidInputError`.

        >>> import jass
        >>> hands = [jass.CardSet.parse(h) for h in ("AS", "KS", "6H", "7H")]
        >>> Solver(jass.Contract.OBENABE).solve(hands, 0, tricks=(4, 4)).points
        20
        """
        node_limit = count_or_none("node_limit", node_limit)
        time_limit = seconds_or_none("time_limit", time_limit)
        held = [int(h) for h in hands]
        seen, seat = self.check_position(held, leader, trick, tricks)
        side = seat & 1
        if self.native is not None:
            return self._solve_native(
                held, leader, trick, tricks, declaring_team, node_limit, time_limit
            )
        self.nodes = 0
        self._limit = node_limit or 1 << 62
        self._deadline = time.perf_counter() + time_limit if time_limit else 0.0
        match = (1 if tricks[1] == 0 else 0) | (2 if tricks[0] == 0 else 0)
        rules, contract = self.ruleset, self.contract
        bonus = (
            team_match_bonus(0, declaring_team, contract, rules),
            team_match_bonus(1, declaring_team, contract, rules),
        )
        # The tables are keyed by the cards left, which tell who holds what only while every
        # card stays with the seat that held it in earlier solves: another deal, or other
        # bonuses, need fresh tables.
        owners = self._owners
        moved = any(
            held[who] & ~owners[who] & (owners[who ^ 1] | owners[who ^ 2] | owners[who ^ 3])
            for who in range(4)
        )
        if bonus != self._bonus or moved:
            self._tt.clear()
            self._exact.clear()
            self._bonus = bonus
            self._most = max(bonus)
            owners = [0, 0, 0, 0]
        self._owners = [owners[who] | held[who] for who in range(4)]
        own, theirs = bonus[side], bonus[side ^ 1]
        left = self._left_points(seen) + 5
        lo, hi = -(left + theirs), left + own
        current = list(trick)
        bottom = lo

        def down(value: int) -> int:
            # Without a match the difference is 2 x (the side's points) - left, so it has the
            # parity of ``left``: a failed probe at ``value + 1`` bounds it by this.
            if value < -left:
                return bottom
            if value > left:
                return left
            return value - ((value - left) & 1)

        def up(value: int) -> int:
            # The same parity argument from below: a value of at least ``value``.
            if -left <= value <= left:
                return value + ((value - left) & 1)
            return value

        def bisect() -> tuple[int, int, int | None, bool]:
            low, high = lo, hi
            try:
                while low < high:
                    target = (low + high + 1) // 2
                    value = self._probe(held, current, leader, target, match, side)
                    if value >= target:
                        low = min(up(value), high)
                    else:
                        high = max(down(value), low)
                return low, high, self._best_move(held, current, leader, low, match, side), True
            except _Budget:
                return low, high, None, False

        if held[seat].bit_count() >= _FRESH_STACK_CARDS:
            lo, hi, best, exact = self._on_fresh_stack(bisect)
        else:
            lo, hi, best, exact = bisect()
        if not exact:
            held = [int(h) for h in hands]  # the search stopped in the middle of its moves
        if best is None:
            best = self._root_moves(held, list(trick), seat, match)[0]
        points = side_points(lo, left, own, theirs)
        return Solution(points, lo, lo, hi, CARDS[best], exact, self.nodes, len(self._tt))

    def check_position(
        self, held: list[int], leader: int, trick: Sequence[int], tricks: tuple[int, int]
    ) -> tuple[int, int]:
        """Check that the hands, trick and tricks taken make a position; (cards in play, seat).

        >>> Solver(Contract.OBENABE).check_position([1, 2, 4, 0], 0, (), (4, 4))
        Traceback (most recent call last):
        ...
        jass.errors.InvalidInputError: the hands and the trick do not make a position
        """
        if len(held) != 4 or any(h < 0 or h >> 36 for h in held):
            raise InvalidInputError("hands must be four 36-bit card masks")
        if isinstance(leader, bool) or leader not in range(4):
            raise InvalidInputError(f"leader must be a seat 0-3, got {leader!r}")
        if any(isinstance(c, bool) or c not in range(36) for c in trick):
            raise InvalidInputError(f"trick must hold cards 0-35, got {tuple(trick)!r}")
        cards_left = [h.bit_count() for h in held]
        seat = (leader + len(trick)) & 3
        if len(trick) > 3 or not cards_left[seat] or any(
            cards_left[(leader + i) & 3] != cards_left[seat] - (1 if i < len(trick) else 0)
            for i in range(4)
        ):
            raise InvalidInputError("the hands and the trick do not make a position")
        seen = 0
        for cards in (*held, sum(1 << c for c in trick)):
            if seen & cards:
                raise InvalidInputError("a card is in two hands (or in a hand and the trick)")
            seen |= cards
        if tricks[0] + tricks[1] + cards_left[seat] != 9 or min(tricks) < 0:
            raise InvalidInputError(
                f"{tricks} tricks taken do not fit {cards_left[seat]} cards left to play"
            )
        return seen, seat

    def _solve_native(
        self,
        held: list[int],
        leader: int,
        trick: Sequence[int],
        tricks: tuple[int, int],
        declaring_team: int,
        node_limit: int | None,
        time_limit: float | None,
    ) -> Solution:
        assert self.native is not None  # noqa: S101
        lo, hi, best, exact, nodes, used = self.native.solve(
            held, leader, trick, tricks, declaring_team, node_limit or 0, time_limit or 0.0
        )
        self.nodes = nodes
        seen = held[0] | held[1] | held[2] | held[3] | sum(1 << c for c in trick)
        own, theirs = self._bonuses(seen, leader, trick, tricks, declaring_team)
        left = self._left_points(seen) + 5
        return Solution(
            side_points(lo, left, own, theirs), lo, lo, hi, CARDS[best], exact, nodes, used
        )

    def _bonuses(
        self,
        seen: int,
        leader: int,
        trick: Sequence[int],
        tricks: tuple[int, int],
        declaring_team: int,
    ) -> tuple[int, int]:
        """The match bonus the side to move and the opponents can still make."""
        del seen
        side = (leader + len(trick)) & 1
        taken = (tricks[side], tricks[side ^ 1])
        bonus = [
            team_match_bonus(team, declaring_team, self.contract, self.ruleset) for team in (0, 1)
        ]
        own = bonus[side] if taken[1] == 0 else 0
        theirs = bonus[side ^ 1] if taken[0] == 0 else 0
        return own, theirs

    def _on_fresh_stack(
        self, search: Callable[[], tuple[int, int, int | None, bool]]
    ) -> tuple[int, int, int | None, bool]:
        """Run ``search`` in a new thread, whose frame stack starts empty.

        CPython 3.11 keeps frames in 16 KiB chunks and frees a chunk as soon as the frame that
        opened it returns: a search that starts near the end of a chunk pays for an allocation
        on every call across the edge (a solve was 60% slower from some stack depths). A new
        thread's stack starts at the beginning of a chunk, and the search fits in one. Starting
        the thread costs about 0.5 ms (caches on another core), so short solves stay put.
        Where no thread can start (Pyodide, WASI) the search runs here: only slower, at times.
        """
        if not _THREADS:
            return search()
        box: list[tuple[int, int, int | None, bool] | BaseException] = []

        def run() -> None:
            try:
                box.append(search())
            except BaseException as error:  # noqa: BLE001  (re-raised in the caller's thread)
                box.append(error)

        worker = threading.Thread(target=run, name="jass-solver", daemon=True)
        try:
            worker.start()
        except RuntimeError:
            # "can't start new thread": a build without threads, or a thread limit reached.
            # The search is only one frame a trick deep, so the caller's stack is enough.
            return search()
        try:
            worker.join()
        except BaseException:
            self._limit = 0  # an interrupt: the search stops at its next position
            worker.join()
            raise
        outcome = box[0]
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    def _probe(
        self, hands: list[int], trick: list[int], leader: int, target: int, match: int, side: int
    ) -> int:
        """A fail-soft bound on what ``side`` makes, probed at ``target`` (from any root).

        At least ``target``: the value is at least the result; below: at most the result.
        """
        if not trick:
            remaining = hands[0] | hands[1] | hands[2] | hands[3]
            left = self._left_points(remaining)
            if leader & 1 == side:
                return self._trick(hands, leader, target, match, remaining, left)
            return -self._trick(hands, leader, 1 - target, match, remaining, left)
        seat = (leader + len(trick)) & 3
        mine = seat & 1 == side
        result = -_INFINITY if mine else _INFINITY
        for card in self._root_moves(hands, trick, seat, match):
            hands[seat] ^= 1 << card
            trick.append(card)
            try:
                value = self._settle(hands, trick, leader, target, match, side)
            finally:
                trick.pop()
                hands[seat] ^= 1 << card
            if mine:
                result = max(result, value)
                if result >= target:
                    break
            else:
                result = min(result, value)
                if result < target:
                    break
        return result

    def _settle(
        self, hands: list[int], trick: list[int], leader: int, target: int, match: int, side: int
    ) -> int:
        if len(trick) < 4:
            return self._probe(hands, trick, leader, target, match, side)
        winner = (leader + trick_winner(trick, self.contract)) & 3
        points = sum(self._table[c] for c in trick)
        match &= 1 << (winner & 1)
        last = not (hands[0] | hands[1] | hands[2] | hands[3])
        if last:
            points += 5
        gain = self._sign * points
        if last and match:
            gain += self._bonus[winner & 1]
        if winner & 1 != side:
            gain = -gain
        if last:
            return gain
        saved = trick[:]
        trick.clear()
        try:
            return gain + self._probe(hands, trick, winner, target - gain, match, side)
        finally:
            trick.extend(saved)

    def _best_move(
        self, hands: list[int], trick: list[int], leader: int, target: int, match: int, side: int
    ) -> int | None:
        seat = (leader + len(trick)) & 3
        for card in self._root_moves(hands, trick, seat, match):
            hands[seat] ^= 1 << card
            trick.append(card)
            try:
                if self._settle(hands, trick, leader, target, match, side) >= target:
                    return card
            finally:
                trick.pop()
                hands[seat] ^= 1 << card
        return None

    def _root_moves(
        self, hands: list[int], trick: list[int], seat: int, match: int
    ) -> tuple[int, ...]:
        """The mover's legal cards at the root, one per class of equivalent cards, in order."""
        remaining = hands[0] | hands[1] | hands[2] | hands[3]
        if not trick:  # the table knows which lead worked last: it is first in its list
            entry = self._tt.get(remaining << 4 | seat << 2 | match)
            if entry is not None:
                return tuple(entry[2])
        for card in trick:
            remaining |= 1 << card
        reps = self._reps(hands[seat], remaining)
        if not trick:
            return self._lead_order(reps)
        top_at = trick_winner(trick, self.contract)
        return self._follow_order(
            reps, trick[0], trick[top_at], partner=(len(trick) - top_at) % 2 == 0
        )

    def _reps(self, hand: int, remaining: int) -> int:
        """One card per class of equivalent cards of ``hand`` (runs among ``remaining``)."""
        classes = self._classes
        reps = 0
        for shift, suit in _SHIFTS:
            mine = (hand >> shift) & 0x1FF
            if mine:
                key = suit | mine << 9 | ((remaining >> shift) & 0x1FF)
                found = classes.get(key)
                if found is None:
                    if len(classes) >= _CACHE_LIMIT:
                        classes.clear()
                    found = classes[key] = self._suit_classes(suit >> 18, mine, key & 0x1FF & ~mine)
                reps |= found << shift
        return reps

    def _suit_classes(self, suit: int, mine: int, others: int) -> int:
        """One card per run of equivalent cards of ``mine`` in ``suit`` (9-bit patterns)."""
        table = self._table
        reps = 0
        previous = -1
        for card in self._orders[suit]:
            rank = card - 9 * suit
            if others >> rank & 1:
                previous = -1  # a card elsewhere breaks the run
            elif mine >> rank & 1:
                if previous < 0 or table[previous] != table[card]:
                    reps |= 1 << rank
                previous = card
        return reps

    def _lead_order(self, reps: int) -> tuple[int, ...]:
        """Leads: strong cards and points first (this order searched the fewest positions)."""
        if len(self._leads) >= _CACHE_LIMIT:
            self._leads.clear()
        return tuple(sorted(_cards_of(reps), key=self._lead_rank.__getitem__))

    def _follow_order(self, reps: int, led: int, top: int, *, partner: bool) -> tuple[int, ...]:
        """The legal cards among ``reps`` on a trick led by ``led`` and held by ``top``."""
        if len(self._follows) >= _CACHE_LIMIT:
            self._follows.clear()
        legal = legal_mask(reps, [led] if top == led else [led, top], self.contract, self._strict)
        # The order depends only on which legal cards beat the trick: many hands and tricks
        # share one list.
        beats = legal & self._beats[top]
        key = (legal << 36 | beats) << 1 | partner
        found = self._sorted.get(key)
        if found is not None:
            return found
        if len(self._sorted) >= _CACHE_LIMIT:
            self._sorted.clear()
        table = self._table
        if partner:  # the partner holds the trick: give it points, without beating it
            order = sorted(_cards_of(legal), key=lambda c: (beats >> c & 1, -table[c]))
        else:  # take it as cheaply as possible, or give away little
            power = self._power
            order = sorted(
                _cards_of(legal), key=lambda c: (0, power[c]) if beats >> c & 1 else (1, table[c])
            )
        found = self._sorted[key] = tuple(order)
        return found

    def _two(self, hands: list[int], leader: int, match: int, left: int) -> int:
        """The exact value of the last two tricks for the leader's team (plain minimax).

        Inlined copies of play.trick_winner (R6.1-R6.2): the eighth trick's holder is kept
        card by card, and the ninth's winning team is found from the keys of the cards left;
        cross-checked in tests/test_kernels.py (``test_solver_copies_agree_with_the_kernels``).
        Calling the kernel per card instead costs 46% more instructions on 5-trick solves.
        """
        team = leader & 1
        s1, s2, s3 = (leader + 1) & 3, (leader + 2) & 3, (leader + 3) & 3
        h0, h1, h2, h3 = hands[leader], hands[s1], hands[s2], hands[s3]
        table = self._table
        keys_of = self._keys
        moves = self._follows
        order = self._follow_order
        sign = self._sign
        bonus = self._bonus[team] if match >> team & 1 else 0
        against = self._bonus[team ^ 1] if match >> (team ^ 1) & 1 else 0
        total = left + 5
        # Two cards a hand: the one kept is the pair's sum less the one played.
        pair0, pair1, pair2, pair3 = _PAIR_SUM[h0], _PAIR_SUM[h1], _PAIR_SUM[h2], _PAIR_SUM[h3]
        best0 = -1000
        for c0 in _PAIRS[h0]:
            keys = keys_of[_SUIT_INDEX_OF[c0]]
            k0 = keys[c0]
            l0 = pair0 - c0
            p0 = table[c0]
            led = _SUIT_INDEX_OF[c0] << 1
            key1 = h1 << 9 | c0 << 3 | led
            moves1 = moves.get(key1)
            if moves1 is None:
                moves1 = moves[key1] = order(h1, c0, c0, partner=False)
            worst1 = 1000
            for c1 in moves1:
                k1 = keys[c1]
                if k1 > k0:
                    top1, topk1, win1 = c1, k1, 1
                else:
                    top1, topk1, win1 = c0, k0, 0
                l1 = pair1 - c1
                p1 = p0 + table[c1]
                key2 = h2 << 9 | top1 << 3 | led | (win1 ^ 1)
                moves2 = moves.get(key2)
                if moves2 is None:
                    moves2 = moves[key2] = order(h2, c0, top1, partner=win1 == 0)
                best2 = -1000
                for c2 in moves2:
                    k2 = keys[c2]
                    if k2 > topk1:
                        top2, topk2, win2 = c2, k2, 2
                    else:
                        top2, topk2, win2 = top1, topk1, win1
                    l2 = pair2 - c2
                    p2 = p1 + table[c2]
                    key3 = h3 << 9 | top2 << 3 | led | (1 if win2 == 1 else 0)
                    moves3 = moves.get(key3)
                    if moves3 is None:
                        moves3 = moves[key3] = order(h3, c0, top2, partner=win2 == 1)
                    worst3 = 1000
                    alpha = best0 if best0 > best2 else best2
                    # Unless the fourth card takes the trick, the last trick is led from the
                    # hand that holds it now: its suit and three of its cards are known.
                    lkeys = keys_of[_SUIT_INDEX_OF[l2 if win2 == 2 else (l1 if win2 else l0)]]
                    held_high = lkeys[l0] if lkeys[l0] > lkeys[l2] else lkeys[l2]
                    low1 = lkeys[l1]
                    ours = win2 & 1 == 0  # positions 0 and 2 are the leader's team
                    for c3 in moves3:
                        first = p2 + table[c3]
                        second = total - first
                        l3 = pair3 - c3
                        if keys[c3] > topk2:  # the fourth card takes it and leads the last
                            value = -sign * first
                            k3 = keys_of[_SUIT_INDEX_OF[l3]]
                            ka, kb, kc = k3[l0], k3[l1], k3[l2]
                            if (ka if ka > kc else kc) > (kb if kb > k3[l3] else k3[l3]):
                                value += sign * second
                            else:
                                value -= sign * second + against
                        else:
                            value = sign * (first if ours else -first)
                            kd = lkeys[l3]
                            if held_high > (low1 if low1 > kd else kd):
                                value += sign * second + (bonus if ours else 0)
                            else:
                                value -= sign * second + (0 if ours else against)
                        if value < worst3:
                            worst3 = value
                            if worst3 <= alpha:
                                break
                    if worst3 > best2:
                        best2 = worst3
                        if best2 >= worst1:
                            break
                if best2 < worst1:
                    worst1 = best2
                    if worst1 <= best0:
                        break
            if worst1 > best0:
                best0 = worst1
        return best0

    def _left_points(self, remaining: int) -> int:
        suits = self._suit_points
        return (
            suits[0][remaining & 0x1FF]
            + suits[1][(remaining >> 9) & 0x1FF]
            + suits[2][(remaining >> 18) & 0x1FF]
            + suits[3][remaining >> 27]
        )

    # ----------------------------------------------------------------------------------------
    # The search
    # ----------------------------------------------------------------------------------------

    def _trick(
        self, hands: list[int], leader: int, target: int, match: int, remaining: int, left: int
    ) -> int:
        """A fail-soft bound on the difference the leader's team makes, probed at ``target``.

        A trick boundary: ``remaining`` is every card held, ``left`` their points. The four
        cards of the trick are four nested loops (the leader's team picks at the first and third
        card, the other team at the second and fourth), so the recursion is one level a trick.
        """
        # The trick's holder is kept card by card in the loops below: an inlined copy of
        # play.trick_winner (R6.1-R6.2), cross-checked in tests/test_kernels.py
        # (test_solver_copies_agree_with_the_kernels). Calling the kernel per card instead
        # costs 18% more instructions on 5-trick solves.
        self.nodes += 1
        if self.nodes > self._limit:
            raise _Budget
        if self._deadline and not self.nodes & 255 and time.perf_counter() > self._deadline:
            raise _Budget
        lower: int  # the table holds ints and tuples: typed here once
        upper: int
        key = remaining << 4 | leader << 2 | match
        entry = self._tt.get(key)
        if entry is not None:  # most visits end here: before any other work
            lower = entry[0]
            if lower >= target:
                return lower
            upper = entry[1]
            if upper < target:
                return upper
        team = leader & 1
        s1, s2, s3 = (leader + 1) & 3, (leader + 2) & 3, (leader + 3) & 3
        h0, h1, h2, h3 = hands[leader], hands[s1], hands[s2], hands[s3]
        table = self._table
        sign = self._sign
        if entry is None:
            if h0 & (h0 - 1) == 0:  # the last trick: every card is forced
                c0, c1, c2, c3 = (
                    h0.bit_length() - 1,
                    h1.bit_length() - 1,
                    h2.bit_length() - 1,
                    h3.bit_length() - 1,
                )
                winner = (leader + trick_winner((c0, c1, c2, c3), self.contract)) & 1
                gain = sign * (left + 5)
                if match >> winner & 1:
                    gain += self._bonus[winner]
                return gain if winner == team else -gain
            bonus = self._bonus
            upper = left + 5 + (bonus[team] if match >> team & 1 else 0)
            if target > upper:
                return upper
            lower = -(left + 5 + (bonus[team ^ 1] if match >> (team ^ 1) & 1 else 0))
            if target <= lower:
                return lower
            if h0.bit_count() > 3:
                reps = self._reps
                r0 = reps(h0, remaining)
                rest_reps = (reps(h1, remaining), reps(h2, remaining), reps(h3, remaining))
            else:  # three cards each: merging saves less than it costs
                r0, rest_reps = h0, (h1, h2, h3)
            leads = self._leads.get(r0)
            if leads is None:
                leads = self._leads[r0] = self._lead_order(r0)
            entry = [lower, upper, leads, *rest_reps]
            if len(self._tt) >= self.table_limit:
                self._tt.clear()  # memory cap: start over rather than grow
                self._exact.clear()
            self._tt[key] = entry
        _lower, _upper, leads, r1, r2, r3 = entry
        moves = self._follows
        order = self._follow_order
        keys_of = self._keys
        search = self._trick
        exact = self._exact
        two_left = h0.bit_count() == 3
        left5 = left + 5
        last_tag = s3 << 2 | (match & (1 << (s3 & 1)))
        most = self._most
        best0 = -_INFINITY
        chosen = -1
        for c0 in leads:
            hands[leader] = h0 ^ (1 << c0)
            keys = keys_of[_SUIT_INDEX_OF[c0]]
            k0 = keys[c0]
            p0 = table[c0]
            led = _SUIT_INDEX_OF[c0] << 1
            # Second card, the other team: it looks for an answer that keeps us below target.
            key1 = r1 << 9 | c0 << 3 | led
            moves1 = moves.get(key1)
            if moves1 is None:
                moves1 = moves[key1] = order(r1, c0, c0, partner=False)
            worst1 = _INFINITY
            for c1 in moves1:
                hands[s1] = h1 ^ (1 << c1)
                k1 = keys[c1]
                if k1 > k0:
                    top1, topk1, win1 = c1, k1, 1
                else:
                    top1, topk1, win1 = c0, k0, 0
                p1 = p0 + table[c1]
                # Third card, the leader's team: one answer that reaches the target is enough.
                key2 = r2 << 9 | top1 << 3 | led | (win1 ^ 1)
                moves2 = moves.get(key2)
                if moves2 is None:
                    moves2 = moves[key2] = order(r2, c0, top1, partner=win1 == 0)
                best2 = -_INFINITY
                for c2 in moves2:
                    hands[s2] = h2 ^ (1 << c2)
                    k2 = keys[c2]
                    if k2 > topk1:
                        top2, topk2, win2 = c2, k2, 2
                    else:
                        top2, topk2, win2 = top1, topk1, win1
                    p2 = p1 + table[c2]
                    # Fourth card, the other team again.
                    key3 = r3 << 9 | top2 << 3 | led | (1 if win2 == 1 else 0)
                    moves3 = moves.get(key3)
                    if moves3 is None:
                        moves3 = moves[key3] = order(r3, c0, top2, partner=win2 == 1)
                    worst3 = _INFINITY
                    held = win2 & 1 == 0  # does the leader's team hold the trick so far?
                    holder = (leader + win2) & 3
                    base = remaining ^ (1 << c0 | 1 << c1 | 1 << c2)
                    # The next leader and the match chances left, as in the table's keys.
                    holder_tag = holder << 2 | (match & (1 << (holder & 1)))
                    for c3 in moves3:
                        points = p2 + table[c3]
                        rest = left5 - points  # all that is left to take, the last 5 too
                        if keys[c3] > topk2:
                            winner, same, tag = s3, False, last_tag
                        else:
                            winner, same, tag = holder, held, holder_tag
                        if same:
                            gain = sign * points
                            need = target - gain
                        else:
                            # The others lead on: our value is the gain less theirs, and they
                            # probe the mirror of our target.
                            gain = -sign * points
                            need = gain - target + 1
                        if need <= -rest:
                            value = -rest
                        elif need > rest + most:
                            value = rest + most
                        else:
                            after = base ^ (1 << c3)
                            chances = tag & 3
                            if two_left:
                                key = after << 4 | tag
                                value = exact.get(key)
                                if value is None:
                                    if len(exact) >= self.table_limit:
                                        exact.clear()  # the same memory cap
                                    hands[s3] = h3 ^ (1 << c3)
                                    value = exact[key] = self._two(hands, winner, chances, rest - 5)
                            else:
                                hands[s3] = h3 ^ (1 << c3)
                                value = search(hands, winner, need, chances, after, rest - 5)
                        value = gain + value if same else gain - value
                        if value < worst3:
                            worst3 = value
                            if value < target:
                                break
                    hands[s3] = h3
                    if worst3 > best2:
                        best2 = worst3
                        if worst3 >= target:
                            break
                hands[s2] = h2
                if best2 < worst1:
                    worst1 = best2
                    if best2 < target:
                        break
            hands[s1] = h1
            if worst1 > best0:
                best0 = worst1
                if worst1 >= target:
                    chosen = c0
                    break
        hands[leader] = h0
        if best0 >= target:
            if best0 > entry[0]:
                entry[0] = best0
            if leads[0] != chosen:  # the lead that worked comes first next time
                entry[2] = (chosen, *(card for card in leads if card != chosen))
        elif best0 < entry[1]:
            entry[1] = best0
        return best0


def side_points(difference: int, left: int, own: int, theirs: int) -> int:
    """What the side makes, from its ``difference`` with ``left`` points in play (the 5 too).

    The difference is what the side is credited minus what the opponents are (in Misère each
    side is credited what the other takes); the two add up to ``left`` but for a match, which
    ``own`` and ``theirs`` (the bonus each could still make) tell.

    >>> side_points(-41, 61, 0, 0), side_points(257, 157, 100, 0)
    (10, 257)
    """
    if own and difference == left + own:
        return difference
    if theirs and difference == -(left + theirs):
        return 0
    return (left + difference) // 2


def solve(
    game: Game,
    *,
    node_limit: int | None = None,
    time_limit: float | None = None,
    backend: str = "auto",
) -> Solution:
    """Solve the card play of ``game`` from its current position, all hands known.

    ``backend`` is "auto" (native when :data:`NATIVE`), "native" or "python".

    >>> import jass
    >>> g = jass.Game.new(seed=8).deal().choose("undenufe")
    >>> for _ in range(24):
    ...     g = g.play(g.legal_moves().cards()[0])
    >>> solve(g).exact
    True
    """
    if game.phase is not Phase.PLAY or game.contract is None or game.to_move is None:
        raise InvalidInputError("solve needs a game in the play phase")
    hand = game.hand_info
    assert hand is not None  # noqa: S101
    solver = Solver(game.contract, game.ruleset, backend=backend)
    leader = game.trick_leader
    assert leader is not None  # noqa: S101
    return solver.solve(
        [int(h) for h in game.hands],
        int(leader),
        game.trick,
        game.tricks_won,
        declaring_team=int(hand.declaring_team),
        node_limit=node_limit,
        time_limit=time_limit,
    )


def card_values(
    game: Game,
    *,
    node_limit: int | None = None,
    time_limit: float | None = None,
    backend: str = "auto",
) -> CardValues:
    """The exact value of every legal card of the player to move in ``game``, all hands known.

    See :class:`jass.search.worlds.CardValues`: per card, the difference the side makes after
    playing it (as :attr:`Solution.difference`), and the points.

    >>> import jass
    >>> g = jass.Game.new(seed=3).deal().choose("obenabe")
    >>> for _ in range(26):
    ...     g = g.play(g.legal_moves().cards()[0])
    >>> values = card_values(g)
    >>> values.exact, set(values.differences) == set(g.legal_moves())
    (True, True)
    >>> max(values.differences.values()) == solve(g).difference
    True
    """
    from jass.search.worlds import game_card_values  # noqa: PLC0415  (a higher row)

    return game_card_values(game, node_limit, time_limit, backend)


def card_values_batch(
    game: Game,
    worlds: Sequence[Sequence[int]],
    *,
    threads: int = 1,
    node_limit: int | None = None,
    time_limit: float | None = None,
    backend: str = "auto",
) -> list[CardValues]:
    """The card values of one decision in many sampled ``worlds`` (four hands each).

    ``game`` gives the decision (contract, rules, trick, tricks taken, who is to move);
    each world replaces the hands. See :func:`jass.search.worlds.batch`.

    >>> import jass
    >>> g = jass.Game.new(seed=3).deal().choose("obenabe")
    >>> for _ in range(26):
    ...     g = g.play(g.legal_moves().cards()[0])
    >>> [v.exact for v in card_values_batch(g, [[int(h) for h in g.hands]] * 2)]
    [True, True]
    """
    from jass.search.worlds import game_batch  # noqa: PLC0415

    return game_batch(game, worlds, threads, node_limit, time_limit, backend)


def analyze(
    record: Mapping[str, Any], *, backend: str = "auto", first_trick: int = 0
) -> Analysis:
    """Double-dummy analysis of a game record (:mod:`jass.records`): every card played.

    ``first_trick`` leaves out each hand's earlier tricks (they take the longest to solve).
    See :func:`jass.search.worlds.analyze_game`.

    >>> import jass
    >>> from jass.bots import RuleBot, play_hand
    >>> g = play_hand(jass.Game.new(jass.rules.JASSKIT, seed=2).deal(), [RuleBot()] * 4)
    >>> from jass.records import record
    >>> report = analyze(record(g), first_trick=6)
    >>> len(report.plays), all(p.lost >= 0 for p in report.plays)
    (12, True)
    """
    from jass.records import replay  # noqa: PLC0415
    from jass.search.worlds import analyze_game  # noqa: PLC0415

    return analyze_game(replay(record), backend, first_trick)
