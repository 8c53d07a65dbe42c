"""The module map in CONTRIBUTING.md is the layout: every module is listed, imports go one way.

The map's table lists the modules of ``src/jass`` from the bottom layer up. A module may import,
at module level, only modules of its own row or of the rows above it. Imports inside functions
(the pictures a ``_repr_svg_`` draws, optional packages) are allowed to reach up, and are not
checked here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "jass"
#: Files outside the map by design: the package's gathering of names, and ``python -m jass``.
OUTSIDE_THE_MAP = {"__init__.py", "__main__.py"}
#: The layer packages, whose ``__init__`` only documents the layer and imports nothing.
LAYERS = ("core", "engine", "search")


def _map_rows() -> list[list[str]]:
    """The module entries of each row of the map, in order (``core/cards.py``, ``bots/``...)."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("## Module map", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 3 or cells[0] in ("Layer", "---"):
            continue
        rows.append(re.findall(r"`([\w/]+(?:\.py|/))`", cells[1]))
    return rows


def _row_of(relative: str, rows: list[list[str]]) -> int | None:
    """The index of the row that lists the module at ``relative`` (a path under src/jass)."""
    for index, entries in enumerate(rows):
        for entry in entries:
            if entry == relative or (entry.endswith("/") and relative.startswith(entry)):
                return index
    return None


def _modules() -> list[str]:
    return sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if str(path.relative_to(PACKAGE)) not in OUTSIDE_THE_MAP
        and path.relative_to(PACKAGE).parts not in {(layer, "__init__.py") for layer in LAYERS}
    )


def _module_path(name: str) -> str | None:
    """The file (relative to src/jass) of module ``name`` (``jass.core.cards``), if it is ours."""
    parts = name.split(".")
    if parts[0] != "jass" or len(parts) == 1:
        return None
    base = PACKAGE.joinpath(*parts[1:])
    if base.with_suffix(".py").is_file():
        return str(base.with_suffix(".py").relative_to(PACKAGE))
    if (base / "__init__.py").is_file():
        return str((base / "__init__.py").relative_to(PACKAGE))
    return None  # another package's module in the jass namespace (jass-kit's)


def _top_level_imports(path: Path) -> set[str]:
    """The jass modules that ``path`` imports at module level (``TYPE_CHECKING`` blocks too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(("jass", *path.relative_to(PACKAGE).with_suffix("").parts[:-1]))
    found: set[str] = set()
    statements: list[ast.stmt] = list(tree.body)
    while statements:
        node = statements.pop()
        if isinstance(node, ast.If | ast.Try):
            statements.extend(node.body)
            statements.extend(node.orelse)
            if isinstance(node, ast.Try):
                for handler in node.handlers:
                    statements.extend(handler.body)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            for alias in node.names:
                # ``from jass.core import cards`` imports the module jass.core.cards.
                submodule = f"{module}.{alias.name}"
                found.add(submodule if _module_path(submodule) else module)
    return {name for name in found if name.startswith("jass.") and _module_path(name)}


def test_every_module_is_in_the_map() -> None:
    rows = _map_rows()
    assert len(rows) > 20
    unlisted = [module for module in _modules() if _row_of(module, rows) is None]
    assert unlisted == [], f"modules missing from CONTRIBUTING.md's module map: {unlisted}"


def test_every_entry_of_the_map_exists() -> None:
    missing = [
        entry
        for entries in _map_rows()
        for entry in entries
        if not (PACKAGE / entry).exists()
    ]
    assert missing == []


@pytest.mark.parametrize("module", _modules())
def test_imports_go_one_way(module: str) -> None:
    rows = _map_rows()
    own = _row_of(module, rows)
    assert own is not None
    upward = []
    for name in sorted(_top_level_imports(PACKAGE / module)):
        target = _module_path(name)
        assert target is not None
        row = _row_of(target, rows)
        if row is None or row > own:
            upward.append(f"{name} ({target})")
    assert upward == [], (
        f"{module} imports from a row below its own in the map (a higher layer): {upward}"
    )


@pytest.mark.parametrize("layer", LAYERS)
def test_a_layer_package_imports_nothing(layer: str) -> None:
    assert _top_level_imports(PACKAGE / layer / "__init__.py") == set()


def test_the_check_bites() -> None:
    """A module-level import of a higher row is found (the checker is not blind)."""
    rows = _map_rows()
    cards = _row_of("core/cards.py", rows)
    game = _row_of("engine/game.py", rows)
    assert cards is not None
    assert game is not None
    assert cards < game
    assert "jass.core.cards" in _top_level_imports(PACKAGE / "engine" / "game.py")
