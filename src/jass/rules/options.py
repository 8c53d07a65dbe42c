"""The enums behind the disputed rules of rule book §11.

Each member name is the value written in the rule book, so ``UndertrumpRule.ONLY_IF_NO_HIGHER``
reads exactly as the rules document states it.

>>> Multipliers.SWISSLOS_2500.value
(1, 1, 2, 2, 3, 3)
"""

from __future__ import annotations

import enum

from jass.core.cards import SuitPairing

__all__ = [
    "AusmachOrder",
    "CounterMatch",
    "DealerRotation",
    "EndMode",
    "FirstHandRule",
    "Multipliers",
    "SuitPairing",
    "UndertrumpRule",
    "WeisDeclaration",
    "WeisTie",
]


class Multipliers(enum.Enum):
    """Multiplier tables (rule book R8.5), as values for (♥, ♦, ♠, ♣, OBENABE, UNDENUFE).

    A rule set may also hold six custom values instead of a member.

    >>> Multipliers.WIKIPEDIA_EN.value[5]
    4
    """

    FLAT = (1, 1, 1, 1, 1, 1)
    SWISSLOS_2500 = (1, 1, 2, 2, 3, 3)
    PAGAT_RED_DOUBLE = (2, 2, 1, 1, 3, 3)
    WIKIPEDIA_EN = (1, 1, 2, 2, 3, 4)
    URIKON = (1, 1, 2, 2, 2, 2)


class WeisDeclaration(enum.Enum):
    """Who declares Weis (rule book R7.7): the engine declares all (``AUTO``) or the player chooses.

    >>> WeisDeclaration.AUTO
    <WeisDeclaration.AUTO: 'auto'>
    """

    AUTO = "auto"
    MANUAL = "manual"


class FirstHandRule(enum.Enum):
    """Who deals the first hand of a game (rule book R3.7).

    >>> FirstHandRule.MARKER_CARD.value
    'marker card'
    """

    DRAW_LOWEST_DEALS = "draw, lowest deals"
    DRAW_HIGHEST_DEALS = "draw, highest deals"
    MARKER_CARD = "marker card"


class DealerRotation(enum.Enum):
    """How the deal passes between hands (rule book R3.8).

    >>> DealerRotation.WINNER_DEALS.value
    'winner deals'
    """

    ROTATE = "rotate"
    WINNER_DEALS = "winner deals"


class UndertrumpRule(enum.Enum):
    """What a player holding only trumps may play over a trump in the trick (rule book R5.3e).

    >>> UndertrumpRule.ANY.value
    'any trump'
    """

    ANY = "any trump"
    ONLY_IF_NO_HIGHER = "must overtrump if able"


class WeisTie(enum.Enum):
    """Equal points, sequence against quartet (rule book R7.10).

    >>> WeisTie.SEQUENCE_FIRST.value
    'sequence first'
    """

    SEQUENCE_FIRST = "sequence first"
    QUARTET_FIRST = "quartet first"


class CounterMatch(enum.Enum):
    """What a non-declaring team earns for taking every trick (rule book R8.4).

    >>> CounterMatch.DOUBLE_MATCH.value
    'double the match'
    """

    SAME_AS_MATCH = "same as match"
    NONE = "no bonus"
    DOUBLE_TRICK_POINTS = "double the trick points"
    DOUBLE_MATCH = "double the match"


class AusmachOrder(enum.Enum):
    """The order of scoring events when both teams could finish at once (rule book R9.4).

    >>> AusmachOrder.STOECK_WEIS_STICH.value
    'Stöck, Weis, Stich'
    """

    STOECK_WEIS_STICH = "Stöck, Weis, Stich"
    STOECK_STICH_WEIS = "Stöck, Stich, Weis"


class EndMode(enum.Enum):
    """How a game played to a target ends (rule book R9.3).

    >>> EndMode.END_OF_HAND.value
    'end of hand'
    """

    AUTO = "auto"
    THANK = "thank"
    END_OF_HAND = "end of hand"
