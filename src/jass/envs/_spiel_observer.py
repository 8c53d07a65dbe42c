"""The observers of the OpenSpiel game: observation and information-state tensors and strings.

OpenSpiel asks a Python game for an observer object with a flat float32 ``tensor``, named
views of it in ``dict`` (in order, covering it), ``set_from(state, player)`` and
``string_from(state, player)``; the tensors keep one size at every state, the deal
included. The observation is the public encoding of the player's view,
:func:`jass.envs.encode`; the information state adds what a player remembers (perfect
recall), per hand of the episode:

- ``dealt``: the cards dealt to the player (so far, during the deal), 36 bits;
- ``moves``: every decision in order, one slot each, the action number one-hot (48) and the
  seat that took it relative to the player (4: the player, the next seat, the partner, the
  seat before);
- ``view``: the encoding of the player's view as the hand ended (or now), which holds what the
  game revealed: Weis points, shown Weis, Stöck, scores.

and, once, ``seat``: the player's seat, one-hot.

>>> from jass import rules
>>> from jass.envs._spiel_record import SpielSetup
>>> observer = SpielObserver(SpielSetup.of(rules.SCHIEBER, "hand", 3), perfect_recall=True)
>>> list(observer.dict)
['seat', 'dealt', 'moves', 'view']
"""

from __future__ import annotations

from typing import Any, Final, Protocol

import numpy as np

from jass.engine.actions import NUM_ACTIONS
from jass.envs._spiel_record import (
    CARDS_PER_DEAL,
    HandRecord,
    SpielSetup,
    info_text,
    observation_text,
)
from jass.envs.encoding import FIELDS, OBSERVATION_SIZE

__all__ = ["SpielObserver", "observation_pieces"]

#: The width of one move slot: the action one-hot, then the relative seat one-hot.
MOVE_WIDTH: Final = NUM_ACTIONS + 4


#: Cached blocks per observer: a whole game's records for a few states.
_CACHE_SIZE: Final = 512
#: A record, the player's dealt cards, the move slots, actions and relative seats, the view.
_Block = tuple[
    HandRecord,
    "np.ndarray[Any, Any]",
    "np.ndarray[Any, Any]",
    "np.ndarray[Any, Any]",
    "np.ndarray[Any, Any]",
    "np.ndarray[Any, Any]",
]


class _Recorded(Protocol):
    """What the observers read from a state: its hands so far (see ``JassState.records``)."""

    def records(self) -> tuple[HandRecord, ...]: ...


def observation_pieces() -> list[tuple[str, slice]]:
    """The named pieces of the observation tensor: the encoding's fields, in order.

    Gaps between fields (if any) become pieces of their own, so that the pieces cover the
    tensor, as OpenSpiel's copy of ``dict`` requires.

    >>> pieces = observation_pieces()
    >>> pieces[0][1].start, pieces[-1][1].stop == OBSERVATION_SIZE
    (0, True)
    """
    pieces: list[tuple[str, slice]] = []
    at = 0
    for name, field in sorted(FIELDS.items(), key=lambda item: item[1].start or 0):
        start = field.start or 0
        stop = field.stop if field.stop is not None else OBSERVATION_SIZE
        if start < at:  # overlapping fields cannot be copied piece by piece
            return [("observation", slice(0, OBSERVATION_SIZE))]
        if start > at:
            pieces.append((f"unused_{at}", slice(at, start)))
        pieces.append((name, slice(start, stop)))
        at = stop
    if at < OBSERVATION_SIZE:
        pieces.append((f"unused_{at}", slice(at, OBSERVATION_SIZE)))
    return pieces


