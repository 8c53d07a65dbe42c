"""The versioned observation encoding ``jass-obs-v1``: what one seat may know, as int8 0/1 bits.

:func:`encode` turns a :class:`~jass.PlayerView` into a vector of :data:`OBSERVATION_SIZE`
int8 values, each 0 or 1; :data:`FIELDS` names its parts, in order. Everything is relative
to the viewing seat: relative seat ``r = (seat - viewer) % 4`` is 0 for the viewer, 1 for the
next player in playing order, 2 for the partner and 3 for the previous player, and the
viewer's team comes first wherever there is one value per team. The docs page "Reinforcement
learning" writes the encoding down field by field, and ``tests/fixtures/encoding_v1.json``
pairs game records with their encodings, for other implementations to check against.

:func:`action_mask` gives the legal actions as an int8 mask over
:data:`~jass.actions.NUM_ACTIONS`, and :class:`Encoder` keeps the four seats' encodings of a
game up to date step by step, writing only the bits that change.

>>> import jass
>>> g = jass.Game.new(seed=7).deal().choose("hearts")
>>> obs = encode(g.view(g.to_move))
>>> obs.dtype.name, obs.shape == (OBSERVATION_SIZE,), int(obs[FIELDS["hand"]].sum())
('int8', True, 9)
>>> [int(i) for i in action_mask(g).nonzero()[0]] == [a.index for a in g.legal_actions()]
True
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from jass.actions import NUM_ACTIONS
from jass.cards import Card
from jass.errors import InvalidInputError
from jass.hand import HandInfo, Phase
from jass.seats import Seat
from jass.state import Game
from jass.view import PlayerView, excluded_cards

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["ENCODING", "FIELDS", "OBSERVATION_SIZE", "Encoder", "action_mask", "encode"]

#: The name of this encoding; the version is part of it.
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

_HAND: Final = FIELDS["hand"].start
_PLAYED: Final = FIELDS["played"].start
_TRICK: Final = FIELDS["trick"].start
_KNOWN: Final = FIELDS["known"].start
_EXCLUDED: Final = FIELDS["excluded"].start
_CONTRACT: Final = FIELDS["contract"].start
_MULTIPLIER: Final = FIELDS["multiplier"].start
_CHOOSER: Final = FIELDS["chooser"].start
_SHOVES: Final = FIELDS["shoves"].start
_TO_MOVE: Final = FIELDS["to_move"].start
_LEADER: Final = FIELDS["leader"].start
_DEALER: Final = FIELDS["dealer"].start
_PHASE: Final = FIELDS["phase"].start
_TRICK_NUMBER: Final = FIELDS["trick_number"].start
_DECLARED: Final = FIELDS["declared"].start
_WEIS_POINTS: Final = FIELDS["weis_points"].start
_WEIS_WINNER: Final = FIELDS["weis_winner"].start
_STOECK: Final = FIELDS["stoeck"].start
_HAND_POINTS: Final = FIELDS["hand_points"].start
_SCORES: Final = FIELDS["scores"].start
_HAND_NUMBER: Final = FIELDS["hand_number"].start

_PHASES: Final = tuple(Phase)
_PLAY: Final = Phase.PLAY
_SEATS: Final = tuple(Seat)


# --- bytes tables: a field is written with one or a few slice assignments ------------------


def _binary_table(width: int) -> tuple[bytes, ...]:
    """For each value below ``2**width``: its bits, least significant first, as bytes."""
    return tuple(bytes((value >> k) & 1 for k in range(width)) for value in range(1 << width))


_BITS12: Final = _binary_table(12)  # 12 cards at a time
_BIN6: Final = _binary_table(6)
_BIN8: Final = _binary_table(8)
_BIN9: Final = _binary_table(9)
_BIN13: Final = _binary_table(13)
_ZERO4: Final = bytes(4)
_ONE_HOT4: Final = tuple(bytes(int(i == k) for i in range(4)) for k in range(4))
_ONE_HOT7: Final = tuple(bytes(int(i == k) for i in range(7)) for k in range(7))
_ONE_HOT9: Final = tuple(bytes(int(i == k) for i in range(9)) for k in range(9))
_ZERO7: Final = bytes(7)
_ZERO9: Final = bytes(9)
_SHOVE_BITS: Final = (b"\x00\x00", b"\x01\x00", b"\x01\x01")


def _card_bytes(mask: int) -> bytes:
    """The 36 cards of ``mask`` as 36 bytes of 0 or 1, card 0 first."""
    return _BITS12[mask & 0xFFF] + _BITS12[(mask >> 12) & 0xFFF] + _BITS12[mask >> 24]


# --- the inputs of an encoding, in the absolute frame (seats 0-3, teams 0-1) --------------

# The scalar inputs, by position in the tuple that _scalars and _view_scalars return.
_S_CONTRACT: Final = 0  # Contract.index, or -1
_S_MULTIPLIER: Final = 1  # 0 without a contract
_S_CHOOSER: Final = 2  # seat or -1
_S_SHOVES: Final = 3
_S_TO_MOVE: Final = 4  # seat or -1
_S_LEADER: Final = 5  # seat or -1
_S_DEALER: Final = 6  # seat or -1
_S_PHASE: Final = 7  # index into Phase
_S_TRICK_NUMBER: Final = 8  # completed tricks in the play phase, else -1
_S_DECLARED: Final = 9  # per seat: declared Weis points (summed), or -1 before it declares
_S_WEIS_WINNER: Final = 10  # seat or -1
_S_STOECK: Final = 11  # seat or -1
_S_HAND_POINTS: Final = 12  # by team
_S_SCORES: Final = 13  # by team
_S_HAND_NUMBER: Final = 14
_NUM_SCALARS: Final = 15

Scalars = tuple[Any, ...]
Masks = tuple[int, int, int, int]


def _seat_or_none(seat: Seat | None) -> int:
    return -1 if seat is None else int(seat)


def _declared_sums(declared: tuple[tuple[int, ...] | None, ...]) -> tuple[int, ...]:
    return tuple(-1 if points is None else sum(points) for points in declared)


def _view_scalars(view: PlayerView) -> Scalars:
    """The scalar inputs of ``view``'s encoding."""
    contract = view.contract
    phase = view.phase
    trick_number = -1
    if phase is _PLAY:
        trick_number = (len(view.plays) - len(view.trick)) // 4
    hand_number = view.hand_number
    return (
        -1 if contract is None else contract.index,
        0 if contract is None else view.ruleset.multiplier(contract),
        _seat_or_none(view.chooser),
        view.shoves,
        _seat_or_none(view.to_move),
        _seat_or_none(view.trick_leader),
        _seat_or_none(view.dealer),
        _PHASES.index(phase),
        trick_number,
        _declared_sums(view.declared_points),
        _seat_or_none(view.weis_winner),
        _seat_or_none(view.stoeck),
        view.hand_points,
        view.scores,
        0 if hand_number is None else hand_number,
    )


