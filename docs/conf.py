"""Sphinx configuration for the jass documentation.

Build the HTML pages and run the examples of the pages with::

    .venv/bin/sphinx-build -W --keep-going -b html docs docs/_build/html
    .venv/bin/sphinx-build -W --keep-going -b doctest docs docs/_build/doctest

The option and preset tables of ``rulesets.rst`` are written from :class:`jass.RuleSet` into
``docs/_generated/`` when the build starts, so they cannot drift from the code.
"""

from __future__ import annotations

import doctest
import enum
import re
import sys
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.util import logging

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent / "src"))

import jass  # noqa: E402
from jass import Card, Contract, rules  # noqa: E402
from jass.rules import Multipliers  # noqa: E402

# -- Project information -----------------------------------------------------------------

project = "jass"
author = "The jass developers"
copyright = "The jass developers"
release = jass.__version__
version = ".".join(release.split(".")[:2])

# -- General configuration ---------------------------------------------------------------

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
]

exclude_patterns = ["_build", "_generated", "Thumbs.db", ".DS_Store"]
root_doc = "index"
language = "en"
# Unresolvable references (typing names, private modules) are not errors; ambiguous ones
# are avoided by documenting every public object exactly once, in api.rst.
nitpicky = False
default_role = "literal"

# -- autodoc and napoleon ----------------------------------------------------------------

autodoc_typehints = "description"
autodoc_typehints_description_target = "all"
autodoc_member_order = "bysource"
autodoc_class_signature = "mixed"
autodoc_preserve_defaults = True
# Members are listed per directive in api.rst, so that no object is documented twice.
autodoc_default_options: dict[str, object] = {}
napoleon_google_docstring = True
napoleon_numpy_docstring = False
# "Attributes:" sections become :ivar: fields, so that they do not clash with autodoc's
# own entries for the same attributes.
napoleon_use_ivar = True

# -- doctest -----------------------------------------------------------------------------

# The pages use explicit ``.. doctest::`` blocks. Plain ``>>>`` blocks come from the
# docstrings pulled in by autodoc: pytest --doctest-modules runs those in their own module's
# namespace, so the doctest builder leaves them alone.
doctest_test_doctest_blocks = ""
doctest_default_flags = (
    doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE | doctest.DONT_ACCEPT_TRUE_FOR_1
)
doctest_global_setup = """
import jass
from jass import Card, CardSet, Contract, Rank, Seat, Suit, Team, rules
"""

# -- HTML --------------------------------------------------------------------------------

html_theme = "alabaster"
html_title = f"jass {release}"
html_theme_options = {
    "description": "Schieber rules engine for Python",
    "fixed_sidebar": True,
}
html_static_path: list[str] = []

# -- Generated pages ---------------------------------------------------------------------

GENERATED = DOCS / "_generated"

#: One line per RuleSet option. The build warns (an error under -W) when an option of
#: RuleSet has no line here, or a line names an option that RuleSet no longer has.
OPTION_DESCRIPTIONS = {
    "suit_pairing": "Which Swiss suit names stand for ♠ ♥ ♦ ♣; display only, pass it to "
    ":meth:`jass.Card.swiss_name`.",
    "multipliers": "The multiplier of everything scored in a hand, per contract: a "
    ":class:`~jass.rules.Multipliers` table or six integers for (♥, ♦, ♠, ♣, Obenabe, "
    "Undenufe).",
    "target": "Points that win the game.",
    "hands": "Play exactly this many hands instead of playing to ``target``; the higher "
    "total wins.",
    "contracts": "The contracts that may be chosen.",
    "weis": "Whether Weis (melds) count.",
    "stoeck": "Whether Stöck (trump King and Queen in one hand) count.",
    "weis_declaration": "Whether the engine declares Weis or the player does.",
    "first_hand_rule": "Who deals the first hand: a draw (the lowest or the highest card "
    "deals), or the holder of a marker card is forehand.",
    "first_hand_marker": "The marker card for ``first_hand_rule=MARKER_CARD``.",
    "dealer_rotation": "Whether the deal passes to the right (``ROTATE``) or to the team "
    "with the higher total in the last hand (``WINNER_DEALS``).",
    "allow_shove_back": "Whether the partner may shove the choice back (*Zurückschieben*).",
    "undertrump_only_trumps": "A player holding only trumps may undertrump (``ANY``) or "
    "must overtrump when able (``ONLY_IF_NO_HIGHER``).",
    "kreuzweis": "Whether one card may count in a sequence and a quartet.",
    "small_weis": "The small Weis table (long sequences 100, no four 8s, 7s or 6s).",
    "small_weis_split_long_runs": "With ``small_weis``, whether a nine-card run may count as "
    "100 + 50.",
    "weis_tie_sequence_vs_quartet": "Which wins a tie between a sequence and a quartet.",
    "undenufe_reverse_weis": "Whether Weis heights are reversed in Undenufe (6-7-8 beats 7-8-9, "
    "four Kings beat four Aces).",
    "weis_requires_trick": "Whether the winning team's Weis count only once it takes a trick.",
    "old_undenufe": "Old Undenufe card values: Ace 11 and Six 0 instead of Six 11 and Ace 0.",
    "counter_match": "What the non-declaring team (not the forehand's) earns for taking "
    "every trick.",
    "match_bonus": "Extra points for taking all nine tricks, multiplied like the rest.",
    "ausmach_order": "Which scoring event counts first when both teams could finish.",
    "stoeck_claim_anytime_to_finish": "Whether Stöck may be shown early when they finish the game.",
    "end_mode": "How a game to ``target`` ends: automatically (``AUTO``), only by thanking "
    "(``THANK``), or at the end of a hand (``END_OF_HAND``).",
    "schneider": "Whether a loser with less than half the target loses double.",
}

