r"""What the terminal shows: the table, the scores, and what happened, in the words of the game.

:func:`status_lines`, :func:`trick_line` and :func:`hand_lines` draw one player's screen from
its :class:`~jass.PlayerView`; :func:`describe` tells what an action did (the contract, a
shove, Stöck, a trick, the Weis, the hand's score, the end of the game), and :func:`narrate`
prints that for ``jass watch`` and ``jass replay``. :class:`Style` adds colour (ANSI escapes),
for a terminal only.

>>> import jass
>>> g = jass.Game.new(seed=3).deal().choose("hearts")
>>> print("\n".join(status_lines(g.view(0), Names())))
Hand 1 · Trumpf Herz ×1 · chosen by partner
Us (you + partner) 0 · Them (right + left) 0 · target 2500
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Final, TextIO

import attrs

from jass.core.cards import Card, Suit, SuitPairing
from jass.core.contracts import Contract
from jass.core.play import trick_winner
from jass.core.scoring import HandScore
from jass.core.seats import Seat, Team
from jass.engine.actions import Action, Choose, Deal, Play, Shove, Thank
from jass.engine.game import Game
from jass.engine.hand import Phase
from jass.engine.view import PlayerView
from jass.naming import Names, counted, seat_label, team_label
from jass.rules import RuleSet
from jass.rules.options import CounterMatch

__all__ = [
    "Labels",
    "Style",
    "describe",
    "hand_lines",
    "narrate",
    "status_lines",
    "symbols_fit",
    "trick_line",
]

# ANSI colours by Swiss suit name (Rosen red, Schellen yellow, Eicheln green, Schilten blue)
# and by French suit (♥ ♦ red, ♠ ♣ the terminal's own colour).
_SWISS_COLOURS: Final = {"Rosen": "31", "Schellen": "33", "Eicheln": "32", "Schilten": "34"}
_FRENCH_COLOURS: Final = ("", "31", "31", "")


@attrs.frozen
class Style:
    r"""Colour, or none: ANSI escapes only when ``color`` is true (a terminal, no ``NO_COLOR``).

    >>> from jass import Card
    >>> Style(color=True).card(Card.parse("JH"), Names()), Style().card(Card.parse("JH"), Names())
    ('\x1b[31m♥J\x1b[0m', '♥J')
    """

    color: bool = False

    def paint(self, text: str, *codes: str) -> str:
        r"""``text`` in the ANSI ``codes`` (``"1"`` bold, ``"2"`` dim, ``"31"`` red, ...).

        >>> Style(color=True).paint("hi", "1"), Style().paint("hi", "1")
        ('\x1b[1mhi\x1b[0m', 'hi')
        """
        codes = tuple(code for code in codes if code)
        if not self.color or not codes:
            return text
        return f"\x1b[{';'.join(codes)}m{text}\x1b[0m"

    def suit_colour(self, suit: Suit, names: Names) -> str:
        """The ANSI colour code of ``suit`` as ``names`` shows it (``""``: the default).

        >>> from jass import Suit
        >>> swiss = Names("SWISSLOS")
        >>> Style().suit_colour(Suit.HEARTS, Names()), Style().suit_colour(Suit.CLUBS, swiss)
        ('31', '33')
        """
        if names.pairing is not None:
            return _SWISS_COLOURS[names.suit(suit)]
        return _FRENCH_COLOURS[suit]

    def card(self, card: Card, names: Names, *extra: str) -> str:
        """The card's name in its suit's colour (and any ``extra`` codes).

        >>> from jass import Card
        >>> Style().card(Card.parse("AS"), Names("SWISSLOS"))
        'Schilten Ass'
        """
        return self.paint(names.card(card), self.suit_colour(card.suit, names), *extra)


_PLAIN: Final = Style()


@attrs.frozen
class Labels:
    """How seats and teams are called: by the player at ``me``, or by number (``me=None``).

    >>> from jass import Seat, Team
    >>> Labels(Seat(0)).seat(Seat(1)), Labels(None).seat(Seat(1)), Labels(Seat(0)).team(Team(1))
    ('right', 'seat 1', 'them')
    """

    me: Seat | None = None

    def seat(self, seat: Seat | int) -> str:
        """The seat's name: ``you``, ``right``, ``partner``, ``left``, or ``seat 2``.

        >>> Labels(Seat(2)).seat(0)
        'partner'
        """
        return f"seat {int(seat)}" if self.me is None else seat_label(seat, self.me)

    def team(self, team: Team | int) -> str:
        """The team's short name: ``us``, ``them``, or ``team 1``.

        >>> Labels(Seat(1)).team(1), Labels().team(1)
        ('us', 'team 1')
        """
        return f"team {int(team)}" if self.me is None else team_label(team, self.me)

    def side(self, team: Team | int) -> str:
        """The team in a sentence: ``your team``, ``the other team``, or ``team 1``.

        >>> Labels(Seat(0)).side(0), Labels(Seat(0)).side(1), Labels().side(1)
        ('your team', 'the other team', 'team 1')
        """
        if self.me is None:
            return f"team {int(team)}"
        return "your team" if team_label(team, self.me) == "us" else "the other team"

    def does(self, seat: Seat | int, verb: str) -> str:
        """``seat`` and ``verb`` agreeing: ``left takes``, ``you take``.

        >>> Labels(Seat(0)).does(0, "takes"), Labels(Seat(0)).does(3, "takes")
        ('you take', 'left takes')
        """
        label = self.seat(seat)
        if label == "you":
            verb = verb.removesuffix("es") if verb.endswith("shes") else verb.removesuffix("s")
        return f"{label} {verb}"

    def teams(self, pair: Sequence[int], sign: str = "") -> str:
        """A pair of team numbers, the viewer's team first: ``us 57, them 100``.

        >>> Labels(Seat(1)).teams((57, 100)), Labels().teams((57, 100), "+")
        ('us 100, them 57', 'team 0 +57, team 1 +100')
        """
        first = 0 if self.me is None else int(self.me) & 1
        return ", ".join(f"{self.team(team)} {sign}{pair[team]}" for team in (first, 1 - first))


def status_lines(view: PlayerView, names: Names, style: Style | None = None) -> list[str]:
    r"""The two lines always on screen: the contract and who chose it, and the scores.

    >>> import jass
    >>> g = jass.Game.new(jass.rules.SCHIEBER_1000, seed=3).deal().shove()
    >>> print("\n".join(status_lines(g.view(0), Names("SWISSLOS"))))
    Hand 1 · no trumps yet: partner shoved, you choose
    Us (you + partner) 0 · Them (right + left) 0 · target 1000
    """
    labels = Labels(view.seat)
    style = style or _PLAIN
    ruleset = view.ruleset
    number = (view.hand_number or 0) + 1
    contract = view.contract
    forehand = view.dealer.next if view.dealer is not None else None
    if contract is not None and view.chooser is not None:
        words = style.paint(names.contract(contract, ruleset), "1")
        first = f"Hand {number} · {words} · chosen by {labels.seat(view.chooser)}"
        if view.shoves and forehand is not None:
            first += f" ({labels.seat(forehand)} shoved)"
    elif forehand is not None and view.to_move is not None:
        who = labels.does(view.to_move, "chooses")
        first = f"Hand {number} · no trumps yet: " + (
            f"{labels.seat(forehand)} shoved, {who}" if view.shoves else who
        )
    else:
        first = f"Hand {number}"
    us = int(view.seat) & 1
    scores = view.scores
    goal = (
        f"hand {number} of {ruleset.hands}" if ruleset.hands is not None
        else f"target {ruleset.target}"
    )  # fmt: skip
    second = (
        f"Us (you + partner) {style.paint(str(scores[us]), '1')} · "
        f"Them (right + left) {style.paint(str(scores[1 - us]), '1')} · {goal}"
    )
    return [first, second]


def trick_line(view: PlayerView, names: Names, style: Style | None = None) -> str:
    """The current trick: who played what, in order, the card taking it so far underlined.

    >>> import jass
    >>> g = jass.Game.new(seed=3).deal().choose("hearts")
    >>> for _ in range(2):
    ...     g = g.play(g.legal_moves().cards()[0])
    >>> trick_line(g.view(0), Names())
    'Trick 1: partner ♠7 · left ♠9 · you ?'
    """
    labels = Labels(view.seat)
    style = style or _PLAIN
    number = len(view.tricks) + 1
    trick, leader, contract = view.trick, view.trick_leader, view.contract
    if not trick or leader is None or contract is None:
        return f"Trick {number}: " + ("you lead" if view.to_move == view.seat else "")
    best = trick_winner(trick, contract)
    shown = [
        f"{labels.seat(leader.offset(i))} "
        + style.card(card, names, "4" if i == best and len(trick) > 1 else "")
        for i, card in enumerate(trick)
    ]
    if view.to_move == view.seat:
        shown.append("you ?")
    return f"Trick {number}: " + " · ".join(shown)


def hand_lines(
    view: PlayerView, names: Names, style: Style | None = None
) -> tuple[list[str], tuple[Card, ...]]:
    r"""The hand by suit, trumps first, each suit strongest first, numbered; and the numbering.

    In the play, the cards that may be played are marked ``*`` (and bold in colour, the others
    dim). The second value lists the cards in the order of their numbers, from 1.

    >>> import jass
    >>> g = jass.Game.new(seed=3).deal().choose("hearts")
    >>> for _ in range(2):
    ...     g = g.play(g.legal_moves().cards()[0])
    >>> lines, order = hand_lines(g.view(0), Names())
    >>> print("\n".join(lines))
      ♥ Herz (Trumpf)  [1] J*  [2] 10*
      ♠ Schaufel       [3] K*  [4] 6*
      ♦ Ecken          [5] A   [6] K   [7] 8   [8] 6
      ♣ Kreuz          [9] 6
    """
    style = style or _PLAIN
    contract = view.contract
    playing = view.phase is Phase.PLAY and view.to_move == view.seat
    legal = view.legal_moves() if playing else None
    suits = list(Suit)
    if contract is not None and contract.trump_suit is not None:
        suits.remove(contract.trump_suit)
        suits.insert(0, contract.trump_suit)
    rows = []
    order: list[Card] = []
    for suit in suits:
        held = view.hand.suit(suit)
        if not held:
            continue
        if contract is not None:
            cards = contract.by_strength(held)
        else:
            cards = tuple(card for card in reversed(held.cards()))  # natural order, Ace first
        shown = []
        for card in cards:
            order.append(card)
            text, code, pad = names.rank(card.rank), "", ""
            if legal is not None:
                text, code, pad = (text + "*", "1", "") if card in legal else (text, "2", " ")
            colour = style.suit_colour(suit, names)
            shown.append(f"[{len(order)}] " + style.paint(text, colour, code) + pad)
        title = " ".join(part for part in (names.suit_mark(suit), names.suit(suit)) if part)
        if contract is not None and suit is contract.trump_suit:
            title += " (Trumpf)"
        rows.append((title, "  ".join(shown).rstrip()))
    width = max((len(title) for title, _ in rows), default=0)
    return [f"  {title:<{width}}  {cards}" for title, cards in rows], tuple(order)


def describe(
    before: Game, action: Action, after: Game, names: Names, labels: Labels | None = None
) -> list[str]:
    """What ``action`` did, taking ``before`` to ``after``: what every player sees and hears.

    The deal is left out (its cards are secret); the rest is public: the contract, shoves,
    the Weis each seat announces (its points) and the Weis shown after trick 1, Stöck, each
    completed trick, the hand's score, a thank, and the end of the game.

    >>> import jass
    >>> g = jass.Game.new(seed=3).deal()
    >>> describe(g, jass.Shove(), g.shove(), Names(), Labels(jass.Seat(0)))
    ['  partner shoves to you']
    """
    labels = labels or Labels()
    lines: list[str] = []
    mover = before.to_move
    view = after.view(labels.me if labels.me is not None else 0)
    if isinstance(action, Shove) and mover is not None:
        lines.append(f"  {labels.does(mover, 'shoves')} to {labels.seat(mover.partner)}")
    elif isinstance(action, Choose) and mover is not None:
        words = names.contract(action.contract, after.ruleset)
        lines.append(f"  {labels.does(mover, 'chooses')} {words}")
        if action.contract is Contract.MISERE:
            lines.append(
                f"  Misère: the fewest points win. Each team scores the card points its "
                f"opponents take (the last trick's 5 too), {names.times(1)}; Weis count as "
                "usual, and there is no Match bonus."
            )
    elif isinstance(action, Thank):
        lines.append(
            f"  {labels.side(action.team)} thanks (bedankt sich): it says it has reached the target"
        )
    elif isinstance(action, Play) and mover is not None:
        announced = view.declared_points[mover]
        if announced and not before.tricks:  # Weis are announced with the first card
            points = " + ".join(map(str, announced))
            lines.append(f"  {labels.does(mover, 'announces')} Weis: {points}")
        if after.stoeck is not None and before.stoeck is None:
            lines.append(f"  {labels.does(after.stoeck, 'shows')} Stöck (20)")
        if len(after.tricks) > len(before.tricks):
            lines.extend(_trick_lines(after, view, names, labels))
    if len(after.hand_results) > len(before.hand_results):
        lines.extend(_hand_score_lines(after, names, labels))
    if after.result is not None and before.result is None:
        result = after.result
        if result.winner is None:
            outcome = "a draw"
        elif labels.me is None:
            outcome = f"team {int(result.winner)} wins"
        else:
            outcome = "you win" if labels.team(result.winner) == "us" else "they win"
        lines.append(
            f"\nGame over after {counted(result.hands_played, 'hand')}: "
            f"{outcome} ({labels.teams(result.scores)}; {result.reason.value})"
        )
    return lines


def _trick_lines(after: Game, view: PlayerView, names: Names, labels: Labels) -> list[str]:
    trick = after.tricks[-1]
    shown = " · ".join(
        f"{labels.seat(trick.leader.offset(i))} {names.card(card)}"
        for i, card in enumerate(trick.cards)
    )
    arrow = "→" if names.symbols else "->"
    lines = [
        f"  trick {len(after.tricks)}: {shown} {arrow} {labels.does(trick.winner, 'takes')} "
        f"{trick.points}"
    ]
    result = after.weis_result
    if len(after.tricks) == 1 and result is not None and result.winner is not None:
        team = result.winner.team
        shown = ", ".join(
            f"{labels.seat(holder)} {names.weis(weis)}" for holder, weis in view.shown_weis
        )
        contract = after.hand_info.contract if after.hand_info is not None else None
        times = f" {names.times(after.ruleset.multiplier(contract))}" if contract else ""
        lines.append(f"  Weis for {labels.team(team)} ({result.points[team]}{times}): {shown}")
    return lines


def _hand_score_lines(game: Game, names: Names, labels: Labels) -> list[str]:
    score = game.hand_results[-1]
    number = len(game.hand_results)
    parts = [f"card points {labels.teams(score.card_points)}"]
    for word, pair in (("Weis", score.weis), ("Stöck", score.stoeck), ("Match", score.bonus)):
        if any(pair):
            parts.append(f"{word} {labels.teams(pair)}")
    lines = [f"Hand {number} score: " + "; ".join(parts) + f"; {names.times(score.multiplier)}"]
    if score.match is not None:
        lines.append(_match_line(score, game.ruleset, names, labels))
    if score.contract is Contract.MISERE:
        lines.append("  Misère: each team scored the card points its opponents took")
    lines.append(
        f"  this hand {labels.teams(score.totals, '+')}; totals {labels.teams(game.scores)}"
    )
    return lines


def _match_line(score: HandScore, ruleset: RuleSet, names: Names, labels: Labels) -> str:
    """The Match (all nine tricks to one team) and the rule that scores it (rule book R8.3-4)."""
    team = score.match
    assert team is not None  # noqa: S101
    side = labels.side(team)
    took = f"{side} took all nine tricks"
    if score.contract is Contract.MISERE:
        other = labels.side(1 - int(team))
        return f"  Match in Misère: {took}, so {other} scores all 157; no Match bonus"
    bonus = score.bonus[team]
    declarer = team == score.declaring_team
    counter = "" if declarer else " (a counter-match: the other team chose the trumps)"
    if bonus == 0:
        why = (
            "only the team that chose the trumps earns the Match bonus"
            if not declarer and ruleset.counter_match is CounterMatch.NONE
            else "these rules give no Match bonus"
        )
        return f"  Match! {took}{counter}; {why}"
    if declarer or ruleset.counter_match is CounterMatch.SAME_AS_MATCH:
        rule = "the Match bonus"
    else:
        twice = "its trick points count twice"
        if ruleset.counter_match is CounterMatch.DOUBLE_MATCH:
            twice = "double the Match"
        rule = f"{twice}: {score.card_points[team] + bonus} in all"
    line = f"  Match! {took}{counter}: +{counted(bonus, 'point')} ({rule})"
    if score.multiplier != 1:
        times = names.times(score.multiplier)
        line += f", {times} like the whole hand: +{bonus * score.multiplier}"
    return line


def narrate(before: Game, action: Action, after: Game, swiss: SuitPairing | None = None) -> None:
    """Print what ``action`` did, taking ``before`` to ``after``, in the words of the game.

    This is ``jass watch`` and ``jass replay``: seats by number, and every hand shown at the
    deal. ``swiss`` writes the Swiss suits and ranks of that pairing.

    >>> import jass
    >>> g = jass.Game.new(seed=1)
    >>> narrate(g, jass.Deal(g.deal().hands), g.deal())  # doctest: +ELLIPSIS
    <BLANKLINE>
    Hand 1: seat ... deals, seat ... is forehand
    ...
    """
    names = Names(swiss, symbols=symbols_fit(sys.stdout))
    hand = after.hand_info
    if isinstance(action, Deal) and hand is not None:
        print(
            f"\nHand {hand.number + 1}: seat {int(hand.dealer)} deals, "
            f"seat {int(hand.forehand)} is forehand"
        )
        for seat, cards in enumerate(after.hands):
            print(f"  seat {seat} (team {seat % 2}): {names.cards(cards)}")
    for line in describe(before, action, after, names, Labels()):
        print(line)


def symbols_fit(stream: TextIO) -> bool:
    """Whether ``stream`` can write the suit symbols and signs (a Windows code page cannot).

    >>> import io
    >>> symbols_fit(io.TextIOWrapper(io.BytesIO(), "cp1252")), symbols_fit(sys.stdout)
    (False, True)
    """
    try:
        "♠♥♦♣×–→·═─".encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True
