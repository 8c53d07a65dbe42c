"""``import jass`` loads the rules engine only; the other public modules load on first use.

Each check runs in a fresh interpreter, since this test process has imported everything.
"""

from __future__ import annotations

import json
import subprocess
import sys
import types

import pytest

import jass
from jass.core import cards, weis
from jass.matches import play_match
from jass.search import fast
from jass.search.sampling import DealSampler, sample_deals

#: The public modules reachable as attributes of ``jass`` (CONTRIBUTING.md "Module map").
MODULES = (
    "bots",
    "cli",
    "core",
    "engine",
    "envs",
    "executors",
    "jasskit",
    "matches",
    "naming",
    "records",
    "rules",
    "search",
    "solver",
    "svg",
)
#: What ``import jass`` must leave unloaded: the upper layers and the optional ecosystems.
HEAVY = (
    "jass.bots",
    "jass.cli",
    "jass.envs",
    "jass.executors",
    "jass.jasskit",
    "jass.matches",
    "jass.naming",
    "jass.records",
    "jass.search.fast",
    "jass.solver",
    "jass.svg",
)
#: The optional ecosystems, jass-kit's own packages (in the same top-level jass) included.
OPTIONAL = (
    "numpy", "gymnasium", "pettingzoo", "pyspiel", "jax", "ray", "dask", "distributed",
    "jass.agents", "jass.arena", "jass.game", "jass.service", "jass.train",
)  # fmt: skip


def _fresh(code: str) -> object:
    """Run ``code`` in a new interpreter and return the JSON it prints."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _loaded_after(statement: str, names: tuple[str, ...]) -> list[str]:
    code = f"import sys, json\n{statement}\n"
    code += f"print(json.dumps([n for n in {names!r} if n in sys.modules]))"
    loaded = _fresh(code)
    assert isinstance(loaded, list)
    return [str(name) for name in loaded]


def test_import_jass_leaves_the_heavy_modules_unloaded() -> None:
    assert _loaded_after("import jass", HEAVY + OPTIONAL) == []


def test_the_engine_is_loaded_and_usable_at_once() -> None:
    code = (
        "import sys, json, jass\n"
        "g = jass.Game.new(seed=1).deal()\n"
        "print(json.dumps(['jass.engine.game' in sys.modules, len(g.hands[0])]))"
    )
    assert _fresh(code) == [True, 9]


@pytest.mark.parametrize("name", [m for m in MODULES if m != "envs"])
def test_each_module_is_an_attribute_that_loads_no_optional_package(name: str) -> None:
    statement = f"import jass\nassert jass.{name}.__name__ == 'jass.{name}'"
    assert _loaded_after(statement, OPTIONAL) == []


def test_envs_is_an_attribute_that_loads_only_its_own_extra() -> None:
    pytest.importorskip("numpy", reason="jass.envs needs the rl or openspiel extra")
    # The RL package needs NumPy (the encoding) and registers with Gymnasium; the
    # environments' own ecosystems wait for first use.
    statement = "import jass\nassert jass.envs.__name__ == 'jass.envs'"
    assert _loaded_after(statement, ("pettingzoo", "pyspiel", "jax", "ray", "distributed")) == []


@pytest.mark.parametrize("name", MODULES)
def test_each_attribute_is_the_module(name: str) -> None:
    if name == "envs":
        pytest.importorskip("numpy", reason="jass.envs needs the rl or openspiel extra")
    module = getattr(jass, name)
    assert isinstance(module, types.ModuleType)
    assert module is sys.modules[f"jass.{name}"]
    assert name in dir(jass)


def test_the_lazy_names_of_import_jass() -> None:
    assert _loaded_after("import jass\njass.DealSampler", ("jass.matches",)) == []
    assert _loaded_after("import jass\njass.play_match", ("jass.matches",)) == ["jass.matches"]
    assert jass.play_match is play_match
    assert jass.DealSampler is DealSampler
    assert jass.sample_deals is sample_deals
    assert {"play_match", "DealSampler", "sample_deals"} <= set(dir(jass))


def test_star_import_gives_every_exported_name() -> None:
    names = _fresh(
        "import json\nfrom jass import *\n"
        "import jass\nprint(json.dumps([n for n in jass.__all__ if n not in globals()]))"
    )
    assert names == []


def test_an_unknown_attribute_names_itself() -> None:
    with pytest.raises(AttributeError, match="'jass' has no attribute 'nonesuch'"):
        _ = jass.nonesuch  # type: ignore[attr-defined]  # mypy refuses it too


def test_a_lazy_module_is_typed() -> None:
    # mypy --strict checks this file: jass.svg is known to it without an import of jass.svg.
    picture: str = jass.svg.table(jass.Game.new(seed=2).deal())
    assert picture.startswith("<svg")


def test_the_tables_built_at_import_match_their_definitions() -> None:
    # Built by doubling and by a linear scan to keep the import cheap; checked here against
    # the plain definitions, bit by bit.
    for third, table in enumerate(fast._THIRDS):
        assert len(table) == 4096
        for pattern, subset in enumerate(table):
            assert subset == tuple(12 * third + b for b in range(12) if pattern >> b & 1)
    for third, card_table in enumerate((cards._LOW, cards._MIDDLE, cards._HIGH)):
        assert card_table == tuple(
            tuple(jass.CARDS[12 * third + b] for b in range(12) if pattern >> b & 1)
            for pattern in range(4096)
        )
    assert len(fast._ONE_SUIT) == 4 * 511
    for mask, suited in fast._ONE_SUIT.items():
        assert suited == tuple(card for card in range(36) if mask >> card & 1)
        assert mask & cards.SUIT_MASKS[suited[0] // 9] == mask
    for pattern, runs in enumerate(weis._RUNS):
        bits = [pattern >> r & 1 for r in range(9)]
        expected = []
        for start in range(9):
            length = 0
            while start + length < 9 and bits[start + length]:
                length += 1
            if length >= 3 and (start == 0 or not bits[start - 1]):
                expected.append((start, length))
        assert runs == tuple(expected), pattern
