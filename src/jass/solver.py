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

import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeVar

import attrs

from jass._budgets import count_or_none, seconds_or_none
from jass.core.cards import CARDS, Card
from jass.core.contracts import Contract
from jass.core.ruledata import rule_data
from jass.engine.hand import Phase
from jass.errors import InvalidInputError
from jass.rules import SCHIEBER, RuleSet
from jass.search._minimax import _Budget, _Search
from jass.search._solver_tables import _tables
from jass.search._stack import on_fresh_stack
from jass.search.native import NATIVE, NativeContext

if TYPE_CHECKING:
    from collections.abc import Mapping

    from jass.engine.game import Game
    from jass.engine.view import PlayerView
    from jass.search.values import Analysis, CardValues

__all__ = [
    "BACKENDS",
    "NATIVE",
    "SPLIT_CARDS",
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
_T = TypeVar("_T")


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

#: From this many cards a hand, a native solve is split over the solver's threads (fewer
#: take too little time to pay for the threads' extra positions).
SPLIT_CARDS: Final = 8
_MOST_THREADS: Final = 64  # the core's limit (a solve has at most 81 units of work)
#: From this many cards a hand, a solve runs on a fresh frame stack (a thread of its own).
#: Shorter solves take too little time to pay for the thread.
_FRESH_STACK_CARDS: Final = 6
#: Whether to try a thread at all: Pyodide (emscripten) and WASI builds cannot start one,
#: and every solve runs on the calling thread there.
_THREADS = sys.platform not in ("emscripten", "wasi")


@attrs.frozen
class Solution:
    """The result of a solve.

    Attributes:
        points: what the side to move makes from here (card points, last trick, its match
            bonus); the lower bound when the solve did not finish.
        lower, upper: proven bounds on the difference, its points minus the opponents' from
            here, both bonuses counted (equal, and the difference, when exact).
        best: a card for the player to move that achieves the value (the best found so far
            when not exact).
        exact: whether the search finished.
        nodes: positions searched at trick boundaries (each a loop over a whole trick).
        table_size: entries in the transposition table at the end (about 400 bytes each, with
            the two-trick values).

    >>> Solution(10, -137, -137, Card.parse("6S"), True, 1, 0).exact
    True
    """

    points: int
    lower: int
    upper: int
    best: Card | None
    exact: bool
    nodes: int
    table_size: int



class Solver(_Search):
    """A reusable solver for one contract and rule set (its table is kept between solves).

    One solver answers one solve at a time: give each thread its own (solvers of a contract
    share their move tables safely). ``table_limit`` caps the transposition table (and the
    table of two-trick values): when it is full it starts over, so memory stays below about
    ``table_limit`` x 400 bytes (1.6 GB for the default; a search of seven tricks or fewer
    needs far less; 32 bytes an entry on the native core). ``threads`` (``None``: every
    usable core on the native core, 1 in pure Python) splits a native solve or card values
    of :data:`SPLIT_CARDS` or more cards a hand over that many threads, each with a table of
    its own; the value is the same whatever the threads.

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
        threads: int | None = None,
    ) -> None:
        if not isinstance(contract, Contract):
            raise InvalidInputError(f"{contract!r} is not a Contract")
        from jass.search.worlds import _thread_count  # noqa: PLC0415  (a higher row)

        #: Threads a long native solve is split over (:data:`SPLIT_CARDS`); 1 in pure Python.
        self.threads = _thread_count(threads, backend)
        self._helpers: list[NativeContext] = []  # the other threads' contexts, made once
        #: The native context, when this solver runs on the core.
        self.native: NativeContext | None = (
            NativeContext(contract, ruleset, table_limit=table_limit)
            if native_backend(backend)
            else None
        )
        self.contract = contract
        self.ruleset = ruleset
        self.table_limit = table_limit
        data = self._data = rule_data(contract, ruleset)
        # The Misère swap (RuleData.credit_swap) as the sign of what a team takes.
        self._sign = -1 if data.credit_swap else 1
        tables = _tables(contract, data)
        self._table = tables.points
        self._keys = data.win_keys
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
        if self.native is not None:
            return self._solve_native(
                held, leader, trick, tricks, declaring_team, node_limit, time_limit
            )
        seen, seat = self.check_position(held, leader, trick, tricks)
        side = seat & 1
        self.nodes = 0
        self._limit = node_limit or 1 << 62
        self._deadline = time.perf_counter() + time_limit if time_limit else 0.0
        match = (1 if tricks[1] == 0 else 0) | (2 if tricks[0] == 0 else 0)
        data = self._data
        own_bonus, other_bonus = data.match_bonus, data.counter_match_bonus
        bonus = (own_bonus, other_bonus) if declaring_team == 0 else (other_bonus, own_bonus)
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
        return Solution(points, lo, hi, CARDS[best], exact, self.nodes, len(self._tt))

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
        data = self._data
        first, second = data.match_bonus, data.counter_match_bonus
        bonus = (first, second) if declaring_team == 0 else (second, first)
        own = bonus[side] if tricks[side ^ 1] == 0 else 0
        theirs = bonus[side ^ 1] if tricks[side] == 0 else 0
        return own, theirs

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
        # Long solves on a thread of their own, so that Ctrl-C stops them (cancel()).
        long = held[(leader + len(trick)) & 3].bit_count() >= _FRESH_STACK_CARDS
        lo, hi, best, exact, nodes, used, points = self.native_call(
            "solve", held, leader, trick, tricks, declaring_team, node_limit, time_limit,
            fresh_stack=long,
        )  # fmt: skip
        self.nodes = nodes
        return Solution(points, lo, hi, CARDS[best], bool(exact), nodes, used)

    def native_call(
        self,
        function: str,
        held: list[int],
        leader: int,
        trick: Sequence[int],
        tricks: tuple[int, int],
        declaring_team: int,
        node_limit: int | None,
        time_limit: float | None,
        *,
        fresh_stack: bool = False,
    ) -> Any:
        """The native core's ``solve`` or ``card_values`` on this solver's context.

        The core checks the position itself, so nothing is checked twice (a short solve
        costs about as much as the checks did); on bad input :meth:`check_position` gives
        its message. The limits must be validated already (``None`` for none).

        >>> import jass
        >>> g = jass.Game.new(seed=1).deal().choose("obenabe")
        >>> solver = Solver(g.contract, g.ruleset)
        >>> if solver.native is not None:
        ...     found = solver.native_call("solve", [int(h) for h in g.hands], 0, (), (0, 0), 0,
        ...                                1, None)
        ...     assert len(found) == 7  # lower, upper, best, exact, nodes, table, points
        """
        native = self.native
        if native is None:
            raise InvalidInputError("this solver has no native context (backend 'python')")
        position = (
            held, leader, trick, tricks[0], tricks[1], declaring_team, node_limit or 0,
            time_limit or 0.0,
        )  # fmt: skip
        contexts = self._split(held[(leader + len(trick)) & 3].bit_count())
        arguments: tuple[Any, ...]
        if contexts:
            values = int(function != "solve")
            call, arguments = native.core.solve_split, (contexts, values, *position)
        else:
            call, arguments = getattr(native.core, function), (native.context, *position)
        try:
            if fresh_stack:
                return self._on_fresh_stack(lambda: call(*arguments))
            return call(*arguments)
        except (InvalidInputError, IndexError, TypeError):
            self.check_position(held, leader, trick, tricks)
            raise

    def _split(self, cards: int) -> tuple[Any, ...] | None:
        """The contexts to split a native search of ``cards`` a hand over, or None."""
        if self.threads == 1 or cards < SPLIT_CARDS or self.native is None:
            return None
        native = self.native
        while len(self._helpers) < min(self.threads, _MOST_THREADS) - 1:
            self._helpers.append(
                NativeContext(self.contract, self.ruleset, table_limit=self.table_limit)
            )
        return (native.context, *(helper.context for helper in self._helpers))

    def _on_fresh_stack(self, search: Callable[[], _T]) -> _T:
        """``search`` on a fresh frame stack (:func:`jass.search._stack.on_fresh_stack`)."""
        return on_fresh_stack(search, self._interrupt, threads=_THREADS)

    def _interrupt(self) -> None:
        self._limit = 0  # the search stops at its next position
        if self.native is not None:
            self.native.cancel()  # which stops the other threads of a split too


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
    threads: int | None = None,
) -> Solution:
    """Solve the card play of ``game`` from its current position, all hands known.

    ``backend`` is "auto" (native when :data:`NATIVE`), "native" or "python"; ``threads``
    as :class:`Solver` takes it (``None``: every usable core on the native core).

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
    solver = Solver(game.contract, game.ruleset, backend=backend, threads=threads)
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

    See :class:`jass.search.values.CardValues`: per card, the difference the side makes after
    playing it (as :attr:`Solution.lower` of an exact solve), and the points.

    >>> import jass
    >>> g = jass.Game.new(seed=3).deal().choose("obenabe")
    >>> for _ in range(26):
    ...     g = g.play(g.legal_moves().cards()[0])
    >>> values = card_values(g)
    >>> values.exact, set(values.differences) == set(g.legal_moves())
    (True, True)
    >>> max(values.differences.values()) == solve(g).lower
    True
    """
    from jass.search.worlds import game_card_values  # noqa: PLC0415  (a higher row)

    return game_card_values(game, node_limit, time_limit, backend)


def card_values_batch(
    game: Game | PlayerView,
    worlds: Sequence[Sequence[int]],
    *,
    threads: int | None = None,
    node_limit: int | None = None,
    time_limit: float | None = None,
    backend: str = "auto",
) -> list[CardValues]:
    """The card values of one decision in many sampled ``worlds`` (four hands each).

    ``game`` (a :class:`~jass.Game` or a bot's :class:`~jass.PlayerView`) gives the decision
    (contract, rules, trick, tricks taken, who is to move); each world gives the four hands
    (the cards still held). One solver, and its table, serves all the worlds of a thread;
    ``threads`` spreads the worlds (the native core searches them in parallel; ``None``, the
    default, uses every core this process may run on, and one thread in pure Python). The
    values are the same whatever the threads. The result lists each world's
    :class:`~jass.search.values.CardValues`, in order: average their ``differences`` per card
    to play by Monte Carlo. See :func:`jass.search.worlds.batch`.

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
    record: Mapping[str, Any], *, backend: str = "auto", first_trick: int = 0,
    threads: int | None = None,
) -> Analysis:  # fmt: skip
    """Double-dummy analysis of a game record (:mod:`jass.records`): every card played.

    ``first_trick`` leaves out each hand's earlier tricks (they take the longest to solve);
    ``threads`` analyzes that many hands at once, and splits each hand's long card values
    over the threads the hands leave over. See :func:`jass.search.worlds.analyze_game`.

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

    return analyze_game(replay(record), backend, first_trick, threads)
