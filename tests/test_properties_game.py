"""Property tests of whole games under every preset: Weis, Stöck, totals, the end of a game."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from jass import (
    Card,
    CardSet,
    Contract,
    EndReason,
    Game,
    Phase,
    Play,
    Rank,
    RuleSet,
    Team,
    Thank,
    resolve_weis,
    rules,
)
from jass.rules import EndMode, WeisDeclaration
from tests.helpers import endless, random_states, random_step
from tests.strategies import seeds

PRESETS = list(rules.PRESETS.values())
END_MODES = [
    rules.SCHIEBER.evolve(target=600),
    rules.SCHIEBER.evolve(target=600, end_mode="THANK"),
    rules.SCHIEBER.evolve(target=600, end_mode="END_OF_HAND"),
    rules.TOURNAMENT_12.evolve(hands=3),
]


def stoeck_holder(dealt: tuple[CardSet, ...], contract: Contract) -> int | None:
    suit = contract.trump_suit
    if suit is None:
        return None
    pair = {Card.of(suit, Rank.KING), Card.of(suit, Rank.QUEEN)}
    return next((seat for seat in range(4) if pair <= set(dealt[seat])), None)


@settings(max_examples=25)
@given(preset=st.sampled_from(PRESETS), seed=seeds, rng=st.randoms(use_true_random=False))
def test_every_hand_scores_157_or_257_and_exactly_the_weis_and_stoeck_held(
    preset: RuleSet, seed: int, rng: random.Random
) -> None:
    ruleset = endless(preset) if preset.hands is None else preset  # three hands
    game = Game.new(ruleset, seed=seed)
    for _ in range(min(3, ruleset.hands or 3)):
        game = game.deal()
        hand = game.hand_info
        assert hand is not None
        while game.phase in (Phase.CHOOSE, Phase.PLAY):  # a one-hand game ends after it
            game = game.apply(
                rng.choice([a for a in game.legal_actions() if not isinstance(a, Thank)])
            )
        score = game.hand_results[-1]
        contract = score.contract
        assert score.contract is game.contract
        assert sum(score.card_points) == 157
        if score.match is not None and contract is not Contract.MISERE:
            declarer = score.match == hand.declaring_team
            if ruleset.counter_match is rules.CounterMatch.SAME_AS_MATCH or declarer:
                assert sum(score.bonus) == ruleset.match_bonus
        else:
            assert score.bonus == (0, 0)
        expected_weis = (0, 0)
        if ruleset.weis:
            result = resolve_weis(hand.dealt, contract, hand.forehand, ruleset)
            expected_weis = result.points
            team = result.team
            if ruleset.weis_requires_trick and team is not None and score.tricks[team] == 0:
                expected_weis = (0, 0)
        assert score.weis == expected_weis
        holder = stoeck_holder(hand.dealt, contract) if ruleset.stoeck else None
        expected_stoeck = [0, 0]
        if holder is not None:
            expected_stoeck[holder % 2] = 20
        assert score.stoeck == tuple(expected_stoeck)
        m = ruleset.multiplier(contract)
        assert score.totals == tuple(
            m * (score.card_points[t] + score.bonus[t] + score.weis[t] + score.stoeck[t])
            for t in (0, 1)
        )
        assert game.scores == tuple(sum(r.totals[t] for r in game.hand_results) for t in (0, 1))


@settings(max_examples=30)
@given(
    ruleset=st.sampled_from(PRESETS + END_MODES),
    seed=seeds,
    rng=st.randoms(use_true_random=False),
)
def test_a_game_always_ends_and_totals_add_up(
    ruleset: RuleSet, seed: int, rng: random.Random
) -> None:
    states = random_states(ruleset, seed, rng, max_actions=5000)
    final = states[-1]
    assert final.is_over, "the game did not end"
    result = final.result
    assert result is not None
    assert final.phase is Phase.OVER
    assert final.legal_actions() == ()
    for state in states:
        if state.phase is Phase.DEAL:
            # Between hands the running totals are exactly the sum of the hand scores.
            assert state.scores == tuple(
                sum(r.totals[t] for r in state.hand_results) for t in (0, 1)
            )
    if ruleset.hands is not None:
        assert result.reason is EndReason.HAND_LIMIT
        assert len(final.hand_results) == ruleset.hands
    elif ruleset.end_mode is EndMode.END_OF_HAND:
        assert result.reason is EndReason.END_OF_HAND_TARGET
        assert max(final.scores) >= ruleset.target
    else:
        assert result.reason in (EndReason.TARGET_REACHED, EndReason.THANKED)
        assert result.winner is not None
        assert final.scores[result.winner] >= ruleset.target


@settings(max_examples=40)
@given(
    seed=seeds,
    rng=st.randoms(use_true_random=False),
    mode=st.sampled_from(["AUTO", "THANK"]),
    team=st.sampled_from([Team(0), Team(1)]),
)
def test_a_true_thank_wins_and_a_false_thank_loses(
    seed: int, rng: random.Random, mode: str, team: Team
) -> None:
    ruleset = rules.SCHIEBER.evolve(target=300, end_mode=mode, stoeck_claim_anytime_to_finish=False)
    game = Game.new(ruleset, seed=seed)
    stop = rng.randrange(1, 80)
    for _ in range(stop):
        if game.is_over:
            return
        game = random_step(game, rng, thank=False)
    if game.is_over:
        return
    thanked = game.thank(team)
    assert thanked.result is not None
    if game.scores[team] >= ruleset.target:
        assert thanked.result.reason is EndReason.THANKED
    else:
        assert thanked.winner == team.other
        assert thanked.result.reason is EndReason.FALSE_THANK
    if thanked.result.reason is EndReason.THANKED and thanked.winner != team:
        # Only the ausmach order can give a true thank to the other team (R9.2a c).
        assert game.scores[team.other] >= ruleset.target


@settings(max_examples=20)
@given(seed=seeds, rng=st.randoms(use_true_random=False))
def test_manual_declaration_of_everything_equals_auto(seed: int, rng: random.Random) -> None:
    auto = rules.SCHIEBER
    manual = auto.evolve(weis_declaration=WeisDeclaration.MANUAL)
    games = [Game.new(auto, seed=seed).deal(), Game.new(manual, seed=seed).deal()]
    contract = rng.choice(Contract.standard())
    games = [g.choose(contract) for g in games]
    choices = random.Random(rng.random())
    while games[0].phase is Phase.PLAY:
        card = choices.choice(games[0].legal_moves().cards())
        manual_game = games[1]
        declare = [a for a in manual_game.legal_actions() if not isinstance(a, (Play, Thank))]
        if declare:
            manual_game = manual_game.apply(max(declare, key=lambda a: len(getattr(a, "weis", ()))))
        games = [games[0].play(card), manual_game.play(card)]
    assert games[0].hand_results[-1] == games[1].hand_results[-1]
    assert games[0].scores == games[1].scores
