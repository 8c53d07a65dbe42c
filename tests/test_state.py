"""Worked tests of the Game state machine: dealing, choosing, playing, scoring, game end."""

from __future__ import annotations

import pickle
import random
from collections import Counter

import pytest

import jass
from jass import (
    Card,
    CardSet,
    Choose,
    Contract,
    EndReason,
    Game,
    IllegalActionError,
    IllegalReason,
    InvalidInputError,
    Phase,
    Play,
    RuleSet,
    Seat,
    Shove,
    Suit,
    Team,
    Thank,
    rules,
    score_hand,
)
from jass.core.dealing import shuffled_deck
from tests.helpers import (
    ALL_HEARTS_DEAL,
    deal,
    endless,
    play_cards,
    play_lowest,
    play_random,
    start,
)

HEARTS = Contract.trump(Suit.HEARTS)
SPADES = Contract.trump(Suit.SPADES)

# Under Obenabe, seat 1 holds the top two of every suit plus QS: team 1 can take every trick
# although seat 0 (team 0) names the contract.
COUNTER_MATCH_DEAL = (
    "6S 7S 8S 6H 7H 6D 7D 6C 7C",
    "QS KS AS KH AH KD AD KC AC",
    "9S 10S JS 8H 9H 10H 8D 9D 10D",
    "JH QH JD QD 8C 9C 10C JC QC",
)


def card_play_only(ruleset: RuleSet) -> RuleSet:
    """``ruleset`` without Weis and Stöck: these tests are about card play and its scoring."""
    return ruleset.evolve(weis=False, stoeck=False)


# --- construction and dealing ---------------------------------------------------------------


def test_new_game_starts_before_the_deal() -> None:
    game = Game.new(rules.SCHIEBER, seed=3)
    assert game.phase is Phase.DEAL
    assert game.to_move is None
    assert game.hand_info is None
    assert game.scores == (0, 0)
    assert game.legal_moves() == CardSet(0)
    assert game.legal_actions() == ()
    assert not game.is_over
    assert game.history == ()


@pytest.mark.parametrize("seed", ["7", 1.5, True, None])
def test_new_game_checks_its_seed(seed: object) -> None:
    if seed is None:
        assert isinstance(Game.new(seed=None).seed, int)
        return
    with pytest.raises(InvalidInputError, match="seed"):
        Game.new(seed=seed)  # type: ignore[arg-type]


def test_new_game_checks_its_ruleset() -> None:
    with pytest.raises(InvalidInputError, match="RuleSet"):
        Game.new(rules.SCHIEBER.options(), seed=1)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="unknown rule set"):
        Game.new("SCHIEBERR", seed=1)  # a name is read as a preset's (issue 18)


def test_same_seed_same_deals_other_seed_other_deals() -> None:
    first = Game.new(seed=11).deal()
    assert first.hands == Game.new(seed=11).deal().hands
    assert first.hands != Game.new(seed=12).deal().hands
    assert sorted(c for hand in first.hands for c in hand) == list(range(36))


def test_deal_follows_packets_of_three_from_the_forehand() -> None:
    for seed in range(20):
        game = Game.new(seed=seed).deal()
        assert game.hand_info is not None
        forehand = int(game.hand_info.forehand)
        deck = shuffled_deck(seed, "deal/0")
        expected = [0, 0, 0, 0]
        for packet in range(12):
            seat = (forehand + packet % 4) % 4
            for card in deck[3 * packet : 3 * packet + 3]:
                expected[seat] |= 1 << card
        assert [int(h) for h in game.hands] == expected
        assert game.to_move == game.hand_info.forehand == game.hand_info.dealer.next


def test_first_dealer_is_drawn_and_the_draw_rule_matters() -> None:
    lowest = Counter(
        int(Game.new(seed=s).deal().hand_info.dealer)  # type: ignore[union-attr]
        for s in range(400)
    )
    assert set(lowest) == {0, 1, 2, 3}
    assert min(lowest.values()) > 60
    highest_rules = rules.SCHIEBER.evolve(first_hand_rule="DRAW_HIGHEST_DEALS")
    differs = sum(
        Game.new(seed=s).deal().hand_info != Game.new(highest_rules, seed=s).deal().hand_info
        for s in range(50)
    )
    assert differs > 10


