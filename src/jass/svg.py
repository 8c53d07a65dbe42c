"""Pictures of cards and of the table, as SVG text, with no dependency.

:func:`card` draws one card, :func:`cards` a row of cards, and :func:`table` a whole table: the
four seats, the hands, the trick, the contract and the scores, at any moment of a game. Each
returns a :class:`Picture`, a ``str`` that Jupyter shows as a picture; :class:`~jass.Game`,
:class:`~jass.PlayerView`, :class:`~jass.Card` and :class:`~jass.CardSet` show themselves
this way in a notebook. The card faces are drawn by this project, in French suits (♠ ♥ ♦ ♣)
or, with ``swiss=``, in Swiss suits (Schilten, Rosen, Eicheln, Schellen) with the Swiss rank
letters B (Banner, the 10), U (Under), O (Ober), K (König) and A (Ass).

For an app: every face-up card is a ``<g class="card" data-card="JH">`` element, whose
``data-card`` is the card's French name (``str(card)``, in Swiss suits too), and a card the
player to move may play has ``class="card legal"``, so a page can attach click handlers to
``.card.legal``. The hands are ``<g class="hand" data-seat="N">`` inside ``<g class="seat"
data-seat="N">``, the current trick is ``<g class="trick">`` (each card with ``data-seat``,
the seat that played it) and the last trick ``<g class="last-trick">``. Face-down cards are
``<g class="back">``. The root ``<svg>`` has a ``viewBox``, so it scales to any width.

>>> import jass
>>> g = jass.Game.new(seed=7).deal().choose("hearts")
>>> picture = table(g)
>>> picture.startswith("<svg") and 'class="card legal"' in picture
True
>>> card(jass.Card.parse("JH"), swiss=True)[:40]
'<svg xmlns="http://www.w3.org/2000/svg" '
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final
from xml.etree.ElementTree import Element, SubElement, tostring

from jass._budgets import is_int
from jass._svg_faces import CARD_H, CARD_W, FONT, back, face, number, pip, style_of
from jass.core.cards import Card, CardSet, SuitPairing, as_card
from jass.core.contracts import Contract
from jass.core.scoring import EndReason
from jass.core.seats import Seat, Team
from jass.engine.game import Game
from jass.engine.hand import Phase
from jass.engine.view import PlayerView
from jass.errors import InvalidInputError

__all__ = ["Picture", "card", "cards", "table"]

_NS: Final = "http://www.w3.org/2000/svg"
_WIDTH: Final = 760  # the table's viewBox
_HEIGHT: Final = 600
_TRICK_Y: Final = 318  # the middle of the trick
_SIDES: Final = (_WIDTH - 118, _WIDTH / 2, 118)  # the middle of each other hand, by place
_PITCH: Final = CARD_W + 4  # cards side by side
_SMALL: Final = 0.7  # the other three hands
_OPEN_STEP: Final = 21  # overlap that leaves a face-up card's corner in sight
_BACK_STEP: Final = 11
_FELT: Final = "#1f6b45"
_BAND: Final = "#174f33"
_TEXT: Final = "#ffffff"
_SOFT: Final = "#cfe8d8"
_TURN: Final = "#ffd23f"
_RELATIVE: Final = ("You", "Right", "Partner", "Left")  # by (seat - viewer) % 4
_ENDINGS: Final = {
    EndReason.TARGET_REACHED: "reached the target",
    EndReason.THANKED: "thanked",
    EndReason.FALSE_THANK: "a false thank",
    EndReason.HAND_LIMIT: "all hands played",
    EndReason.END_OF_HAND_TARGET: "past the target",
}


class Picture(str):
    """An SVG document: a ``str`` that Jupyter and IPython show as a picture.

    Write it to a ``.svg`` file, put it in a web page, or let a notebook show it.

    >>> import jass
    >>> picture = card(jass.Card.parse("AS"))
    >>> isinstance(picture, str), picture._repr_svg_() == picture
    (True, True)
    """

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


def _pairing(swiss: bool | SuitPairing | str, default: SuitPairing) -> SuitPairing | None:
    """The Swiss pairing that ``swiss`` asks for, or ``None`` for French suits."""
    if swiss is False:
        return None
    if swiss is True:
        return default
    if isinstance(swiss, (SuitPairing, str)):
        return SuitPairing.parse(swiss)
    raise InvalidInputError(f"swiss must be True, False, a SuitPairing or its name, got {swiss!r}")


def _root(width: float, height: float, size: int | None, default: int, title: str) -> Element:
    """The ``<svg>`` element: a viewBox of ``width`` x ``height``, shown ``size`` pixels wide."""
    if size is None:
        size = default
    elif not is_int(size) or size <= 0:
        raise InvalidInputError(f"size must be a positive number of pixels, got {size!r}")
    root = Element(
        "svg",
        {
            "xmlns": _NS,
            "viewBox": f"0 0 {number(width)} {number(height)}",
            "width": str(size),
            "height": str(round(size * height / width)),
            "font-family": FONT,
            "role": "img",
        },
    )
    SubElement(root, "title").text = title
    return root


def _done(root: Element) -> Picture:
    return Picture(tostring(root, encoding="unicode"))


def card(
    card: Card | str, *, swiss: bool | SuitPairing | str = False, size: int | None = None
) -> Picture:
    """A picture of one card.

    Args:
        card: the card, or its name (``"JH"``).
        swiss: ``False`` for French suits; ``True`` for Swiss suits under the ``SWISSLOS``
            pairing, or a :class:`~jass.SuitPairing` (or its name) for another pairing.
        size: the width in pixels (default 92); the height is 1.5 times the width.

    >>> picture = card("10D", swiss="wikipedia", size=60)
    >>> 'data-card="10D"' in picture, 'width="60" height="90"' in picture
    (True, True)
    >>> "Schellen Banner" in picture
    True
    """
    chosen = as_card(card)
    pairing = _pairing(swiss, SuitPairing.SWISSLOS)
    root = _root(
        CARD_W + 2, CARD_H + 3, size, 92, chosen.swiss_name(pairing) if pairing else str(chosen)
    )
    root.append(face(chosen, pairing, x=1, y=1.5))
    return _done(root)


def cards(
    cards: CardSet | Iterable[Card | str],
    *,
    highlight: CardSet | Iterable[Card | str] = (),
    per_row: int = 9,
    swiss: bool | SuitPairing | str = False,
    size: int | None = None,
) -> Picture:
    """A picture of cards side by side, in the order given (a card set: canonical order).

    Args:
        cards: the cards: a :class:`~jass.CardSet`, or cards or card names.
        highlight: cards to raise and rim in gold, with ``class="card legal"`` (those of
            them that are in ``cards``): the legal moves, say.
        per_row: how many cards a row holds before the next row begins.
        swiss: as for :func:`card`.
        size: the width in pixels (default: 64 per card in a row).

    >>> import jass
    >>> hand = jass.CardSet.parse("6H JH AS")
    >>> picture = cards(hand, highlight=jass.CardSet.parse("JH"))
    >>> picture.count('class="card"'), picture.count('class="card legal"')
    (2, 1)
    >>> 'viewBox="0 0 580 392"' in cards(jass.CardSet.full())
    True
    """
    shown = list(cards) if isinstance(cards, CardSet) else [as_card(c) for c in cards]
    raised = highlight if isinstance(highlight, CardSet) else CardSet(highlight)
    if not is_int(per_row) or per_row <= 0:
        raise InvalidInputError(f"per_row must be a positive int, got {per_row!r}")
    pairing = _pairing(swiss, SuitPairing.SWISSLOS)
    lift = 10 if raised & CardSet(shown) else 0
    rows = max(-(-len(shown) // per_row), 1)
    width = max(min(len(shown), per_row) * _PITCH - 4, CARD_W) + 8
    height = rows * (CARD_H + lift + 8)
    root = _root(width, height, size, width, " ".join(map(str, shown)))
    for index, one in enumerate(shown):
        row, column = divmod(index, per_row)
        legal = one in raised
        y = 4 + row * (CARD_H + lift + 8) + (0 if legal else lift)
        root.append(face(one, pairing, x=4 + column * _PITCH, y=y, legal=legal))
    return _done(root)


def _text(
    parent: Element,
    x: float,
    y: float,
    text: str,
    size: float,
    *,
    anchor: str = "start",
    bold: bool = False,
    fill: str = _TEXT,
) -> Element:
    attributes = {"x": number(x), "y": number(y), "font-size": number(size), "fill": fill}
    if anchor != "start":
        attributes["text-anchor"] = anchor
    if bold:
        attributes["font-weight"] = "bold"
    element = SubElement(parent, "text", attributes)
    element.text = text
    return element


class _Table:
    """What a table picture shows, gathered from a game or a view, and the drawing of it."""

    def __init__(
        self,
        state: Game | PlayerView,
        seat: Seat | int | None,
        *,
        open_cards: bool,
        legal: bool,
        names: Sequence[str] | None,
        swiss: bool | SuitPairing | str,
    ) -> None:
        if isinstance(state, Game):
            game: Game | None = state
            if seat is None:
                seat = state.to_move if state.to_move is not None else Seat(0)
            view = state.view(seat)
        elif isinstance(state, PlayerView):
            game, view = None, state
            if seat is not None and seat != state.seat:
                raise InvalidInputError(
                    f"seat {seat!r} does not match the view, which is seat {int(state.seat)}'s"
                )
            if open_cards:
                raise InvalidInputError(
                    "open_cards needs a Game: a PlayerView holds only its own seat's cards"
                )
        else:
            raise InvalidInputError(f"table() draws a Game or a PlayerView, got {state!r}")
        if names is not None:
            names = tuple(names)
            if len(names) != 4 or not all(isinstance(n, str) for n in names):
                raise InvalidInputError(f"names must be four strings, one per seat, got {names!r}")
        self.game, self.view, self.viewer = game, view, int(view.seat)
        self.open_cards, self.names = open_cards, names
        self.pairing = _pairing(swiss, view.ruleset.suit_pairing)
        # A view lists its own team first, as "Us".
        self.teams = (0, 1) if game is not None or self.viewer & 1 == 0 else (1, 0)
        if not legal:
            self.legal = CardSet()
        elif game is not None and open_cards:
            self.legal = game.legal_moves()
        else:
            self.legal = view.legal_moves()

    # --- words --------------------------------------------------------------------------

    def name(self, seat: Seat | int) -> str:
        """What a seat is called: its player's name, or "You"/"Right"/... in a view."""
        seat = int(seat)
        if self.names is not None:
            return self.names[seat]
        if self.game is None:
            return _RELATIVE[(seat - self.viewer) % 4]
        return f"Seat {seat}"

    def team(self, team: int) -> str:
        if self.game is None:
            return "Us" if team == self.viewer & 1 else "Them"
        return f"Team {team}"

    def won(self, winner: Team | None) -> str:
        """Who won, as a sentence: "We won", "Team 1 won", "A draw"."""
        if winner is None:
            return "A draw"
        team = int(winner)
        if self.game is None:
            return "We won" if team == self.viewer & 1 else "They won"
        return f"Team {team} won"

    def contract_name(self, contract: Contract) -> str:
        suit = contract.trump_suit
        if suit is None:
            return {"OBENABE": "Obenabe", "UNDENUFE": "Undenufe"}.get(str(contract), "Misère")
        if self.pairing is not None:
            return f"Trumps: {suit.swiss_name(self.pairing)}"
        return f"Trumps: {suit.name.capitalize()}"

    def status(self) -> str:
        """The line that says what happens now."""
        view = self.view
        result = view.result
        if result is not None:
            ending = _ENDINGS.get(result.reason, result.reason.value)
            stake = ", schneider" if result.schneider else ""
            return f"Game over. {self.won(result.winner)} ({ending}{stake})"
        mover = view.to_move
        if view.phase is Phase.CHOOSE and mover is not None:
            shoved = " (shoved)" if view.shoves else ""
            return f"{self.name(mover)} to choose the contract{shoved}"
        if view.phase is Phase.PLAY and mover is not None:
            line = f"{self.name(mover)} to play, trick {len(view.tricks) + 1}"
            leader = view.trick_leader
            if view.trick and leader is not None:
                line += f", led by {self.name(leader)}"
            return line
        if view.hand_results and view.hand_number is not None:
            totals = view.hand_results[-1].totals
            gains = ", ".join(f"{self.team(t)} +{totals[t]}" for t in self.teams)
            return f"Hand {view.hand_number + 1} over: {gains}"
        return "Waiting for the deal"

    def seat_note(self, seat: int) -> str:
        """The small line under a seat's name: seat number, dealer, shove, Weis, Stöck."""
        view = self.view
        notes = [f"seat {seat}"] if self.game is None or self.names is not None else []
        notes.append(f"team {seat & 1}")
        dealer = view.dealer
        if dealer is not None and view.phase is not Phase.OVER:
            if int(dealer) == seat:
                notes.append("dealer")
            elif int(dealer.next) == seat and view.shoves:
                notes.append("shoved")
        shown = [w for s, w in view.shown_weis if int(s) == seat]
        declared = view.declared_points[seat]
        if shown:
            notes.append("Weis " + " + ".join(str(w.points) for w in shown))
        elif declared and not view.tricks:
            notes.append("Weis " + " + ".join(map(str, declared)))
        if view.stoeck is not None and int(view.stoeck) == seat:
            notes.append("Stöck")
        return " · ".join(notes)

    # --- drawing ------------------------------------------------------------------------

    def draw(self, size: int | None, *, last_trick: bool) -> Picture:
        title = f"Jass table seen from seat {self.viewer}. {self.status()}"
        root = _root(_WIDTH, _HEIGHT, size, _WIDTH, title)
        felt = {"width": str(_WIDTH), "height": str(_HEIGHT), "rx": "14", "fill": _FELT}
        SubElement(root, "rect", felt)
        self.header(root)
        for seat in range(4):
            self.seat(root, seat)
        self.trick(root)
        if last_trick and self.view.tricks:
            self.last_trick(root)
        return _done(root)

    def header(self, root: Element) -> None:
        """The band on top: the contract and what happens now; the scores and the goal."""
        view = self.view
        group = SubElement(root, "g", {"class": "info"})
        band = f"M0 14A14 14 0 0 1 14 0H{_WIDTH - 14}A14 14 0 0 1 {_WIDTH} 14V62H0Z"
        SubElement(group, "path", {"d": band, "fill": _BAND})
        contract = view.contract
        if contract is None:
            _text(group, 18, 27, "No contract yet", 18, bold=True)
        else:
            x = 18
            if contract.trump_suit is not None:
                SubElement(group, "circle", {"cx": "31", "cy": "21", "r": "13", "fill": "#ffffff"})
                pip(group, style_of(contract.trump_suit, self.pairing), 21, 11, 20)
                x = 52
            line = f"{self.contract_name(contract)} ×{view.ruleset.multiplier(contract)}"
            if view.chooser is not None:
                line += f" · named by {self.name(view.chooser)}"
            _text(group, x, 27, line, 18, bold=True)
        _text(group, 18, 51, self.status(), 14, fill=_SOFT)
        scores = view.scores
        line = " · ".join(f"{self.team(t)}: {scores[t]}" for t in self.teams)
        _text(group, _WIDTH - 18, 27, line, 18, anchor="end", bold=True)
        ruleset = view.ruleset
        hands = ruleset.hands
        if hands is None:
            goal = f"to {ruleset.target}"
        else:
            goal = "one hand" if hands == 1 else f"{hands} hands"
        if contract is not None and view.phase is not Phase.DEAL:
            points = view.hand_points
            goal = f"card points {points[self.teams[0]]} : {points[self.teams[1]]} · {goal}"
        _text(group, _WIDTH - 18, 51, goal, 14, anchor="end", fill=_SOFT)

    def seat(self, root: Element, seat: int) -> None:
        """A seat: its name and note, and its hand, where the viewer's side puts it."""
        view = self.view
        place = (seat - self.viewer) % 4
        group = SubElement(root, "g", {"class": "seat", "data-seat": str(seat)})
        if place == 0:
            self.label(group, seat, _WIDTH / 2, 556)
        else:
            self.label(group, seat, _SIDES[place - 1], 158 if place == 2 else 260)
        hand = SubElement(group, "g", {"class": "hand", "data-seat": str(seat)})
        held = view.hand if seat == self.viewer else None
        if held is None and self.open_cards and self.game is not None:
            held = self.game.hands[seat]
        if place == 0:  # the viewer: full size, side by side, at the bottom
            shown = held.cards() if held is not None else ()
            x0 = (_WIDTH - (len(shown) * _PITCH - 4)) / 2
            for index, one in enumerate(shown):
                legal = one in self.legal
                y = 432 if legal else 444
                hand.append(face(one, self.pairing, x=x0 + index * _PITCH, y=y, legal=legal))
            return
        # The others: smaller, overlapping, face down unless the cards are open.
        centre = _SIDES[place - 1]
        top = 72 if place == 2 else 300
        if held is not None:
            shown = held.cards()
            x0 = centre - (CARD_W * _SMALL + max(len(shown) - 1, 0) * _OPEN_STEP) / 2
            for index, one in enumerate(shown):
                legal = one in self.legal
                x, y = x0 + index * _OPEN_STEP, top - (8 if legal else 0)
                hand.append(face(one, self.pairing, x=x, y=y, scale=_SMALL, legal=legal))
        else:
            count = view.cards_left(seat)
            x0 = centre - (CARD_W * _SMALL + max(count - 1, 0) * _BACK_STEP) / 2
            for index in range(count):
                hand.append(back(x=x0 + index * _BACK_STEP, y=top, scale=_SMALL))

    def label(self, parent: Element, seat: int, x: float, y: float) -> None:
        """A seat's name in a pill (gold for the seat to move) with its note below."""
        name = self.name(seat)
        moving = self.view.to_move is not None and int(self.view.to_move) == seat
        width = max(70, 10 * len(name) + 26)
        pill = {"x": number(x - width / 2), "y": number(y - 16), "width": str(width)}
        pill |= {"height": "22", "rx": "11", "fill": _TURN if moving else "#2f8a5c"}
        SubElement(parent, "rect", pill)
        ink = "#1b1b1b" if moving else _TEXT
        _text(parent, x, y + 1, name, 15, anchor="middle", bold=True, fill=ink).set("class", "name")
        note = _text(parent, x, y + 22, self.seat_note(seat), 12.5, anchor="middle", fill=_SOFT)
        note.set("class", "note")

    @staticmethod
    def slots(cx: float, cy: float, scale: float) -> list[tuple[float, float]]:
        """Where each seat's card lies in a trick, by place: below, right, above, left."""
        w, h, gap = CARD_W * scale, CARD_H * scale, 8 * scale
        return [
            (cx - w / 2, cy + gap),
            (cx + w * 0.7, cy - h / 2),
            (cx - w / 2, cy - h - gap),
            (cx - w * 1.7, cy - h / 2),
        ]

    def trick(self, root: Element) -> None:
        """The current trick in the middle, or a word on what happens when there is none."""
        view = self.view
        group = SubElement(root, "g", {"class": "trick"})
        cx, cy = _WIDTH / 2, _TRICK_Y
        leader = view.trick_leader
        if view.trick and leader is not None:
            slots = self.slots(cx, cy, 1)
            for index, one in enumerate(view.trick):
                seat = (int(leader) + index) % 4
                x, y = slots[(seat - self.viewer) % 4]
                group.append(face(one, self.pairing, x=x, y=y, seat=seat))
        elif view.phase is Phase.DEAL and view.hand_results and view.hand_number is not None:
            self.hand_score(group, view.hand_number + 1, cx, cy)
        else:
            result = view.result
            if result is not None:
                words = self.won(result.winner)
            elif view.phase is Phase.PLAY and leader is not None:
                words = f"{self.name(leader)} to lead"
            elif view.phase is Phase.CHOOSE:
                words = "Choosing the contract"
            else:
                words = "Waiting for the deal"
            _text(group, cx, cy + 7, words, 20, anchor="middle", bold=True, fill=_SOFT)

    def hand_score(self, parent: Element, hand: int, cx: float, cy: float) -> None:
        """The score of the hand just played, as a small table."""
        score = self.view.hand_results[-1]
        rows = [("Cards", score.card_points), ("Weis", score.weis), ("Stöck", score.stoeck)]
        if any(score.bonus):
            rows.append(("Match", score.bonus))
        rows.append((f"Total ×{score.multiplier}", score.totals))
        height = 34 + 21 * len(rows)
        box = {"x": number(cx - 130), "y": number(cy - height / 2), "width": "260"}
        SubElement(parent, "rect", box | {"height": str(height), "rx": "10", "fill": _BAND})
        y = cy - height / 2 + 24
        _text(parent, cx - 114, y, f"Hand {hand}", 15, bold=True)
        for column, team in enumerate(self.teams):
            _text(parent, cx + 40 + 66 * column, y, self.team(team), 15, anchor="end", bold=True)
        for label, values in rows:
            y += 21
            bold = label.startswith("Total")
            _text(parent, cx - 114, y, label, 14, bold=bold, fill=_SOFT)
            for column, team in enumerate(self.teams):
                x = cx + 40 + 66 * column
                _text(parent, x, y, str(values[team]), 14, anchor="end", bold=bold)

    def last_trick(self, root: Element) -> None:
        """The last completed trick, small, in the top-left corner."""
        last = self.view.tricks[-1]
        group = SubElement(root, "g", {"class": "last-trick"})
        scale, cx, cy = 0.5, 112, 142
        _text(group, cx, 84, "Last trick", 13, anchor="middle", bold=True, fill=_SOFT)
        slots = self.slots(cx, cy, scale)
        for index, one in enumerate(last.cards):
            seat = (int(last.leader) + index) % 4
            x, y = slots[(seat - self.viewer) % 4]
            group.append(face(one, self.pairing, x=x, y=y, scale=scale, seat=seat))
        won = f"won by {self.name(last.winner)}, {last.points} points"
        _text(group, cx, 214, won, 12.5, anchor="middle", fill=_SOFT)


