"""jass-kit's player-service protocol: its routes, and answers read as actions and written.

A player service answers two questions about a :class:`~jass.PlayerView`: the trump (a
number 0-5 for diamonds, hearts, spades, clubs, Obenabe and Undenufe, or 10 to push, that is
shove) and the card (``"H10"``, suit first). Everything else a rule set may ask of a seat
(declaring Weis by hand, thanking) has no route in jass-kit's protocol.

>>> import jass
>>> g = jass.Game.new(jass.rules.JASSKIT, seed=3).deal()
>>> view = g.view(g.to_move)
>>> route_for(view), read_answer(TRUMP, {"trump": 10})
('action_trump', Shove())
>>> write_answer(TRUMP, jass.Choose(jass.Contract.OBENABE))
{'trump': 4}
"""

from __future__ import annotations

from typing import Any, Final, Generic, TypeVar

from jass._budgets import is_int
from jass._kitformat import KIT_PUSH, KIT_TRUMPS, kit_card, to_kit_card
from jass.bots import Bot, RuleBot
from jass.core.contracts import Contract
from jass.engine.actions import Action, Choose, Play, Shove, Thank
from jass.engine.hand import Phase
from jass.engine.view import PlayerView
from jass.errors import BotAnswerError, InvalidInputError
from jass.rules import RuleSet

__all__ = [
    "CARD",
    "INFO",
    "ROUTES",
    "TRUMP",
    "OutsidePlayer",
    "check_ruleset",
    "decided_locally",
    "read_answer",
    "route_for",
    "write_answer",
]

#: The route that asks for the trump: ``{"trump": 0-5 or 10}``.
TRUMP: Final = "action_trump"
#: The route that asks for the card: ``{"card": "H10"}``.
CARD: Final = "action_play_card"
#: The route that only informs the player.
INFO: Final = "game_info"
ROUTES: Final = (TRUMP, CARD, INFO)


def route_for(view: PlayerView) -> str | None:
    """The route that asks the viewer for its next decision, or ``None`` if none does.

    >>> import jass
    >>> g = jass.Game.new(jass.rules.JASSKIT, seed=3).deal().choose("hearts")
    >>> route_for(g.view(g.to_move)), route_for(g.view(g.to_move.next))
    ('action_play_card', None)
    """
    if view.to_move != view.seat:
        return None
    if view.phase is Phase.CHOOSE:
        return TRUMP
    if view.phase is Phase.PLAY:
        kinds = {type(a) for a in view.legal_actions()}
        if Play in kinds and kinds <= {Play, Thank}:
            return CARD
    return None


def read_answer(route: str, answer: object) -> Action:
    """The action that ``answer`` (a decoded JSON answer on ``route``) stands for.

    It is not checked against the rules here; the caller does. A malformed answer raises
    :class:`~jass.InvalidInputError` saying what was expected.

    >>> read_answer(CARD, {"card": "H10"})
    Play(card=Card.parse('10H'))
    """
    if route == TRUMP:
        value = answer.get("trump") if isinstance(answer, dict) else None
        if not is_int(value):
            raise InvalidInputError(f"expected {{'trump': 0-5 or 10}}, got {answer!r}")
        if value == KIT_PUSH:
            return Shove()
        if not 0 <= value < len(KIT_TRUMPS):
            raise InvalidInputError(f"trump {value} is not 0-5 or 10 (push)")
        return Choose(Contract.parse(KIT_TRUMPS[value]))
    if route == CARD:
        value = answer.get("card") if isinstance(answer, dict) else None
        if not isinstance(value, str):
            raise InvalidInputError(f"expected {{'card': 'H10'}}, got {answer!r}")
        return Play(kit_card(value))
    raise InvalidInputError(f"route {route!r} asks for no action")


def write_answer(route: str, action: Action) -> dict[str, Any]:
    """The JSON answer on ``route`` for ``action``.

    >>> from jass import Card, Play
    >>> write_answer(CARD, Play(Card.parse("10H")))
    {'card': 'H10'}
    """
    if route == TRUMP and isinstance(action, Shove):
        return {"trump": KIT_PUSH}
    if route == TRUMP and isinstance(action, Choose) and action.contract.name in KIT_TRUMPS:
        return {"trump": KIT_TRUMPS.index(action.contract.name)}
    if route == CARD and isinstance(action, Play):
        return {"card": to_kit_card(action.card)}
    raise InvalidInputError(f"{action!r} cannot be answered on route {route!r}")