#: Options that RuleSet accepts and stores, but that this version of the engine does not
#: read yet (Weis, Stöck and the finer points of the game end). Update on each release.
LATER_OPTIONS = {
    "weis",
    "stoeck",
    "weis_declaration",
    "kreuzweis",
    "small_weis",
    "small_weis_split_long_runs",
    "weis_tie_sequence_vs_quartet",
    "undenufe_reverse_weis",
    "weis_requires_trick",
    "ausmach_order",
    "stoeck_claim_anytime_to_finish",
    "schneider",
}

#: A player-facing line per preset; checked against jass.rules.PRESETS like the options.
PRESET_DESCRIPTIONS = {
    "SCHIEBER": "The library default and ``RuleSet()``: the Swisslos rules to 2500, "
    "black suits double, Obenabe and Undenufe triple.",
    "SCHIEBER_1000": "To 1000, everything counted once, no Kreuzweis.",
    "TRADITIONAL": "The system described by the English Wikipedia and Parlett: Undenufe "
    "×4, small Weis, the first forehand holds the 7♦.",
    "BEGINNER": "A beginner's game: trump contracts only, no Weis, no Stöck, to 1000, "
    "decided at the end of a hand.",
    "TOURNAMENT_12": "Twelve hands, everything counted once, no Weis, no Stöck, no match bonus.",
}


def _plain(value: Any) -> str:
    """An option value as plain text."""
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, frozenset) and all(isinstance(c, Contract) for c in value):
        return "{" + ", ".join(c.name for c in sorted(value, key=lambda c: c.index)) + "}"
    if isinstance(value, Card):
        return str(value)
    return repr(value)


def _show(value: Any) -> str:
    """An option value as reStructuredText."""
    if value == jass.rules.STANDARD_CONTRACTS:
        return "all six contracts"
    return f"``{_plain(value)}``"


def _accepted(name: str, default: Any) -> str:
    """The values an option accepts, from its default's type."""
    if isinstance(default, bool):
        return "``True``, ``False``"
    if name == "multipliers":
        return ", ".join(f"``{m.name}``" for m in Multipliers) + ", or six integers"
    if isinstance(default, enum.Enum):
        return ", ".join(f"``{m.name}``" for m in type(default))
    if name == "contracts":
        return "any non-empty set of contracts"
    if name == "first_hand_marker":
        return "any card"
    if name == "hands":
        return "``None`` or a positive integer"
    if name == "match_bonus":
        return "a non-negative integer"
    return "a positive integer"


def _cell(text: str) -> str:
    return text.replace("\n", " ")


def _list_table(header: list[str], rows: list[list[str]], widths: str) -> list[str]:
    lines = [".. list-table::", "   :header-rows: 1", f"   :widths: {widths}", ""]
    for row in [header, *rows]:
        lines.append(f"   * - {_cell(row[0])}")
        lines.extend(f"     - {_cell(cell)}" for cell in row[1:])
    lines.append("")
    return lines


def _options_table() -> list[str]:
    defaults = jass.RuleSet().options()
    rows = []
    for name in jass.RuleSet.option_names():
        text = OPTION_DESCRIPTIONS.get(name, "")
        if name in LATER_OPTIONS:
            text += " *Stored; takes effect in a later version.*"
        rows.append([f"``{name}``", _show(defaults[name]), _accepted(name, defaults[name]), text])
    return _list_table(["Option", "Default", "Accepted values", "Meaning"], rows, "22 14 24 40")


def _multipliers_table() -> list[str]:
    rows = [[f"``{m.name}``", *(f"×{v}" for v in m.value)] for m in Multipliers]
    header = ["Table", "♥", "♦", "♠", "♣", "Obenabe", "Undenufe"]
    return _list_table(header, rows, "30 10 10 10 10 15 15")


def _presets_table() -> list[str]:
    rows = []
    for name, preset in rules.PRESETS.items():
        changes = preset.changes_from(rules.SCHIEBER)
        changed = (
            ", ".join(f"``{key}={_plain(value)}``" for key, value in changes.items())
            or "none: all defaults"
        )
        rows.append([f"``{name}``", PRESET_DESCRIPTIONS.get(name, ""), changed])
    return _list_table(["Preset", "What it is", "Changes from ``SCHIEBER``"], rows, "18 42 40")