def table(
    state: Game | PlayerView,
    *,
    seat: Seat | int | None = None,
    open_cards: bool = False,
    last_trick: bool = False,
    legal: bool = True,
    swiss: bool | SuitPairing | str = False,
    names: Sequence[str] | None = None,
    size: int | None = None,
) -> Picture:
    """A picture of the table, seen from one seat, at any moment of a game.

    The seen-from seat sits at the bottom with its hand face up; the seat to its right (the
    next to play) is on the right and its partner at the top. A header gives the contract
    and its multiplier, who named it, what happens now, the scores and the card points of
    the hand. The current trick lies in the middle, each card in front of the seat that
    played it. The seat to move has a golden name, and the cards it may play are raised
    with a golden rim (``class="card legal"``).

    Args:
        state: a :class:`~jass.Game`, or a :class:`~jass.PlayerView` (which shows only what
            its seat may know, and names the seats You, Right, Partner and Left).
        seat: for a game, the seat at the bottom; by default the seat to move, or seat 0
            when nobody is (before a deal, after the game). A view is always seen from its
            own seat.
        open_cards: show every hand face up (a game only); the legal cards of the seat to
            move are then marked wherever it sits.
        last_trick: show the last completed trick, small, in the top-left corner.
        legal: mark the cards that may be played; off, no card is marked.
        swiss: ``False`` for French suits; ``True`` for Swiss suits under the rule set's
            ``suit_pairing``, or a :class:`~jass.SuitPairing` (or its name).
        names: four player names, by seat, shown instead of the seat names.
        size: the width in pixels (default 760); the height follows.

    Raises:
        InvalidInputError: for ``open_cards`` with a view, a ``seat`` other than the view's,
            names that are not four strings, or a bad ``swiss`` or ``size``.

    >>> import jass
    >>> g = jass.Game.new(seed=3).deal().choose("obenabe")
    >>> picture = table(g.view(g.to_move), last_trick=True, swiss=True)
    >>> picture.count('class="seat"'), picture.count('class="card legal"') == len(g.legal_moves())
    (4, True)
    >>> open_picture = table(g, open_cards=True, names=["Ann", "Ben", "Cleo", "Dan <3"])
    >>> open_picture.count("data-card="), "Dan &lt;3" in open_picture
    (36, True)
    """
    drawn = _Table(state, seat, open_cards=open_cards, legal=legal, names=names, swiss=swiss)
    return drawn.draw(size, last_trick=last_trick)
