"""Stöck, the end of the game, Schneider, Misère, presets and the §11 options of the game end.

Every expected number below is worked out by hand from rule book (card values R2.2, trick
winners R6, Weis R7, Stöck R8.1, match R8.3, multipliers R8.5, game end §9, Misère §10); the
comments next to the deals give the arithmetic.
"""

from __future__ import annotations

import random

import pytest

from jass import (
    Card,
    Choose,
    Contract,
    EndReason,
    Game,
    IllegalActionError,
    IllegalReason,
    Phase,
    RuleSet,
    ScoringEvent,
    Seat,
    Shove,
    Suit,
    Team,
    Thank,
    rules,
)
from jass.rules import RuleSetOptions
from tests.helpers import (
    FourHands,
    deal,
    play_cards,
    play_lowest,
    random_game,
    rotated,
    start,
)

SPADES = Contract.trump(Suit.SPADES)
HEARTS = Contract.trump(Suit.HEARTS)
T0 = Team(0)
T1 = Team(1)

# In every deal below seat 0 is the forehand: ``start`` and ``deal`` (tests/helpers.py) let
# seat 3 deal the first hand.

# Seat 0 holds the spades but the 6, seat 1 the hearts and the 6S, seat 2 the diamonds, seat 3
# the clubs. Played lowest card first, seat 0 leads 7S..AS and wins tricks 1-8 (seat 1 must
# give its 6S to trick 1), then leads 6H, which seat 1 takes with AH. The cards of trick k are
# seat 0's k-th spade and the (k+1)-th lowest card of every other suit.
#   Obenabe (A11 K4 Q3 J2 10:10 8:8):  0, 8, 24, 10, 32, 9, 13, 23 | 38 (11 x 3 + 5)
#     team 0: 119 (running 0, 8, 32, 42, 74, 83, 96, 119), team 1: 38.
#   Spades trump (J20 9:14 A11 K4 Q3 10:10): 0, 0, 14, 10, 50, 9, 13, 23 | 38
#     team 0: 119, team 1: 38. QS falls in trick 6 and KS in trick 7: seat 0's Stöck.
SPLIT_DEAL: FourHands = (
    "7S 8S 9S 10S JS QS KS AS 6H",
    "6S 7H 8H 9H 10H JH QH KH AH",
    "6D 7D 8D 9D 10D JD QD KD AD",
    "6C 7C 8C 9C 10C JC QC KC AC",
)
SPLIT_OBENABE_RUNNING = (0, 8, 32, 42, 74, 83, 96, 119)

# Hearts trump: seat 0 (team 0) holds trump K+Q, team 1 every other trump and the top cards.
# Trick 1: KH AH 8S JS -> seat 1, 4 + 11 + 0 + 2 = 17.
# Trick 2: JH 9S QS QH -> seat 1, 20 + 0 + 3 + 3 = 26. Seat 0 plays last: its QH, the second
# Stöck card, completes the trick, and the Stöck count before the trick (R9.3).
# Team 1 then takes every trick: a match, 157 + 100 = 257 against team 0's Stöck 20.
MATCH_DEAL: FourHands = (
    "KH QH 6S 7S 6D 7D 6C 7C 8C",
    "6H 7H 8H 9H 10H JH AH AS AD",
    "8S 9S 10S 8D 9D 10D 9C 10C JC",
    "JS QS KS JD QD KD QC KC AC",
)
MATCH_TRICKS_1_2 = ("KH", "AH", "8S", "JS", "JH", "9S", "QS", "QH")

# No seat holds a Weis (no three in a row, no four of a kind) except seat 2: 8S 9S 10S, 20.
# Hearts trump, trick 1: AS AH 10S KS -> seat 1 trumps, 11 + 11 + 10 + 4 = 36.
# KH (seat 0) and QH (seat 3) are apart: no Stöck.
WEIS_DEAL: FourHands = (
    "6S AS 9H KH 6D 8D QD 7C JC",
    "7S JS 6H 10H AH 9D KD 8C QC",
    "8S 9S 10S QS JH 10D AD 9C KC",
    "KS 7H 8H QH 7D JD 6C 10C AC",
)
WEIS_TRICK_1 = ("AS", "AH", "10S", "KS")

# Seat 0 holds QS KS AS (a 3-sequence, 20) and no other Weis; nobody else has one.
# Spades trump, trick 1: KS 7S 6S 10S -> seat 0, 4 + 0 + 0 + 10 = 14.
# Obenabe/Misère, the same trick: KS wins, 4 + 0 + 0 + 10 = 14.
STOECK_WEIS_DEAL: FourHands = (
    "QS KS AS 9H KH 8D QD 7C JC",
    "7S JS 6H 10H AH 9D KD 8C QC",
    "6S 8S 7H JH 6D 10D AD 9C KC",
    "9S 10S 8H QH 7D JD 6C 10C AC",
)
STOECK_WEIS_TRICK_1 = ("KS", "7S", "6S", "10S")

# Spades trump: seat 0 holds the top trumps and K+Q.
# Trick 1: KS 6S 7S 8S -> seat 0, 4 points; seat 0 then leads QS, its second Stöck card.
STOECK_DEAL: FourHands = (
    "JS 9S AS KS QS 6H 7H 6D 7D",
    "6S 10S 8H 9H 10H 8D 9D 10D 6C",
    "7S JH QH KH AH JD QD 7C 8C",
    "8S KD AD 9C 10C JC QC KC AC",
)

# Hearts trump. Trick 1: 6S 9S 7S 8S -> seat 1 with a 0-point trick. From then on seat 0 holds
# nothing but trumps and its partner the only other one (AH): team 0 takes tricks 2-9 and all
# 157 points, but not all nine tricks.
ZERO_TRICK_DEAL: FourHands = (
    "6S 6H 7H 8H 9H 10H JH QH KH",
    "9S 10S JS QS KS AS 6D 7D 8D",
    "7S AH 6C 7C 8C 9C 10C JC QC",
    "8S 9D 10D JD QD KD AD KC AC",
)

