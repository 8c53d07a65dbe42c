"""Actions as values, so that a bot needs one loop and a game record is a list of actions.

Every action a player can take has a stable number (:attr:`index`), for legal-action masks
in reinforcement learning: 0-35 play that card, 36-42 choose the contract with that
:attr:`~jass.Contract.index` (42 is reserved for Misère), 43 shove, 44-45 thank for team 0/1,
46 declare no Weis and 47 declare Weis (``weis_declaration=MANUAL``, rule book R7.7). Number 47
stands for the declaration of every Weis the player to move holds, so
:func:`action_from_index` needs the game to turn it into a value. The deal is a chance event,
:class:`Deal`, and has no number.

>>> from jass import Card, Contract
>>> Play(Card.parse("JH")).index, Choose(Contract.OBENABE).index, Shove().index
(14, 40, 43)
>>> action_from_index(44), DeclareWeis(()).index
(Thank(team=<Team.T0: 0>), 46)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Protocol, TypeAlias

import attrs

from jass._budgets import is_int
from jass.core.cards import CARDS, Card, as_card
from jass.core.contracts import Contract
from jass.core.dealing import DealtHands, check_deal
from jass.core.seats import Team
from jass.core.weis import Weis
from jass.errors import IllegalActionError, IllegalReason, InvalidInputError

__all__ = [
    "CHOOSE_BASE",
    "DECLARE_NONE_INDEX",
    "DECLARE_WEIS_INDEX",
    "NUM_ACTIONS",
    "PLAY_ACTIONS",
    "SHOVE_INDEX",
    "THANK_BASE",
    "Action",
    "Choose",
    "Deal",
    "DeclareWeis",
    "Play",
    "Shove",
    "Thank",
    "action_from_index",
]

#: The action numbers: ``Play`` of card ``c`` is ``c`` (0-35), ``Choose`` of contract ``k``
#: is ``CHOOSE_BASE + k.index`` (36-42), then ``Shove``, ``Thank`` of team 0 and of team 1,
#: declaring no Weis, and declaring Weis (every declaration shares the one number).
CHOOSE_BASE: Final = 36
SHOVE_INDEX: Final = 43
THANK_BASE: Final = 44
DECLARE_NONE_INDEX: Final = 46
DECLARE_WEIS_INDEX: Final = 47
#: The size of the player action space (see :attr:`Play.index` and friends).
NUM_ACTIONS: Final = 48


def _contract(value: Contract | str) -> Contract:
    return Contract.parse(value)


@attrs.frozen
class Play:
    """Play ``card`` from the hand of the player to move.

    >>> Play(Card.parse("10D"))
    Play(card=Card.parse('10D'))
    """

    card: Card = attrs.field(converter=as_card)

    @property
    def index(self) -> int:
        """The stable action number, 0-35: the card's index.

        >>> Play(Card.parse("6S")).index
        0
        """
        return int(self.card)


@attrs.frozen
class Choose:
    """Name ``contract`` for this hand.

    >>> Choose(Contract.UNDENUFE).index
    41
    """

    contract: Contract = attrs.field(converter=_contract)

    @property
    def index(self) -> int:
        """The stable action number, 36 + the contract's index.

        >>> Choose(Contract.OBENABE).index
        40
        """
        return CHOOSE_BASE + self.contract.index


@attrs.frozen
class Shove:
    """Shove (*schieben*): leave the choice of contract to the partner.

    >>> Shove() == Shove()
    True
    """

    @property
    def index(self) -> int:
        """The stable action number, 43.

        >>> Shove().index
        43
        """
        return SHOVE_INDEX


@attrs.frozen
class Thank:
    """Thank (*bedanken*): ``team`` claims to have reached the target (rule book R9.2).

    >>> Thank(Team(1)).index
    45
    """

    team: Team = attrs.field(converter=Team)

    @property
    def index(self) -> int:
        """The stable action number, 44 + the team.

        >>> Thank(Team(0)).index
        44
        """
        return THANK_BASE + int(self.team)


def _weis_tuple(value: Iterable[Weis]) -> tuple[Weis, ...]:
    return tuple(value)


@attrs.frozen
class DeclareWeis:
    """Declare these Weis with the first card of trick 1 (``weis_declaration=MANUAL``).

    They must be among the Weis :func:`~jass.find_weis` finds in the player's hand; playing a
    card without declaring declares none (rule book R7.7).

    >>> from jass import CardSet, find_weis
    >>> DeclareWeis(find_weis(CardSet.parse("6S 7S 8S"))).weis[0].points
    20
    """

    weis: tuple[Weis, ...] = attrs.field(converter=_weis_tuple)

    @property
    def index(self) -> int:
        """The stable action number: 46 if it declares nothing, else 47.

        The fixed numbering tells only whether Weis are declared, not which: 47 stands for
        declaring every Weis the player holds, the choice that scores the most, and
        ``action_from_index(47, game)`` gives that declaration. A declaration of only some of
        them (which :meth:`jass.Game.legal_actions` offers too) also has the number 47, but no
        number gives it back.

        >>> from jass import CardSet, find_weis
        >>> DeclareWeis(()).index, DeclareWeis(find_weis(CardSet.parse("6S 7S 8S"))).index
        (46, 47)
        """
        return DECLARE_WEIS_INDEX if self.weis else DECLARE_NONE_INDEX


@attrs.frozen
class Deal:
    """The deal, a chance event: the four hands by seat.

    >>> Deal.__name__
    'Deal'
    """

    hands: DealtHands = attrs.field(converter=check_deal)


#: Any action value accepted by :meth:`jass.Game.apply`.
Action: TypeAlias = Play | Choose | Shove | DeclareWeis | Thank | Deal

#: The :class:`Play` action of each card, prebuilt for hot loops.
PLAY_ACTIONS: Final[tuple[Play, ...]] = tuple(Play(card) for card in CARDS)


#: The action 46: declare no Weis.
_NO_DECLARATION: Final = DeclareWeis(())


class _Offering(Protocol):
    """What :func:`action_from_index` reads to resolve number 47: a game or a player's view.

    >>> import jass
    >>> hasattr(jass.Game.new(seed=1), "legal_actions")
    True
    """

    def legal_actions(self) -> Iterable[object]: ...


def action_from_index(
    index: int, game: _Offering | None = None
) -> Play | Choose | Shove | DeclareWeis | Thank:
    """The player action with the stable number ``index`` (0 to ``NUM_ACTIONS - 1``).

    Number 47 declares every Weis the player to move holds, so it needs ``game`` (a
    :class:`~jass.Game`, or the :class:`~jass.PlayerView` of the player to move); it raises
    :class:`~jass.IllegalActionError` when that player may not declare Weis now, or holds none.
    Every other number gives the same action whatever the state.

    >>> action_from_index(14), action_from_index(36)
    (Play(card=Card.parse('JH')), Choose(contract=Contract.trump(Suit.SPADES)))
    >>> import jass
    >>> manual = jass.rules.SCHIEBER.evolve(weis_declaration="MANUAL")
    >>> g = jass.Game.new(manual, seed=37).deal().choose("obenabe")
    >>> [str(w) for w in action_from_index(47, g).weis]
    ['four 8s (100)', '7-8-9 of diamonds (20)']
    """
    if not is_int(index):
        raise InvalidInputError(f"action index must be an int, got {index!r}")
    if 0 <= index < CHOOSE_BASE:
        return PLAY_ACTIONS[index]
    if CHOOSE_BASE <= index < CHOOSE_BASE + len(Contract.all()):
        return Choose(Contract.from_index(index - CHOOSE_BASE))
    if index == SHOVE_INDEX:
        return Shove()
    if index in (THANK_BASE, THANK_BASE + 1):
        return Thank(Team(index - THANK_BASE))
    if index == DECLARE_NONE_INDEX:
        return _NO_DECLARATION
    if index == DECLARE_WEIS_INDEX:
        return _declare_all(game)
    raise InvalidInputError(f"no action has index {index!r}")


def _declare_all(game: _Offering | None) -> DeclareWeis:
    """The declaration of every Weis of the player to move: the largest one on offer."""
    if game is None:
        raise InvalidInputError(
            "action 47 declares every Weis of the player to move: "
            "pass the game (or that player's view) to action_from_index"
        )
    best: DeclareWeis | None = None
    for action in game.legal_actions():
        if isinstance(action, DeclareWeis) and (best is None or len(action.weis) > len(best.weis)):
            best = action
    if best is None:
        raise IllegalActionError(
            "cannot declare Weis (action 47): the player to move holds none it may declare now",
            IllegalReason.WEIS_NOT_DECLARABLE,
            None,
            game,
        )
    return best
