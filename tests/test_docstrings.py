"""Every public callable of jass has a docstring with a ``>>>`` example (run by pytest)."""

from __future__ import annotations

import enum
import importlib
import inspect
import pkgutil
import types
from collections.abc import Iterator

import jass
from jass.errors import MissingDependencyError
from tests.test_fields import ACCESSORS


def _modules() -> Iterator[types.ModuleType]:
    """Every module of the package but those whose optional package is not installed."""
    for info in pkgutil.walk_packages(jass.__path__, "jass."):
        if info.name.endswith("__main__"):
            continue
        try:
            yield importlib.import_module(info.name)
        except MissingDependencyError:
            continue  # jass.envs.openspiel without OpenSpiel, say


# Every module of the package, found rather than listed, so that new ones are covered.
MODULES = [jass, *_modules()]


def test_every_module_is_checked() -> None:
    names = {module.__name__ for module in MODULES}
    assert {"jass.records", "jass.matches", "jass.solver", "jass.bots.rule"} <= names


def _public_callables() -> Iterator[tuple[str, object]]:
    seen: set[int] = set()
    for module in MODULES:
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name)
            is_class = isinstance(value, type) and not isinstance(value, types.GenericAlias)
            if id(value) in seen or not (is_class or inspect.isfunction(value)):
                continue
            seen.add(id(value))
            yield f"{module.__name__}.{name}", value
            if not inspect.isclass(value):
                continue
            inherited = {
                attribute: member
                for klass in reversed(value.__mro__)
                if klass.__module__.startswith("jass")
                for attribute, member in vars(klass).items()
            }
            for attribute, member in inherited.items():
                if attribute.startswith("_") or isinstance(member, enum.Enum):
                    continue
                function = member.fget if isinstance(member, property) else member
                if isinstance(function, (classmethod, staticmethod)):
                    function = function.__func__
                if isinstance(function, types.FunctionType):
                    yield f"{module.__name__}.{name}.{attribute}", function


def test_every_public_callable_has_a_running_example() -> None:
    """Every one, but the plain accessors of :data:`ACCESSORS`, which test_fields.py checks."""
    missing = [
        name
        for name, value in _public_callables()
        if ">>>" not in (inspect.getdoc(value) or "") and name not in ACCESSORS
    ]
    assert missing == []


def test_the_exempt_accessors_are_plain_documented_properties() -> None:
    """Each exemption names a property that exists, has a docstring, and is tested by value."""
    found = dict(_public_callables())
    for name in ACCESSORS:
        assert name in found, f"{name} is exempted but is not a public callable"
        assert (inspect.getdoc(found[name]) or "").strip(), f"{name} has no docstring"


def test_the_check_covers_the_api() -> None:
    names = {name for name, _ in _public_callables()}
    assert "jass.Game.play" in names
    assert "jass.CardSet.parse" in names
    assert "jass.Game.scores" in names
    assert "jass.RuleSet.evolve" in names
    assert "jass.rules.find_ruleset" in names or "jass.find_ruleset" in names
    assert len(names) > 100