# One suit per seat: under Obenabe whoever leads takes every trick.
SUITS_DEAL: FourHands = (
    "6S 7S 8S 9S 10S JS QS KS AS",
    "6H 7H 8H 9H 10H JH QH KH AH",
    "6D 7D 8D 9D 10D JD QD KD AD",
    "6C 7C 8C 9C 10C JC QC KC AC",
)


# --- helpers --------------------------------------------------------------------------------


def result_of(game: Game) -> tuple[Team | None, EndReason, tuple[int, int], ScoringEvent | None]:
    result = game.result
    assert result is not None
    return result.winner, result.reason, result.scores, result.event


# --- Stöck (R8.1) ---------------------------------------------------------------------------


def test_stoeck_score_20_times_the_multiplier_when_the_second_card_is_played() -> None:
    ruleset = rules.SCHIEBER.evolve(weis=False)
    game = start(ruleset, STOECK_DEAL, SPADES)
    game = play_cards(game, ["KS", "6S", "7S", "8S"])  # trick 1: 4 points, x2 for spades
    assert game.scores == (8, 0)
    assert game.stoeck is None  # only one of the two cards is out
    assert game.hand_weis_stoeck == ((0, 0), (0, 0))
    game = game.play("QS")  # the second card: 20 x 2 at once, before the trick is complete
    assert len(game.trick) == 1
    assert game.scores == (48, 0)
    assert game.stoeck == Seat(0)
    assert game.hand_weis_stoeck == ((0, 0), (20, 0))
    game = game.play("10S")  # the next player covers: nothing more
    assert game.scores == (48, 0)
    game = play_lowest(game)
    score = game.hand_results[-1]
    assert score.stoeck == (20, 0)
    assert score.match is None
    assert sum(score.totals) == 2 * (157 + 20)  # scored once, not again at the end of the hand


@pytest.mark.parametrize("contract", [Contract.OBENABE, Contract.UNDENUFE])
def test_no_stoeck_without_trumps(contract: Contract) -> None:
    ruleset = rules.SCHIEBER.evolve(weis=False, multipliers="FLAT")
    game = start(ruleset, STOECK_DEAL, contract)
    while game.phase is Phase.PLAY:
        before = game.scores
        game = game.play(min(game.legal_moves()))
        if game.trick:  # no trick completed: nothing may score
            assert game.scores == before
        assert game.stoeck is None
    score = game.hand_results[-1]
    assert score.stoeck == (0, 0)
    assert sum(score.totals) == 157 + sum(score.bonus)


def test_no_stoeck_with_the_option_off() -> None:
    ruleset = rules.SCHIEBER.evolve(weis=False, stoeck=False)
    game = start(ruleset, STOECK_DEAL, SPADES)
    game = play_cards(game, ["KS", "6S", "7S", "8S", "QS"])
    assert game.scores == (8, 0)
    assert game.stoeck is None
    game = play_lowest(game)
    assert game.hand_results[-1].stoeck == (0, 0)
    assert game.hand_weis_stoeck[1] == (0, 0)


@pytest.mark.parametrize("kreuzweis", [True, False])
def test_stoeck_count_also_when_king_and_queen_sit_in_a_weis(kreuzweis: bool) -> None:
    ruleset = rules.SCHIEBER.evolve(kreuzweis=kreuzweis)
    game = start(ruleset, STOECK_WEIS_DEAL, SPADES)
    game = play_cards(game, STOECK_WEIS_TRICK_1)
    # trick 14 x 2 = 28, the Weis Q-K-A 20 x 2 = 40
    assert game.scores == (68, 0)
    assert game.hand_weis_stoeck == ((20, 0), (0, 0))
    game = game.play("QS")  # second Stöck card: 20 x 2 more (R7.6)
    assert game.scores == (108, 0)
    assert game.hand_weis_stoeck == ((20, 0), (20, 0))
    assert game.stoeck == Seat(0)


def test_stoeck_survive_a_match_against_the_holders_team() -> None:
    ruleset = rules.SCHIEBER.evolve(weis=False)
    game = start(ruleset, MATCH_DEAL, HEARTS)
    game = play_cards(game, MATCH_TRICKS_1_2[:7])
    assert game.scores == (0, 17)
    game = game.play("QH")
    assert game.scores == (20, 43)
    assert game.stoeck == Seat(0)
    game = play_lowest(game)
    score = game.hand_results[-1]
    assert score.tricks == (0, 9)
    assert score.match == T1
    assert score.stoeck == (20, 0)
    assert score.totals == (20, 257)
    assert game.scores == (20, 257)


@pytest.mark.parametrize(
    "changes",
    [
        {"stoeck_claim_anytime_to_finish": False},
        {"end_mode": "THANK"},
        {"end_mode": "END_OF_HAND"},
        {"end_mode": "THANK", "stoeck_claim_anytime_to_finish": False},
    ],
    ids=["auto-no-claim", "thank", "end-of-hand", "thank-no-claim"],
)
def test_stoeck_on_the_card_that_completes_a_trick_stay_in_the_running_total(
    changes: RuleSetOptions,
) -> None:
    # QH, seat 0's second Stöck card, is the last card of trick 2: 20 for team 0, and the
    # trick's 26 for team 1 (17 + 26 = 43). R9.2a(e): scores include both events.
    ruleset = rules.SCHIEBER.evolve(weis=False).evolve(**changes)
    game = play_cards(start(ruleset, MATCH_DEAL, HEARTS), MATCH_TRICKS_1_2)
    assert game.stoeck == Seat(0)
    assert game.hand_weis_stoeck == ((0, 0), (20, 0))
    assert game.scores == (20, 43)
    game = play_lowest(game, 4)  # trick 3 (AS 10S KS 6S) to team 1: 11 + 10 + 4 = 25 more
    assert game.scores == (20, 68)
    assert play_lowest(game).scores == (20, 257)


