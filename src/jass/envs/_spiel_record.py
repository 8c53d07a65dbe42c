"""The records behind the OpenSpiel game: its settings, each hand's deal and moves, and texts.

Nothing here imports OpenSpiel. :mod:`jass.envs.openspiel` keeps one :class:`HandRecord` per
hand of the episode (the state of the game when the hand ended, or now), and the observers
and strings are written from those records and the views of their games.

>>> from jass import rules
>>> setup = SpielSetup.of(rules.SCHIEBER, "hand", 3)
>>> record = HandRecord.start(setup.start, dealer=3)
>>> record.recipient(0), record.recipient(3), record.recipient(35)
(0, 1, 3)
"""

from __future__ import annotations

import functools
from typing import Final

import attrs
import numpy as np
import numpy.typing as npt

from jass._budgets import is_int
from jass.core.cards import CardSet
from jass.core.seats import Seat
from jass.engine.actions import NUM_ACTIONS, Choose, Play, Shove, Thank, action_from_index
from jass.engine.game import Game
from jass.engine.view import PlayerView
from jass.envs.encoding import FIELDS, encode
from jass.errors import InvalidInputError
from jass.rules import RuleSet, WeisDeclaration, find_ruleset

__all__ = [
    "CARDS_PER_DEAL",
    "HandRecord",
    "SpielSetup",
    "action_text",
    "info_text",
    "observation_text",
    "state_text",
]

#: Chance nodes per hand: one card at a time, in packets of three (R3.5).
CARDS_PER_DEAL: Final = 36
_EPISODES: Final = ("hand", "game")
_RECORD_FIELDS: Final = ("game", "dealer", "deal", "moves")


@attrs.frozen
class SpielSetup:
    """The settings of one loaded game: the rule set, the episode and the first dealer.

    Attributes:
        ruleset: the rule set played, with Weis declared automatically.
        episode: ``"hand"`` (one hand) or ``"game"`` (every hand of a ``hands=`` rule set).
        dealer: the seat that deals the first hand.
        hands: the number of hands in an episode.
        choices: the most decisions of the choose phase (a choice, a shove, a shove back).
        start: the game before its first deal.

    >>> from jass import rules
    >>> SpielSetup.of(rules.TOURNAMENT_12, "game", 3).hands
    12
    """

    ruleset: RuleSet
    episode: str
    dealer: int
    hands: int
    choices: int
    start: Game

    @classmethod
    def of(cls, ruleset: RuleSet | str, episode: str, dealer: int) -> SpielSetup:
        """Check the game parameters and build the settings; bad ones raise InvalidInputError.

        >>> SpielSetup.of("SCHIEBER", "game", 3)
        Traceback (most recent call last):
        ...
        jass.errors.InvalidInputError: episode='game' needs a rule set with a fixed number ...
        """
        rules = find_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        if not isinstance(rules, RuleSet):
            raise InvalidInputError(f"ruleset must be a preset name or a RuleSet, got {ruleset!r}")
        if rules.weis_declaration is not WeisDeclaration.AUTO:
            rules = rules.evolve(weis_declaration=WeisDeclaration.AUTO)
        if episode not in _EPISODES:
            raise InvalidInputError(f"episode must be 'hand' or 'game', got {episode!r}")
        if episode == "game" and rules.hands is None:
            raise InvalidInputError(
                "episode='game' needs a rule set with a fixed number of hands (hands=), "
                "such as TOURNAMENT_12, so that every episode has a bounded length"
            )
        if not is_int(dealer) or dealer not in range(4):
            raise InvalidInputError(f"dealer must be a seat 0-3, got {dealer!r}")
        hands = 1 if episode == "hand" else rules.hands
        assert hands is not None  # noqa: S101  (checked above)
        choices = 3 if rules.allow_shove_back else 2
        start = Game.new(rules, seed=0, dealer=Seat(dealer))
        return cls(rules, episode, dealer, hands, choices, start)

    def __deepcopy__(self, memo: dict[int, object]) -> SpielSetup:
        return self  # immutable: OpenSpiel's clone deep-copies the state's attributes


