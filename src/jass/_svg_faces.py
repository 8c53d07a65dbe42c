"""Card faces for :mod:`jass.svg`: the suit symbols and the face and back of a card, as SVG.

Every shape here is drawn for this project: each suit symbol is a few paths in a 100 x 100
box, scaled where it is used. A card is 60 x 90 units: its rank and a small suit symbol in the
top-left corner (the part that stays visible when cards overlap), a large symbol below, and
the corner again, upside down, at the bottom right.

>>> from xml.etree.ElementTree import tostring
>>> from jass import Card
>>> tostring(face(Card.parse("JH"), None)).decode()[:43]
'<g class="card" data-card="JH"><title>Jack '
"""

from __future__ import annotations

import math
from typing import Final, NamedTuple
from xml.etree.ElementTree import Element, SubElement

from jass.core.cards import Card, Rank, Suit, SuitPairing

__all__ = ["CARD_H", "CARD_W", "FONT", "SuitStyle", "back", "face", "number", "pip", "style_of"]

CARD_W: Final = 60
CARD_H: Final = 90
#: Common fonts first, then the generic family, so that every viewer has one.
FONT: Final = "'DejaVu Sans', 'Liberation Sans', 'Helvetica Neue', Arial, Helvetica, sans-serif"
_RED: Final = "#c8102e"
_BLACK: Final = "#1b1b1b"


def number(value: float) -> str:
    """A coordinate written briefly: ``12``, ``12.5``.

    >>> number(12.0), number(0.7 * 3)
    ('12', '2.1')
    """
    return f"{round(value, 2):g}"


class Layer(NamedTuple):
    """One path of a suit symbol: its outline in the 100 x 100 box and how it is painted."""

    d: str
    fill: str
    stroke: str = "none"
    width: float = 0


class SuitStyle(NamedTuple):
    """How one suit looks: its paths, the colour of its rank letters and a light background.

    >>> style_of(Suit.HEARTS, None).ink == style_of(Suit.DIAMONDS, None).ink
    True
    """

    layers: tuple[Layer, ...]
    ink: str
    tint: str


def _circle(cx: float, cy: float, r: float) -> str:
    """A circle as a path: two half arcs, both clockwise, so that circles drawn together add up."""
    return f"M{number(cx - r)} {number(cy)}a{r} {r} 0 1 1 {2 * r} 0a{r} {r} 0 1 1 {-2 * r} 0Z"


_HEART: Final = (
    "M50 94C31 78 4 60 4 33C4 16 16 6 29 6C39 6 46 12 50 21"
    "C54 12 61 6 71 6C84 6 96 16 96 33C96 60 69 78 50 94Z"
)
_DIAMOND: Final = "M50 3C59 20 71 36 86 50C71 64 59 80 50 97C41 80 29 64 14 50C29 36 41 20 50 3Z"
_SPADE: Final = (
    "M50 4C62 22 94 38 94 62C94 77 83 86 71 86C63 86 57 82 53 76C54 85 58 92 66 96H34"
    "C42 92 46 85 47 76C43 82 37 86 29 86C17 86 6 77 6 62C6 38 38 22 50 4Z"
)
_CLUB_STEM: Final = "M47 58C47 77 42 89 33 96H67C58 89 53 77 53 58Z"

_FRENCH: Final = (
    SuitStyle((Layer(_SPADE, _BLACK),), _BLACK, "#eceff3"),
    SuitStyle((Layer(_HEART, _RED),), _RED, "#fdeced"),
    SuitStyle((Layer(_DIAMOND, _RED),), _RED, "#fdeced"),
    SuitStyle(
        (
            Layer(_circle(50, 27, 21), _BLACK),
            Layer(_circle(27, 60, 21), _BLACK),
            Layer(_circle(73, 60, 21), _BLACK),
            Layer(_circle(50, 50, 13), _BLACK),
            Layer(_CLUB_STEM, _BLACK),
        ),
        _BLACK,
        "#eceff3",
    ),
)


def _rose() -> SuitStyle:
    """Rosen: five red petals around a golden heart."""
    petals = tuple(
        Layer(
            _circle(50 + 26 * math.cos(angle), 52 + 26 * math.sin(angle), 20),
            "#d62828",
            "#7a0c0c",
            3,
        )
        for angle in (math.radians(-90 + 72 * k) for k in range(5))
    )
    return SuitStyle(
        (*petals, Layer(_circle(50, 52, 14), "#f4c542", "#7a0c0c", 3)), "#b3121b", "#fdeced"
    )


