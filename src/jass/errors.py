"""The exceptions of :mod:`jass`: one hierarchy, all of it below :class:`JassError`.

Both concrete kinds also subclass :class:`ValueError`, so code that already catches
``ValueError`` keeps working.

>>> from jass import Card, InvalidInputError
>>> try:
...     Card.parse("1H")
... except InvalidInputError as exc:
...     print(exc)
cannot parse card '1H': unknown rank '1'
"""

from __future__ import annotations

import enum
import reprlib
from typing import Any, Final

__all__ = [
    "BotAnswerError",
    "BotDecisionError",
    "IllegalActionError",
    "IllegalReason",
    "InvalidInputError",
    "JassError",
    "MissingDependencyError",
    "RemotePlayerError",
]


class JassError(Exception):
    """Base class of every exception that :mod:`jass` raises on purpose.

    >>> issubclass(IllegalActionError, JassError) and issubclass(InvalidInputError, JassError)
    True
    """


class InvalidInputError(JassError, ValueError):
    """Input that cannot be understood: an unparseable card, contract or option value.

    >>> from jass import RuleSet
    >>> try:
    ...     RuleSet().evolve(colour="red")
    ... except InvalidInputError as exc:
    ...     print(exc)
    unknown RuleSet option 'colour'
    """


class IllegalReason(enum.Enum):
    """Why an action was refused; the machine-readable part of :class:`IllegalActionError`.

    >>> IllegalReason.UNDERTRUMP.name
    'UNDERTRUMP'
    """

    WRONG_PHASE = "the game is not in a phase that allows this action"
    GAME_OVER = "the game is over"
    NOT_IN_HAND = "the card is not in the hand of the player to move"
    MUST_FOLLOW_SUIT = "the player must follow suit (or trump)"
    MUST_FOLLOW_TRUMP = "the player must follow trumps"
    UNDERTRUMP = "the card would undertrump"
    MUST_OVERTRUMP = "with only trumps left, the player must overtrump if able"
    CONTRACT_NOT_ALLOWED = "the rule set does not allow this contract"
    SHOVE_NOT_ALLOWED = "shoving is not allowed now"
    THANK_NOT_ALLOWED = "thanking is not part of this rule set's game end"
    WEIS_NOT_DECLARABLE = "Weis cannot be declared by hand now"
    WEIS_NOT_IN_HAND = "the declared Weis is not one the player holds"


class IllegalActionError(JassError, ValueError):
    """An action that the rules forbid in the current state.

    Attributes:
        reason: the machine-readable :class:`IllegalReason`.
        action: the refused action value, or ``None`` for a chance move.
        state: the state in which it was refused (unchanged).

    >>> import jass
    >>> g = jass.Game.new(seed=1)
    >>> try:
    ...     g.shove()
    ... except jass.IllegalActionError as exc:
    ...     print(exc.reason.name)
    WRONG_PHASE
    """

    def __init__(self, message: str, reason: IllegalReason, action: Any = None, state: Any = None):
        super().__init__(message)
        self.reason = reason
        self.action = action
        self.state = state

    def __reduce__(self) -> tuple[Any, ...]:
        # Picklable, so that it crosses process pools; the state stays behind.
        return (type(self), (str(self), self.reason, self.action, None))


class BotAnswerError(JassError):
    """A player outside the library gave no usable answer: none, a late one, or an illegal one.

    Raised by the bots that stand for players outside the library
    (:class:`jass.jasskit.RemoteBot`, :class:`jass.jasskit.KitAgentBot`), which never answer
    for them at random unless they were given a fallback bot.

    Attributes:
        answer: what the player answered, as received (``None`` if nothing came back).
        action: the action it stands for, when it could be read (an illegal one, say).
        view: the view the player was asked about.

    >>> err = BotAnswerError("player 'x' answered 'ZZ': not a card", answer={"card": "ZZ"})
    >>> err.answer, err.action, isinstance(err, JassError)
    ({'card': 'ZZ'}, None, True)
    """

    def __init__(
        self, message: str, *, answer: Any = None, action: Any = None, view: Any = None
    ) -> None:
        super().__init__(message)
        self.answer = answer
        self.action = action
        self.view = view

    def __reduce__(self) -> tuple[Any, ...]:
        # Picklable across process pools: the message and the answer; the view stays behind.
        return (_rebuild, (type(self), str(self), self.answer, self.action))


class RemotePlayerError(BotAnswerError):
    """A remote player (a jass-kit player service) failed, was late, or answered illegally.

    Attributes:
        url: the address that was asked.

    >>> err = RemotePlayerError("no answer within 10 s", url="http://127.0.0.1:8888/rule")
    >>> err.url, isinstance(err, BotAnswerError)
    ('http://127.0.0.1:8888/rule', True)
    """

    def __init__(
        self,
        message: str,
        *,
        url: str = "",
        answer: Any = None,
        action: Any = None,
        view: Any = None,
    ) -> None:
        super().__init__(message, answer=answer, action=action, view=view)
        self.url = url

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), str(self), self.answer, self.action, self.url))