def _trick_masks(trick: tuple[Card, ...], leader: Seat | None) -> Masks:
    """The current trick's card of each seat, as masks by seat."""
    masks = [0, 0, 0, 0]
    if leader is not None:
        for index, card in enumerate(trick):
            masks[(leader + index) & 3] |= 1 << card
    return masks[0], masks[1], masks[2], masks[3]


def _as_masks(sets: Any) -> Masks:
    return int(sets[0]), int(sets[1]), int(sets[2]), int(sets[3])


# --- writing one seat's vector --------------------------------------------------------------


def _write_scalar(buf: bytearray, base: int, viewer: int, which: int, value: Any) -> None:
    """Write the field of scalar input ``which`` for ``viewer`` at ``buf[base:]``."""
    if which == _S_CONTRACT:
        buf[base + _CONTRACT : base + _CONTRACT + 7] = _ZERO7 if value < 0 else _ONE_HOT7[value]
    elif which == _S_MULTIPLIER:
        at = base + _MULTIPLIER
        buf[at : at + 4] = _ZERO4 if value <= 0 else _ONE_HOT4[min(value, 4) - 1]
    elif which == _S_SHOVES:
        buf[base + _SHOVES : base + _SHOVES + 2] = _SHOVE_BITS[min(value, 2)]
    elif which == _S_PHASE:
        buf[base + _PHASE : base + _PHASE + 4] = _ONE_HOT4[value]
    elif which == _S_TRICK_NUMBER:
        at = base + _TRICK_NUMBER
        buf[at : at + 9] = _ZERO9 if value < 0 else _ONE_HOT9[min(value, 8)]
    elif which == _S_DECLARED:
        at = base + _DECLARED
        buf[at : at + 4] = bytes(int(value[(viewer + r) & 3] >= 0) for r in range(4))
        at = base + _WEIS_POINTS
        buf[at : at + 36] = b"".join(
            _BIN9[min(max(value[(viewer + r) & 3], 0), 511)] for r in range(4)
        )
    elif which == _S_HAND_POINTS:
        own = viewer & 1
        at = base + _HAND_POINTS
        buf[at : at + 16] = _BIN8[min(value[own], 255)] + _BIN8[min(value[1 - own], 255)]
    elif which == _S_SCORES:
        own = viewer & 1
        at = base + _SCORES
        buf[at : at + 26] = _BIN13[min(value[own], 8191)] + _BIN13[min(value[1 - own], 8191)]
    elif which == _S_HAND_NUMBER:
        buf[base + _HAND_NUMBER : base + _HAND_NUMBER + 6] = _BIN6[min(value, 63)]
    else:  # a relative seat, one-hot
        at = base + _SEAT_FIELD[which]
        buf[at : at + 4] = _ZERO4 if value < 0 else _ONE_HOT4[(value - viewer) & 3]