_DARK_GOLD: Final = "#5a3b00"
_SHIELD: Final = "M12 8H88V44C88 70 70 86 50 96C30 86 12 70 12 44Z"
_SWISS: Final = {
    "Rosen": _rose(),
    # Schilten: a shield, gold with a black chief.
    "Schilten": SuitStyle(
        (
            Layer(_SHIELD, "#f2b705"),
            Layer("M12 8H88V36H12Z", "#222222"),
            Layer(_SHIELD, "none", "#222222", 7),
        ),
        _BLACK,
        "#f6f1e1",
    ),
    # Schellen: a round bell on a ring, with a red band and a slit.
    "Schellen": SuitStyle(
        (
            Layer(_circle(50, 13, 8), "none", _DARK_GOLD, 5),
            Layer(_circle(50, 56, 36), "#f0b416", _DARK_GOLD, 4),
            Layer("M15 49H85V60H15Z", "#c62828"),
            Layer(_circle(50, 77, 5.5), _DARK_GOLD),
            Layer("M48 80H52V92H48Z", _DARK_GOLD),
        ),
        "#7a4e00",
        "#fbf3dc",
    ),
    # Eicheln: an acorn, a golden nut under a brown cup, on a stalk.
    "Eicheln": SuitStyle(
        (
            Layer("M45 4H55V26H45Z", "#3e2a17"),
            Layer("M25 44H75C75 70 64 91 50 96C36 91 25 70 25 44Z", "#dba43c", "#6b4a12", 3),
            Layer("M17 46C17 27 31 18 50 18C69 18 83 27 83 46Z", "#6d4c2f", "#3e2a17", 3),
            Layer("M30 24L38 44M44 19L50 44M58 19L62 44M71 25L73 42", "none", "#3e2a17", 2.5),
        ),
        "#4e3418",
        "#f6efe3",
    ),
}

_FRENCH_LABELS: Final = tuple(rank.label for rank in Rank)
#: Swiss indices: Banner, Under, Ober, König, Ass (rule book R1.4 names).
_SWISS_LABELS: Final = ("6", "7", "8", "9", "B", "U", "O", "K", "A")


def style_of(suit: Suit, pairing: SuitPairing | None) -> SuitStyle:
    """The look of ``suit``: French, or the Swiss suit it stands for under ``pairing``.

    >>> style_of(Suit.HEARTS, SuitPairing.SWISSLOS) == style_of(Suit.SPADES, SuitPairing.PARLETT)
    True
    """
    if pairing is None:
        return _FRENCH[suit]
    return _SWISS[pairing.swiss_names[suit]]


def pip(
    parent: Element, style: SuitStyle, x: float, y: float, size: float, *, flip: bool = False
) -> None:
    """Draw the suit symbol of ``style`` in the square of side ``size`` at ``(x, y)``.

    ``flip`` turns it upside down, as the lower symbols of a card are.

    >>> from xml.etree.ElementTree import Element
    >>> svg = Element("svg")
    >>> pip(svg, style_of(Suit.SPADES, None), 10, 20, 50)
    >>> svg[0].get("transform")
    'translate(10 20) scale(0.5)'
    """
    transform = f"translate({number(x)} {number(y)}) scale({number(size / 100)})"
    if flip:
        transform += " rotate(180 50 50)"
    group = SubElement(parent, "g", {"transform": transform})
    for layer in style.layers:
        attributes = {"d": layer.d, "fill": layer.fill}
        if layer.width:
            attributes |= {"stroke": layer.stroke, "stroke-width": number(layer.width)}
            attributes["stroke-linejoin"] = "round"
        SubElement(group, "path", attributes)


def _corner(parent: Element, label: str, style: SuitStyle) -> None:
    """The rank and a small symbol, in the top-left corner."""
    text = SubElement(
        parent,
        "text",
        {"x": "4.5", "y": "20", "font-size": "19", "font-weight": "bold", "fill": style.ink},
    )
    if len(label) > 1:  # "10" is squeezed to the width of one wide letter
        text.attrib |= {"textLength": "20", "lengthAdjust": "spacingAndGlyphs", "x": "3"}
    text.text = label
    pip(parent, style, 4.5, 25, 13)


