"""The named rule systems of rule book §12, and :func:`find_ruleset`.

>>> find_ruleset("schieber-1000") is SCHIEBER_1000
True
"""

from __future__ import annotations

from typing import Final

from jass.core.cards import Suit
from jass.core.contracts import Contract
from jass.errors import InvalidInputError, describe
from jass.rules.options import CounterMatch, EndMode, FirstHandRule, Multipliers
from jass.rules.ruleset import RuleSet

__all__ = [
    "BEGINNER",
    "PRESETS",
    "SCHIEBER",
    "SCHIEBER_1000",
    "TOURNAMENT_12",
    "TRADITIONAL",
    "find_ruleset",
    "preset_name",
]

#: The library default: S0 main rules, Swisslos 2500.
SCHIEBER: Final = RuleSet()

#: To 1000, single count, no Kreuzweis (S2; Swisslos 1000).
SCHIEBER_1000: Final = SCHIEBER.evolve(target=1000, multipliers=Multipliers.FLAT, kreuzweis=False)

#: The English Wikipedia / Parlett system (S3), with Misère.
TRADITIONAL: Final = SCHIEBER.evolve(
    contracts=Contract.all(),
    multipliers=Multipliers.WIKIPEDIA_EN,
    small_weis=True,
    kreuzweis=False,
    counter_match=CounterMatch.DOUBLE_TRICK_POINTS,
    first_hand_rule=FirstHandRule.MARKER_CARD,
    first_hand_marker="7D",
)

#: The beginner's guide (S4): four trump suits only, no Weis, no Stöck, to 1000.
BEGINNER: Final = SCHIEBER.evolve(
    contracts=frozenset(Contract.trump(suit) for suit in Suit),
    weis=False,
    stoeck=False,
    multipliers=Multipliers.FLAT,
    match_bonus=100,
    target=1000,
    end_mode=EndMode.END_OF_HAND,
)

#: Twelve hands, everything single, no Weis, no Stöck, no match bonus.
TOURNAMENT_12: Final = SCHIEBER.evolve(
    hands=12, multipliers=Multipliers.FLAT, weis=False, stoeck=False, match_bonus=0
)

#: What jass-kit (the engine of a university course's tournament) scores: one hand, card
#: points and the last trick's 5 only (157 in all), no Weis, no Stöck, no match bonus.
JASSKIT: Final = TOURNAMENT_12.evolve(hands=1)

#: Every preset by name.
PRESETS: Final[dict[str, RuleSet]] = {
    "SCHIEBER": SCHIEBER,
    "SCHIEBER_1000": SCHIEBER_1000,
    "TRADITIONAL": TRADITIONAL,
    "BEGINNER": BEGINNER,
    "TOURNAMENT_12": TOURNAMENT_12,
    "JASSKIT": JASSKIT,
}


def find_ruleset(name: str) -> RuleSet:
    """The preset called ``name`` (any case; ``-`` and spaces read as ``_``).

    >>> find_ruleset("tournament_12").hands
    12
    >>> find_ruleset("bridge")
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: unknown rule set 'bridge'; presets: SCHIEBER, SCHIEBER_1000, ...
    """
    if not isinstance(name, str):
        raise InvalidInputError(f"a rule set is named by a string, got {describe(name)}")
    key = name.strip().upper().replace("-", "_").replace(" ", "_")
    try:
        return PRESETS[key]
    except KeyError:
        raise InvalidInputError(
            f"unknown rule set {describe(name, typed=False)}; presets: {', '.join(PRESETS)}"
        ) from None


def preset_name(ruleset: RuleSet) -> str | None:
    """The name of the preset equal to ``ruleset``, or ``None``.

    >>> preset_name(SCHIEBER.evolve(target=1000, multipliers="FLAT", kreuzweis=False))
    'SCHIEBER_1000'
    """
    for name, preset in PRESETS.items():
        if preset == ruleset:
            return name
    return None