_SEAT_FIELD: Final = {
    _S_CHOOSER: _CHOOSER,
    _S_TO_MOVE: _TO_MOVE,
    _S_LEADER: _LEADER,
    _S_DEALER: _DEALER,
    _S_WEIS_WINNER: _WEIS_WINNER,
    _S_STOECK: _STOECK,
}


def _write_all(
    buf: bytearray,
    base: int,
    viewer: int,
    hand: int,
    played: Masks,
    trick: Masks,
    known: Masks,
    excluded: Masks,
    scalars: Scalars,
) -> None:
    """Write every field of ``viewer``'s vector at ``buf[base:]`` (inputs by absolute seat)."""
    buf[base + _HAND : base + _HAND + 36] = _card_bytes(hand)
    for r in range(4):
        seat = (viewer + r) & 3
        at = base + _PLAYED + 36 * r
        buf[at : at + 36] = _card_bytes(played[seat])
        at = base + _TRICK + 36 * r
        buf[at : at + 36] = _card_bytes(trick[seat])
        if r:
            at = base + _KNOWN + 36 * (r - 1)
            buf[at : at + 36] = _card_bytes(known[seat])
            at = base + _EXCLUDED + 36 * (r - 1)
            buf[at : at + 36] = _card_bytes(excluded[seat])
    for which in range(_NUM_SCALARS):
        _write_scalar(buf, base, viewer, which, scalars[which])


# --- the public encoder ---------------------------------------------------------------------


def _check_out(out: object, size: int, name: str) -> npt.NDArray[np.int8]:
    if not isinstance(out, np.ndarray):
        raise InvalidInputError(f"{name} must be a numpy array, got {type(out).__name__}")
    if out.dtype != np.int8 or out.shape != (size,):
        raise InvalidInputError(
            f"{name} must be an int8 array of shape ({size},), got {out.dtype} of shape {out.shape}"
        )
    return out