@attrs.frozen(slots=False)
class HandRecord:
    """One hand of an episode: the game as it is now (or as the hand ended), its deal and moves.

    Records are immutable; what the strings and tensors derive from one is worked out once.

    Attributes:
        game: the game after the hand's last action so far; before its deal is complete,
            the game before the deal.
        dealer: the seat that deals this hand.
        deal: the cards dealt so far, in the order of the chance nodes.
        moves: the decisions of the hand so far, as (seat, action index) pairs.

    >>> record = HandRecord.start(Game.new(seed=1, dealer=Seat(0)), dealer=0)
    >>> record.dealing, record.recipient(0)
    (True, 1)
    """

    game: Game
    dealer: int
    deal: tuple[int, ...] = ()
    moves: tuple[tuple[int, int], ...] = ()

    @classmethod
    def start(cls, game: Game, dealer: int) -> HandRecord:
        """The record of a hand about to be dealt by ``dealer``.

        >>> HandRecord.start(Game.new(seed=1, dealer=Seat(2)), 2).deal
        ()
        """
        return cls(game, dealer)

    def __deepcopy__(self, memo: dict[int, object]) -> HandRecord:
        return self  # immutable

    @property
    def dealing(self) -> bool:
        """Whether the deal is still going on (a chance node, unless the episode is over).

        >>> HandRecord.start(Game.new(seed=1, dealer=Seat(2)), 2).dealing
        True
        """
        return len(self.deal) < CARDS_PER_DEAL

    def recipient(self, position: int) -> int:
        """The seat that gets the ``position``-th card dealt: packets of three, forehand first.

        >>> record = HandRecord.start(Game.new(seed=1, dealer=Seat(2)), 2)
        >>> [record.recipient(k) for k in (0, 2, 3, 11, 12)]
        [3, 3, 0, 2, 3]
        """
        return (self.dealer + 1 + position // 3) & 3

    @functools.cached_property
    def dealt(self) -> tuple[CardSet, CardSet, CardSet, CardSet]:
        """The cards dealt to each seat so far, by seat.

        >>> record = HandRecord.start(Game.new(seed=1, dealer=Seat(3)), 3)
        >>> [len(h) for h in HandRecord(record.game, 3, tuple(range(36))).dealt]
        [9, 9, 9, 9]
        """
        bits = [0, 0, 0, 0]
        first = self.dealer + 1
        for position, card in enumerate(self.deal):
            bits[(first + position // 3) & 3] |= 1 << card
        return (CardSet(bits[0]), CardSet(bits[1]), CardSet(bits[2]), CardSet(bits[3]))

    def received(self, seat: int) -> CardSet:
        """The cards dealt to ``seat`` so far in this hand.

        >>> record = HandRecord.start(Game.new(seed=1, dealer=Seat(3)), 3)
        >>> str(HandRecord(record.game, 3, (0, 1, 2, 3)).received(0))
        '6S 7S 8S'
        """
        return self.dealt[seat]

    @functools.cached_property
    def moves_text(self) -> str:
        """The decisions of the hand in words, with who made each.

        >>> record = HandRecord.start(Game.new(seed=1, dealer=Seat(3)), 3)
        >>> HandRecord(record.game, 3, (), ((0, 43), (2, 40))).moves_text
        'S0 shove, S2 choose OBENABE'
        """
        return ", ".join(f"S{seat} {_ACTION_TEXTS[action]}" for seat, action in self.moves) or "-"

    @functools.cached_property
    def _info_lines(self) -> dict[int, str]:
        return {}

    @functools.cached_property
    def _encodings(self) -> dict[int, npt.NDArray[np.int8]]:
        return {}

    def __getstate__(self) -> dict[str, object]:
        # Pickle the fields only: what is worked out from them is worked out again.
        return {name: self.__dict__[name] for name in _RECORD_FIELDS}

    def encoding(self, seat: int) -> npt.NDArray[np.int8]:
        """The ``jass-obs-v1`` encoding of ``seat``'s view (read-only, worked out once).

        During the deal it is the view of the game before the deal, with the cards the seat
        has received so far in the ``hand`` field.

        >>> record = HandRecord.start(Game.new(seed=1, dealer=Seat(3)), 3)
        >>> bits = HandRecord(record.game, 3, (0, 1, 2, 3)).encoding(0)
        >>> bits[FIELDS["hand"]].nonzero()[0].tolist()
        [0, 1, 2]
        """
        encodings = self._encodings
        bits = encodings.get(seat)
        if bits is None:
            if self.dealing:
                bits = _before_the_deal(self.game, seat).copy()
                bits[FIELDS["hand"]][list(self.dealt[seat])] = 1
            else:
                bits = encode(self.game.view(seat))
            bits.flags.writeable = False
            encodings[seat] = bits
        return bits

    def info_line(self, number: int, seat: int) -> str:
        """What ``seat`` observed of this hand (the ``number``-th of the episode), in words.

        >>> record = HandRecord.start(Game.new(seed=1, dealer=Seat(3)), 3)
        >>> HandRecord(record.game, 3, (0, 1, 2, 3)).info_line(0, 0)
        'hand 0; dealer S3; dealing 4/36; received 6S 7S 8S'
        """
        lines = self._info_lines
        line = lines.get(seat)
        if line is None:
            head = f"hand {number}; dealer S{self.dealer}"
            received = self.dealt[seat]
            if self.dealing:
                progress = f"dealing {len(self.deal)}/{CARDS_PER_DEAL}"
                line = f"{head}; {progress}; received {received or '-'}"
            else:
                view = self.game.view(seat)
                line = (
                    f"{head}; dealt {received}; moves {self.moves_text}; "
                    f"{_weis_text(view)}; {_scores_text(view)}"
                )
            lines[seat] = line
        return line


#: The encodings of a game before its deal, by (id of the game, seat): the 36 chance nodes
#: of a deal share them. Each entry keeps its game, so that its id is not reused.
_BEFORE_THE_DEAL: Final[dict[tuple[int, int], tuple[Game, npt.NDArray[np.int8]]]] = {}


def _before_the_deal(game: Game, seat: int) -> npt.NDArray[np.int8]:
    key = (id(game), seat)
    entry = _BEFORE_THE_DEAL.get(key)
    if entry is not None and entry[0] is game:
        return entry[1]
    if len(_BEFORE_THE_DEAL) >= 64:
        _BEFORE_THE_DEAL.clear()
    bits = encode(game.view(seat))
    bits.flags.writeable = False
    _BEFORE_THE_DEAL[key] = (game, bits)
    return bits


_WEIS_TEXTS: Final = {46: "declare no Weis", 47: "declare Weis"}


def action_text(action: int) -> str:
    """A player action by its number, as the game's strings write it.

    >>> action_text(14), action_text(40), action_text(43)
    ('play JH', 'choose OBENABE', 'shove')
    """
    if int(action) in _WEIS_TEXTS:  # numbered, never offered: Weis are declared automatically
        return _WEIS_TEXTS[int(action)]
    value = action_from_index(int(action))
    if isinstance(value, Play):
        return f"play {value.card}"
    if isinstance(value, Choose):
        return f"choose {value.contract.name}"
    if isinstance(value, Shove):
        return "shove"
    assert isinstance(value, Thank)  # noqa: S101  (the last kind with a number)
    return f"thank team {int(value.team)}"


_ACTION_TEXTS: Final = tuple(action_text(index) for index in range(NUM_ACTIONS))


def _weis_text(view: PlayerView) -> str:
    declared = " ".join(
        f"S{seat}:" + ("-" if points is None else "+".join(map(str, points)) or "0")
        for seat, points in enumerate(view.declared_points)
    )
    shown = " ".join(f"S{int(seat)}:{weis}" for seat, weis in view.shown_weis)
    stoeck = "-" if view.stoeck is None else f"S{int(view.stoeck)}"
    return f"weis {declared}; shown {shown or '-'}; stoeck {stoeck}"


def _scores_text(view: PlayerView) -> str:
    points = view.hand_points
    scores = view.scores
    return f"points {points[0]}:{points[1]}; scores {scores[0]}:{scores[1]}"


def observation_text(record: HandRecord, seat: int) -> str:
    """What ``seat`` sees now, in words: the view of the current hand and no history.

    >>> from jass import rules
    >>> game = Game.new(rules.JASSKIT, seed=1, dealer=Seat(3))
    >>> print(observation_text(HandRecord.start(game, 3), 0))
    seat 0; dealer S3; dealing 0/36; received -; scores 0:0
    """
    game = record.game
    head = f"seat {seat}; dealer S{record.dealer}"
    if record.dealing:
        received = record.received(seat)
        scores = game.scores
        return (
            f"{head}; dealing {len(record.deal)}/{CARDS_PER_DEAL}; "
            f"received {received or '-'}; scores {scores[0]}:{scores[1]}"
        )
    view = game.view(seat)
    mover = "-" if view.to_move is None else f"S{int(view.to_move)}"
    chooser = view.chooser
    contract = "-" if view.contract is None else f"{view.contract.name} by S{int(chooser or 0)}"
    leader = "-" if view.trick_leader is None else f"S{int(view.trick_leader)}"
    played = [0, 0, 0, 0]
    for who, card in view.plays:
        played[who] |= 1 << card
    trick = " ".join(str(card) for card in view.trick) or "-"
    return "\n".join(
        (
            f"{head}; hand {view.hand_number}; {view.phase.value}; to move {mover}",
            f"hand {view.hand or '-'}",
            f"contract {contract}; shoves {view.shoves}",
            f"trick {trick} led by {leader}",
            "played " + " | ".join(f"S{s}: {CardSet(played[s]) or '-'}" for s in range(4)),
            _weis_text(view),
            _scores_text(view),
        )
    )


def info_text(records: tuple[HandRecord, ...], seat: int) -> str:
    """Everything ``seat`` has observed in the episode, in words (perfect recall).

    Per hand: the dealer, the cards dealt to the seat, every decision in order with who made
    it, the Weis and Stöck revealed, and the scores.

    >>> from jass import rules
    >>> game = Game.new(rules.JASSKIT, seed=1, dealer=Seat(3))
    >>> print(info_text((HandRecord(game, 3, (0, 1, 2, 3)),), 0))
    seat 0
    hand 0; dealer S3; dealing 4/36; received 6S 7S 8S
    """
    lines = [f"seat {seat}"]
    lines += [record.info_line(number, seat) for number, record in enumerate(records)]
    return "\n".join(lines)


def state_text(records: tuple[HandRecord, ...]) -> str:
    """The whole state, hidden cards included, for ``str(state)``.

    >>> from jass import rules
    >>> game = Game.new(rules.JASSKIT, seed=1, dealer=Seat(3))
    >>> print(state_text((HandRecord(game, 3, (0, 1, 2, 3)),)))
    hand 0; dealer S3; dealt S0: 6S 7S 8S | S1: 9S | S2: - | S3: -; moves -
    """
    lines = []
    for number, record in enumerate(records):
        dealt = " | ".join(f"S{s}: {cards or '-'}" for s, cards in enumerate(record.dealt))
        head = f"hand {number}; dealer S{record.dealer}"
        lines.append(f"{head}; dealt {dealt}; moves {record.moves_text}")
    last = records[-1].game
    if last.is_over or not records[-1].dealing:
        lines.append(f"scores {last.scores[0]}:{last.scores[1]}")
    return "\n".join(lines)