# --- the end of the game: AUTO (R9.3) -------------------------------------------------------


def test_auto_ends_at_the_trick_that_reaches_the_target() -> None:
    ruleset = rules.SCHIEBER.evolve(weis=False, multipliers="FLAT", target=40)
    game = start(ruleset, SPLIT_DEAL, Contract.OBENABE)
    game = play_lowest(game, 12)  # tricks 1-3: 0 + 8 + 24
    assert game.scores == (32, 0)
    game = play_lowest(game, 3)
    assert not game.is_over  # the 10 points of trick 4 are on the table, not yet taken
    game = play_lowest(game, 1)
    assert result_of(game) == (T0, EndReason.TARGET_REACHED, (42, 0), ScoringEvent.TRICK)
    assert game.scores == (42, 0)
    assert game.phase is Phase.OVER
    assert game.result is not None
    assert game.result.hands_played == 1
    assert not game.result.schneider
    assert game.result.stake == 1
    with pytest.raises(IllegalActionError) as info:
        game.play("JS")
    assert info.value.reason is IllegalReason.GAME_OVER


def test_auto_ends_at_the_stoeck_before_the_trick_that_holds_the_second_card() -> None:
    # Target 20: team 0's Stöck (QH) reach it, and team 1 would reach it too with trick 2
    # (17 + 26 = 43), but the Stöck come first and the trick is never credited.
    ruleset = rules.SCHIEBER.evolve(weis=False, target=20, stoeck_claim_anytime_to_finish=False)
    game = start(ruleset, MATCH_DEAL, HEARTS)
    game = play_cards(game, MATCH_TRICKS_1_2[:7])
    assert not game.is_over
    assert game.scores == (0, 17)
    game = game.play("QH")
    assert result_of(game) == (T0, EndReason.TARGET_REACHED, (20, 17), ScoringEvent.STOECK)
    assert game.stoeck == Seat(0)
    assert game.tricks_won == (0, 1)  # trick 2 was never taken
    with pytest.raises(IllegalActionError) as info:
        game.play("AS")
    assert info.value.reason is IllegalReason.GAME_OVER


def test_auto_ends_at_the_weis() -> None:
    ruleset = rules.SCHIEBER.evolve(target=20)
    game = start(ruleset, WEIS_DEAL, HEARTS)
    game = play_cards(game, WEIS_TRICK_1[:3])
    assert not game.is_over
    game = game.play(WEIS_TRICK_1[3])
    assert game.result is not None
    assert game.result.event is ScoringEvent.WEIS
    assert game.winner == T0


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        # Weis first: team 0's 20 end the game; the 36 of trick 1 are never credited.
        ("STOECK_WEIS_STICH", (T0, EndReason.TARGET_REACHED, (20, 0), ScoringEvent.WEIS)),
        # Trick first: team 1's 36 end the game; the Weis are never credited.
        ("STOECK_STICH_WEIS", (T1, EndReason.TARGET_REACHED, (0, 36), ScoringEvent.TRICK)),
    ],
)
def test_auto_ausmach_order_when_both_teams_reach_in_trick_one(
    order: str, expected: tuple[Team, EndReason, tuple[int, int], ScoringEvent]
) -> None:
    ruleset = rules.SCHIEBER.evolve(target=20, ausmach_order=order)
    game = play_cards(start(ruleset, WEIS_DEAL, HEARTS), WEIS_TRICK_1)
    assert result_of(game) == expected


def test_the_default_ausmach_order_is_stoeck_weis_stich() -> None:
    assert rules.SCHIEBER.ausmach_order is rules.AusmachOrder.STOECK_WEIS_STICH
    ruleset = rules.SCHIEBER.evolve(target=20)
    game = play_cards(start(ruleset, WEIS_DEAL, HEARTS), WEIS_TRICK_1)
    assert game.winner == T0


def test_without_weis_the_trick_ends_it() -> None:
    ruleset = rules.SCHIEBER.evolve(target=20, weis=False)
    game = play_cards(start(ruleset, WEIS_DEAL, HEARTS), WEIS_TRICK_1)
    assert result_of(game) == (T1, EndReason.TARGET_REACHED, (0, 36), ScoringEvent.TRICK)


def test_auto_keeps_thank_available_and_a_false_thank_loses() -> None:
    ruleset = rules.SCHIEBER.evolve(weis=False, multipliers="FLAT", target=40)
    game = play_lowest(start(ruleset, SPLIT_DEAL, Contract.OBENABE), 12)
    assert Thank(T0) in game.legal_actions()
    lost = game.thank(T0)  # 32 < 40
    assert result_of(lost) == (T1, EndReason.FALSE_THANK, (32, 0), None)


def test_auto_counts_the_match_bonus_with_the_last_trick() -> None:
    # Target 200: team 1's 157 card points do not reach it, 157 + 100 for the match do.
    ruleset = rules.SCHIEBER.evolve(weis=False, target=200)
    game = play_lowest(play_cards(start(ruleset, MATCH_DEAL, HEARTS), MATCH_TRICKS_1_2), 24)
    assert game.tricks_won == (0, 8)
    assert not game.is_over
    game = play_lowest(game)
    assert result_of(game) == (T1, EndReason.TARGET_REACHED, (20, 257), ScoringEvent.TRICK)


# --- Stöck shown to finish (R9.4) -----------------------------------------------------------