def encode(view: PlayerView, out: npt.NDArray[np.int8] | None = None) -> npt.NDArray[np.int8]:
    """The ``jass-obs-v1`` encoding of what ``view``'s seat may know: int8 0/1 bits.

    Writes into ``out`` (an int8 array of shape ``(OBSERVATION_SIZE,)``) and returns it, or
    returns a new array. The same view always gives the same vector, and two games that
    differ only in what the seat may not know give equal vectors.

    >>> import jass
    >>> g = jass.Game.new(seed=7).deal()
    >>> v = g.view(g.to_move)
    >>> obs = encode(v)
    >>> obs[FIELDS["to_move"]].tolist(), obs[FIELDS["phase"]].tolist()
    ([1, 0, 0, 0], [0, 1, 0, 0])
    >>> out = np.zeros(OBSERVATION_SIZE, dtype=np.int8)
    >>> encode(v, out) is out, bool((out == obs).all())
    (True, True)
    >>> encode(v, np.zeros(3, dtype=np.int8))
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: out must be an int8 array of shape (678,), got int8 of shape (3,)
    """
    if not isinstance(view, PlayerView):
        raise InvalidInputError(f"encode needs a PlayerView, got {type(view).__name__}")
    if out is not None:
        _check_out(out, OBSERVATION_SIZE, "out")
    viewer = int(view.seat)
    played = [0, 0, 0, 0]
    for player, card in view.plays:
        played[player] |= 1 << card
    known = [0, 0, 0, 0]
    for seat in range(4):
        if seat != viewer:
            known[seat] = int(view.known_cards(seat))
    buf = bytearray(OBSERVATION_SIZE)
    _write_all(
        buf,
        0,
        viewer,
        int(view.hand),
        (played[0], played[1], played[2], played[3]),
        _trick_masks(view.trick, view.trick_leader),
        (known[0], known[1], known[2], known[3]),
        _as_masks(view.excluded),
        _view_scalars(view),
    )
    vector = np.frombuffer(buf, dtype=np.int8)
    if out is None:
        return vector
    out[:] = vector
    return out


# --- the action mask ------------------------------------------------------------------------

_THANK_BASE: Final = 44


def action_mask(
    view_or_game: PlayerView | Game, out: npt.NDArray[np.int8] | None = None
) -> npt.NDArray[np.int8]:
    """An int8 mask over :data:`~jass.actions.NUM_ACTIONS`: 1 for each legal action's index.

    For a :class:`~jass.Game`, the actions of the seat to move; for a view, those of its seat
    (all zeros when it is not to move). :class:`~jass.DeclareWeis` has no index and no bit.
    Writes into ``out`` (int8, shape ``(NUM_ACTIONS,)``) and returns it, or a new array.

    >>> import jass
    >>> g = jass.Game.new(jass.rules.TOURNAMENT_12, seed=1).deal()
    >>> action_mask(g).nonzero()[0].tolist()
    [36, 37, 38, 39, 40, 41, 43]
    >>> int(action_mask(g.view(g.to_move.next)).sum())
    0
    """
    if isinstance(view_or_game, PlayerView):
        game_to_move = view_or_game.to_move
        if game_to_move is None or game_to_move != view_or_game.seat:
            mask = _fresh(out)
            mask.fill(0)
            return mask
        phase = view_or_game.phase
        legal: Any = view_or_game
    elif isinstance(view_or_game, Game):
        game_to_move = view_or_game.to_move
        phase = view_or_game.phase
        legal = view_or_game
    else:
        raise InvalidInputError(
            f"action_mask needs a PlayerView or a Game, got {type(view_or_game).__name__}"
        )
    mask = _fresh(out)
    mask.fill(0)
    if game_to_move is None:
        return mask
    if phase is _PLAY:
        moves = int(legal.legal_moves())
        mask[:36] = np.frombuffer(_card_bytes(moves), dtype=np.int8)
        team = game_to_move & 1
        if isinstance(legal, PlayerView):
            if legal.can_thank():
                mask[_THANK_BASE + team] = 1
        elif legal.can_thank(team):
            mask[_THANK_BASE + team] = 1
        return mask
    for action in legal.legal_actions():
        index = getattr(action, "index", None)
        if index is not None:
            mask[index] = 1
    return mask


