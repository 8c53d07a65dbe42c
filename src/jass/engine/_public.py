"""The public record of a game, and the refusals that both a game and a view ask (internal).

Everything here is what every seat may know. A :class:`~jass.Game` keeps the current trick's
:class:`Round` as a field, and derives the :class:`PublicHand` of its hand on demand (cached
on the shared hand context); a :class:`~jass.PlayerView` is these two records by reference,
plus the phase, the seat to move, the trick and the scores, plus its seat's own hand. So a
view holds no other seat's hidden cards, and it answers ``legal_moves``, ``legal_actions``
and the ``can_*`` predicates from its own data, through the same functions as the game:
the refusals below, on the kernels of :mod:`jass.core.play`.

>>> import jass
>>> g = jass.Game.new(seed=3).deal()
>>> g.view(1)._pub == g.view(2)._pub, g.view(1)._pub.number
(True, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

import attrs

from jass.core.cards import Card, CardSet
from jass.core.contracts import Contract
from jass.core.play import explain_illegal, legal_mask
from jass.core.ruledata import RuleData, rule_data
from jass.core.scoring import GameResult, HandScore
from jass.core.seats import Seat, Team
from jass.core.weis import Weis, WeisResult, find_weis
from jass.engine.actions import PLAY_ACTIONS, Choose, DeclareWeis, Play, Shove, Thank
from jass.engine.hand import GameSetup, HandInfo, Phase
from jass.engine.inference import marker_holder
from jass.errors import IllegalReason, InvalidInputError
from jass.rules import EndMode, RuleSet, WeisDeclaration

__all__ = [
    "NO_ROUND",
    "PublicHand",
    "Refusal",
    "Round",
    "choose_refusal",
    "declare_refusal",
    "legal_actions",
    "legal_now",
    "new_round",
    "phase_refusal",
    "play_refusal",
    "public_hand",
    "shove_refusal",
    "thank_refusal",
    "weis_choice",
]

_new_set: Final = int.__new__
_EMPTY: Final = CardSet(0)
_TEAMS: Final = tuple(Team)
_THANKS: Final = (Thank(Team(0)), Thank(Team(1)))  # values: one of each serves every call
#: The seats in the order they play a trick, for each leader.
PLAY_ORDER: Final = tuple(tuple(Seat((lead + k) & 3) for k in range(4)) for lead in range(4))
_PLAY: Final = Phase.PLAY
_CHOOSE: Final = Phase.CHOOSE

#: What a refused action gets: the reason and the message.
Refusal = tuple[IllegalReason, str]
#: Cards played, with the seat that played each.
Plays = tuple[tuple[Seat, Card], ...]
#: The actions a seat may take.
Actions = tuple[Play | Choose | Shove | DeclareWeis | Thank, ...]


class Round(NamedTuple):
    """What changes once a trick: its leader, and what the completed tricks gave (internal).

    Built with keywords (:func:`new_round`), so that two fields of one type cannot change
    places; the trick's completion alone builds it by position, for speed, and
    ``tests/test_fields.py`` fails if two fields change places there.

    >>> new_round(leader=2, points=(10, 0), tricks_won=(1, 0), plays=()).tricks_won
    (1, 0)
    """

    #: The seat that leads (or led) the current trick, -1 before the play.
    leader: int
    #: Unmultiplied card points taken in the hand, by team.
    points: tuple[int, int]
    #: Tricks taken in the hand, by team.
    tricks_won: tuple[int, int]
    #: The cards of the completed tricks, with who played them, in order.
    plays: Plays


_tuple_new: Final = tuple.__new__


def new_round(
    *, leader: int, points: tuple[int, int], tricks_won: tuple[int, int], plays: Plays
) -> Round:
    """A :class:`Round`, by keyword only: ``Round(...)`` itself costs five times as much.

    >>> new_round(leader=1, points=(0, 0), tricks_won=(2, 0), plays=()).tricks_won
    (2, 0)
    """
    return _tuple_new(Round, (leader, points, tricks_won, plays))


#: The round of a state outside the card play.
NO_ROUND: Final = Round(leader=-1, points=(0, 0), tricks_won=(0, 0), plays=())


@attrs.frozen
class PublicHand:
    """What every seat may know of the game and the current hand, beyond the card play.

    ``declared`` are the points of the Weis each seat declared (``None`` until it declares),
    ``shown`` the Weis shown after trick 1 with their holders (rule book R7.8), ``stoeck``
    the seat whose Stöck were scored or shown. The game's seed is not part of it: every deal
    follows from the seed.

    >>> import jass
    >>> pub = jass.Game.new(seed=3).deal().choose("obenabe").view(0)._pub
    >>> pub.contract, pub.shoves, pub.declared
    (Contract.OBENABE, 0, (None, None, None, None))
    """

    rules: RuleSet
    #: Where the game started. Not compared: what it tells the seat about the cards is
    #: ``marker``, and the scores and hand numbers carry the rest.
    setup: GameSetup = attrs.field(eq=False)
    number: int | None
    dealer: Seat | None
    contract: Contract | None
    chooser: Seat | None
    shoves: int
    results: tuple[HandScore, ...]
    outcome: GameResult | None
    unchecked: frozenset[int]
    declared: tuple[tuple[int, ...] | None, ...]
    shown: tuple[tuple[Seat, Weis], ...]
    weis_winner: Seat | None
    stoeck: Seat | None
    #: The seat known to hold the marker card (rule book R3.7), or -1.
    marker: int
    #: The contract's rule data (a placeholder's before one is named), and whether Weis are
    #: declared by hand: derived from the fields above.
    data: RuleData = attrs.field(eq=False, repr=False)
    manual_weis: bool = attrs.field(eq=False, repr=False)


def legal_now(phase: Phase, hand: CardSet, trick: Sequence[Card], data: RuleData) -> CardSet:
    """The cards ``hand`` may play now: ``legal_mask`` in the play phase, else none.

    >>> import jass
    >>> g = jass.Game.new(seed=3).deal().choose("obenabe")
    >>> legal_now(g.phase, g.hands[g.to_move], g.trick, g.view(0)._pub.data) == g.legal_moves()
    True
    """
    if phase is not _PLAY:
        return _EMPTY
    if not trick:
        return hand  # any card may be led (R5.1)
    return _new_set(CardSet, legal_mask(int(hand), trick, data))


def phase_refusal(phase: Phase, outcome: GameResult | None, what: str) -> Refusal:
    """Why ``what`` cannot be done in ``phase``.

    >>> phase_refusal(Phase.DEAL, None, "shove")[1]
    'cannot shove in phase DEAL'
    """
    if outcome is not None:
        return IllegalReason.GAME_OVER, f"cannot {what}: the game is over"
    return IllegalReason.WRONG_PHASE, f"cannot {what} in phase {phase.name}"


def shove_refusal(
    phase: Phase, outcome: GameResult | None, shoves: int, rules: RuleSet
) -> Refusal | None:
    """Why the choice may not be shoved now (rule book §4), or ``None``.

    >>> from jass import rules
    >>> shove_refusal(Phase.CHOOSE, None, 1, rules.SCHIEBER)[0].name
    'SHOVE_NOT_ALLOWED'
    """
    if phase is not _CHOOSE:
        return phase_refusal(phase, outcome, "shove")
    back = rules.allow_shove_back
    if shoves == 0 or (shoves == 1 and back):
        return None
    return (
        IllegalReason.SHOVE_NOT_ALLOWED,
        "cannot shove: the choice was already shoved"
        + ("" if back else " and allow_shove_back is off"),
    )


def choose_refusal(
    phase: Phase, outcome: GameResult | None, rules: RuleSet, contract: Contract
) -> Refusal | None:
    """Why ``contract`` may not be named now, or ``None``.

    >>> from jass import Contract, rules
    >>> choose_refusal(Phase.CHOOSE, None, rules.BEGINNER, Contract.OBENABE)[1][:27]
    'OBENABE is not allowed by t'
    """
    if phase is not _CHOOSE:
        return phase_refusal(phase, outcome, f"choose {contract}")
    if contract in rules.contracts:
        return None
    allowed = ", ".join(c.name for c in Contract.all() if c in rules.contracts)
    return (
        IllegalReason.CONTRACT_NOT_ALLOWED,
        f"{contract} is not allowed by this rule set; allowed: {allowed}",
    )


def play_refusal(
    phase: Phase,
    outcome: GameResult | None,
    hand: CardSet,
    trick: Sequence[Card],
    contract: Contract,
    rules: RuleSet,
    card: Card,
    seat: int,
) -> Refusal | None:
    """Why seat ``seat``, holding ``hand``, may not play ``card`` now (rule book R5.5).

    >>> import jass
    >>> g = jass.Game.new(seed=3).deal().choose("obenabe")
    >>> other = g.hands[g.to_move.next].cards()[0]
    >>> play_refusal(g.phase, None, g.hands[0], g.trick, g.contract, g.ruleset, other, 0)[0].name
    'NOT_IN_HAND'
    """
    if phase is not _PLAY:
        return phase_refusal(phase, outcome, f"play {card}")
    explained = explain_illegal(hand, trick, contract, card, rules)
    if explained is None:
        return None
    reason, text = explained
    if reason is IllegalReason.NOT_IN_HAND:
        text = f"{card} is not in the hand of seat {seat} ({hand})"
    return reason, text


def declare_refusal(
    phase: Phase,
    outcome: GameResult | None,
    rules: RuleSet,
    declaring_open: bool,
    hand: CardSet,
    chosen: tuple[Weis, ...],
    seat: int,
) -> Refusal | None:
    """Why seat ``seat`` may not declare ``chosen`` now (``weis_declaration=MANUAL``, R7.7).

    ``declaring_open`` tells whether the seat may still declare (its first card of trick 1).

    >>> from jass import CardSet, rules
    >>> declare_refusal(Phase.PLAY, None, rules.SCHIEBER, False, CardSet(0), (), 0)[1]
    'cannot declare Weis: Weis are declared automatically (weis_declaration=AUTO)'
    """
    if phase is not _PLAY:
        return phase_refusal(phase, outcome, "declare Weis")
    if not declaring_open:
        why = (
            "this rule set has no Weis"
            if not rules.weis
            else "Weis are declared automatically (weis_declaration=AUTO)"
            if rules.weis_declaration is WeisDeclaration.AUTO
            else "Weis are declared only before one's first card of trick 1, once"
        )
        return IllegalReason.WEIS_NOT_DECLARABLE, f"cannot declare Weis: {why}"
    found = find_weis(hand, rules)
    for index, item in enumerate(chosen):
        if item not in found or item in chosen[:index]:
            return (
                IllegalReason.WEIS_NOT_IN_HAND,
                f"cannot declare {item}: the Weis of seat {seat} are "
                + (", ".join(str(w) for w in found) or "none"),
            )
    return None


def thank_refusal(outcome: GameResult | None, rules: RuleSet) -> Refusal | None:
    """Why no team may thank now (rule book R9.2a), or ``None``.

    >>> from jass import rules
    >>> thank_refusal(None, rules.TOURNAMENT_12)[1]
    'cannot thank: the game has a fixed number of hands'
    """
    if outcome is not None:
        return IllegalReason.GAME_OVER, "cannot thank: the game is over"
    if rules.hands is not None:
        return IllegalReason.THANK_NOT_ALLOWED, "cannot thank: the game has a fixed number of hands"
    if rules.end_mode is EndMode.END_OF_HAND:
        return (
            IllegalReason.THANK_NOT_ALLOWED,
            "cannot thank: end_mode=END_OF_HAND decides the game at the end of a hand",
        )
    return None


def legal_actions(
    phase: Phase,
    outcome: GameResult | None,
    rules: RuleSet,
    legal: CardSet,
    hand: CardSet,
    shoves: int,
    declaring_open: bool,
    mover: int,
) -> Actions:
    """Every action seat ``mover`` may take now, holding ``hand`` with ``legal`` cards to play.

    ``Thank`` is offered to the mover's team whenever thanking is allowed (rule book R9.2a),
    always last; under ``weis_declaration=MANUAL``, before it, each non-empty choice of the
    mover's Weis while it may declare (``declaring_open``).

    >>> import jass
    >>> g = jass.Game.new(jass.rules.TOURNAMENT_12, seed=1).deal()
    >>> acts = legal_actions(g.phase, None, g.ruleset, jass.CardSet(0), g.hands[g.to_move],
    ...                      0, False, int(g.to_move))
    >>> acts == g.legal_actions()
    True
    """
    actions: list[Play | Choose | Shove | DeclareWeis | Thank]
    if phase is _PLAY:
        actions = [PLAY_ACTIONS[c] for c in legal.cards()]
        if declaring_open:
            found = find_weis(hand, rules)
            for mask in range(1, 1 << len(found)):
                chosen = tuple(w for i, w in enumerate(found) if mask >> i & 1)
                actions.append(DeclareWeis(chosen))
    elif phase is _CHOOSE:
        allowed = rules.contracts
        actions = [Choose(c) for c in Contract.all() if c in allowed]
        if shove_refusal(phase, outcome, shoves, rules) is None:
            actions.append(Shove())
    else:
        return ()
    if thank_refusal(outcome, rules) is None:
        actions.append(_THANKS[mover & 1])
    return tuple(actions)


def public_hand(
    *,
    rules: RuleSet,
    setup: GameSetup,
    hand: HandInfo | None,
    results: tuple[HandScore, ...],
    outcome: GameResult | None,
    unchecked: frozenset[int],
    declared_weis: tuple[tuple[Weis, ...] | None, ...],
    weis: WeisResult | None,
    stoeck: Seat | None,
) -> PublicHand:
    """The :class:`PublicHand` of a state: of its hand record, the public parts only.

    The declared Weis are reduced to their points, and of the resolved Weis only the winning
    team's are kept, the ones shown after trick 1 (rule book R7.8).

    >>> from jass import rules
    >>> from jass.engine.hand import FRESH_START
    >>> public_hand(rules=rules.SCHIEBER, setup=FRESH_START, hand=None, results=(),
    ...             outcome=None, unchecked=frozenset(), declared_weis=(None,) * 4, weis=None,
    ...             stoeck=None).declared
    (None, None, None, None)
    """
    winner = weis.winner if weis is not None else None
    number = hand.number if hand is not None else None
    dealer = hand.dealer if hand is not None else None
    contract = hand.contract if hand is not None else None
    return PublicHand(
        rules=rules,
        setup=setup,
        number=number,
        dealer=dealer,
        contract=contract,
        chooser=hand.chooser if hand is not None else None,
        shoves=hand.shoves if hand is not None else 0,
        results=results,
        outcome=outcome,
        unchecked=unchecked,
        declared=tuple(
            None if each is None else tuple(w.points for w in each) for each in declared_weis
        ),
        shown=()
        if weis is None or winner is None
        else tuple((s, w) for s in winner.team.seats for w in weis.declared[s]),
        weis_winner=winner,
        stoeck=stoeck,
        marker=marker_holder(rules, number, dealer, setup.dealer is not None),
        data=rule_data(contract if contract is not None else Contract.OBENABE, rules),
        manual_weis=rules.weis
        and contract is not None
        and rules.weis_declaration is WeisDeclaration.MANUAL,
    )


def weis_choice(weis: object) -> tuple[Weis, ...]:
    """A choice of Weis as a tuple; strings and other non-Weis values are refused.

    >>> from jass import CardSet, find_weis
    >>> weis_choice(find_weis(CardSet.parse("6S 7S 8S"))) == find_weis(CardSet.parse("6S 7S 8S"))
    True
    """
    if isinstance(weis, Weis):
        return (weis,)
    if isinstance(weis, (str, bytes)):
        raise InvalidInputError(
            f"declare_weis takes Weis values (see jass.find_weis), not the string {weis!r}"
        )
    if not isinstance(weis, Iterable):
        raise InvalidInputError(f"declare_weis takes Weis values, got {weis!r}")
    chosen = tuple(weis)
    for item in chosen:
        if not isinstance(item, Weis):
            raise InvalidInputError(f"declare_weis takes Weis values, got {item!r} in {weis!r}")
    return chosen
