"""The incremental encoder, :class:`Encoder` (private module; import it from :mod:`.encoding`).

It keeps the inputs of the four seats' encodings (card sets as ints by absolute seat, the
rest as small ints) beside one buffer of four rows, and on each update writes only the bytes
whose input changed. A card play is the common step and has its own path: a few single
bytes, and at the end of a trick the fields the trick's end changes.

>>> import jass
>>> Encoder(jass.Game.new(seed=1)).observation(0).shape
(678,)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import numpy as np

from jass._budgets import is_int
from jass.core.cards import Card
from jass.core.ruledata import rule_data
from jass.core.seats import Seat
from jass.core.weis import Weis, WeisResult
from jass.engine.game import Game
from jass.engine.hand import HandInfo
from jass.engine.inference import (
    FULL,
    excluded_cards,
    known_holdings,
    marker_holder,
    play_exclusion,
)
from jass.envs import _layout as lay
from jass.errors import InvalidInputError
from jass.rules import RuleSet

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["Encoder"]

_SIZE: Final = lay.SIZE
_PLAY: Final = lay.PLAY
_DEAL, _CHOOSE = lay.PHASES[:2]
_ROWS: Final = lay.ROWS
_ROW_VIEWERS: Final = ((0, 0), (_SIZE, 1), (2 * _SIZE, 2), (3 * _SIZE, 3))

Plays = tuple[tuple[Seat, Card], ...]

_NOT_DECLARED: Final = (-1, -1, -1, -1)
_WITHIN_ONES: Final = lay.WITHIN_ONES
_WITHIN_ZEROS: Final = lay.WITHIN_ZEROS


def _static(game: Game) -> lay.Static:
    hand = game.hand_info
    if hand is None:
        return (-1, 0, -1, 0, -1, 0)
    contract = hand.contract
    return (
        -1 if contract is None else contract.index,
        0 if contract is None else game.ruleset.multiplier(contract),
        -1 if hand.chooser is None else int(hand.chooser),
        hand.shoves,
        int(hand.dealer),
        hand.number,
    )


def _known_base(game: Game) -> list[int]:
    """The cards each seat is known to hold, played or not (as PlayerView.known_cards)."""
    hand = game.hand_info
    if hand is None:
        return [0, 0, 0, 0]
    ruleset = game.ruleset
    marker = marker_holder(ruleset, hand.number, hand.dealer, game.setup.dealer is not None)
    return known_holdings(game.view(0).shown_weis, game.stoeck, game.contract, marker, ruleset)


def _excluded(game: Game, plays: Plays) -> list[int]:
    contract = game.contract
    if contract is None:
        return [0, 0, 0, 0]
    excluded = excluded_cards(plays, contract, game.ruleset, unchecked=game.unchecked_plays)
    return [int(cards) for cards in excluded]


def _played(game: Game, hands: list[int]) -> list[int]:
    # Every card dealt to a seat and no longer in its hand was played by it.
    hand = game.hand_info
    if hand is None:
        return [0, 0, 0, 0]
    dealt = hand.dealt
    return [int(dealt[seat]) & ~hands[seat] for seat in range(4)]


class Encoder:
    """The four seats' encodings of a game, kept up to date step by step, for environments.

    ``Encoder(game)`` encodes the four seats of ``game`` into one preallocated buffer; after
    each transition, ``update(new_game)`` rewrites only the bytes that changed (a card play
    changes a few); ``observation(seat)`` is that seat's row of the buffer, which the next
    update overwrites, so copy it to keep it. It always equals ``encode(game.view(seat))``.

    >>> import jass
    >>> from jass.envs.encoding import encode
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
        "_declared",
        "_dynamic",
        "_excluded",
        "_game",
        "_hands",
        "_info",
        "_known",
        "_known_base",
        "_known_key",
        "_played",
        "_plays",
        "_rows",
        "_ruleset",
        "_static",
        "_trick",
    )

    _buf: bytearray
    _array: npt.NDArray[np.int8]
    _rows: tuple[npt.NDArray[np.int8], ...]
    _game: Game
    _info: HandInfo | None
    _ruleset: RuleSet
    _plays: Plays
    # The inputs, by absolute seat: each seat's hand, its cards played, its card in the
    # trick, the unplayed cards it is known to hold, and the cards it is known not to hold.
    _hands: list[int]
    _played: list[int]
    _trick: list[int]
    _known: list[int]
    _excluded: list[int]
    _known_key: tuple[WeisResult | None, Seat | None]
    _known_base: list[int]
    _declared: tuple[object, tuple[int, ...]]  # game.declared_weis and its sums
    _static: lay.Static
    _dynamic: list[Any]

    def __init__(self, game: Game) -> None:
        """Encode the four seats of ``game``."""
        self._buf = bytearray(4 * _SIZE)
        self._array = np.frombuffer(self._buf, dtype=np.int8).reshape(4, _SIZE)
        self._rows = tuple(self._array[seat] for seat in range(4))
        self.reset(game)

    def reset(self, game: Game) -> None:
        """Encode the four seats of ``game`` from scratch (for a new game, say).

        >>> import jass
        >>> from jass.envs.encoding import encode
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
        self._ruleset = game.ruleset
        self._plays = plays = game.plays
        self._hands = hands = [int(cards) for cards in game.hands]
        self._played = _played(game, hands)
        self._trick = list(lay.trick_masks(game.trick, game.trick_leader))
        self._known_key = (game.weis_result, game.stoeck)
        self._known_base = _known_base(game)
        self._known = self._known_now()
        self._excluded = _excluded(game, plays)
        self._declared = (None, _NOT_DECLARED)
        self._static = _static(game)
        self._dynamic = self._dynamic_inputs(game)
        buf = self._buf
        card_bytes = lay.card_bytes
        played = [card_bytes(cards) for cards in self._played]
        trick = [card_bytes(cards) for cards in self._trick]
        known = [card_bytes(cards) for cards in self._known]
        excluded = [card_bytes(cards) for cards in self._excluded]
        for seat in range(4):
            base = _ROWS[seat]
            others = ((seat + 1) & 3, (seat + 2) & 3, (seat + 3) & 3)
            buf[base + lay.HAND : base + lay.KNOWN] = b"".join(
                (
                    card_bytes(hands[seat]),
                    played[seat],
                    *(played[other] for other in others),
                    trick[seat],
                    *(trick[other] for other in others),
                )
            )
            buf[base + lay.KNOWN : base + lay.CONTRACT] = b"".join(
                (*(known[other] for other in others), *(excluded[other] for other in others))
            )
            lay.write_static(buf, base, seat, self._static)
        lay.write_dynamic(buf, _ROW_VIEWERS, self._dynamic)

    def __reduce__(self) -> tuple[type[Encoder], tuple[Game]]:
        # Copied or pickled, an encoder encodes its game afresh: its rows are views of its
        # buffer, which a field-by-field copy would tear apart.
        return (Encoder, (self._game,))

    def _known_now(self) -> list[int]:
        played = self._played
        unplayed = ~(played[0] | played[1] | played[2] | played[3])
        return [cards & unplayed for cards in self._known_base]

    def _dynamic_inputs(self, game: Game, *, declared: bool = True) -> list[Any]:
        """The inputs that change in the play (``declared=False``: the Weis declared as before)."""
        phase = game.phase
        trick_number = -1
        if phase is _PLAY:
            won = game.tricks_won
            trick_number = won[0] + won[1]
        if declared:
            weis = game.declared_weis
            cached, sums = self._declared
            if weis is not cached:
                sums = _declared_sums(weis)
                self._declared = (weis, sums)
        else:
            sums = self._dynamic[lay.D_DECLARED]
        result = game.weis_result
        to_move = game.to_move
        leader = game.trick_leader
        stoeck = game.stoeck
        return [
            -1 if to_move is None else int(to_move),
            -1 if leader is None else int(leader),
            2 if phase is _PLAY else 1 if phase is _CHOOSE else 0 if phase is _DEAL else 3,
            trick_number,
            sums,
            -1 if result is None or result.winner is None else int(result.winner),
            -1 if stoeck is None else int(stoeck),
            game.hand_points,
            game.scores,
        ]

    def update(self, game: Game) -> None:
        """Bring the four encodings up to ``game`` (normally the successor of the last one).

        Any game is accepted: what changed is found by comparing, so an unrelated game is
        simply encoded afresh, if more slowly.

        >>> import jass
        >>> from jass.envs.encoding import FIELDS
        >>> g = jass.Game.new(seed=3).deal()
        >>> enc = Encoder(g)
        >>> g = g.shove()
        >>> enc.update(g)
        >>> enc.observation(g.to_move)[FIELDS["shoves"]].tolist()
        [1, 0]
        """
        if game is self._game:
            return
        if not isinstance(game, Game):
            raise InvalidInputError(f"an Encoder needs a Game, got {type(game).__name__}")
        info = game.hand_info
        ruleset = game.ruleset
        same_hand = info is self._info and ruleset is self._ruleset
        plays = game.plays
        old_plays = self._plays
        count = len(old_plays)
        if (
            same_hand
            and info is not None
            and len(plays) == count + 1
            and plays[:count] == old_plays
        ):
            seat, card = plays[count]
            dynamic = self._dynamic
            if (
                (count + 1) & 3
                and game.scores is dynamic[lay.D_SCORES]
                and dynamic[lay.D_TO_MOVE] == seat
            ):
                # Within a trick, with nothing credited (so no Stöck, and the game goes on):
                # the next seat is to move, and only the declared Weis of trick 1 may change.
                self._within_trick(game, plays, seat, card)
            else:
                self._card_played(game, plays)
        else:
            self._changed(game, plays, same_hand=same_hand)
        self._game = game
        self._info = info
        self._ruleset = ruleset
        self._plays = plays

    def _within_trick(self, game: Game, plays: Plays, seat: int, card: int) -> None:
        """Update after a card played within a trick that credited nothing."""
        buf = self._buf
        for at in _WITHIN_ONES[seat][card]:
            buf[at] = 1
        for at in _WITHIN_ZEROS[seat][card]:
            buf[at] = 0
        bit = 1 << card
        self._hands[seat] &= ~bit
        self._played[seat] |= bit
        self._trick[seat] |= bit
        dynamic = self._dynamic
        dynamic[lay.D_TO_MOVE] = (seat + 1) & 3
        known = self._known
        if known[seat] & bit:
            for at in lay.KNOWN_AT[seat][card]:
                buf[at] = 0
            known[seat] &= ~bit
        index = len(plays) - 1
        start = index & ~3
        if index != start and plays[start][1] // 9 != card // 9:
            self._excluded_by(game, plays, start, seat)
        if index < 4:  # trick 1: the player has declared its Weis, if any
            self._declare(game)

    def _declare(self, game: Game) -> None:
        """Update the declared Weis, which change in trick 1 only."""
        weis = game.declared_weis
        if weis is self._declared[0]:
            return
        sums = _declared_sums(weis)
        self._declared = (weis, sums)
        dynamic = self._dynamic
        self._write_declared(dynamic[lay.D_DECLARED], sums)
        dynamic[lay.D_DECLARED] = sums

    def _write_declared(self, old: tuple[int, ...], new: tuple[int, ...]) -> None:
        """Rewrite the ``declared`` flag and ``weis_points`` of each seat whose sum changed."""
        buf = self._buf
        for seat in range(4):
            points = new[seat]
            if points == old[seat]:
                continue
            flag = 1 if points >= 0 else 0
            for at in lay.DECLARED_AT[seat]:
                buf[at] = flag
            chunk = lay.weis_bytes(points)
            for at in lay.WEIS_POINTS_AT[seat]:
                buf[at : at + 9] = chunk

    def _card_played(self, game: Game, plays: Plays) -> None:
        """Update after one card play: a few bytes, more at the end of a trick."""
        buf = self._buf
        count = len(plays)
        seat, card = plays[-1]
        bit = 1 << card
        for at in lay.HAND_AT[seat][card]:
            buf[at] = 0
        self._hands[seat] &= ~bit
        for at in lay.PLAYED_AT[seat][card]:
            buf[at] = 1
        self._played[seat] |= bit
        in_trick = bool(game.trick)
        if in_trick:
            for at in lay.TRICK_AT[seat][card]:
                buf[at] = 1
            self._trick[seat] |= bit
        else:  # the card completed the trick
            for base in _ROWS:
                buf[base + lay.TRICK : base + lay.TRICK + 144] = lay.ZERO144
            self._trick = [0, 0, 0, 0]
        # Known cards: the card left its holder's hand; Weis and Stöck may have been shown.
        result = game.weis_result
        stoeck = game.stoeck
        known = self._known
        if result is not self._known_key[0] or stoeck is not self._known_key[1]:
            self._known_key = (result, stoeck)
            self._known_base = _known_base(game)
            fresh = self._known_now()
            lay.write_changed(buf, lay.KNOWN_AT, known, fresh)
            self._known = fresh
        elif known[seat] & bit:
            for at in lay.KNOWN_AT[seat][card]:
                buf[at] = 0
            known[seat] &= ~bit
        # Excluded cards: only a card that does not follow the led suit tells something.
        start = (count - 1) & ~3
        if count - 1 != start and plays[start][1] // 9 != card // 9:
            self._excluded_by(game, plays, start, seat)
        # After trick 1 the declared Weis no longer change.
        self._update_dynamic(self._dynamic_inputs(game, declared=count <= 4))

    def _excluded_by(self, game: Game, plays: Plays, start: int, seat: int) -> None:
        """Add what the last card, not of the led suit, tells about its player's hand.

        The step :func:`jass.engine.inference.play_exclusion`, which ``excluded_cards`` folds.
        """
        index = len(plays) - 1
        if index in game.unchecked_plays:
            return  # a card another engine allowed tells nothing
        contract = game.contract
        if contract is None:  # pragma: no cover - cards are played under a contract
            return
        data = rule_data(contract, game.ruleset)
        top = FULL  # the trumps that beat every trump played before in the trick
        above = data.above
        for _, before in plays[start + 1 : index]:
            top &= above[before]
        news = play_exclusion(plays[start][1], plays[index][1], top, data)
        old = self._excluded
        if news & ~old[seat]:
            new = list(old)
            new[seat] |= news
            lay.write_changed(self._buf, lay.EXCLUDED_AT, old, new)
            self._excluded = new

    def _changed(self, game: Game, plays: Plays, *, same_hand: bool) -> None:
        """Update after any change: compare every input, rewrite what differs."""
        buf = self._buf
        hands = [int(cards) for cards in game.hands]
        lay.write_changed(buf, lay.HAND_AT, self._hands, hands)
        self._hands = hands
        played = _played(game, hands)
        lay.write_changed(buf, lay.PLAYED_AT, self._played, played)
        self._played = played
        trick = list(lay.trick_masks(game.trick, game.trick_leader))
        lay.write_changed(buf, lay.TRICK_AT, self._trick, trick)
        self._trick = trick
        key = (game.weis_result, game.stoeck)
        if not same_hand or key != self._known_key:
            self._known_key = key
            self._known_base = _known_base(game)
        known = self._known_now()
        lay.write_changed(buf, lay.KNOWN_AT, self._known, known)
        self._known = known
        if not same_hand or plays != self._plays:
            excluded = _excluded(game, plays)
            lay.write_changed(buf, lay.EXCLUDED_AT, self._excluded, excluded)
            self._excluded = excluded
        if not same_hand:
            static = _static(game)
            if static != self._static:
                self._static = static
                for seat in range(4):
                    lay.write_static(buf, _ROWS[seat], seat, static)
        self._update_dynamic(self._dynamic_inputs(game))

    def _update_dynamic(self, dynamic: list[Any]) -> None:
        """Rewrite the fields of the inputs that change in the play, where they changed."""
        old = self._dynamic
        self._dynamic = dynamic
        buf = self._buf
        for which, table in lay.ONE_HOT_FIELDS:
            before, after = old[which], dynamic[which]
            if before != after:
                if before >= 0:
                    for at in table[before]:
                        buf[at] = 0
                if after >= 0:
                    for at in table[after]:
                        buf[at] = 1
        if dynamic[lay.D_DECLARED] != old[lay.D_DECLARED]:
            self._write_declared(old[lay.D_DECLARED], dynamic[lay.D_DECLARED])
        if dynamic[lay.D_HAND_POINTS] != old[lay.D_HAND_POINTS]:
            lay.write_teams(buf, lay.HAND_POINTS, lay.points_bytes(dynamic[lay.D_HAND_POINTS]))
        if dynamic[lay.D_SCORES] != old[lay.D_SCORES]:
            lay.write_teams(buf, lay.SCORES, lay.scores_bytes(dynamic[lay.D_SCORES]))

    def observation(self, seat: Seat | int) -> npt.NDArray[np.int8]:
        """Seat ``seat``'s encoding: a view of the encoder's buffer (copy it to keep it).

        >>> import jass
        >>> from jass.envs.encoding import encode
        >>> g = jass.Game.new(seed=4).deal()
        >>> bool((Encoder(g).observation(2) == encode(g.view(2))).all())
        True
        """
        if seat.__class__ is not Seat and (
            not is_int(seat) or not 0 <= seat < 4
        ):
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


def _declared_sums(declared: tuple[tuple[Weis, ...] | None, ...]) -> tuple[int, ...]:
    sums = []
    for weis in declared:
        if weis is None:
            sums.append(-1)
        else:
            total = 0
            for one in weis:
                total += one.points
            sums.append(total)
    return tuple(sums)
