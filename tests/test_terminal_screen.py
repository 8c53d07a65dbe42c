"""The words and the screen of ``jass play``: names, contract parsing, the hand, the events.

Expected texts are written out by hand.
"""

from __future__ import annotations

import io

import pytest

from jass import (
    Card,
    CardSet,
    Choose,
    Contract,
    Game,
    Play,
    Seat,
    Suit,
    SuitPairing,
    Team,
    Thank,
    rules,
)
from jass.cli.screen import (
    Labels,
    Style,
    describe,
    hand_lines,
    status_lines,
    symbols_fit,
    trick_line,
)
from jass.core.weis import Weis, WeisKind
from jass.engine.actions import Action
from jass.errors import InvalidInputError
from jass.naming import Names, parse_contract, seat_label, team_label

HEARTS, SPADES = Contract.trump(Suit.HEARTS), Contract.trump(Suit.SPADES)
DIAMONDS, CLUBS = Contract.trump(Suit.DIAMONDS), Contract.trump(Suit.CLUBS)


# --- names ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "french", "swisslos", "parlett"),
    [
        (SPADES, "Trumpf Schaufel ×2", "Trumpf Schilten ×2", "Trumpf Rosen ×2"),
        (HEARTS, "Trumpf Herz ×1", "Trumpf Rosen ×1", "Trumpf Schilten ×1"),
        (DIAMONDS, "Trumpf Ecken ×1", "Trumpf Eicheln ×1", "Trumpf Schellen ×1"),
        (CLUBS, "Trumpf Kreuz ×2", "Trumpf Schellen ×2", "Trumpf Eicheln ×2"),
        (Contract.OBENABE, "Obenabe ×3", "Obenabe ×3", "Obenabe ×3"),
        (Contract.UNDENUFE, "Undenufe ×3", "Undenufe ×3", "Undenufe ×3"),
        (Contract.MISERE, "Misère ×1", "Misère ×1", "Misère ×1"),
    ],
)
def test_contracts_in_the_words_of_the_game(
    contract: Contract, french: str, swisslos: str, parlett: str
) -> None:
    assert Names().contract(contract, rules.SCHIEBER) == french
    assert Names(SuitPairing.SWISSLOS).contract(contract, rules.SCHIEBER) == swisslos
    assert Names("parlett").contract(contract, rules.SCHIEBER) == parlett
    assert Names().contract(contract) == french.rsplit(" ", 1)[0]
    assert Names(symbols=False).contract(contract, rules.SCHIEBER) == french.replace("×", "x")


def sequence(text: str, points: int) -> Weis:
    cards = CardSet.parse(text)
    return Weis(WeisKind.SEQUENCE, cards, points, cards.cards()[-1])


def quartet(rank: str, points: int) -> Weis:
    cards = CardSet.parse(" ".join(rank + suit for suit in "SHDC"))
    return Weis(WeisKind.QUARTET, cards, points, Card.parse(rank + "S"))


@pytest.mark.parametrize(
    ("weis", "french", "swiss"),
    [
        (sequence("7H 8H 9H", 20), "Dreiblatt Herz 7–9 (20)", "Dreiblatt Rosen 7–9 (20)"),
        (sequence("9D 10D JD QD", 50), "Vierblatt Ecken 9–Q (50)",
         "Vierblatt Eicheln 9–Ober (50)"),
        (sequence("9S 10S JS QS KS", 100), "Fünfblatt Schaufel 9–K (100)",
         "Fünfblatt Schilten 9–König (100)"),
        (sequence("6C 7C 8C 9C 10C JC", 150), "Sechsblatt Kreuz 6–J (150)",
         "Sechsblatt Schellen 6–Under (150)"),
        (sequence("6C 7C 8C 9C 10C JC QC", 200), "Siebenblatt Kreuz 6–Q (200)",
         "Siebenblatt Schellen 6–Ober (200)"),
        (sequence("7C 8C 9C 10C JC QC KC AC", 250), "Achtblatt Kreuz 7–A (250)",
         "Achtblatt Schellen 7–Ass (250)"),
        (sequence("6H 7H 8H 9H 10H JH QH KH AH", 300), "Neunblatt Herz 6–A (300)",
         "Neunblatt Rosen 6–Ass (300)"),
        (quartet("J", 200), "vier Buure (200)", "vier Buure (200)"),
        (quartet("9", 150), "vier Nell (150)", "vier Nell (150)"),
        (quartet("A", 100), "vier Asse (100)", "vier Asse (100)"),
        (quartet("K", 100), "vier Könige (100)", "vier Könige (100)"),
        (quartet("Q", 100), "vier Damen (100)", "vier Ober (100)"),
        (quartet("10", 100), "vier Zehner (100)", "vier Banner (100)"),
        (quartet("8", 100), "vier Achter (100)", "vier Achter (100)"),
        (quartet("7", 100), "vier Siebner (100)", "vier Siebner (100)"),
        (quartet("6", 100), "vier Sechser (100)", "vier Sechser (100)"),
    ],
)  # fmt: skip
def test_weis_in_the_words_of_the_game(weis: Weis, french: str, swiss: str) -> None:
    assert Names().weis(weis) == french
    assert Names("SWISSLOS").weis(weis) == swiss
    assert Names(symbols=False).weis(weis) == french.replace("–", "-")