def _rebuild(cls: type[BotAnswerError], message: str, answer: Any, action: Any, *url: str) -> Any:
    if url:
        return cls(message, answer=answer, action=action, url=url[0])  # type: ignore[call-arg]
    return cls(message, answer=answer, action=action)


class BotDecisionError(BotAnswerError):
    """A bot in a match raised an exception, or answered an action the rules refuse.

    Raised by :func:`jass.play_match` and :func:`jass.matches.replay_deal`, with the bot's
    own exception (or the rules' refusal) as its ``__cause__``. The message names the bot,
    its team and seat, the deal and its seeds, and ends with a line of Python that replays
    the decision in this process, where a debugger can stop in the bot.

    Attributes:
        bot: the bot's class name.
        team: ``"A"`` or ``"B"``.
        seat: the bot's seat, 0-3.
        deal: the deal's index in the match.
        swapped: whether it was the second play of a duplicate pair (team A at seats 1, 3).
        match_seed: the match's seed.
        game_seed: the deal's game seed (:func:`jass.matches.deal_seed`).
        bot_seed: the seed the bot was made with (:func:`jass.matches.bot_seed`).
        replay: the line of Python that replays the decision.
        state: the game the bot was asked about (``None`` once pickled).

    >>> err = BotDecisionError("RuleBot of team A at seat 0 raised ...", bot="RuleBot", team="A")
    >>> err.bot, err.team, isinstance(err, BotAnswerError)
    ('RuleBot', 'A', True)
    """

    def __init__(
        self,
        message: str,
        *,
        answer: Any = None,
        action: Any = None,
        view: Any = None,
        state: Any = None,
        **context: Any,
    ) -> None:
        super().__init__(message, answer=answer, action=action, view=view)
        self.state = state
        self.bot: str = context.get("bot", "")
        self.team: str = context.get("team", "")
        self.seat: int = context.get("seat", -1)
        self.deal: int = context.get("deal", -1)
        self.swapped: bool = context.get("swapped", False)
        self.match_seed: int = context.get("match_seed", 0)
        self.game_seed: int = context.get("game_seed", 0)
        self.bot_seed: int = context.get("bot_seed", 0)
        self.replay: str = context.get("replay", "")

    def __reduce__(self) -> tuple[Any, ...]:
        # Picklable across process pools: everything but the view and the state.
        names = ("bot", "team", "seat", "deal", "swapped", "match_seed", "game_seed")
        context = {name: getattr(self, name) for name in (*names, "bot_seed", "replay")}
        return (_rebuild_decision, (type(self), str(self), self.answer, self.action, context))


def _rebuild_decision(
    cls: type[BotDecisionError], message: str, answer: Any, action: Any, context: dict[str, Any]
) -> BotDecisionError:
    return cls(message, answer=answer, action=action, **context)


class MissingDependencyError(JassError, ImportError):
    """An optional feature needs a package that is not installed; the message says which.

    >>> issubclass(MissingDependencyError, ImportError)
    True
    """


class _ShortRepr(reprlib.Repr):
    """``reprlib`` with a bound on every part, huge integers included."""

    def __init__(self) -> None:
        super().__init__()
        self.maxstring = 40
        self.maxother = 40
        self.maxlong = 40
        self.maxlevel = 3

    def repr_int(self, x: int, level: int) -> str:
        # Python refuses to write ints of more than 4300 digits; say how long it is instead.
        if x.bit_length() > 128:
            sign = "-" if x < 0 else ""
            return f"{sign}<about {int(x.bit_length() * 0.30103) + 1} digits>"
        return super().repr_int(x, level)


_SHORT: Final = _ShortRepr()


def describe(value: object, *, typed: bool = True) -> str:
    """``value`` for an error message: its type and a short ``repr``, never too long.

    Safe for any value: long strings and containers are cut, deep nesting is elided, and a
    huge integer (which Python will not write out) is described by its length. With
    ``typed=False``, the short ``repr`` alone.

    >>> describe(5), describe(None), describe("x" * 50)
    ('int 5', 'None', "str 'xxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxx'")
    >>> describe([[[[1]]]]), describe(-(10**5000))
    ('list [[[[...]]]]', 'int -<about 5001 digits>')
    >>> describe("colour", typed=False)
    "'colour'"
    """
    try:
        text = _SHORT.repr(value)
    except Exception:  # noqa: BLE001  (a hostile __repr__ must not hide the real error)
        text = "<unprintable>"
    if value is None or not typed:
        return text
    return f"{type(value).__name__} {text}"
