"""The options the environments share: the rule set in force and the checked option values.

>>> ruleset_for("schieber_1000", "actions").weis_declaration.name
'MANUAL'
>>> choice("episode", "game", EPISODES)
'game'
"""

from __future__ import annotations

from typing import Final

from jass.errors import InvalidInputError
from jass.rules import EndMode, RuleSet, WeisDeclaration, find_ruleset

__all__ = [
    "EPISODES",
    "REWARDS",
    "THANKS",
    "WEIS",
    "auto_thanks",
    "choice",
    "ruleset_for",
]

#: ``episode=``: one hand per episode, or a whole game.
EPISODES: Final = ("hand", "game")
#: ``reward=``: see :func:`jass.envs.rewards.hand_margin`.
REWARDS: Final = ("score", "points", "win")
#: ``weis=``: declared by the engine, or by the agents with action 47.
WEIS: Final = ("auto", "actions")
#: ``thanks=``: never offered, or offered to the agent on turn (actions 44-45).
THANKS: Final = ("off", "on_turn")


def choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    """``value`` if it is one of ``allowed``; otherwise :class:`~jass.InvalidInputError`.

    >>> choice("weis", "manual", WEIS)
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: weis='manual' is not an option; choose one of 'auto', 'actions'
    """
    if not isinstance(value, str) or value not in allowed:
        options = ", ".join(repr(a) for a in allowed)
        raise InvalidInputError(f"{name}={value!r} is not an option; choose one of {options}")
    return value


def ruleset_for(ruleset: RuleSet | str, weis: str) -> RuleSet:
    """The rule set an environment plays: ``ruleset``, or the preset of that name, adjusted.

    Its ``weis_declaration`` is set by the ``weis`` option: ``weis="auto"`` makes the engine
    declare every Weis (``AUTO``); ``weis="actions"`` lets the agents declare (``MANUAL``). A
    rule set without Weis is left as it is.

    >>> from jass import rules
    >>> ruleset_for(rules.SCHIEBER.evolve(weis_declaration="MANUAL"), "auto") == rules.SCHIEBER
    True
    >>> ruleset_for("beginner", "actions") == rules.BEGINNER
    True
    """
    if isinstance(ruleset, str):
        ruleset = find_ruleset(ruleset)
    elif not isinstance(ruleset, RuleSet):
        raise InvalidInputError(f"ruleset must be a RuleSet or a preset's name, got {ruleset!r}")
    manual = choice("weis", weis, WEIS) == "actions"
    wanted = WeisDeclaration.MANUAL if manual else WeisDeclaration.AUTO
    if ruleset.weis and ruleset.weis_declaration is not wanted:
        ruleset = ruleset.evolve(weis_declaration=wanted)
    return ruleset


def auto_thanks(ruleset: RuleSet) -> bool:
    """Whether a game under ``ruleset`` ends only by a thank (``end_mode=THANK``, R9.3).

    Then the environments thank for a team that has reached the target, so that every
    episode ends.

    >>> from jass import rules
    >>> auto_thanks(rules.SCHIEBER), auto_thanks(rules.SCHIEBER.evolve(end_mode="THANK"))
    (False, True)
    """
    return ruleset.end_mode is EndMode.THANK and ruleset.hands is None
