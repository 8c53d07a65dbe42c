"""Sphinx configuration for the jass documentation.

Build the HTML pages and run the examples of the pages with::

    .venv/bin/sphinx-build -W --keep-going -b html docs docs/_build/html
    .venv/bin/sphinx-build -W --keep-going -b doctest docs docs/_build/doctest

The option, preset and source tables of ``rulesets.rst`` are written from :class:`jass.RuleSet`
and ``jass.rules.PRESETS`` into ``docs/_generated/`` when the build starts, and the build stops
when an option or a preset lacks its description and sources, so they cannot drift from the
code.

The rule book, ``rulebook.rst``, must have a section for every rule number (``R5.5``) and
chapter (``§7``) cited in the code, the tests and the pages, and must name every option and
preset: the build stops when it does not (see "The rule book" below).
"""

from __future__ import annotations

import doctest
import enum
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.errors import ExtensionError
from sphinx.transforms import SphinxTransform

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent / "src"))

import jass  # noqa: E402
from jass import Card, Contract, rules, svg  # noqa: E402
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

# -- HTML --------------------------------------------------------------------------------

html_theme = "alabaster"
html_title = f"jass {release}"
html_theme_options = {
    "description": "Schieber rules engine for Python",
    "fixed_sidebar": True,
}
html_static_path: list[str] = []

# -- Generated pages ---------------------------------------------------------------------
#
# The option, preset and source tables of rulesets.rst (and the preset entries of api.rst)
# are written from the code when the build starts. Each option and each preset needs an
# entry below; every value named here is checked by building a RuleSet with it; every
# source tag used must be in SOURCES and every entry of SOURCES must be used. Any mismatch
# stops the build (also without -W), so the tables cannot drift from jass.RuleSet and
# jass.rules.PRESETS. The sources are copied from rule book §11, §12 and §15 (and the sections
# those tables point to): update them together.

GENERATED = DOCS / "_generated"


@dataclass(frozen=True)
class Choice:
    """One documented value of an option, with the sources that back it (rule book §11)."""

    value: Any
    sources: str = ""
    note: str = ""
    #: Shown instead of the value (reStructuredText), for values too long to print.
    label: str = ""


@dataclass(frozen=True)
class OptionDoc:
    """The meaning of an option and its documented values, the default among them."""

    meaning: str
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class PresetDoc:
    """A player-facing line for a preset and the rule system it reproduces (rule book §12)."""

    description: str
    sources: str


_SIX = "all six contracts"
_FOUR_TRUMPS = frozenset(Contract.trump(suit) for suit in jass.Suit)