def test_cards_french_swiss_and_ascii() -> None:
    jack, ten = Card.parse("JH"), Card.parse("10D")
    assert (Names().card(jack), Names().card(ten)) == ("♥J", "♦10")
    assert (Names(symbols=False).card(jack), Names(symbols=False).card(ten)) == ("JH", "10D")
    assert Names("SWISSLOS").card(ten) == "Eicheln Banner"
    assert Names("WIKIPEDIA").card(ten) == "Schellen Banner"
    assert Names("SWISSLOS").cards(CardSet.parse("JH 10D")) == "Rosen Under, Eicheln Banner"
    assert Names().cards(CardSet.parse("JH 10D")) == "♥J ♦10"
    assert Names().suit_mark(Suit.SPADES) == "♠"
    assert Names(symbols=False).suit_mark(Suit.SPADES) == ""
    with pytest.raises(InvalidInputError, match="unknown suit pairing 'NOWHERE'"):
        Names("NOWHERE")


def test_seats_and_teams_are_named_from_where_one_sits() -> None:
    assert [seat_label(seat) for seat in range(4)] == ["you", "right", "partner", "left"]
    assert [seat_label(seat, me=2) for seat in range(4)] == ["partner", "left", "you", "right"]
    assert (team_label(0), team_label(1), team_label(0, me=1)) == ("us", "them", "them")
    with pytest.raises(InvalidInputError):
        seat_label(4)
    labels = Labels(Seat(0))
    assert (labels.does(0, "takes"), labels.does(1, "takes")) == ("you take", "right takes")
    assert labels.does(0, "pushes") == "you push"
    assert labels.teams((10, 20)) == "us 10, them 20"
    assert Labels(Seat(3)).teams((10, 20), "+") == "us +20, them +10"
    assert (Labels().seat(2), Labels().team(1), Labels().side(0)) == ("seat 2", "team 1", "team 0")


# --- reading a contract ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "contract"),
    [
        ("Herz", HEARTS), ("trumpf herz", HEARTS), ("Trumpf-Kreuz", CLUBS), ("♠", SPADES),
        ("hearts", HEARTS), ("TRUMP_DIAMONDS", DIAMONDS), ("Rose", HEARTS), ("Rosen", HEARTS),
        ("Eichel", DIAMONDS), ("Eicheln", DIAMONDS), ("Schelle", CLUBS), ("Schälle", CLUBS),
        ("Schilte", SPADES), ("obenabe", Contract.OBENABE), ("Obe", Contract.OBENABE),
        ("oben", Contract.OBENABE), ("Unde", Contract.UNDENUFE), ("Undenufe", Contract.UNDENUFE),
        ("unten", Contract.UNDENUFE), ("Misère", Contract.MISERE), ("misere", Contract.MISERE),
    ],
)  # fmt: skip
def test_parse_contract_reads_what_players_type(text: str, contract: Contract) -> None:
    assert parse_contract(text, rules.SCHIEBER) is contract


@pytest.mark.parametrize(
    ("pairing", "eichel", "rose", "schilte"),
    [
        ("SWISSLOS", DIAMONDS, HEARTS, SPADES),
        ("WIKIPEDIA", CLUBS, HEARTS, SPADES),
        ("PARLETT", CLUBS, SPADES, HEARTS),
    ],
)
def test_parse_contract_follows_the_rule_sets_suit_pairing(
    pairing: str, eichel: Contract, rose: Contract, schilte: Contract
) -> None:
    ruleset = rules.SCHIEBER.evolve(suit_pairing=pairing)
    assert parse_contract("Trumpf Eichel", ruleset) is eichel
    assert parse_contract("rose", ruleset) is rose
    assert parse_contract("Schilten", ruleset) is schilte
    assert parse_contract("Herz", ruleset) is HEARTS  # French names never depend on it


