"""Checks of the numbers callers pass: whole numbers, search budgets (samples, nodes, seconds).

:func:`is_int` is the one test of "a whole number, not a bool" that the validators use.

>>> count_or_none("samples", 8), seconds_or_none("time_limit", 0.5), is_int(True)
(8, 0.5, False)
"""

from __future__ import annotations

import math
from typing import TypeGuard

from jass.errors import InvalidInputError

__all__ = ["count_or_none", "is_int", "seconds_or_none"]


def is_int(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number: an ``int`` (or a subclass, a Seat) but not a bool.

    ``True`` is an ``int`` in Python; as a seat, a count or a seed it is a mistake.

    >>> import jass
    >>> is_int(3), is_int(False), is_int(3.0), is_int(jass.Seat(1))
    (True, False, False, True)
    """
    return isinstance(value, int) and not isinstance(value, bool)


def count_or_none(name: str, value: object) -> int | None:
    """``value`` if it is ``None`` or a positive int; else an error naming ``name``.

    >>> count_or_none("samples", 0)
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: samples must be a positive whole number or None, got 0
    """
    if value is None:
        return None
    if not is_int(value) or value < 1:
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