#: Every RuleSet option, in the order of rule book §11.
OPTIONS: dict[str, OptionDoc] = {
    "suit_pairing": OptionDoc(
        "Which Swiss suit names stand for ♠ ♥ ♦ ♣; display only (pass it to "
        ":meth:`jass.Card.swiss_name`). Multipliers are given per French suit, so no score "
        "depends on it.",
        (
            Choice(
                "SWISSLOS",
                "[SL][S0]",
                "keeps “Schellen and Schilten double” = the black suits double, as S0 and S3 say",
            ),
            Choice("WIKIPEDIA", "[S3 table][JK][ALS]"),
            Choice("PARLETT", "[PAR]"),
        ),
    ),
    "multipliers": OptionDoc(
        "The multiplier of everything scored in a hand, per contract: a "
        ":class:`~jass.rules.Multipliers` table or six integers for (♥, ♦, ♠, ♣, Obenabe, "
        "Undenufe). Misère always counts once.",
        (
            Choice("SWISSLOS_2500", "[SL][WZ][S0]", "♠ ♣ ×2, Obenabe and Undenufe ×3"),
            Choice("FLAT", "[SL][S2][S0 “To 1000”]", "everything ×1"),
            Choice("PAGAT_RED_DOUBLE", "[S0 re pagat][PAR]", "♥ ♦ ×2"),
            Choice("WIKIPEDIA_EN", "[S3][SP]", "Undenufe ×4"),
            Choice("URIKON", "[URI]", "♠ ♣ ×2, Obenabe and Undenufe ×2"),
        ),
    ),
    "target": OptionDoc(
        "Points that win the game.",
        (
            Choice(2500, "[SL][S0][S3][PAR]", "with multipliers"),
            Choice(1000, "[SL][S2][JWK][SJ]"),
            Choice(1500, "[pyschieber]"),
            Choice(2000, "[URI][jass-marathon]"),
            Choice(3000, "[PG-de][SP][GR][PAR]"),
        ),
    ),
    "hands": OptionDoc(
        "Play exactly this many hands instead of playing to ``target``; the higher total "
        "wins, equal totals are a draw, and thanking is not allowed.",
        (
            Choice(None, "", "play to the target"),
            Choice(12, "[SL][S0 “12 hands”][TH][DC]", "the tournament format"),
        ),
    ),
    "contracts": OptionDoc(
        "The contracts that may be chosen.",
        (
            Choice(jass.rules.STANDARD_CONTRACTS, "[S0][S1][S2][S3]", label=_SIX),
            Choice(_FOUR_TRUMPS, "[S4]", "BEGINNER", label="the four trump suits"),
            Choice(Contract.all(), "[S3][JWK]", "TRADITIONAL", label="the six and ``MISERE``"),
        ),
    ),
    "weis": OptionDoc(
        "Whether Weis (melds) count.",
        (
            Choice(value=True, sources="[S0][S1][S2][S3]"),
            Choice(value=False, sources="[S4][SL][TH][DC]", note="BEGINNER, TOURNAMENT_12"),
        ),
    ),
    "stoeck": OptionDoc(
        "Whether Stöck (trump King and Queen in one hand) count.",
        (
            Choice(value=True, sources="[S0][S2][S3][JW][JWK]"),
            Choice(value=False, sources="[S4][SL][TH][DC]", note="BEGINNER, TOURNAMENT_12"),
        ),
    ),
    "weis_declaration": OptionDoc(
        "Whether the engine declares every Weis (``AUTO``) or the player chooses what to "
        "declare with :meth:`jass.Game.declare_weis` (``MANUAL``).",
        (
            Choice("AUTO", "", "all Weis are declared"),
            Choice("MANUAL", "[S0][S1][DEW][JW][PAR]", "declaring is optional"),
        ),
    ),
    "first_hand_rule": OptionDoc(
        "Who deals the first hand: a draw (the lowest or the highest card deals), or the "
        "holder of a marker card is forehand.",
        (
            Choice("DRAW_LOWEST_DEALS", "[S0][jass-marathon]"),
            Choice("DRAW_HIGHEST_DEALS", "[GR][jassen-stallikon]"),
            Choice("MARKER_CARD", "[S3][PG-de][S0][SJ]"),
        ),
    ),
    "first_hand_marker": OptionDoc(
        "The marker card for ``first_hand_rule=MARKER_CARD``.",
        (
            Choice("7D", "[S3][S0]"),
            Choice("7H", "[PG-de][SP][GR][S0]", "the seven of roses"),
            Choice("10D", "[SJ]"),
        ),
    ),
    "dealer_rotation": OptionDoc(
        "Whether the deal passes to the right (``ROTATE``) or to the team with the higher "
        "total in the last hand (``WINNER_DEALS``).",
        (
            Choice("ROTATE", "[S0][S1][PG-de]"),
            Choice("WINNER_DEALS", "[S3]", "a single source"),
        ),
    ),
    "allow_shove_back": OptionDoc(
        "Whether the partner may shove the choice back (*Zurückschieben*).",
        (
            Choice(value=False, sources="[SL][S0][S2][jass-marathon]"),
            Choice(value=True, sources="[SP][S0 variants]"),
        ),
    ),
    "undertrump_only_trumps": OptionDoc(
        "A player holding only trumps may undertrump (``ANY``) or must overtrump when able "
        "(``ONLY_IF_NO_HIGHER``).",
        (
            Choice("ANY", "[JO][SL][S0]"),
            Choice("ONLY_IF_NO_HIGHER", "[SP wording][JWK*]"),
        ),
    ),
    "kreuzweis": OptionDoc(
        "Whether one card may count in a sequence and a quartet (*Kreuzweis*).",
        (
            Choice(value=True, sources="[S0][S1][JW][DEW][JWK]"),
            Choice(value=False, sources="[S2][S3][S0 Small Weis][JR]"),
        ),
    ),
    "small_weis": OptionDoc(
        "The small Weis table: sequences longer than five count 100, four 8s, 7s or 6s are "
        "no Weis.",
        (
            Choice(value=False, sources="[S0][S1][S2][JW][JV][DEW][JWK]", note="big Weis"),
            Choice(value=True, sources="[S3][SP][JCH][JO simple Weis]"),
        ),
    ),
    "small_weis_split_long_runs": OptionDoc(
        "With ``small_weis``, whether a nine-card run counts as 100 (five from the Ace) plus "
        "50 (four from the 9).",
        (Choice(value=False), Choice(value=True, sources="[JO]")),
    ),
    "weis_tie_sequence_vs_quartet": OptionDoc(
        "Which wins between a sequence and a quartet of equal points.",
        (
            Choice("SEQUENCE_FIRST", "[S0][S1][S2][S3][JWK][JO]"),
            Choice("QUARTET_FIRST", "[JCH]"),
        ),
    ),
    "undenufe_reverse_weis": OptionDoc(
        "Whether Weis heights are reversed in Undenufe (6-7-8 beats 7-8-9, four Kings beat "
        "four Aces).",
        (
            Choice(value=True, sources="[S0][S1][S2][S3][PAR]"),
            Choice(value=False, sources="[JO]", note="the literal older wording"),
        ),
    ),
    "weis_requires_trick": OptionDoc(
        "Whether the winning team's Weis count only once it takes a trick (void if it takes none).",
        (Choice(value=False, sources="[JV]"), Choice(value=True, sources="[JR]")),
    ),
    "old_undenufe": OptionDoc(
        "Old Undenufe card values: Ace 11 and Six 0 instead of Six 11 and Ace 0.",
        (
            Choice(value=False, sources="[S0][S1][S2][jassplausch][jassinfo]"),
            Choice(value=True, sources="[S0][S3]"),
        ),
    ),
    "counter_match": OptionDoc(
        "What the non-declaring team (not the forehand's) earns for taking every trick.",
        (
            Choice("SAME_AS_MATCH", "[S0][S1][S2][JCH]", "the match bonus"),
            Choice("NONE", "[S3]", "nothing: only the declaring team earns a match"),
            Choice("DOUBLE_TRICK_POINTS", "[S3 literal]", "2 × 157"),
            Choice("DOUBLE_MATCH", "[URI]", "2 × (157 + ``match_bonus``)"),
        ),
    ),
    "match_bonus": OptionDoc(
        "Extra points for taking all nine tricks, multiplied like the rest.",
        (
            Choice(100, "[S0][S1][S2][S3][URI]"),
            Choice(0, "[TH][DC]", "“a match counts 157”"),
            Choice(50, "[JP]"),
        ),
    ),
    "ausmach_order": OptionDoc(
        "Which scoring event counts first when both teams could finish: Stöck, then Weis, "
        "then the trick (*Stöck – Weis – Stich*), or Stöck, trick, Weis.",
        (
            Choice("STOECK_WEIS_STICH", "[SL][S0][S1][S3][AM][JWK][SAAN]"),
            Choice("STOECK_STICH_WEIS", "[S0 variant][AM][JWK]", "by prior agreement"),
        ),
    ),
    "stoeck_claim_anytime_to_finish": OptionDoc(
        "Whether unscored Stöck may be shown at any moment when they finish the game.",
        (Choice(value=True, sources="[PNA][PAR][AM]"), Choice(value=False)),
    ),
    "end_mode": OptionDoc(
        "How a game to ``target`` ends: automatically at the first scoring event that "
        "reaches it (``AUTO``), only by thanking (``THANK``), or at the end of a hand "
        "(``END_OF_HAND``).",
        (
            Choice("AUTO", "[SL]", "``thank()`` stays available"),
            Choice("THANK", "[S0]"),
            Choice("END_OF_HAND", "[S4]"),
        ),
    ),
    "schneider": OptionDoc(
        "Whether a loser with less than half the target loses double (the stake of the "
        "result is 2).",
        (Choice(value=False), Choice(value=True, sources="[S0 variants][JWK]")),
    ),
}

