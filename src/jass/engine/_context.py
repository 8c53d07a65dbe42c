"""What the state machine keeps privately per game and per hand (internal).

:class:`GameFacts` holds what a game's rule set, seed and set-up fix for its whole length,
:class:`HandContext` what changes a few times a hand at most (the hand, its rule data, the
results), and :class:`HandCredits` what the scoring events of the hand have credited. States
share them by reference. They hold hidden information (the seed, the cards dealt), so a
:class:`~jass.PlayerView` never holds them: it gets the public record of
:mod:`jass.engine._public`.

>>> import jass
>>> HandContext(GameFacts.of(jass.rules.SCHIEBER, 3)).hand_info is None
True
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import Any, Final, NamedTuple

from jass.core.cards import Rank
from jass.core.contracts import Contract
from jass.core.ruledata import RuleData, rule_data
from jass.core.scoring import GameResult, HandScore, ScoringEvent, event_order
from jass.core.weis import Weis, WeisResult, find_weis
from jass.engine.hand import FRESH_START, GameSetup, HandInfo
from jass.rules import EndMode, RuleSet, WeisDeclaration

__all__: list[str] = []  # internal: the state machine imports the names it needs


class HandCredits(NamedTuple):
    """What the scoring events of the current hand have credited and left pending (internal).

    >>> HandCredits().weis_credit
    (0, 0)
    """

    #: Weis declared by hand, by seat (``MANUAL`` only); ``None`` until the seat declares.
    declared: tuple[tuple[Weis, ...] | None, ...] = (None, None, None, None)
    #: The resolved Weis, from the end of trick 1.
    weis: WeisResult | None = None
    #: Unmultiplied Weis and Stöck points credited so far, by team.
    weis_credit: tuple[int, int] = (0, 0)
    stoeck_credit: tuple[int, int] = (0, 0)
    #: The team whose Weis wait for its first trick (``weis_requires_trick``), or -1.
    weis_pending: int = -1
    #: Whether the Stöck were scored or claimed.
    stoeck_done: bool = False
    #: The game-wide trick index of a Stöck event in the trick in progress, or -1.
    stoeck_step: int = -1


NO_CREDITS: Final = HandCredits()


class GameFacts:
    """What a game's rule set, seed and set-up fix for its whole length, derived once (internal).

    >>> import jass
    >>> GameFacts.of(jass.rules.SCHIEBER, 1).auto_target
    2500
    """

    __slots__ = (
        "auto_target",
        "claim_stoeck",
        "event_rank",
        "reach_target",
        "rules",
        "seed",
        "setup",
    )

    rules: RuleSet
    seed: int
    setup: GameSetup
    #: The target that counts at all (None in a fixed-length game), and the one that ends the
    #: game at a scoring event (R9.3).
    reach_target: int | None
    auto_target: int | None
    claim_stoeck: bool
    event_rank: dict[ScoringEvent, int]

    @classmethod
    def of(cls, rules: RuleSet, seed: int, setup: GameSetup = FRESH_START) -> GameFacts:
        """The facts of a game with ``rules``, ``seed`` and ``setup``."""
        facts = object.__new__(cls)
        facts.seed = seed
        facts.setup = setup
        facts.rules, facts.reach_target, facts.auto_target, facts.claim_stoeck, facts.event_rank = (
            _rule_facts(rules)
        )
        return facts


@functools.lru_cache(maxsize=256)
def _rule_facts(
    rules: RuleSet,
) -> tuple[RuleSet, int | None, int | None, bool, dict[ScoringEvent, int]]:
    reach_target = rules.target if rules.hands is None else None
    auto = rules.end_mode is EndMode.AUTO
    return (
        rules,
        reach_target,
        reach_target if auto else None,
        auto and rules.stoeck_claim_anytime_to_finish,
        {event: rank for rank, event in enumerate(event_order(rules))},
    )


class HandContext:
    """The part of a game state that changes a few times per hand at most (internal).

    States share it, so that playing a card copies a handful of references only. Besides the
    records it holds what is derived from them once: the contract's tables and multiplier and
    the Stöck holder.

    >>> import jass
    >>> HandContext(GameFacts.of(jass.rules.SCHIEBER, 3)).hand_info is None
    True
    """

    __slots__ = (
        "contract",
        "data",
        "facts",
        "found",
        "hand_info",
        "hand_step",
        "manual_weis",
        "outcome",
        "public",
        "reached",
        "results",
        "rules",
        "stoeck_mask",
        "stoeck_seat",
        "unchecked",
        "weis_on",
    )

    contract: Contract
    #: The rule data of the contract under the rule set: card points, multiplier, the
    #: undertrump flag and the Misère swap that the hot path reads.
    data: RuleData
    facts: GameFacts
    #: Each seat's Weis as find_weis finds them in its dealt cards, found on first need.
    found: list[tuple[Weis, ...] | None]
    hand_info: HandInfo | None
    hand_step: int
    manual_weis: bool
    outcome: GameResult | None
    #: A cache of the public record of a state (see Game._public): (tally, stage, record).
    public: tuple[HandCredits, int, Any] | None
    #: For each team, (game-wide trick index, event rank) of the event that reached the target.
    reached: tuple[tuple[int, int] | None, tuple[int, int] | None]
    results: tuple[HandScore, ...]
    rules: RuleSet
    stoeck_mask: int
    stoeck_seat: int
    #: The indexes (into the hand's plays) of cards played without the rules' check.
    unchecked: frozenset[int]
    weis_on: bool

    def __init__(self, facts: GameFacts) -> None:
        self.facts = facts
        self.rules = facts.rules
        self.results = ()
        self.outcome = None
        self.public = None
        self.reached = (None, None)
        self._derive(None)

    def _derive(self, hand: HandInfo | None) -> None:
        """Set the hand and what its contract fixes."""
        rules = self.rules
        self.hand_info = hand
        self.found = [None, None, None, None]
        self.unchecked = frozenset()
        contract = hand.contract if hand is not None else None
        # A placeholder contract before one is named: read only in the PLAY phase.
        self.contract = contract if contract is not None else Contract.OBENABE
        self.data = rule_data(self.contract, rules)
        self.weis_on = rules.weis and contract is not None
        self.manual_weis = self.weis_on and rules.weis_declaration is WeisDeclaration.MANUAL
        #: The game-wide index of this hand's first trick: scoring steps count tricks.
        self.hand_step = 9 * hand.number if hand is not None else 0
        # The seat holding trump King and Queen, and their mask (rule book R8.1).
        self.stoeck_seat = -1
        self.stoeck_mask = 0
        if rules.stoeck and hand is not None and contract is not None and contract.is_trump:
            suit = contract.trump_suit
            assert suit is not None  # noqa: S101
            pair = 1 << (9 * suit + Rank.KING) | 1 << (9 * suit + Rank.QUEEN)
            for seat in range(4):
                if hand.dealt[seat] & pair == pair:
                    self.stoeck_seat = seat
                    self.stoeck_mask = pair

    def _clone(self) -> HandContext:
        """A copy of every slot (the same hand: ``found``, its cache, is shared).

        Replaced below by code written from ``__slots__``, so that a new slot is copied
        without a line here.
        """
        raise NotImplementedError  # pragma: no cover

    def found_weis(self, seat: int) -> tuple[Weis, ...]:
        """The Weis in the cards dealt to ``seat``, as :func:`~jass.find_weis` finds them.

        Found once per hand and shared by its states, since declaring them automatically
        (and so the encoders' ``declared_weis``) asks for them at every card of trick 1.

        >>> import jass
        >>> g = jass.Game.new(seed=4).deal().choose("obenabe")
        >>> g._ctx.found_weis(0) == jass.find_weis(g.hand_info.dealt[0], g.ruleset)
        True
        """
        found = self.found[seat]
        if found is None:
            hand = self.hand_info
            assert hand is not None  # noqa: S101  (asked for in a hand only)
            found = self.found[seat] = find_weis(hand.dealt[seat], self.rules)
        return found

    def with_hand(self, hand: HandInfo) -> HandContext:
        """The same context for another :class:`HandInfo` record."""
        new = self._clone()
        new._derive(hand)
        return new

    def with_result(self, score: HandScore) -> HandContext:
        """The context after a hand is scored."""
        new = self._clone()
        new.results = (*self.results, score)
        return new

    def with_unchecked(self, index: int) -> HandContext:
        """The context after play ``index`` of the hand was made without the rules' check."""
        new = self._clone()
        new.unchecked = self.unchecked | {index}
        return new

    def with_outcome(self, outcome: GameResult) -> HandContext:
        """The context of a finished game."""
        new = self._clone()
        new.outcome = outcome
        return new

    def with_reached(self, team: int, record: tuple[int, int]) -> HandContext:
        """The context after ``team`` first reached the target, at ``record``."""
        new = self._clone()
        new.reached = (record, self.reached[1]) if team == 0 else (self.reached[0], record)
        return new

    def key(self) -> tuple[object, ...]:
        """What equality and hashing of a state compare: the slots in :data:`_CONTEXT_KEY`.

        The rest is derived from these (the contract's data, the Stöck holder) or a cache
        (``found``).
        """
        return _context_key(self)


#: Every slot of a hand context, and those that equality compares (the others follow from
#: them). A new slot goes into ``__slots__`` and, unless derived, into _CONTEXT_KEY.
_CONTEXT_SLOTS: Final = HandContext.__slots__


def _slot_copier(cls: type, slots: tuple[str, ...]) -> Callable[[Any], Any]:
    """A function that copies every slot of an instance of ``cls``, written out slot by slot.

    A loop over the slots costs a few times more, and hand contexts are copied at every
    shove, contract, Weis and score.
    """
    lines = ["def clone(self):", "    new = _new(cls)", "    new.public = None  # a cache"]
    lines += [f"    new.{name} = self.{name}" for name in slots if name != "public"]
    lines.append("    return new")
    namespace: dict[str, Any] = {"_new": object.__new__, "cls": cls}
    exec("\n".join(lines), namespace)  # noqa: S102  (code written from our own slot names)
    clone: Callable[[Any], Any] = namespace["clone"]
    clone.__doc__ = f"A copy of a {cls.__name__}, slot by slot."
    return clone


HandContext._clone = _slot_copier(HandContext, _CONTEXT_SLOTS)  # type: ignore[method-assign,assignment]
_CONTEXT_KEY: Final = (
    "facts.rules",
    "facts.seed",
    "facts.setup",
    "hand_info",
    "results",
    "outcome",
    "reached",
    "unchecked",
)
_context_key: Final = operator.attrgetter(*_CONTEXT_KEY)
