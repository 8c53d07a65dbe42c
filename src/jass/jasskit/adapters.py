"""jass-kit agents as our bots, and our bots as jass-kit agents, in one process.

A jass-kit ``Agent`` answers ``action_trump(obs)`` and ``action_play_card(obs)`` for a
``GameObservation``. :class:`KitAgentBot` plays one under our rules (its answers are checked,
never replaced at random unless a ``fallback`` bot is given); :func:`as_kit_agent` gives one of
our bots to jass-kit's ``Arena``. jass-kit is imported only when one of them is used; without
it they raise :class:`~jass.errors.MissingDependencyError` saying what to install.

>>> from jass.bots import RuleBot
>>> try:
...     agent = as_kit_agent(RuleBot())  # with jass-kit installed: an Agent for its Arena
... except MissingDependencyError as exc:  # without it: what to install
...     print(str(exc).rsplit(": ", 1)[1])
... else:
...     print(_INSTALL)
pip install jass-kit==2.0.5
"""

from __future__ import annotations

import importlib
import operator
from typing import Any

from jass._kitformat import from_jasskit_observation, to_jasskit_observation
from jass.bots import Bot
from jass.engine.actions import Action
from jass.engine.view import PlayerView
from jass.errors import BotAnswerError, InvalidInputError, JassError, MissingDependencyError
from jass.jasskit._protocol import (
    CARD,
    TRUMP,
    OutsidePlayer,
    check_ruleset,
    read_answer,
    write_answer,
)
from jass.rules import JASSKIT, RuleSet

__all__ = ["KitAgentBot", "as_kit_agent"]

_INSTALL = "pip install jass-kit==2.0.5"


def _kit(module: str, needed_by: str) -> Any:
    """A module of jass-kit, imported now; a clear error if jass-kit is not installed."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingDependencyError(
            f"{needed_by} needs jass-kit, which is not installed ({exc}): {_INSTALL}"
        ) from None


class KitAgentBot(OutsidePlayer[BotAnswerError]):
    """A jass-kit ``Agent`` as our :class:`~jass.bots.Bot`, asked with its own observations.

    Its answers are checked against our rules: an illegal one (such as an undertrump that
    only jass-kit's open issue #10 allows), or an exception, raises
    :class:`~jass.errors.BotAnswerError`, unless ``fallback`` is given; then the fallback bot
    answers and :attr:`fallbacks` counts it. Decisions outside jass-kit's game (declaring
    Weis by hand, thanking) are taken by a :class:`~jass.bots.RuleBot`.

    Attributes:
        fallbacks: how many answers the fallback bot gave.
        refusals: the errors that the fallback answered for, oldest first.

    >>> class Stub:  # anything with jass-kit's two methods
    ...     def action_trump(self, obs): return 10
    ...     def action_play_card(self, obs): return 0
    >>> KitAgentBot(Stub()).fallbacks
    0
    """

    def __init__(self, agent: Any, fallback: Bot | None = None) -> None:
        for method in ("action_trump", "action_play_card"):
            if not callable(getattr(agent, method, None)):
                raise InvalidInputError(f"{agent!r} is not a jass-kit Agent: it has no {method}()")
        super().__init__(BotAnswerError, fallback)
        self.agent = agent

    def __repr__(self) -> str:
        """The agent wrapped.

        >>> class Stub:
        ...     def action_trump(self, obs): return 10
        ...     def action_play_card(self, obs): return 0
        ...     def __repr__(self): return "Stub()"
        >>> KitAgentBot(Stub())
        KitAgentBot(Stub(), fallback=None)
        """
        return f"KitAgentBot({self.agent!r}, fallback={self.fallback!r})"

    def choose_action(self, view: PlayerView) -> Action:
        """The agent's answer for ``view``, checked against the rules.

        >>> import jass
        >>> class Pusher:
        ...     def action_trump(self, obs): return 10
        ...     def action_play_card(self, obs): return 0
        >>> g = jass.Game.new(jass.rules.JASSKIT, seed=1).deal()
        >>> try:
        ...     action = KitAgentBot(Pusher()).choose_action(g.view(g.to_move))
        ... except jass.errors.MissingDependencyError:
        ...     action = jass.Shove()  # jass-kit is not installed here
        >>> action
        Shove()
        """
        return super().choose_action(view)

    def _ask(self, view: PlayerView, route: str) -> Action:
        observations = _kit("jass.game.game_observation", "KitAgentBot")
        const = _kit("jass.game.const", "KitAgentBot")
        obs = observations.GameObservation.from_json(to_jasskit_observation(view))
        name = type(self.agent).__name__
        try:
            if route == TRUMP:
                answer: Any = {"trump": operator.index(self.agent.action_trump(obs))}
            else:
                card = operator.index(self.agent.action_play_card(obs))
                answer = {"card": str(const.card_strings[card])}  # a numpy string
        except Exception as exc:
            raise BotAnswerError(
                f"jass-kit agent {name} failed on {route}: {type(exc).__name__}: {exc}", view=view
            ) from exc
        try:
            action = read_answer(route, answer)
        except JassError as exc:
            raise BotAnswerError(
                f"jass-kit agent {name} answered {answer!r}: {exc}", answer=answer, view=view
            ) from None
        if not view.is_legal(action):
            raise BotAnswerError(
                f"jass-kit agent {name} answered {answer!r}, which the rules do not allow here "
                f"(trick {list(map(str, view.trick))}, hand {view.hand})",
                answer=answer,
                action=action,
                view=view,
            )
        return action


def as_kit_agent(bot: Bot, ruleset: RuleSet = JASSKIT, *, kit_undertrumps: bool = True) -> Any:
    """One of our bots as a jass-kit ``Agent``, for jass-kit's ``Arena``.

    Each observation is read with :func:`jass.records.from_jasskit_observation` under
    ``ruleset`` (every card in it checked), and the bot answers from the view it gives. Its
    Arena lets the other players undertrump as only jass-kit's issue #10 allows;
    ``kit_undertrumps`` (true by default) reads those cards as it does.

    >>> from jass.bots import RuleBot
    >>> try:
    ...     agent = as_kit_agent(RuleBot())
    ... except MissingDependencyError:
    ...     agent = None  # jass-kit is not installed here
    >>> agent is None or (callable(agent.action_trump) and callable(agent.action_play_card))
    True
    """
    if not isinstance(bot, Bot):
        raise InvalidInputError(f"as_kit_agent takes a Bot, got {bot!r}")
    check_ruleset(ruleset)
    lenient = bool(kit_undertrumps)
    agents = _kit("jass.agents.agent", "as_kit_agent")
    const = _kit("jass.game.const", "as_kit_agent")

    base: Any = agents.Agent

    class BotAgent(base):  # type: ignore[misc]  # jass-kit has no types
        """Answers jass-kit's questions with ``bot``."""

        def __repr__(self) -> str:
            return f"as_kit_agent({bot!r})"

        def action_trump(self, obs: Any) -> int:
            view = from_jasskit_observation(obs.to_json(), ruleset, kit_undertrumps=lenient)
            return int(write_answer(TRUMP, bot.choose_action(view))["trump"])

        def action_play_card(self, obs: Any) -> int:
            view = from_jasskit_observation(obs.to_json(), ruleset, kit_undertrumps=lenient)
            card = write_answer(CARD, bot.choose_action(view))["card"]
            return int(const.card_ids[card])

    return BotAgent()
