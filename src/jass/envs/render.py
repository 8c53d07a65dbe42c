"""A text picture of what one seat may know: the ``ansi`` rendering of the environments.

It draws only from a :class:`~jass.PlayerView`, so it never shows a card that the seat may not
see: its own hand, the cards played, the Weis shown after trick 1 (by name and points), the
contract, the scores and, for the seat to move, its legal actions with their numbers.

>>> import jass
>>> g = jass.Game.new(seed=1).deal()
>>> print(view_text(g.view(g.to_move)))  # doctest: +ELLIPSIS
seat ... (team ...) to move; hand 1, dealt by seat ...; phase CHOOSE
scores: team 0 0, team 1 0
hand: ...
legal: [36] TRUMP_SPADES  [37] TRUMP_HEARTS ... [43] shove  [45] thank (team 1)
"""

from __future__ import annotations

from collections.abc import Container
from typing import Final

from jass.engine.actions import Choose, DeclareWeis, Play, Shove, Thank
from jass.engine.view import PlayerView

__all__ = ["action_label", "view_text"]

_SEAT_NAMES: Final = ("seat 0", "seat 1", "seat 2", "seat 3")


def action_label(action: Play | Choose | Shove | DeclareWeis | Thank) -> str:
    """A short name for a player action, as the rendering lists it.

    >>> import jass
    >>> action_label(jass.Play(jass.Card.parse("JH"))), action_label(jass.Shove())
    ('JH', 'shove')
    """
    if isinstance(action, Play):
        return str(action.card)
    if isinstance(action, Choose):
        return str(action.contract)
    if isinstance(action, Shove):
        return "shove"
    if isinstance(action, Thank):
        return f"thank (team {int(action.team)})"
    if action.weis:
        return "declare " + ", ".join(str(w) for w in action.weis)
    return "declare no Weis"


def view_text(view: PlayerView, offered: Container[int] | None = None) -> str:
    """The text picture of ``view``: a few lines, with the legal actions if the seat is to move.

    ``offered`` limits the actions listed to those numbers (an environment's action mask, as
    a container of numbers). Several declarations of Weis share the number 47 (see
    :class:`~jass.DeclareWeis`); the picture lists the one that number stands for, every Weis
    of the seat.

    >>> import jass
    >>> g = jass.Game.new(seed=1).deal().choose("obenabe")
    >>> text = view_text(g.view(g.to_move))
    >>> text.splitlines()[1]
    'contract: OBENABE (x3), named by seat 1'
    >>> str(g.hands[1].cards()[0]) in view_text(g.view(0))
    False
    """
    seat = int(view.seat)
    mover = view.to_move
    head = f"{_SEAT_NAMES[seat]} (team {seat & 1})"
    if mover is not None:
        head += " to move" if int(mover) == seat else f", {_SEAT_NAMES[int(mover)]} to move"
    if view.hand_number is not None and view.dealer is not None:
        head += f"; hand {view.hand_number + 1}, dealt by {_SEAT_NAMES[int(view.dealer)]}"
    head += f"; phase {view.phase.name}"
    lines = [head]
    contract = view.contract
    if contract is not None and view.chooser is not None:
        shoved = ", shoved" if view.shoves else ""
        lines.append(
            f"contract: {contract} (x{view.ruleset.multiplier(contract)}), "
            f"named by {_SEAT_NAMES[int(view.chooser)]}{shoved}"
        )
    scores = view.scores
    line = f"scores: team 0 {scores[0]}, team 1 {scores[1]}"
    if contract is not None:
        points = view.hand_points
        line += f"; card points this hand: {points[0]} : {points[1]}"
    lines.append(line)
    for shown_seat, weis in view.shown_weis:
        lines.append(f"Weis shown by {_SEAT_NAMES[int(shown_seat)]}: {weis}")
    tricks = view.tricks
    if tricks:
        last = tricks[-1]
        lines.append(
            f"trick {len(tricks)}: {' '.join(str(c) for c in last.cards)}, "
            f"led by {_SEAT_NAMES[int(last.leader)]}, won by {_SEAT_NAMES[int(last.winner)]}"
        )
    leader = view.trick_leader
    if view.trick and leader is not None:
        lines.append(
            f"current trick, led by {_SEAT_NAMES[int(leader)]}: "
            + " ".join(str(c) for c in view.trick)
        )
    lines.append(f"hand: {view.hand}")
    result = view.result
    if result is not None:
        winner = "a draw" if result.winner is None else f"team {int(result.winner)} wins"
        lines.append(f"game over: {winner} ({result.reason.value})")
    elif mover is not None and int(mover) == seat:
        lines.append("legal: " + "  ".join(_legal_labels(view, offered)))
    return "\n".join(lines)


def _legal_labels(view: PlayerView, offered: Container[int] | None) -> list[str]:
    """The legal actions of the seat to move as ``[number] name``, one entry per number."""
    best: dict[int, Play | Choose | Shove | DeclareWeis | Thank] = {}
    for action in view.legal_actions():
        index = action.index
        if offered is not None and index not in offered:
            continue
        known = best.get(index)
        if known is None or (
            isinstance(action, DeclareWeis)
            and isinstance(known, DeclareWeis)
            and len(action.weis) > len(known.weis)
        ):
            best[index] = action
    return [f"[{index}] {action_label(best[index])}" for index in sorted(best)]
