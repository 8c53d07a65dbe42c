"""The native search core (the C extension ``jass.search._native``), when it is there.

The core is optional: a build without a compiler, Pyodide, or ``JASS_PURE=1`` in the
environment (read once, at import) leave :data:`NATIVE` False, and every caller uses the pure
Python code instead, with the same results. Why the core is missing is logged once, at debug
level, on the ``jass`` logger.

The core gets its rules as data, :func:`jass.core.ruledata.rule_data`, and copies only the
card-play kernels (:func:`jass.core.play.legal_mask`, :func:`jass.core.play.trick_winner`);
``tests/test_kernels.py`` checks the copies. :class:`NativeContext` is one solver's context
(its own transposition table); the C code releases the GIL while it searches, so contexts on
different threads search in parallel. ``core.solve_split`` splits one solve (or card values)
over the threads of several contexts, one thread each (:class:`jass.solver.Solver`'s
``threads``).

>>> from jass import Contract, rules
>>> if NATIVE:
...     context = NativeContext(Contract.OBENABE, rules.SCHIEBER)
...     lower, upper, best, exact, nodes, used = context.solve(
...         [1 << 8, 1 << 7, 1 << 17, 1 << 16], 0, (), (4, 4), 0, 0, 0.0)
...     assert (lower, upper, exact) == (35, 35, True)
"""

from __future__ import annotations

import logging
import operator
import os
from collections.abc import Sequence
from types import ModuleType
from typing import Any, Final

from jass.core.contracts import Contract
from jass.core.ruledata import rule_data
from jass.errors import InvalidInputError
from jass.rules import RuleSet

__all__ = ["FEATURES", "NATIVE", "NativeContext", "core"]

_LOG = logging.getLogger("jass")

#: The search features (bits): transposition table, move ordering, merging equivalent cards,
#: bounds from the points left, sure points (quick tricks), relative-rank table keys, the first
#: guess (a greedy line of play), and three more sure points: the trick led to the partner's
#: unruffable top card (crossing), the partner's run of top cards after it (cashing), and the
#: cheapest cards each hand must throw into the sure tricks (forced), and payoff-similar table
#: entries (a position's bounds, widened by the points that differ, serve every position of the
#: same shape). All on by default; the benchmark turns them off one by one.
FEATURES: Final = {
    "table": 1, "ordering": 2, "merging": 4, "bounds": 8, "sure": 16, "rank": 32, "guess": 64,
    "crossing": 128, "cashing": 256, "forced": 512, "payoff": 1024,
}  # fmt: skip
_ALL_FEATURES: Final = 2047


def _load() -> ModuleType | None:
    if os.environ.get("JASS_PURE", "") not in ("", "0"):
        _LOG.debug("jass: JASS_PURE is set, so the search runs in pure Python")
        return None
    try:
        from jass.search import _native  # type: ignore[attr-defined]  # noqa: PLC0415
    except ImportError as error:
        _LOG.debug("jass: no native search core (%s), so the search runs in pure Python", error)
        return None
    _native._set_error(InvalidInputError)
    return _native  # type: ignore[no-any-return]


#: The extension module, or None.
core: Final[ModuleType | None] = _load()
#: True when the native core is importable and not disabled by ``JASS_PURE=1``.
NATIVE: Final = core is not None