def _fresh(out: npt.NDArray[np.int8] | None) -> npt.NDArray[np.int8]:
    if out is None:
        return np.zeros(NUM_ACTIONS, dtype=np.int8)
    return _check_out(out, NUM_ACTIONS, "out")


# --- the incremental encoder ----------------------------------------------------------------


def _game_scalars(game: Game) -> Scalars:
    """The scalar inputs of every seat's encoding of ``game`` (the same as a view's)."""
    hand = game.hand_info
    contract = game.contract
    phase = game.phase
    weis = game.weis_result
    trick_number = -1
    if phase is _PLAY:
        won = game.tricks_won
        trick_number = won[0] + won[1]
    return (
        -1 if contract is None else contract.index,
        0 if contract is None else game.ruleset.multiplier(contract),
        -1 if hand is None or hand.chooser is None else int(hand.chooser),
        0 if hand is None else hand.shoves,
        _seat_or_none(game.to_move),
        _seat_or_none(game.trick_leader),
        -1 if hand is None else int(hand.dealer),
        _PHASES.index(phase),
        trick_number,
        _declared_sums(
            tuple(
                None if declared is None else tuple(w.points for w in declared)
                for declared in game.declared_weis
            )
        ),
        -1 if weis is None or weis.winner is None else int(weis.winner),
        _seat_or_none(game.stoeck),
        game.hand_points,
        game.scores,
        0 if hand is None else hand.number,
    )


def _known_masks(game: Game) -> Masks:
    """The unplayed cards each seat is known to hold (as :meth:`PlayerView.known_cards`)."""
    view = game.view(0)
    return (
        int(game.view(1).known_cards(0)),
        int(view.known_cards(1)),
        int(view.known_cards(2)),
        int(view.known_cards(3)),
    )


