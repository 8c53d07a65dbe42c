"""Seats and teams (rule book §3 and the notation section)."""

from __future__ import annotations

import pytest

from jass import Seat, Team

ALL_SEATS = (Seat(0), Seat(1), Seat(2), Seat(3))


def test_seats_are_numbered_zero_to_three() -> None:
    assert [int(s) for s in Seat] == [0, 1, 2, 3]
    assert list(Seat) == list(ALL_SEATS)
    assert [int(t) for t in Team] == [0, 1]


@pytest.mark.parametrize(("seat", "expected"), [(0, 1), (1, 2), (2, 3), (3, 0)])
def test_next_is_the_following_seat_in_playing_order(seat: int, expected: int) -> None:
    nxt = Seat(seat).next
    assert nxt is Seat(expected)
    assert isinstance(nxt, Seat)


def test_playing_order_cycles_through_every_seat() -> None:
    for start in Seat:
        order = [start]
        for _ in range(3):
            order.append(order[-1].next)
        assert [int(s) for s in order] == [(start + i) % 4 for i in range(4)]
        assert sorted(order) == list(ALL_SEATS)
        assert order[-1].next is start


@pytest.mark.parametrize(("seat", "partner"), [(0, 2), (1, 3), (2, 0), (3, 1)])
def test_partner_sits_opposite(seat: int, partner: int) -> None:
    s = Seat(seat)
    assert s.partner is Seat(partner)
    assert s.partner.partner is s
    assert s.partner is s.offset(2)
    assert s.partner is s.next.next
    assert s.partner is not s


@pytest.mark.parametrize(("seat", "team"), [(0, 0), (1, 1), (2, 0), (3, 1)])
def test_team_of_seat(seat: int, team: int) -> None:
    s = Seat(seat)
    assert s.team is Team(team)
    assert isinstance(s.team, Team)
    assert s.partner.team is s.team
    assert s in s.team.seats


def test_neighbours_are_opponents() -> None:
    for s in Seat:
        assert s.next.team is s.team.other
        assert s.offset(-1).team is s.team.other


@pytest.mark.parametrize("seat", list(range(4)))
@pytest.mark.parametrize("steps", list(range(-9, 10)))
def test_offset_wraps_around(seat: int, steps: int) -> None:
    result = Seat(seat).offset(steps)
    assert isinstance(result, Seat)
    assert int(result) == (seat + steps) % 4


def test_offset_agrees_with_next() -> None:
    for s in Seat:
        assert s.offset(0) is s
        assert s.offset(1) is s.next
        assert s.offset(4) is s
        assert s.offset(-1).next is s


def test_team_seats() -> None:
    assert Team(0).seats == (Seat(0), Seat(2))
    assert Team(1).seats == (Seat(1), Seat(3))
    for team in Team:
        a, b = team.seats
        assert a.partner is b
        assert all(s.team is team for s in team.seats)


def test_team_other() -> None:
    assert Team(0).other is Team(1)
    assert Team(1).other is Team(0)
    for team in Team:
        assert team.other.other is team
        assert set(team.seats).isdisjoint(team.other.seats)
        assert set(team.seats) | set(team.other.seats) == set(Seat)


def test_seats_and_teams_are_ints() -> None:
    assert Seat(3) == 3
    assert Team(1) == 1
    assert [0, 10, 20, 30][Seat(2)] == 20
    assert (5, 7)[Team(1)] == 7


@pytest.mark.parametrize("bad", [-1, 4])
def test_bad_seat_number(bad: int) -> None:
    with pytest.raises(ValueError, match=str(bad)):
        Seat(bad)


@pytest.mark.parametrize("bad", [-1, 2])
def test_bad_team_number(bad: int) -> None:
    with pytest.raises(ValueError, match=str(bad)):
        Team(bad)


def test_str() -> None:
    assert str(Seat(2)) == "seat 2"
    assert str(Team(1)) == "team 1"