#: Every preset of jass.rules.PRESETS (rule book §12).
PRESETS_DOC: dict[str, PresetDoc] = {
    "SCHIEBER": PresetDoc(
        "The library default and ``RuleSet()``: the Swisslos rules to 2500, black suits "
        "double, Obenabe and Undenufe triple, big Weis with Kreuzweis.",
        "S0 main rules; Swisslos 2500 [S0][SL]",
    ),
    "SCHIEBER_1000": PresetDoc(
        "To 1000, everything counted once, a card in one Weis only.",
        "S2; Swisslos 1000 [S2][SL] (S0 “To 1000” keeps Kreuzweis)",
    ),
    "TRADITIONAL": PresetDoc(
        "The system described by the English Wikipedia and Parlett: Undenufe ×4, small "
        "Weis, Misère, the counter-match doubles the trick points, the first forehand holds "
        "the 7♦.",
        "S3 (Wikipedia, Parlett) [S3][PAR]",
    ),
    "BEGINNER": PresetDoc(
        "A beginner's game: trump contracts only, no Weis, no Stöck, to 1000, decided at "
        "the end of a hand.",
        "S4 [S4]",
    ),
    "TOURNAMENT_12": PresetDoc(
        "Twelve hands, everything counted once, no Weis, no Stöck, no match bonus.",
        "S0 “12 hands”; Swisslos tournament [S0][SL][TH][DC]",
    ),
    "JASSKIT": PresetDoc(
        "What jass-kit scores: one hand, card points and the last trick's 5 only (157 in "
        "all), no Weis, no Stöck, no match bonus, everything counted once.",
        "jass-kit 2.0.5, the engine of a university course's tournament",
    ),
}