@pytest.mark.parametrize("marker", ["7D", "7H", "10D"])
def test_marker_card_holder_is_forehand_of_hand_one_and_deals_hand_two(marker: str) -> None:
    ruleset = rules.SCHIEBER.evolve(first_hand_rule="MARKER_CARD", first_hand_marker=marker)
    for seed in range(10):
        game = Game.new(ruleset, seed=seed).deal()
        assert game.hand_info is not None
        holder = next(s for s in Seat if Card.parse(marker) in game.hands[s])
        assert game.hand_info.forehand == holder
        # The seeded deal is dealt as if seat 3 dealt: packets from seat 0.
        deck = shuffled_deck(seed, "deal/0")
        assert set(deck[0:3]) <= set(game.hand_info.dealt[0])
        game = play_lowest(game.choose(HEARTS)).deal()
        assert game.hand_info is not None
        assert game.hand_info.dealer == holder


def test_dealer_rotates_to_the_right_after_each_hand() -> None:
    game = Game.new(endless(rules.SCHIEBER), seed=5)  # six hands
    dealers = []
    for _ in range(6):
        game = game.deal()
        assert game.hand_info is not None
        dealers.append(int(game.hand_info.dealer))
        game = play_lowest(game.choose(Contract.OBENABE))
    assert dealers == [(dealers[0] + k) % 4 for k in range(6)]


def test_winner_deals_gives_the_deal_to_the_team_that_won_the_hand() -> None:
    ruleset = endless(rules.SCHIEBER.evolve(dealer_rotation="WINNER_DEALS"))  # eight hands
    game = Game.new(ruleset, seed=8)
    checked = 0
    for _ in range(8):
        game = game.deal()
        assert game.hand_info is not None
        dealer = int(game.hand_info.dealer)
        game = play_lowest(game.choose(Contract.UNDENUFE))
        totals = game.hand_results[-1].totals
        following = game.deal()
        assert following.hand_info is not None
        if totals[0] == totals[1]:
            assert following.hand_info.dealer == (dealer + 1) % 4
        else:
            best = int(totals[1] > totals[0])
            expected = next(s for s in ((dealer + 1) % 4, (dealer + 2) % 4) if s % 2 == best)
            assert following.hand_info.dealer == expected
            checked += 1
    assert checked > 0


def test_injected_deal_is_checked() -> None:
    game = Game.new(seed=1)
    with pytest.raises(InvalidInputError, match="hand 1 of the deal has 8 cards"):
        game.deal(hands=["6H 7H 8H 9H 10H JH QH KH AH", "6S 7S 8S 9S 10S JS QS KS", "", ""])
    with pytest.raises(InvalidInputError, match="repeats"):
        game.deal(hands=[ALL_HEARTS_DEAL[0]] * 4)
    with pytest.raises(InvalidInputError, match="four hands"):
        game.deal(hands=ALL_HEARTS_DEAL[:3])
    with pytest.raises(IllegalActionError) as info:
        game.deal().deal()
    assert info.value.reason is IllegalReason.WRONG_PHASE


# --- choosing -------------------------------------------------------------------------------


def test_shove_passes_the_choice_to_the_partner_once() -> None:
    game = Game.new(seed=2).deal()
    assert game.hand_info is not None
    forehand = game.hand_info.forehand
    assert Shove() in game.legal_actions()
    shoved = game.shove()
    assert shoved.to_move == forehand.partner
    assert Shove() not in shoved.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        shoved.shove()
    assert info.value.reason is IllegalReason.SHOVE_NOT_ALLOWED
    chosen = shoved.choose("clubs")
    assert chosen.hand_info is not None
    assert chosen.hand_info.chooser == forehand.partner
    assert chosen.hand_info.declaring_team == forehand.team
    assert chosen.to_move == forehand  # the forehand leads whoever chose (R4.3)
    assert chosen.trick_leader == forehand


def test_shove_back_is_allowed_once_with_allow_shove_back() -> None:
    game = Game.new(rules.SCHIEBER.evolve(allow_shove_back=True), seed=2).deal()
    assert game.hand_info is not None
    back = game.shove().shove()
    assert back.to_move == game.hand_info.forehand
    assert back.hand_info is not None
    assert back.hand_info.shoves == 2
    assert Shove() not in back.legal_actions()
    with pytest.raises(IllegalActionError):
        back.shove()


def test_choose_offers_exactly_the_allowed_contracts() -> None:
    game = Game.new(rules.BEGINNER, seed=2).deal()
    offered = [a.contract for a in game.legal_actions() if isinstance(a, Choose)]
    assert offered == [Contract.trump(s) for s in Suit]
    with pytest.raises(IllegalActionError) as info:
        game.choose(Contract.UNDENUFE)
    assert info.value.reason is IllegalReason.CONTRACT_NOT_ALLOWED
    assert "UNDENUFE" in str(info.value)
    with pytest.raises(InvalidInputError):
        game.choose("trumps of doom")