class SpielObserver:
    """An OpenSpiel observer of the Jass game: the observation, or the information state.

    Attributes:
        tensor: the flat float32 tensor, rewritten by :meth:`set_from`.
        dict: named views of ``tensor``, in order.

    >>> from jass import rules
    >>> from jass.envs._spiel_record import SpielSetup
    >>> observer = SpielObserver(SpielSetup.of(rules.SCHIEBER, "hand", 3), perfect_recall=False)
    >>> observer.tensor.shape == (OBSERVATION_SIZE,)
    True
    """

    def __init__(self, setup: SpielSetup, *, perfect_recall: bool) -> None:
        self._recall = perfect_recall
        self._slots = CARDS_PER_DEAL + setup.choices
        self._cache: dict[tuple[int, int], _Block] = {}
        hands = setup.hands
        if perfect_recall:
            shapes: list[tuple[str, tuple[int, ...]]] = [
                ("seat", (4,)),
                ("dealt", (hands, CARDS_PER_DEAL)),
                ("moves", (hands, self._slots, MOVE_WIDTH)),
                ("view", (hands, OBSERVATION_SIZE)),
            ]
            size = sum(int(np.prod(shape)) for _, shape in shapes)
            self.tensor = np.zeros(size, np.float32)
            self.dict: dict[str, Any] = {}
            at = 0
            for name, shape in shapes:
                count = int(np.prod(shape))
                self.dict[name] = self.tensor[at : at + count].reshape(shape)
                at += count
        else:
            self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
            self.dict = {name: self.tensor[piece] for name, piece in observation_pieces()}

    def _block(self, record: HandRecord, player: int) -> _Block:
        """What ``player`` observed of ``record``, as indexes and the encoding (cached)."""
        key = (id(record), player)
        block = self._cache.get(key)
        if block is not None and block[0] is record:  # the record itself keeps its id taken
            return block
        if len(self._cache) >= _CACHE_SIZE:
            self._cache.clear()
        moves = np.array(record.moves, dtype=np.intp).reshape(-1, 2)
        block = (
            record,
            np.array(list(record.received(player)), dtype=np.intp),
            np.arange(len(moves)),
            moves[:, 1],
            NUM_ACTIONS + ((moves[:, 0] - player) & 3),
            record.encoding(player),
        )
        self._cache[key] = block
        return block

    def set_from(self, state: _Recorded, player: int) -> None:
        """Write what ``player`` observes in ``state`` into :attr:`tensor`.

        >>> from jass import rules
        >>> from jass.envs._spiel_record import SpielSetup
        >>> setup = SpielSetup.of(rules.SCHIEBER, "hand", 3)
        >>> class Before:  # a state before the deal: one record
        ...     def records(self):
        ...         return (HandRecord.start(setup.start, 3),)
        >>> observer = SpielObserver(setup, perfect_recall=True)
        >>> observer.set_from(Before(), 2)
        >>> observer.dict["seat"].tolist()
        [0.0, 0.0, 1.0, 0.0]
        """
        records = state.records()
        if not self._recall:
            np.copyto(self.tensor, records[-1].encoding(player))
            return
        self.tensor.fill(0)
        views = self.dict
        views["seat"][player] = 1
        for number, record in enumerate(records):
            _, cards, slots, actions, seats, encoded = self._block(record, player)
            views["dealt"][number, cards] = 1
            moves = views["moves"][number]
            moves[slots, actions] = 1
            moves[slots, seats] = 1
            np.copyto(views["view"][number], encoded)

    def string_from(self, state: _Recorded, player: int) -> str:
        """What ``player`` observes in ``state``, in words.

        >>> from jass import rules
        >>> from jass.envs._spiel_record import SpielSetup
        >>> setup = SpielSetup.of(rules.SCHIEBER, "hand", 3)
        >>> class Before:  # a state before the deal: one record
        ...     def records(self):
        ...         return (HandRecord.start(setup.start, 3),)
        >>> print(SpielObserver(setup, perfect_recall=True).string_from(Before(), 1))
        seat 1
        hand 0; dealer S3; dealing 0/36; received -
        """
        records = state.records()
        if self._recall:
            return info_text(records, player)
        return observation_text(records[-1], player)