class NativeContext:
    """One solver's native context: the rules of a contract and a transposition table.

    ``table_limit`` caps the table's entries (32 bytes each; it starts small and grows up to
    the largest power of two within the limit). One solve at a time: a second solve on the
    same context from another thread raises :class:`~jass.InvalidInputError`.

    >>> from jass import Contract, rules
    >>> NativeContext(Contract.OBENABE, rules.SCHIEBER, table_limit=0)
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: table_limit is out of range 1-1099511627776, got 0
    """

    def __init__(
        self,
        contract: Contract,
        ruleset: RuleSet,
        *,
        table_limit: int = 4_000_000,
        features: int = _ALL_FEATURES,
    ) -> None:
        if (
            isinstance(table_limit, bool)
            or not isinstance(table_limit, int)
            or not 1 <= table_limit <= 1 << 40
        ):
            raise InvalidInputError(f"table_limit is out of range 1-{1 << 40}, got {table_limit!r}")
        if core is None:
            raise InvalidInputError("the native search core is not available (NATIVE is False)")
        self.rules = rule_data(contract, ruleset)
        #: The extension module and this context's capsule: callers on a hot path
        #: (:meth:`jass.solver.Solver.solve`) call ``core.solve(context, ...)`` directly.
        self.core: ModuleType = core
        self.context: Any = core.new_context(self.rules, table_limit, features)

    def cancel(self) -> None:
        """Stop this context's running solve (from another thread): it returns bounds.

        With nothing running it changes nothing: the next solve runs in full.

        >>> from jass import Contract, rules
        >>> if NATIVE:
        ...     context = NativeContext(Contract.OBENABE, rules.SCHIEBER)
        ...     context.cancel()
        ...     assert context.solve([1 << 8, 1 << 7, 1 << 17, 1 << 16], 0, (), (4, 4), 0, 0, 0)[3]
        """
        assert core is not None  # noqa: S101
        core.cancel(self.context)

    def _arguments(
        self,
        hands: Sequence[int],
        leader: int,
        trick: Sequence[int],
        tricks: tuple[int, int],
        declaring_team: int,
        node_limit: int,
        time_limit: float,
    ) -> tuple[Any, ...]:
        """The core's arguments of solve and card_values (the core checks each of them)."""
        if not isinstance(tricks, Sequence) or len(tricks) != 2:
            raise InvalidInputError(f"tricks must be two counts (team 0, team 1), got {tricks!r}")
        if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)):
            raise InvalidInputError(f"time_limit must be a number of seconds, got {time_limit!r}")
        return (
            self.context, _ints("hands", hands), leader, _ints("trick", trick),
            tricks[0], tricks[1], declaring_team, node_limit, float(time_limit),
        )  # fmt: skip

    def solve(
        self,
        hands: Sequence[int],
        leader: int,
        trick: Sequence[int],
        tricks: tuple[int, int],
        declaring_team: int,
        node_limit: int,
        time_limit: float,
    ) -> tuple[int, int, int, bool, int, int]:
        """Solve: (lower, upper, best card, exact, nodes, table entries used).

        >>> from jass import Contract, rules
        >>> if NATIVE:  # AS, KS, AH, KH, one each, seat 0 leading: two tricks, 35 for each side
        ...     context = NativeContext(Contract.OBENABE, rules.SCHIEBER)
        ...     hands = [1 << 8, 1 << 7, 1 << 17, 1 << 16]
        ...     solved = context.solve(hands, 0, (), (4, 4), 0, 0, 0.0)
        ...     assert solved[:2] == (35, 35) and solved[3]

        ``node_limit`` and ``time_limit`` are 0 for none.
        """
        assert core is not None  # noqa: S101  (a context exists only with the core)
        lower, upper, best, exact, nodes, used, _ = core.solve(
            *self._arguments(hands, leader, trick, tricks, declaring_team, node_limit, time_limit)
        )
        return lower, upper, best, bool(exact), nodes, used

    def card_values(
        self,
        hands: Sequence[int],
        leader: int,
        trick: Sequence[int],
        tricks: tuple[int, int],
        declaring_team: int,
        node_limit: int,
        time_limit: float,
    ) -> tuple[list[tuple[int, int, int]], bool, int, int]:
        """Every legal card's (card, lower, upper), exact, nodes, table entries used.

        >>> from jass import Contract, rules
        >>> if NATIVE:  # seat 0 holds only the AS: one legal card
        ...     context = NativeContext(Contract.OBENABE, rules.SCHIEBER)
        ...     hands = [1 << 8, 1 << 7, 1 << 17, 1 << 16]
        ...     found = context.card_values(hands, 0, (), (4, 4), 0, 0, 0.0)
        ...     assert [card for card, _, _ in found[0]] == [8]
        """
        assert core is not None  # noqa: S101
        values, exact, nodes, used = core.card_values(
            *self._arguments(hands, leader, trick, tricks, declaring_team, node_limit, time_limit)
        )
        return [(card, lower, upper) for card, lower, upper, _ in values], bool(exact), nodes, used


def _ints(name: str, values: Sequence[int]) -> list[int]:
    """``values`` as a list of ints (cards or masks), or InvalidInputError naming ``name``."""
    try:
        return [operator.index(value) for value in values]
    except TypeError:
        raise InvalidInputError(f"{name} must be a sequence of ints, got {values!r}") from None