#: The source tags used above, as rule book §15 lists them.
SOURCES: dict[str, str] = {
    "S0": "Seed document 000, “Jass (Schieber) – Full rules”, with its list of variants.",
    "S1": "Seed document 001, “Swiss Jass – a simple introduction”, a blog following the "
    "official rulebook *Puur, Näll, As*.",
    "S2": "Seed document 002, the jass.yeeqia.com rules (a 1000-point game).",
    "S3": "Seed document 003, the English Wikipedia article “Jass”, Schieber section.",
    "S4": "Seed document 004, “How to Play Jass” (Playmore beginner's guide).",
    "SL": "swisslos.ch, Schieber Jass-Regeln (German and English).",
    "PG-de": "pagat.com/de/jass/schieber.html (Nick Wedd, John McLeod).",
    "PAR": "D. Parlett, *Penguin Book of Card Games*, Schieber and Handjass.",
    "PNA": "*Puur, Näll, As – Offizielles Schweizer Jassreglement* (Egg, Hagenbucher), as "
    "quoted by jasswelt.ch and jass-marathon.ch.",
    "JW": "jasswelt.ch, “Weisregeln”.",
    "JV": "jassverzeichnis.ch, “Überblick Weisregeln” and “Untertrumpfen”.",
    "JO": "jassonkel.ch, Jasslehrgang and Jassauskunft.",
    "DEW": "German Wikipedia, “Weis (Jassen)”.",
    "JWK": "jasswiki.ch and its text export; JWK* marks articles that contradict all other "
    "sources.",
    "AM": "allmedias.ch, “Regeln Schieber”.",
    "SP": "spotlightongames.com, Jass summary.",
    "JCH": "jassen.ch, Schieber.",
    "URI": "urikon.ch, “Schiäber”.",
    "JR": "jesserothacher.com, “The Rules of Jass”.",
    "GR": "gamerules.com, Schieber Jass.",
    "SJ": "schweizerjass.ch, Schieber.",
    "ALS": "Alemannic Wikipedia, “Jass”.",
    "SAAN": "anzeigervonsaanen.ch, “Die Weisregeln”.",
    "TH": "Tournament rules of the Dorfverein Thalheim.",
    "JP": "Tournament rules of jassplausch.ch.",
    "DC": "Tournament rules of the Swiss Club DC.",
    "JK": "jass-kit-py (github thomas-koller), ``rule_schieber.py`` and ``const.py``.",
    "WZ": "webplatformz/challenge (github), the validators and counter of its server.",
    "jass-marathon": "jass-marathon.ch, “regeln in kürze”.",
    "jassen-stallikon": "jassen-stallikon.ch.",
    "jassplausch": "jassplausch.ch.",
    "jassinfo": "jassinfo.ch/srk.",
    "pyschieber": "pyschieber, a Python implementation of Schieber (cited for the "
    "1500-point target).",
}

_TAG = re.compile(r"\[([^\]]+)\]")


def _tags(text: str) -> list[str]:
    """The source tags in ``text``: ``[S0 variants]`` is S0, ``[JWK*]`` is JWK."""
    return [match.split()[0].rstrip("*") for match in _TAG.findall(text)]


def _sources(text: str) -> str:
    """Source tags as reStructuredText (an asterisk must not start emphasis)."""
    return text.replace("*", r"\*").replace("][", "] [")


# An option that only refines another one is checked with that one set (rule book R7.3).
_PREREQUISITES: dict[str, dict[str, Any]] = {"small_weis_split_long_runs": {"small_weis": True}}


def _normalised(name: str, value: Any) -> Any:
    """``value`` as RuleSet stores it; raises InvalidInputError when RuleSet rejects it."""
    return getattr(jass.RuleSet(**{**_PREREQUISITES.get(name, {}), name: value}), name)


def _checked(name: str, value: Any) -> tuple[Any, str]:
    """``value`` as RuleSet stores it and ``""``, or ``None`` and why RuleSet rejects it."""
    try:
        return _normalised(name, value), ""
    except jass.InvalidInputError as exc:
        return None, str(exc)


def _plain(value: Any) -> str:
    """An option value as plain text."""
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, frozenset) and all(isinstance(c, Contract) for c in value):
        return "{" + ", ".join(c.name for c in sorted(value, key=lambda c: c.index)) + "}"
    if isinstance(value, Card):
        return str(value)
    return repr(value)


def _show(name: str, choice: Choice) -> str:
    """A documented value with its note and sources, as reStructuredText."""
    text = choice.label or f"``{_plain(_normalised(name, choice.value))}``"
    if choice.note:
        text += f" ({choice.note})"
    if choice.sources:
        text += " " + _sources(choice.sources)
    return text