def test_actions_in_the_wrong_phase_are_refused() -> None:
    game = Game.new(seed=2)
    for attempt in (game.shove, lambda: game.choose("hearts"), lambda: game.play("JH")):
        with pytest.raises(IllegalActionError) as info:
            attempt()
        assert info.value.reason is IllegalReason.WRONG_PHASE
    dealt = game.deal()
    with pytest.raises(IllegalActionError) as info:
        dealt.play(dealt.hands[0].cards()[0])
    assert info.value.reason is IllegalReason.WRONG_PHASE
    assert "CHOOSE" in str(info.value)


# --- playing --------------------------------------------------------------------------------


def test_playing_a_card_not_in_hand_names_it_and_changes_nothing() -> None:
    game = Game.new(seed=4).deal().choose(SPADES)
    mover = game.to_move
    assert mover is not None
    foreign = game.hands[mover.next].cards()[0]
    before = (game.hands, game.trick, game.to_move, game.history)
    with pytest.raises(IllegalActionError) as info:
        game.play(foreign)
    assert info.value.reason is IllegalReason.NOT_IN_HAND
    assert str(foreign) in str(info.value)
    assert info.value.action == Play(foreign)
    assert (game.hands, game.trick, game.to_move, game.history) == before


def test_play_accepts_card_names_and_rejects_non_cards() -> None:
    game = Game.new(seed=4).deal().choose(Contract.OBENABE)
    mover = game.to_move
    assert mover is not None
    card = game.hands[mover].cards()[0]
    assert game.play(str(card)) == game.play(card)
    for bad in (36, -1, "XX", 2.0):
        with pytest.raises(InvalidInputError):
            game.play(bad)  # type: ignore[arg-type]


def test_undertrump_is_refused_through_the_state_machine() -> None:
    table = (
        "AD 6S 7S 8S 9S 10S 6C 7C 8C",
        "JH 6D 7D 8D JS QS KS AS 9C",
        "9H 10C JC QC KC AC 6H 7H 8H",
        "10H QH KH AH 9D 10D JD QD KD",
    )
    game = start(card_play_only(rules.SCHIEBER), table, HEARTS)
    game = game.play("AD").play("JH")  # seat 1 trumps with the Buur
    with pytest.raises(IllegalActionError) as info:
        game.play("9H")  # seat 2 holds clubs and other cards: no undertrumping
    assert info.value.reason is IllegalReason.UNDERTRUMP
    assert str(info.value) == (
        "9H is not allowed: you hold cards other than trumps and 9H would undertrump JH"
    )


def test_trick_winner_leads_and_tricks_are_recorded() -> None:
    game = start(card_play_only(rules.SCHIEBER), ALL_HEARTS_DEAL, HEARTS)
    game = game.play("6H").play("AS").play("AD").play("AC")
    assert game.trick == ()
    assert game.trick_leader == Seat(0)
    assert game.tricks_won == (1, 0)
    (trick,) = game.tricks
    assert trick.winner == Seat(0)
    assert trick.points == 33
    assert game.hand_points == (33, 0)
    assert game.scores == (33, 0)  # hearts are single under SWISSLOS_2500


# --- scoring --------------------------------------------------------------------------------


def test_match_by_the_declaring_team_scores_257() -> None:
    game = play_lowest(start(card_play_only(rules.SCHIEBER), ALL_HEARTS_DEAL, HEARTS))
    score = game.hand_results[-1]
    assert score.tricks == (9, 0)
    assert score.match == Team(0)
    assert score.card_points == (157, 0)
    assert score.totals == (257, 0)
    assert game.scores == (257, 0)


@pytest.mark.parametrize(
    ("counter_match", "bonus", "expected"),
    [
        ("SAME_AS_MATCH", 100, 257),
        ("NONE", 100, 157),
        ("DOUBLE_TRICK_POINTS", 100, 314),
        ("DOUBLE_MATCH", 100, 514),
        ("SAME_AS_MATCH", 50, 207),
        ("DOUBLE_TRICK_POINTS", 50, 314),
        ("DOUBLE_MATCH", 50, 414),
        ("DOUBLE_MATCH", 0, 314),
    ],
)
def test_counter_match_variants(counter_match: str, bonus: int, expected: int) -> None:
    ruleset = card_play_only(rules.SCHIEBER).evolve(
        counter_match=counter_match, match_bonus=bonus, multipliers="FLAT"
    )
    game = deal(ruleset, COUNTER_MATCH_DEAL)
    assert game.hand_info is not None
    assert game.hand_info.declaring_team == Team(0)
    seat1 = ["AS", "KS", "QS", "AH", "KH", "AD", "KD", "AC", "KC"]
    game = play_lowest(game.choose(Contract.OBENABE), scripts={1: seat1})
    score = game.hand_results[-1]
    assert score.tricks == (0, 9)
    assert score.match == Team(1)
    assert score.totals == (0, expected)


