"""Reading the ``jass`` command's arguments: ``--option NAME=VALUE``, bots, counts, seconds.

Each reader refuses a bad value with a message that names it, before any command runs.

>>> from jass.rules import SCHIEBER
>>> with_options(SCHIEBER, ["hands=4"]).hands
4
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from jass.errors import InvalidInputError
from jass.rules import SCHIEBER, RuleSet

__all__ = ["HelpFormatter", "bot_factory", "count", "seconds", "shown", "with_options"]


def with_options(ruleset: RuleSet, options: Sequence[str]) -> RuleSet:
    """``ruleset`` with ``--option NAME=VALUE`` changes, each value read by the option's type.

    >>> from jass.rules import SCHIEBER
    >>> with_options(SCHIEBER, ["target=1000", "weis=no"]).target
    1000
    >>> with_options(SCHIEBER, ["tagret=1000"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    jass.errors.InvalidInputError: --option 'tagret=1000': unknown option 'tagret'; options: ...
    """
    defaults = SCHIEBER.options()
    changes: dict[str, object] = {}
    for option in options:
        name, equals, text = option.partition("=")
        name = name.strip().lower().replace("-", "_")
        if not equals or not name:
            raise InvalidInputError(f"--option {option!r}: write NAME=VALUE, e.g. target=1000")
        if name not in defaults:
            raise InvalidInputError(
                f"--option {option!r}: unknown option {name!r}; options: {', '.join(defaults)}"
            )
        changes[name] = _option_value(name, text.strip(), defaults[name], option)
    try:
        return ruleset.evolve(**changes)  # type: ignore[arg-type]
    except InvalidInputError as exc:
        raise InvalidInputError(f"--option: {exc}") from None


def _option_value(name: str, text: str, default: object, option: str) -> object:
    """The value ``text`` stands for, for the option whose SCHIEBER value is ``default``."""
    word = text.casefold()
    if isinstance(default, bool):
        if word in ("true", "yes", "on", "1"):
            return True
        if word in ("false", "no", "off", "0"):
            return False
        raise InvalidInputError(f"--option {option!r}: {name} is true or false")
    if name in ("target", "match_bonus", "hands"):
        if name == "hands" and word in ("none", ""):
            return None
        try:
            return int(text)
        except ValueError:
            raise InvalidInputError(
                f"--option {option!r}: {name} is a whole number"
                + (" or none" if name == "hands" else "")
            ) from None
    if name == "contracts":
        return [part for part in text.replace(",", " ").split() if part]
    if name == "multipliers" and "," in text:
        try:
            return tuple(int(part) for part in text.split(","))
        except ValueError:
            raise InvalidInputError(
                f"--option {option!r}: multipliers is a preset name or six whole numbers "
                "(♥, ♦, ♠, ♣, Obenabe, Undenufe)"
            ) from None
    return text  # enum names and card names: RuleSet reads them, and says what it expects


def shown(value: object) -> str:
    """An option's value as `jass rules` prints it: names, not reprs.

    >>> from jass.rules import SCHIEBER
    >>> shown(SCHIEBER.options()["weis_declaration"]), shown(SCHIEBER.options()["target"])
    ('AUTO', '2500')
    """
    if isinstance(value, frozenset):
        return " ".join(sorted(str(contract) for contract in value))
    name = getattr(value, "name", None)
    return name if isinstance(name, str) else str(value)


def count(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``low``.

    >>> count(1)("3")
    3
    >>> count(1)("0")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: 0 is less than 1
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{value} is less than {low}")
        return value

    return parse


def seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds.

    >>> seconds("0.5")
    0.5
    >>> seconds("inf")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: inf: seconds must be positive
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text}: seconds must be positive")
    return value


class HelpFormatter(argparse.HelpFormatter):
    """Every option's help ends with its default, unless it has none worth saying.

    >>> import argparse
    >>> parser = argparse.ArgumentParser(prog="jass", formatter_class=HelpFormatter)
    >>> _ = parser.add_argument("--deals", type=int, default=100, help="deals to play")
    >>> "deals to play (default: 100)" in parser.format_help()
    True
    """

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if (
            "default" in text
            or any(default is nothing for nothing in (None, False, argparse.SUPPRESS))
            or not action.option_strings
        ):
            return text
        return f"{text} (default: %(default)s)".lstrip()


def bot_factory(text: str, builtins: Mapping[str, Callable[..., Any]]) -> Callable[..., Any]:
    """The bot factory ``text`` names: a built-in bot's name, or ``MODULE:NAME`` of your own.

    ``MODULE:NAME`` imports ``MODULE`` (from the current directory too) and takes its
    attribute ``NAME`` (dotted for a nested one): a class or function that takes a seed and
    makes a bot, an object with ``choose_action(view)``. One bot is made with seed 0 to check
    that, so a bad name is refused before any deal is played.

    >>> from jass.bots import RandomBot
    >>> bot_factory("random", {"random": RandomBot}) is RandomBot
    True
    >>> bot_factory("jass.bots:RuleBot", {}).__name__
    'RuleBot'
    >>> bot_factory("jass.bots:Nobody", {})
    Traceback (most recent call last):
    jass.errors.InvalidInputError: 'jass.bots:Nobody': module jass.bots has no 'Nobody'
    """
    if text in builtins:
        return builtins[text]
    module_name, colon, name = text.partition(":")
    if not colon or not module_name or not name:
        raise InvalidInputError(
            f"{text!r} is neither a built-in bot ({', '.join(sorted(builtins))}) nor "
            "MODULE:NAME, e.g. mybots:MyBot"
        )
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, "")  # `jass` from a console script: find ./mybots.py as python -m does
    try:
        found: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise InvalidInputError(f"{text!r}: cannot import {module_name}: {exc}") from None
    for part in name.split("."):
        if not hasattr(found, part):
            raise InvalidInputError(f"{text!r}: module {module_name} has no {name!r}")
        found = getattr(found, part)
    if not callable(found):
        raise InvalidInputError(
            f"{text!r} is not a bot factory: a class or function that takes a seed"
        )
    try:
        sample = found(0)
    except Exception as exc:  # noqa: BLE001 - the user's code: say what it raised
        raise InvalidInputError(
            f"{text!r} did not make a bot from seed 0: {type(exc).__name__}: {exc}"
        ) from None
    if not callable(getattr(sample, "choose_action", None)):
        raise InvalidInputError(
            f"{text!r} made a {type(sample).__name__}, which has no choose_action(view)"
        )
    return cast("Callable[..., Any]", found)