def test_auto_claims_stoeck_before_they_are_played() -> None:
    ruleset = rules.SCHIEBER.evolve(weis=False, target=20)
    assert ruleset.stoeck_claim_anytime_to_finish
    game = deal(ruleset, MATCH_DEAL)
    assert not game.is_over
    game = game.choose(HEARTS)  # K+Q in hand, 20 >= 20: shown at once
    assert result_of(game) == (T0, EndReason.TARGET_REACHED, (20, 0), ScoringEvent.STOECK)
    assert game.stoeck == Seat(0)


def test_auto_claims_stoeck_together_with_a_trick() -> None:
    # Spades x2, target 60: after trick 3 team 0 has 14 x 2 = 28; with the Stöck 28 + 40 = 68.
    ruleset = rules.SCHIEBER.evolve(weis=False, target=60)
    game = start(ruleset, SPLIT_DEAL, SPADES)
    game = play_lowest(game, 8)
    assert game.scores == (0, 0)  # 40 alone do not suffice
    assert not game.is_over
    game = play_lowest(game, 4)
    winner, reason, scores, _ = result_of(game)
    assert (winner, reason, scores) == (T0, EndReason.TARGET_REACHED, (68, 0))
    assert game.stoeck == Seat(0)
    assert game.hand_weis_stoeck == ((0, 0), (20, 0))


def test_without_the_claim_stoeck_wait_for_the_second_card() -> None:
    ruleset = rules.SCHIEBER.evolve(weis=False, target=60, stoeck_claim_anytime_to_finish=False)
    game = play_lowest(start(ruleset, SPLIT_DEAL, SPADES), 12)
    assert not game.is_over
    assert game.scores == (28, 0)
    game = play_lowest(game, 4)  # trick 4: 10 x 2
    assert game.scores == (48, 0)
    game = play_lowest(game, 4)  # trick 5: 50 x 2, K and Q still in hand
    assert result_of(game) == (T0, EndReason.TARGET_REACHED, (148, 0), ScoringEvent.TRICK)
    assert game.stoeck is None


def test_without_the_claim_auto_does_not_show_stoeck_at_the_start() -> None:
    ruleset = rules.SCHIEBER.evolve(weis=False, target=20, stoeck_claim_anytime_to_finish=False)
    game = deal(ruleset, MATCH_DEAL).choose(HEARTS)
    assert not game.is_over
    assert game.scores == (0, 0)


@pytest.mark.parametrize("claim", [True, False])
def test_stoeck_shown_together_with_the_weis(claim: bool) -> None:
    # Spades x2, target 70. After trick 1 team 0 has 40 (Weis Q-K-A) + 28 (trick) = 68 < 70.
    # Shown Stöck (KS is out, QS in hand) count first: 40, then the Weis: 80, and the game
    # ends before the trick is credited. Without the claim they wait for QS: 68 + 40 = 108.
    ruleset = rules.SCHIEBER.evolve(target=70, stoeck_claim_anytime_to_finish=claim)
    game = play_cards(start(ruleset, STOECK_WEIS_DEAL, SPADES), STOECK_WEIS_TRICK_1)
    if claim:
        winner, reason, scores, _ = result_of(game)
        assert (winner, reason, scores) == (T0, EndReason.TARGET_REACHED, (80, 0))
        assert game.hand_weis_stoeck == ((20, 0), (20, 0))
        assert game.stoeck == Seat(0)
        return
    assert not game.is_over
    assert game.scores == (68, 0)
    game = game.play("QS")
    assert result_of(game) == (T0, EndReason.TARGET_REACHED, (108, 0), ScoringEvent.STOECK)


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        (True, (T0, EndReason.THANKED)),
        (False, (T1, EndReason.FALSE_THANK)),
    ],
)
def test_a_thank_may_count_stoeck_shown_to_finish(
    claim: bool, expected: tuple[Team, EndReason]
) -> None:
    # THANK mode, spades x2, target 60: 28 from trick 3, 40 more with the unplayed Stöck.
    ruleset = rules.SCHIEBER.evolve(
        weis=False, target=60, end_mode="THANK", stoeck_claim_anytime_to_finish=claim
    )
    game = play_lowest(start(ruleset, SPLIT_DEAL, SPADES), 12)
    assert game.scores == (28, 0)
    done = game.thank(T0)
    assert done.result is not None
    assert (done.result.winner, done.result.reason) == expected
    if claim:
        assert done.result.scores == (68, 0)
        assert done.stoeck == Seat(0)


def test_a_thank_may_show_stoeck_right_after_the_contract_but_not_before() -> None:
    ruleset = rules.SCHIEBER.evolve(weis=False, target=20, end_mode="THANK")
    dealt = deal(ruleset, MATCH_DEAL)
    assert result_of(dealt.thank(T0))[:2] == (T1, EndReason.FALSE_THANK)  # no contract yet
    chosen = dealt.choose(HEARTS)
    assert not chosen.is_over  # THANK mode: nothing is claimed without a thank
    assert result_of(chosen.thank(T0))[:2] == (T0, EndReason.THANKED)
    # Stöck are shown only if they suffice: 20 < 21.
    higher = deal(ruleset.evolve(target=21), MATCH_DEAL)
    assert result_of(higher.choose(HEARTS).thank(T0))[:2] == (T1, EndReason.FALSE_THANK)


# --- thanking (R9.2, R9.2a) -----------------------------------------------------------------


def test_thank_mode_never_ends_by_itself() -> None:
    ruleset = rules.SCHIEBER.evolve(weis=False, multipliers="FLAT", target=40, end_mode="THANK")
    game = start(ruleset, SPLIT_DEAL, Contract.OBENABE)
    for running in SPLIT_OBENABE_RUNNING:  # team 0 passes 40 in trick 4 and plays on
        game = play_lowest(game, 4)
        assert game.scores == (running, 0)
        assert not game.is_over
    game = play_lowest(game)
    assert not game.is_over
    assert game.phase is Phase.DEAL
    assert game.scores == (119, 38)
    game = game.deal()
    assert not game.is_over
    assert game.to_move is not None
    assert Thank(game.to_move.team) in game.legal_actions()