@pytest.mark.parametrize("text", ["", "trumpf", "nothing", "Herzen", "Trumpf Obenabe", "7"])
def test_parse_contract_refuses_what_is_no_contract(text: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        parse_contract(text, rules.SCHIEBER)
    assert repr(text) in str(info.value)


def test_parse_contract_refuses_what_is_no_string() -> None:
    with pytest.raises(InvalidInputError, match="cannot read contract 5"):
        parse_contract(5, rules.SCHIEBER)  # type: ignore[arg-type]


# --- the screen ----------------------------------------------------------------------------

# Seat 3 deals, so seat 0 is forehand; or seat 2 deals, and left (seat 3) leads to seat 0.
HANDS = ["6H JH 9H AH 10S AS 7D KC 6C", "7H 8H 6S 7S 8S 9S 6D 8D 9D",
         "10H QH KH JS QS KS 10D JD QD", "KD AD 7C 8C 9C 10C JC QC AC"]  # fmt: skip


def dealt(dealer: int, ruleset: rules.RuleSet = rules.SCHIEBER) -> Game:
    return Game.new(ruleset, seed=1, dealer=Seat(dealer)).deal(HANDS)


def test_the_hand_by_suit_trumps_first_strongest_first() -> None:
    game = dealt(3)
    lines, order = hand_lines(game.view(0), Names())
    assert lines == [  # before the contract: natural order, Ace first, no marks
        "  ♠ Schaufel  [1] A  [2] 10",
        "  ♥ Herz      [3] A  [4] J  [5] 9  [6] 6",
        "  ♦ Ecken     [7] 7",
        "  ♣ Kreuz     [8] K  [9] 6",
    ]
    assert [str(card) for card in order] == ["AS", "10S", "AH", "JH", "9H", "6H", "7D", "KC", "6C"]
    lines, order = hand_lines(game.choose(HEARTS).view(0), Names())
    assert lines == [
        "  ♥ Herz (Trumpf)  [1] J*  [2] 9*  [3] A*  [4] 6*",
        "  ♠ Schaufel       [5] A*  [6] 10*",
        "  ♦ Ecken          [7] 7*",
        "  ♣ Kreuz          [8] K*  [9] 6*",
    ]
    assert [str(card) for card in order] == ["JH", "9H", "AH", "6H", "AS", "10S", "7D", "KC", "6C"]
    lines, _ = hand_lines(game.choose(Contract.UNDENUFE).view(0), Names("SWISSLOS"))
    assert lines == [
        "  Schilten  [1] Banner*  [2] Ass*",
        "  Rosen     [3] 6*  [4] 9*  [5] Under*  [6] Ass*",
        "  Eicheln   [7] 7*",
        "  Schellen  [8] 6*  [9] König*",
    ]


def test_the_cards_that_may_be_played_are_marked() -> None:
    game = dealt(2).choose(DIAMONDS).play("KD")  # left leads ♦K; seat 0 holds ♦7 and trumps...
    lines, _ = hand_lines(game.view(0), Names())
    assert lines == [
        "  ♦ Ecken (Trumpf)  [1] 7*",  # trumps were led: follow with the only trump
        "  ♠ Schaufel        [2] A   [3] 10",
        "  ♥ Herz            [4] A   [5] J   [6] 9   [7] 6",
        "  ♣ Kreuz           [8] K   [9] 6",
    ]
    coloured, _ = hand_lines(game.view(0), Names(), Style(color=True))
    assert coloured[0] == "  ♦ Ecken (Trumpf)  [1] \x1b[31;1m7*\x1b[0m"
    assert coloured[1] == "  ♠ Schaufel        [2] \x1b[2mA\x1b[0m   [3] \x1b[2m10\x1b[0m"
    assert trick_line(game.view(0), Names()) == "Trick 1: left ♦K · you ?"
    # Another seat's view shows no marks: it is not that seat's turn.
    assert "*" not in "".join(hand_lines(game.view(1), Names())[0])


def test_the_trick_shows_who_played_what_and_who_holds_it() -> None:
    game = dealt(2).choose(Contract.OBENABE).play("AD").play("7D")
    view = game.view(1)  # right of seat 0: seat 3 is its partner, seat 0 its left
    assert trick_line(view, Names()) == "Trick 1: partner ♦A · left ♦7 · you ?"
    assert trick_line(view, Names(), Style(color=True)) == (
        "Trick 1: partner \x1b[31;4m♦A\x1b[0m · left \x1b[31m♦7\x1b[0m · you ?"
    )  # the card that holds the trick is underlined
    assert trick_line(game.view(2), Names("SWISSLOS")) == (
        "Trick 1: right Eicheln Ass · partner Eicheln 7"
    )


def test_the_status_lines_always_show_contract_chooser_scores_and_target() -> None:
    game = Game.new(rules.SCHIEBER_1000, seed=1, dealer=Seat(1), scores=(120, 340)).deal(HANDS)
    assert status_lines(game.view(0), Names()) == [
        "Hand 1 · no trumps yet: partner chooses",
        "Us (you + partner) 120 · Them (right + left) 340 · target 1000",
    ]
    shoved = game.shove()
    assert (
        status_lines(shoved.view(0), Names())[0]
        == "Hand 1 · no trumps yet: partner shoved, you choose"
    )
    assert status_lines(shoved.view(1), Names())[1] == (
        "Us (you + partner) 340 · Them (right + left) 120 · target 1000"
    )
    chosen = shoved.choose(CLUBS)
    assert status_lines(chosen.view(0), Names("SWISSLOS"))[0] == (
        "Hand 1 · Trumpf Schellen ×1 · chosen by you (partner shoved)"
    )
    assert status_lines(chosen.view(3), Names())[0] == (
        "Hand 1 · Trumpf Kreuz ×1 · chosen by right (left shoved)"
    )
    bold = status_lines(chosen.view(0), Names(), Style(color=True))
    assert bold == [
        "Hand 1 · \x1b[1mTrumpf Kreuz ×1\x1b[0m · chosen by you (partner shoved)",
        "Us (you + partner) \x1b[1m120\x1b[0m · Them (right + left) \x1b[1m340\x1b[0m · "
        "target 1000",
    ]
    fixed = Game.new(rules.TOURNAMENT_12, seed=1, dealer=Seat(1)).deal(HANDS)
    assert status_lines(fixed.view(0), Names())[1].endswith("· hand 1 of 12")


def events(game: Game, actions: list[Action], names: Names, labels: Labels) -> list[str]:
    lines = []
    for action in actions:
        after = game.apply(action)
        lines.extend(describe(game, action, after, names, labels))
        game = after
    return lines


def test_weis_stoeck_match_and_the_hands_score_are_told() -> None:
    suits = ["6H 7H 8H 9H 10H JH QH KH AH", "6S 7S 8S 9S 10S JS QS KS AS",
             "6D 7D 8D 9D 10D JD QD KD AD", "6C 7C 8C 9C 10C JC QC KC AC"]  # fmt: skip
    game = Game.new(seed=1, dealer=Seat(3)).deal(suits)
    actions: list[Action] = []
    state = game.apply(Choose(HEARTS))
    actions.append(Choose(HEARTS))
    while state.to_move is not None and state.hand_results == ():
        action = Play(min(state.legal_moves()))
        actions.append(action)
        state = state.apply(action)
    lines = events(game, actions, Names(), Labels(Seat(0)))
    assert lines[:6] == [
        "  you choose Trumpf Herz ×1",
        "  you announce Weis: 300",
        "  right announces Weis: 300",
        "  partner announces Weis: 300",
        "  left announces Weis: 300",
        "  trick 1: you ♥6 · right ♠6 · partner ♦6 · left ♣6 → you take 0",
    ]
    # The best Weis wins for its team, which scores both partners' Weis (rule book R7.8).
    assert lines[6] == (
        "  Weis for us (600 ×1): you Neunblatt Herz 6–A (300), partner Neunblatt Ecken 6–A (300)"
    )
    assert "  you show Stöck (20)" in lines
    assert lines[-4:] == [
        "  trick 9: you ♥A · right ♠A · partner ♦A · left ♣A → you take 49",
        "Hand 1 score: card points us 157, them 0; Weis us 600, them 0; Stöck us 20, them 0; "
        "Match us 100, them 0; ×1",
        "  Match! your team took all nine tricks: +100 points (the Match bonus)",
        "  this hand us +877, them +0; totals us 877, them 0",
    ]
    told = events(game, actions, Names("SWISSLOS", symbols=False), Labels())
    assert told[0] == "  seat 0 chooses Trumpf Rosen x1"
    assert told[6] == (
        "  Weis for team 0 (600 x1): seat 0 Neunblatt Rosen 6-Ass (300), "
        "seat 2 Neunblatt Eicheln 6-Ass (300)"
    )
    assert told[-4].endswith("-> seat 0 takes 49")


def test_a_thank_and_the_end_of_the_game_are_told() -> None:
    game = dealt(3)
    lines = events(game, [Thank(Team(0))], Names(), Labels(Seat(0)))
    assert lines == [
        "  your team thanks (bedankt sich): it says it has reached the target",
        "\nGame over after 1 hand: they win (us 0, them 0; a team thanked without having "
        "reached the target and lost)",
    ]
    lines = events(game, [Thank(Team(0))], Names(), Labels())
    assert lines[0] == "  team 0 thanks (bedankt sich): it says it has reached the target"
    assert "team 1 wins (team 0 0, team 1 0;" in lines[1]


def test_symbols_are_left_out_where_the_output_cannot_show_them() -> None:
    assert not symbols_fit(io.TextIOWrapper(io.BytesIO(), encoding="cp1252"))
    assert not symbols_fit(io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
    assert symbols_fit(io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))


def _all_tricks(game: Game, contract: Contract) -> tuple[list[Action], list[str]]:
    """Choose ``contract`` and play the hand out, lowest legal card first; the lines told."""
    actions: list[Action] = [Choose(contract)]
    state = game.apply(actions[0])
    while state.to_move is not None and state.hand_results == ():
        action = Play(min(state.legal_moves()))
        actions.append(action)
        state = state.apply(action)
    return actions, events(game, actions, Names(), Labels(Seat(0)))


# Seat 1 (right) holds every heart: whatever seat 0 chooses, hearts trumps win all nine tricks.
RIGHT_HOLDS_HEARTS = ["6S 7S 8S 9S 10S JS QS KS AS", "6H 7H 8H 9H 10H JH QH KH AH",
                      "6D 7D 8D 9D 10D JD QD KD AD", "6C 7C 8C 9C 10C JC QC KC AC"]  # fmt: skip


@pytest.mark.parametrize(
    ("options", "told"),
    [
        ({}, "  Match! the other team took all nine tricks (a counter-match: the other team "
             "chose the trumps): +100 points (the Match bonus)"),
        ({"counter_match": "NONE"}, "  Match! the other team took all nine tricks (a "
         "counter-match: the other team chose the trumps); only the team that chose the trumps "
         "earns the Match bonus"),
        ({"counter_match": "DOUBLE_TRICK_POINTS", "multipliers": "PAGAT_RED_DOUBLE"},
         "  Match! the other team took all nine tricks (a counter-match: the other team chose "
         "the trumps): +157 points (its trick points count twice: 314 in all), ×2 like the "
         "whole hand: +314"),
        ({"counter_match": "DOUBLE_MATCH", "match_bonus": 50}, "  Match! the other team took "
         "all nine tricks (a counter-match: the other team chose the trumps): +257 points "
         "(double the Match: 414 in all)"),
        ({"match_bonus": 0}, "  Match! the other team took all nine tricks (a counter-match: "
         "the other team chose the trumps); these rules give no Match bonus"),
    ],
)
def test_a_match_is_told_with_the_rule_that_scores_it(
    options: dict[str, object], told: str
) -> None:
    ruleset = rules.SCHIEBER.evolve(**options)  # type: ignore[arg-type]
    game = Game.new(ruleset, seed=1, dealer=Seat(3)).deal(RIGHT_HOLDS_HEARTS)
    _, lines = _all_tricks(game, HEARTS)
    assert [line for line in lines if "Match!" in line] == [told]


def test_misere_is_explained_when_chosen_and_scored() -> None:
    ruleset = rules.SCHIEBER.evolve(contracts=rules.TRADITIONAL.contracts)
    game = Game.new(ruleset, seed=1, dealer=Seat(3)).deal(RIGHT_HOLDS_HEARTS)
    _, lines = _all_tricks(game, Contract.MISERE)
    assert lines[:2] == [
        "  you choose Misère ×1",
        "  Misère: the fewest points win. Each team scores the card points its opponents take "
        "(the last trick's 5 too), ×1; Weis count as usual, and there is no Match bonus.",
    ]
    assert "  Misère: each team scored the card points its opponents took" in lines
    # Under Misère (Obenabe ranks) the spades seat 0 leads win: seat 0 takes every trick.
    assert (
        "  Match in Misère: your team took all nine tricks, so the other team scores all 157; "
        "no Match bonus"
    ) in lines
    # No Misère in the rules: no word of it.
    _, plain = _all_tricks(Game.new(seed=1, dealer=Seat(3)).deal(RIGHT_HOLDS_HEARTS), HEARTS)
    assert not any("Misère" in line for line in plain)