def _open_values(name: str, default: Any) -> str:
    """What else an option accepts besides its documented values, from its default."""
    if name == "multipliers":
        return "six positive integers"
    if name == "contracts":
        return "any non-empty set of contracts"
    if name == "first_hand_marker":
        return "any card"
    if name == "hands":
        return "any positive integer"
    if name == "match_bonus":
        return "any non-negative integer"
    if isinstance(default, int) and not isinstance(default, bool):
        return "any positive integer"
    return ""


def check_docs() -> list[str]:
    """Every way in which the tables above disagree with the code; empty when they agree."""
    problems = []
    names = jass.RuleSet.option_names()
    defaults = jass.RuleSet().options()
    problems += [f"RuleSet option {n!r} has no entry in OPTIONS" for n in names if n not in OPTIONS]
    problems += [f"OPTIONS names {n!r}: not a RuleSet option" for n in OPTIONS if n not in names]
    for name, doc in OPTIONS.items():
        if name not in defaults:
            continue
        checked = [_checked(name, choice.value) for choice in doc.choices]
        problems += [f"OPTIONS[{name!r}]: {error}" for _, error in checked if error]
        values = [value for value, error in checked if not error]
        default = defaults[name]
        if values.count(default) != 1:
            problems.append(f"OPTIONS[{name!r}] must document the default {_plain(default)} once")
        if len(set(map(_plain, values))) != len(values):
            problems.append(f"OPTIONS[{name!r}] documents a value twice")
        if isinstance(default, bool):
            expected = {True, False}
        elif isinstance(default, enum.Enum):
            expected = set(type(default))
        else:
            continue
        problems += [
            f"OPTIONS[{name!r}] has no entry for {_plain(value)}"
            for value in sorted(expected - set(values), key=_plain)
        ]
    presets = set(rules.PRESETS)
    problems += [f"preset {p!r} has no entry in PRESETS_DOC" for p in presets - PRESETS_DOC.keys()]
    problems += [f"PRESETS_DOC names {p!r}: not a preset" for p in PRESETS_DOC.keys() - presets]
    used = {tag for doc in OPTIONS.values() for c in doc.choices for tag in _tags(c.sources)}
    used |= {tag for doc in PRESETS_DOC.values() for tag in _tags(doc.sources)}
    problems += [f"source tag [{t}] is not in SOURCES" for t in sorted(used - SOURCES.keys())]
    problems += [f"SOURCES entry {t!r} is not used" for t in sorted(SOURCES.keys() - used)]
    return problems


def _cell(text: str | list[str]) -> list[str]:
    """One list-table cell; a list becomes a bullet list inside the cell."""
    if isinstance(text, str):
        return [f"- {text}"]
    return [f"- * {text[0]}", *(f"  * {item}" for item in text[1:])] if text else ["-"]


def _list_table(header: list[str], rows: list[list[Any]], widths: str) -> list[str]:
    lines = [".. list-table::", "   :header-rows: 1", f"   :widths: {widths}", ""]
    for row in [header, *rows]:
        for index, cell in enumerate(row):
            first, *more = _cell(cell)
            lines.append(("   * " if index == 0 else "     ") + first)
            lines.extend("     " + line for line in more)
    lines.append("")
    return lines


def _options_table() -> list[str]:
    defaults = jass.RuleSet().options()
    rows = []
    for name in jass.RuleSet.option_names():
        doc = OPTIONS[name]
        default = defaults[name]
        first = next(c for c in doc.choices if _normalised(name, c.value) == default)
        others = [_show(name, c) for c in doc.choices if c is not first]
        more = _open_values(name, default)
        if more:
            others.append(f"or {more}")
        rows.append([f"``{name}``", _show(name, first), others, doc.meaning])
    header = ["Option", "Default (sources)", "Other values (sources)", "Meaning"]
    return _list_table(header, rows, "18 24 30 28")


def _multipliers_table() -> list[str]:
    rows = [[f"``{m.name}``", *(f"×{v}" for v in m.value)] for m in Multipliers]
    header = ["Table", "♥", "♦", "♠", "♣", "Obenabe", "Undenufe"]
    return _list_table(header, rows, "30 10 10 10 10 15 15")


def _changes(preset: jass.RuleSet) -> str:
    changes = preset.changes_from(rules.SCHIEBER)
    return ", ".join(f"``{key}={_plain(value)}``" for key, value in changes.items())


def _presets_table() -> list[str]:
    rows = [
        [
            f"``{name}``",
            _sources(PRESETS_DOC[name].sources),
            PRESETS_DOC[name].description,
            _changes(preset) or "none: all defaults",
        ]
        for name, preset in rules.PRESETS.items()
    ]
    header = ["Preset", "Rule system (sources)", "What it is", "Changes from ``SCHIEBER``"]
    return _list_table(header, rows, "16 20 32 32")