def test_declaring_team_match_is_unaffected_by_counter_match_rules() -> None:
    for rule in ("NONE", "DOUBLE_TRICK_POINTS", "DOUBLE_MATCH"):
        ruleset = card_play_only(rules.SCHIEBER).evolve(counter_match=rule)
        game = start(ruleset, ALL_HEARTS_DEAL, HEARTS)
        assert play_lowest(game).hand_results[-1].totals == (257, 0)


def test_match_bonus_zero_in_tournament_rules() -> None:
    game = start(card_play_only(rules.TOURNAMENT_12), ALL_HEARTS_DEAL, HEARTS)
    assert play_lowest(game).hand_results[-1].totals == (157, 0)


def test_match_is_counted_by_tricks_not_points() -> None:
    # All 157 points but one (0-point) trick lost: no match.
    score = score_hand(Contract.OBENABE, (157, 0), (8, 1), Team(0), rules.SCHIEBER)
    assert score.match is None
    assert score.totals == (3 * 157, 0)
    with pytest.raises(InvalidInputError):
        score_hand(Contract.OBENABE, (150, 0), (9, 0), Team(0), rules.SCHIEBER)


def test_seed_000_worked_example_344_against_110() -> None:
    # Ben (team 1) chose clubs (x2): 102 card points, a winning Weis of 50 and Stöck 20.
    clubs = Contract.trump(Suit.CLUBS)
    score = score_hand(
        clubs, (55, 102), (3, 6), Team(1), rules.SCHIEBER, weis=(0, 50), stoeck=(0, 20)
    )
    assert score.totals == (110, 344)


def test_running_totals_add_hand_scores() -> None:
    game = Game.new(endless(rules.SCHIEBER), seed=21)  # five hands
    rng = random.Random(3)
    for _ in range(5):
        game = play_random(game.deal().choose(rng.choice(Contract.standard())), rng)
    assert game.scores == (
        sum(r.totals[0] for r in game.hand_results),
        sum(r.totals[1] for r in game.hand_results),
    )
    assert len(game.hand_results) == 5


# --- end of the game ------------------------------------------------------------------------


def test_auto_end_at_the_first_trick_that_reaches_the_target() -> None:
    ruleset = rules.SCHIEBER.evolve(target=60, multipliers="FLAT")
    rng = random.Random(9)
    game = Game.new(ruleset, seed=31).deal().choose(Contract.OBENABE)
    previous = game
    while not game.is_over:
        previous = game
        game = game.play(rng.choice(game.legal_moves().cards()))
    assert game.result is not None
    assert game.result.reason is EndReason.TARGET_REACHED
    winner = game.winner
    assert winner is not None
    assert game.scores[winner] >= 60 > previous.scores[winner]
    assert game.scores[winner.other] < 60
    assert game.phase is Phase.OVER
    assert game.legal_actions() == ()
    with pytest.raises(IllegalActionError) as info:
        game.play(game.hands[0].cards()[0])
    assert info.value.reason is IllegalReason.GAME_OVER
    with pytest.raises(IllegalActionError) as info:
        game.thank(Team(0))
    assert info.value.reason is IllegalReason.GAME_OVER


def test_end_of_hand_mode_decides_after_the_hand() -> None:
    rng = random.Random(5)
    game = Game.new(rules.BEGINNER, seed=3)
    while not game.is_over:
        allowed = sorted(rules.BEGINNER.contracts, key=lambda c: c.index)
        game = game.deal().choose(rng.choice(allowed))
        while game.phase is Phase.PLAY:
            game = game.play(rng.choice(game.legal_moves().cards()))
            if game.phase is Phase.PLAY:
                assert not game.is_over
        if not game.is_over:
            assert max(game.scores) < 1000 or game.scores[0] == game.scores[1]
    assert game.result is not None
    assert game.result.reason is EndReason.END_OF_HAND_TARGET
    assert max(game.scores) >= 1000
    assert game.winner == Team(int(game.scores[1] > game.scores[0]))
    assert game.tricks_won[0] + game.tricks_won[1] == 9
    with pytest.raises(IllegalActionError) as info:
        Game.new(rules.BEGINNER, seed=3).thank(Team(0))
    assert info.value.reason is IllegalReason.THANK_NOT_ALLOWED