def test_a_thank_counts_completed_tricks_only() -> None:
    ruleset = rules.SCHIEBER.evolve(weis=False, multipliers="FLAT", target=40, end_mode="THANK")
    game = play_lowest(start(ruleset, SPLIT_DEAL, Contract.OBENABE), 15)
    assert [str(c) for c in game.trick] == ["10S", "9H", "9D"]
    assert game.scores == (32, 0)  # the 10 points on the table do not count
    assert result_of(game.thank(T0)) == (T1, EndReason.FALSE_THANK, (32, 0), None)
    game = play_lowest(game, 1)  # trick 4 complete: 42
    assert result_of(game.thank(T0)) == (T0, EndReason.THANKED, (42, 0), ScoringEvent.TRICK)


def test_a_thank_counts_stoeck_from_the_second_card_mid_trick() -> None:
    ruleset = rules.SCHIEBER.evolve(
        weis=False, target=40, end_mode="THANK", stoeck_claim_anytime_to_finish=False
    )
    game = play_cards(start(ruleset, STOECK_DEAL, SPADES), ["KS", "6S", "7S", "8S"])
    assert result_of(game.thank(T0))[:3] == (T1, EndReason.FALSE_THANK, (8, 0))
    game = game.play("QS")  # 8 + 40, with trick 2 still open
    assert result_of(game.thank(T0)) == (T0, EndReason.THANKED, (48, 0), ScoringEvent.STOECK)


def test_a_false_thank_loses_whatever_the_opponents_score() -> None:
    ruleset = rules.SCHIEBER.evolve(weis=False, multipliers="FLAT", end_mode="THANK")
    game = start(ruleset, SPLIT_DEAL, Contract.OBENABE)
    assert Thank(T0) in game.legal_actions()  # offered to the mover's team
    assert Thank(T1) not in game.legal_actions()
    # Nobody has a point: the thanking team loses all the same, and either team may thank.
    assert result_of(game.thank(T0))[:3] == (T1, EndReason.FALSE_THANK, (0, 0))
    assert result_of(game.thank(T1))[:3] == (T0, EndReason.FALSE_THANK, (0, 0))


def test_a_true_thank_wins_whatever_the_opponents_score() -> None:
    # Target 30: team 0 passed it in trick 3 (32) but never thanked; team 1 reaches it with
    # the last trick (38) and thanks: a true thank wins although 38 < 119.
    ruleset = rules.SCHIEBER.evolve(weis=False, multipliers="FLAT", target=30, end_mode="THANK")
    game = play_lowest(start(ruleset, SPLIT_DEAL, Contract.OBENABE))
    assert game.scores == (119, 38)
    assert result_of(game.thank(T1))[:3] == (T1, EndReason.THANKED, (119, 38))


@pytest.mark.parametrize(
    ("order", "first", "event"),
    [
        ("STOECK_WEIS_STICH", T0, ScoringEvent.WEIS),
        ("STOECK_STICH_WEIS", T1, ScoringEvent.TRICK),
    ],
)
def test_thank_after_both_teams_reach_in_trick_one_goes_by_the_ausmach_order(
    order: str, first: Team, event: ScoringEvent
) -> None:
    ruleset = rules.SCHIEBER.evolve(target=20, end_mode="THANK", ausmach_order=order)
    game = start(ruleset, WEIS_DEAL, HEARTS)
    partial = play_cards(game, WEIS_TRICK_1[:3])
    # Weis count only once resolved with the completed trick 1.
    assert result_of(partial.thank(T0))[:2] == (T1, EndReason.FALSE_THANK)
    game = play_cards(game, WEIS_TRICK_1)
    assert game.scores == (20, 36)  # both events are credited in THANK mode
    for thanking in (T0, T1):
        assert result_of(game.thank(thanking)) == (first, EndReason.THANKED, (20, 36), event)


def test_after_that_step_a_true_thank_wins_again() -> None:
    # Both teams reached 20 in trick 1; once trick 2 is complete, that is no longer the
    # current scoring step (R9.2a c), so team 1's true thank wins.
    ruleset = rules.SCHIEBER.evolve(target=20, end_mode="THANK")
    game = play_lowest(play_cards(start(ruleset, WEIS_DEAL, HEARTS), WEIS_TRICK_1), 4)
    assert game.tricks_won[0] + game.tricks_won[1] == 2
    winner, reason, _, _ = result_of(game.thank(T1))
    assert (winner, reason) == (T1, EndReason.THANKED)


def test_thank_after_a_stoeck_and_a_trick_in_the_same_step() -> None:
    # Target 20: team 0 reaches it with the Stöck (QH), team 1 with trick 2 (43), in one step.
    ruleset = rules.SCHIEBER.evolve(
        weis=False, target=20, end_mode="THANK", stoeck_claim_anytime_to_finish=False
    )
    game = play_cards(start(ruleset, MATCH_DEAL, HEARTS), MATCH_TRICKS_1_2)
    assert game.scores == (20, 43)
    for thanking in (T0, T1):
        expected = (T0, EndReason.THANKED, (20, 43), ScoringEvent.STOECK)
        assert result_of(game.thank(thanking)) == expected


# --- END_OF_HAND and hands=n ----------------------------------------------------------------


def test_end_of_hand_decides_at_the_end_of_the_hand() -> None:
    ruleset = rules.BEGINNER.evolve(target=30, contracts=Contract.all())
    game = start(ruleset, SPLIT_DEAL, Contract.OBENABE)
    with pytest.raises(IllegalActionError) as info:
        game.thank(T0)
    assert info.value.reason is IllegalReason.THANK_NOT_ALLOWED
    assert not any(isinstance(a, Thank) for a in game.legal_actions())
    while game.phase is Phase.PLAY:
        assert not game.is_over  # team 0 passes 30 in trick 3, team 1 in trick 9
        game = game.play(min(game.legal_moves()))
    # Both past the target: the higher total wins.
    assert result_of(game) == (T0, EndReason.END_OF_HAND_TARGET, (119, 38), None)
    assert game.result is not None
    assert game.result.hands_played == 1