def _sources_table() -> list[str]:
    rows = [[f"[{tag}]", text] for tag, text in SOURCES.items()]
    return _list_table(["Tag", "Source"], rows, "20 80")


def _presets_api() -> list[str]:
    """A ``py:data`` entry per preset, for api.rst (autodata would show RuleSet's docstring)."""
    lines = []
    for name, preset in rules.PRESETS.items():
        doc = PRESETS_DOC[name]
        lines += [
            f".. py:data:: {name}",
            "   :type: RuleSet",
            "",
            f"   {doc.description} Rule system: {_sources(doc.sources)}.",
        ]
        changed = _changes(preset)
        if changed:
            lines += ["", f"   ``SCHIEBER`` with {changed}."]
        lines.append("")
    return lines


def _write(path: Path, lines: list[str]) -> None:
    """Write ``path`` only when its text changes, so incremental builds stay incremental."""
    text = "\n".join(lines).rstrip() + "\n"
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def generate_tables(_app: Any) -> None:
    """Check the tables against the code, then write docs/_generated/*.inc."""
    problems = check_docs()
    if problems:
        raise ExtensionError("docs/conf.py disagrees with the code:\n  " + "\n  ".join(problems))
    GENERATED.mkdir(exist_ok=True)
    _write(GENERATED / "options.inc", _options_table())
    _write(GENERATED / "multipliers.inc", _multipliers_table())
    _write(GENERATED / "presets.inc", _presets_table())
    _write(GENERATED / "sources.inc", _sources_table())
    _write(GENERATED / "presets_api.inc", _presets_api())


# -- Pictures ----------------------------------------------------------------------------
#
# The pictures of the pages are drawn by jass.svg when the build starts, from the same states
# that the examples next to them build, and written to docs/_generated/ (never committed), so
# they always show what the code draws. A page shows one with ``.. image:: _generated/NAME``.


def _quickstart_hand() -> jass.Game:
    """The quickstart's hand: seed 7, shoved, spades, the lowest legal card every time."""
    g = jass.Game.new(rules.SCHIEBER, seed=7).deal().shove().choose("spades")
    while g.phase is jass.Phase.PLAY:
        g = g.play(min(g.legal_moves()))
    return g


def _quickstart_position() -> jass.Game:
    """The quickstart's exact position: seat 2 to play after AS and the Nell of clubs."""
    deal = [
        "AS KS 6H 7H 7D 8D 9D 6C 7C",
        "6S 8H 9H 10H 6D 10D JD 8C 9C",
        "7S 8S JH QH QD KD 10C JC AC",
        "9S 10S JS QS KH AH AD QC KC",
    ]
    g = jass.Game.new(rules.SCHIEBER, seed=1, dealer=jass.Seat(3)).deal(hands=deal)
    return g.choose("clubs").play("AS").play("9C")


def _quickstart_game_over() -> jass.Game:
    """The quickstart's short game to 300, hearts every hand."""
    g = jass.Game.new(rules.SCHIEBER.evolve(target=300), seed=7)
    while not g.is_over:
        if g.phase is jass.Phase.DEAL:
            g = g.deal()
        elif g.phase is jass.Phase.CHOOSE:
            g = g.choose("hearts")
        else:
            g = g.play(min(g.legal_moves()))
    return g


def _undertrump_hand() -> str:
    """The rules page's undertrump example: 6H 9H 7D under hearts, with AS QH in the trick."""
    hand = jass.CardSet.parse("6H 9H 7D")
    trick = [Card.parse("AS"), Card.parse("QH")]
    legal = jass.legal_cards(hand, trick, Contract.trump(jass.Suit.HEARTS))
    return svg.cards(hand, highlight=legal)


def _bots_position() -> jass.Game:
    """The bots page's position: seed 4, Obenabe, five cards played, the lowest legal each."""
    g = jass.Game.new(seed=4).deal().choose("obenabe")
    for _ in range(5):
        g = g.play(min(g.legal_moves()))
    return g


def _bots_view() -> str:
    """The position as the seat to move sees it: what a bot receives."""
    g = _bots_position()
    return svg.table(g.view(g.to_move or 0), last_trick=True)


#: Every picture of the pages, by file name: how to draw it.
PICTURES: dict[str, Callable[[], str]] = {
    "quickstart-deal.svg": lambda: svg.table(jass.Game.new(rules.SCHIEBER, seed=7).deal()),
    "quickstart-position.svg": lambda: svg.table(_quickstart_position()),
    "quickstart-hand-over.svg": lambda: svg.table(_quickstart_hand(), last_trick=True),
    "quickstart-game-over.svg": lambda: svg.table(_quickstart_game_over()),
    "rules-deck.svg": lambda: svg.cards(jass.CardSet.full()),
    "rules-deck-swiss.svg": lambda: svg.cards(jass.CardSet.full(), swiss=True),
    "rules-undertrump.svg": _undertrump_hand,
    "bots-view.svg": _bots_view,
    "bots-open.svg": lambda: svg.table(_bots_position(), open_cards=True),
}