def test_thank_mode_never_ends_by_itself_and_a_true_thank_wins() -> None:
    # From a score sheet just below the target, play on until a team is well past it.
    ruleset = rules.SCHIEBER.evolve(end_mode="THANK")
    rng = random.Random(1)
    game = Game.new(ruleset, seed=6, scores=(2400, 2350))
    while max(game.scores) < ruleset.target + 200:
        game = play_random(game.deal().choose(rng.choice(Contract.standard())), rng)
        assert not game.is_over
    leader = Team(int(game.scores[1] > game.scores[0]))
    assert Thank(Team(0)) not in game.legal_actions()  # nobody is to move while dealing
    won = game.thank(leader)
    assert won.winner == leader
    assert won.result is not None
    assert won.result.reason is EndReason.THANKED
    assert won.history[-1] == Thank(leader)


def test_false_thank_loses_whatever_the_score() -> None:
    game = Game.new(seed=6).deal().choose("obenabe")
    assert game.to_move is not None
    assert Thank(game.to_move.team) in game.legal_actions()
    lost = game.thank(Team(1))
    assert lost.winner == Team(0)
    assert lost.result is not None
    assert lost.result.reason is EndReason.FALSE_THANK
    assert lost.result.hands_played == 1
    with pytest.raises(InvalidInputError):
        game.thank(2)


def test_hands_limit_ends_the_game_and_thanking_is_refused() -> None:
    game = Game.new(rules.TOURNAMENT_12.evolve(hands=2), seed=4)
    with pytest.raises(IllegalActionError) as info:
        game.thank(Team(1))
    assert info.value.reason is IllegalReason.THANK_NOT_ALLOWED
    for _ in range(2):
        assert not game.is_over
        game = play_lowest(game.deal().choose(SPADES))
    assert game.is_over
    assert game.result is not None
    assert game.result.reason is EndReason.HAND_LIMIT
    assert game.result.hands_played == 2


def test_declare_weis_needs_manual_declaration() -> None:
    game = Game.new(seed=1).deal().choose("hearts")
    with pytest.raises(IllegalActionError) as info:
        game.declare_weis()
    assert info.value.reason is IllegalReason.WEIS_NOT_DECLARABLE
    assert "AUTO" in str(info.value)


# --- values ---------------------------------------------------------------------------------


def test_states_are_hashable_values() -> None:
    a = Game.new(seed=9).deal().choose("hearts")
    b = Game.new(seed=9).deal().choose(HEARTS)
    assert a == b
    assert hash(a) == hash(b)
    assert {a: 1}[b] == 1
    assert a != a.play(a.legal_moves().cards()[0])
    assert a != "a game"
    assert "TRUMP_HEARTS" in repr(a)


def test_states_cannot_be_modified() -> None:
    game = Game.new(seed=9)
    with pytest.raises(AttributeError):
        game.phase = Phase.PLAY  # a slot, written only by _build
    with pytest.raises(AttributeError):
        game.extra = 1


def test_states_pickle_and_keep_contract_singletons() -> None:
    game = Game.new(seed=9).deal().choose("hearts")
    game = game.play(game.legal_moves().cards()[0])
    copy = pickle.loads(pickle.dumps(game))
    assert copy == game
    assert copy.contract is HEARTS
    assert copy.history == game.history


def test_stoeck_are_shown_to_finish_only_if_they_take_the_team_there_first() -> None:
    # Seat 0 holds KH QH (Stöck, team 0) and takes trick 1 (25 points). Team 1 wins the Weis
    # (9D-QD 50 and 9H-JH 20): in the order Stöck, Weis, trick it reaches 25 before team 0
    # could, by Stöck (20) and the trick, so the Stöck may not be shown.
    table = [
        "6S 7S 8S KH QH 6C 7C 6D AD",
        "9D 10D JD QD 9S 10S 8C 9C 6H",
        "AC KC QC JS QS 7H 8H 7D 8D",
        "9H 10H JH AH KS AS JC 10C KD",
    ]
    ruleset = rules.SCHIEBER.evolve(target=25, multipliers="FLAT")
    game = play_cards(start(ruleset, table, "hearts"), ["AD", "10D", "8D", "KD"])
    assert game.result is not None
    assert game.winner == Team(1)
    assert game.result.event is jass.ScoringEvent.WEIS
    assert game.stoeck is None  # no Stöck were shown: they would not have finished first
    assert game.scores[0] == 0
