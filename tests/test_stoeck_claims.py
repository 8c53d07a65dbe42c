"""Stöck shown to finish only when needed (rule book R9.4), and how long a step is current.

How long a step is current is rule book R9.2a c.

The deal is fixed: seat 0 holds the Stöck (KH QH) under hearts and leads the Buur, so team 0
takes trick 1 for 20 (JH) + 0 (6H) + 10 (10H) + 0 (9D) = 30 card points, multiplier 1.
"""

from __future__ import annotations

import pytest

from jass import Game, RuleSet, ScoringEvent, Seat, Team, rules
from jass.core.scoring import EndReason

# Seat 0: the Stöck and the Buur; seat 3 has no hearts.
DEAL = [
    "JH KH QH 6S 7S 8S 9S 10S JS",
    "6H 7H 8H 6C 7C 8C 9C 10C JC",
    "9H 10H AH QS KS AS 6D 7D 8D",
    "QC KC AC 9D 10D JD QD KD AD",
]
TRICK_1 = ("JH", "6H", "10H", "9D")
TRICK_1_POINTS = 20 + 0 + 10 + 0
STOECK = 20
AUTO = rules.SCHIEBER.evolve(weis=False, target=1000)  # hearts count x1 (SWISSLOS_2500)
THANK = AUTO.evolve(end_mode="THANK")


def start(ruleset: RuleSet, scores: tuple[int, int]) -> Game:
    """Seat 3 deals, so seat 0 names hearts and leads."""
    game = Game.new(ruleset, seed=1, scores=scores, dealer=Seat(3)).deal(hands=DEAL)
    return game.choose("hearts")


def play_trick_1(game: Game) -> Game:
    for card in TRICK_1:
        game = game.play(card)
    return game


def test_the_fixed_deal_is_as_described() -> None:
    game = play_trick_1(start(AUTO, (0, 0)))
    assert game.tricks[0].winner == Seat(0)
    assert game.scores == (TRICK_1_POINTS, 0)
    assert game.stoeck is None  # the Stöck are not played yet, nor needed


def test_alone_stoeck_that_finish_by_themselves_are_claimed_at_once() -> None:
    game = start(AUTO, (1000 - STOECK, 0))
    assert game.is_over
    assert game.result is not None
    assert game.result.event is ScoringEvent.STOECK
    assert game.winner == Team(0)
    assert game.scores == (1000, 0)
    assert game.stoeck == Seat(0)


def test_together_stoeck_are_claimed_with_the_trick_they_complete() -> None:
    before = 1000 - TRICK_1_POINTS - 5  # the trick alone falls 5 short; with the Stöck it finishes
    game = play_trick_1(start(AUTO, (before, 0)))
    assert game.is_over
    assert game.winner == Team(0)
    assert game.scores == (before + STOECK + TRICK_1_POINTS, 0)
    assert game.hand_weis_stoeck[1] == (STOECK, 0)
    assert game.stoeck == Seat(0)


def test_not_needed_stoeck_are_not_claimed_when_the_trick_alone_finishes() -> None:
    before = 1000 - TRICK_1_POINTS  # the trick alone reaches the target exactly
    game = play_trick_1(start(AUTO, (before, 0)))
    assert game.is_over
    assert game.result is not None
    assert game.result.event is ScoringEvent.TRICK
    assert game.scores == (1000, 0)  # not 1020: the Stöck were not needed
    assert game.hand_weis_stoeck[1] == (0, 0)
    assert game.stoeck is None


def test_far_from_the_target_nothing_is_claimed() -> None:
    game = play_trick_1(start(AUTO, (500, 0)))
    assert not game.is_over
    assert game.scores == (500 + TRICK_1_POINTS, 0)
    assert game.stoeck is None


@pytest.mark.parametrize(
    ("before", "claimed"),
    [
        (1000 - STOECK - TRICK_1_POINTS, True),  # needed: the trick leaves it 20 short
        (1000 - TRICK_1_POINTS, False),  # not needed: the trick alone reached the target
    ],
)
def test_a_thank_claims_stoeck_only_when_needed(before: int, claimed: bool) -> None:
    game = play_trick_1(start(THANK, (before, 0))).thank(Team(0))
    assert game.winner == Team(0)
    assert game.result is not None
    assert game.result.reason is EndReason.THANKED
    assert game.scores[0] == before + TRICK_1_POINTS + (STOECK if claimed else 0)
    assert (game.stoeck == Seat(0)) is claimed


@pytest.mark.parametrize("ruleset", [AUTO, THANK], ids=["AUTO", "THANK"])
def test_final_totals_do_not_depend_on_the_end_mode(ruleset: RuleSet) -> None:
    before = 1000 - TRICK_1_POINTS
    game = play_trick_1(start(ruleset, (before, 0)))
    if not game.is_over:
        game = game.thank(Team(0))
    assert game.scores == (1000, 0)


def test_a_step_stays_current_until_the_next_trick_is_completed() -> None:
    """R9.2a(c): both teams reach the target in trick 1 (Weis, then the trick)."""
    # Seat 1's six clubs are the only Weis (150); team 1 takes 150 x 1 with the Weis,
    # team 0 takes trick 1. Both reach 1000 within the trick-1 step.
    ruleset = rules.SCHIEBER.evolve(target=1000, end_mode="THANK", stoeck=False)
    hands = [
        "JH KH QH 6S 8S 10S QD 6D 8D",
        "6H 7H 8H 6C 7C 8C 9C 10C JC",
        "9H 10H AH QS KS AS 7D 9D 7S",
        "QC KC AC 9S 10D JD JS KD AD",
    ]
    game = Game.new(ruleset, seed=1, scores=(1000 - 30, 1000 - 150), dealer=Seat(3))
    game = game.deal(hands=hands).choose("hearts")
    for card in ("JH", "6H", "10H", "9S"):
        game = game.play(card)
    assert game.weis_result is not None
    assert game.weis_result.winner == Seat(1)
    assert game.scores[0] >= 1000
    assert game.scores[1] >= 1000
    # Still trick 1's step, also with cards of trick 2 on the table: Weis before Stich.
    mid_trick = game.play("KH").play("7H")
    for thanking in (Team(0), Team(1)):
        for state in (game, mid_trick):
            assert state.thank(thanking).winner == Team(1)
    # Once trick 2 is complete, a true thank wins, whoever thanks.
    after = mid_trick.play("AH").play("QC")
    assert after.trick == ()
    assert after.thank(Team(0)).winner == Team(0)
    assert after.thank(Team(1)).winner == Team(1)