def _presets_api() -> list[str]:
    """A ``py:data`` entry per preset, for api.rst (autodata would show RuleSet's docstring)."""
    lines = []
    for name, preset in rules.PRESETS.items():
        changes = preset.changes_from(rules.SCHIEBER)
        changed = ", ".join(f"``{key}={_plain(value)}``" for key, value in changes.items())
        lines += [
            f".. py:data:: {name}",
            "   :type: RuleSet",
            "",
            f"   {PRESET_DESCRIPTIONS.get(name, '')}",
        ]
        if changed:
            lines += ["", f"   ``SCHIEBER`` with {changed}."]
        lines.append("")
    return lines


def _check_descriptions(logger: Any) -> None:
    names = set(jass.RuleSet.option_names())
    for missing in sorted(names - OPTION_DESCRIPTIONS.keys()):
        logger.warning(
            "docs/conf.py: RuleSet option %r has no entry in OPTION_DESCRIPTIONS", missing
        )
    for stale in sorted((OPTION_DESCRIPTIONS.keys() | LATER_OPTIONS) - names):
        logger.warning("docs/conf.py: %r is not a RuleSet option any more", stale)
    presets = set(rules.PRESETS)
    for missing in sorted(presets - PRESET_DESCRIPTIONS.keys()):
        logger.warning("docs/conf.py: preset %r has no entry in PRESET_DESCRIPTIONS", missing)
    for stale in sorted(PRESET_DESCRIPTIONS.keys() - presets):
        logger.warning("docs/conf.py: %r is not a preset any more", stale)


def _write(path: Path, lines: list[str]) -> None:
    """Write ``path`` only when its text changes, so incremental builds stay incremental."""
    text = "\n".join(lines).rstrip() + "\n"
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def generate_tables(_app: Any) -> None:
    """Write docs/_generated/*.inc from the code before any page is read."""
    _check_descriptions(logging.getLogger(__name__))
    GENERATED.mkdir(exist_ok=True)
    _write(GENERATED / "options.inc", _options_table())
    _write(GENERATED / "multipliers.inc", _multipliers_table())
    _write(GENERATED / "presets.inc", _presets_table())
    _write(GENERATED / "presets_api.inc", _presets_api())


# Napoleon reads the first line of a property's docstring as "type: description", but the
# properties of jass start with a plain sentence ("The one-letter French name: ``S``, ...")
# and show their type in the signature. Keep their docstrings as written.
_PROPERTY_DOCSTRINGS: dict[str, list[str]] = {}


def _keep_property_docstring(*args: Any) -> None:
    _app, what, name, _obj, _options, lines = args
    if what == "property":
        _PROPERTY_DOCSTRINGS[name] = list(lines)


def _restore_property_docstring(*args: Any) -> None:
    _app, what, name, _obj, _options, lines = args
    if what == "property" and name in _PROPERTY_DOCSTRINGS:
        lines[:] = _PROPERTY_DOCSTRINGS.pop(name)


def _tidy_class_fields(_app: Any, domain: str, objtype: str, contentnode: Any) -> None:
    """Tidy the type fields that autodoc adds to a class description.

    A class inherits a "Return type" from ``__new__`` (``Self``): drop it. The constructor's
    parameters are in the signature line, and the attrs value classes list their fields
    with types under "Attributes" (shown as Variables), so drop the parameter fields too.
    """
    if domain != "py" or objtype not in {"class", "exception"}:
        return
    for field_list in [n for n in contentnode.children if isinstance(n, nodes.field_list)]:
        for field in list(field_list.children):
            name = field[0].astext()
            if name == "rtype" or name.startswith(("param ", "type ")):
                field_list.remove(field)
        if not field_list.children:
            contentnode.remove(field_list)


_PRIVATE_MODULE = re.compile(
    r"\bjass\.(?:cards|contracts|seats|actions|errors|play|scoring|state|rules\.ruleset)\."
)


def _public_vartypes(*args: Any) -> None:
    """Write attribute types as ``jass.Seat`` (documented) rather than ``jass.seats.Seat``."""
    lines: list[str] = args[-1]
    for i, line in enumerate(lines):
        if line.lstrip().startswith(":vartype "):
            lines[i] = _PRIVATE_MODULE.sub("jass.", line)


#: Classes whose constructor is internal: users get instances from class methods.
_NO_SIGNATURE = {"jass.Contract"}


def _hide_internal_signature(*args: Any) -> tuple[str, None] | None:
    _app, what, name = args[:3]
    if what == "class" and name in _NO_SIGNATURE:
        return "", None
    return None


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", generate_tables)
    app.connect("autodoc-process-docstring", _keep_property_docstring, priority=100)
    app.connect("autodoc-process-docstring", _restore_property_docstring, priority=900)
    app.connect("autodoc-process-docstring", _public_vartypes, priority=900)
    app.connect("object-description-transform", _tidy_class_fields, priority=900)
    app.connect("autodoc-process-signature", _hide_internal_signature)
    return {"parallel_read_safe": True}