def generate_pictures(_app: Any) -> None:
    """Draw every picture of PICTURES into docs/_generated/."""
    GENERATED.mkdir(exist_ok=True)
    for name, draw in PICTURES.items():
        _write(GENERATED / name, [draw()])


# -- The rule book ------------------------------------------------------------------------
#
# docs/rulebook.rst is the project's normative rules reference. Each rule has a label named by
# its number in front of its heading (``.. _R5.5:``, ``.. _R9.2a:``) and each chapter a label
# ``rulebook-s<n>``. The code, the tests and the documentation cite rules as "R5.5" or "R9.2a"
# (in a range such as "R7.1-R7.5" each end counts) and chapters as "§7". When the build
# starts, every number cited in the files of CITING must have its label in the rule book, and
# the rule book must name every RuleSet option, every value of an enum option and every
# preset; any gap stops the build (also without -W). tests/test_rulebook.py runs the same scan.

ROOT = DOCS.parent
RULEBOOK = DOCS / "rulebook.rst"

#: The files whose citations are checked: (folder under the project root, glob pattern).
CITING: tuple[tuple[str, str], ...] = (
    ("src", "**/*.py"),
    ("tests", "**/*.py"),
    ("docs", "*.rst"),
    ("examples", "**/*.py"),
    ("benchmarks", "**/*.py"),
    (".", "*.md"),
)

#: A cited rule, or a range of rules whose second end may leave out the "R".
_RULE = re.compile(r"\bR(\d+\.\d+[a-z]?)\b(?:\s*[-–]\s*R?(\d+\.\d+[a-z]?)\b)?")
#: A cited chapter, or a range of chapters.
_CHAPTER = re.compile(r"§\s?(\d+)\b(?:\s*[-–]\s*§?\s?(\d+)\b)?")
_RULE_LABEL = re.compile(r"^\.\. _(R\d+\.\d+[a-z]?):\s*$", re.MULTILINE)
_CHAPTER_LABEL = re.compile(r"^\.\. _rulebook-s(\d+):\s*$", re.MULTILINE)


def cited_rules(text: str) -> set[str]:
    """The rules (``"R5.5"``) and chapters (``"§7"``) that ``text`` cites."""
    cited = {f"R{n}" for match in _RULE.finditer(text) for n in match.groups() if n}
    cited |= {f"§{n}" for match in _CHAPTER.finditer(text) for n in match.groups() if n}
    return cited


def rulebook_labels(text: str) -> set[str]:
    """The rules (``"R5.5"``) and chapters (``"§7"``) that have a label in ``text``."""
    labels = set(_RULE_LABEL.findall(text))
    return labels | {f"§{n}" for n in _CHAPTER_LABEL.findall(text)}


def rule_citations(root: Path = ROOT) -> dict[str, list[str]]:
    """Every rule and chapter cited in the files of CITING, with where: ``path:line``."""
    found: dict[str, list[str]] = {}
    for folder, pattern in CITING:
        for path in sorted((root / folder).glob(pattern)):
            if not path.is_file():
                continue
            lines = path.read_text(encoding="utf-8").splitlines()
            for number, line in enumerate(lines, start=1):
                for cited in cited_rules(line):
                    where = f"{path.relative_to(root).as_posix()}:{number}"
                    found.setdefault(cited, []).append(where)
    return found


def _rule_order(number: str) -> tuple[int, int, str]:
    """Sort key: §7 before R7.1 before R7.10."""
    if number.startswith("§"):
        return int(number[1:]), -1, ""
    chapter, rule = number[1:].split(".")
    return int(chapter), int(rule.rstrip("abcdefghijklmnopqrstuvwxyz")), rule.lstrip("0123456789")


def check_rule_citations(root: Path = ROOT, rulebook: Path = RULEBOOK) -> list[str]:
    """Each rule or chapter cited under ``root`` without a label in ``rulebook``, and where."""
    labels = rulebook_labels(rulebook.read_text(encoding="utf-8"))
    problems = []
    for number, places in sorted(rule_citations(root).items(), key=lambda i: _rule_order(i[0])):
        if number not in labels:
            shown = ", ".join(places[:3])
            if len(places) > 3:
                shown += f" and {len(places) - 3} more"
            problems.append(f"{number} is cited in {shown} but has no section in the rule book")
    return problems


