"""The layout of ``jass-obs-v1`` and the code that writes it (private; see :mod:`.encoding`).

The inputs of an encoding are read in the absolute frame (seats 0-3, teams 0-1) and written
relative to the viewer: card sets as ints by seat, the rest as small ints and tuples.
Writing goes into a ``bytearray`` (one byte per bit) with slice assignments from tables of
ready-made bytes, which costs far less than NumPy calls on a few bytes each. The tables at
the end say where each byte lies in the four rows (one per seat) of an Encoder's buffer.

>>> OBSERVATION_SIZE == FIELDS["hand_number"].stop
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

from jass.core.cards import Card
from jass.core.seats import Seat
from jass.engine.hand import Phase
from jass.engine.view import PlayerView
from jass.rules import FirstHandRule

__all__: list[str] = []  # private: the public names are re-exported by jass.envs.encoding

#: The name of the encoding; the version is part of it.
ENCODING: Final = "jass-obs-v1"

# The fields, in order: (name, size). Card fields hold 36 bits per seat, card c at c.
_LAYOUT: Final = (
    ("hand", 36),  # the viewer's own cards
    ("played", 4 * 36),  # the cards each relative seat played this hand (current trick too)
    ("trick", 4 * 36),  # the current trick's cards, by relative seat
    ("known", 3 * 36),  # relative seats 1-3: unplayed cards known to be in their hands
    ("excluded", 3 * 36),  # relative seats 1-3: the cards they are known not to hold
    ("contract", 7),  # one-hot by Contract.index (the order of the Choose actions)
    ("multiplier", 4),  # one-hot: x1, x2, x3, x4 or more
    ("chooser", 4),  # relative seat that named the contract
    ("shoves", 2),  # thermometer: shoved once, shoved twice (shoved back)
    ("to_move", 4),  # relative seat to act
    ("leader", 4),  # relative seat that leads the current trick
    ("dealer", 4),  # relative seat that dealt
    ("phase", 4),  # one-hot: DEAL, CHOOSE, PLAY, OVER
    ("trick_number", 9),  # one-hot: completed tricks, in the play phase
    ("declared", 4),  # relative seats that have declared Weis (perhaps none) this hand
    ("weis_points", 4 * 9),  # by relative seat: declared Weis points, 9-bit binary
    ("weis_winner", 4),  # relative seat with the best Weis, once known
    ("stoeck", 4),  # relative seat whose Stöck were scored or shown
    ("hand_points", 2 * 8),  # card points taken this hand, own team first, 8-bit binary
    ("scores", 2 * 13),  # running totals, own team first, 13-bit binary, clipped
    ("hand_number", 6),  # the hand's number in the game from 0, 6-bit binary, clipped
)


def _offsets() -> dict[str, slice]:
    fields: dict[str, slice] = {}
    start = 0
    for name, size in _LAYOUT:
        fields[name] = slice(start, start + size)
        start += size
    return fields


#: The named parts of the vector, in order; together they cover it exactly once.
FIELDS: Final[Mapping[str, slice]] = MappingProxyType(_offsets())
#: The length of the vector.
OBSERVATION_SIZE: Final[int] = sum(size for _, size in _LAYOUT)
SIZE: Final = OBSERVATION_SIZE

HAND: Final = FIELDS["hand"].start
PLAYED: Final = FIELDS["played"].start
TRICK: Final = FIELDS["trick"].start
KNOWN: Final = FIELDS["known"].start
EXCLUDED: Final = FIELDS["excluded"].start
CONTRACT: Final = FIELDS["contract"].start
MULTIPLIER: Final = FIELDS["multiplier"].start
CHOOSER: Final = FIELDS["chooser"].start
SHOVES: Final = FIELDS["shoves"].start
TO_MOVE: Final = FIELDS["to_move"].start
LEADER: Final = FIELDS["leader"].start
DEALER: Final = FIELDS["dealer"].start
PHASE: Final = FIELDS["phase"].start
TRICK_NUMBER: Final = FIELDS["trick_number"].start
DECLARED: Final = FIELDS["declared"].start
WEIS_POINTS: Final = FIELDS["weis_points"].start
WEIS_WINNER: Final = FIELDS["weis_winner"].start
STOECK: Final = FIELDS["stoeck"].start
HAND_POINTS: Final = FIELDS["hand_points"].start
SCORES: Final = FIELDS["scores"].start
HAND_NUMBER: Final = FIELDS["hand_number"].start

PHASES: Final = tuple(Phase)
PLAY: Final = Phase.PLAY
_MARKER: Final = FirstHandRule.MARKER_CARD

# Clipping: the largest value each binary field holds.
MAX_WEIS: Final = 511
MAX_HAND_POINTS: Final = 255
MAX_SCORE: Final = 8191
MAX_HAND_NUMBER: Final = 63


# --- bytes tables ---------------------------------------------------------------------------


def _binary_table(width: int) -> tuple[bytes, ...]:
    """For each value below ``2**width``: its bits, least significant first, as bytes."""
    return tuple(bytes((value >> k) & 1 for k in range(width)) for value in range(1 << width))


def _one_hot(size: int) -> tuple[bytes, ...]:
    return tuple(bytes(int(i == k) for i in range(size)) for k in range(size))


_BITS12: Final = _binary_table(12)  # 12 cards at a time
_BIN6: Final = _binary_table(6)
_BIN8: Final = _binary_table(8)
_BIN9: Final = _binary_table(9)
_BIN13: Final = _binary_table(13)
ZERO4: Final = bytes(4)
ONE_HOT4: Final = _one_hot(4)
_ONE_HOT7: Final = _one_hot(7)
_ONE_HOT9: Final = _one_hot(9)
_ZERO7: Final = bytes(7)
_ZERO9: Final = bytes(9)
ZERO144: Final = bytes(144)
_SHOVE_BITS: Final = (b"\x00\x00", b"\x01\x00", b"\x01\x01")
# Whether each relative seat has declared, for the 16 patterns by absolute seat (bit = seat).
_DECLARED_BITS: Final = tuple(
    tuple(bytes((pattern >> ((viewer + r) & 3)) & 1 for r in range(4)) for viewer in range(4))
    for pattern in range(16)
)


def card_bytes(mask: int) -> bytes:
    """The 36 cards of ``mask`` as 36 bytes of 0 or 1, card 0 first.

    >>> list(card_bytes(0b101)[:4])
    [1, 0, 1, 0]
    """
    return _BITS12[mask & 0xFFF] + _BITS12[(mask >> 12) & 0xFFF] + _BITS12[mask >> 24]


# --- the inputs -----------------------------------------------------------------------------

Masks = tuple[int, int, int, int]

# The inputs fixed for a hand: (contract index or -1, multiplier or 0, chooser or -1, shoves,
# dealer or -1, hand number). They change with the hand's record, HandInfo, only.
Static = tuple[int, int, int, int, int, int]

# The inputs that change in the play (index: meaning):
D_TO_MOVE: Final = 0  # seat or -1
D_LEADER: Final = 1  # seat or -1
D_PHASE: Final = 2  # index into Phase
D_TRICK_NUMBER: Final = 3  # completed tricks in the play phase, else -1
D_DECLARED: Final = 4  # by seat: declared Weis points (summed), or -1 before it declares
D_WEIS_WINNER: Final = 5  # seat or -1
D_STOECK: Final = 6  # seat or -1
D_HAND_POINTS: Final = 7  # by team
D_SCORES: Final = 8  # by team
Dynamic = Sequence[Any]


def seat_or_none(seat: Seat | None) -> int:
    """``seat`` as an int, -1 for ``None``.

    >>> seat_or_none(None), seat_or_none(Seat(2))
    (-1, 2)
    """
    return -1 if seat is None else int(seat)


def declared_sums(declared: tuple[tuple[int, ...] | None, ...]) -> tuple[int, ...]:
    """Each seat's declared Weis points, summed; -1 for a seat that has not declared.

    >>> declared_sums((None, (), (20, 50), None))
    (-1, 0, 70, -1)
    """
    return tuple(-1 if points is None else sum(points) for points in declared)


def trick_masks(trick: tuple[Card, ...], leader: Seat | int | None) -> Masks:
    """The current trick's card of each seat, as masks by seat.

    >>> trick_masks((Card(0), Card(5)), 3)
    (32, 0, 0, 1)
    """
    masks = [0, 0, 0, 0]
    if leader is not None:
        for index, card in enumerate(trick):
            masks[(leader + index) & 3] |= 1 << card
    return masks[0], masks[1], masks[2], masks[3]


def view_static(view: PlayerView) -> Static:
    """The hand's fixed inputs, as ``view`` tells them.

    >>> import jass
    >>> view_static(jass.Game.new(seed=1).view(0))
    (-1, 0, -1, 0, -1, 0)
    """
    contract = view.contract
    hand_number = view.hand_number
    return (
        -1 if contract is None else contract.index,
        0 if contract is None else view.ruleset.multiplier(contract),
        seat_or_none(view.chooser),
        view.shoves,
        seat_or_none(view.dealer),
        0 if hand_number is None else hand_number,
    )


def view_dynamic(view: PlayerView) -> Dynamic:
    """The inputs that change in the play, as ``view`` tells them.

    >>> import jass
    >>> view_dynamic(jass.Game.new(seed=1).view(0))
    (-1, -1, 0, -1, (-1, -1, -1, -1), -1, -1, (0, 0), (0, 0))
    """
    phase = view.phase
    trick_number = -1
    if phase is PLAY:
        trick_number = (len(view.plays) - len(view.trick)) // 4
    return (
        seat_or_none(view.to_move),
        seat_or_none(view.trick_leader),
        PHASES.index(phase),
        trick_number,
        declared_sums(view.declared_points),
        seat_or_none(view.weis_winner),
        seat_or_none(view.stoeck),
        view.hand_points,
        view.scores,
    )


# --- writing --------------------------------------------------------------------------------


def write_static(buf: bytearray, base: int, viewer: int, static: Static) -> None:
    """Write the hand's fixed fields of ``viewer``'s vector at ``buf[base:]``.

    >>> buf = bytearray(SIZE)
    >>> write_static(buf, 0, 1, (4, 3, 0, 1, 3, 2))
    >>> list(buf[FIELDS["contract"]]), list(buf[FIELDS["chooser"]])
    ([0, 0, 0, 0, 1, 0, 0], [0, 0, 0, 1])
    """
    contract, multiplier, chooser, shoves, dealer, number = static
    buf[base + CONTRACT : base + CONTRACT + 7] = _ZERO7 if contract < 0 else _ONE_HOT7[contract]
    at = base + MULTIPLIER
    buf[at : at + 4] = ZERO4 if multiplier <= 0 else ONE_HOT4[min(multiplier, 4) - 1]
    at = base + CHOOSER
    buf[at : at + 4] = ZERO4 if chooser < 0 else ONE_HOT4[(chooser - viewer) & 3]
    buf[base + SHOVES : base + SHOVES + 2] = _SHOVE_BITS[min(shoves, 2)]
    at = base + DEALER
    buf[at : at + 4] = ZERO4 if dealer < 0 else ONE_HOT4[(dealer - viewer) & 3]
    at = base + HAND_NUMBER
    buf[at : at + 6] = _BIN6[min(number, MAX_HAND_NUMBER)]


def write_seat(buf: bytearray, at: int, viewer: int, seat: int) -> None:
    """Write absolute ``seat`` (or -1, none) as a relative one-hot of 4 at ``buf[at:]``.

    >>> buf = bytearray(4)
    >>> write_seat(buf, 0, 3, 1)
    >>> list(buf)
    [0, 0, 1, 0]
    """
    buf[at : at + 4] = ZERO4 if seat < 0 else ONE_HOT4[(seat - viewer) & 3]


def declared_bytes(declared: Sequence[int]) -> tuple[bytes, bytes, bytes, bytes]:
    """The ``declared`` and ``weis_points`` fields (adjacent), as each seat sees them.

    ``declared`` holds each absolute seat's declared Weis points, -1 for none yet.

    >>> chunk = declared_bytes((20, -1, -1, -1))[2]
    >>> list(chunk[:4]), list(chunk[4 + 18 : 4 + 27])
    ([0, 0, 1, 0], [0, 0, 1, 0, 1, 0, 0, 0, 0])
    """
    pattern = 0
    for seat in range(4):
        if declared[seat] >= 0:
            pattern |= 1 << seat
    points = [_BIN9[min(max(value, 0), MAX_WEIS)] for value in declared]
    flags = _DECLARED_BITS[pattern]
    return (
        flags[0] + points[0] + points[1] + points[2] + points[3],
        flags[1] + points[1] + points[2] + points[3] + points[0],
        flags[2] + points[2] + points[3] + points[0] + points[1],
        flags[3] + points[3] + points[0] + points[1] + points[2],
    )


def weis_bytes(points: int) -> bytes:
    """One seat's ``weis_points``: 9 bits, clipped at 511 (a seat that has not declared: 0).

    >>> list(weis_bytes(20)), weis_bytes(-1) == weis_bytes(0)
    ([0, 0, 1, 0, 1, 0, 0, 0, 0], True)
    """
    return _BIN9[min(max(points, 0), MAX_WEIS)]


def points_bytes(points: tuple[int, int]) -> tuple[bytes, bytes]:
    """The ``hand_points`` field as team 0 sees it and as team 1 sees it (own team first).

    >>> [list(b[:3]) + list(b[8:11]) for b in points_bytes((0, 3))]
    [[0, 0, 0, 1, 1, 0], [1, 1, 0, 0, 0, 0]]
    """
    first = _BIN8[min(points[0], MAX_HAND_POINTS)]
    second = _BIN8[min(points[1], MAX_HAND_POINTS)]
    return first + second, second + first


def scores_bytes(scores: tuple[int, int]) -> tuple[bytes, bytes]:
    """The ``scores`` field as team 0 sees it and as team 1 sees it: 13 bits, clipped at 8191.

    >>> [sum(b[:13]) for b in scores_bytes((9000, 1))]
    [13, 1]
    """
    first = _BIN13[min(scores[0], MAX_SCORE)]
    second = _BIN13[min(scores[1], MAX_SCORE)]
    return first + second, second + first


def write_dynamic(buf: bytearray, rows: Iterable[tuple[int, int]], dynamic: Dynamic) -> None:
    """Write the fields that change in the play, for each ``(base, viewer)`` of ``rows``.

    >>> import jass
    >>> buf = bytearray(SIZE)
    >>> write_dynamic(buf, [(0, 0)], view_dynamic(jass.Game.new(seed=1).deal().view(0)))
    >>> list(buf[FIELDS["phase"]])
    [0, 1, 0, 0]
    """
    to_move, leader, phase, trick_number, declared, winner, stoeck, points, scores = dynamic
    declared_rows = declared_bytes(declared)
    points_rows = points_bytes(points)
    scores_rows = scores_bytes(scores)
    phase_bytes = ONE_HOT4[phase]
    trick_bytes = _ZERO9 if trick_number < 0 else _ONE_HOT9[min(trick_number, 8)]
    for base, viewer in rows:
        write_seat(buf, base + TO_MOVE, viewer, to_move)
        write_seat(buf, base + LEADER, viewer, leader)
        buf[base + PHASE : base + PHASE + 4] = phase_bytes
        buf[base + TRICK_NUMBER : base + TRICK_NUMBER + 9] = trick_bytes
        buf[base + DECLARED : base + WEIS_POINTS + 36] = declared_rows[viewer]
        write_seat(buf, base + WEIS_WINNER, viewer, winner)
        write_seat(buf, base + STOECK, viewer, stoeck)
        buf[base + HAND_POINTS : base + HAND_POINTS + 16] = points_rows[viewer & 1]
        buf[base + SCORES : base + SCORES + 26] = scores_rows[viewer & 1]


def write_cards(
    buf: bytearray,
    base: int,
    viewer: int,
    hand: int,
    played: Sequence[int],
    trick: Sequence[int],
    known: Sequence[int],
    excluded: Sequence[int],
) -> None:
    """Write the card fields of ``viewer``'s vector at ``buf[base:]`` (masks by absolute seat).

    >>> buf = bytearray(SIZE)
    >>> write_cards(buf, 0, 0, 0b11, (0, 0, 0, 0), (0, 0, 0, 0), (0, 4, 0, 0), (0, 0, 0, 0))
    >>> list(buf[FIELDS["hand"]][:3]), list(buf[FIELDS["known"]][:3])
    ([1, 1, 0], [0, 0, 1])
    """
    buf[base + HAND : base + HAND + 36] = card_bytes(hand)
    at = base + PLAYED
    buf[at : at + 144] = (
        card_bytes(played[viewer])
        + card_bytes(played[(viewer + 1) & 3])
        + card_bytes(played[(viewer + 2) & 3])
        + card_bytes(played[(viewer + 3) & 3])
    )
    at = base + TRICK
    buf[at : at + 144] = (
        card_bytes(trick[viewer])
        + card_bytes(trick[(viewer + 1) & 3])
        + card_bytes(trick[(viewer + 2) & 3])
        + card_bytes(trick[(viewer + 3) & 3])
    )
    at = base + KNOWN
    buf[at : at + 108] = (
        card_bytes(known[(viewer + 1) & 3])
        + card_bytes(known[(viewer + 2) & 3])
        + card_bytes(known[(viewer + 3) & 3])
    )
    at = base + EXCLUDED
    buf[at : at + 108] = (
        card_bytes(excluded[(viewer + 1) & 3])
        + card_bytes(excluded[(viewer + 2) & 3])
        + card_bytes(excluded[(viewer + 3) & 3])
    )


# --- where the bytes of the four rows of an Encoder lie -------------------------------------

ROWS: Final = (0, SIZE, 2 * SIZE, 3 * SIZE)  # where each seat's row starts

# Where a card's byte lies in the four rows, by field, seat and card: one position per
# viewer that sees the field for that seat.
Positions = tuple[tuple[tuple[int, ...], ...], ...]


def positions(field: int, *, own: bool = False, others: bool = False) -> Positions:
    """The table of a card field held for the viewer only (``own``), the others, or every seat.

    >>> positions(HAND, own=True)[1][0], positions(PLAYED)[0][0]
    ((678,), (36, 822, 1464, 2106))
    """
    table = []
    for seat in range(4):
        by_card = []
        for card in range(36):
            places = []
            for viewer in range(4):
                r = (seat - viewer) & 3
                if (own and r) or (others and not r):
                    continue
                offset = 36 * (r - 1) if others else 36 * r
                places.append(ROWS[viewer] + field + offset + card)
            by_card.append(tuple(places))
        table.append(tuple(by_card))
    return tuple(table)


HAND_AT: Final = positions(HAND, own=True)
PLAYED_AT: Final = positions(PLAYED)
TRICK_AT: Final = positions(TRICK)
KNOWN_AT: Final = positions(KNOWN, others=True)
EXCLUDED_AT: Final = positions(EXCLUDED, others=True)


def seat_positions(field: int) -> tuple[tuple[int, int, int, int], ...]:
    """For each absolute seat: its byte in a relative one-hot field, in each row."""
    return tuple(
        (
            ROWS[0] + field + seat,
            ROWS[1] + field + ((seat - 1) & 3),
            ROWS[2] + field + ((seat - 2) & 3),
            ROWS[3] + field + ((seat - 3) & 3),
        )
        for seat in range(4)
    )


def absolute_positions(field: int, size: int) -> tuple[tuple[int, int, int, int], ...]:
    """For each value: its byte in an absolute one-hot field, in each row."""
    return tuple(
        (ROWS[0] + field + k, ROWS[1] + field + k, ROWS[2] + field + k, ROWS[3] + field + k)
        for k in range(size)
    )


TO_MOVE_AT: Final = seat_positions(TO_MOVE)
# A card played within a trick, by seat and card: the bytes that become 1 (the card in
# "played" and "trick", the next seat in "to_move") and 0 (the card in the hand, the seat
# in "to_move").
WITHIN_ONES: Final = tuple(
    tuple(
        PLAYED_AT[seat][card] + TRICK_AT[seat][card] + TO_MOVE_AT[(seat + 1) & 3]
        for card in range(36)
    )
    for seat in range(4)
)
WITHIN_ZEROS: Final = tuple(
    tuple(HAND_AT[seat][card] + TO_MOVE_AT[seat] for card in range(36)) for seat in range(4)
)
# The one-hot inputs that change in the play: for each value, its byte in each row.
ONE_HOT_FIELDS: Final = (
    (D_TO_MOVE, TO_MOVE_AT),
    (D_LEADER, seat_positions(LEADER)),
    (D_WEIS_WINNER, seat_positions(WEIS_WINNER)),
    (D_STOECK, seat_positions(STOECK)),
    (D_PHASE, absolute_positions(PHASE, 4)),
    (D_TRICK_NUMBER, absolute_positions(TRICK_NUMBER, 9)),
)
DECLARED_AT: Final = seat_positions(DECLARED)
# For each absolute seat: where its 9 bits of Weis points start, in each row.
WEIS_POINTS_AT: Final = tuple(
    tuple(ROWS[viewer] + WEIS_POINTS + 9 * ((seat - viewer) & 3) for viewer in range(4))
    for seat in range(4)
)


def write_changed(buf: bytearray, table: Positions, old: list[int], new: list[int]) -> None:
    """Rewrite, in the rows, the cards of each seat whose mask changed."""
    for seat in range(4):
        before, after = old[seat], new[seat]
        if before == after:
            continue
        changed = before ^ after
        if changed.bit_count() <= 3:
            by_card = table[seat]
            while changed:
                low = changed & -changed
                value = 1 if after & low else 0
                for at in by_card[low.bit_length() - 1]:
                    buf[at] = value
                changed ^= low
        else:
            cards = card_bytes(after)
            for at in table[seat][0]:  # card 0's byte starts the seat's 36
                buf[at : at + 36] = cards


def write_teams(buf: bytearray, field: int, by_team: tuple[bytes, bytes]) -> None:
    """Write a per-team field into the rows: seats 0 and 2 see team 0 first."""
    own0, own1 = by_team
    size = len(own0)
    buf[field : field + size] = own0
    buf[ROWS[1] + field : ROWS[1] + field + size] = own1
    buf[ROWS[2] + field : ROWS[2] + field + size] = own0
    buf[ROWS[3] + field : ROWS[3] + field + size] = own1