def test_end_of_hand_plays_on_after_equal_totals() -> None:
    # Hand 2 is hand 1 moved one seat on, so the teams swap: 119 + 38 = 157 each, past 150.
    ruleset = rules.BEGINNER.evolve(target=150, contracts=Contract.all())
    game = play_lowest(start(ruleset, SPLIT_DEAL, Contract.OBENABE))
    assert game.scores == (119, 38)
    assert not game.is_over
    game = play_lowest(game.deal(hands=list(rotated(SPLIT_DEAL, 1))).choose(Contract.OBENABE))
    assert game.scores == (157, 157)
    assert not game.is_over
    with pytest.raises(IllegalActionError) as info:
        game.thank(T1)
    assert info.value.reason is IllegalReason.THANK_NOT_ALLOWED
    game = play_lowest(game.deal(hands=list(rotated(SPLIT_DEAL, 2))).choose(Contract.OBENABE))
    assert result_of(game) == (T0, EndReason.END_OF_HAND_TARGET, (276, 195), None)


def test_a_fixed_number_of_hands_ignores_the_target_and_may_be_drawn() -> None:
    ruleset = rules.SCHIEBER.evolve(
        weis=False, multipliers="FLAT", target=50, hands=2, schneider=True
    )
    game = start(ruleset, SPLIT_DEAL, Contract.OBENABE)
    with pytest.raises(IllegalActionError) as info:
        game.thank(T0)
    assert info.value.reason is IllegalReason.THANK_NOT_ALLOWED
    assert not any(isinstance(a, Thank) for a in game.legal_actions())
    game = play_lowest(game)
    assert game.scores == (119, 38)
    assert not game.is_over  # 119 >= 50, but only the number of hands counts
    game = play_lowest(game.deal(hands=list(rotated(SPLIT_DEAL, 1))).choose(Contract.OBENABE))
    assert result_of(game) == (None, EndReason.HAND_LIMIT, (157, 157), None)
    assert game.winner is None
    assert game.result is not None
    assert game.result.hands_played == 2
    assert not game.result.schneider
    assert game.result.stake == 1


def test_a_fixed_number_of_hands_has_a_winner_and_no_schneider() -> None:
    ruleset = rules.SCHIEBER.evolve(weis=False, multipliers="FLAT", hands=1)
    game = play_lowest(start(ruleset.evolve(schneider=True), SPLIT_DEAL, Contract.OBENABE))
    assert result_of(game) == (T0, EndReason.HAND_LIMIT, (119, 38), None)
    assert game.result is not None
    assert not game.result.schneider  # 2 x 38 < 2500, but there is no Schneider here
    assert game.result.stake == 1


# --- Schneider (R9.5) -----------------------------------------------------------------------


def test_schneider_after_an_automatic_end() -> None:
    ruleset = rules.SCHIEBER.evolve(weis=False, multipliers="FLAT", target=40, schneider=True)
    game = play_lowest(start(ruleset, SPLIT_DEAL, Contract.OBENABE))
    assert result_of(game)[:3] == (T0, EndReason.TARGET_REACHED, (42, 0))
    assert game.result is not None
    assert game.result.schneider
    assert game.result.stake == 2
    assert game.scores == (42, 0)  # the stake does not change the scores


@pytest.mark.parametrize(("target", "schneider"), [(76, False), (77, True)])
def test_schneider_is_less_than_half_the_target(target: int, schneider: bool) -> None:
    # After the hand: 119 against 38. 2 x 38 = 76 is not below 76, but it is below 77.
    ruleset = rules.SCHIEBER.evolve(
        weis=False, multipliers="FLAT", target=target, end_mode="THANK", schneider=True
    )
    game = play_lowest(start(ruleset, SPLIT_DEAL, Contract.OBENABE)).thank(T0)
    assert result_of(game)[:3] == (T0, EndReason.THANKED, (119, 38))
    assert game.result is not None
    assert game.result.schneider is schneider
    assert game.result.stake == (2 if schneider else 1)


def test_no_schneider_after_a_false_thank() -> None:
    ruleset = rules.SCHIEBER.evolve(weis=False, end_mode="THANK", schneider=True)
    game = start(ruleset, SPLIT_DEAL, Contract.OBENABE).thank(T0)
    assert result_of(game)[:3] == (T1, EndReason.FALSE_THANK, (0, 0))
    assert game.result is not None
    assert not game.result.schneider
    assert game.result.stake == 1


def test_schneider_is_off_by_default() -> None:
    assert not rules.SCHIEBER.schneider
    ruleset = rules.SCHIEBER.evolve(weis=False, multipliers="FLAT", target=40)
    game = play_lowest(start(ruleset, SPLIT_DEAL, Contract.OBENABE))
    assert result_of(game)[:3] == (T0, EndReason.TARGET_REACHED, (42, 0))
    assert game.result is not None
    assert not game.result.schneider
    assert game.result.stake == 1


def test_schneider_when_end_of_hand_decides() -> None:
    # END_OF_HAND, target 100: team 0 wins 119 against 38, and 2 x 38 = 76 < 100.
    ruleset = rules.BEGINNER.evolve(target=100, contracts=Contract.all(), schneider=True)
    game = play_lowest(start(ruleset, SPLIT_DEAL, Contract.OBENABE))
    assert result_of(game)[:3] == (T0, EndReason.END_OF_HAND_TARGET, (119, 38))
    assert game.result is not None
    assert game.result.schneider
    assert game.result.stake == 2


# --- match (R8.3) ---------------------------------------------------------------------------