def check_ruleset(ruleset: object) -> RuleSet:
    """``ruleset``, if jass-kit's protocol can carry every decision it allows; else an error.

    >>> import jass
    >>> check_ruleset(jass.rules.JASSKIT) is jass.rules.JASSKIT
    True
    >>> check_ruleset(jass.rules.SCHIEBER.evolve(allow_shove_back=True))
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: jass-kit's protocol has no shove back (allow_shove_back)
    """
    if not isinstance(ruleset, RuleSet):
        raise InvalidInputError(f"ruleset must be a RuleSet, got {ruleset!r}")
    extra = sorted(c.name for c in ruleset.contracts if c.name not in KIT_TRUMPS)
    if extra:
        raise InvalidInputError(f"jass-kit's protocol has no contract {', '.join(extra)}")
    if ruleset.allow_shove_back:
        raise InvalidInputError("jass-kit's protocol has no shove back (allow_shove_back)")
    return ruleset


def decided_locally(view: PlayerView, rules_bot: Bot) -> Action | None:
    """The action ``rules_bot`` takes for a decision the protocol cannot ask, else ``None``.

    Declaring Weis by hand and thanking have no route: the bot decides those, and the
    player service is asked for everything else (a card, when not thanking instead).

    >>> import jass
    >>> from jass.bots import RuleBot
    >>> g = jass.Game.new(jass.rules.SCHIEBER, seed=3).deal().choose("hearts")
    >>> decided_locally(g.view(g.to_move), RuleBot()) is None  # the card is the service's
    True
    """
    if route_for(view) is None:
        return rules_bot.choose_action(view)
    if any(type(action) is Thank for action in view.legal_actions()):
        choice = rules_bot.choose_action(view)
        if isinstance(choice, Thank):
            return choice
    return None


_Refusal = TypeVar("_Refusal", bound=BotAnswerError)


class OutsidePlayer(Generic[_Refusal]):
    """The part that every bot standing for a player outside the library shares.

    Such a bot asks its player (with ``_ask``, which a subclass defines) for the trump and the
    cards, takes the decisions that jass-kit's protocol cannot ask with a
    :class:`~jass.bots.RuleBot`, and on a :class:`~jass.errors.BotAnswerError` lets its
    ``fallback`` bot answer (counted in :attr:`fallbacks` and :attr:`refusals`), or raises.

    >>> from jass.bots import RandomBot
    >>> OutsidePlayer(BotAnswerError, RandomBot(1)).fallbacks
    0
    """

    def __init__(self, refusal: type[_Refusal], fallback: Bot | None = None) -> None:
        if fallback is not None and (isinstance(fallback, type) or not isinstance(fallback, Bot)):
            raise InvalidInputError(f"fallback must be a Bot or None, got {fallback!r}")
        self._refusal = refusal  # what _ask raises when the player gives no usable answer
        self.fallback = fallback
        self.fallbacks = 0
        self.refusals: list[_Refusal] = []
        self._rules_bot = RuleBot()

    def choose_action(self, view: PlayerView) -> Action:
        """The player's answer for ``view``, or the fallback bot's if it gave none usable.

        >>> import jass
        >>> g = jass.Game.new(jass.rules.JASSKIT, seed=1).deal()
        >>> OutsidePlayer(BotAnswerError).choose_action(g.view(g.to_move))
        Traceback (most recent call last):
        ...
        NotImplementedError: OutsidePlayer._ask
        """
        local = decided_locally(view, self._rules_bot)  # Weis by hand, thanking
        if local is not None:
            return local
        route = route_for(view)
        assert route is not None  # noqa: S101  (decided_locally took every other decision)
        try:
            return self._ask(view, route)
        except self._refusal as exc:
            if self.fallback is None:
                raise
            self.fallbacks += 1
            self.refusals.append(exc)
            return self.fallback.choose_action(view)

    def _ask(self, view: PlayerView, route: str) -> Action:
        """Ask the player on ``route``: a legal action, or a :class:`BotAnswerError`."""
        raise NotImplementedError("OutsidePlayer._ask")