def _title(card: Card, pairing: SuitPairing | None) -> str:
    if pairing is not None:
        return card.swiss_name(pairing)
    return f"{card.rank.name.capitalize()} of {card.suit.name.lower()}"


def face(
    card: Card,
    pairing: SuitPairing | None,
    *,
    x: float = 0,
    y: float = 0,
    scale: float = 1,
    legal: bool = False,
    seat: int | None = None,
) -> Element:
    """The face of ``card`` with its top-left corner at ``(x, y)``, in French or Swiss suits.

    It is a ``<g class="card" data-card="JH">`` element (``class="card legal"`` when
    ``legal``, with a golden rim); ``seat`` adds ``data-seat``, the seat that played it.

    >>> g = face(Card.parse("10C"), SuitPairing.SWISSLOS, legal=True, seat=2)
    >>> g.get("class"), g.get("data-card"), g.get("data-seat"), g[0].text
    ('card legal', '10C', '2', 'Schellen Banner')
    """
    attributes = {"class": "card legal" if legal else "card", "data-card": str(card)}
    if seat is not None:
        attributes["data-seat"] = str(seat)
    if x or y or scale != 1:
        transform = f"translate({number(x)} {number(y)})"
        attributes["transform"] = transform + (f" scale({number(scale)})" if scale != 1 else "")
    group = Element("g", attributes)
    SubElement(group, "title").text = _title(card, pairing)
    style = style_of(card.suit, pairing)
    if legal:
        rim = {"x": "-3.5", "y": "-3.5", "width": "67", "height": "97", "rx": "9"}
        SubElement(group, "rect", rim | {"fill": "#ffd23f"})
    card_rect = {"width": str(CARD_W), "height": str(CARD_H), "rx": "6", "fill": "#ffffff"}
    SubElement(group, "rect", card_rect | {"stroke": "#8a8f98", "stroke-width": "1"})
    label = (_FRENCH_LABELS if pairing is None else _SWISS_LABELS)[card.rank]
    _corner(group, label, style)
    turned = SubElement(group, "g", {"transform": f"rotate(180 {CARD_W / 2:g} {CARD_H / 2:g})"})
    _corner(turned, label, style)
    rank = card.rank
    if rank is Rank.ACE:
        pip(group, style, 15, 30, 30)
    elif rank in (Rank.JACK, Rank.QUEEN, Rank.KING) or (pairing is not None and rank is Rank.TEN):
        frame = {"x": "18.5", "y": "24", "width": "23", "height": "42", "rx": "3"}
        SubElement(group, "rect", frame | {"fill": style.tint, "stroke": style.ink})
        if rank is Rank.TEN:  # the Swiss Banner: a flag on a pole
            pole = {"d": "M22.5 28V62", "stroke": style.ink, "stroke-width": "2"}
            SubElement(group, "path", pole)
            flag = {"d": "M23.5 29H40V44H23.5Z", "fill": "#ffffff", "stroke": style.ink}
            SubElement(group, "path", flag)
            pip(group, style, 25.5, 30.5, 12.5)
        else:
            big = {"x": "30", "y": "50", "font-size": "20", "font-weight": "bold"}
            letter = SubElement(group, "text", big | {"fill": style.ink, "text-anchor": "middle"})
            letter.text = label
            pip(group, style, 23.5, 52, 13)
    else:
        pip(group, style, 18, 33, 24)
    return group


def back(*, x: float = 0, y: float = 0, scale: float = 1) -> Element:
    """The back of a card, a ``<g class="back">`` element, at ``(x, y)``.

    >>> back(x=5).get("class"), back(x=5).get("transform")
    ('back', 'translate(5 0) scale(1)')
    """
    group = Element(
        "g",
        {
            "class": "back",
            "transform": f"translate({number(x)} {number(y)}) scale({number(scale)})",
        },
    )
    card_rect = {"width": str(CARD_W), "height": str(CARD_H), "rx": "6"}
    SubElement(group, "rect", card_rect | {"fill": "#ffffff", "stroke": "#8a8f98"})
    inner = {"x": "4", "y": "4", "width": "52", "height": "82", "rx": "4", "fill": "#24457e"}
    SubElement(group, "rect", inner)
    lattice = "M8 45L30 10L52 45L30 80Z M17 45L30 24L43 45L30 66Z"
    SubElement(
        group, "path", {"d": lattice, "fill": "none", "stroke": "#8fb3e8", "stroke-width": "2"}
    )
    return group
