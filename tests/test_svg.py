"""jass.svg: the pictures are well-formed SVG that show exactly the state they are drawn from.

Every picture is parsed with ElementTree, and its cards are read back from the ``data-card``,
``data-seat`` and ``class`` attributes that a web page relies on; the expected cards come
from the game itself (its hands, trick, tricks and legal moves).
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jass
from jass import (
    Card,
    CardSet,
    Contract,
    Game,
    Phase,
    PlayerView,
    Seat,
    Suit,
    SuitPairing,
    rules,
    svg,
)
from jass.errors import InvalidInputError
from tests.strategies import seeds

NS = "{http://www.w3.org/2000/svg}"
#: Every preset, and SCHIEBER with Weis declared by hand (so that DeclareWeis is played).
RULESETS = [*rules.PRESETS.values(), rules.SCHIEBER.evolve(weis_declaration="MANUAL")]


def parse(picture: str) -> ET.Element:
    """The root of ``picture``, which must be well-formed XML with an ``<svg>`` root."""
    root = ET.fromstring(picture)  # noqa: S314 (our own output, not untrusted data)
    assert root.tag == f"{NS}svg"
    return root


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def groups(root: ET.Element, name: str) -> list[ET.Element]:
    """Every ``<g>`` element with the class ``name``, in document order."""
    return [g for g in root.iter(f"{NS}g") if name in classes(g)]


def card_names(element: ET.Element) -> list[str]:
    """The ``data-card`` of every card element under ``element``, in document order."""
    return [g.get("data-card", "?") for g in groups(element, "card")]


def hand_of(root: ET.Element, seat: int) -> ET.Element:
    (hand,) = [g for g in groups(root, "hand") if g.get("data-seat") == str(seat)]
    return hand


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{NS}text")]


def seat_words(root: ET.Element) -> dict[int, tuple[str, str]]:
    """The name and the note of each seat, by seat."""
    words = {}
    for seat in groups(root, "seat"):
        (name,) = [t.text or "" for t in seat.iter(f"{NS}text") if t.get("class") == "name"]
        (note,) = [t.text or "" for t in seat.iter(f"{NS}text") if t.get("class") == "note"]
        words[int(seat.get("data-seat", "-1"))] = (name, note)
    return words


def translate(element: ET.Element) -> tuple[float, float]:
    match = re.match(r"translate\(([-\d.]+) ([-\d.]+)\)", element.get("transform", ""))
    assert match is not None
    return float(match[1]), float(match[2])


def names(cards: CardSet | tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def random_state(ruleset: jass.RuleSet, seed: int, steps: int) -> Game:
    """The game after ``steps`` random legal actions (a deal counts as one); rarely a thank."""
    rng = random.Random(seed)
    game = Game.new(ruleset, seed=seed)
    for _ in range(steps):
        if game.is_over:
            break
        if game.phase is Phase.DEAL:
            game = game.deal()
            continue
        actions = [a for a in game.legal_actions() if not isinstance(a, jass.Thank)]
        mover = game.to_move
        assert mover is not None
        if rng.random() < 0.01 and game.can_thank(mover.team):
            game = game.thank(mover.team)
        else:
            game = game.apply(rng.choice(actions))
    return game


def check_table(
    game: Game, viewer: int, *, open_cards: bool, last_trick: bool, swiss: bool
) -> None:
    """Draw ``game`` from ``viewer`` (as a game and as a view) and check every card shown."""
    pictures = [
        (
            svg.table(game, seat=viewer, open_cards=open_cards, last_trick=last_trick, swiss=swiss),
            True,
        ),
        (svg.table(game.view(viewer), last_trick=last_trick, swiss=swiss), False),
    ]
    for picture, is_game in pictures:
        root = parse(picture)
        assert root.get("viewBox") == "0 0 760 600"
        assert root.get("width") == "760"
        seats = groups(root, "seat")
        assert sorted(g.get("data-seat", "") for g in seats) == ["0", "1", "2", "3"]
        shown_open = open_cards and is_game
        expected_count = len(game.trick)
        for seat in range(4):
            hand = hand_of(root, seat)
            if seat == viewer or shown_open:
                assert card_names(hand) == names(game.hands[seat])
                assert not groups(hand, "back")
                expected_count += len(game.hands[seat])
            else:
                assert card_names(hand) == []
                assert len(groups(hand, "back")) == len(game.hands[seat])
        (trick,) = groups(root, "trick")
        assert card_names(trick) == names(game.trick)
        if game.trick:
            assert game.trick_leader is not None
            leader = int(game.trick_leader)
            played_by = [g.get("data-seat") for g in groups(trick, "card")]
            assert played_by == [str((leader + i) % 4) for i in range(len(game.trick))]
        last = groups(root, "last-trick")
        if last_trick and game.tricks:
            (box,) = last
            assert card_names(box) == names(game.tricks[-1].cards)
            expected_count += 4
        else:
            assert last == []
        every = groups(root, "card")
        assert len(every) == expected_count
        assert all(c.get("data-card") in {str(card) for card in jass.CARDS} for c in every)
        legal = {c.get("data-card") for c in every if "legal" in classes(c)}
        if shown_open or game.to_move == viewer:
            assert legal == set(names(game.legal_moves()))
        else:
            assert legal == set()


@settings(max_examples=60)
@given(
    ruleset=st.sampled_from(RULESETS),
    seed=seeds,
    steps=st.integers(min_value=0, max_value=60),
    viewer=st.integers(min_value=0, max_value=3),
    open_cards=st.booleans(),
    last_trick=st.booleans(),
    swiss=st.booleans(),
)
def test_tables_of_random_states_show_exactly_the_state(
    ruleset: jass.RuleSet,
    seed: int,
    steps: int,
    viewer: int,
    open_cards: bool,
    last_trick: bool,
    swiss: bool,
) -> None:
    game = random_state(ruleset, seed, steps)
    check_table(game, viewer, open_cards=open_cards, last_trick=last_trick, swiss=swiss)


@pytest.mark.slow
@pytest.mark.parametrize(
    "ruleset", RULESETS, ids=lambda r: str(sorted(r.changes_from(rules.SCHIEBER)))
)
def test_every_state_of_a_game_under_every_preset(ruleset: jass.RuleSet) -> None:
    """Before the deal, choosing, playing, a hand over, and the game over: all are drawn."""
    rng = random.Random(5)
    game = Game.new(ruleset.evolve(target=400) if ruleset.hands is None else ruleset, seed=5)
    phases = set()
    while True:
        phases.add(game.phase)
        viewer = game.to_move if game.to_move is not None else Seat(rng.randrange(4))
        check_table(game, int(viewer), open_cards=True, last_trick=True, swiss=False)
        if game.is_over:
            break
        if game.phase is Phase.DEAL:
            game = game.deal()
        else:
            game = game.apply(
                rng.choice([a for a in game.legal_actions() if not isinstance(a, jass.Thank)])
            )
    assert phases == {Phase.DEAL, Phase.CHOOSE, Phase.PLAY, Phase.OVER}


# --- what the table says --------------------------------------------------------------


def test_a_view_names_the_seats_from_where_it_sits() -> None:
    g = Game.new(seed=2).deal()
    labels = {seat: words[0] for seat, words in seat_words(parse(svg.table(g.view(1)))).items()}
    assert labels == {1: "You", 2: "Right", 3: "Partner", 0: "Left"}
    notes = {seat: words[1] for seat, words in seat_words(parse(svg.table(g.view(1)))).items()}
    assert notes[2] == "seat 2 · team 0"
    game_labels = {seat: words[0] for seat, words in seat_words(parse(svg.table(g))).items()}
    assert game_labels == {i: f"Seat {i}" for i in range(4)}


def test_the_next_seat_sits_to_the_right_and_the_partner_on_top() -> None:
    g = Game.new(seed=2).deal()
    root = parse(svg.table(g, seat=1))
    first = {s: translate(groups(hand_of(root, s), "back")[0]) for s in (0, 2, 3)}
    bottom = translate(groups(hand_of(root, 1), "card")[0])
    assert first[2][0] > 380 > first[0][0]  # seat 2 (the next to play) on the right
    assert first[3][1] < first[0][1] < bottom[1]  # partner on top, the viewer at the bottom


def test_a_game_is_seen_by_default_from_the_seat_to_move_else_seat_0() -> None:
    g = Game.new(seed=4).deal()
    assert g.to_move is not None
    assert svg.table(g) == svg.table(g, seat=g.to_move) != svg.table(g, seat=g.to_move.next)
    fresh = Game.new(seed=4)
    assert svg.table(fresh) == svg.table(fresh, seat=0)


def test_the_header_gives_contract_multiplier_chooser_and_scores() -> None:
    g = Game.new(seed=7, scores=(1200, 950)).deal().shove().choose(Contract.trump(Suit.SPADES))
    words = texts(parse(svg.table(g)))
    assert g.hand_info is not None
    assert g.hand_info.chooser is not None
    chooser = int(g.hand_info.chooser)
    assert f"Trumps: Spades ×2 · named by Seat {chooser}" in words
    assert "Team 0: 1200 · Team 1: 950" in words
    assert "shoved" in " ".join(words)
    swiss_words = texts(parse(svg.table(g.view(0), swiss=True)))
    assert any(w.startswith("Trumps: Schilten ×2") for w in swiss_words)
    assert "Us: 1200 · Them: 950" in swiss_words
    assert "Us: 950 · Them: 1200" in texts(parse(svg.table(g.view(1))))  # own team first


def test_misere_and_the_top_down_contracts_are_named() -> None:
    g = Game.new(rules.TRADITIONAL, seed=3).deal()
    assert any(w.startswith("Misère ×1") for w in texts(parse(svg.table(g.choose("misere")))))
    assert any(w.startswith("Obenabe ×3") for w in texts(parse(svg.table(g.choose("obenabe")))))


def test_the_phases_say_what_happens() -> None:
    fresh = Game.new(seed=9)
    assert "Waiting for the deal" in texts(parse(svg.table(fresh)))
    assert card_names(parse(svg.table(fresh))) == []
    shoved = fresh.deal().shove()
    assert shoved.to_move is not None
    assert f"Seat {int(shoved.to_move)} to choose the contract (shoved)" in texts(
        parse(svg.table(shoved))
    )
    g = shoved.choose("undenufe")
    while g.phase is Phase.PLAY:
        g = g.play(min(g.legal_moves()))
    words = texts(parse(svg.table(g)))
    score = g.hand_results[-1]
    assert "Hand 1" in words
    assert f"Hand 1 over: Team 0 +{score.totals[0]}, Team 1 +{score.totals[1]}" in words
    assert {str(score.totals[0]), str(score.totals[1]), str(score.card_points[0])} <= set(words)


def test_game_over_names_the_winner() -> None:
    g = Game.new(rules.SCHIEBER.evolve(target=100), seed=1).deal().choose("obenabe")
    while not g.is_over:
        g = g.play(max(g.legal_moves()))
    assert g.winner is not None
    words = texts(parse(svg.table(g)))
    assert f"Team {int(g.winner)} won" in words
    mine = texts(parse(svg.table(g.view(int(g.winner)))))
    theirs = texts(parse(svg.table(g.view(1 - int(g.winner)))))
    assert "We won" in mine
    assert "They won" in theirs


def test_weis_and_stoeck_are_noted_at_the_seat() -> None:
    # Seat 0 holds four 9s (150, the best Weis) and the King and Queen of hearts.
    hands = [
        "9S 9H 9D 9C KH QH 6S 8S 10C",
        "6H 7H 8H JH 10H AH 6D 7D 8D",
        "JS 10S QS KS AS JD 10D QD KD",
        "AD 6C 7C 8C JC 7S QC KC AC",
    ]
    g = Game.new(seed=1, dealer=Seat(3)).deal(hands=hands).choose("hearts")
    before = g.play("KH")
    assert seat_words(parse(svg.table(before, seat=1)))[0][1] == "team 0 · Weis 150"
    g = before.play("6H").play("10S").play("AD").play("QH")
    assert seat_words(parse(svg.table(g, seat=1)))[0][1] == "team 0 · Weis 150 · Stöck"
    assert seat_words(parse(svg.table(g.view(2))))[0][1] == "seat 0 · team 0 · Weis 150 · Stöck"


def test_names_are_shown_and_escaped() -> None:
    g = Game.new(seed=2).deal()
    players = ["Ann", "B & B", "<Cleo>", 'Dan "the man"']
    picture = svg.table(g, names=players)
    assert "&lt;Cleo&gt;" in picture
    assert "B &amp; B" in picture
    labels = {seat: words[0] for seat, words in seat_words(parse(picture)).items()}
    assert labels == dict(enumerate(players))


def test_legal_false_marks_no_card() -> None:
    g = Game.new(seed=2).deal().choose("obenabe")
    assert 'class="card legal"' in svg.table(g)
    assert "legal" not in svg.table(g, legal=False)


def test_swiss_table_keeps_french_data_cards_and_shows_swiss_letters() -> None:
    g = Game.new(seed=2).deal().choose("obenabe")
    root = parse(svg.table(g, swiss="parlett"))
    assert g.to_move is not None
    held = g.hands[g.to_move]
    assert card_names(hand_of(root, int(g.to_move))) == names(held)
    titles = [t.text for t in root.iter(f"{NS}title")]
    assert {c.swiss_name(SuitPairing.PARLETT) for c in held} <= set(titles)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda g: svg.table(g.view(0), open_cards=True), "open_cards needs a Game"),
        (lambda g: svg.table(g.view(0), seat=1), "does not match the view"),
        (lambda g: svg.table(g, names=["a", "b", "c"]), "names must be four strings"),
        (lambda g: svg.table(g, names=["a", "b", "c", 4]), "four strings"),  # type: ignore[list-item]
        (lambda g: svg.table(g.hands[0]), "draws a Game or a PlayerView"),
        (lambda g: svg.table(g, swiss="bernese"), "unknown suit pairing"),
        (lambda g: svg.table(g, swiss=1), "swiss must be True, False"),  # type: ignore[arg-type]
        (lambda g: svg.table(g, size=0), "size must be a positive"),
        (lambda g: svg.table(g, size=True), "size must be a positive"),
        (lambda g: svg.cards(g.hands[0], per_row=0), "per_row must be a positive"),
        (lambda g: svg.card("ZZ"), "cannot parse card"),
    ],
)
def test_bad_arguments_raise_invalid_input(call: Callable[[Game], object], message: str) -> None:
    g = Game.new(seed=2).deal()
    with pytest.raises(InvalidInputError, match=message):
        call(g)


# --- cards --------------------------------------------------------------------------------


@pytest.mark.parametrize("card", jass.CARDS, ids=str)
def test_every_card_is_drawn_in_both_suits(card: Card) -> None:
    french = parse(svg.card(card))
    (g,) = groups(french, "card")
    assert g.get("data-card") == str(card)
    assert texts(g)[0] == ("6", "7", "8", "9", "10", "J", "Q", "K", "A")[card.rank]
    swiss = parse(svg.card(card, swiss=True))
    (g,) = groups(swiss, "card")
    assert g.get("data-card") == str(card)
    assert texts(g)[0] == ("6", "7", "8", "9", "B", "U", "O", "K", "A")[card.rank]
    assert [t.text for t in g.iter(f"{NS}title")] == [card.swiss_name(SuitPairing.SWISSLOS)]


def test_suit_colours_follow_the_french_suit_or_the_swiss_pairing() -> None:
    def ink(picture: str) -> str:
        return next(parse(picture).iter(f"{NS}text")).get("fill", "")

    def shapes(picture: str) -> list[str | None]:
        return [p.get("d") for p in parse(picture).iter(f"{NS}path")]

    assert ink(svg.card("AH")) == ink(svg.card("AD")) != ink(svg.card("AS")) == ink(svg.card("AC"))
    # Under PARLETT spades are Rosen, which SWISSLOS gives to hearts.
    assert shapes(svg.card("AS", swiss="PARLETT")) == shapes(svg.card("AH", swiss=True))
    assert shapes(svg.card("AS", swiss="PARLETT")) != shapes(svg.card("AS", swiss=True))
    assert len({tuple(shapes(svg.card(f"A{s}"))) for s in "SHDC"}) == 4
    assert len({tuple(shapes(svg.card(f"A{s}", swiss=True))) for s in "SHDC"}) == 4


def test_card_size_sets_width_and_height_not_the_view_box() -> None:
    root = parse(svg.card("QS", size=120))
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == (
        "120",
        "180",
        "0 0 62 93",
    )
    table = parse(svg.table(Game.new(seed=1), size=400))
    assert (table.get("width"), table.get("height"), table.get("viewBox")) == (
        "400",
        "316",
        "0 0 760 600",
    )


def test_cards_rows_order_and_highlight() -> None:
    picture = svg.cards(["AS", "6H", "JH"], highlight=["JH", "KC"])
    root = parse(picture)
    assert card_names(root) == ["AS", "6H", "JH"]
    assert [c.get("data-card") for c in groups(root, "legal")] == ["JH"]
    deck = parse(svg.cards(CardSet.full(), per_row=12))
    assert card_names(deck) == names(CardSet.full())
    assert deck.get("viewBox") == f"0 0 {12 * 64 - 4 + 8} {3 * 98}"
    rows = {translate(c)[1] for c in groups(deck, "card")}
    assert len(rows) == 3


# --- notebooks ----------------------------------------------------------------------------


def test_repr_svg_of_game_view_card_and_card_set() -> None:
    g = Game.new(seed=3).deal().choose("hearts")
    view = g.view(2)
    assert g._repr_svg_() == svg.table(g)
    assert view._repr_svg_() == svg.table(view)
    assert Card.parse("JH")._repr_svg_() == svg.card("JH")
    assert CardSet.parse("JH AS")._repr_svg_() == svg.cards(CardSet.parse("JH AS"))
    for picture in (g._repr_svg_(), view._repr_svg_(), CardSet()._repr_svg_()):
        parse(picture)
    picture = svg.table(g)
    assert isinstance(picture, svg.Picture)
    assert picture._repr_svg_() == str(picture)
    assert isinstance(view, PlayerView)


def test_the_number_of_hands_is_said_in_good_english() -> None:
    one = jass.svg.table(jass.Game.new(jass.rules.JASSKIT, seed=1).deal())
    twelve = jass.svg.table(jass.Game.new(jass.rules.TOURNAMENT_12, seed=1).deal())
    assert "one hand" in one
    assert "1 hands" not in one
    assert "12 hands" in twelve