def check_rulebook_names(text: str) -> list[str]:
    """Each RuleSet option, enum option value and preset that the rule book ``text`` omits."""
    names = list(jass.RuleSet.option_names())
    for default in jass.RuleSet().options().values():
        if isinstance(default, enum.Enum):
            names += [member.name for member in type(default)]
    names += list(rules.PRESETS)
    return [f"the rule book does not name ``{n}``" for n in names if f"``{n}``" not in text]


def check_rulebook(_app: Any = None) -> None:
    """Stop the build when the rule book lacks a cited rule, an option, a value or a preset."""
    problems = check_rule_citations(ROOT, RULEBOOK)
    problems += check_rulebook_names(RULEBOOK.read_text(encoding="utf-8"))
    if problems:
        raise ExtensionError("docs/rulebook.rst is incomplete:\n  " + "\n  ".join(problems))


def _check_rule_labels(_app: Any, env: Any) -> None:
    """Every rule label of the rule book must name a section, so that ``:ref:`` finds a title."""
    labels = env.get_domain("std").labels
    text = RULEBOOK.read_text(encoding="utf-8")
    untitled = [
        number
        for number in sorted(rulebook_labels(text), key=_rule_order)
        if number.startswith("R") and labels.get(number.lower(), ("",))[0] != "rulebook"
    ]
    if untitled:
        raise ExtensionError(
            "docs/rulebook.rst: these rule labels do not stand before a heading: "
            + ", ".join(untitled)
        )


# -- Links to the rule book --------------------------------------------------------------
#
# The pages and the docstrings cite rules in plain text ("rule book R5.5", "§7"). Each such
# number becomes a link to its section of the rule book, as ``:ref:`R5.5 <R5.5>``` would
# write it, so a reader can follow every citation. Code, literals, headings, existing links
# and the rule book's own pages are left alone.

_CITATION = re.compile(r"(?<![\w.])(R\d+\.\d+[a-z]?|§\s?\d+)(?![\w.]*\w)")
_NOT_PROSE = (
    nodes.FixedTextElement, nodes.literal, nodes.reference, nodes.title, nodes.raw,
    nodes.comment, nodes.target, addnodes.pending_xref, addnodes.desc_signature,
)


def rule_label(number: str) -> str:
    """The rule book's label of a cited rule or chapter: ``r5.5``, ``rulebook-s7``."""
    if number.startswith("§"):
        return f"rulebook-s{number[1:].strip()}"
    return number.lower()


class LinkRuleCitations(SphinxTransform):
    """Turn every plain-text rule number that has a section in the rule book into a link."""

    default_priority = 500

    def apply(self, **_kwargs: Any) -> None:
        """Replace the citations in the text nodes of one document."""
        if self.env.docname == "rulebook":
            return
        labels = rulebook_labels(RULEBOOK.read_text(encoding="utf-8"))
        for text in list(self.document.findall(nodes.Text)):
            parent = text.parent
            if parent is None or any(isinstance(n, _NOT_PROSE) for n in _ancestors(text)):
                continue
            source = str(text)
            pieces: list[nodes.Node] = []
            end = 0
            for match in _CITATION.finditer(source):
                number = match.group(1).replace("§ ", "§")
                if number not in labels:
                    continue
                pieces.append(nodes.Text(source[end : match.start()]))
                link = addnodes.pending_xref(
                    "", refdomain="std", reftype="ref", reftarget=rule_label(number),
                    refexplicit=True, refwarn=True,
                )
                link += nodes.inline(match.group(1), match.group(1))
                pieces.append(link)
                end = match.end()
            if pieces:
                pieces.append(nodes.Text(source[end:]))
                parent.replace(text, pieces)


def _ancestors(node: nodes.Node) -> list[nodes.Node]:
    found = []
    while node.parent is not None:
        node = node.parent
        found.append(node)
    return found


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
    r"\bjass\.(?:cards|contracts|seats|actions|errors|hand|play|scoring|state|weis|view|sampling"
    r"|rules\.ruleset)\."
)


def _public_vartypes(*args: Any) -> None:
    """Write attribute types as ``jass.Seat`` (documented) rather than ``jass.core.seats.Seat``."""
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
    app.add_transform(LinkRuleCitations)
    app.connect("builder-inited", generate_tables)
    app.connect("builder-inited", generate_pictures)
    app.connect("builder-inited", check_rulebook)
    app.connect("env-check-consistency", _check_rule_labels)
    app.connect("autodoc-process-docstring", _keep_property_docstring, priority=100)
    app.connect("autodoc-process-docstring", _restore_property_docstring, priority=900)
    app.connect("autodoc-process-docstring", _public_vartypes, priority=900)
    app.connect("object-description-transform", _tidy_class_fields, priority=900)
    app.connect("autodoc-process-signature", _hide_internal_signature)
    return {"parallel_read_safe": True}
