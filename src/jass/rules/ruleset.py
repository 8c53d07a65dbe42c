"""The :class:`RuleSet`: one frozen value holding every option of rule book §11.

>>> rs = RuleSet().evolve(target=1000, multipliers=Multipliers.FLAT)
>>> rs.target, rs.multiplier(Contract.OBENABE)
(1000, 1)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from typing import Any, Final, TypedDict

import attrs
from typing_extensions import Unpack

from jass._budgets import is_int
from jass.core.cards import Card, SuitPairing
from jass.core.contracts import Contract
from jass.errors import InvalidInputError, describe
from jass.rules.options import (
    AusmachOrder,
    CounterMatch,
    DealerRotation,
    EndMode,
    FirstHandRule,
    Multipliers,
    UndertrumpRule,
    WeisDeclaration,
    WeisTie,
)

__all__ = ["STANDARD_CONTRACTS", "RuleSet", "RuleSetOptions"]

#: The six contracts of rule book §2.
STANDARD_CONTRACTS: Final = frozenset(Contract.standard())

# Multiplier tuples are written (♥, ♦, ♠, ♣, OBENABE, UNDENUFE); contracts are numbered
# (♠, ♥, ♦, ♣, OBENABE, UNDENUFE).
_TABLE_TO_CONTRACT: Final = (1, 2, 0, 3, 4, 5)


def _seven_d() -> Card:
    return Card.parse("7D")


class RuleSetOptions(TypedDict, total=False):
    """The keyword arguments of :class:`RuleSet` and :meth:`RuleSet.evolve`, for type checkers.

    Enum options also accept member names, ``contracts`` contract names, and
    ``first_hand_marker`` a card name.

    >>> sorted(RuleSetOptions.__annotations__) == sorted(RuleSet.option_names())
    True
    """

    suit_pairing: SuitPairing | str
    multipliers: Multipliers | tuple[int, int, int, int, int, int] | str
    target: int
    hands: int | None
    contracts: Iterable[Contract | str]
    weis: bool
    stoeck: bool
    weis_declaration: WeisDeclaration | str
    first_hand_rule: FirstHandRule | str
    first_hand_marker: Card | str
    dealer_rotation: DealerRotation | str
    allow_shove_back: bool
    undertrump_only_trumps: UndertrumpRule | str
    kreuzweis: bool
    small_weis: bool
    small_weis_split_long_runs: bool
    weis_tie_sequence_vs_quartet: WeisTie | str
    undenufe_reverse_weis: bool
    weis_requires_trick: bool
    old_undenufe: bool
    counter_match: CounterMatch | str
    match_bonus: int
    ausmach_order: AusmachOrder | str
    stoeck_claim_anytime_to_finish: bool
    end_mode: EndMode | str
    schneider: bool


@attrs.frozen(kw_only=True, init=False)
class RuleSet:
    """Every rule option of rule book §11, with the ``SCHIEBER`` defaults.

    Build variants with :meth:`evolve`; every value is checked, and a bad one raises
    :class:`~jass.InvalidInputError` naming the option. Enum options also accept the member
    name as a string, ``contracts`` accepts contract names, and ``first_hand_marker`` a card name.

    Options that depend on others: ``small_weis_split_long_runs=True`` needs
    ``small_weis=True`` (rule book R7.3) and is refused without it. Other options are accepted
    and unused while another switches them off: with ``hands=n``, ``target``, ``end_mode`` and
    ``schneider`` are ignored (R9.1); with ``weis=False`` the Weis options, with
    ``stoeck=False`` ``stoeck_claim_anytime_to_finish``, and ``first_hand_marker`` unless
    ``first_hand_rule`` is ``MARKER_CARD``.

    >>> from jass import rules
    >>> RuleSet() == rules.SCHIEBER
    True
    >>> RuleSet(end_mode="thank").end_mode
    <EndMode.THANK: 'thank'>
    >>> RuleSet(hands=12, end_mode="thank").hands  # end_mode is then unused (R9.1)
    12
    """

    suit_pairing: SuitPairing = SuitPairing.SWISSLOS
    multipliers: Multipliers | tuple[int, int, int, int, int, int] = Multipliers.SWISSLOS_2500
    target: int = 2500
    hands: int | None = None
    contracts: frozenset[Contract] = STANDARD_CONTRACTS
    weis: bool = True
    stoeck: bool = True
    weis_declaration: WeisDeclaration = WeisDeclaration.AUTO
    first_hand_rule: FirstHandRule = FirstHandRule.DRAW_LOWEST_DEALS
    first_hand_marker: Card = attrs.field(factory=_seven_d)
    dealer_rotation: DealerRotation = DealerRotation.ROTATE
    allow_shove_back: bool = False
    undertrump_only_trumps: UndertrumpRule = UndertrumpRule.ANY
    kreuzweis: bool = True
    small_weis: bool = False
    small_weis_split_long_runs: bool = False
    weis_tie_sequence_vs_quartet: WeisTie = WeisTie.SEQUENCE_FIRST
    undenufe_reverse_weis: bool = True
    weis_requires_trick: bool = False
    old_undenufe: bool = False
    counter_match: CounterMatch = CounterMatch.SAME_AS_MATCH
    match_bonus: int = 100
    ausmach_order: AusmachOrder = AusmachOrder.STOECK_WEIS_STICH
    stoeck_claim_anytime_to_finish: bool = True
    end_mode: EndMode = EndMode.AUTO
    schneider: bool = False
    # Multiplier per contract index, and the hash, derived once.
    _multiplier_by_contract: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)
    _hash: int = attrs.field(init=False, eq=False, repr=False)

    def __init__(self, **options: Unpack[RuleSetOptions]) -> None:
        """Build a rule set from the ``SCHIEBER`` defaults and the options given."""
        unknown = sorted(str(name) for name in set(options) - _OPTION_NAMES)
        if unknown:
            raise InvalidInputError(f"unknown RuleSet option {describe(unknown[0], typed=False)}")
        attrs_init: Any = self.__attrs_init__  # values are normalised in __attrs_post_init__
        attrs_init(**options)

    def __attrs_post_init__(self) -> None:
        """Normalise convenient spellings, then check every option."""
        for field in attrs.fields(RuleSet):
            if not field.init:
                continue
            value = getattr(self, field.name)
            normal = _normalise(field.name, value)
            if normal is not value:
                object.__setattr__(self, field.name, normal)
        table = (
            self.multipliers.value
            if isinstance(self.multipliers, Multipliers)
            else self.multipliers
        )
        by_contract = [1] * len(Contract.all())  # Misère is always x1 (R8.5)
        for position, contract_index in enumerate(_TABLE_TO_CONTRACT):
            by_contract[contract_index] = table[position]
        self._check_combination()
        object.__setattr__(self, "_multiplier_by_contract", tuple(by_contract))
        object.__setattr__(self, "_hash", hash(tuple(self.options().values())))

    def _check_combination(self) -> None:
        """Refuse an option that only refines another one, set without it (rule book R7.3).

        The other combinations in which one option makes another one moot are accepted, as
        rule book says (see "Options that depend on others" in the rule-set docs).
        """
        if self.small_weis_split_long_runs and not self.small_weis:
            raise InvalidInputError(
                "RuleSet options 'small_weis_split_long_runs' and 'small_weis' contradict each "
                "other: small_weis_split_long_runs=True splits a nine-card run under the small "
                "Weis table only (rule book R7.3), but small_weis is False; set small_weis=True "
                "too, or leave small_weis_split_long_runs False"
            )

    def evolve(self, **changes: Unpack[RuleSetOptions]) -> RuleSet:
        """A copy with ``changes`` applied; unknown options and bad values raise.

        >>> from jass import rules
        >>> rules.SCHIEBER.evolve(target=1000).target
        1000
        >>> rules.SCHIEBER.evolve(target=-5)
        Traceback (most recent call last):
        ...
        jass.errors.InvalidInputError: RuleSet option 'target' must be a positive integer, got ...
        """
        return RuleSet(**{**self.options(), **changes})

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        """The option names, in the order of rule book §11.

        >>> RuleSet.option_names()[:3]
        ('suit_pairing', 'multipliers', 'target')
        """
        return tuple(f.name for f in attrs.fields(cls) if f.init)

    def options(self) -> dict[str, Any]:
        """The options as a dict, in the order of rule book §11.

        >>> RuleSet().options()["target"]
        2500
        """
        return {name: getattr(self, name) for name in self.option_names()}

    def changes_from(self, base: RuleSet) -> dict[str, Any]:
        """The options whose value differs from ``base``; ``base.evolve(**result) == self``.

        >>> from jass import rules
        >>> rules.SCHIEBER_1000.changes_from(rules.SCHIEBER)
        {'multipliers': <Multipliers.FLAT: (1, 1, 1, 1, 1, 1)>, 'target': 1000, 'kreuzweis': False}
        """
        return {
            name: value for name, value in self.options().items() if getattr(base, name) != value
        }

    def multiplier(self, contract: Contract) -> int:
        """The multiplier of ``contract`` under this rule set (rule book R8.5).

        >>> from jass import Suit
        >>> rs = RuleSet()
        >>> rs.multiplier(Contract.trump(Suit.CLUBS)), rs.multiplier(Contract.UNDENUFE)
        (2, 3)
        """
        return self._multiplier_by_contract[contract.index]

    def allows(self, contract: Contract) -> bool:
        """Whether ``contract`` may be chosen under this rule set.

        >>> from jass import rules
        >>> rules.BEGINNER.allows(Contract.OBENABE)
        False
        """
        return contract in self.contracts


def _cached_hash(self: RuleSet) -> int:
    return self._hash


# Rule sets are dict keys in hot paths (caches, game states): hash once, at construction.
RuleSet.__hash__ = _cached_hash  # type: ignore[method-assign,assignment]
_OPTION_NAMES: Final = frozenset(RuleSet.option_names())


def _bad(name: str, expected: str, value: object) -> InvalidInputError:
    return InvalidInputError(f"RuleSet option {name!r} must be {expected}, got {describe(value)}")


def _normalise(name: str, value: object) -> object:
    """Return ``value`` in its canonical form for option ``name``, or raise."""
    check = _CHECKS.get(name)
    if check is not None:
        return check(name, value)
    default = _DEFAULTS[name]
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise _bad(name, "True or False", value)
        return value
    assert isinstance(default, enum.Enum)  # noqa: S101  (every other option has a check)
    return _enum_member(name, type(default), value)


def _enum_member(name: str, enum_type: type[enum.Enum], value: object) -> enum.Enum:
    if isinstance(value, enum_type):
        return value
    if isinstance(value, str):
        member = enum_type.__members__.get(value.strip().upper().replace(" ", "_"))
        if member is not None:
            return member
    names = ", ".join(enum_type.__members__)
    raise _bad(name, f"one of {enum_type.__name__} {names}", value)


def _positive_int(name: str, value: object) -> int:
    if not is_int(value) or value <= 0:
        raise _bad(name, "a positive integer", value)
    return value


def _check_hands(name: str, value: object) -> int | None:
    return None if value is None else _positive_int(name, value)


def _check_match_bonus(name: str, value: object) -> int:
    if not is_int(value) or value < 0:
        raise _bad(name, "a non-negative integer", value)
    return value


def _check_multipliers(name: str, value: object) -> Multipliers | tuple[int, ...]:
    if isinstance(value, Multipliers):
        return value
    if isinstance(value, str):
        member = _enum_member(name, Multipliers, value)
        assert isinstance(member, Multipliers)  # noqa: S101  (narrowing only)
        return member
    if isinstance(value, (tuple, list)):
        table = tuple(value)
        if len(table) == 6 and all(
            isinstance(m, int) and not isinstance(m, bool) and m > 0 for m in table
        ):
            # A custom table equal to a preset is that preset, so equal rule sets compare equal.
            return _TABLE_PRESETS.get(table, table)
    raise _bad(
        name,
        "a Multipliers member or six positive integers for (♥, ♦, ♠, ♣, OBENABE, UNDENUFE)",
        value,
    )


def _check_contracts(name: str, value: object) -> frozenset[Contract]:
    if isinstance(value, frozenset) and value and all(isinstance(c, Contract) for c in value):
        return value
    # A mapping iterates over its keys only: refuse it rather than guess what it means.
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise _bad(name, "a non-empty collection of contracts", value)
    try:
        contracts = frozenset(Contract.parse(c) for c in value)
    except InvalidInputError as exc:
        raise InvalidInputError(f"RuleSet option {name!r}: {exc}") from None
    if not contracts:
        raise _bad(name, "a non-empty collection of contracts", value)
    return contracts


def _check_marker(name: str, value: object) -> Card:
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        try:
            return Card.parse(value)
        except InvalidInputError as exc:
            raise InvalidInputError(f"RuleSet option {name!r}: {exc}") from None
    raise _bad(name, "a card, such as '7D'", value)


_TABLE_PRESETS: Final = {member.value: member for member in Multipliers}
_CHECKS: Final = {
    "multipliers": _check_multipliers,
    "target": _positive_int,
    "hands": _check_hands,
    "contracts": _check_contracts,
    "first_hand_marker": _check_marker,
    "match_bonus": _check_match_bonus,
}
# Declared defaults; the one factory default (first_hand_marker) has a check in _CHECKS.
_DEFAULTS: Final[dict[str, object]] = {f.name: f.default for f in attrs.fields(RuleSet) if f.init}