class Encoder:
    """The four seats' encodings of a game, kept up to date step by step.

    ``Encoder(game)`` encodes all four seats of ``game``; after each transition,
    ``update(new_game)`` rewrites only the bits that changed (a card play changes a few);
    ``observation(seat)`` is that seat's buffer, which the next update overwrites, so copy it
    to keep it. It always equals ``encode(game.view(seat))``.

    >>> import jass
    >>> g = jass.Game.new(seed=3).deal()
    >>> enc = Encoder(g)
    >>> g = g.choose("obenabe")
    >>> g = g.play(g.legal_moves().cards()[0])
    >>> enc.update(g)
    >>> all((enc.observation(s) == encode(g.view(s))).all() for s in range(4))
    True
    """

    __slots__ = (
        "_array",
        "_buf",
        "_excluded",
        "_game",
        "_hands",
        "_info",
        "_known",
        "_known_key",
        "_played",
        "_plays",
        "_rows",
        "_scalars",
        "_trick",
    )

    _buf: bytearray
    _array: npt.NDArray[np.int8]
    _rows: tuple[npt.NDArray[np.int8], ...]
    _game: Game
    _info: HandInfo | None
    _plays: tuple[tuple[Seat, Card], ...]
    _hands: Masks
    _played: Masks
    _trick: Masks
    _known_key: tuple[Any, ...]
    _known: Masks
    _excluded: Masks
    _scalars: Scalars

    def __init__(self, game: Game) -> None:
        """Encode the four seats of ``game``."""
        self._buf = bytearray(4 * OBSERVATION_SIZE)
        self._array = np.frombuffer(self._buf, dtype=np.int8).reshape(4, OBSERVATION_SIZE)
        self._rows = tuple(self._array[seat] for seat in range(4))
        self.reset(game)

    def reset(self, game: Game) -> None:
        """Encode the four seats of ``game`` from scratch (for a new game).

        >>> import jass
        >>> enc = Encoder(jass.Game.new(seed=1))
        >>> g = jass.Game.new(seed=2).deal()
        >>> enc.reset(g)
        >>> bool((enc.observation(1) == encode(g.view(1))).all())
        True
        """
        if not isinstance(game, Game):
            raise InvalidInputError(f"an Encoder needs a Game, got {type(game).__name__}")
        self._game = game
        self._info = game.hand_info
        self._plays = game.plays
        self._hands = _as_masks(game.hands)
        self._played = self._played_masks(game)
        self._trick = _trick_masks(game.trick, game.trick_leader)
        self._known_key = self._key_of_known(game)
        self._known = _known_masks(game)
        self._excluded = _as_masks(game.view(0).excluded)
        self._scalars = _game_scalars(game)
        buf = self._buf
        for seat in range(4):
            _write_all(
                buf,
                seat * OBSERVATION_SIZE,
                seat,
                self._hands[seat],
                self._played,
                self._trick,
                self._known,
                self._excluded,
                self._scalars,
            )

    @staticmethod
    def _played_masks(game: Game) -> Masks:
        hand = game.hand_info
        if hand is None:
            return (0, 0, 0, 0)
        dealt = hand.dealt
        held = game.hands
        return (
            int(dealt[0]) & ~int(held[0]),
            int(dealt[1]) & ~int(held[1]),
            int(dealt[2]) & ~int(held[2]),
            int(dealt[3]) & ~int(held[3]),
        )

    @staticmethod
    def _key_of_known(game: Game) -> tuple[Any, ...]:
        # What the known cards depend on, besides the cards played.
        return (game.hand_info, game.weis_result, game.stoeck, game.ruleset)

    def update(self, game: Game) -> None:
        """Bring the four encodings up to ``game`` (normally the successor of the last one).

        Any game is accepted: what changed is found by comparing, so an unrelated game is
        simply encoded afresh (if more slowly).

        >>> import jass
        >>> g = jass.Game.new(seed=3).deal()
        >>> enc = Encoder(g)
        >>> g = g.shove()
        >>> enc.update(g)
        >>> enc.observation(g.to_move)[FIELDS["shoves"]].tolist()
        [1, 0]
        """
        old = self._game
        if game is old:
            return
        if not isinstance(game, Game):
            raise InvalidInputError(f"an Encoder needs a Game, got {type(game).__name__}")
        buf = self._buf
        info = game.hand_info
        plays = game.plays
        # The hands: one seat's changes on a card play, all on a deal.
        hands = _as_masks(game.hands)
        old_hands = self._hands
        for seat in range(4):
            if hands[seat] != old_hands[seat]:
                self._write_cards(buf, seat, _HAND, hands[seat], old_hands[seat], own=True)
        self._hands = hands
        # The cards played.
        played = self._played_masks(game)
        old_played = self._played
        for seat in range(4):
            if played[seat] != old_played[seat]:
                self._write_cards(buf, seat, _PLAYED, played[seat], old_played[seat])
        self._played = played
        trick = _trick_masks(game.trick, game.trick_leader)
        old_trick = self._trick
        for seat in range(4):
            if trick[seat] != old_trick[seat]:
                self._write_cards(buf, seat, _TRICK, trick[seat], old_trick[seat])
        self._trick = trick
        # Known cards: recomputed when what they depend on changed, else fewer by the played.
        key = self._key_of_known(game)
        old_known = self._known
        all_played = played[0] | played[1] | played[2] | played[3]
        old_all = old_played[0] | old_played[1] | old_played[2] | old_played[3]
        if key != self._known_key or old_all & ~all_played:
            known = _known_masks(game)
            self._known_key = key
        else:
            known = (
                old_known[0] & ~all_played,
                old_known[1] & ~all_played,
                old_known[2] & ~all_played,
                old_known[3] & ~all_played,
            )
        for seat in range(4):
            if known[seat] != old_known[seat]:
                self._write_cards(buf, seat, _KNOWN, known[seat], old_known[seat], others=True)
        self._known = known
        # Excluded cards: one card's news on a card play, else the whole inference again.
        old_excluded = self._excluded
        old_plays = self._plays
        count = len(old_plays)
        if (
            info is self._info
            and info is not None
            and game.ruleset is old.ruleset
            and len(plays) == count + 1
            and plays[:count] == old_plays
        ):
            excluded = self._excluded_after(game, plays, old_excluded)
        elif info is self._info and plays == old_plays and game.ruleset is old.ruleset:
            excluded = old_excluded
        else:
            excluded = _as_masks(game.view(0).excluded)
        for seat in range(4):
            if excluded[seat] != old_excluded[seat]:
                self._write_cards(
                    buf, seat, _EXCLUDED, excluded[seat], old_excluded[seat], others=True
                )
        self._excluded = excluded
        # The scalars.
        scalars = _game_scalars(game)
        old_scalars = self._scalars
        for which in range(_NUM_SCALARS):
            value = scalars[which]
            if value != old_scalars[which]:
                for viewer in range(4):
                    _write_scalar(buf, viewer * OBSERVATION_SIZE, viewer, which, value)
        self._scalars = scalars
        self._game = game
        self._info = info
        self._plays = plays

    @staticmethod
    def _excluded_after(game: Game, plays: tuple[tuple[Seat, Card], ...], excluded: Masks) -> Masks:
        """The excluded cards after ``plays[-1]``, given those before it."""
        index = len(plays) - 1
        seat, card = plays[index]
        start = index - index % 4
        if index == start or plays[start][1] // 9 == card // 9:
            return excluded  # a lead, or a card of the led suit, tells nothing
        contract = game.contract
        assert contract is not None  # noqa: S101
        unchecked = game.unchecked_plays
        shifted = {i - start for i in unchecked if start <= i <= index} if unchecked else ()
        news = excluded_cards(plays[start:], contract, game.ruleset, unchecked=shifted)[seat]
        if not news:
            return excluded
        masks = list(excluded)
        masks[seat] |= int(news)
        return masks[0], masks[1], masks[2], masks[3]

    def _write_cards(
        self,
        buf: bytearray,
        seat: int,
        field: int,
        new: int,
        old: int,
        *,
        own: bool = False,
        others: bool = False,
    ) -> None:
        """Rewrite seat ``seat``'s cards of a card field in the buffers of the viewers."""
        changed = new ^ old
        few = changed.bit_count() <= 2
        for viewer in (seat,) if own else range(4):
            r = (seat - viewer) & 3
            if own:
                at = viewer * OBSERVATION_SIZE + field
            elif others:
                if not r:
                    continue
                at = viewer * OBSERVATION_SIZE + field + 36 * (r - 1)
            else:
                at = viewer * OBSERVATION_SIZE + field + 36 * r
            if few:
                bits = changed
                while bits:
                    low = bits & -bits
                    card = low.bit_length() - 1
                    buf[at + card] = 1 if new & low else 0
                    bits ^= low
            else:
                buf[at : at + 36] = _card_bytes(new)

    def observation(self, seat: Seat | int) -> npt.NDArray[np.int8]:
        """Seat ``seat``'s encoding: the encoder's own buffer (copy it to keep it).

        >>> import jass
        >>> g = jass.Game.new(seed=4).deal()
        >>> bool((Encoder(g).observation(2) == encode(g.view(2))).all())
        True
        """
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4:
            raise InvalidInputError(f"seat must be a Seat (0-3), got {seat!r}")
        return self._rows[seat]

    @property
    def game(self) -> Game:
        """The game the encodings are of.

        >>> import jass
        >>> g = jass.Game.new(seed=4)
        >>> Encoder(g).game is g
        True
        """
        return self._game
