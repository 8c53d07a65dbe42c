"""The rule book, docs/rulebook.rst, has a section for every rule the project cites.

The code, the tests and the documentation cite rules by number ("R5.5", "R9.2a", ranges such
as "R7.1-R7.5", where each end counts) and chapters as "§7". The documentation build stops
when a cited number has no label in the rule book (``check_rulebook`` in docs/conf.py). The
scan is repeated here without Sphinx, so that a plain test run catches the gap too; when
Sphinx is installed, the check of docs/conf.py is tested as well.

The numbers that must be missing are built at run time, so that this file cites none itself.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

import jass
from jass import rules

ROOT = Path(__file__).resolve().parent.parent
RULEBOOK = ROOT / "docs" / "rulebook.rst"

#: The files whose citations must resolve, as in docs/conf.py: (folder, glob pattern).
SOURCES = (("src", "**/*.py"),)
OTHERS = (
    ("tests", "**/*.py"),
    ("docs", "*.rst"),
    ("examples", "**/*.py"),
    ("benchmarks", "**/*.py"),
    (".", "*.md"),
)

_RULE = re.compile(r"\bR(\d+\.\d+[a-z]?)\b(?:\s*[-–]\s*R?(\d+\.\d+[a-z]?)\b)?")
_CHAPTER = re.compile(r"§\s?(\d+)\b(?:\s*[-–]\s*§?\s?(\d+)\b)?")
_RULE_LABEL = re.compile(r"^\.\. _(R\d+\.\d+[a-z]?):\s*$", re.MULTILINE)
_CHAPTER_LABEL = re.compile(r"^\.\. _rulebook-s(\d+):\s*$", re.MULTILINE)

#: A rule and a chapter that the rule book does not have.
NO_RULE = "R" + "42.7"
NO_CHAPTER = "§" + "99"


def cited(text: str) -> set[str]:
    """The rules ("R5.5") and chapters ("§7") that ``text`` cites."""
    found = {f"R{n}" for match in _RULE.finditer(text) for n in match.groups() if n}
    return found | {f"§{n}" for match in _CHAPTER.finditer(text) for n in match.groups() if n}


def labels(text: str) -> set[str]:
    """The rules and chapters that have a label in the rule book ``text``."""
    found = set(_RULE_LABEL.findall(text))
    return found | {f"§{n}" for n in _CHAPTER_LABEL.findall(text)}


def citations(root: Path, where: tuple[tuple[str, str], ...]) -> dict[str, list[str]]:
    """Every rule and chapter cited in the files ``where`` under ``root``, with ``path:line``."""
    found: dict[str, list[str]] = {}
    for folder, pattern in where:
        for path in sorted((root / folder).glob(pattern)):
            if not path.is_file():
                continue
            name = path.relative_to(root).as_posix()
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for rule in cited(line):
                    found.setdefault(rule, []).append(f"{name}:{number}")
    return found


def missing(root: Path, rulebook: Path, where: tuple[tuple[str, str], ...]) -> dict[str, list[str]]:
    """The cited rules and chapters that have no label in ``rulebook``, with where."""
    known = labels(rulebook.read_text(encoding="utf-8"))
    return {rule: places for rule, places in citations(root, where).items() if rule not in known}


def _fake_project(root: Path, citing: str) -> Path:
    """A project whose one module cites ``citing`` and whose rule book has R1.1 and §1 only."""
    (root / "src" / "jass").mkdir(parents=True)
    (root / "src" / "jass" / "mod.py").write_text(
        f'"""Cites R1.1, §1 and {citing}."""\n', encoding="utf-8"
    )
    (root / "docs").mkdir()
    rulebook = root / "docs" / "rulebook.rst"
    rulebook.write_text(
        ".. _rulebook-s1:\n\n1. Cards\n--------\n\n.. _R1.1:\n\nR1.1 The deck\n~~~~~~~~~~~~~\n",
        encoding="utf-8",
    )
    return rulebook


# --- the project's citations ----------------------------------------------------------------


def test_every_rule_cited_in_src_has_a_section() -> None:
    gaps = missing(ROOT, RULEBOOK, SOURCES)
    assert not gaps, f"docs/rulebook.rst has no section for {gaps}"


def test_every_rule_cited_elsewhere_has_a_section() -> None:
    gaps = missing(ROOT, RULEBOOK, OTHERS)
    assert not gaps, f"docs/rulebook.rst has no section for {gaps}"


def test_the_code_cites_rules() -> None:
    # The scan must see the citations that are there: these are cited today.
    found = citations(ROOT, SOURCES)
    assert {"R5.5", "R9.2a", "R5.3e", "R7.1", "R7.5", "§11"} <= found.keys()


def test_rule_numbers_have_no_gaps() -> None:
    # Chapters 1-13 in order; in each chapter the rules run 1, 2, 3, ... and the lettered
    # rules a, b, c, ... without a gap.
    known = labels(RULEBOOK.read_text(encoding="utf-8"))
    assert {f"§{n}" for n in range(1, 14)} <= known
    rules_by_chapter: dict[int, set[int]] = {}
    letters: dict[tuple[int, int], set[str]] = {}
    for label in known - {f"§{n}" for n in range(1, 100)}:
        match = re.fullmatch(r"R(\d+)\.(\d+)([a-z]?)", label)
        assert match is not None, label
        chapter, rule, letter = int(match[1]), int(match[2]), match[3]
        rules_by_chapter.setdefault(chapter, set()).add(rule)
        if letter:
            letters.setdefault((chapter, rule), set()).add(letter)
    assert sorted(rules_by_chapter) == list(range(1, 10))
    for chapter, numbers in rules_by_chapter.items():
        assert numbers == set(range(1, max(numbers) + 1)), chapter
    for key, found in letters.items():
        assert found == {chr(ord("a") + i) for i in range(len(found))}, key


def test_rule_book_names_every_option_value_and_preset() -> None:
    text = RULEBOOK.read_text(encoding="utf-8")
    names = list(jass.RuleSet.option_names()) + list(rules.PRESETS)
    for default in jass.RuleSet().options().values():
        if hasattr(type(default), "__members__"):
            names += list(type(default).__members__)
    assert [name for name in names if f"``{name}``" not in text] == []


# --- the scan itself ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(rule book R5.5).", {"R5.5"}),
        ("rule book R7.1-R7.5", {"R7.1", "R7.5"}),
        ("rule book R3.6-3.8", {"R3.6", "R3.8"}),
        ("R8.3 – R8.6", {"R8.3", "R8.6"}),
        ("the step (R9.2a c)", {"R9.2a"}),
        ("R5.3d/e", {"R5.3d"}),
        ("R7.10 and R7.1", {"R7.10", "R7.1"}),
        ("rule book §8-§9, §11", {"§8", "§9", "§11"}),
        ("[GR5.5] PR1.1 x1.2", set()),
    ],
)
def test_scan_reads_the_forms_in_use(text: str, expected: set[str]) -> None:
    assert cited(text) == expected


def test_scan_rejects_a_missing_number(tmp_path: Path) -> None:
    rulebook = _fake_project(tmp_path, f"{NO_RULE} and {NO_CHAPTER}")
    assert missing(tmp_path, rulebook, SOURCES) == {
        NO_RULE: ["src/jass/mod.py:1"],
        NO_CHAPTER: ["src/jass/mod.py:1"],
    }


def test_scan_accepts_a_rule_book_with_every_number(tmp_path: Path) -> None:
    rulebook = _fake_project(tmp_path, "R1.1-R1.1")
    assert missing(tmp_path, rulebook, SOURCES) == {}


# --- the check of the documentation build ---------------------------------------------------


@pytest.fixture(scope="module")
def conf() -> ModuleType:
    """docs/conf.py, loaded as a module (it needs Sphinx)."""
    pytest.importorskip("sphinx")
    spec = importlib.util.spec_from_file_location("jass_docs_conf", ROOT / "docs" / "conf.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_docs_check_passes_on_the_project(conf: ModuleType) -> None:
    assert conf.check_rule_citations() == []
    assert conf.check_rulebook_names(RULEBOOK.read_text(encoding="utf-8")) == []
    conf.check_rulebook()


def test_docs_check_scans_what_the_test_scans(conf: ModuleType) -> None:
    assert conf.rule_citations(ROOT) == citations(ROOT, SOURCES + OTHERS)


def test_docs_check_rejects_a_missing_number(conf: ModuleType, tmp_path: Path) -> None:
    rulebook = _fake_project(tmp_path, f"{NO_RULE} and {NO_CHAPTER}")
    assert conf.check_rule_citations(tmp_path, rulebook) == [
        f"{NO_RULE} is cited in src/jass/mod.py:1 but has no section in the rule book",
        f"{NO_CHAPTER} is cited in src/jass/mod.py:1 but has no section in the rule book",
    ]


def test_docs_build_stops_on_a_missing_number(
    conf: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sphinx.errors import ExtensionError  # noqa: PLC0415

    rulebook = _fake_project(tmp_path, NO_RULE)
    monkeypatch.setattr(conf, "ROOT", tmp_path)
    monkeypatch.setattr(conf, "RULEBOOK", rulebook)
    with pytest.raises(ExtensionError, match=re.escape(f"{NO_RULE} is cited in src/jass/mod.py:1")):
        conf.check_rulebook()


def test_docs_check_needs_every_option(conf: ModuleType) -> None:
    problems = conf.check_rulebook_names("``schneider``")
    assert "the rule book does not name ``ausmach_order``" in problems
    assert "the rule book does not name ``STOECK_STICH_WEIS``" in problems
    assert "the rule book does not name ``SCHIEBER_1000``" in problems
    assert "the rule book does not name ``schneider``" not in problems
