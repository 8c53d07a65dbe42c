"""The examples of the docs pages run in a fresh Python: no hidden setup, every import in place.

Sphinx's doctest builder runs each page's ``.. doctest::`` blocks in one namespace, in page
order, so it already fails on a name nobody defined. What it cannot see is a block that
leans on an import made by an earlier block: pasted on its own, that block fails. These
tests read each block with :mod:`ast` and require that every name an import binds anywhere
on the page is imported again by each block that uses it. Variables and helper functions
that an earlier block defines may carry over: a page is read from the top.
"""

from __future__ import annotations

import ast
import doctest
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
#: A ``.. doctest::`` directive and its indented body (options and blank lines included).
_BLOCK = re.compile(r"^\.\. doctest::[^\n]*\n((?:[ \t]*\n|[ \t]+[^\n]*\n)*)", re.MULTILINE)


def doctest_blocks(text: str) -> list[tuple[int, str]]:
    """The source of each ``.. doctest::`` block of a page, with the line it starts on."""
    parser = doctest.DocTestParser()
    found = []
    for match in _BLOCK.finditer(text):
        source = "\n".join(example.source for example in parser.get_examples(match.group(1)))
        found.append((text.count("\n", 0, match.start()) + 1, source))
    return found


def imported_names(tree: ast.AST) -> set[str]:
    """The names that the imports of ``tree`` bind."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return names


def bound_names(tree: ast.AST) -> set[str]:
    """The names that ``tree`` binds otherwise: assignments, loops, functions, arguments."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
    return names


def used_names(tree: ast.AST) -> set[str]:
    """The names that ``tree`` reads."""
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def missing_imports(text: str) -> list[str]:
    """Each block of a page that uses a name imported only by an earlier block, and the names."""
    problems = []
    page_imports: set[str] = set()
    for line, source in doctest_blocks(text):
        tree = ast.parse(source)
        own = imported_names(tree) | bound_names(tree)
        missing = sorted((used_names(tree) & page_imports) - own)
        if missing:
            problems.append(f"line {line}: imports missing for {', '.join(missing)}")
        page_imports |= imported_names(tree)
    return problems


PAGES = sorted(DOCS.glob("*.rst"))


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_every_block_imports_what_it_uses(page: Path) -> None:
    assert missing_imports(page.read_text(encoding="utf-8")) == []


def test_the_check_finds_a_block_that_relies_on_an_earlier_import() -> None:
    page = (
        ".. doctest::\n\n   >>> import jass\n   >>> from jass import Card\n   >>> x = 1\n\n"
        "Text.\n\n.. doctest::\n\n   >>> jass.Game, Card.parse('JH'), x\n   (...)\n"
    )
    assert missing_imports(page) == ["line 9: imports missing for Card, jass"]


def test_the_pages_have_examples_and_no_hidden_setup() -> None:
    assert sum(len(doctest_blocks(page.read_text(encoding="utf-8"))) for page in PAGES) > 80
    assert "doctest_global_setup" not in (DOCS / "conf.py").read_text(encoding="utf-8")