def test_a_lost_zero_point_trick_means_no_match() -> None:
    ruleset = rules.SCHIEBER.evolve(weis=False, stoeck=False)
    game = play_cards(start(ruleset, ZERO_TRICK_DEAL, HEARTS), ["6S", "9S", "7S", "8S"])
    assert game.tricks_won == (0, 1)
    assert game.scores == (0, 0)
    game = play_lowest(game)
    score = game.hand_results[-1]
    assert score.tricks == (8, 1)
    assert score.card_points == (157, 0)
    assert score.match is None
    assert score.bonus == (0, 0)
    assert score.totals == (157, 0)  # hearts x1, and no 100 for the match


# --- Misère (§10) ---------------------------------------------------------------------------


MISERE_RULES = rules.SCHIEBER.evolve(contracts=Contract.all(), weis=False)


def test_misere_credits_each_team_its_opponents_tricks_at_x1() -> None:
    assert MISERE_RULES.multiplier(Contract.OBENABE) == 3
    game = start(MISERE_RULES, SPLIT_DEAL, Contract.MISERE)
    game = play_lowest(game, 8)  # Obenabe play: seat 0 takes tricks 1 (0) and 2 (8)
    assert game.tricks_won == (2, 0)
    assert game.scores == (0, 8)  # credited to the opponents, x1
    game = play_lowest(game)
    score = game.hand_results[-1]
    assert score.multiplier == 1
    assert score.tricks == (8, 1)
    assert score.card_points == (38, 119)  # the last trick's 5 included
    assert score.totals == (38, 119)
    assert game.scores == (38, 119)


def test_misere_auto_end_goes_to_the_credited_team() -> None:
    # Seat 0 takes tricks 1-3 (0, 8, 24): team 1 is credited 0, 8, 32 and reaches 30.
    ruleset = MISERE_RULES.evolve(target=30)
    game = play_lowest(start(ruleset, SPLIT_DEAL, Contract.MISERE))
    assert result_of(game) == (T1, EndReason.TARGET_REACHED, (0, 32), ScoringEvent.TRICK)
    assert game.tricks_won == (3, 0)


@pytest.mark.parametrize("counter_match", ["SAME_AS_MATCH", "NONE", "DOUBLE_MATCH"])
def test_misere_has_no_match_bonus(counter_match: str) -> None:
    ruleset = rules.SCHIEBER.evolve(
        contracts=Contract.all(), weis=False, counter_match=counter_match
    )
    game = play_lowest(start(ruleset, SUITS_DEAL, Contract.MISERE))
    score = game.hand_results[-1]
    assert score.tricks == (9, 0)  # the leader of spades takes every trick
    assert score.bonus == (0, 0)
    assert score.totals == (0, 157)


def test_misere_weis_score_normally_and_there_are_no_stoeck() -> None:
    ruleset = rules.SCHIEBER.evolve(contracts=Contract.all())
    game = start(ruleset, STOECK_WEIS_DEAL, Contract.MISERE)
    game = play_cards(game, STOECK_WEIS_TRICK_1)
    # The trick's 14 go to team 1; team 0 keeps its own Weis Q-K-A, 20 (x1).
    assert game.scores == (20, 14)
    assert game.hand_weis_stoeck == ((20, 0), (0, 0))
    game = game.play("QS")  # K and Q of one suit, but no trumps: no Stöck
    assert game.scores == (20, 14)
    assert game.stoeck is None
    game = play_lowest(game)
    score = game.hand_results[-1]
    assert score.weis == (20, 0)
    assert score.stoeck == (0, 0)
    assert sum(score.totals) == 157 + 20


# --- dealer rotation and shoving back (§11 options 10-11) -----------------------------------


@pytest.mark.parametrize(
    ("rotation", "hands", "contract", "next_dealer"),
    [
        # Hand 1 is dealt by seat 3 (seat 0 leads). Team 1 wins 257 to 20.
        ("ROTATE", MATCH_DEAL, HEARTS, Seat(0)),
        ("WINNER_DEALS", MATCH_DEAL, HEARTS, Seat(1)),
        # Team 0 wins 119 to 38: the first seat of team 0 from seat 0 is seat 0 itself.
        ("ROTATE", SPLIT_DEAL, Contract.OBENABE, Seat(0)),
        ("WINNER_DEALS", SPLIT_DEAL, Contract.OBENABE, Seat(0)),
    ],
)
def test_dealer_rotation(
    rotation: str, hands: FourHands, contract: Contract, next_dealer: Seat
) -> None:
    ruleset = rules.SCHIEBER.evolve(weis=False, multipliers="FLAT", dealer_rotation=rotation)
    game = play_lowest(start(ruleset, hands, contract))
    assert game.hand_info is not None
    assert game.hand_info.dealer == Seat(3)
    following = game.deal()
    assert following.hand_info is not None
    assert following.hand_info.dealer == next_dealer
    assert following.to_move == next_dealer.next  # the forehand chooses


@pytest.mark.parametrize("shove_back", [False, True])
def test_allow_shove_back(shove_back: bool) -> None:
    ruleset = rules.SCHIEBER.evolve(allow_shove_back=shove_back)
    game = deal(ruleset, SPLIT_DEAL).shove()
    assert game.to_move == Seat(2)
    assert (Shove() in game.legal_actions()) is shove_back
    if not shove_back:
        with pytest.raises(IllegalActionError) as info:
            game.shove()
        assert info.value.reason is IllegalReason.SHOVE_NOT_ALLOWED
        chosen = game.choose(Contract.OBENABE)
        assert chosen.hand_info is not None
        assert chosen.hand_info.chooser == Seat(2)
    else:
        back = game.shove()
        assert back.to_move == Seat(0)  # the forehand must now choose
        assert Shove() not in back.legal_actions()
        assert any(isinstance(a, Choose) for a in back.legal_actions())
        chosen = back.choose(Contract.OBENABE)
        assert chosen.hand_info is not None
        assert chosen.hand_info.chooser == Seat(0)
    assert chosen.hand_info.declaring_team == T0
    assert chosen.to_move == Seat(0)  # the forehand leads whoever chose


