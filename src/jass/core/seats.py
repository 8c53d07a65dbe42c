"""Seats and teams.

Seats are numbered 0-3 in playing order: play goes 0 -> 1 -> 2 -> 3 -> 0 (anticlockwise at
the table, rule book §3). Partners sit opposite, so ``Team(0)`` is seats 0 and 2 and
``Team(1)`` is seats 1 and 3.

>>> Seat(3).next, Seat(1).partner, Seat(1).team, Team(0).seats
(<Seat.S0: 0>, <Seat.S3: 3>, <Team.T1: 1>, (<Seat.S0: 0>, <Seat.S2: 2>))
"""

from __future__ import annotations

import enum
from typing import Any, cast

from jass.errors import InvalidInputError, describe

__all__ = ["Seat", "Team"]


class _Numbered(enum.EnumMeta):
    """Refuses an out-of-range int before the enum machinery writes it into its own error.

    ``enum`` formats the value with ``%r`` after ``_missing_``; Python will not write out an
    int of more than 4,300 digits, so that would raise a bare ``ValueError`` instead of ours.
    """

    def __call__(cls, value: object, *args: Any, **kwargs: Any) -> Any:
        if value.__class__ is int and not args and not kwargs:
            if 0 <= value < len(cls):
                return cls._value2member_map_[value]  # the common case, quickly
            cast("type[enum.Enum]", cls)._missing_(value)  # raises InvalidInputError
        return super().__call__(value, *args, **kwargs)


class Seat(enum.IntEnum, metaclass=_Numbered):
    """A seat at the table, numbered in playing order.

    >>> Seat(0) + 1, Seat(0).offset(5)
    (1, <Seat.S1: 1>)
    """

    S0 = 0
    S1 = 1
    S2 = 2
    S3 = 3

    @classmethod
    def _missing_(cls, value: object) -> Seat:
        raise InvalidInputError(f"{describe(value, typed=False)} is not a seat: seats are 0-3")

    @property
    def next(self) -> Seat:
        """The seat that plays after this one (to its right).

        >>> Seat(2).next
        <Seat.S3: 3>
        """
        return _SEATS[(self + 1) & 3]

    @property
    def partner(self) -> Seat:
        """The partner, sitting opposite.

        >>> Seat(0).partner
        <Seat.S2: 2>
        """
        return _SEATS[(self + 2) & 3]

    @property
    def team(self) -> Team:
        """The seat's team: seats 0 and 2 form ``Team(0)``.

        >>> Seat(2).team
        <Team.T0: 0>
        """
        return _TEAMS[self & 1]

    def offset(self, steps: int) -> Seat:
        """The seat ``steps`` places further in playing order.

        >>> Seat(3).offset(2)
        <Seat.S1: 1>
        """
        return _SEATS[(self + steps) & 3]

    def __str__(self) -> str:
        return f"seat {int(self)}"


class Team(enum.IntEnum, metaclass=_Numbered):
    """A partnership: ``Team(0)`` is seats 0 and 2, ``Team(1)`` is seats 1 and 3.

    >>> Team(1).other, Team(1).seats
    (<Team.T0: 0>, (<Seat.S1: 1>, <Seat.S3: 3>))
    """

    T0 = 0
    T1 = 1

    @classmethod
    def _missing_(cls, value: object) -> Team:
        raise InvalidInputError(f"{describe(value, typed=False)} is not a team: teams are 0 and 1")

    @property
    def seats(self) -> tuple[Seat, Seat]:
        """The two seats of the team.

        >>> Team(0).seats
        (<Seat.S0: 0>, <Seat.S2: 2>)
        """
        return (_SEATS[self], _SEATS[self + 2])

    @property
    def other(self) -> Team:
        """The opposing team.

        >>> Team(0).other
        <Team.T1: 1>
        """
        return _TEAMS[1 - self]

    def __str__(self) -> str:
        return f"team {int(self)}"


_SEATS = tuple(Seat)
_TEAMS = tuple(Team)
