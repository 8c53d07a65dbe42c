"""Rule sets: every option of rule book §11, the presets of §12, and :func:`find_ruleset`.

>>> from jass import rules
>>> rules.BEGINNER.target, rules.TOURNAMENT_12.match_bonus
(1000, 0)
"""

from jass.core.cards import SuitPairing
from jass.rules.options import (
    AusmachOrder,
    CounterMatch,
    DealerRotation,
    EndMode,
    FirstHandRule,
    Multipliers,
    UndertrumpRule,
    WeisDeclaration,
    WeisTie,
)
from jass.rules.presets import (
    BEGINNER,
    JASSKIT,
    PRESETS,
    SCHIEBER,
    SCHIEBER_1000,
    TOURNAMENT_12,
    TRADITIONAL,
    find_ruleset,
    preset_name,
)
from jass.rules.ruleset import STANDARD_CONTRACTS, RuleSet, RuleSetOptions

__all__ = [
    "BEGINNER",
    "JASSKIT",
    "PRESETS",
    "SCHIEBER",
    "SCHIEBER_1000",
    "STANDARD_CONTRACTS",
    "TOURNAMENT_12",
    "TRADITIONAL",
    "AusmachOrder",
    "CounterMatch",
    "DealerRotation",
    "EndMode",
    "FirstHandRule",
    "Multipliers",
    "RuleSet",
    "RuleSetOptions",
    "SuitPairing",
    "UndertrumpRule",
    "WeisDeclaration",
    "WeisTie",
    "find_ruleset",
    "preset_name",
]