# --- presets (§12) --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize(
    "ruleset",
    [rules.SCHIEBER, rules.SCHIEBER_1000, rules.TRADITIONAL],
    ids=["SCHIEBER", "SCHIEBER_1000", "TRADITIONAL"],
)
def test_auto_presets_play_to_the_target(ruleset: RuleSet, seed: int) -> None:
    game = random_game(ruleset, seed)
    winner, reason, scores, event = result_of(game)
    assert reason is EndReason.TARGET_REACHED
    assert winner is not None
    assert event is not None
    assert scores[winner] >= ruleset.target > scores[winner.other]
    assert game.scores == scores


@pytest.mark.parametrize("seed", [1, 2])
def test_beginner_plays_to_1000_with_trumps_only(seed: int) -> None:
    assert rules.BEGINNER.target == 1000
    rng = random.Random(seed)
    game = Game.new(rules.BEGINNER, seed=seed)
    trumps = {Contract.trump(suit) for suit in Suit}
    while not game.is_over:
        assert len(game.hand_results) < 60
        game = game.deal()
        offered = {a.contract for a in game.legal_actions() if isinstance(a, Choose)}
        assert offered == trumps
        with pytest.raises(IllegalActionError):
            game.thank(T0)
        game = game.choose(rng.choice(sorted(offered, key=lambda c: c.index)))
        while game.phase is Phase.PLAY:
            game = game.play(rng.choice(game.legal_moves().cards()))
        score = game.hand_results[-1]
        assert score.weis == (0, 0)
        assert score.stoeck == (0, 0)
        assert sum(score.totals) in (157, 257)  # single count, match 257
    winner, reason, scores, _ = result_of(game)
    assert reason is EndReason.END_OF_HAND_TARGET
    assert winner is not None
    assert max(scores) >= 1000
    assert scores[winner] > scores[winner.other]
    assert game.tricks_won[0] + game.tricks_won[1] == 9  # decided at the end of a hand


@pytest.mark.parametrize("seed", [1, 2])
def test_tournament_12_plays_twelve_hands_without_match_bonus(seed: int) -> None:
    game = random_game(rules.TOURNAMENT_12, seed)
    winner, reason, scores, _ = result_of(game)
    assert reason is EndReason.HAND_LIMIT
    assert len(game.hand_results) == 12
    assert game.result is not None
    assert game.result.hands_played == 12
    for score in game.hand_results:
        assert score.totals[0] + score.totals[1] == 157  # x1, no Weis, no Stöck, no bonus
    assert scores == (
        sum(s.totals[0] for s in game.hand_results),
        sum(s.totals[1] for s in game.hand_results),
    )
    expected = None if scores[0] == scores[1] else Team(int(scores[1] > scores[0]))
    assert winner == expected


def test_thank_mode_game_with_a_thanking_bot() -> None:
    ruleset = rules.SCHIEBER.evolve(end_mode="THANK", target=1000)
    game = random_game(ruleset, 3)
    winner, reason, scores, _ = result_of(game)
    assert reason is EndReason.THANKED
    assert winner is not None
    assert scores[winner] >= 1000


SEED_SYSTEMS = {
    "S0": rules.SCHIEBER,
    "S0 to 1000": rules.SCHIEBER_1000.evolve(kreuzweis=True),
    "S0 small Weis": rules.SCHIEBER.evolve(small_weis=True, kreuzweis=False),
    "S0 12 hands": rules.TOURNAMENT_12,
    "S1 1500": rules.SCHIEBER.evolve(target=1500),
    "S1 2000": rules.SCHIEBER.evolve(target=2000),
    "S2": rules.SCHIEBER_1000,
    "S3": rules.TRADITIONAL,
    "S4": rules.BEGINNER,
}


@pytest.mark.parametrize("name", list(SEED_SYSTEMS))
def test_every_seed_rule_system_plays_to_its_end(name: str) -> None:
    ruleset = SEED_SYSTEMS[name]
    game = random_game(ruleset, 11)
    assert game.is_over
    assert game.phase is Phase.OVER
    winner, reason, scores, _ = result_of(game)
    if ruleset.hands is not None:
        assert reason is EndReason.HAND_LIMIT
        assert len(game.hand_results) == ruleset.hands
    elif ruleset is rules.BEGINNER:
        assert reason is EndReason.END_OF_HAND_TARGET
        assert winner is not None
        assert scores[winner] >= ruleset.target
    else:
        assert reason is EndReason.TARGET_REACHED
        assert winner is not None
        assert scores[winner] >= ruleset.target > scores[winner.other]


def test_seed_recipes_are_the_documented_rule_sets() -> None:
    to_1000 = SEED_SYSTEMS["S0 to 1000"]
    assert (to_1000.target, to_1000.kreuzweis) == (1000, True)
    assert to_1000.multiplier(Contract.UNDENUFE) == 1
    small = SEED_SYSTEMS["S0 small Weis"]
    assert (small.small_weis, small.kreuzweis, small.target) == (True, False, 2500)
    assert rules.SCHIEBER_1000.kreuzweis is False
    assert rules.TRADITIONAL.allows(Contract.MISERE)
    assert rules.TRADITIONAL.first_hand_marker == Card.parse("7D")
    assert rules.TOURNAMENT_12.hands == 12
    assert rules.TOURNAMENT_12.match_bonus == 0
    assert not rules.BEGINNER.weis
    assert not rules.BEGINNER.stoeck
    assert rules.BEGINNER.end_mode is rules.EndMode.END_OF_HAND
