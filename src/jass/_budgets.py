"""Checks of search budgets (samples, nodes, seconds), shared by the bots and the solver.

>>> count_or_none("samples", 8), seconds_or_none("time_limit", 0.5)
(8, 0.5)
"""

from __future__ import annotations

import math

from jass.errors import InvalidInputError

__all__ = ["count_or_none", "seconds_or_none"]


def count_or_none(name: str, value: object) -> int | None:
    """``value`` if it is ``None`` or a positive int; else an error naming ``name``.

    >>> count_or_none("samples", 0)
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: samples must be a positive whole number or None, got 0
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInputError(f"{name} must be a positive whole number or None, got {value!r}")
    return value


def seconds_or_none(name: str, value: object) -> float | None:
    """``value`` as seconds if it is ``None`` or a positive finite number; else an error.

    >>> seconds_or_none("time_limit", -1)
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: time_limit must be a positive number of seconds or None, got -1
    """
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value <= 0
    ):
        raise InvalidInputError(
            f"{name} must be a positive number of seconds or None, got {value!r}"
        )
    return float(value)
