"""RuleSet options (rule book §11), presets (§12) and multiplier tables (R8.5).

Every expected name, default and value below is written out by hand from the rule book.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import jass
from jass import (
    Card,
    Choose,
    Contract,
    IllegalActionError,
    IllegalReason,
    InvalidInputError,
    RuleSet,
    Shove,
    Suit,
    SuitPairing,
    find_ruleset,
    rules,
)
from jass.bots import RuleBot, play_game, play_hand
from jass.errors import describe
from jass.rules import (
    AusmachOrder,
    CounterMatch,
    DealerRotation,
    EndMode,
    FirstHandRule,
    Multipliers,
    UndertrumpRule,
    WeisDeclaration,
    WeisTie,
    preset_name,
)

HEARTS = Contract.trump(Suit.HEARTS)
DIAMONDS = Contract.trump(Suit.DIAMONDS)
SPADES = Contract.trump(Suit.SPADES)
CLUBS = Contract.trump(Suit.CLUBS)
OBENABE = Contract.OBENABE
UNDENUFE = Contract.UNDENUFE
SIX_CONTRACTS = frozenset({SPADES, HEARTS, DIAMONDS, CLUBS, OBENABE, UNDENUFE})
FOUR_TRUMPS = frozenset({SPADES, HEARTS, DIAMONDS, CLUBS})
#: The column order of the multiplier tables of R8.5: (♥, ♦, ♠, ♣, OBENABE, UNDENUFE).
TABLE_ORDER = (HEARTS, DIAMONDS, SPADES, CLUBS, OBENABE, UNDENUFE)

# rule book §11: the 25 rows, in order; row 9 holds two options
# (first_hand_rule / first_hand_marker).
EXPECTED_DEFAULTS: dict[str, Any] = {
    "suit_pairing": SuitPairing.SWISSLOS,  # 1
    "multipliers": Multipliers.SWISSLOS_2500,  # 2
    "target": 2500,  # 3
    "hands": None,  # 4
    "contracts": SIX_CONTRACTS,  # 5
    "weis": True,  # 6
    "stoeck": True,  # 7
    "weis_declaration": WeisDeclaration.AUTO,  # 8
    "first_hand_rule": FirstHandRule.DRAW_LOWEST_DEALS,  # 9
    "first_hand_marker": Card.parse("7D"),  # 9
    "dealer_rotation": DealerRotation.ROTATE,  # 10
    "allow_shove_back": False,  # 11
    "undertrump_only_trumps": UndertrumpRule.ANY,  # 12
    "kreuzweis": True,  # 13
    "small_weis": False,  # 14
    "small_weis_split_long_runs": False,  # 15
    "weis_tie_sequence_vs_quartet": WeisTie.SEQUENCE_FIRST,  # 16
    "undenufe_reverse_weis": True,  # 17
    "weis_requires_trick": False,  # 18
    "old_undenufe": False,  # 19
    "counter_match": CounterMatch.SAME_AS_MATCH,  # 20
    "match_bonus": 100,  # 21
    "ausmach_order": AusmachOrder.STOECK_WEIS_STICH,  # 22
    "stoeck_claim_anytime_to_finish": True,  # 23
    "end_mode": EndMode.AUTO,  # 24
    "schneider": False,  # 25
}

# One non-default value per option (an alternative named in §11).
ALTERNATIVES: dict[str, Any] = {
    "suit_pairing": SuitPairing.PARLETT,
    "multipliers": Multipliers.FLAT,
    "target": 1000,
    "hands": 12,
    "contracts": FOUR_TRUMPS,
    "weis": False,
    "stoeck": False,
    "weis_declaration": WeisDeclaration.MANUAL,
    "first_hand_rule": FirstHandRule.MARKER_CARD,
    "first_hand_marker": Card.parse("7H"),
    "dealer_rotation": DealerRotation.WINNER_DEALS,
    "allow_shove_back": True,
    "undertrump_only_trumps": UndertrumpRule.ONLY_IF_NO_HIGHER,
    "kreuzweis": False,
    "small_weis": True,
    "small_weis_split_long_runs": True,
    "weis_tie_sequence_vs_quartet": WeisTie.QUARTET_FIRST,
    "undenufe_reverse_weis": False,
    "weis_requires_trick": True,
    "old_undenufe": True,
    "counter_match": CounterMatch.DOUBLE_MATCH,
    "match_bonus": 50,
    "ausmach_order": AusmachOrder.STOECK_STICH_WEIS,
    "stoeck_claim_anytime_to_finish": False,
    "end_mode": EndMode.THANK,
    "schneider": True,
}

BOOL_OPTIONS = [name for name, value in EXPECTED_DEFAULTS.items() if isinstance(value, bool)]

# The enum options and every member name rule book §11 gives for them.
ENUM_OPTIONS: dict[str, tuple[type[Any], tuple[str, ...]]] = {
    "suit_pairing": (SuitPairing, ("SWISSLOS", "WIKIPEDIA", "PARLETT")),
    "multipliers": (
        Multipliers,
        ("FLAT", "SWISSLOS_2500", "PAGAT_RED_DOUBLE", "WIKIPEDIA_EN", "URIKON"),
    ),
    "weis_declaration": (WeisDeclaration, ("AUTO", "MANUAL")),
    "first_hand_rule": (
        FirstHandRule,
        ("DRAW_LOWEST_DEALS", "DRAW_HIGHEST_DEALS", "MARKER_CARD"),
    ),
    "dealer_rotation": (DealerRotation, ("ROTATE", "WINNER_DEALS")),
    "undertrump_only_trumps": (UndertrumpRule, ("ANY", "ONLY_IF_NO_HIGHER")),
    "weis_tie_sequence_vs_quartet": (WeisTie, ("SEQUENCE_FIRST", "QUARTET_FIRST")),
    "counter_match": (
        CounterMatch,
        ("SAME_AS_MATCH", "NONE", "DOUBLE_TRICK_POINTS", "DOUBLE_MATCH"),
    ),
    "ausmach_order": (AusmachOrder, ("STOECK_WEIS_STICH", "STOECK_STICH_WEIS")),
    "end_mode": (EndMode, ("AUTO", "THANK", "END_OF_HAND")),
}

ENUM_CASES = [
    (option, member) for option, (_, members) in ENUM_OPTIONS.items() for member in members
]


# --- the option list (§11) ----------------------------------------------------------------


def test_exactly_the_options_of_section_11() -> None:
    assert len(EXPECTED_DEFAULTS) == 26  # 25 rows, row 9 is two options
    assert RuleSet.option_names() == tuple(EXPECTED_DEFAULTS)
    assert tuple(RuleSet().options()) == tuple(EXPECTED_DEFAULTS)


@pytest.mark.parametrize("name", list(EXPECTED_DEFAULTS))
def test_default_value(name: str) -> None:
    expected = EXPECTED_DEFAULTS[name]
    assert getattr(RuleSet(), name) == expected
    assert getattr(rules.SCHIEBER, name) == expected
    assert type(getattr(RuleSet(), name)) is type(expected)


def test_defaults_as_a_dict() -> None:
    assert RuleSet().options() == EXPECTED_DEFAULTS


def test_default_ruleset_is_schieber() -> None:
    assert RuleSet() == rules.SCHIEBER
    assert hash(RuleSet()) == hash(rules.SCHIEBER)
    assert rules.SCHIEBER.changes_from(RuleSet()) == {}
    assert jass.rules.SCHIEBER is rules.SCHIEBER


@pytest.mark.parametrize("option", list(ENUM_OPTIONS))
def test_enum_members_are_those_of_section_11(option: str) -> None:
    enum_type, members = ENUM_OPTIONS[option]
    assert tuple(enum_type.__members__) == members
    assert isinstance(EXPECTED_DEFAULTS[option], enum_type)


# --- presets (§12) ------------------------------------------------------------------------

PRESET_CHANGES: dict[str, dict[str, Any]] = {
    "SCHIEBER": {},
    "SCHIEBER_1000": {
        "target": 1000,
        "multipliers": Multipliers.FLAT,
        "kreuzweis": False,
    },
    # §12 also lists contracts = the six + MISERE; Misère is not implemented yet, so the
    "TRADITIONAL": {
        "contracts": SIX_CONTRACTS | {Contract.MISERE},
        "multipliers": Multipliers.WIKIPEDIA_EN,
        "small_weis": True,
        "kreuzweis": False,
        "counter_match": CounterMatch.DOUBLE_TRICK_POINTS,
        "first_hand_rule": FirstHandRule.MARKER_CARD,
        # first_hand_marker=7D is the default, so it is not a change
    },
    "BEGINNER": {
        "contracts": FOUR_TRUMPS,
        "weis": False,
        "stoeck": False,
        "multipliers": Multipliers.FLAT,
        # match_bonus=100 is the default, so it is not a change
        "target": 1000,
        "end_mode": EndMode.END_OF_HAND,
    },
    "TOURNAMENT_12": {
        "hands": 12,
        "multipliers": Multipliers.FLAT,
        "weis": False,
        "stoeck": False,
        "match_bonus": 0,
    },
    "JASSKIT": {
        "hands": 1,
        "multipliers": Multipliers.FLAT,
        "weis": False,
        "stoeck": False,
        "match_bonus": 0,
    },
}


def make(**options: Any) -> RuleSet:
    """``RuleSet(**options)``; the constructor accepts strings that its annotations do not."""
    return RuleSet(**options)


def preset(name: str) -> RuleSet:
    value = getattr(rules, name)
    assert isinstance(value, RuleSet)
    return value


@pytest.mark.parametrize("name", list(PRESET_CHANGES))
def test_preset_values(name: str) -> None:
    ruleset = preset(name)
    assert ruleset.changes_from(rules.SCHIEBER) == PRESET_CHANGES[name]
    assert rules.SCHIEBER.evolve(**PRESET_CHANGES[name]) == ruleset
    assert rules.PRESETS[name] is ruleset


def test_exactly_the_presets_of_section_12() -> None:
    assert set(rules.PRESETS) == set(PRESET_CHANGES)
    assert len(set(rules.PRESETS.values())) == len(PRESET_CHANGES)


def test_traditional_contracts_are_the_six_and_misere() -> None:
    assert rules.TRADITIONAL.contracts == SIX_CONTRACTS | {Contract.MISERE}
    assert rules.TRADITIONAL.multiplier(Contract.MISERE) == 1
    assert rules.TRADITIONAL.first_hand_marker == Card.parse("7D")
    assert rules.TRADITIONAL.multiplier(UNDENUFE) == 4


def test_beginner_values_equal_to_the_default() -> None:
    assert rules.BEGINNER.match_bonus == 100
    assert rules.BEGINNER.contracts == FOUR_TRUMPS
    assert not rules.BEGINNER.allows(OBENABE)
    assert not rules.BEGINNER.allows(UNDENUFE)
    assert all(rules.BEGINNER.allows(c) for c in FOUR_TRUMPS)
    assert all(rules.SCHIEBER.allows(c) for c in SIX_CONTRACTS)


def test_schieber_1000_recipe_for_s0_to_1000() -> None:
    s0_1000 = rules.SCHIEBER_1000.evolve(kreuzweis=True)
    assert s0_1000.changes_from(rules.SCHIEBER) == {
        "target": 1000,
        "multipliers": Multipliers.FLAT,
    }


# --- find_ruleset and preset_name ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("SCHIEBER", "SCHIEBER"),
        ("schieber", "SCHIEBER"),
        ("  Schieber ", "SCHIEBER"),
        ("SCHIEBER_1000", "SCHIEBER_1000"),
        ("schieber-1000", "SCHIEBER_1000"),
        ("Schieber 1000", "SCHIEBER_1000"),
        ("traditional", "TRADITIONAL"),
        ("Beginner", "BEGINNER"),
        ("tournament_12", "TOURNAMENT_12"),
        ("Tournament-12", "TOURNAMENT_12"),
        ("TOURNAMENT 12", "TOURNAMENT_12"),
    ],
)
def test_find_ruleset(text: str, name: str) -> None:
    assert find_ruleset(text) is preset(name)
    assert jass.find_ruleset(text) is preset(name)


@pytest.mark.parametrize("text", ["bridge", "", "schieber1000", "SCHIEBER_2500", "tournament"])
def test_find_ruleset_unknown(text: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        find_ruleset(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("name", list(PRESET_CHANGES))
def test_preset_name(name: str) -> None:
    assert preset_name(preset(name)) == name
    assert preset_name(rules.SCHIEBER.evolve(**PRESET_CHANGES[name])) == name


def test_preset_name_of_a_custom_ruleset() -> None:
    assert preset_name(RuleSet()) == "SCHIEBER"
    assert preset_name(rules.SCHIEBER.evolve(target=1500)) is None
    assert preset_name(rules.BEGINNER.evolve(weis=True)) is None


# --- evolve: independence and accepted spellings ------------------------------------------


# An option that only refines another one is changed on top of that one (R7.3).
PREREQUISITES: dict[str, dict[str, Any]] = {"small_weis_split_long_runs": {"small_weis": True}}


@pytest.mark.parametrize("name", list(ALTERNATIVES))
def test_options_are_independent(name: str) -> None:
    value = ALTERNATIVES[name]
    base = rules.SCHIEBER.evolve(**PREREQUISITES.get(name, {}))
    changed = base.evolve(**{name: value})
    assert changed.changes_from(base) == {name: value}
    assert getattr(changed, name) == value
    assert changed != base
    assert RuleSet() == rules.SCHIEBER  # the original is untouched
    assert changed.evolve(**{name: EXPECTED_DEFAULTS[name]}) == base


@pytest.mark.parametrize("name", list(ALTERNATIVES))
def test_constructor_takes_the_same_options(name: str) -> None:
    options = {**PREREQUISITES.get(name, {}), name: ALTERNATIVES[name]}
    assert RuleSet(**options) == rules.SCHIEBER.evolve(**options)


# --- options that depend on others (issue 12, A5) -----------------------------------------


SPLIT_WITHOUT_SMALL_WEIS: list[Callable[[], RuleSet]] = [
    lambda: RuleSet(small_weis_split_long_runs=True),
    lambda: rules.SCHIEBER.evolve(small_weis_split_long_runs=True),
    lambda: rules.TRADITIONAL.evolve(small_weis_split_long_runs=True, small_weis=False),
    lambda: rules.TRADITIONAL.evolve(small_weis_split_long_runs=True).evolve(small_weis=False),
]


@pytest.mark.parametrize("build", SPLIT_WITHOUT_SMALL_WEIS)
def test_split_long_runs_without_small_weis_is_refused_naming_both_options(
    build: Callable[[], RuleSet],
) -> None:
    # R7.3: a sub-option of small Weis; under the big table a nine-card run is one 300.
    with pytest.raises(InvalidInputError) as info:
        build()
    message = str(info.value)
    assert "'small_weis_split_long_runs'" in message
    assert "'small_weis'" in message
    assert "R7.3" in message
    assert "small Weis table only" in message


def test_split_long_runs_with_small_weis_is_accepted() -> None:
    both = rules.SCHIEBER.evolve(small_weis=True, small_weis_split_long_runs=True)
    assert both.small_weis
    assert both.small_weis_split_long_runs
    assert rules.TRADITIONAL.evolve(small_weis_split_long_runs=True).small_weis_split_long_runs
    # Turning small Weis off again needs the sub-option off too, in the same call.
    plain = both.evolve(small_weis=False, small_weis_split_long_runs=False)
    assert plain == rules.SCHIEBER


@pytest.mark.parametrize("name", list(rules.PRESETS))
def test_every_preset_still_constructs(name: str) -> None:
    preset = rules.PRESETS[name]
    assert RuleSet(**preset.options()) == preset
    assert rules.SCHIEBER.evolve(**preset.changes_from(rules.SCHIEBER)) == preset


@pytest.mark.parametrize(
    "ignored",
    [
        {"end_mode": "THANK"},
        {"end_mode": "END_OF_HAND"},
        {"target": 100, "schneider": True},
        {"target": 100, "end_mode": "THANK", "schneider": True},
    ],
)
def test_with_hands_the_target_end_mode_and_schneider_are_ignored(ignored: dict[str, Any]) -> None:
    # R9.1: "hands=n by itself changes only the length: the game ends when hand n is
    # complete; target, end_mode and schneider are then ignored and thank() raises."
    plain = rules.SCHIEBER.evolve(hands=3)
    odd = plain.evolve(**ignored)
    results = []
    for ruleset in (plain, odd):
        game = jass.Game.new(ruleset, seed=11)
        with pytest.raises(IllegalActionError) as info:
            game.thank(0)
        assert info.value.reason is IllegalReason.THANK_NOT_ALLOWED
        done = play_game(game, [RuleBot()] * 4)
        assert done.hands_played == 3
        assert done.result is not None
        assert done.result.reason is jass.EndReason.HAND_LIMIT
        assert not done.result.schneider
        assert done.result.stake == 1
        results.append((done.scores, done.winner, done.history))
    assert results[0] == results[1]
    assert max(results[0][0]) > 100  # the target of 100 was passed, and play went on


@pytest.mark.parametrize(
    ("switch", "unused"),
    [
        # Switched-off features keep their sub-options, unused (see docs/rulesets.rst).
        (
            {"weis": False},
            {"small_weis": True, "kreuzweis": False, "weis_declaration": "MANUAL",
             "weis_tie_sequence_vs_quartet": "QUARTET_FIRST", "undenufe_reverse_weis": False,
             "weis_requires_trick": True},
        ),
        ({"stoeck": False}, {"stoeck_claim_anytime_to_finish": False}),
        ({"first_hand_rule": "DRAW_HIGHEST_DEALS"}, {"first_hand_marker": "10D"}),
        ({"contracts": ["hearts", "spades", "obenabe"]}, {"old_undenufe": True}),
    ],
)  # fmt: skip
def test_options_a_switch_turns_off_are_accepted_and_unused(
    switch: dict[str, Any], unused: dict[str, Any]
) -> None:
    base = rules.SCHIEBER.evolve(target=1000, **switch)
    odd = base.evolve(**unused)
    assert odd.changes_from(base) == {name: getattr(odd, name) for name in unused}
    games = []
    for ruleset in (base, odd):
        game = jass.Game.new(ruleset, seed=21)
        for _ in range(3):
            game = play_hand(game, [RuleBot()] * 4)
        games.append(game)
    assert games[0].history == games[1].history
    assert games[0].scores == games[1].scores
    assert games[0].hand_results == games[1].hand_results


def test_target_does_not_change_multipliers() -> None:
    changed = rules.SCHIEBER.evolve(target=1000)
    assert changed.multipliers is Multipliers.SWISSLOS_2500
    assert changed.target == 1000
    assert rules.SCHIEBER.target == 2500


def test_evolve_returns_a_new_ruleset() -> None:
    base = rules.SCHIEBER
    changed = base.evolve(target=1000)
    assert changed is not base
    assert base.target == 2500
    assert base.evolve() == base


@pytest.mark.parametrize("target", [1, 1000, 1500, 2000, 3000, 10**6])
def test_target_accepts_positive_integers(target: int) -> None:
    assert rules.SCHIEBER.evolve(target=target).target == target


@pytest.mark.parametrize("bonus", [0, 50, 100, 500])
def test_match_bonus_accepts_non_negative_integers(bonus: int) -> None:
    assert rules.SCHIEBER.evolve(match_bonus=bonus).match_bonus == bonus


@pytest.mark.parametrize("hands", [None, 1, 12])
def test_hands_accepts_none_or_positive(hands: int | None) -> None:
    assert rules.SCHIEBER.evolve(hands=hands).hands == hands


@pytest.mark.parametrize(("option", "member"), ENUM_CASES)
def test_enum_options_accept_member_names(option: str, member: str) -> None:
    enum_type = ENUM_OPTIONS[option][0]
    expected = enum_type[member]
    for value in (member, member.lower(), expected):
        changes: dict[str, Any] = {option: value}
        assert getattr(rules.SCHIEBER.evolve(**changes), option) is expected
    kwargs: dict[str, Any] = {option: member}
    assert getattr(RuleSet(**kwargs), option) is expected


def test_enum_name_with_spaces() -> None:
    assert rules.SCHIEBER.evolve(end_mode="end of hand").end_mode is EndMode.END_OF_HAND
    assert make(end_mode="thank").end_mode is EndMode.THANK


@pytest.mark.parametrize(
    "value",
    [
        ["hearts", "obenabe"],
        ("TRUMP_HEARTS", "OBENABE"),
        {HEARTS, OBENABE},
        frozenset({HEARTS, OBENABE}),
        [HEARTS, "obenabe", HEARTS],
    ],
)
def test_contracts_accept_names_and_collections(value: Any) -> None:
    changed = rules.SCHIEBER.evolve(contracts=value)
    assert changed.contracts == frozenset({HEARTS, OBENABE})
    assert isinstance(changed.contracts, frozenset)


@pytest.mark.parametrize("marker", ["7D", "7H", "10D", "td", "♥7"])
def test_first_hand_marker_accepts_card_names(marker: str) -> None:
    changed = rules.SCHIEBER.evolve(first_hand_marker=marker)
    assert changed.first_hand_marker == Card.parse(marker)
    assert isinstance(changed.first_hand_marker, Card)


# --- evolve: validation -------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["colour", "Target", "targets", "misere", "_multiplier_by_contract"]
)
def test_unknown_option(name: str) -> None:
    options: dict[str, Any] = {name: 1}
    with pytest.raises(InvalidInputError) as info:
        rules.SCHIEBER.evolve(**options)
    assert repr(name) in str(info.value)
    assert isinstance(info.value, ValueError)


BAD_VALUES: list[tuple[str, Any]] = [
    ("target", -5),
    ("target", 0),
    ("target", "1000"),
    ("target", True),
    ("target", 1.5),
    ("target", None),
    ("hands", 0),
    ("hands", -12),
    ("hands", True),
    ("hands", "12"),
    ("hands", 12.0),
    ("match_bonus", -1),
    ("match_bonus", True),
    ("match_bonus", "100"),
    ("match_bonus", None),
    ("multipliers", (1, 1, 1, 1, 1)),
    ("multipliers", (1, 1, 1, 1, 1, 1, 1)),
    ("multipliers", (1, 1, 1, 1, 1, 0)),
    ("multipliers", (1, 1, 1, 1, 1, -2)),
    ("multipliers", (1, 1, 1, 1, 1, True)),
    ("multipliers", (1, 1, 1, 1, 1, 1.5)),
    ("multipliers", ("1", 1, 1, 1, 1, 1)),
    ("multipliers", ()),
    ("multipliers", "DOUBLE"),
    ("multipliers", 2),
    ("multipliers", None),
    ("multipliers", EndMode.AUTO),
    ("contracts", frozenset()),
    ("contracts", []),
    ("contracts", ()),
    ("contracts", "hearts"),
    ("contracts", None),
    ("contracts", HEARTS),
    ("contracts", ["slalom"]),
    ("contracts", ["hearts", "bogus"]),
    ("contracts", [5]),
    ("contracts", {"hearts": 1}),  # a mapping would be read by its keys
    ("target", -(10**5000)),  # too long for Python to write out: described by its length
    ("contracts", [10**5000]),
    ("first_hand_marker", "ZZ"),
    ("first_hand_marker", "7X"),
    ("first_hand_marker", ""),
    ("first_hand_marker", None),
    ("first_hand_marker", 3.5),
    ("suit_pairing", "BANANA"),
    ("suit_pairing", 0),
    ("suit_pairing", Multipliers.FLAT),
    ("end_mode", "never"),
    ("end_mode", DealerRotation.ROTATE),
    ("end_mode", None),
    ("counter_match", "DOUBLE"),
    ("first_hand_rule", 1),
    ("weis_declaration", True),
    *[(name, 1) for name in BOOL_OPTIONS],
    *[(name, "yes") for name in BOOL_OPTIONS],
    *[(name, None) for name in BOOL_OPTIONS],
    *[(option, "NOT_A_MEMBER") for option in ENUM_OPTIONS],
]
BAD_IDS = [f"{option}={describe(value, typed=False)}" for option, value in BAD_VALUES]


@pytest.mark.parametrize(("option", "value"), BAD_VALUES, ids=BAD_IDS)
def test_evolve_rejects_bad_values(option: str, value: Any) -> None:
    with pytest.raises(InvalidInputError) as info:
        rules.SCHIEBER.evolve(**{option: value})
    assert option in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(("option", "value"), BAD_VALUES, ids=BAD_IDS)
def test_constructor_rejects_bad_values(option: str, value: Any) -> None:
    with pytest.raises(InvalidInputError) as info:
        RuleSet(**{option: value})
    assert option in str(info.value)


# --- multipliers (R8.5) -------------------------------------------------------------------

# rule book R8.5, by hand: (♥, ♦, ♠, ♣, OBENABE, UNDENUFE).
MULTIPLIER_TABLE: dict[str, tuple[int, int, int, int, int, int]] = {
    "FLAT": (1, 1, 1, 1, 1, 1),
    "SWISSLOS_2500": (1, 1, 2, 2, 3, 3),
    "PAGAT_RED_DOUBLE": (2, 2, 1, 1, 3, 3),
    "WIKIPEDIA_EN": (1, 1, 2, 2, 3, 4),
    "URIKON": (1, 1, 2, 2, 2, 2),
}


def test_multiplier_presets_are_those_of_r8_5() -> None:
    assert {m.name for m in Multipliers} == set(MULTIPLIER_TABLE)


@pytest.mark.parametrize("table", list(MULTIPLIER_TABLE))
def test_multiplier_per_contract(table: str) -> None:
    expected = MULTIPLIER_TABLE[table]
    assert Multipliers[table].value == expected
    for spelling in (Multipliers[table], table, table.lower()):
        ruleset = rules.SCHIEBER.evolve(multipliers=spelling)
        assert ruleset.multipliers is Multipliers[table]
        for contract, multiplier in zip(TABLE_ORDER, expected, strict=True):
            assert ruleset.multiplier(contract) == multiplier, contract.name


@pytest.mark.parametrize("table", list(MULTIPLIER_TABLE))
@pytest.mark.parametrize("pairing", list(SuitPairing))
def test_multipliers_do_not_depend_on_suit_pairing(table: str, pairing: SuitPairing) -> None:
    # R1.4/R8.5: tables are defined per French suit, so the pairing never changes a multiplier.
    paired = make(multipliers=table, suit_pairing=pairing)
    default = make(multipliers=table)
    assert [paired.multiplier(c) for c in TABLE_ORDER] == [
        default.multiplier(c) for c in TABLE_ORDER
    ]
    assert paired.multipliers is default.multipliers


def test_default_multipliers_black_suits_double() -> None:
    rs = rules.SCHIEBER
    assert rs.multiplier(HEARTS) == 1
    assert rs.multiplier(DIAMONDS) == 1
    assert rs.multiplier(SPADES) == 2
    assert rs.multiplier(CLUBS) == 2
    assert rs.multiplier(OBENABE) == 3
    assert rs.multiplier(UNDENUFE) == 3


@pytest.mark.parametrize(
    "value",
    [(2, 3, 5, 7, 11, 13), [2, 3, 5, 7, 11, 13]],
    ids=["tuple", "list"],
)
def test_custom_multipliers_are_stored(value: Any) -> None:
    ruleset = rules.SCHIEBER.evolve(multipliers=value)
    assert ruleset.multipliers == (2, 3, 5, 7, 11, 13)
    assert ruleset.changes_from(rules.SCHIEBER) == {"multipliers": (2, 3, 5, 7, 11, 13)}
    assert hash(ruleset) == hash(RuleSet(multipliers=(2, 3, 5, 7, 11, 13)))
    assert ruleset == rules.SCHIEBER.evolve(multipliers=(2, 3, 5, 7, 11, 13))


def test_custom_multiplier_per_contract() -> None:
    ruleset = rules.SCHIEBER.evolve(multipliers=(2, 3, 5, 7, 11, 13))
    assert ruleset.multiplier(HEARTS) == 2
    assert ruleset.multiplier(DIAMONDS) == 3
    assert ruleset.multiplier(SPADES) == 5
    assert ruleset.multiplier(CLUBS) == 7
    assert ruleset.multiplier(OBENABE) == 11
    assert ruleset.multiplier(UNDENUFE) == 13


@pytest.mark.parametrize("name", list(PRESET_CHANGES))
def test_preset_multipliers(name: str) -> None:
    expected = {
        "SCHIEBER": "SWISSLOS_2500",
        "SCHIEBER_1000": "FLAT",
        "TRADITIONAL": "WIKIPEDIA_EN",
        "BEGINNER": "FLAT",
        "TOURNAMENT_12": "FLAT",
        "JASSKIT": "FLAT",
    }[name]
    ruleset = preset(name)
    assert [ruleset.multiplier(c) for c in TABLE_ORDER] == list(MULTIPLIER_TABLE[expected])


# --- hashable and frozen ------------------------------------------------------------------


def test_rulesets_are_hashable() -> None:
    presets = [preset(name) for name in PRESET_CHANGES]
    assert len(set(presets)) == len(presets) == 6
    lookup = {ruleset: name for name, ruleset in zip(PRESET_CHANGES, presets, strict=True)}
    assert lookup[RuleSet()] == "SCHIEBER"
    assert lookup[make(target=1000, multipliers="FLAT", kreuzweis=False)] == "SCHIEBER_1000"
    assert hash(rules.SCHIEBER.evolve(target=1000)) == hash(RuleSet(target=1000))


@pytest.mark.parametrize("name", list(EXPECTED_DEFAULTS))
def test_rulesets_are_frozen(name: str) -> None:
    ruleset = RuleSet()
    with pytest.raises(AttributeError):
        setattr(ruleset, name, ALTERNATIVES[name])
    assert getattr(ruleset, name) == EXPECTED_DEFAULTS[name]
    assert RuleSet() == rules.SCHIEBER


def test_cannot_add_attributes() -> None:
    attribute = "colour"
    with pytest.raises(AttributeError):
        setattr(rules.SCHIEBER, attribute, "red")


# --- BEGINNER in a game -------------------------------------------------------------------


@pytest.mark.parametrize("contract", [OBENABE, UNDENUFE], ids=["OBENABE", "UNDENUFE"])
def test_beginner_refuses_obenabe_and_undenufe(contract: Contract) -> None:
    game = jass.Game.new(rules.BEGINNER, seed=1).deal()
    with pytest.raises(IllegalActionError) as info:
        game.choose(contract)
    assert info.value.reason is IllegalReason.CONTRACT_NOT_ALLOWED
    assert contract.name in str(info.value)
    with pytest.raises(IllegalActionError) as by_value:
        game.apply(Choose(contract))
    assert by_value.value.reason is IllegalReason.CONTRACT_NOT_ALLOWED


def test_beginner_legal_actions() -> None:
    game = jass.Game.new(rules.BEGINNER, seed=1).deal()
    expected = {Choose(c) for c in FOUR_TRUMPS} | {Shove()}
    actions = game.legal_actions()
    assert len(actions) == 5
    assert set(actions) == expected
    shoved = game.shove()
    assert set(shoved.legal_actions()) == {Choose(c) for c in FOUR_TRUMPS}
    with pytest.raises(IllegalActionError) as info:
        shoved.choose(OBENABE)
    assert info.value.reason is IllegalReason.CONTRACT_NOT_ALLOWED


@pytest.mark.parametrize("suit", list(Suit))
def test_beginner_allows_every_trump(suit: Suit) -> None:
    game = jass.Game.new(rules.BEGINNER, seed=1).deal()
    chosen = game.choose(Contract.trump(suit))
    assert chosen.contract is Contract.trump(suit)


def test_schieber_offers_all_six_contracts() -> None:
    game = jass.Game.new(rules.SCHIEBER, seed=1).deal()
    chooses = {a for a in game.legal_actions() if isinstance(a, Choose)}
    assert chooses == {Choose(c) for c in SIX_CONTRACTS}
    assert Shove() in game.legal_actions()
